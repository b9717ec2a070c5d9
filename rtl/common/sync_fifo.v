// SPDX-License-Identifier: Apache-2.0
// sync_fifo: a FIFO on a single-port SRAM — one array access, a push or a pop, per cycle.
//
// Cycle semantics (docs/rtl.md has the table):
//  - count, full and empty are registered: the state at the start of the cycle.
//  - pop_ok = pop && !empty; push_ok = push && !full && !pop_ok: a pop wins the one SRAM access,
//    so on a partly full queue a push presented with a pop is refused and must be retried;
//    on an empty queue the push goes through (nothing to pop); on a full queue the pop goes
//    through (no room to push). There is no bypass: a word is read at the earliest the cycle
//    after it was written.
//  - Read latency 1: the word of a pop accepted in cycle n is on rd_data with rd_valid in n+1
//    (a registered SRAM output); rd_data holds its value otherwise.
//  - rst is synchronous and active high; it empties the queue (the array keeps its contents).
// Define MUTATE to give the push priority instead: the mutant the co-simulation test must catch.
module sync_fifo #(
    parameter DEPTH = 8,
    parameter WIDTH = 16
) (
    input  wire                         clk,
    input  wire                         rst,
    input  wire                         push,
    input  wire [WIDTH-1:0]             push_data,
    input  wire                         pop,
    output wire                         push_ok,
    output wire                         pop_ok,
    output reg                          rd_valid,
    output reg  [WIDTH-1:0]             rd_data,
    output reg  [$clog2(DEPTH+1)-1:0]   count,
    output wire                         full,
    output wire                         empty
);
  localparam AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam CW = $clog2(DEPTH + 1);
  localparam [AW-1:0] LAST = AW'(DEPTH - 1);
  localparam [CW-1:0] FULL_COUNT = CW'(DEPTH);

  reg [WIDTH-1:0] mem[0:DEPTH-1];
  reg [AW-1:0] head, tail;

  assign full = count == FULL_COUNT;
  assign empty = count == {CW{1'b0}};
`ifdef MUTATE
  assign push_ok = push && !full;
  assign pop_ok = pop && !empty && !push_ok;
`else
  assign pop_ok = pop && !empty;
  assign push_ok = push && !full && !pop_ok;
`endif

  always @(posedge clk) begin
    if (rst) begin
      head <= {AW{1'b0}};
      tail <= {AW{1'b0}};
      count <= {CW{1'b0}};
      rd_valid <= 1'b0;
    end else begin
      rd_valid <= pop_ok;
      if (pop_ok) begin
        rd_data <= mem[head];
        head <= head == LAST ? {AW{1'b0}} : head + 1'b1;
        count <= count - 1'b1;
      end else if (push_ok) begin
        mem[tail] <= push_data;
        tail <= tail == LAST ? {AW{1'b0}} : tail + 1'b1;
        count <= count + 1'b1;
      end
    end
  end
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_full: cover property (@(posedge clk) cover_on && full);
  c_empty: cover property (@(posedge clk) cover_on && empty);
  c_fill_to_full: cover property (@(posedge clk) cover_on && push_ok && count == FULL_COUNT - 1'b1);
  c_drain_to_empty: cover property (@(posedge clk) cover_on && pop_ok && count == CW'(1));
  c_push_refused_full: cover property (@(posedge clk) cover_on && push && !pop && full);
  c_pop_refused_empty: cover property (@(posedge clk) cover_on && pop && !push && empty);
  c_push_pop_empty: cover property (@(posedge clk) cover_on && push && pop && empty);
  c_push_pop_full: cover property (@(posedge clk) cover_on && push && pop && full);
  c_push_pop_partly_full: cover property (@(posedge clk) cover_on && push && pop && !full && !empty);
  c_pointer_wraps: cover property (@(posedge clk) cover_on && pop_ok && head == LAST);
  c_reset_not_empty: cover property (@(posedge clk) cover_on && rst && !empty);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal sync_fifo; docs/rtl.md "Formal"). f_started: rst was applied in the
  // first cycle, so $past is meaningful from the second.
  reg f_started = 1'b0;
  always @(posedge clk) f_started <= 1'b1;
  always @* if (!f_started) assume(rst);

  // The pointers agree with the count (the invariant that lets induction close).
  wire [AW:0] f_span = tail >= head ? (AW + 1)'(tail - head) : (AW + 1)'(DEPTH) - (AW + 1)'(head - tail);
  always @* if (f_started) begin
    count_bounded: assert(count <= FULL_COUNT);
    pointers_agree: assert(count == FULL_COUNT ? head == tail : CW'(f_span) == count);
    pointers_in_range: assert(head <= LAST && tail <= LAST);
  end
  // A pop wins the one SRAM access; nothing is accepted beyond what the state allows.
  always @* begin
    pop_wins: assert(pop_ok == (pop && !empty));
    push_rule: assert(push_ok == (push && !full && !pop_ok));
  end
  always @(posedge clk) if (f_started && !$past(rst)) begin
    count_tracks_ops: assert(count == $past(count) + CW'($past(push_ok)) - CW'($past(pop_ok)));
    read_follows_pop: assert(rd_valid == $past(pop_ok));
  end

  // No loss, in order: one word, chosen by the solver, pushed while f_ahead words are ahead of it,
  // is read by the pop that finds it at the head, the cycle after.
  (* anyseq *) reg f_pick;
  reg [1:0] f_phase = 2'd0;  // 0 not chosen, 1 queued, 2 popped (on rd_data now), 3 done
  reg [WIDTH-1:0] f_word;
  reg [CW-1:0] f_ahead;
  always @(posedge clk) begin
    if (rst) f_phase <= 2'd0;
    else if (f_phase == 2'd0 && push_ok && f_pick) begin
      f_phase <= 2'd1;
      f_word <= push_data;
      f_ahead <= count;
    end else if (f_phase == 2'd1 && pop_ok) begin
      if (f_ahead == {CW{1'b0}}) f_phase <= 2'd2;
      else f_ahead <= f_ahead - 1'b1;
    end else if (f_phase == 2'd2) f_phase <= 2'd3;
  end
  wire [AW:0] f_at = (AW + 1)'(head) + (AW + 1)'(f_ahead);
  wire [AW-1:0] f_slot = f_at > (AW + 1)'(LAST) ? AW'(f_at - (AW + 1)'(DEPTH)) : AW'(f_at);
  always @* if (f_started && f_phase == 2'd1) begin
    word_kept_in_order: assert(f_ahead < count && mem[f_slot] == f_word);
  end
  always @* if (f_started && f_phase == 2'd2) word_read_in_order: assert(rd_valid && rd_data == f_word);
`endif
endmodule
