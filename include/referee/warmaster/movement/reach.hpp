// Where a unit's stands can END one move (movement text: pace, formation,
// the gap rule, terrain, the table edge, overlaps), as polygons for answers
// and as an SVG drawn over the battlefield.
//
// The promise (tests/warmaster/reach_check_agreement_test.cpp checks it on
// every unit of every bundled battle and on random fields):
// - Each stand has its own area (ReachAnswer::stand_boundaries), measured
//   from its own start; `boundary` is their union, what a board shades.
// - A move in which every stand ends with its centre inside its own area,
//   facing as the answer says, is accepted by the move checker
//   (check_move): no false promises. Reach answers for each stand alone:
//   whether the stands end in formation, and whether, moved one at a time,
//   they get in each other's way, is the checker's question
//   (docs/rulings.md#warmaster-reach-end-poses).
// - A move the checker accepts ends each stand within miss_bound() of its
//   area. Derived, term by term (docs/warmaster-geometry.md, section 4):
//   2.7% of the allowance (the grid's path error on a route; a straight leg
//   has none), + turn_slack (with a final facing: a
//   route is charged its worst turn, the checker turns on its cheapest leg)
//   + the margin (h / sqrt 2) + one cell h (the contour). The exception is
//   a thin place, where the grid may have no sample: a way through a gap, or
//   an end between two things on opposite sides, less than a cell wider
//   than the stand needs.
// - That bound is for ends facing as the answer says. A move that ends its
//   stands at another facing (a player turning a unit the board shaded
//   keeping its facing) ends each within miss_bound_any_facing(): the
//   turn_cost the answer charged may not be paid, and a footprint turned
//   another way can come nearer what it may not overlap by at most its
//   half-diagonal less half its shortest edge (it lies inside the disc of
//   the one and holds the disc of the other): 1.24 cm for a 40 x 20 mm stand.
//
// Model.
// - Transit (transit.hpp): the disc of half the shortest edge less the
//   contact tolerance, gates closing enemy gaps, terrain the mover may not
//   enter, the table edge.
// - Facing (docs/rulings.md#warmaster-reach-facing): by default each stand
//   keeps its own facing, so every corner moves as far as the centre
//   (docs/rulings.md#warmaster-move-distance). With a final facing given, one straight leg costs exactly
//   what the checker measures, its farthest-moving corner; a route is
//   charged 2 * rho * sin(turn / 2) on top of its centre's path (rho: the
//   half-diagonal), the most a corner can move further than the centre,
//   whichever leg it turns on.
// - The end (docs/rulings.md#warmaster-reach-end-poses): the footprint at the end facing must stay
//   on the table, off other units' stands and out of terrain the troop type
//   may not end in, as the move checker's overlap and terrain rules say.
//   The unit's own stands are left out: they all move.
//
// Method: a grid over the move's bounding box (cell h = 0.5 cm, coarser for
// long moves so the grid stays under ~40 000 cells). At each sample, the
// disc's clearance (its edge's distance from what blocks it, a lower bound)
// and, where it was reached, the footprint's room (its distance from what
// it may not end on, shrunk by the contact tolerance over sqrt 2). Both are
// 1-Lipschitz. From each stand's start, a fan of 1024 directions holds how
// far the disc's centre can go straight in each (exact up to a direction's
// width): a sample it sees is reached by one straight leg, at its exact
// distance. Round what blocks the straight lines, a Dijkstra with 16
// neighbours (steps of (1,0), (1,1) and (2,1) cells) over samples where the
// disc is clear and at least 1.5 cells from every gate; a step is clear when
// the clearances at its ends add up to its length, otherwise the transit
// model decides it exactly. Its paths are at most 2.7% longer than the true
// shortest path and never shorter. Marching squares trace min(slack, room -
// margin), slack being what is left of the allowance, with every outside
// sample set to -h, so a boundary point lies no further from its inside
// sample than that sample's value, and the margin covers the inside of a
// cell. A straight leg's turned cost is used only at a sample whose cells
// the fan sees whole, so that all the contour draws round it is reached
// straight.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

enum class ReachKind { Ordered, HalfPace, Charge, Evade, Character };
const char* to_string(ReachKind k);
std::optional<ReachKind> reach_kind_from_string(const std::string& s);

struct ReachRequest {
  std::string mover;                     // unit id, or character id for ReachKind::Character
  ReachKind kind = ReachKind::Ordered;
  std::optional<double> allowance;       // override the pace (cm)
  double cell = 0.5;                     // grid cell (cm); coarsened for long moves
  // The facing every stand ends with (degrees); by default each keeps its own.
  std::optional<double> facing;
};

struct ReachAnswer {
  std::string mover;
  ReachKind kind = ReachKind::Ordered;
  double allowance = 0;                  // cm
  std::string pace;                      // "full pace", "half pace (irregular formation)", ...
  double cell = 0.5;                     // the cell actually used
  std::vector<Polygon> boundary;         // closed rings: outer boundaries counter-clockwise, holes clockwise
  // Each stand's own area (in the order of `starts`), rings as `boundary`,
  // which is their union. A move whose every stand ends in its own area is
  // legal as far as reach can tell (see the model above).
  std::vector<std::vector<Polygon>> stand_boundaries;
  double area = 0;                       // cm^2 of the region (centres reachable)
  std::vector<Pose> starts;              // the stands' poses
  double clearance = 1;                  // the transit disc radius
  std::vector<Segment> gates;            // closed enemy gaps near the move
  std::optional<double> facing;          // the end facing asked for; none: each stand keeps its own
  double turn_cost = 0;                  // cm taken off the allowance for turning to `facing` (a route's worst)
  double turn_slack = 0;                 // cm by which turn_cost may exceed what a route's turn really costs
  double margin = 0;                     // cm kept between the shaded area and where a footprint stops fitting
  // A legal move's end centre lies at most this far outside the area, thin
  // places aside (above: the path error, the turn, the margin and the
  // contour's cell error).
  double miss_bound() const { return 0.027 * allowance + turn_slack + margin + cell; }
  // cm a stand's footprint ending at another facing can come nearer an
  // obstacle than at the answer's: half-diagonal less half the shortest edge
  // (0 for a character, whose base has no facing).
  double other_facing_room = 0;
  // A legal end at any facing lies at most this far outside the area, thin
  // places aside: the above, plus the turn the answer charged and
  // other_facing_room.
  double miss_bound_any_facing() const { return miss_bound() + turn_cost + other_facing_room; }
};

// Throws InputError when the mover does not exist.
ReachAnswer reach(const Battlefield& bf, const ReachRequest& req, const Settings& settings = {});

void to_json(nlohmann::json& j, const ReachAnswer& a);
std::string explain(const ReachAnswer& a);
// The battlefield seen from above with the reach area over it.
std::string reach_svg(const Battlefield& bf, const ReachAnswer& a);

}  // namespace referee::warmaster
