// SPDX-License-Identifier: Apache-2.0
// iru_fadd: IEEE 754 binary32 addition, round to nearest even, combinational — the adder of the
// IRU hash bank's add_f32 filter (PageRank's merged contributions [S L179, L203]). Subnormal inputs
// and results are exact (no flush to zero); overflow gives infinity; x + (-x) is +0. Infinity
// minus infinity gives the x86 default NaN 0xffc00000; a NaN input is returned quieted (the first
// one; the co-simulation's reference states this rule, since a host addition's NaN depends on
// which operand a compiler puts first).
module iru_fadd (
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] y
);
  // Operands with the hidden bit and an exponent of at least 1 (subnormals: 0.m x 2^-126).
  wire        sa = a[31], sb = b[31];
  wire [7:0]  ea = a[30:23], eb = b[30:23];
  wire [22:0] fa = a[22:0], fb = b[22:0];
  wire        a_nan = &ea && |fa, b_nan = &eb && |fb;
  wire        a_inf = &ea && ~|fa, b_inf = &eb && ~|fb;
  wire [7:0]  xa = ea == 8'd0 ? 8'd1 : ea, xb = eb == 8'd0 ? 8'd1 : eb;
  wire [23:0] ma = {|ea, fa}, mb = {|eb, fb};

  // The larger magnitude first.
  wire        swap = {xb, mb} > {xa, ma};
  wire        sl = swap ? sb : sa, ss = swap ? sa : sb;
  wire [7:0]  el = swap ? xb : xa, es = swap ? xa : xb;
  wire [23:0] ml = swap ? mb : ma, ms = swap ? ma : mb;
  wire [7:0]  d = el - es;

  // Three extra bits below the significand: guard, round, sticky.
  reg [26:0] aligned;
  reg [27:0] sum;
  reg [8:0]  e;
  reg [4:0]  lz;
  reg [26:0] norm;
  reg [24:0] rounded;
  integer    i;
  always @* begin
    lz = 5'd0;
    aligned = {ms, 3'b000} >> (d > 8'd26 ? 8'd26 : d);
    if (d > 8'd26) aligned = {26'd0, |ms};
    else if (d > 8'd2) aligned[0] = aligned[0] | |({ms, 3'b000} & ~(27'h7ffffff << d));
    sum = sl == ss ? {1'b0, ml, 3'b000} + {1'b0, aligned} : {1'b0, ml, 3'b000} - {1'b0, aligned};
    e = {1'b0, el};
    if (sum[27]) begin  // carry out: one place right, the lost bit into the sticky
      norm = sum[27:1];
      norm[0] = norm[0] | sum[0];
      e = e + 9'd1;
    end else begin  // cancellation: left until normalised or the exponent is 1 (subnormal)
      for (i = 26; i >= 0; i = i - 1)
        if (sum[i] == 1'b0 && lz == 5'(26 - i)) lz = lz + 5'd1;
      if ({4'd0, lz} > e - 9'd1) lz = 5'(e - 9'd1);
      norm = sum[26:0] << lz;
      e = e - {4'd0, lz};
    end
    // Round to nearest, ties to even.
    rounded = {1'b0, norm[26:3]} + {24'd0, norm[2] & (norm[1] | norm[0] | norm[3])};
    if (rounded[24]) begin
      rounded = rounded >> 1;
      e = e + 9'd1;
    end
    if (a_nan) y = a | 32'h00400000;
    else if (b_nan) y = b | 32'h00400000;
    else if (a_inf && b_inf) y = sa == sb ? a : 32'hffc00000;
    else if (a_inf) y = a;
    else if (b_inf) y = b;
    else if (sum == 28'd0) y = (sa & sb) ? 32'h80000000 : 32'h00000000;  // exact zero: -0 only for -0 + -0
    else if (e >= 9'd255) y = {sl, 8'hff, 23'd0};
    else y = {sl, rounded[23] ? e[7:0] : 8'd0, rounded[22:0]};
  end
endmodule
