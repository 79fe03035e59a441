// Checking a Warmaster move: pace, formation, distance, clear path, terrain,
// overlap and leaving the table (movement text; docs/rulings.md#warmaster-move-pace and the entries after it). The
// checks only read the battlefield; apply_move() makes the change.
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {

constexpr const char* kRulePace = warmaster::rule_id::movement_pace;
constexpr const char* kRuleFormation = warmaster::rule_id::movement_formation;
constexpr const char* kRuleDistance = warmaster::rule_id::movement_distance;
constexpr const char* kRuleTerrain = warmaster::rule_id::movement_terrain;
constexpr const char* kRuleOverlap = warmaster::rule_id::movement_overlap;
constexpr const char* kRuleConfused = warmaster::rule_id::movement_confused;

constexpr std::array<const char*, 4> kCornerNames{"front-left", "front-right", "rear-right", "rear-left"};

std::string cm(double v) { return format_measure(v, "cm"); }

// --- Terrain helpers ----------------------------------------------------------

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

bool off_table(const OrientedRect& r, const Battlefield& bf) {
  constexpr double eps = 1e-6;
  for (Vec2 c : r.corners())
    if (c.x < -eps || c.y < -eps || c.x > bf.width + eps || c.y > bf.height + eps) return true;
  return false;
}

// Reasons count stands from 1, as players do (and as TransitScene labels
// other units' stands); files and answers use the 0-based index.

// The poses each stand passes through: start, waypoints, final. Stands the
// request does not mention stay where they are.
std::vector<StandRoute> initial_routes(const Unit& u, const MoveRequest& req) {
  std::vector<StandRoute> routes(u.stands.size());
  for (std::size_t i = 0; i < u.stands.size(); ++i) routes[i].stand = static_cast<int>(i);
  // Each list made at its full size at once (it is made for every check).
  for (const auto& plan : req.stands)
    routes[static_cast<std::size_t>(plan.stand)].poses.reserve(plan.waypoints.size() + 2);
  for (std::size_t i = 0; i < u.stands.size(); ++i) routes[i].poses.push_back(u.stands[i].pose);
  for (const auto& plan : req.stands) {
    auto& r = routes[static_cast<std::size_t>(plan.stand)];
    r.poses.insert(r.poses.end(), plan.waypoints.begin(), plan.waypoints.end());
    r.poses.push_back(plan.final_pose);
  }
  return routes;
}

bool moves(const StandRoute& r) { return r.poses.size() > 1; }

// Where each stand's route ends, stand by stand: read by the own blockers,
// the table edge, the overlaps and the formation at the end. A planned
// route ends where the straight one did (shortest_route), so they are
// worked out once per check.
std::vector<OrientedRect> final_footprints(const Unit& u, const std::vector<StandRoute>& routes, RotMemo& rot) {
  std::vector<OrientedRect> finals;
  finals.reserve(routes.size());
  for (const StandRoute& r : routes) finals.push_back(u.footprint_at(r.poses.back(), rot));
  return finals;
}

// --- Clear path (docs/rulings.md#warmaster-transit-model) ------------------
// Is some leg of `poses` (one that moves) blocked in `scene`? Legality only,
// with no reasons written: those are made for the legs that stay blocked.
bool any_leg_blocked(TransitScene& scene, const std::vector<Pose>& poses) {
  for (std::size_t k = 0; k + 1 < poses.size(); ++k)
    if (poses[k] != poses[k + 1] && !scene.leg_clear(poses[k], poses[k + 1])) return true;
  return false;
}

// Stands move one at a time in `order`. Each leg goes to TransitScene, which
// applies the gap rule; own stands block once they have moved (or when the
// unit is engaged). A stand sent without waypoints whose straight line is
// blocked gets the shortest route that obeys the gap rule, if one exists.
struct PathAttempt {
  std::vector<Ruling> violations;
  std::vector<StandRoute> routes;
  int failed = -1;  // the first stand whose path failed
};

// Routes are searched within `search.route` and read as far as
// `search.read` (TransitScene::shortest_route). `search.reasons`: write the
// reasons of every stand with no route; otherwise the first one ends the
// attempt with a short reason.
struct RouteSearch {
  double route = 0;
  double read = 0;
  bool reasons = true;
};

// What a check for legality alone says of the first stand that has no route.
Ruling no_route_within_allowance(int stand) {
  return {warmaster::rule_id::movement_path,
          stand_label(stand) + ": no route round what blocks the straight line within the allowance", {}};
}

// Where the unit's own stands stand as blockers (set_own_blockers): each at
// the end of its route once it has moved, and, for an engaged unit, each
// where it starts until then. Worked out once per check: every order traced
// reads the same footprints.
struct OwnFootprints {
  const std::vector<OrientedRect>& finals;  // final_footprints
  std::vector<OrientedRect> starts;         // engaged units only
  std::vector<OrientedRect> blockers;       // the list handed to the scene, reused stand after stand
  std::vector<char> moved;
  OwnFootprints(const Unit& u, const std::vector<OrientedRect>& final_rects, RotMemo& rot) : finals(final_rects) {
    if (u.engaged)
      for (std::size_t j = 0; j < u.stands.size(); ++j) starts.push_back(u.footprint(j, rot));
    blockers.reserve(finals.size());
  }
  // The own blockers of stand i, the stands marked in `moved` having moved.
  const std::vector<OrientedRect>& of(int i) {
    blockers.clear();
    for (std::size_t j = 0; j < finals.size(); ++j) {
      if (static_cast<int>(j) == i) continue;
      if (moved[j]) blockers.push_back(finals[j]);
      else if (!starts.empty()) blockers.push_back(starts[j]);
    }
    return blockers;
  }
};

// The first stand in `order` whose straight legs, as given, are blocked
// (-1: none), the stands moving one at a time as trace_paths moves them.
// Nothing is planned and no reason written, so the routes are only read.
int first_blocked_stand(TransitScene& scene, const std::vector<int>& order, const std::vector<StandRoute>& routes,
                        const std::vector<bool>& skip, OwnFootprints& own) {
  own.moved.assign(routes.size(), 0);
  for (int i : order) {
    const std::size_t k = static_cast<std::size_t>(i);
    // A stand not traced blocks nothing before it moves, and no leg of it is checked.
    if (!skip[k]) {
      scene.set_own_blockers(own.of(i));
      if (any_leg_blocked(scene, routes[k].poses)) return i;
    }
    own.moved[k] = 1;
  }
  return -1;
}

// The routes of `order` planned round what blocks their straight lines
// (only a stand's single straight leg is planned), the own stands blocking
// as in first_blocked_stand.
PathAttempt trace_paths(TransitScene& scene, const std::vector<int>& order, std::vector<StandRoute> routes,
                        const std::vector<bool>& skip, const RouteSearch& search,
                        OwnFootprints& own) {
  PathAttempt out;
  own.moved.assign(routes.size(), 0);
  for (int i : order) {
    auto& route = routes[static_cast<std::size_t>(i)];
    scene.set_own_blockers(own.of(i));
    own.moved[static_cast<std::size_t>(i)] = 1;
    if (skip[static_cast<std::size_t>(i)]) continue;
    // Reasons are written only for legs that are blocked and not replanned.
    if (!any_leg_blocked(scene, route.poses)) continue;
    // A straight line blocked: plan round what blocks it first; the leg's
    // reasons are written only when no route is found.
    std::optional<std::vector<Pose>> planned;
    if (route.poses.size() == 2)
      planned = scene.shortest_route(route.poses.front(), route.poses.back(), search.route, search.read);
    if (planned) {
      route.poses = std::move(*planned);
      route.planned = true;
      continue;
    }
    if (out.failed < 0) out.failed = i;
    if (!search.reasons) {
      // Legality only: the first stand with no route decides, and its legs' reasons are not written.
      out.violations.push_back(no_route_within_allowance(i));
      break;
    }
    for (std::size_t k = 0; k + 1 < route.poses.size(); ++k) {
      if (route.poses[k] == route.poses[k + 1]) continue;
      auto legs = scene.check_leg(route.poses[k], route.poses[k + 1], stand_label(i));
      out.violations.insert(out.violations.end(), legs.begin(), legs.end());
    }
    if (route.poses.size() == 2)
      out.violations.push_back({warmaster::rule_id::movement_path,
                                fmt::format("{}: no route round what blocks the straight line within {} (the "
                                            "allowance plus the stand's longest edge)",
                                            stand_label(i), cm(search.route)),
                                {{"searched", search.route, "cm"}}});
  }
  out.routes = std::move(routes);
  return out;
}

// Orders to try when the request gives none: the listed order first, then
// every other order of up to five moving stands, until one has a clear path.
std::vector<std::vector<int>> candidate_orders(const std::vector<int>& moving) {
  std::vector<std::vector<int>> out{moving};
  if (moving.size() < 2) return out;
  if (moving.size() > 5) {
    out.emplace_back(moving.rbegin(), moving.rend());
    return out;
  }
  std::vector<int> p = moving;
  std::sort(p.begin(), p.end());
  do {
    if (p != moving) out.push_back(p);
  } while (std::next_permutation(p.begin(), p.end()));
  return out;
}

// --- Checks on the final poses ------------------------------------------------

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
      refused[static_cast<std::size_t>(r.stand)] = true;
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

}  // namespace

namespace {

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

// The terrain features whose bounds meet `box`.
std::vector<const TerrainFeature*> terrain_near(const Battlefield& bf, const MoveIndex& index, const Aabb& box) {
  std::vector<int> near;
  index.terrain_near(box, near);
  std::vector<const TerrainFeature*> out;
  out.reserve(near.size());
  for (int k : near) out.push_back(&bf.terrain[static_cast<std::size_t>(k)]);
  return out;
}

// `index`: of `bf`, or null. `whole_battle`: MoveScenes::whole_battle.
MoveAnswer check_character_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings, CheckDepth depth,
                                TransitScratch* scratch, const MoveIndex* index = nullptr, bool whole_battle = false) {
  const Character* c = bf.find_character(req.mover);
  if (!c) throw InputError("character", fmt::format("no character \"{}\" on the battlefield", req.mover));
  if (req.stands.size() != 1 || req.stands[0].stand != 0)
    throw InputError("stands", "a character moves as one stand, stand 0");
  MoveAnswer a;
  a.formation = Formation::Line;
  a.allowance = c->flying ? kFlyingCharacterPace : kCharacterPace;
  a.pace = c->flying ? "character, flying" : "character";
  a.order = {0};
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

}  // namespace

Pace move_pace(const Unit& u, MoveKind kind, Formation formation, std::optional<double> dice_distance) {
  double full = full_pace(u);
  switch (kind) {
    case MoveKind::Dice: return {dice_distance.value_or(0), "distance rolled"};
    case MoveKind::Charge: return {full, "full pace (charge)"};
    case MoveKind::Evade: return {full, "full pace (evade)"};
    case MoveKind::HalfPace: return {full / 2, "half pace (failed order)"};
    case MoveKind::Character: return {full, "full pace"};
    case MoveKind::Ordered: break;
  }
  if (u.fortified) return {full / 2, "half pace (fortified at the start)"};
  if (formation == Formation::Irregular) return {full / 2, "half pace (irregular formation)"};
  return {full, "full pace"};
}

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

MoveAnswer check_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings, CheckDepth depth) {
  if (req.kind == MoveKind::Character) return check_character_move(bf, req, settings, depth, nullptr);
  return check_move(bf, MoveIndex(bf), req, settings, depth);
}

struct MoveScenes::Impl {
  std::uint64_t state = 0;  // MoveIndex::serial of the battlefield the scene was built on
  Settings settings;
  std::string unit;
  bool flying = false;
  bool evading = false;
  std::vector<std::string> ignore_units;
  Aabb region{};
  MoveScratch* scratch = nullptr;
  TransitScratch* transit() const { return scratch ? &scratch->transit : nullptr; }
  std::optional<TransitScene> scene;
  // The formation of the stands last classified (kept_formation): their
  // poses and size, the contact tolerance, and what they make (none yet:
  // formation_known false).
  bool formation_known = false;
  std::vector<Pose> formation_poses;
  double formation_width = 0, formation_depth = 0, formation_tolerance = 0;
  Formation formation = Formation::Irregular;
};
MoveScenes::MoveScenes(MoveScratch* scratch) : impl(std::make_unique<Impl>()) { impl->scratch = scratch; }
MoveScratch* MoveScenes::scratch() const { return impl->scratch; }
MoveScenes::~MoveScenes() = default;
void MoveScenesDelete::operator()(MoveScenes* s) const { delete s; }

namespace {
// The options a scene is built with: as asked, or with no region for
// MoveScenes::whole_battle.
TransitOptions scene_options(const TransitOptions& opts, const MoveScenes& scenes) {
  if (!scenes.whole_battle) return opts;
  TransitOptions whole = opts;
  whole.region.reset();
  return whole;
}
}  // namespace

MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req,
                      const Settings& settings, CheckDepth depth) {
  MoveScenes scenes;
  return check_move(bf, index, req, settings, scenes, depth);
}

MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req, const Settings& settings,
                      MoveScratch& scratch, CheckDepth depth) {
  if (!scratch.kept) scratch.kept.reset(new MoveScenes(&scratch));
  scratch.kept->impl->scratch = &scratch;  // the scratch may have moved since
  return check_move(bf, index, req, settings, *scratch.kept, depth);
}

namespace {

// The unit a request moves, with its stands checked: a malformed request is
// bad input (an InputError naming the field), not a ruling.
const Unit& requested_unit(const Battlefield& bf, const MoveRequest& req) {
  const Unit* found = bf.find_unit(req.mover);
  if (!found) throw InputError("unit", fmt::format("no unit \"{}\" on the battlefield", req.mover));
  const Unit& u = *found;
  if (u.stands.empty()) throw InputError("unit", fmt::format("unit \"{}\" has no stands on the table", u.id));
  std::vector<bool> listed(u.stands.size(), false);
  for (const auto& plan : req.stands) {
    if (plan.stand < 0 || static_cast<std::size_t>(plan.stand) >= u.stands.size())
      throw InputError("stands", fmt::format("unit \"{}\" has no stand {}", u.id, plan.stand));
    if (listed[static_cast<std::size_t>(plan.stand)])
      throw InputError("stands", fmt::format("stand {} is listed twice", plan.stand));
    listed[static_cast<std::size_t>(plan.stand)] = true;
  }
  if (req.kind == MoveKind::Dice && !req.dice_distance)
    throw InputError("dice_distance", "a dice move needs the distance rolled");
  return u;
}

// The unit's pace in its formation (kept_formation), and whether it may move
// at all: a confused unit moves only by dice (warmaster.movement.confused); a
// machine needs its pace in its data.
Pace check_pace(const Unit& u, const MoveRequest& req, Formation formation, MoveAnswer& a) {
  a.formation = formation;
  Pace pace = move_pace(u, req.kind, a.formation, req.dice_distance);
  a.allowance = pace.allowance;
  a.pace = pace.label;
  if (u.confused && req.kind != MoveKind::Dice)
    a.verdict.add(kRuleConfused, fmt::format("unit '{}' is confused and cannot move in the Command phase", u.id));
  if (u.type == TroopType::Machine && u.machine_pace <= 0)
    a.verdict.add(kRulePace, fmt::format("machine '{}' has no pace in its data", u.id));
  return pace;
}

// Everything the stands' footprints cover on their way, start to final.
// (Stands keep their facing on most legs: the rotation is worked out again
// only when it changes.)
Aabb swept_area(const Unit& u, const std::vector<StandRoute>& routes, RotMemo& rot) {
  Aabb area = u.footprint(0, rot).bounds();
  for (const auto& r : routes)
    for (const auto& p : r.poses) area = area.merged(u.footprint_at(p, rot).bounds());
  return area;
}

// The stands whose paths are not traced. Terrain at the destination comes
// first: a stand refused there halts at the edge, and there is no path to
// look for. The table edge is an obstacle in transit, so a stand obliged to
// leave the table is not traced past it (and the move leaves the table).
std::vector<bool> stands_not_traced(const Battlefield& bf, const MoveIndex& index, const Unit& u,
                                    const std::vector<StandRoute>& routes, const std::vector<OrientedRect>& finals,
                                    const Aabb& near, const Settings& settings, bool explain, RotMemo& rot,
                                    MoveAnswer& a) {
  std::vector<bool> skip = check_terrain(terrain_near(bf, index, near), u, routes, settings, explain, rot, a.verdict);
  for (std::size_t i = 0; i < routes.size(); ++i) {
    if (off_table(finals[i], bf)) {
      a.leaves_table = true;
      skip[i] = true;
    }
  }
  return skip;
}

// The unit's formation at the start of the move (classify_formation): the
// one kept from the last check when its stands stood exactly as these do,
// were of the same size and were classified with the same contact
// tolerance, all it reads; otherwise worked out and kept. A unit checked
// again and again, as a drive back halving its distance, is classified once.
Formation kept_formation(MoveScenes& scenes, const Unit& u, const Settings& settings) {
  MoveScenes::Impl& kept = *scenes.impl;
  const bool same = kept.formation_known && kept.formation_width == u.width && kept.formation_depth == u.depth &&
                    kept.formation_tolerance == settings.contact_tolerance &&
                    std::equal(u.stands.begin(), u.stands.end(), kept.formation_poses.begin(),
                               kept.formation_poses.end(), [](const Stand& s, const Pose& p) {
                                 // Bit for bit: the same doubles give the same classification.
                                 return std::memcmp(&s.pose, &p, sizeof(Pose)) == 0;
                               });
  if (!same) {
    kept.formation = classify_formation(u, settings);
    kept.formation_known = true;
    kept.formation_poses.clear();
    for (const Stand& s : u.stands) kept.formation_poses.push_back(s.pose);
    kept.formation_width = u.width;
    kept.formation_depth = u.depth;
    kept.formation_tolerance = settings.contact_tolerance;
  }
  return kept.formation;
}

// The scene the straight lines are traced in: the one kept from the last
// check when it was built on the same battlefield (index), settings, unit
// and options, over a region holding this one; otherwise a new one, kept.
TransitScene& kept_scene(MoveScenes& scenes, const Battlefield& bf, const MoveIndex& index, const Unit& u,
                         const Settings& settings, const TransitOptions& opts) {
  MoveScenes::Impl& kept = *scenes.impl;
  const bool reuse = kept.scene && kept.state == index.serial() && kept.settings == settings && kept.unit == u.id &&
                     kept.flying == opts.flying && kept.evading == opts.evading &&
                     kept.ignore_units == opts.ignore_units && kept.region.min.x <= opts.region->min.x &&
                     kept.region.min.y <= opts.region->min.y && kept.region.max.x >= opts.region->max.x &&
                     kept.region.max.y >= opts.region->max.y;
  if (!reuse) {
    kept.state = index.serial();
    kept.settings = settings;
    kept.unit = u.id;
    kept.flying = opts.flying;
    kept.evading = opts.evading;
    kept.ignore_units = opts.ignore_units;
    kept.region = *opts.region;
    kept.scene.emplace(bf, u, settings, scene_options(opts, scenes), kept.transit());
  }
  return *kept.scene;
}

// How far routes are searched. A verdict must never depend on whether its
// reasons are written. For legality alone the search reads what the
// explaining one reads (the same scene, obstacles, gates and points:
// TransitScene::shortest_route with a read length) but gives only routes no
// longer than the allowance (and the measuring slack twice over, for
// rounding). Those are the routes that can pass: the centre is the mean of
// the corners, so the corner that moves furthest moves at least as far as
// the centre, and a route whose centre goes further fails
// warmaster.movement.distance. A longer one, which explaining finds and then
// refuses, is here no route; either way the move fails. The stand order
// search stops where the explaining one would find only such routes: once
// the stand moving first has no route, a stand that moves later has more
// obstacles. Stands of an engaged unit that have not moved block too, so
// that is not so for them: their routes are searched as far as the
// explaining check searches.
RouteSearch route_search(const Unit& u, const Pace& pace, double max_route, bool explain) {
  RouteSearch search{max_route, max_route, true};
  if (!explain) {
    search.reasons = false;
    if (!u.engaged) search.route = std::min(max_route, pace.allowance + 2 * kMeasureSlack);
  }
  return search;
}

// The search for an order of the stands (and their routes) in which the
// move works: what it works with, and what it chose.
struct OrderSearch {
  const Unit& u;
  const std::vector<StandRoute>& routes;
  const std::vector<bool>& skip;
  const RouteSearch& search;
  const std::vector<int>& moving;
  double allowance = 0;
  bool other_orders = false;  // no order was asked for, and more than one stand moves
  std::vector<std::vector<int>> orders;  // the listed order first; the others only once needed
  OwnFootprints own;
  PathAttempt chosen;      // its routes are left empty when they are the routes as asked (`as_asked`)
  bool as_asked = false;   // the chosen routes are `routes`, nothing planned
  std::vector<int> order;  // the order chosen
  int first_blocked = -1;  // in the listed order, the first stand whose straight legs are blocked
};

// First look for an order in which every straight line is clear (cheap).
// A stand whose straight line is blocked with none of its own unit's stands
// in the way is blocked in every order (stands already moved only add
// obstacles and gates), so then no other order is tried.
bool straight_in_some_order(TransitScene& scene, OrderSearch& s) {
  auto try_order = [&](const std::vector<int>& order) {
    const int blocked = first_blocked_stand(scene, order, s.routes, s.skip, s.own);
    if (blocked >= 0) return blocked;
    s.as_asked = true;
    s.order = order;
    return -1;
  };
  s.first_blocked = try_order(s.orders.front());
  if (s.first_blocked < 0) return true;
  if (!s.other_orders) return false;
  bool blocked_in_every_order = false;
  scene.set_own_blockers({});
  for (std::size_t i = 0; i < s.routes.size() && !blocked_in_every_order; ++i)
    blocked_in_every_order = !s.skip[i] && any_leg_blocked(scene, s.routes[i].poses);
  if (blocked_in_every_order) return false;
  s.orders = candidate_orders(s.moving);  // the listed order first, as tried
  for (std::size_t k = 1; k < s.orders.size(); ++k)
    if (try_order(s.orders[k]) < 0) return true;
  return false;
}

// No order has every straight line clear, and no stand that is traced could
// be planned round what blocks it (each has waypoints; trace_paths plans
// only a single straight leg): what plan_in_some_order would find, without
// tracing every order again. In the listed order the first stand blocked
// has no route, so that attempt fails there, with the routes as asked; no
// other order works, for straight_in_some_order tried each (or found a
// stand blocked in every order), and an order works with planning only if
// its straight lines are clear when nothing can be planned. The reasons
// shown are the listed order's, as plan_in_some_order keeps them.
void no_route_in_any_order(OrderSearch& s) {
  s.as_asked = true;
  s.chosen.violations.push_back(no_route_within_allowance(s.first_blocked));
  s.chosen.failed = s.first_blocked;
  s.order = s.orders.front();
}

// A planned route longer than the allowance fails too (an explaining check
// searches further than the allowance, to say by how much).
bool works(const PathAttempt& t, const Unit& u, double allowance) {
  if (!t.violations.empty()) return false;
  RotMemo memo;
  for (const StandRoute& r : t.routes)
    if (r.planned) {
      auto c = corner_distances(r.poses, u.width, u.depth, memo);
      if (*std::max_element(c.begin(), c.end()) > allowance + kMeasureSlack) return false;
    }
  return true;
}

// No order has every straight line clear: plan routes round what blocks, in
// the first order. Then planned routes in another order: a stand that must
// go round something may need to go before the stands that would close its
// way. Stands already moved only add obstacles and gates, so once the stand
// that moves first has no route, no order has one. The reasons shown stay
// those of the first order when none works.
void plan_in_some_order(TransitScene& planner, OrderSearch& s) {
  s.chosen = trace_paths(planner, s.orders.front(), s.routes, s.skip, s.search, s.own);
  s.order = s.orders.front();
  if (works(s.chosen, s.u, s.allowance) || !s.other_orders || s.chosen.failed == s.orders.front().front()) return;
  if (s.orders.size() == 1) s.orders = candidate_orders(s.moving);
  for (std::size_t k = 1; k < s.orders.size(); ++k) {
    PathAttempt attempt = trace_paths(planner, s.orders[k], s.routes, s.skip, s.search, s.own);
    if (works(attempt, s.u, s.allowance)) {
      s.chosen = std::move(attempt);
      s.order = s.orders[k];
      return;
    }
    if (attempt.failed == s.orders[k].front()) return;
  }
}

}  // namespace

MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req, const Settings& settings,
                      MoveScenes& scenes, CheckDepth depth) {
  if (req.kind == MoveKind::Character)
    return check_character_move(bf, req, settings, depth, scenes.impl->transit(), &index, scenes.whole_battle);
  const Unit& u = requested_unit(bf, req);
  MoveAnswer a;
  const Pace pace = check_pace(u, req, kept_formation(scenes, u, settings), a);
  std::vector<StandRoute> routes = initial_routes(u, req);
  std::vector<int> moving;
  for (const auto& plan : req.stands) moving.push_back(plan.stand);

  RotMemo rot;
  const Aabb area = swept_area(u, routes, rot);
  const double reach = u.frontage() + std::max(u.width, u.depth) + 1.0;
  const bool explain = depth == CheckDepth::Explain;
  // CheckDepth::Whether: once a violation is found the move is refused, and
  // the checks after it only add reasons; Legality names the first the same.
  const bool whether = depth == CheckDepth::Whether;
  auto refused_already = [&] {
    if (!whether || a.verdict.legal()) return false;
    a.verdict.violations.resize(1);
    return true;
  };
  const std::vector<OrientedRect> finals = final_footprints(u, routes, rot);
  const std::vector<bool> skip =
      stands_not_traced(bf, index, u, routes, finals, area.inflated(reach), settings, explain, rot, a);
  if (refused_already()) return a;

  TransitOptions opts;
  opts.flying = u.type == TroopType::Flyer;
  opts.evading = req.kind == MoveKind::Evade;
  if (req.kind == MoveKind::Charge && !req.charge_target.empty()) opts.ignore_units.push_back(req.charge_target);
  // Straight lines need only what is near them (gates span at most the
  // frontage); a planned route may wander up to max_route from its start.
  opts.region = area.inflated(reach);
  opts.index = &index;
  TransitScene& scene = kept_scene(scenes, bf, index, u, settings, opts);
  // Routes are searched up to the allowance plus the stand's longest edge:
  // enough to show by how much a slightly long detour fails, without
  // searching the whole table for hopeless ones.
  const double max_route = std::max(pace.allowance, 1.0) + std::max(u.width, u.depth);
  const RouteSearch search = route_search(u, pace, max_route, explain);
  // The listed order first; the other orders are made only if it fails.
  OrderSearch s{u,      routes, skip, search, moving, pace.allowance, req.order.empty() && moving.size() > 1,
                {req.order.empty() ? moving : req.order}, OwnFootprints(u, finals, rot), {}, false, {}, -1};
  if (!straight_in_some_order(scene, s)) {
    // Only a stand's single straight leg is ever planned round what blocks
    // it (trace_paths); legs given with waypoints are taken as given. When no
    // stand that is traced has a single leg, planning would only trace the
    // same legs again and refuse them as no_route_in_any_order says, without
    // tracing them (a drive back's halving asks a dozen such checks). An
    // explaining check plans in the planner's scene, whose reasons are the
    // ones written.
    bool may_plan = explain;
    for (std::size_t i = 0; i < routes.size() && !may_plan; ++i) may_plan = !skip[i] && routes[i].poses.size() == 2;
    if (!may_plan) {
      no_route_in_any_order(s);
    } else {
      // A route no longer than L from A to B keeps |AP| + |PB| <= L, so it never
      // strays more than L / 2 from the segment AB, which `area` contains.
      opts.region = area.inflated(max_route / 2 + reach);
      TransitScene planner(bf, u, settings, scene_options(opts, scenes), scenes.impl->transit());
      plan_in_some_order(planner, s);
    }
  }
  a.order = std::move(s.order);
  for (auto& r : s.chosen.violations) a.verdict.add(std::move(r));
  if (refused_already()) return a;
  // The routes as asked are not copied: the search is over.
  a.routes = s.as_asked ? std::move(routes) : std::move(s.chosen.routes);
  check_distances(u, pace, a.formation, req.kind, explain, rot, a.verdict, a.routes);
  if (refused_already()) return a;
  check_overlaps(bf, index, u, a.routes, finals, settings, whether, a.verdict);
  if (refused_already()) return a;
  check_end_formation(finals, settings, a.verdict);
  if (refused_already()) return a;
  // A charge lines up edge to edge (docs/rulings.md#warmaster-moving-chargers).
  if (req.kind == MoveKind::Charge) {
    Unit after = u;
    for (const StandPlan& plan : req.stands) after.stands[static_cast<std::size_t>(plan.stand)].pose = plan.final_pose;
    check_charge_alignment(bf, after, req.charge_target, settings, a.verdict, &index);
  }
  refused_already();
  return a;
}

MoveRequest slide_move(const Unit& u, Vec2 shift, MoveKind kind, std::optional<double> dice_distance) {
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  req.dice_distance = dice_distance;
  for (std::size_t i = 0; i < u.stands.size(); ++i) {
    StandPlan p;
    p.stand = static_cast<int>(i);
    p.final_pose = u.stands[i].pose;
    p.final_pose.position += shift;
    req.stands.push_back(p);
  }
  return req;
}

StraightPush push_straight(const Battlefield& bf, const MoveIndex& index, const Unit& u, Vec2 dir, double dist,
                           const Settings& settings, MoveScratch& scratch) {
  // One request for every distance tried (a dozen when cut short): the
  // poses slide_move(u, dir * d, MoveKind::Dice, d) gives, written in place.
  MoveRequest req = slide_move(u, {0, 0}, MoveKind::Dice, 0.0);
  for (StandPlan& p : req.stands) p.waypoints.resize(1);
  auto attempt = [&](double d) {
    const Vec2 shift = dir * d;
    req.dice_distance = d;
    for (StandPlan& p : req.stands) {
      const Pose& from = u.stands[static_cast<std::size_t>(p.stand)].pose;
      p.final_pose = from;
      p.final_pose.position += shift;
      p.waypoints[0] = {(from.position + p.final_pose.position) / 2, from.facing_deg};
    }
    // Only whether it is legal is read, and a refusal's first reason.
    return check_move(bf, index, req, settings, scratch, CheckDepth::Whether);
  };
  StraightPush out;
  out.moved = dist;
  const MoveAnswer full = attempt(dist);
  if (full.leaves_table) {
    out.leaves_table = true;
  } else if (!full.verdict.legal()) {
    double lo = 0, hi = dist;
    while (hi - lo > 0.01) {
      const double mid = (lo + hi) / 2;
      const MoveAnswer a = attempt(mid);
      (a.verdict.legal() && !a.leaves_table ? lo : hi) = mid;
    }
    out.moved = lo;
    out.blocked = true;
    out.why = full.verdict.violations.empty() ? std::string("blocked") : full.verdict.violations.front().reason;
  }
  return out;
}

Battlefield apply_move(const Battlefield& bf, const MoveRequest& req) {
  Battlefield out = bf;
  place_move(out, req);
  return out;
}

void place_move(Battlefield& bf, const MoveRequest& req) {
  if (req.kind == MoveKind::Character) {
    if (Character* c = bf.find_character(req.mover); c && !req.stands.empty()) c->pose = req.stands.front().final_pose;
    return;
  }
  Unit* u = bf.find_unit(req.mover);
  if (!u) throw InputError("unit", fmt::format("no unit \"{}\" on the battlefield", req.mover));
  // Checked before anything moves, so a bad plan leaves `bf` as it was.
  for (const auto& plan : req.stands)
    if (plan.stand < 0 || static_cast<std::size_t>(plan.stand) >= u->stands.size())
      throw InputError("stands", fmt::format("unit \"{}\" has no stand {}", u->id, plan.stand));
  for (const auto& plan : req.stands) u->stands[static_cast<std::size_t>(plan.stand)].pose = plan.final_pose;
}

Unit unit_after(const Unit& u, const MoveRequest& req) {
  Unit out = u;
  for (const StandPlan& plan : req.stands) out.stands[static_cast<std::size_t>(plan.stand)].pose = plan.final_pose;
  return out;
}

}  // namespace referee::warmaster
