// SPDX-License-Identifier: Apache-2.0
// DAC's address expansion unit (seed 001 §3.4.2, specs/dac_decoupled_delegate.md §1.5): one warp's
// part of an affine address tuple turned into 128-byte line addresses with word masks, one line a
// cycle, without an address per thread. The warp's first thread's address `a0` (the caller
// accumulates 32·offset a warp from the CTA's base) and the tuple's offset arrive with `start`;
// lane i touches word s + i·k of the lines from a0's, s = a0's word in its line, k = offset / 4.
// The fast path takes offsets 0 (a scalar: one word) and 4·2^p up to 128 bytes with a0 word-
// aligned; anything else raises `fallback` for a cycle and the SIMT lanes expand it [S L527].
// A line no active lane touches is stepped over without a record (valid low); `hold` keeps a
// record that was not taken for the next cycle. A start is taken when the unit is idle or in the
// cycle its last line goes (`done` high, not held): warps follow each other without a gap.
module dac_aeu (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,     // a new warp (taken when idle, or as the last line goes)
    input  wire        hold,      // the record is not taken this cycle (its PWAQ partition is full): stay
    input  wire [63:0] a0,
    input  wire [31:0] offset,    // bytes, signed
    input  wire [31:0] active,    // the warp's threads that need the data
    output wire        busy,
    output wire        done,      // this cycle's line is the warp's last
    output wire        valid,     // a record this cycle
    output wire [63:0] line,
    output wire [31:0] mask,      // bit w: word w of the line
    output reg         fallback   // the last start was not one the fast path takes
);
  reg        busy_q;
  reg [56:0] base_line;  // a0 >> 7
  reg [4:0]  s;
  reg [2:0]  lk;         // log2(k)
  reg        scalar;
  reg [31:0] act;
  reg [5:0]  j, last;    // the line being expanded, the last one

  // The start's tuple: supported, k, and the last line its lanes reach.
  reg        ok, scalar_in;
  reg [2:0]  lk_in;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [10:0] w31;  // the last lane's word: only its line (bits 10:5) matters
  /* verilator lint_on UNUSEDSIGNAL */
  always @* begin
    ok = a0[1:0] == 2'b00;
    scalar_in = 1'b0;
    lk_in = 3'd0;
    case (offset)
      32'd0:   scalar_in = 1'b1;
      32'd4:   lk_in = 3'd0;
      32'd8:   lk_in = 3'd1;
      32'd16:  lk_in = 3'd2;
      32'd32:  lk_in = 3'd3;
      32'd64:  lk_in = 3'd4;
      32'd128: lk_in = 3'd5;
      default: ok = 1'b0;
    endcase
    w31 = {6'd0, a0[6:2]} + (scalar_in ? 11'd0 : (11'd31 << lk_in));
  end

  // The mask of line j: the words of the active lanes that fall in it.
  reg [31:0] m;
  reg [10:0] w;
  integer    i;
  always @* begin
    m = 32'd0;
    for (i = 0; i < 32; i = i + 1) begin
      w = {6'd0, s} + (scalar ? 11'd0 : ({6'd0, i[4:0]} << lk));
      if (act[i] && w[10:5] == j) m[w[4:0]] = 1'b1;
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      busy_q   <= 1'b0;
      fallback <= 1'b0;
    end else begin
      fallback <= 1'b0;
      if (start && (!busy_q || (j == last && !(hold && m != 32'd0)))) begin
        if (ok) begin
          busy_q    <= 1'b1;
          base_line <= a0[63:7];
          s         <= a0[6:2];
          lk        <= lk_in;
          scalar    <= scalar_in;
          act       <= active;
          j         <= 6'd0;
          last      <= w31[10:5];
        end else begin
          busy_q   <= 1'b0;
          fallback <= 1'b1;
        end
      end else if (busy_q && !(hold && m != 32'd0)) begin
        j <= j + 6'd1;
        if (j == last) busy_q <= 1'b0;
      end
    end
  end

  assign busy  = busy_q;
  assign done  = busy_q && j == last;
  assign valid = busy_q && m != 32'd0;
  assign line  = busy_q ? {base_line + {51'd0, j}, 7'd0} : 64'd0;  // defined when idle too
  assign mask  = busy_q ? m : 32'd0;
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_start: cover property (@(posedge clk) cover_on && start && !busy_q && ok);
  c_start_back_to_back: cover property (@(posedge clk) cover_on && start && busy_q && j == last && !(hold && m != 32'd0) && ok);
  c_scalar: cover property (@(posedge clk) cover_on && start && ok && scalar_in);
  c_stride_128: cover property (@(posedge clk) cover_on && start && ok && lk_in == 3'd5);
  c_unaligned_fallback: cover property (@(posedge clk) cover_on && start && !busy_q && a0[1:0] != 2'b00);
  c_stride_fallback: cover property (@(posedge clk) cover_on && start && !busy_q && a0[1:0] == 2'b00 && !ok);
  c_line_skipped: cover property (@(posedge clk) cover_on && busy_q && m == 32'd0);
  c_hold: cover property (@(posedge clk) cover_on && busy_q && hold && m != 32'd0);
  c_many_lines: cover property (@(posedge clk) cover_on && busy && last == 6'd31 && j == 6'd31);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal dac_aeu; docs/rtl.md "Formal"): the records against Eq. 3.1 — lane
  // i of the warp reads a0 + i * offset [S L527] — computed lane by lane, not by the unit's
  // word-stride shortcut.
  reg f_started = 1'b0;
  always @(posedge clk) f_started <= 1'b1;
  always @* if (!f_started) assume(rst);

  wire f_taken = !rst && start && (!busy_q || (j == last && !(hold && m != 32'd0)));
  reg [63:0] f_a0;
  reg [31:0] f_off, f_act;
  reg f_took, f_ok;
  always @(posedge clk) begin
    f_took <= f_taken;
    if (f_taken) begin
      f_a0 <= a0;
      f_off <= offset;
      f_act <= active;
      f_ok <= a0[1:0] == 2'b00 && (offset == 32'd0 || offset == 32'd4 || offset == 32'd8 || offset == 32'd16 ||
                                   offset == 32'd32 || offset == 32'd64 || offset == 32'd128);
    end
  end
  // Eq. 3.1's words in line `line`, and the warp's last line, relative to a0's line: on the fast
  // path (f_ok) lane i's byte is a0[6:0] + i * offset < 4096 bytes past it.
  reg [12:0] f_rel;
  reg [31:0] f_mask;
  wire [56:0] f_line = line[63:7] - f_a0[63:7];
  integer f_i;
  always @* begin
    f_mask = 32'd0;
    for (f_i = 0; f_i < 32; f_i = f_i + 1) begin
      f_rel = {6'd0, f_a0[6:0]} + 13'(f_i) * f_off[12:0];
      if (f_act[f_i] && {51'd0, f_rel[12:7]} == f_line) f_mask[f_rel[6:2]] = 1'b1;
    end
  end
  wire [12:0] f_last_rel = {6'd0, f_a0[6:0]} + 13'd31 * f_off[12:0];
  wire [56:0] f_last_line = {51'd0, f_last_rel[12:7]};
  always @* if (f_started) begin
    if (busy) begin
      record_matches_eq31: assert(valid == (f_mask != 32'd0) && (!valid || mask == f_mask));
      line_in_warp_range: assert(f_line <= f_last_line && line[6:0] == 7'd0);
      last_line_is_last_lanes: assert(!done || f_line == f_last_line);
      // what the unit keeps agrees with the start it took (the invariant induction needs)
      state_from_start: assert(f_ok && base_line == f_a0[63:7] && s == f_a0[6:2] && act == f_act &&
                               scalar == (f_off == 32'd0) && (scalar || 32'd4 << lk == f_off) &&
                               {51'd0, last} == f_last_line && j <= last);
    end
    if (f_took) begin
      first_line_is_a0s: assert(!busy || line[63:7] == f_a0[63:7]);
      fallback_iff_unsupported: assert(fallback == !f_ok && busy == f_ok);
    end else no_fallback_without_start: assert(!fallback);
  end
  // A held record stays; otherwise the unit steps one line a cycle.
  always @(posedge clk) if (f_started && !$past(rst) && !f_took && $past(busy)) begin
    if ($past(hold && valid)) held_record_stays: assert(busy && line == $past(line) && mask == $past(mask));
    else if (!$past(done)) steps_one_line: assert(busy && line[63:7] == $past(line[63:7]) + 57'd1);
  end
`endif
endmodule
