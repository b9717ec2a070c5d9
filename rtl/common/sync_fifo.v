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
endmodule
