// The checks on the final poses of a move: how far each stand moved
// (warmaster.movement.distance), overlaps with other stands
// (warmaster.movement.overlap), and the unit's formation at the end
// (warmaster.movement.formation).
#include "referee/warmaster/movement/movement.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "referee/warmaster/model/troops.hpp"
#include "movement/move_check.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster::move_detail {

namespace {

constexpr std::array<const char*, 4> kCornerNames{"front-left", "front-right", "rear-right", "rear-left"};

}  // namespace

// `explain`: write the figures into the reasons (CheckDepth::Explain); a
// check for legality alone names the rule and the stand only.
// Each route's `used` is filled in.
void check_distances(const Unit& u, const Pace& pace, Formation formation, MoveKind kind, bool explain,
                     RotMemo& rot, Verdict& verdict, std::vector<StandRoute>& routes) {
  for (auto& r : routes) {
    if (!moves(r)) continue;
    auto corners = corner_distances(r.poses, u.width, u.depth, rot);
    std::size_t worst = static_cast<std::size_t>(std::max_element(corners.begin(), corners.end()) - corners.begin());
    r.used = corners[worst];
    if (r.used > pace.allowance + kMeasureSlack) {
      if (!explain) {
        verdict.add(kRuleDistance, stand_label(r.stand) + " moved further than its allowance",
                    {{"moved", r.used, "cm"}, {"allowed", pace.allowance, "cm"}});
        continue;
      }
      std::string why = kind == MoveKind::Dice ? "dice" : fmt::format("{}, {}", to_string(formation), pace.label);
      ComparedFigures shown = format_compared(r.used, pace.allowance, "cm");
      verdict.add(kRuleDistance,
                  fmt::format("{}, {} corner moved {} > {} ({}, {}){}", stand_label(r.stand), kCornerNames[worst], shown.value,
                              shown.limit, to_string(u.type), why,
                              r.planned ? " along the route the engine planned round what blocks the straight line" : ""),
                  {{"moved", r.used, "cm"}, {"allowed", pace.allowance, "cm"}});
    }
  }
}

// Final poses overlap no stand of another unit (characters never count) and
// no other stand of the unit. Touching is not overlapping.
// `first_only`: stop at the first overlap found (CheckDepth::Whether).
// `finals`: final_footprints of `routes`.
void check_overlaps(const Battlefield& bf, const MoveIndex& index, const Unit& u,
                    const std::vector<StandRoute>& routes, const std::vector<OrientedRect>& finals,
                    const Settings& settings, bool first_only, Verdict& verdict) {
  double tol = settings.contact_tolerance;
  Aabb area = finals.front().bounds();
  for (const OrientedRect& f : finals) area = area.merged(f.bounds());
  for (std::size_t i = 0; i < finals.size(); ++i) {
    for (std::size_t j = i + 1; j < finals.size(); ++j) {
      if (!moves(routes[i]) && !moves(routes[j])) continue;
      if (overlaps(finals[i], finals[j], tol)) {
        verdict.add(kRuleOverlap,
                    fmt::format("stands {} and {} of the unit would overlap by {}", i + 1, j + 1,
                                cm(penetration(finals[i], finals[j]))),
                    {{"overlap", penetration(finals[i], finals[j]), "cm"}});
        if (first_only) return;
      }
    }
  }
  std::vector<int> near;
  index.units_near(area, near);
  for (int k : near) {
    const Unit& other = bf.units[static_cast<std::size_t>(k)];
    if (&other == &u || other.id == u.id) continue;
    RotMemo other_rot;
    for (std::size_t s = 0; s < other.stands.size(); ++s) {
      OrientedRect o = other.footprint(s, other_rot);
      if (!o.bounds().overlaps(area)) continue;
      for (std::size_t i = 0; i < finals.size(); ++i) {
        if (!moves(routes[i]) || !overlaps(finals[i], o, tol)) continue;
        verdict.add(kRuleOverlap,
                    fmt::format("{} would overlap stand {} of {} unit '{}' by {}", stand_label(i), s + 1,
                                other.side == u.side ? "friendly" : "enemy", other.id, cm(penetration(finals[i], o))),
                    {{"overlap", penetration(finals[i], o), "cm"}});
        if (first_only) return;
      }
    }
  }
}

// Every stand must touch another stand of its unit at the end (movement
// text, Formation & Movement), along an edge or at a point.
// `finals`: the final footprints of every stand (final_footprints).
void check_end_formation(const std::vector<OrientedRect>& finals, const Settings& settings, Verdict& verdict) {
  if (finals.size() < 2) return;
  for (const StandApart& a : stands_apart(finals, settings.contact_tolerance)) {
    verdict.add(kRuleFormation, describe_apart(a, settings.contact_tolerance, " at the end of the move"),
                {{"gap", a.gap, "cm"}, {"tolerance", settings.contact_tolerance, "cm"}});
  }
}

}  // namespace referee::warmaster::move_detail
