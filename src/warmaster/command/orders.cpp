#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "referee/core/svg.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

long long to_hundredths_of_mm(double cm) { return std::llround(cm * 1000.0); }

// docs/rulings.md#warmaster-command-distance-penalty, in whole hundredths of a millimetre so that 40.000 cm is -1 and
// 40.001 cm is -2, with no floating-point doubt at the band edges.
int distance_penalty(double cm) {
  const long long d = to_hundredths_of_mm(cm);
  constexpr long long band = 20000;  // 20 cm
  if (d <= band) return 0;
  return -static_cast<int>((d - band + band - 1) / band);
}

bool within_20cm(double cm) { return to_hundredths_of_mm(cm) <= 20000; }

namespace {
int effective_command(const OrderFactors& f) {
  return f.first_turn_bonus ? std::min(10, f.command + 1) : f.command;
}
}  // namespace

int order_needed(const OrderFactors& f) {
  return effective_command(f) + distance_penalty(f.distance) - f.previous_orders - (f.enemy_near ? 1 : 0) -
         (f.dense ? 1 : 0) - f.stands_lost - f.blunder_penalty;
}

OrderTarget order_target(const OrderFactors& f) {
  OrderTarget t;
  t.command = f.command;
  t.effective_command = effective_command(f);
  if (int p = distance_penalty(f.distance); p != 0)
    t.penalties.push_back({warmaster::rule_id::command_distance, "distance", p,
                           fmt::format("unit {} away: over {} cm, up to {} cm", format_measure(f.distance, "cm"), -20 * p, 20 - 20 * p)});
  if (f.previous_orders > 0)
    t.penalties.push_back({warmaster::rule_id::command_further_order, "further order", -f.previous_orders,
                           fmt::format("order {} to this unit this phase: -1 for each earlier order",
                                       f.previous_orders + 1)});
  if (f.enemy_near)
    t.penalties.push_back({warmaster::rule_id::command_enemy_near, "enemy within 20 cm", -1,
                           "the closest enemy unit is 20 cm or less away"});
  if (f.dense)
    t.penalties.push_back({warmaster::rule_id::command_dense, "dense terrain", -1,
                           "at least one stand is at least partly inside dense terrain"});
  if (f.stands_lost > 0)
    t.penalties.push_back({warmaster::rule_id::command_casualties, "casualties", -f.stands_lost,
                           fmt::format("{} stand{} lost: -1 each", f.stands_lost, f.stands_lost == 1 ? "" : "s")});
  if (f.blunder_penalty > 0)
    t.penalties.push_back({warmaster::rule_id::command_blunder, "blunder", -f.blunder_penalty,
                           "a blunder (D6 = 1) costs -1 on orders for the rest of the game"});
  for (const CommandPenalty& p : t.penalties) t.total_penalty += p.value;
  t.needed = t.effective_command + t.total_penalty;
  t.chance = chance_2d6_at_most(t.needed);
  return t;
}

// --- Measuring ---------------------------------------------------------------

namespace {
// Could any stand of `u` (in `ubox`) be within `gap` of a stand of `e`? When
// the boxes are further apart than `gap` along x or y, the stands are too.
bool may_be_within(const Aabb& ubox, const Unit& e, double gap) {
  return ubox.inflated(gap).overlaps(stands_box(e));
}
}  // namespace

// The closest enemy unit: a unit is measured exactly only when its stands
// might beat the best distance found so far.
double closest_enemy_distance(const Battlefield& bf, const Unit& u, double stop_at) {
  double best = std::numeric_limits<double>::infinity();
  if (u.stands.empty()) return best;
  const Aabb ubox = stands_box(u);
  for (const Unit& e : bf.units) {
    if (e.side == u.side || e.stands.empty()) continue;
    if (std::isfinite(best) && !may_be_within(ubox, e, best)) continue;
    const double d = unit_distance(u, e).distance;
    if (d < best) best = d;
    if (best <= stop_at) return best;
  }
  return best;
}

namespace {
// Surely within `cm`: two stands whose inscribed discs are that close. A
// stand contains its disc, so the stands are at least as close as the discs.
bool discs_within(const Unit& u, const Unit& e, double cm) {
  const double reach = cm - 1e-6 + 0.5 * (u.shortest_edge() + e.shortest_edge());
  if (reach <= 0) return false;
  for (const Stand& s : u.stands)
    for (const Stand& t : e.stands)
      if (length_squared(s.pose.position - t.pose.position) < reach * reach) return true;
  return false;
}

// Exactly `to_hundredths_of_mm(unit_distance(u, e).distance) <=
// to_hundredths_of_mm(cm)`, pair of stands by pair: rounding is monotonic, so
// the closest pair decides as soon as any pair is within. A pair whose
// centres are further apart than `cm` plus both half-diagonals (and a margin
// well over the rounding) cannot be, and is not measured.
bool stands_within(const Unit& u, const Unit& e, double cm) {
  const long long limit = to_hundredths_of_mm(cm);
  const double far = cm + 0.01 + stand_circumradius(u) + stand_circumradius(e);
  for (std::size_t i = 0; i < u.stands.size(); ++i)
    for (std::size_t j = 0; j < e.stands.size(); ++j) {
      if (length_squared(u.stands[i].pose.position - e.stands[j].pose.position) > far * far) continue;
      if (to_hundredths_of_mm(closest_points(u.footprint(i), e.footprint(j)).distance) <= limit) return true;
    }
  return false;
}

// Is enemy `e` within `cm` of `u`? Their reach boxes are given (stands_box).
bool within(const Unit& u, const Aabb& ubox, const Unit& e, const Aabb& ebox, double cm) {
  // A hair over `cm` so that a distance equal to it at 1/100 mm still counts.
  if (!ubox.inflated(cm + 0.0005).overlaps(ebox)) return false;
  if (discs_within(u, e, cm)) return true;
  return stands_within(u, e, cm);
}
}  // namespace

bool enemy_within(const Battlefield& bf, const Unit& u, double cm) {
  if (u.stands.empty()) return false;
  const Aabb ubox = stands_box(u);
  for (const Unit& e : bf.units)
    if (e.side != u.side && !e.stands.empty() && within(u, ubox, e, stands_box(e), cm)) return true;
  return false;
}

bool enemy_within(const Battlefield& bf, const MoveIndex& index, const Unit& u, double cm) {
  if (u.stands.empty()) return false;
  const Aabb ubox = stands_box(u);
  // stands_box(e) lies within e's bounds inflated by its stands' radius, so
  // every unit `within` could accept meets this box.
  std::vector<int> near;
  index.units_near(ubox.inflated(cm + 0.001 + index.max_stand_radius()), near);
  for (int i : near) {
    const Unit& e = bf.units[static_cast<std::size_t>(i)];
    if (e.side != u.side && !e.stands.empty() && within(u, ubox, e, stands_box(e), cm)) return true;
  }
  return false;
}

std::vector<char> enemies_within(const Battlefield& bf, int side, double cm) {
  // Only pairs whose boxes come that close can pass `within` (its box test
  // widens by a hair over `cm`; the candidates by a little more).
  std::vector<Aabb> boxes;
  std::vector<char> out(bf.units.size(), 0);
  for (auto [i, j] : near_enemy_pairs(bf, cm + 0.001, &boxes)) {
    if (bf.units[i].side != side) std::swap(i, j);
    if (bf.units[i].side != side || out[i]) continue;
    if (within(bf.units[i], boxes[i], bf.units[j], boxes[j], cm)) out[i] = 1;
  }
  return out;
}

// Dense terrain: boxes first (stand centres widened by the half-diagonal),
// the exact overlap only for a feature whose box the stand's box meets.
bool in_dense_terrain(const Battlefield& bf, const Unit& u) {
  if (u.stands.empty()) return false;
  const Aabb ubox = stands_box(u);
  const double hd = stand_circumradius(u);
  for (const TerrainFeature& f : bf.terrain) {
    if (!ubox.overlaps(f.bounds) || !is_dense(f.kind)) continue;
    for (std::size_t i = 0; i < u.stands.size(); ++i) {
      const Vec2 c = u.stands[i].pose.position;
      const Aabb sbox{{c.x - hd, c.y - hd}, {c.x + hd, c.y + hd}};
      if (!sbox.overlaps(f.bounds)) continue;
      const OrientedRect r = u.footprint(i);
      for (const Polygon& p : f.pieces)
        if (sbox.overlaps(p.bounds()) && overlaps(r, p)) return true;
    }
  }
  return false;
}

namespace {
OrderFactors factors(const Battlefield& bf, const MoveIndex* index, const Character& c,
                     std::span<const Unit* const> units, int previous_orders, bool first_turn_bonus) {
  OrderFactors f;
  f.command = c.command;
  f.previous_orders = previous_orders;
  f.first_turn_bonus = first_turn_bonus;
  for (const Unit* u : units) {
    f.distance = std::max(f.distance, character_distance(c, *u).distance);
    f.stands_lost = std::max(f.stands_lost, u->stands_lost);
    if (!f.enemy_near) f.enemy_near = index ? enemy_within(bf, *index, *u, 20.0) : enemy_within(bf, *u, 20.0);
    if (!f.dense) f.dense = in_dense_terrain(bf, *u);
  }
  return f;
}
}  // namespace

OrderFactors order_factors(const Battlefield& bf, const Character& c, std::span<const Unit* const> units,
                           int previous_orders, bool first_turn_bonus) {
  return factors(bf, nullptr, c, units, previous_orders, first_turn_bonus);
}

OrderFactors order_factors(const Battlefield& bf, const MoveIndex& index, const Character& c,
                           std::span<const Unit* const> units, int previous_orders, bool first_turn_bonus) {
  return factors(bf, &index, c, units, previous_orders, first_turn_bonus);
}

// --- Odds --------------------------------------------------------------------

std::vector<SequenceOutcome> sequence_odds(std::span<const int> needed) {
  std::vector<SequenceOutcome> out;
  Chance so_far{1, 1};  // all earlier orders succeeded
  for (std::size_t k = 0; k < needed.size(); ++k) {
    const Chance pass = chance_2d6_at_most(needed[k]);
    SequenceOutcome o;
    o.succeeded = static_cast<int>(k);
    o.chance = so_far * pass.complement();
    o.description = k == 0 ? fmt::format("order 1 fails (needs {} or less)", needed[k])
                           : fmt::format("orders 1-{} succeed, order {} fails (needs {} or less)", k, k + 1, needed[k]);
    out.push_back(o);
    so_far = so_far * pass;
  }
  SequenceOutcome all;
  all.succeeded = static_cast<int>(needed.size());
  all.all_succeed = true;
  all.chance = so_far;
  all.description = needed.size() == 1 ? "the order succeeds" : fmt::format("all {} orders succeed", needed.size());
  out.push_back(all);
  return out;
}

std::vector<DistanceRow> distance_table(std::span<const int> commands, double max_cm, const OrderFactors& other) {
  std::vector<DistanceRow> rows;
  for (double from = 0; from < max_cm - 1e-9; from += 20.0) {
    DistanceRow row;
    row.from_cm = from;
    row.to_cm = std::min(from + 20.0, max_cm);
    row.penalty = distance_penalty(row.to_cm);
    for (int c : commands) {
      OrderFactors f = other;
      f.command = c;
      f.distance = row.to_cm;
      const int n = order_needed(f);
      row.needed.push_back(n);
      row.chance.push_back(chance_2d6_at_most(n));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The plot is drawn in its own world box: x is distance in cm, y is the
// chance in percent, so the SVG writer's y flip puts 100% at the top.
std::string distance_plot_svg(std::span<const int> commands, double max_cm, const OrderFactors& other) {
  const std::vector<DistanceRow> rows = distance_table(commands, max_cm, other);
  const double yscale = 0.6;  // 100% is drawn 60 world units tall
  SvgWriter svg(Aabb{{-12, -12}, {max_cm + 4, 100 * yscale + 10}}, 6.0);
  svg.title("Warmaster: chance of a successful order against distance");
  const SvgStyle axis{"none", "black", 0.3, 1.0, {}};
  const SvgStyle grid{"none", "#bbbbbb", 0.1, 1.0, {}};
  svg.line({0, 0}, {max_cm, 0}, axis);
  svg.line({0, 0}, {0, 100 * yscale}, axis);
  for (int p = 0; p <= 100; p += 25) {
    svg.line({0, p * yscale}, {max_cm, p * yscale}, grid);
    svg.text({-6, p * yscale}, fmt::format("{}%", p), 3);
  }
  for (double d = 0; d <= max_cm + 1e-9; d += 20) svg.text({d, -4}, fmt::format("{} cm", d), 3);
  const char* colours[] = {"#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e"};
  for (std::size_t ci = 0; ci < commands.size(); ++ci) {
    std::vector<Vec2> pts;
    for (const DistanceRow& r : rows) {
      const double y = r.chance[ci].value() * 100 * yscale;
      pts.push_back({r.from_cm, y});
      pts.push_back({r.to_cm, y});
    }
    const std::string colour = colours[ci % 5];
    svg.begin_group(fmt::format("command-{}", commands[ci]), "series");
    svg.title(fmt::format("Command {}", commands[ci]));
    svg.polyline(pts, SvgStyle{"none", colour, 0.5, 1.0, {}});
    svg.end_group();
    svg.text({max_cm - 14, 100 * yscale + 6 - 4.0 * static_cast<double>(ci)}, fmt::format("Command {}", commands[ci]),
             3, colour);
  }
  return svg.finish();
}

}  // namespace referee::warmaster
