// SPDX-License-Identifier: Apache-2.0
// dats_nst: the Node State Table of Wireframe's dependency graph buffer with its update logic and
// the Pending Update Buffer (../shared/specs/hwwl_iru_dats.md 3.5-3.6): one row per Local Node
// Array slot (state, parent count, level, global node number, local edge start), ready
// detection and the LRR/LVL pick, parent-count decrements, and the PUB's match on insertion. The
// C++ model is irr::dats::NodeStateTable (models/dats/nst.h); docs/dats.md has the table.
//
// Cycle semantics:
//  - One operation per cycle on row `slot` (the controller computes slot = node % |LNA|):
//    INSERT writes node, parents, level, les/has_edges into an empty (D) row; every PUB entry
//    holding `node` is removed and counted (`pub_hits`), the row's parent count is parents −
//    pub_hits and its state R when that is 0, else W.
//    DECREMENT applies one completed parent's update for child `node`: if the child is resident
//    (row `slot` not D and holding `node`) its parent count drops by one and it turns R at 0;
//    otherwise `node` goes into a free PUB entry.
//    ISSUE turns an R row into P; RETIRE turns a P row into D (the block completed).
//    An operation that is not possible is refused (op_ok = 0) and changes nothing: INSERT on a row
//    in use, DECREMENT of a resident child that is not W or has no parents left, or of a
//    non-resident one with the PUB full, ISSUE of a row not R, RETIRE of a row not P; and INSERT
//    with more PUB entries for the node than parents (a lost or doubled update upstream).
//  - `resident` and `pub_hits` are combinational in slot and node, whatever the op.
//  - The pick is combinational: the first row at or after `tail`, circularly, that is R, not in
//    `hold` (rules the controller applies: the head node's, PUB reservations) and, with `lvl_on`,
//    keeps max(level, lvl_hi) − min(level, lvl_lo) ≤ bound (lvl_lo ≤ lvl_hi: the running blocks'
//    levels). Rows outside the LNA's window are D, so this is the smallest eligible node number.
//  - rd_* show row `slot` and pub_count the PUB's entries in use, as of the start of the cycle.
//  - rst is synchronous, active high: every row D, the PUB empty.
// ENTRIES, LEA and PUB are at least 2.
// State and level are flip-flops (every row feeds the pick); node, parent count and edge start
// are read and written at one row per cycle (a small RAM; its read-modify-write takes a read and a
// write port).
module dats_nst #(
    parameter ENTRIES = 128,  // LNA entries
    parameter LEA = 512,      // LEA entries: the edge start's width
    parameter PUB = 64,       // PUB entries
    parameter NW = 16,        // global node number
    parameter CW = 16,        // parent count
    parameter LW = 16         // level
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire [2:0]                  op,
    input  wire [$clog2(ENTRIES)-1:0]  slot,
    input  wire [NW-1:0]               node,
    input  wire [CW-1:0]               parents,
    input  wire [LW-1:0]               level,
    input  wire [$clog2(LEA)-1:0]      les,
    input  wire                        has_edges,
    input  wire [$clog2(ENTRIES)-1:0]  tail,
    input  wire [ENTRIES-1:0]          hold,
    input  wire                        lvl_on,
    input  wire [LW-1:0]               lvl_lo,
    input  wire [LW-1:0]               lvl_hi,
    input  wire [LW-1:0]               bound,
    output wire                        op_ok,
    output wire                        resident,
    output reg  [$clog2(PUB+1)-1:0]    pub_hits,
    output wire [1:0]                  rd_state,
    output wire [CW-1:0]               rd_parents,
    output wire [LW-1:0]               rd_level,
    output wire [NW-1:0]               rd_node,
    output wire [$clog2(LEA)-1:0]      rd_les,
    output wire                        rd_has_edges,
    output reg  [$clog2(PUB+1)-1:0]    pub_count,
    output wire                        pub_full,
    output reg                         pick_valid,
    output reg  [$clog2(ENTRIES)-1:0]  pick_slot
);
  localparam [2:0] INSERT = 3'd1, DECREMENT = 3'd2, ISSUE = 3'd3, RETIRE = 3'd4;  // 0: none
  localparam [1:0] W = 2'd0, R = 2'd1, P = 2'd2, D = 2'd3;
  localparam SW = $clog2(ENTRIES);
  localparam EW = $clog2(LEA);
  localparam PW = $clog2(PUB);
  localparam MW = $clog2(PUB + 1);

  reg [2*ENTRIES-1:0] state_q;   // flip-flops: the pick reads every row
  reg [LW*ENTRIES-1:0] level_q;
  reg [NW-1:0] node_m[0:ENTRIES-1];
  reg [CW-1:0] parents_m[0:ENTRIES-1];
  reg [EW:0] les_m[0:ENTRIES-1];  // {has_edges, les}
  reg [PUB-1:0] pub_valid;
  reg [NW*PUB-1:0] pub_node;

  wire [1:0] st = state_q[2*slot +: 2];
  assign rd_state = st;
  assign rd_level = level_q[LW*slot +: LW];
  assign rd_node = node_m[slot];
  assign rd_parents = parents_m[slot];
  assign {rd_has_edges, rd_les} = les_m[slot];
  assign resident = st != D && rd_node == node;
  assign pub_full = pub_count == MW'(PUB);

  // The PUB: entries holding `node` (counted by a popcount tree), and the first free entry.
  reg [PUB-1:0] hit;
  reg free_valid;
  reg [PW-1:0] free_entry;
  integer j;
  always @* begin
    free_valid = 1'b0;
    free_entry = {PW{1'b0}};
    for (j = PUB - 1; j >= 0; j = j - 1) begin
      hit[j] = pub_valid[j] && pub_node[NW*j +: NW] == node;
      if (!pub_valid[j]) begin
        free_valid = 1'b1;
        free_entry = PW'(j);
      end
    end
    pub_hits = MW'($countones(hit));
  end

  assign op_ok = op == INSERT    ? st == D && {{(CW + 1 - MW){1'b0}}, pub_hits} <= {1'b0, parents}
               : op == DECREMENT ? (resident ? st == W && rd_parents != {CW{1'b0}} : free_valid)
               : op == ISSUE     ? st == R
               : op == RETIRE    ? st == P
                                 : 1'b0;

  // The pick. With lvl_lo <= lvl_hi, max(l, hi) - min(l, lo) <= B holds exactly when
  // l <= lo + B, l + B >= hi and hi - lo <= B (widened one bit: no overflow).
  wire [LW:0] lo_plus_b = {1'b0, lvl_lo} + {1'b0, bound};
  wire [LW:0] hi_minus_b = lvl_hi > bound ? {1'b0, lvl_hi - bound} : {(LW + 1){1'b0}};
  wire range_ok = {1'b0, lvl_hi - lvl_lo} <= {1'b0, bound};
  reg [ENTRIES-1:0] eligible;
  reg lo_valid;
  reg [SW-1:0] lo_slot;
  integer i;
  always @* begin
    pick_valid = 1'b0;
    pick_slot = {SW{1'b0}};
    lo_valid = 1'b0;
    lo_slot = {SW{1'b0}};
    for (i = ENTRIES - 1; i >= 0; i = i - 1) begin
      eligible[i] = state_q[2*i +: 2] == R && !hold[i] &&
                    (!lvl_on || ({1'b0, level_q[LW*i +: LW]} <= lo_plus_b &&
                                 {1'b0, level_q[LW*i +: LW]} >= hi_minus_b && range_ok));
      if (eligible[i]) begin  // the lowest eligible row, and the lowest at or after tail
        lo_valid = 1'b1;
        lo_slot = SW'(i);
        if (SW'(i) >= tail) begin
          pick_valid = 1'b1;
          pick_slot = SW'(i);
        end
      end
    end
    if (!pick_valid) begin  // none from tail to the end: wrap around
      pick_valid = lo_valid;
      pick_slot = lo_slot;
    end
  end

  wire [CW-1:0] inserted_parents = parents - CW'(pub_hits);
  always @(posedge clk) begin
    if (rst) begin
      state_q <= {ENTRIES{D}};
      pub_valid <= {PUB{1'b0}};
      pub_count <= {MW{1'b0}};
    end else if (op_ok) begin
      case (op)
        INSERT: begin
          state_q[2*slot +: 2] <= inserted_parents == {CW{1'b0}} ? R : W;
          level_q[LW*slot +: LW] <= level;
          node_m[slot] <= node;
          parents_m[slot] <= inserted_parents;
          les_m[slot] <= {has_edges, les};
          pub_valid <= pub_valid & ~hit;
          pub_count <= pub_count - pub_hits;
        end
        DECREMENT:
          if (resident) begin
            parents_m[slot] <= rd_parents - 1'b1;
            if (rd_parents == {{(CW - 1){1'b0}}, 1'b1}) state_q[2*slot +: 2] <= R;
          end else begin
            pub_valid[free_entry] <= 1'b1;
            pub_node[NW*free_entry +: NW] <= node;
            pub_count <= pub_count + 1'b1;
          end
        ISSUE: state_q[2*slot +: 2] <= P;
        RETIRE: state_q[2*slot +: 2] <= D;
        default: ;
      endcase
    end
  end
`ifdef IRRGPU_COVER
  // Functional bins (irrgpu coverage; docs/rtl.md "Coverage"): Verilator's coverage builds count
  // each cycle one holds, from the first reset on (before it, registers hold X-initial values).
  reg cover_on = 1'b0;
  always @(posedge clk) if (rst) cover_on <= 1'b1;
  c_insert: cover property (@(posedge clk) cover_on && op == INSERT && op_ok);
  c_insert_row_in_use: cover property (@(posedge clk) cover_on && op == INSERT && st != D);
  c_insert_takes_pub: cover property (@(posedge clk) cover_on && op == INSERT && op_ok && pub_hits != {MW{1'b0}});
  c_insert_ready: cover property (@(posedge clk) cover_on && op == INSERT && op_ok && inserted_parents == {CW{1'b0}});
  c_decrement_resident: cover property (@(posedge clk) cover_on && op == DECREMENT && op_ok && resident);
  c_decrement_makes_ready: cover property (@(posedge clk) cover_on && op == DECREMENT && op_ok && resident && rd_parents == CW'(1));
  c_decrement_parked: cover property (@(posedge clk) cover_on && op == DECREMENT && op_ok && !resident);
  c_decrement_pub_full: cover property (@(posedge clk) cover_on && op == DECREMENT && !resident && pub_full);
  c_issue: cover property (@(posedge clk) cover_on && op == ISSUE && op_ok);
  c_issue_refused: cover property (@(posedge clk) cover_on && op == ISSUE && !op_ok);
  c_retire: cover property (@(posedge clk) cover_on && op == RETIRE && op_ok);
  c_retire_refused: cover property (@(posedge clk) cover_on && op == RETIRE && !op_ok);
  c_pick: cover property (@(posedge clk) cover_on && pick_valid);
  c_pick_none: cover property (@(posedge clk) cover_on && !pick_valid);
  c_pick_wraps: cover property (@(posedge clk) cover_on && pick_valid && pick_slot < tail);
  c_pick_level_window: cover property (@(posedge clk) cover_on && pick_valid && lvl_on);
`endif
`ifdef FORMAL
  // Properties (irrgpu formal dats_nst; docs/rtl.md "Formal"): rst in the first cycle; the running
  // blocks' levels satisfy lvl_lo <= lvl_hi (the controller's, as the header says).
  reg f_started = 1'b0;
  always @(posedge clk) f_started <= 1'b1;
  always @* begin
    if (!f_started) assume(rst);
    assume(lvl_lo <= lvl_hi);
  end

  // The pick, written from its definition: eligible rows (R, not held, the level window
  // max(level, hi) - min(level, lo) <= bound), and the first one at or after tail, circularly.
  reg [ENTRIES-1:0] f_eligible;
  reg [LW-1:0] f_level, f_top, f_bottom;
  reg f_first_ok, f_waiting_ok;
  reg [MW:0] f_in_pub;
  integer f_i;
  always @* begin
    f_in_pub = {(MW + 1) {1'b0}};
    for (f_i = 0; f_i < PUB; f_i = f_i + 1) f_in_pub = f_in_pub + (MW + 1)'(pub_valid[f_i]);
    f_waiting_ok = 1'b1;
    for (f_i = 0; f_i < ENTRIES; f_i = f_i + 1) begin
      f_level = level_q[LW*f_i +: LW];
      f_top = f_level > lvl_hi ? f_level : lvl_hi;
      f_bottom = f_level < lvl_lo ? f_level : lvl_lo;
      f_eligible[f_i] = state_q[2*f_i +: 2] == R && !hold[f_i] && (!lvl_on || f_top - f_bottom <= bound);
      // a waiting row has a parent left (it turns R with its last update)
      if (state_q[2*f_i +: 2] == W) f_waiting_ok = f_waiting_ok && parents_m[f_i] != {CW{1'b0}};
    end
    // rows strictly between tail and the pick, circularly, are not eligible
    f_first_ok = 1'b1;
    for (f_i = 0; f_i < ENTRIES; f_i = f_i + 1)
      if (f_eligible[f_i] && (pick_slot >= tail ? SW'(f_i) >= tail && SW'(f_i) < pick_slot
                                                : SW'(f_i) >= tail || SW'(f_i) < pick_slot))
        f_first_ok = 1'b0;
    pick_valid_rule: assert(pick_valid == |f_eligible);
    pick_eligible: assert(!pick_valid || f_eligible[pick_slot]);
    pick_first_from_tail: assert(!pick_valid || f_first_ok);
    issue_rule: assert(op != ISSUE || op_ok == (rd_state == R));
    retire_rule: assert(op != RETIRE || op_ok == (rd_state == P));
    insert_rule: assert(op != INSERT || op_ok == (rd_state == D && {{(CW + 1 - MW) {1'b0}}, pub_hits} <= {1'b0, parents}));
    if (f_started) begin
      pub_count_matches: assert({1'b0, pub_count} == f_in_pub);
      waiting_rows_have_parents: assert(f_waiting_ok);
    end
  end

  // One operation's effect on its row and the PUB, the cycle after.
  always @(posedge clk) if (f_started && !$past(rst) && $past(op_ok)) begin
    if ($past(op) == INSERT) begin
      inserted_state: assert(rd_state == ($past(parents) == CW'($past(pub_hits)) ? R : W) || $past(slot) != slot);
      inserted_count: assert(pub_count == $past(pub_count) - $past(pub_hits));
    end
    if ($past(op) == DECREMENT && $past(resident))
      decrement_applied: assert($past(slot) != slot || rd_parents == $past(rd_parents) - 1'b1);
    if ($past(op) == DECREMENT && !$past(resident)) update_kept: assert(pub_count == $past(pub_count) + 1'b1);
    if ($past(op) == ISSUE) issued: assert($past(slot) != slot || rd_state == P);
    if ($past(op) == RETIRE) retired: assert($past(slot) != slot || rd_state == D);
  end
`endif
endmodule
