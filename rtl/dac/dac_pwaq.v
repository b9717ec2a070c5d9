// SPDX-License-Identifier: Apache-2.0
// DAC's per-warp address queues (PWAQ; seed 001 Table 3.1: 192 entries a SM, 1560 bytes = 65 bits
// an entry, partitioned among the warps [S L691, L809]): one single-port SRAM of WARPS x DEPTH
// records — a 33-bit line address (a 40-bit address space in 128-byte lines) and a 32-bit word
// mask — holding a FIFO per warp, with its head and count. PORTS 1: one access a cycle, the warp
// dequeuing (deq.data / deq.addr) before the AEU enqueuing; PORTS 2 (a read and a write port):
// a dequeue and an enqueue in the same cycle. The record read is registered.
module dac_pwaq #(
    parameter WARPS = 48,
    parameter DEPTH = 4,
    parameter PORTS = 1
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       push,
    input  wire [$clog2(WARPS > 1 ? WARPS : 2)-1:0] push_warp,
    input  wire [32:0]                push_line,
    input  wire [31:0]                push_mask,
    input  wire                       pop,
    input  wire [$clog2(WARPS > 1 ? WARPS : 2)-1:0] pop_warp,
    output wire                       push_ok,   // taken this cycle
    output wire                       pop_ok,
    output reg                        rd_valid,  // the popped record, the cycle after
    output reg  [32:0]                rd_line,
    output reg  [31:0]                rd_mask,
    output wire [$clog2(DEPTH+1)-1:0] push_count // the pushing warp's records
);
  localparam WW = $clog2(WARPS > 1 ? WARPS : 2);
  localparam AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam CW = $clog2(DEPTH + 1);
  localparam [AW-1:0] LAST = AW'(DEPTH - 1);
  localparam [CW-1:0] FULL_COUNT = CW'(DEPTH);
  localparam EW = $clog2(WARPS * DEPTH > 1 ? WARPS * DEPTH : 2);

  reg [64:0]         mem[0:WARPS*DEPTH-1];
  // Heads and counts in flip-flops (packed, so that synthesis keeps them out of SRAM).
  reg [WARPS*AW-1:0] heads;
  reg [WARPS*CW-1:0] counts;
  wire [AW-1:0] pop_head = heads[pop_index * AW +: AW];
  wire [CW-1:0] pop_count = counts[pop_index * CW +: CW];
  wire [AW-1:0] push_head = heads[push_index * AW +: AW];
  wire [CW-1:0] push_cnt = counts[push_index * CW +: CW];

  // A warp's slot k of its partition.
  function automatic [EW-1:0] address(input [WW-1:0] w, input [AW-1:0] k);
    address = EW'(w) * EW'(DEPTH) + EW'(k);
  endfunction
  function automatic [AW-1:0] wrap(input [AW:0] k);
    wrap = k > {1'b0, LAST} ? AW'(k - (AW + 1)'(DEPTH)) : k[AW-1:0];
  endfunction

  wire in_range_push = 32'(push_warp) < WARPS;
  wire in_range_pop = 32'(pop_warp) < WARPS;
  // Out-of-range warps read warp 0's fields; their requests are refused anyway.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] push_index = in_range_push ? 32'(push_warp) : 32'd0;
  wire [31:0] pop_index = in_range_pop ? 32'(pop_warp) : 32'd0;
  /* verilator lint_on UNUSEDSIGNAL */
  assign pop_ok = pop && in_range_pop && pop_count != {CW{1'b0}};
  assign push_ok = push && in_range_push && (PORTS > 1 || !pop_ok) && push_cnt != FULL_COUNT;
  wire same = pop_ok && push_ok && pop_index == push_index;  // PORTS 2: one warp's count in and out
  assign push_count = in_range_push ? push_cnt : {CW{1'b0}};

  always @(posedge clk) begin
    if (rst) begin
      heads <= {WARPS * AW{1'b0}};
      counts <= {WARPS * CW{1'b0}};
      rd_valid <= 1'b0;
    end else begin
      rd_valid <= pop_ok;
      if (pop_ok) begin
        {rd_line, rd_mask} <= mem[address(pop_warp, pop_head)];
        heads[pop_index * AW +: AW] <= pop_head == LAST ? {AW{1'b0}} : pop_head + 1'b1;
        if (!same) counts[pop_index * CW +: CW] <= pop_count - 1'b1;
      end
      if (push_ok) begin
        mem[address(push_warp, wrap({1'b0, push_head} + (AW + 1)'(push_cnt)))] <= {push_line, push_mask};
        if (!same) counts[push_index * CW +: CW] <= push_cnt + 1'b1;
      end
    end
  end
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_push: cover property (@(posedge clk) cover_on && push_ok);
  c_pop: cover property (@(posedge clk) cover_on && pop_ok);
  c_push_full: cover property (@(posedge clk) cover_on && push && in_range_push && push_cnt == FULL_COUNT);
  c_pop_empty: cover property (@(posedge clk) cover_on && pop && in_range_pop && pop_count == {CW{1'b0}});
  generate
    if (PORTS > 1) begin : two_ports
      c_push_pop_same_warp: cover property (@(posedge clk) cover_on && same);
      c_push_pop_two_warps: cover property (@(posedge clk) cover_on && push_ok && pop_ok && pop_index != push_index);
    end else begin : one_port
      c_push_refused_by_pop: cover property (@(posedge clk) cover_on && push && pop_ok && !push_ok && push_cnt != FULL_COUNT);
    end
  endgenerate
  c_warp_out_of_range: cover property (@(posedge clk) cover_on && (push && !in_range_push) || (pop && !in_range_pop));
  c_head_wraps: cover property (@(posedge clk) cover_on && pop_ok && pop_head == LAST);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal dac_pwaq; docs/rtl.md "Formal"): rst in the first cycle.
  reg f_started = 1'b0;
  always @(posedge clk) f_started <= 1'b1;
  always @* if (!f_started) assume(rst);

  reg f_bounded;
  integer f_i;
  always @* begin
    f_bounded = 1'b1;
    for (f_i = 0; f_i < WARPS; f_i = f_i + 1)
      f_bounded = f_bounded && counts[f_i*CW+:CW] <= FULL_COUNT && heads[f_i*AW+:AW] <= LAST;
    if (f_started) counts_bounded: assert(f_bounded);
  end
  always @* begin
    pop_rule: assert(pop_ok == (pop && in_range_pop && pop_count != {CW{1'b0}}));
    push_rule: assert(push_ok == (push && in_range_push && push_cnt != FULL_COUNT && (PORTS > 1 || !pop_ok)));
  end
  always @(posedge clk) if (f_started && !$past(rst)) read_follows_pop: assert(rd_valid == $past(pop_ok));

  // One warp, chosen by the solver: its count follows its accepted pushes and pops, and one of its
  // records, chosen as it is pushed, is read by the pop that finds it at the head (no loss, in order).
  (* anyconst *) reg [WW-1:0] f_warp;
  (* anyseq *) reg f_pick;
  always @* assume(32'(f_warp) < WARPS);
  wire [CW-1:0] f_count = counts[32'(f_warp)*CW+:CW];
  wire [AW-1:0] f_head = heads[32'(f_warp)*AW+:AW];
  wire f_push = push_ok && push_warp == f_warp, f_pop = pop_ok && pop_warp == f_warp;
  always @(posedge clk) if (f_started && !$past(rst))
    count_tracks_ops: assert(f_count == $past(f_count) + CW'($past(f_push)) - CW'($past(f_pop)));
  reg [1:0] f_phase = 2'd0;  // 0 not chosen, 1 queued, 2 popped (read out now), 3 done
  reg [64:0] f_record;
  reg [CW-1:0] f_ahead;
  always @(posedge clk) begin
    if (rst) f_phase <= 2'd0;
    else if (f_phase == 2'd0 && f_push && f_pick) begin
      f_phase <= 2'd1;
      f_record <= {push_line, push_mask};
      f_ahead <= f_count - CW'(f_pop);
    end else if (f_phase == 2'd1 && f_pop) begin
      if (f_ahead == {CW{1'b0}}) f_phase <= 2'd2;
      else f_ahead <= f_ahead - 1'b1;
    end else if (f_phase == 2'd2) f_phase <= 2'd3;
  end
  always @* if (f_started && f_phase == 2'd1)
    record_kept_in_order: assert(f_ahead < f_count && mem[address(f_warp, wrap({1'b0, f_head} + (AW + 1)'(f_ahead)))] == f_record);
  always @* if (f_started && f_phase == 2'd2) record_read_in_order: assert(rd_valid && {rd_line, rd_mask} == f_record);
`endif
endmodule
