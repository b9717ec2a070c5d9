// SPDX-License-Identifier: Apache-2.0
// iru_hash_bank: one bank of an IRU reordering-hash partition (Segura et al.;
// ../shared/specs/hwwl_iru_dats.md 2.4, 2.5.3): SETS direct-mapped entries of up to CAP elements
// (24-bit index, 32-bit secondary value, 24-bit position), each entry one SRAM row with, in flops,
// its count and the slot of its oldest element (a circular buffer in arrival order). The C++ model
// is irr::iru::HashBank (models/iru/hash_bank.h); docs/iru.md has the table.
//
// Cycle semantics (one operation per cycle on row `set_addr`, read and written back in the cycle):
//  - INSERT: with a filter (filter 1 min, 2 add_f32), an element whose index is already in the
//    entry merges into the oldest such element — min keeps the smaller secondary value (unsigned)
//    with its position, add_f32 adds the values (iru_fadd) — and result = MERGED with `dropped` the
//    position that is gone; otherwise a full entry refuses (FULL) and another takes the element at
//    its end (INSERTED), whatever lines its elements touch (merge on tag mismatch [S L161]).
//  - TAKE: removes the k oldest elements (1 <= k <= count; else result = REFUSED, nothing changes);
//    the replier reads them from row/head on the same cycle.
//  - Outputs are combinational on the state at the start of the cycle: result, dropped, and the
//    row of `set_addr` (physical slots), its head and count, for any op (none: just look).
//  - rst is synchronous, active high: every entry empty. CAP is a power of two.
module iru_hash_bank #(
    parameter SETS = 128,
    parameter CAP = 32
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire [1:0]                  filter,
    input  wire [1:0]                  op,
    input  wire [SW-1:0]               set_addr,
    input  wire [CW-1:0]               k,
    input  wire [23:0]                 in_index,
    input  wire [31:0]                 in_secondary,
    input  wire [23:0]                 in_position,
    output reg  [1:0]                  result,
    output reg  [23:0]                 dropped,
    output wire [CAP*EW-1:0]           row,
    output wire [AW-1:0]               head,
    output wire [CW-1:0]               count
);
  localparam [1:0] INSERT = 2'd1, TAKE = 2'd2;  // 0: no operation
  localparam [1:0] R_NONE = 2'd0, INSERTED = 2'd1, MERGED = 2'd2, FULL = 2'd3;  // TAKE: 1 taken, 3 refused
  localparam EW = 80;  // index | secondary | position
  localparam SW = SETS > 1 ? $clog2(SETS) : 1;
  localparam AW = CAP > 1 ? $clog2(CAP) : 1;
  localparam CW = $clog2(CAP + 1);

  reg [CAP*EW-1:0] mem[0:SETS-1];
  reg [SETS*AW-1:0] heads;   // per set, in flops
  reg [SETS*CW-1:0] counts;

  assign row = mem[set_addr];
  assign head = heads[set_addr*AW+:AW];
  assign count = counts[set_addr*CW+:CW];
  wire [AW-1:0] tail = head + AW'(count);

  // The oldest element with the incoming index (filtering only): the slots' comparators, rotated
  // to arrival order by the head, the first one set.
  reg [CAP-1:0] hit, hit_by_age;
  reg           match;
  reg [AW-1:0]  match_age, match_slot, age;
  integer       j;
  always @* begin
    for (j = 0; j < CAP; j = j + 1) begin
      age = AW'(j) - head;  // the slot's place in arrival order (modulo CAP)
      hit[j] = filter != 2'd0 && CW'(age) < count && row[j*EW+56+:24] == in_index;
    end
    hit_by_age = CAP'({hit, hit} >> head);
    match = |hit_by_age;
    match_age = {AW{1'b0}};
    for (j = CAP - 1; j >= 0; j = j - 1)
      if (hit_by_age[j]) match_age = AW'(j);
    match_slot = head + match_age;
  end

  reg [55:0] old;  // the matched element's secondary value and position
  always @* begin
    old = 56'd0;
    for (j = 0; j < CAP; j = j + 1)
      if (AW'(j) == match_slot) old = row[j*EW+:56];
  end
  wire [31:0] old_secondary = old[55:24];
  wire [23:0] old_position = old[23:0];
  wire [31:0] sum;
  iru_fadd adder (.a(old_secondary), .b(in_secondary), .y(sum));
  wire        replace = filter == 2'd1 && in_secondary < old_secondary;  // min: the newcomer stays

  reg [CAP*EW-1:0] new_row;
  always @* begin
    result = R_NONE;
    dropped = 24'd0;
    new_row = row;
    if (op == INSERT) begin
      if (match) begin
        result = MERGED;
        dropped = replace ? old_position : in_position;
      end else if (count == CW'(CAP)) begin
        result = FULL;
      end else begin
        result = INSERTED;
      end
      for (j = 0; j < CAP; j = j + 1) begin
        if (result == MERGED && AW'(j) == match_slot && replace) new_row[j*EW+:EW] = {in_index, in_secondary, in_position};
        if (result == MERGED && AW'(j) == match_slot && !replace && filter == 2'd2) new_row[j*EW+24+:32] = sum;
        if (result == INSERTED && AW'(j) == tail) new_row[j*EW+:EW] = {in_index, in_secondary, in_position};
      end
    end else if (op == TAKE) begin
      result = k != {CW{1'b0}} && k <= count ? INSERTED : FULL;
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      heads <= {SETS * AW{1'b0}};
      counts <= {SETS * CW{1'b0}};
    end else if (op == INSERT && (result == INSERTED || result == MERGED)) begin
      mem[set_addr] <= new_row;
      if (result == INSERTED) counts[set_addr*CW+:CW] <= count + CW'(1);
    end else if (op == TAKE && result == INSERTED) begin
      heads[set_addr*AW+:AW] <= head + AW'(k);
      counts[set_addr*CW+:CW] <= count - k;
    end
  end
endmodule
