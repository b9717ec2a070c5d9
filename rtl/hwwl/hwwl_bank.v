// SPDX-License-Identifier: Apache-2.0
// hwwl_bank: one HWWL lane bank (Kim & Batten; ../shared/specs/hwwl_iru_dats.md 1.4) — a FIFO of
// work IDs on a single-port SRAM of DEPTH words, used whole (single-buffer mode) or as two
// partitions of DEPTH/2 with their own head pointers and counts (double-buffer mode: pulls drain
// the pull partition, pushes fill the other, and the two swap at a kernel end once the pull side
// is empty). The C++ model is irr::hwwl::Bank (models/hwwl/bank.h); docs/hwwl.md has the table.
//
// Cycle semantics:
//  - One array access per cycle, chosen by `op`: PULL (oldest pull-side ID), PUSH (to the push
//    side), TAKE (redistribution: the newest pull-side ID), PUT (redistribution into the pull
//    side), FILL (a refilled ID lands in a reserved pull-side entry). An op that is not possible
//    in the current state (nothing to read, no room, no reserved entry) is refused: op_ok = 0.
//    Arbitration among requesters (pulls and pushes before redistribution and refills) is the
//    WRU's and HVU's: they present an op only when the lane's port is free.
//  - `reserve` (no array access) reserves one pull-side entry for a refill on its way: counted as
//    occupied, not pullable. Accepted when the pull side still has a free entry after this
//    cycle's op.
//  - `kernel_end`: in double-buffer mode the partitions swap if the pull side is empty (swapped);
//    only on a cycle with no op and no reserve. It also clears `retired`.
//  - `retire` sets `retired` (the lane pulled DONE); an accepted PUSH or a kernel end clears it.
//  - Outputs other than op_ok, reserve_ok and swapped are registered: the state at the start of
//    the cycle. greedy = occupied > THRESHOLD, needy = occupied < THRESHOLD.
//  - Read latency 1: the ID of a PULL or TAKE accepted in cycle n is on rd_data with rd_valid in
//    n+1; rd_data holds its value otherwise.
//  - rst is synchronous, active high: empties both partitions, clears reserved and retired, and
//    takes the mode from cfg_double (wlcfg: 0 single, 1 double). DEPTH must be even.
module hwwl_bank #(
    parameter DEPTH = 32,
    parameter WIDTH = 24,
    parameter THRESHOLD = 5
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire                        cfg_double,
    input  wire [2:0]                  op,
    input  wire [WIDTH-1:0]            wdata,
    input  wire                        reserve,
    input  wire                        kernel_end,
    input  wire                        retire,
    output wire                        op_ok,
    output wire                        reserve_ok,
    output wire                        swapped,
    output reg                         rd_valid,
    output reg  [WIDTH-1:0]            rd_data,
    output wire [$clog2(DEPTH+1)-1:0]  pullable,
    output reg  [$clog2(DEPTH+1)-1:0]  reserved,
    output wire [$clog2(DEPTH+1)-1:0]  occupied,
    output wire [$clog2(DEPTH+1)-1:0]  push_occupied,
    output wire                        push_full,
    output wire                        empty,
    output wire                        greedy,
    output wire                        needy,
    output reg                         retired,
    output reg                         double_mode,
    output reg                         pull_part
);
  localparam [2:0] NONE = 3'd0, PULL = 3'd1, PUSH = 3'd2, TAKE = 3'd3, PUT = 3'd4, FILL = 3'd5;
  localparam AW = $clog2(DEPTH);
  localparam CW = $clog2(DEPTH + 1);
  localparam [CW-1:0] HALF = CW'(DEPTH / 2);
  localparam [CW-1:0] WHOLE = CW'(DEPTH);
  localparam [CW:0] T = (CW + 1)'(THRESHOLD);

  reg [WIDTH-1:0] mem[0:DEPTH-1];
  reg [CW-1:0] head0, head1;  // per partition, an index within it (registers, not an array)
  reg [CW-1:0] count0, count1;

  wire push_part = double_mode ? ~pull_part : pull_part;
  wire [CW-1:0] cap = double_mode ? HALF : WHOLE;
  wire [CW-1:0] pull_count = pull_part ? count1 : count0;
  wire [CW-1:0] push_count = push_part ? count1 : count0;

  assign pullable = pull_count;
  assign occupied = pull_count + reserved;
  assign push_occupied = push_count + (double_mode ? {CW{1'b0}} : reserved);
  assign push_full = push_occupied >= cap;
  assign empty = occupied == {CW{1'b0}};
  assign greedy = {1'b0, occupied} > T;
  assign needy = {1'b0, occupied} < T;

  // An index within a partition: x < 2 * cap wraps once.
  function automatic [CW-1:0] wrap(input [CW:0] x, input [CW-1:0] c);
    wrap = x >= {1'b0, c} ? CW'(x - {1'b0, c}) : x[CW-1:0];
  endfunction
  function automatic [AW-1:0] address(input part, input [CW-1:0] index);
    address = AW'((double_mode && part ? {1'b0, HALF} : {(CW + 1) {1'b0}}) + {1'b0, index});
  endfunction

  assign op_ok = (op == PULL || op == TAKE) ? pull_count != {CW{1'b0}}
               : op == PUSH ? !push_full
               : op == PUT ? occupied < cap
               : op == FILL ? reserved != {CW{1'b0}}
               : 1'b0;
  // The pull side's occupancy after this cycle's op, for the reserve.
  wire grows = op_ok && (op == PUT || (op == PUSH && !double_mode));
  wire shrinks = op_ok && (op == PULL || op == TAKE);
  wire [CW:0] occupied_after = {1'b0, occupied} + {{CW{1'b0}}, grows} - {{CW{1'b0}}, shrinks};
  assign reserve_ok = reserve && occupied_after < {1'b0, cap};
  assign swapped = kernel_end && double_mode && empty && op == NONE && !reserve;

  wire [CW-1:0] pull_head = pull_part ? head1 : head0;
  wire [CW:0] pull_tail = {1'b0, pull_head} + {1'b0, pull_count};
  wire [CW:0] push_tail = {1'b0, push_part ? head1 : head0} + {1'b0, push_count};
  // The next count and head of the partitions the op touches.
  wire [CW-1:0] pull_head_next = wrap({1'b0, pull_head} + 1'b1, cap);
  wire [CW-1:0] pull_count_next = op == PULL || op == TAKE ? pull_count - 1'b1 : pull_count + 1'b1;
  wire touches_pull = op_ok && op != PUSH;
  wire touches_push = op_ok && op == PUSH;

  always @(posedge clk) begin
    if (rst) begin
      head0 <= {CW{1'b0}};
      head1 <= {CW{1'b0}};
      count0 <= {CW{1'b0}};
      count1 <= {CW{1'b0}};
      reserved <= {CW{1'b0}};
      retired <= 1'b0;
      rd_valid <= 1'b0;
      double_mode <= cfg_double;
      pull_part <= 1'b0;
    end else begin
      rd_valid <= op_ok && (op == PULL || op == TAKE);
      // The one array access.
      if (op_ok) begin
        case (op)
          PULL: rd_data <= mem[address(pull_part, pull_head)];
          TAKE: rd_data <= mem[address(pull_part, wrap(pull_tail - 1'b1, cap))];
          PUSH: mem[address(push_part, wrap(push_tail, cap))] <= wdata;
          default: mem[address(pull_part, wrap(pull_tail, cap))] <= wdata;  // PUT, FILL
        endcase
      end
      if (touches_pull && !pull_part) count0 <= pull_count_next;
      if (touches_pull && pull_part) count1 <= pull_count_next;
      if (touches_push && !push_part) count0 <= push_count + 1'b1;
      if (touches_push && push_part) count1 <= push_count + 1'b1;
      if (op_ok && op == PULL && !pull_part) head0 <= pull_head_next;
      if (op_ok && op == PULL && pull_part) head1 <= pull_head_next;
      reserved <= reserved - {{(CW - 1) {1'b0}}, op_ok && op == FILL} + {{(CW - 1) {1'b0}}, reserve_ok};
      if (swapped) pull_part <= ~pull_part;
      if (kernel_end || (op_ok && op == PUSH)) retired <= 1'b0;
      else if (retire) retired <= 1'b1;
    end
  end
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_pull: cover property (@(posedge clk) cover_on && op == PULL && op_ok);
  c_pull_empty: cover property (@(posedge clk) cover_on && op == PULL && !op_ok);
  c_push: cover property (@(posedge clk) cover_on && op == PUSH && op_ok);
  c_push_full: cover property (@(posedge clk) cover_on && op == PUSH && !op_ok);
  c_push_refused_reserved: cover property (@(posedge clk) cover_on && op == PUSH && !op_ok && !double_mode && reserved != {CW{1'b0}});
  c_take: cover property (@(posedge clk) cover_on && op == TAKE && op_ok);
  c_put: cover property (@(posedge clk) cover_on && op == PUT && op_ok);
  c_put_full: cover property (@(posedge clk) cover_on && op == PUT && !op_ok);
  c_fill: cover property (@(posedge clk) cover_on && op == FILL && op_ok);
  c_fill_unreserved: cover property (@(posedge clk) cover_on && op == FILL && !op_ok);
  c_reserve: cover property (@(posedge clk) cover_on && reserve_ok);
  c_reserve_refused: cover property (@(posedge clk) cover_on && reserve && !reserve_ok);
  c_swap: cover property (@(posedge clk) cover_on && swapped);
  c_no_swap_not_empty: cover property (@(posedge clk) cover_on && kernel_end && double_mode && !empty);
  c_pull_partition1: cover property (@(posedge clk) cover_on && op == PULL && op_ok && pull_part);
  c_pull_wraps: cover property (@(posedge clk) cover_on && op == PULL && op_ok && pull_head == cap - 1'b1);
  c_greedy: cover property (@(posedge clk) cover_on && greedy);
  c_needy: cover property (@(posedge clk) cover_on && needy);
  c_at_threshold: cover property (@(posedge clk) cover_on && {1'b0, occupied} == T);
  c_push_revives_retired: cover property (@(posedge clk) cover_on && retired && op == PUSH && op_ok);
  c_reset_double: cover property (@(posedge clk) cover_on && rst && cfg_double);
  c_reset_single: cover property (@(posedge clk) cover_on && rst && !cfg_double);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal hwwl_bank; docs/rtl.md "Formal"): rst in the first cycle.
  reg f_started = 1'b0;
  always @(posedge clk) f_started <= 1'b1;
  always @* if (!f_started) assume(rst);

  // State invariants: counts and heads within their partition, reserved entries on the pull side,
  // one partition in single-buffer mode.
  always @* if (f_started) begin
    counts_bounded: assert(count0 <= cap && count1 <= cap && head0 < cap && head1 < cap);
    occupancy_bounded: assert({1'b0, pull_count} + {1'b0, reserved} <= {1'b0, cap});
    single_mode_one_partition: assert(double_mode || (!pull_part && count1 == {CW{1'b0}} && head1 == {CW{1'b0}}));
    greedy_needy_exclusive: assert(!(greedy && needy));
  end
  // What is accepted: exactly what the state allows.
  always @* begin
    pull_rule: assert(!(op == PULL || op == TAKE) || op_ok == (pullable != {CW{1'b0}}));
    push_rule: assert(!(op == PUSH) || op_ok == !push_full);
    fill_rule: assert(!(op == FILL) || op_ok == (reserved != {CW{1'b0}}));
    put_rule: assert(!(op == PUT) || op_ok == (occupied < cap));
    swap_rule: assert(!swapped || (double_mode && empty && kernel_end));
  end
  always @(posedge clk) if (f_started && !$past(rst)) begin
    reserve_counted: assert(reserved == $past(reserved) + CW'($past(reserve_ok)) - CW'($past(op_ok && op == FILL)));
    read_follows_pull: assert(rd_valid == $past(op_ok && (op == PULL || op == TAKE)));
    swap_flips_sides: assert(pull_part == ($past(pull_part) ^ $past(swapped)));
  end

  // No loss, in order: one ID, chosen by the solver as it is written (PUSH, PUT or FILL), is
  // read by the PULL that finds it oldest or the TAKE that finds it newest on its partition.
  (* anyseq *) reg f_pick;
  reg [1:0] f_phase = 2'd0;  // 0 not chosen, 1 stored, 2 read (on rd_data now), 3 done
  reg [WIDTH-1:0] f_word;
  reg f_part;
  reg [CW-1:0] f_pos;  // place in its partition from the head
  wire [CW-1:0] f_head = f_part ? head1 : head0;
  wire [CW-1:0] f_count = f_part ? count1 : count0;
  always @(posedge clk) begin
    if (rst) f_phase <= 2'd0;
    else if (f_phase == 2'd0 && op_ok && (op == PUSH || op == PUT || op == FILL) && f_pick) begin
      f_phase <= 2'd1;
      f_word <= wdata;
      f_part <= op == PUSH ? push_part : pull_part;
      f_pos <= op == PUSH ? push_count : pull_count;
    end else if (f_phase == 2'd1 && op_ok && f_part == pull_part && op == PULL) begin
      if (f_pos == {CW{1'b0}}) f_phase <= 2'd2;
      else f_pos <= f_pos - 1'b1;
    end else if (f_phase == 2'd1 && op_ok && f_part == pull_part && op == TAKE && f_pos == pull_count - 1'b1)
      f_phase <= 2'd2;
    else if (f_phase == 2'd2) f_phase <= 2'd3;
  end
  always @* if (f_started && f_phase == 2'd1)
    id_kept_in_order: assert(f_pos < f_count && mem[address(f_part, wrap({1'b0, f_head} + {1'b0, f_pos}, cap))] == f_word);
  always @* if (f_started && f_phase == 2'd2) id_read_in_order: assert(rd_valid && rd_data == f_word);
`endif
endmodule
