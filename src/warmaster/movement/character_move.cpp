// A character's move: alone, as one stand of infantry for terrain, at a
// character's pace, through what its own side's units leave open.
#include "referee/warmaster/movement/movement.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/move_check.hpp"

namespace referee::warmaster::move_detail {

// `index`: of `bf`, or null. `whole_battle`: MoveScenes::whole_battle.
MoveAnswer check_character_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings, CheckDepth depth,
                                TransitScratch* scratch, const MoveIndex* index, bool whole_battle) {
  const Character* c = bf.find_character(req.mover);
  if (!c) throw InputError("character", fmt::format("no character \"{}\" on the battlefield", req.mover));
  if (req.stands.size() != 1 || req.stands[0].stand != StandIndex(0))
    throw InputError("stands", "a character moves as one stand, stand 0");
  MoveAnswer a;
  a.formation = Formation::Line;
  a.allowance = c->flying ? kFlyingCharacterPace : kCharacterPace;
  a.pace = c->flying ? "character, flying" : "character";
  a.order = {StandIndex(0)};
  StandRoute route;
  route.poses = {c->pose};
  route.poses.insert(route.poses.end(), req.stands[0].waypoints.begin(), req.stands[0].waypoints.end());
  route.poses.push_back(req.stands[0].final_pose);
  // A round base turns without moving any point further than its centre.
  double w = c->stand_size ? c->stand_size->x : c->base_diameter;
  double d = c->stand_size ? c->stand_size->y : c->base_diameter;
  auto measure = [&](const std::vector<Pose>& poses) {
    if (c->stand_size) return route_distance(poses, w, d);
    double sum = 0;
    for (std::size_t k = 0; k + 1 < poses.size(); ++k) sum += distance(poses[k].position, poses[k + 1].position);
    return sum;
  };

  // Characters treat terrain as infantry; units of their own side never
  // block them (TransitScene's Character model). The legs as given are
  // checked against what is near them (gates lie within a frontage of a
  // stand); only a blocked move plans a route over the whole table.
  Aabb area{route.poses[0].position, route.poses[0].position};
  for (const Pose& p : route.poses) area = area.merged(Aabb{p.position, p.position});
  const double margin = std::max(w, d) + w + 1.0;
  TransitOptions near_legs;
  if (!whole_battle) near_legs.region = area.inflated(margin);
  near_legs.index = index;
  TransitScene scene(bf, *c, settings, near_legs, scratch);
  Pose end = route.poses.back();
  bool end_refused = false;
  // The features the end could lie in: those near it, through the index.
  std::vector<const TerrainFeature*> features;
  if (index) features = terrain_near(bf, *index, Aabb{end.position, end.position}.inflated(std::max(w, d)));
  else for (const TerrainFeature& f : bf.terrain) features.push_back(&f);
  for (const TerrainFeature* feature : features) {
    const TerrainFeature& f = *feature;
    if (character_may_enter(f.kind)) continue;
    bool inside = c->stand_size ? rect_in_feature(OrientedRect::from_pose(end, w, d), f, settings.contact_tolerance)
                                : disc_in_feature(end.position, w / 2, f, settings.contact_tolerance);
    if (!inside) continue;
    end_refused = true;
    a.verdict.add(nobody_enters(f.kind) ? kRuleOverlap : kRuleTerrain,
                  fmt::format("character '{}' cannot end in {}: characters treat terrain as infantry", c->id,
                              feature_label(f)));
  }
  if (!end_refused) {
    // Reasons are written only for legs that are blocked and not replanned.
    bool blocked = any_leg_blocked(scene, route.poses);
    if (blocked && route.poses.size() == 2) {
      // Searched to twice the allowance, to show by how much a detour fails.
      // Legality alone needs no route longer than the allowance: a route's
      // measure (its furthest-moving point) is never less than its centre's
      // path, which the search measures. Both searches read the same
      // obstacles and gates (those within `bound`), so a route within the
      // allowance is the same route, and the verdict's legality never
      // depends on the depth (a search that also read less once refused
      // routes the explaining check found).
      const double bound = 2 * a.allowance;
      const double search_to = depth != CheckDepth::Explain ? a.allowance + kMeasureSlack : bound;
      TransitOptions around;
      around.index = index;
      // A route no longer than L from A to B keeps |AP| + |PB| <= L, so it
      // never strays more than L / 2 from both ends: what lies further off
      // cannot shorten or block it.
      if (!whole_battle) around.region = area.inflated(bound / 2 + margin);
      TransitScene whole(bf, *c, settings, around, scratch);
      if (auto planned = whole.shortest_route(route.poses.front(), route.poses.back(), search_to, bound)) {
        route.poses = *planned;
        route.planned = true;
        blocked = false;
      }
    }
    for (std::size_t k = 0; blocked && k + 1 < route.poses.size(); ++k) {
      if (route.poses[k] == route.poses[k + 1]) continue;
      for (auto& r : scene.check_leg(route.poses[k], route.poses[k + 1], "character " + c->id))
        a.verdict.add(std::move(r));
    }
  }
  route.used = measure(route.poses);
  if (route.used > a.allowance + kMeasureSlack) {
    ComparedFigures shown = format_compared(route.used, a.allowance, "cm");
    a.verdict.add(kRuleDistance,
                  fmt::format("character '{}' moved {} > {} ({}){}", c->id, shown.value, shown.limit, a.pace,
                              route.planned ? " along the route the engine planned" : ""),
                  {{"moved", route.used, "cm"}, {"allowed", a.allowance, "cm"}});
  }
  if (off_table(OrientedRect::from_pose(end, w, d), bf)) a.leaves_table = true;
  a.routes = {route};
  return a;
}

}  // namespace referee::warmaster::move_detail
