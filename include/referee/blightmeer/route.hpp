// Routes and reach (docs/rulings.md#blightmeer-routes), Wesnoth style: a navigation graph compiled once
// from the terrain, and a flat-array Dijkstra per question that returns costs
// and predecessors with no global state.
//
// Nodes: one per 1-inch grid cell centre (x+0.5, y+0.5) at the level there;
// both ends of every ladder; and boundary nodes along every footprint side
// where the level changes, every 0.25 in or less (none on a table whose
// sides total more than 1000 in, see kMaxBoundarySamples: its routes and
// reach use the cells alone, as before), in pairs: the top on the
// side itself (the lip) and the foot just past it (kFootGap). Edges: walks to
// the 16 neighbours within sqrt(5) on the same level; climbs to a neighbour
// on another level within the climb leeway; ladders; jumps down within
// 3 inches from a node at an edge; jumps across a gap between edge nodes.
// Boundary nodes add straight walks to the cells within kBoundaryWalk and to
// other boundary nodes within kBoundaryLink, the climb and the jump down
// between a top and its foot, jumps down from a top to lower cells, and jumps
// across from a top to the tops and edge cells across a gap (within the
// default jump reach). So a climb or a jump is taken where the straight line
// crosses the edge, not from a cell centre: a jump across a 1-inch alley is
// 1 inch from lip to lip, and a climb costs its height plus the few
// thousandths of an inch between foot and top.
//
// A unit's own start and its destination join the graph per question, with
// straight walks to every node within max_reach (6 in). A route is the
// search's (its grid walks straightened) or, when shorter, the exact crossing
// from the start straight to the destination (below); either way its answer is
// check_move's verdict on it.
//
// Reach: a cell is reached when a move check_move accepts ends at its centre
// (at its level) within the allowance; its class is the fewest checks of such
// a move. The search's costs are costs of such moves (its edges are legal
// steps, summed in doubles as check_move sums them). It finishes from the
// anchors (the start, the ladder ends, and every boundary node a climb, ladder
// or jump landed on) with straight walks to the cells around, and with exact
// crossings: for an anchor a and a cell centre c on another level, the climb
// up or jump down across one footprint side at the point e where
// |a - e| + |e - c| is least (where a -> c meets the side, or the nearer end of
// it), and the jump across (free within the free gap, checked within the
// unit's reach) or down between two facing sides at the lips e1, e2 where
// |a - e1| + |e1 - e2| + |e2 - c| is least with |e1 - e2| within the limit (a
// convex problem: closed form for e2, golden section for e1). Each crossing
// is tested with check_move's rules (levels, scans, blocking units, landing on
// a unit, deep water). Error bound: a move of the form straight walk from an
// anchor, one climb or jump, straight walk to a cell centre, is never missed
// and never given more checks (on the seeded walls, alleys and roofs of
// tests/blightmeer/route_search_test.cpp every cell such a move reaches is in
// reach), as long as its crossing lies more than 1e-6 in from a corner and on
// a side with one level on either side of it along its length (a side partly
// covered by another surface is tried at its best point only, and where the
// levels there are wrong the graph answers). A cell whose best move bends
// elsewhere (around a corner on one level, or between two crossings anywhere
// but at an anchor) is reached through the graph, up to 3% longer. A cell's
// cost is that of the move found, not always the least. Never the other way: with_moves gives each cell the
// move that reaches it, and check_move accepts every one. Unit-dependent rules
// (blocking units, animals on ladders, jump reach, armour in deep water) are
// applied while searching, so one graph serves every unit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "referee/blightmeer/model.hpp"
#include "referee/blightmeer/move.hpp"

namespace referee::blightmeer {

enum class EdgeKind : std::uint8_t { walk, climb, ladder, jump_down, jump_across };

// Costs and gaps are doubles: a reach cell is promised only when the sum of its
// edges, as check_move adds them, fits the allowance (floats would be 1e-6 off).
struct NavEdge {
  double cost = 0;     // inches spent
  double measure = 0;  // jump down: drop; jump across: gap (horizontal)
  float rise = 0;      // jump across: landing height above the take-off
  int to = 0;
  EdgeKind kind = EdgeKind::walk;
  std::uint8_t bits = 0;  // TerrainBits crossed
  int ladder = -1;
};

enum class NodeKind : std::uint8_t { cell, ladder_end, top, foot };

struct NavNode {
  Vec3 p;
  bool edge = false;  // a neighbour is lower: a unit may jump from here
  NodeKind kind = NodeKind::cell;
  Vec2 out;           // boundary nodes: unit normal of the side, from the top towards the foot
};

// Boundary sampling: spacing along a side, the foot's distance past the side,
// and the reach of the straight walks that join boundary nodes to the rest.
inline constexpr double kBoundaryStep = 0.25;
inline constexpr double kMaxBoundarySamples = 4000;
inline constexpr double kFootGap = 1e-3;
inline constexpr double kBoundaryWalk = 1.5;
inline constexpr double kBoundaryLink = 1.0;
// A question's start and destination walk straight to boundary nodes this near.
inline constexpr double kEndpointWalk = 3.5;

// A footprint side, where the level may change: reach takes a climb or a jump
// down across it at the exact point a straight walk in and a straight walk out
// are shortest, and a jump across between two facing sides (`jump_pairs`) at
// the exact lips. `out` is the footprint's outward unit normal.
struct NavPortal {
  Vec2 a, b;
  Vec2 out;
  int surface = 0;
};

struct NavGraph {
  int nx = 0;
  int ny = 0;
  double max_reach = 6;
  std::vector<NavNode> nodes;   // grid cells first (index j*nx+i; invalid cells have NaN z), then ladder ends,
                                // then boundary nodes from `boundary`
  int boundary = 0;
  // Non-grid nodes by the 1-inch cell they lie in (clamped to the table):
  // node ids of cell c are extra[extra_first[c] .. extra_first[c+1]).
  std::vector<int> extra_first;
  std::vector<int> extra;
  std::vector<NavPortal> portals;                  // every footprint side (none when boundary nodes are not sampled)
  std::vector<std::pair<int, int>> jump_pairs;     // sides of two raised surfaces facing each other within jump reach
  std::vector<int> first;       // CSR: edges of node n are [first[n], first[n+1])
  std::vector<NavEdge> edges;
  bool valid(int n) const { return !std::isnan(nodes[static_cast<std::size_t>(n)].p.z); }
  int cell_of(double v, int n) const { return std::clamp(static_cast<int>(std::floor(v)), 0, std::max(0, n - 1)); }
};

NavGraph build_nav_graph(const Terrain& terrain, double max_reach = 6.0);

// Every edge a unit could take from a to b, found the same way as the
// compiled graph's (used for the start and destination of a question).
void edges_between(const Terrain& terrain, Vec3 a, Vec3 b, int to, double max_walk, std::vector<NavEdge>& out);

struct RouteOption {
  bool found = false;
  MoveRequest request;   // the route as a move request
  MoveReport report;     // check_move's verdict on it
  double search_cost = 0;  // cost in the graph, penalty included
};

struct RouteAnswer {
  std::string unit;
  Vec3 to;
  bool run = false;
  RouteOption safe;    // cheapest route that needs no check
  RouteOption risky;   // cheapest route overall, reported when it needs checks and is cheaper
};

// Throws InputError when the destination is off the table, not a level, or in impassable terrain.
RouteAnswer best_route(const Terrain& terrain, const State& state, const std::string& unit, Vec3 to, bool run);

struct ReachCell {
  Vec3 p;
  int checks = 0;     // fewest checks needed to end here (3 means 3 or more)
  double cost = 0;    // inches spent by that route, penalty included
  int surface = -1;   // the surface it stands on (index into Terrain::surfaces), -1 the ground
  MoveRequest move;   // with_moves: a move that ends here, spends `cost` and needs `checks` checks
};

struct ReachAnswer {
  std::string unit;
  bool run = false;
  double allowance = 0;   // before any difficult-terrain penalty
  std::vector<ReachCell> cells;
  int counts[4] = {0, 0, 0, 0};
  std::vector<std::string> surface_ids;  // Terrain::surfaces' ids, so the answer can name where cells are
};

// A route longer than one turn's move, split by turn
// (docs/rulings.md#blightmeer-route-turns). Each turn spends at most the
// unit's allowance (Move, halved when Staggered, x1.5 when running), less 2 in
// in a turn whose part of the route crosses difficult ground or water. A walk
// may stop part-way; a climb, ladder or jump is taken whole in one turn. The
// split is a plan for the player, not a ruling: states change between turns,
// and each turn's move is checked on its own when it is made.
struct TurnLeg {
  int turn = 1;
  int first_step = 0;    // the report's step indices (StepReport::index), inclusive;
  int last_step = 0;     // a walk cut in two appears in both turns
  double spent = 0;      // inches this turn, penalty included
  double allowance = 0;  // this turn's allowance (penalty taken off)
  Vec3 stop;             // where this turn's move stops
  bool mid_step = false; // the stop is part-way along step `last_step`
};
struct TurnSplit {
  std::vector<TurnLeg> legs;  // one leg when the route fits this turn
  bool possible = true;       // false: a single climb, ladder or jump costs more than a whole turn
  int blocking_step = 0;      // that step
};
TurnSplit split_by_turn(const MoveReport& report);

ReachAnswer unit_reach(const Terrain& terrain, const State& state, const std::string& unit, bool run,
                       bool with_moves = false);

}  // namespace referee::blightmeer
