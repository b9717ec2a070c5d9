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
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_insert: cover property (@(posedge clk) cover_on && op == INSERT && result == INSERTED);
  c_insert_full: cover property (@(posedge clk) cover_on && op == INSERT && result == FULL);
  c_insert_wraps: cover property (@(posedge clk) cover_on && op == INSERT && result == INSERTED && AW'(head + AW'(count)) < head);
  c_duplicate_no_filter: cover property (@(posedge clk) cover_on && op == INSERT && filter == 2'd0 && result == INSERTED && count != {CW{1'b0}});
  c_merge_min_newcomer: cover property (@(posedge clk) cover_on && op == INSERT && result == MERGED && filter == 2'd1 && replace);
  c_merge_min_old: cover property (@(posedge clk) cover_on && op == INSERT && result == MERGED && filter == 2'd1 && !replace);
  c_merge_add: cover property (@(posedge clk) cover_on && op == INSERT && result == MERGED && filter == 2'd2);
  c_merge_into_full: cover property (@(posedge clk) cover_on && op == INSERT && result == MERGED && count == CW'(CAP));
  c_take: cover property (@(posedge clk) cover_on && op == TAKE && result == INSERTED);
  c_take_all: cover property (@(posedge clk) cover_on && op == TAKE && result == INSERTED && k == count);
  c_take_refused: cover property (@(posedge clk) cover_on && op == TAKE && result == FULL);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal iru_hash_bank; docs/rtl.md "Formal"): rst in the first cycle; the
  // filter is a configuration, changed only with a reset.
  reg f_started = 1'b0, f_reset;
  reg [1:0] f_filter;
  always @(posedge clk) begin
    f_started <= 1'b1;
    f_reset <= rst;
    f_filter <= filter;
  end
  always @* begin
    if (!f_started) assume(rst);
    else if (!f_reset) assume(filter == f_filter);
  end

  // The live elements of row set_addr, from head and count, and whether one holds in_index.
  reg [CAP-1:0] f_live;
  reg f_match, f_bounded, f_empty;
  reg [EW-1:0] f_x;
  integer f_j, f_s;
  always @* begin
    f_match = 1'b0;
    for (f_j = 0; f_j < CAP; f_j = f_j + 1) begin
      f_live[f_j] = CW'(AW'(AW'(f_j) - head)) < count;
      f_x = row[f_j*EW+:EW];
      if (f_live[f_j] && f_x[79:56] == in_index) f_match = 1'b1;
    end
    f_bounded = 1'b1;
    f_empty = 1'b1;
    for (f_s = 0; f_s < SETS; f_s = f_s + 1) begin
      f_bounded = f_bounded && counts[f_s*CW+:CW] <= CW'(CAP);
      f_empty = f_empty && counts[f_s*CW+:CW] == {CW{1'b0}} && heads[f_s*AW+:AW] == {AW{1'b0}};
    end
    if (op == INSERT)
      insert_rule: assert(result == (filter != 2'd0 && f_match ? MERGED : count == CW'(CAP) ? FULL : INSERTED));
    if (op == TAKE)
      take_rule: assert(result == (k != {CW{1'b0}} && k <= count ? INSERTED : FULL));
    if (f_started) begin
      counts_bounded: assert(f_bounded);
      if (f_reset) reset_empties: assert(f_empty);
    end
  end

  // One set, chosen by the solver: its count follows inserts and takes; a min merge keeps the
  // smaller value.
  (* anyconst *) reg [SW-1:0] f_set;
  always @* assume(32'(f_set) < SETS);
  wire [CW-1:0] f_count = counts[32'(f_set)*CW+:CW];
  always @(posedge clk) if (f_started && !$past(rst)) begin
    if ($past(set_addr) != f_set || $past(op) == 2'd0 || $past(op) == 2'd3)
      count_untouched: assert(f_count == $past(f_count));
    else if ($past(op) == INSERT)
      count_after_insert: assert(f_count == $past(f_count) + CW'($past(result) == INSERTED));
    else
      count_after_take: assert(f_count == $past(f_count) - ($past(result) == INSERTED ? $past(k) : {CW{1'b0}}));
  end
  wire [CAP*EW-1:0] f_row = mem[f_set];
  wire [AW-1:0] f_head = heads[32'(f_set)*AW+:AW];
  // with a filter, no index twice in the set's entry (a second one merges)
  reg f_unique;
  reg [EW-1:0] f_e, f_o;
  integer f_a, f_b;
  always @* begin
    f_unique = 1'b1;
    for (f_a = 0; f_a < CAP; f_a = f_a + 1)
      for (f_b = f_a + 1; f_b < CAP; f_b = f_b + 1) begin
        f_e = f_row[f_a*EW+:EW];
        f_o = f_row[f_b*EW+:EW];
        if (filter != 2'd0 && CW'(AW'(AW'(f_a) - f_head)) < f_count && CW'(AW'(AW'(f_b) - f_head)) < f_count &&
            f_e[79:56] == f_o[79:56])
          f_unique = 1'b0;
      end
    if (f_started) indices_unique: assert(f_unique);
  end
  reg [AW-1:0] f_match_slot;
  always @(posedge clk) f_match_slot <= match_slot;
  reg [EW-1:0] f_kept;
  integer f_c;
  always @* begin
    f_kept = {EW{1'b0}};
    for (f_c = 0; f_c < CAP; f_c = f_c + 1) if (AW'(f_c) == f_match_slot) f_kept = f_row[f_c*EW+:EW];
  end
  always @(posedge clk)
    if (f_started && !$past(rst) && $past(set_addr) == f_set && $past(op) == INSERT && $past(result) == MERGED &&
        $past(filter) == 2'd1)
      min_merge_keeps_smaller: assert(f_kept[55:24] == ($past(in_secondary) < $past(old_secondary) ? $past(in_secondary) : $past(old_secondary)));
`endif
endmodule
