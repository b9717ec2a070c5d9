// SPDX-License-Identifier: Apache-2.0
// hwwl_wru_lsort: one core's work redistribution unit decision for the local-sorting scheme (Kim &
// Batten [K L247]; ../shared/specs/hwwl_iru_dats.md 1.5.4): a sorting network ranks the banks by
// occupancy, and the plan pairs the fullest with the emptiest. The C++ model is
// irr::hwwl::plan_lsorting (models/hwwl/wru_plan.h); docs/hwwl.md has the rules.
//
//  - occ: BANKS occupancies of CW bits (bank b in bits [b*CW +: CW]), reserved entries included.
//  - The network: a bitonic sorter over keys {occupancy, bank index}, so ties rank by index and the
//    order is total (log2(BANKS) * (log2(BANKS) + 1) / 2 stages of BANKS / 2 compare-exchange
//    units: 10 stages, 80 units for 16 banks).
//  - rank[j]: the bank in place j of increasing occupancy.
//  - Pairs j < k, k = min(needy banks, BANKS / 2): rank[BANKS-1-j] gives one ID to rank[j] if it
//    holds at least two more (move_valid[j], move_from[j], move_to[j]).
//  - global_greedy: more banks above THRESHOLD than below it; then export_bank is the fullest
//    greedy bank not giving inside the core (else the fullest greedy bank), lowest index on ties.
//  - Outputs are registered: the plan for the occupancies presented in cycle n is out in n+1
//    (the WRU decides once per redistribution interval, so the network may also be a multicycle
//    path: docs/hwwl.md). rst (synchronous) clears the valid bits; rank and the pair and export
//    indices follow the inputs every cycle.
module hwwl_wru_lsort #(
    parameter BANKS = 16,
    parameter CW = 6,
    parameter THRESHOLD = 5
) (
    input  wire                                clk,
    input  wire                                rst,
    input  wire [BANKS*CW-1:0]                 occ,
    output reg  [BANKS*$clog2(BANKS)-1:0]      rank,
    output reg  [BANKS/2-1:0]                  move_valid,
    output reg  [BANKS/2*$clog2(BANKS)-1:0]    move_from,
    output reg  [BANKS/2*$clog2(BANKS)-1:0]    move_to,
    output reg                                 global_greedy,
    output reg                                 export_valid,
    output reg  [$clog2(BANKS)-1:0]            export_bank
);
  localparam IW = $clog2(BANKS);
  localparam KW = CW + IW;
  localparam NW = $clog2(BANKS + 1);
  localparam [CW:0] T = (CW + 1)'(THRESHOLD);

  // The sorting network: LOG * (LOG + 1) / 2 stages of compare-exchange units over the flattened
  // keys; stage (ls, lt) sorts blocks of 2^ls, comparing lanes 2^lt apart.
  localparam LOG = IW;
  localparam STAGES = LOG * (LOG + 1) / 2;
  wire [(STAGES+1)*BANKS*KW-1:0] net  /* verilator split_var */;  // stage s in slice s
  genvar g, ls, lt;
  generate
    for (g = 0; g < BANKS; g = g + 1) begin : inputs
      assign net[g*KW+:KW] = {occ[g*CW+:CW], IW'(g)};
    end
    for (ls = 1; ls <= LOG; ls = ls + 1) begin : block
      for (lt = ls - 1; lt >= 0; lt = lt - 1) begin : stage
        localparam ST = ls * (ls - 1) / 2 + (ls - 1 - lt);
        for (g = 0; g < BANKS; g = g + 1) begin : unit
          if ((g ^ (1 << lt)) > g) begin : cx
            localparam P = g ^ (1 << lt);
            wire [KW-1:0] a = net[(ST*BANKS+g)*KW+:KW];
            wire [KW-1:0] b = net[(ST*BANKS+P)*KW+:KW];
            wire swap = (g & (1 << ls)) == 0 ? a > b : a < b;
            assign net[((ST+1)*BANKS+g)*KW+:KW] = swap ? b : a;
            assign net[((ST+1)*BANKS+P)*KW+:KW] = swap ? a : b;
          end
        end
      end
    end
  endgenerate
  wire [BANKS*KW-1:0] keys = net[STAGES*BANKS*KW+:BANKS*KW];

  // Banks above (above = 1) or below the threshold.
  function automatic [NW-1:0] count_of(input [BANKS*CW-1:0] o, input above);
    integer i;
    count_of = {NW{1'b0}};
    for (i = 0; i < BANKS; i = i + 1)
      if (above ? {1'b0, o[i*CW+:CW]} > T : {1'b0, o[i*CW+:CW]} < T) count_of = count_of + 1'b1;
  endfunction

  // The fullest greedy bank (lowest index on ties) among those not masked out; found in bit IW.
  function automatic [IW:0] fullest(input [BANKS*CW-1:0] o, input [BANKS-1:0] masked);
    reg [CW-1:0] best_occ;
    integer i;
    fullest = {(IW + 1) {1'b0}};
    best_occ = {CW{1'b0}};
    for (i = 0; i < BANKS; i = i + 1)
      if ({1'b0, o[i*CW+:CW]} > T && !masked[i] && (!fullest[IW] || o[i*CW+:CW] > best_occ)) begin
        fullest = {1'b1, IW'(i)};
        best_occ = o[i*CW+:CW];
      end
  endfunction

  wire [NW-1:0] needy_n = count_of(occ, 1'b0);
  wire [NW-1:0] greedy_n = count_of(occ, 1'b1);
  wire [NW-1:0] k = needy_n < NW'(BANKS / 2) ? needy_n : NW'(BANKS / 2);
  wire [BANKS/2-1:0] valid_c;
  wire [BANKS-1:0] giving;
  generate
    for (g = 0; g < BANKS / 2; g = g + 1) begin : pair
      wire [CW-1:0] taker = keys[g*KW+IW+:CW];  // occupancies
      wire [CW-1:0] giver = keys[(BANKS-1-g)*KW+IW+:CW];
      assign valid_c[g] = NW'(g) < k && {1'b0, giver} >= {1'b0, taker} + (CW + 1)'(2);
    end
    for (g = 0; g < BANKS; g = g + 1) begin : give
      wire [BANKS/2-1:0] as_giver;
      genvar p;
      for (p = 0; p < BANKS / 2; p = p + 1) begin : slot
        assign as_giver[p] = valid_c[p] && keys[(BANKS-1-p)*KW+:IW] == IW'(g);
      end
      assign giving[g] = |as_giver;
    end
  endgenerate
  wire [IW:0] best = fullest(occ, {BANKS{1'b0}});  // best[IW]: some bank is greedy (so when global_greedy)
  wire unused_ok = best[IW];
  wire [IW:0] best_free = fullest(occ, giving);
  integer i;

  always @(posedge clk) begin
    for (i = 0; i < BANKS; i = i + 1) rank[i*IW+:IW] <= keys[i*KW+:IW];
    for (i = 0; i < BANKS / 2; i = i + 1) begin
      move_from[i*IW+:IW] <= keys[(BANKS-1-i)*KW+:IW];
      move_to[i*IW+:IW] <= keys[i*KW+:IW];
    end
    export_bank <= best_free[IW] ? best_free[IW-1:0] : best[IW-1:0];
    move_valid <= rst ? {(BANKS / 2) {1'b0}} : valid_c;
    global_greedy <= !rst && greedy_n > needy_n;
    export_valid <= !rst && greedy_n > needy_n;
  end
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_every_bank_needy: cover property (@(posedge clk) cover_on && needy_n == NW'(BANKS));
  c_no_needy_bank: cover property (@(posedge clk) cover_on && needy_n == {NW{1'b0}});
  c_pairs_limited_by_needy: cover property (@(posedge clk) cover_on && needy_n != {NW{1'b0}} && needy_n < NW'(BANKS / 2));
  c_pairs_limited_by_half: cover property (@(posedge clk) cover_on && needy_n > NW'(BANKS / 2) && needy_n < NW'(BANKS));
  /* verilator lint_off UNUSEDSIGNAL */
  wire [BANKS/2-1:0] cover_last = valid_c >> (k - 1'b1);  // bit 0: the last eligible pair moves
  /* verilator lint_on UNUSEDSIGNAL */
  c_needy_pair_stays: cover property (@(posedge clk) cover_on && k != {NW{1'b0}} && !cover_last[0]);
  c_every_pair_moves: cover property (@(posedge clk) cover_on && move_valid == {(BANKS / 2){1'b1}});
  c_globally_greedy: cover property (@(posedge clk) cover_on && global_greedy);
  c_export: cover property (@(posedge clk) cover_on && export_valid);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal hwwl_wru_lsort; docs/rtl.md "Formal"), on the plan out this cycle
  // and the occupancies presented the cycle before (f_occ), written independently of the network.
  reg f_started = 1'b0, f_rst;
  reg [BANKS*CW-1:0] f_occ;
  always @(posedge clk) begin
    f_started <= 1'b1;
    f_occ <= occ;
    f_rst <= rst;
  end
  function automatic [CW-1:0] f_occ_of(input [IW-1:0] b);
    f_occ_of = f_occ[32'(b)*CW+:CW];
  endfunction
  reg f_sorted, f_moves_ok, f_moves_complete, f_no_bank_twice;
  reg [NW-1:0] f_needy, f_greedy, f_k;
  reg [BANKS-1:0] f_used;
  reg [IW-1:0] f_a, f_b;
  integer f_j;
  always @* begin
    f_sorted = 1'b1;
    for (f_j = 0; f_j + 1 < BANKS; f_j = f_j + 1) begin
      f_a = rank[f_j*IW+:IW];
      f_b = rank[(f_j+1)*IW+:IW];
      // keys {occupancy, index} strictly increasing: a total order, so rank is a permutation
      f_sorted = f_sorted && (f_occ_of(f_a) < f_occ_of(f_b) || (f_occ_of(f_a) == f_occ_of(f_b) && f_a < f_b));
    end
    f_needy = {NW{1'b0}};
    f_greedy = {NW{1'b0}};
    for (f_j = 0; f_j < BANKS; f_j = f_j + 1) begin
      if ({1'b0, f_occ[f_j*CW+:CW]} < T) f_needy = f_needy + 1'b1;
      if ({1'b0, f_occ[f_j*CW+:CW]} > T) f_greedy = f_greedy + 1'b1;
    end
    f_k = f_needy < NW'(BANKS / 2) ? f_needy : NW'(BANKS / 2);
    f_moves_ok = 1'b1;
    f_moves_complete = 1'b1;
    f_used = {BANKS{1'b0}};
    f_no_bank_twice = 1'b1;
    for (f_j = 0; f_j < BANKS / 2; f_j = f_j + 1) begin
      f_a = move_from[f_j*IW+:IW];
      f_b = move_to[f_j*IW+:IW];
      // pair j: the j-th fullest gives to the j-th emptiest, when it holds two more, within k pairs
      f_moves_ok = f_moves_ok && f_a == rank[(BANKS-1-f_j)*IW+:IW] && f_b == rank[f_j*IW+:IW];
      if (move_valid[f_j]) begin
        f_moves_ok = f_moves_ok && NW'(f_j) < f_k && {1'b0, f_occ_of(f_a)} >= {1'b0, f_occ_of(f_b)} + (CW + 1)'(2);
        f_no_bank_twice = f_no_bank_twice && !f_used[f_a] && !f_used[f_b] && f_a != f_b;
        f_used[f_a] = 1'b1;
        f_used[f_b] = 1'b1;
      end else if (NW'(f_j) < f_k)
        f_moves_complete = f_moves_complete && {1'b0, f_occ_of(f_a)} < {1'b0, f_occ_of(f_b)} + (CW + 1)'(2);
    end
    if (f_started) begin
      rank_sorted: assert(f_sorted);
      export_bank_greedy: assert(!export_valid || {1'b0, f_occ_of(export_bank)} > T);
      if (f_rst) reset_clears: assert(move_valid == {(BANKS / 2) {1'b0}} && !export_valid && !global_greedy);
      else begin
        moves_by_rank: assert(f_moves_ok);
        moves_complete: assert(f_moves_complete);
        bank_in_one_move: assert(f_no_bank_twice);
        global_greedy_rule: assert(global_greedy == (f_greedy > f_needy) && export_valid == global_greedy);
      end
    end
  end
`endif
endmodule
