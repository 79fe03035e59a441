// Terrain at the end of a move (warmaster.movement.terrain, movement text
// "Terrain"): ground troops ordered into terrain they cannot enter halt at its
// edge (halt_before finds where), flyers may end only where they may land,
// and terrain nobody may enter is an overlap.
#include "referee/warmaster/movement/movement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "referee/warmaster/model/troops.hpp"
#include "movement/move_check.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster::move_detail {

bool rect_in_feature(const OrientedRect& r, const TerrainFeature& f, double tol) {
  if (!r.bounds().overlaps(f.bounds)) return false;
  for (const auto& p : f.pieces)
    if (overlaps(r, p, tol)) return true;
  return false;
}

bool disc_in_feature(Vec2 c, double radius, const TerrainFeature& f, double tol) {
  Aabb box{{c.x - radius, c.y - radius}, {c.x + radius, c.y + radius}};
  if (!box.overlaps(f.bounds)) return false;
  for (const auto& p : f.pieces)
    if (contains(p, c) || distance(c, p) < radius - tol) return true;
  return false;
}

bool nobody_enters(TerrainKind k) { return !may_enter(TroopType::Infantry, k, Settings{}); }

std::string feature_label(const TerrainFeature& f) { return fmt::format("{} '{}'", to_string(f.kind), f.id); }

// The terrain features whose bounds meet `box`.
std::vector<const TerrainFeature*> terrain_near(const Battlefield& bf, const MoveIndex& index, const Aabb& box) {
  std::vector<int> near;
  index.terrain_near(box, near);
  std::vector<const TerrainFeature*> out;
  out.reserve(near.size());
  for (int k : near) out.push_back(&bf.terrain[static_cast<std::size_t>(k)]);
  return out;
}

// Terrain at the end of the move. Ground troops ordered into terrain they
// cannot enter halt at its edge; flyers may end only where flyer_may_end_in
// allows. Terrain nobody may enter is an overlap. Returns, per stand, whether
// its destination is refused (its path is then not traced).
// `explain`: find where a stand halts, for the reasons (CheckDepth::Explain).
std::vector<bool> check_terrain(const std::vector<const TerrainFeature*>& terrain, const Unit& u,
                                const std::vector<StandRoute>& routes, const Settings& settings, bool explain,
                                RotMemo& rot, Verdict& verdict) {
  std::vector<bool> refused(routes.size(), false);
  double tol = settings.contact_tolerance;
  std::vector<const Polygon*> blocked;
  for (const TerrainFeature* f : terrain)
    if (!may_enter(u.type, f->kind, settings))
      for (const auto& p : f->pieces) blocked.push_back(&p);
  for (const auto& r : routes) {
    if (!moves(r)) continue;
    OrientedRect start = u.footprint_at(r.poses.front(), rot);
    OrientedRect end = u.footprint_at(r.poses.back(), rot);
    for (const TerrainFeature* feature : terrain) {
      const TerrainFeature& f = *feature;
      bool allowed =
          u.type == TroopType::Flyer ? flyer_may_end_in(f.kind, settings) : may_enter(u.type, f.kind, settings);
      if (allowed || !rect_in_feature(end, f, tol)) continue;
      refused[r.stand.slot()] = true;
      const char* rule = nobody_enters(f.kind) ? kRuleOverlap : kRuleTerrain;
      if (!explain) {
        verdict.add(rule, stand_label(r.stand) + " cannot end in " + f.id, {});
        continue;
      }
      if (u.type == TroopType::Flyer) {
        verdict.add(rule, fmt::format("{} would end its flight in {}: flyers may not end a move there", stand_label(r.stand),
                                      feature_label(f)));
        continue;
      }
      std::optional<Halt> halt;
      // It halts where it first touches the edge, exactly (not within the contact tolerance).
      if (!rect_in_feature(start, f, tol)) halt = halt_before(r.poses, u.width, u.depth, blocked, 1e-6);
      if (halt) {
        double leg_length = distance(r.poses[halt->leg].position, r.poses[halt->leg + 1].position);
        double before = 0;
        for (std::size_t k = 0; k < halt->leg; ++k) before += distance(r.poses[k].position, r.poses[k + 1].position);
        verdict.add(rule,
                    fmt::format("{} cannot enter {} ({}): it would halt at the edge, at ({:.2f}, {:.2f}) "
                                "facing {:.1f}, after {} of its {} leg",
                                stand_label(r.stand), feature_label(f), to_string(u.type), halt->pose.position.x,
                                halt->pose.position.y, halt->pose.facing_deg, cm(halt->travelled - before),
                                cm(leg_length)),
                    {{"halt_x", halt->pose.position.x, "cm"},
                     {"halt_y", halt->pose.position.y, "cm"},
                     {"halt_after", halt->travelled - before, "cm"},
                     {"leg", leg_length, "cm"}});
      } else {
        verdict.add(rule, fmt::format("{} cannot be in {} ({})", stand_label(r.stand), feature_label(f), to_string(u.type)));
      }
    }
  }
  return refused;
}

}  // namespace referee::warmaster::move_detail

namespace referee::warmaster {

Pose interpolate(const Pose& from, const Pose& to, double t) {
  return {from.position + (to.position - from.position) * t,
          normalize_degrees(from.facing_deg + angle_difference_degrees(from.facing_deg, to.facing_deg) * t)};
}

// Walks the legs in small steps (0.25 cm of centre travel or 2 degrees of
// turn), then bisects between the last clear step and the first touching
// one to a hundredth of a millimetre.
std::optional<Halt> halt_before(const std::vector<Pose>& poses, double width, double depth,
                                const std::vector<const Polygon*>& blocked, double tolerance) {
  // Each leg tests only the polygons its swept box meets (every footprint
  // on the leg lies within the half-diagonal of the centre's path), and the
  // rotation is worked out again only when the facing changes.
  std::vector<Aabb> boxes;
  for (const Polygon* poly : blocked) boxes.push_back(poly->bounds());
  std::vector<std::size_t> near;
  const double half_diagonal = 0.5 * std::sqrt(width * width + depth * depth);
  double facing = std::numeric_limits<double>::quiet_NaN();
  Rot rot;
  auto touches = [&](const Pose& p) {
    if (!(p.facing_deg == facing)) {
      facing = p.facing_deg;
      rot = Rot::from_degrees(facing);
    }
    const OrientedRect r{p.position, {width / 2, depth / 2}, rot};
    const Aabb b = r.bounds();
    for (std::size_t i : near)
      if (b.overlaps(boxes[i]) && overlaps(r, *blocked[i], tolerance)) return true;
    return false;
  };
  double travelled = 0;
  for (std::size_t leg = 0; leg + 1 < poses.size(); ++leg) {
    const Pose& a = poses[leg];
    const Pose& b = poses[leg + 1];
    const Aabb swept = Aabb{a.position, a.position}.merged(Aabb{b.position, b.position}).inflated(half_diagonal + 1e-9);
    near.clear();
    for (std::size_t i = 0; i < boxes.size(); ++i)
      if (swept.overlaps(boxes[i])) near.push_back(i);
    double len = distance(a.position, b.position);
    if (near.empty()) {
      travelled += len;
      continue;
    }
    double turn = std::abs(angle_difference_degrees(a.facing_deg, b.facing_deg));
    int steps = std::max(1, static_cast<int>(std::ceil(std::max(len / 0.25, turn / 2.0))));
    steps = std::min(steps, 100000);
    double clear_t = 0;
    if (touches(a)) return Halt{a, travelled, leg};
    for (int k = 1; k <= steps; ++k) {
      double t = static_cast<double>(k) / steps;
      if (!touches(interpolate(a, b, t))) {
        clear_t = t;
        continue;
      }
      double lo = clear_t, hi = t;
      while ((hi - lo) * std::max(len, 1.0) > 1e-4) {
        double mid = (lo + hi) / 2;
        (touches(interpolate(a, b, mid)) ? hi : lo) = mid;
      }
      return Halt{interpolate(a, b, lo), travelled + len * lo, leg};
    }
    travelled += len;
  }
  return std::nullopt;
}

}  // namespace referee::warmaster
