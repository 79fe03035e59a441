// The transit model (docs/rulings.md#warmaster-transit-model; header comment of transit.hpp):
// building the scene's obstacles and gates, and checking one leg.
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"
#include "movement/transit_scene.hpp"

namespace referee::warmaster {

namespace {

bool listed(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string at(Vec2 p) { return fmt::format("({:.1f}, {:.1f})", p.x, p.y); }

Vec2 closest_on_boundary(Vec2 p, const Polygon& poly) {
  Vec2 best = p;
  double bd = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0, n = poly.points.size(); i < n; ++i) {
    Vec2 q = closest_point(p, Segment{poly.points[i], poly.points[(i + 1) % n]});
    double d = distance(p, q);
    if (d < bd) { bd = d; best = q; }
  }
  return best;
}

// Distance from a polygon to one table edge (0 left, 1 right, 2 bottom, 3 top),
// with the polygon's nearest vertex.
std::pair<double, Vec2> edge_distance(const Polygon& poly, int edge, double w, double h) {
  double best = std::numeric_limits<double>::infinity();
  Vec2 at{};
  for (Vec2 v : poly.points) {
    double d = edge == 0 ? v.x : edge == 1 ? w - v.x : edge == 2 ? v.y : h - v.y;
    if (d < best) { best = d; at = v; }
  }
  return {best, at};
}

Vec2 edge_foot(Vec2 v, int edge, double w, double h) {
  switch (edge) {
    case 0: return {0, v.y};
    case 1: return {w, v.y};
    case 2: return {v.x, 0};
    default: return {v.x, h};
  }
}

// Clearance of the centre path from a table edge: linear along a segment,
// so the smaller end decides.
double edge_clearance(Vec2 p, int edge, double w, double h) {
  return edge == 0 ? p.x : edge == 1 ? w - p.x : edge == 2 ? p.y : h - p.y;
}

}  // namespace

// --- Building the scene ------------------------------------------------------

namespace {
// The outline counter-clockwise, as to_polygon / ccw would give it, written
// into reused storage.
void set_outline(Polygon& poly, std::span<const Vec2> points, PointStore& store) {
  poly.points = store.take();
  poly.points.assign(points.begin(), points.end());
  if (poly.signed_area() < 0) std::reverse(poly.points.begin(), poly.points.end());
}
// A stand's outline and bounds from its footprint: what set_outline and
// TransitObstacle::finish give for its corners, bit for bit, without the
// general loops (a scene makes dozens). The corners come clockwise
// (front-left, front-right, rear-right, rear-left), so the outline lists
// them backwards; a footprint with no area keeps the general path.
void set_stand_outline(TransitObstacle& o, const OrientedRect& rect, PointStore& store) {
  o.rect = rect;
  const std::array<Vec2, 4> c = rect.corners();
  if (!(rect.half.x > 0 && rect.half.y > 0)) {
    set_outline(o.poly, c, store);
    o.finish();
    return;
  }
  o.poly.points = store.take();
  o.poly.points.assign({c[3], c[2], c[1], c[0]});
  Aabb box{c[3], c[3]};
  for (const Vec2& p : o.poly.points) {
    box.min.x = std::min(box.min.x, p.x);
    box.min.y = std::min(box.min.y, p.y);
    box.max.x = std::max(box.max.x, p.x);
    box.max.y = std::max(box.max.y, p.y);
  }
  o.box = box;
  o.centre = (box.min + box.max) / 2;
  double r2 = 0;
  for (const Vec2& p : o.poly.points) r2 = std::max(r2, length_squared(p - o.centre));
  o.radius = std::sqrt(r2);
}
// Drops obstacles from `from` on, keeping their point storage.
void drop_obstacles(std::vector<TransitObstacle>& obstacles, std::size_t from, PointStore& store) {
  for (std::size_t k = from; k < obstacles.size(); ++k) store.give(std::move(obstacles[k].poly.points));
  obstacles.resize(from);
}
}  // namespace

TransitScratch::TransitScratch() : impl_(std::make_unique<Impl>()) {}
TransitScratch::~TransitScratch() = default;
TransitScratch::TransitScratch(TransitScratch&&) noexcept = default;
TransitScratch& TransitScratch::operator=(TransitScratch&&) noexcept = default;

TransitScene::Impl::~Impl() {
  drop_obstacles(obstacles, 0, scratch->points);
  if (own_scratch || scratch->spare_scenes.size() >= 4) return;
  gates.clear();
  gates_regions.clear();
  scratch->spare_scenes.push_back(
      {std::move(obstacles), std::move(grid), std::move(gates), std::move(gates_done), std::move(gates_regions)});
}

void TransitScene::Impl::take_storage() {
  if (scratch->spare_scenes.empty()) return;
  SceneStorage& s = scratch->spare_scenes.back();
  obstacles = std::move(s.obstacles);
  grid = std::move(s.grid);
  gates = std::move(s.gates);
  gates_done = std::move(s.gates_done);
  gates_regions = std::move(s.gates_regions);
  scratch->spare_scenes.pop_back();
}

void TransitScene::Impl::add_fixed(const Battlefield& bf) {
  table_w = bf.width;
  table_h = bf.height;
  const std::optional<Aabb>& region = options.region;
  // The units to visit: with an index, those whose box meets the region
  // inflated by the largest stand's half-diagonal (and a hair for rounding),
  // ascending, which holds every unit near_region accepts; otherwise all.
  std::vector<int>& candidates = scratch->lists.units;
  candidates.clear();
  const bool indexed = region && options.index;
  if (indexed) options.index->units_near(region->inflated(options.index->max_stand_radius() + 1e-6), candidates);
  const std::size_t visits = indexed ? candidates.size() : bf.units.size();
  auto unit_at = [&](std::size_t k) -> const Unit& {
    return bf.units[indexed ? static_cast<std::size_t>(candidates[k]) : k];
  };
  // Terrain likewise: with an index, the features whose bounds meet the region.
  std::vector<int>& near_features = scratch->lists.features;
  near_features.clear();
  if (indexed) options.index->terrain_near(*region, near_features);
  const std::size_t feature_visits = indexed ? near_features.size() : bf.terrain.size();
  std::size_t total = 0;
  for (std::size_t k = 0; k < visits; ++k) total += unit_at(k).stands.size();
  for (std::size_t n = 0; n < feature_visits; ++n)
    total += bf.terrain[indexed ? static_cast<std::size_t>(near_features[n]) : n].pieces.size();
  obstacles.reserve(total + 8);
  auto near_region = [&](const Unit& u) {
    if (!region) return true;
    const Aabb reach = region->inflated(stand_circumradius(u));
    for (const Stand& s : u.stands)
      if (reach.contains(s.pose.position)) return true;
    return false;
  };
  RotMemo rot;  // a unit's stands nearly always share a facing
  for (std::size_t k = 0; k < visits; ++k) {
    const Unit& u = unit_at(k);
    // The region first: it is cheap, and rules out most units.
    if (!near_region(u) || u.id == mover_id || listed(options.ignore_units, u.id)) continue;
    bool enemy = u.side != side;
    if (character && !enemy) continue;  // characters pass through their own side
    if (options.flying && options.fly_over_stands) continue;
    bool burst = options.evading && !enemy && !u.engaged && listed(options.burst_through, u.id);
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      if (burst) {
        burst_rects.push_back(u.footprint(s, rot));
        burst_labels.push_back(u.id + " stand " + std::to_string(s + 1));
        continue;
      }
      TransitObstacle& o = obstacles.emplace_back();  // in place: the obstacle is large to move
      o.kind = TransitObstacle::Kind::Stand;
      set_stand_outline(o, u.footprint(s, rot), scratch->points);
      o.stand = static_cast<int>(s);
      o.unit_id = u.id;
      o.enemy = enemy;
    }
    if (burst) burst_units.push_back(u.id);
  }
  if (!options.flying) {
    for (std::size_t n = 0; n < feature_visits; ++n) {
      const std::size_t f = indexed ? static_cast<std::size_t>(near_features[n]) : n;
      const TerrainFeature& tf = bf.terrain[f];
      if (region && !region->overlaps(tf.bounds)) continue;
      for (const Polygon& piece : tf.pieces) {
        if (piece.points.size() < 3) continue;
        TransitObstacle& o = obstacles.emplace_back();
        o.kind = TransitObstacle::Kind::Terrain;
        set_outline(o.poly, piece.points, scratch->points);
        o.finish();
        o.name = tf.id;
        o.blocks = !may_enter(type, tf.kind, settings);
        o.feature = static_cast<int>(f);
        o.terrain = tf.kind;
      }
    }
  }
  fixed_count = obstacles.size();
  fixed_extent = fixed_count ? obstacles[0].box : Aabb{};
  for (std::size_t i = 1; i < fixed_count; ++i) fixed_extent = fixed_extent.merged(obstacles[i].box);
}

std::string TransitObstacle::label() const {
  if (kind == Kind::OwnStand) return unit_id + " stand (already moved or engaged) at " + at(rect->center);
  return stand >= 0 ? unit_id + " stand " + std::to_string(stand + 1) : name;
}

void TransitObstacle::finish() {
  box = poly.bounds();
  centre = (box.min + box.max) / 2;
  radius = 0;
  for (Vec2 p : poly.points) radius = std::max(radius, length_squared(p - centre));
  radius = std::sqrt(radius);
}

void TransitScene::Impl::build_index() {
  // About 15 cm cells, over what the scene holds: a scene near one move
  // lays out a few cells, whatever the table. Coarser for a scene of a
  // huge table's whole battle, so the index stays small.
  const Aabb world = fixed_extent.inflated(1);
  const double extent = std::max(world.max.x - world.min.x, world.max.y - world.min.y);
  grid.reset(world, std::max(15.0, extent / 64));
  for (std::size_t i = 0; i < fixed_count; ++i) grid.insert(static_cast<int>(i), obstacles[i].box);
  grid.lay_out();
  gates.clear();
  gates_done.assign(fixed_count, 0);
  gates_regions.clear();
}

// Two outlines whose nearest edges are parallel face each other along a
// stretch, not at a point: the closest points found are one end of it. A gate
// at each end of the stretch closes the whole gap between them (with the two
// edges, a box the disc cannot enter without crossing a gate), not one end
// of it (docs/rulings.md#warmaster-transit-enemy-gaps).
template <typename Add>
void parallel_gates(const Polygon& a, const Polygon& b, double dist, double tol, Add add) {
  const auto& pa = a.points;
  const auto& pb = b.points;
  for (std::size_t i = 0, n = pa.size(); i < n; ++i) {
    const Vec2 a0 = pa[i], a1 = pa[(i + 1) % n];
    const double len = distance(a0, a1);
    if (len <= tol) continue;
    const Vec2 u = (a1 - a0) / len;
    for (std::size_t j = 0, m = pb.size(); j < m; ++j) {
      const Vec2 b0 = pb[j], b1 = pb[(j + 1) % m];
      const double lb = distance(b0, b1);
      if (lb <= tol || std::abs(cross(u, (b1 - b0) / lb)) > 1e-6) continue;
      const double off = cross(u, b0 - a0);  // signed distance of b's line from a's
      if (std::abs(std::abs(off) - dist) > tol) continue;
      const double t0 = std::max(0.0, std::min(dot(b0 - a0, u), dot(b1 - a0, u)));
      const double t1 = std::min(len, std::max(dot(b0 - a0, u), dot(b1 - a0, u)));
      if (t1 - t0 <= tol) continue;
      const Vec2 normal{-u.y, u.x};
      for (double t : {t0, t1}) {
        const Vec2 p = a0 + u * t;
        add(Segment{p, p + normal * off});
      }
    }
  }
}

// Gates between enemy stands and own stands already moved: remade for the
// own blockers from `first` on whenever they change; the fixed gates, and
// those of own blockers kept, stay cached.
void TransitScene::Impl::own_gates(std::size_t first) {
  const int from = static_cast<int>(first);
  gates.erase(std::remove_if(gates.begin(), gates.end(), [&](const TransitGateData& g) { return g.b >= from; }),
              gates.end());
  std::vector<int>& near = scratch->lists.own_near;
  for (std::size_t k = first; k < obstacles.size(); ++k) {
    const TransitObstacle& o = obstacles[k];
    near.clear();
    grid.query(o.box.inflated(frontage + tol), near);
    for (int i : near) {
      const TransitObstacle& e = obstacles[i];
      if (e.kind != TransitObstacle::Kind::Stand || !e.enemy) continue;
      if (distance(e.centre, o.centre) > e.radius + o.radius + frontage + tol) continue;
      ClosestPoints cp = referee::closest_points(*e.rect, *o.rect);
      if (cp.distance <= tol || cp.distance > frontage + tol) continue;
      gates.push_back({Segment{cp.on_a, cp.on_b}, i, static_cast<int>(k), cp.distance});
      parallel_gates(e.poly, o.poly, cp.distance, tol, [&](const Segment& g) {
        gates.push_back({g, i, static_cast<int>(k), cp.distance});
      });
    }
  }
}

// Gates: each enemy stand E against every obstacle within the frontage F, and
// against the table edge (transit.hpp, "Gates"). A gate lies within F of its
// enemy stand, so the gates meeting `region` come from enemy stands within F
// of it. A pair of enemy stands gives one gate, made by whichever is done first.
// A region inside one already done has nothing new: every enemy stand near
// it is near the larger one. Legs and route searches ask again and again
// about the same few places, so the last few regions are remembered.
void TransitScene::Impl::ensure_gates(const Aabb& region) {
  for (const Aabb& done : gates_regions)
    if (done.contains(region.min) && done.contains(region.max)) return;
  if (gates_regions.size() < 8) gates_regions.push_back(region);
  else gates_regions[gates_regions.size() - 1] = region;
  std::vector<int>& enemies = scratch->lists.gate_enemies;
  std::vector<int>& near = scratch->lists.gate_near;
  enemies.clear();
  grid.query(region.inflated(frontage + tol), enemies);
  for (int i : enemies) {
    const TransitObstacle& e = obstacles[i];
    if (gates_done[i] || e.kind != TransitObstacle::Kind::Stand || !e.enemy) continue;
    gates_done[i] = 1;
    near.clear();
    grid.query(e.box.inflated(frontage + tol), near);
    for (int j : near) {
      if (j == i) continue;
      const TransitObstacle& o = obstacles[j];
      if (gates_done[j] && o.kind == TransitObstacle::Kind::Stand && o.enemy) continue;  // pair already made
      if (distance(e.centre, o.centre) > e.radius + o.radius + frontage + tol) continue;
      ClosestPoints cp = (e.rect && o.rect) ? referee::closest_points(*e.rect, *o.rect) : closest_points(e.poly, o.poly);
      if (cp.distance <= tol || cp.distance > frontage + tol) continue;
      gates.push_back({Segment{cp.on_a, cp.on_b}, i, j, cp.distance});
      parallel_gates(e.poly, o.poly, cp.distance, tol, [&](const Segment& g) { gates.push_back({g, i, j, cp.distance}); });
    }
    for (int edge = 0; edge < 4; ++edge) {
      auto [d, v] = edge_distance(e.poly, edge, table_w, table_h);
      if (d <= tol || d > frontage + tol) continue;
      gates.push_back({Segment{v, edge_foot(v, edge, table_w, table_h)}, i, -1, d});
      // A stand edge parallel to the table edge: a gate at each of its ends.
      for (Vec2 w : e.poly.points) {
        const double dw = edge == 0 ? w.x : edge == 1 ? table_w - w.x : edge == 2 ? w.y : table_h - w.y;
        if (w != v && dw <= d + tol) gates.push_back({Segment{w, edge_foot(w, edge, table_w, table_h)}, i, -1, d});
      }
    }
  }
}

namespace {
bool sweep_hits(const TransitScene::Impl& m, const TransitObstacle& o, const Segment& seg, double* dmin_out) {
  if (distance(o.centre, seg) >= o.radius + m.r) return false;
  if (!o.within(seg, m.r - m.tol)) return false;  // the planner's test too
  double dmin = fast_distance(seg, o.poly);
  if (dmin_out) *dmin_out = dmin;
  // A stand that starts too close (an illegal start) may still move away:
  // only going deeper counts.
  double d0 = fast_distance(seg.a, o.poly);
  if (d0 < m.r - m.tol && dmin >= d0 - m.tol) return false;
  return true;
}
}  // namespace

bool TransitScene::Impl::segment_clear(Vec2 a, Vec2 b, std::vector<int>& scratch) {
  for (Vec2 p : {a, b})
    if (p.x < r - tol || p.y < r - tol || p.x > table_w - r + tol || p.y > table_h - r + tol) return false;
  Segment seg{a, b};
  Aabb box = seg.bounds();
  ensure_gates(box);
  for (const TransitGateData& g : gates)
    if (g.box.overlaps(box) && passes_gate(seg, g.line, tol)) return false;
  scratch.clear();
  query(box.inflated(r), scratch);
  for (int k : scratch) {
    const TransitObstacle& o = obstacles[k];
    if (o.blocks && sweep_hits(*this, o, seg, nullptr)) return false;
  }
  return true;
}

bool TransitScene::Impl::point_clear(Vec2 p, std::vector<int>& scratch) const {
  if (p.x < r - tol || p.y < r - tol || p.x > table_w - r + tol || p.y > table_h - r + tol) return false;
  scratch.clear();
  query(Aabb{p, p}.inflated(r), scratch);
  for (int k : scratch)
    if (obstacles[k].blocks && fast_distance(p, obstacles[k].poly) < r - tol) return false;
  return true;
}

namespace {
void use_scratch(TransitScene::Impl& m, TransitScratch* scratch) {
  if (!scratch) {
    m.own_scratch = std::make_unique<TransitScratch>();
    scratch = m.own_scratch.get();
  }
  m.scratch = &scratch->impl();
  m.take_storage();
}
}  // namespace

TransitScene::TransitScene(const Battlefield& bf, const Unit& mover, const Settings& settings, TransitOptions options,
                           TransitScratch* scratch)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  use_scratch(m, scratch);
  m.settings = settings;
  m.mover_id = mover.id;
  m.side = mover.side;
  m.character = options.character;
  m.type = options.character ? TroopType::Infantry : mover.type;
  if (mover.type == TroopType::Flyer) options.flying = true;
  m.options = std::move(options);
  m.width = mover.width;
  m.depth = mover.depth;
  m.set_disc(mover.shortest_edge() / 2, settings.contact_tolerance);
  m.frontage = mover.frontage();
  m.add_fixed(bf);
  m.build_index();
}

TransitScene::TransitScene(const Battlefield& bf, const Character& mover, const Settings& settings,
                           TransitOptions options, TransitScratch* scratch)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  use_scratch(m, scratch);
  m.settings = settings;
  m.mover_id = mover.id;
  m.side = mover.side;
  m.character = true;
  m.type = TroopType::Infantry;
  options.character = true;
  if (mover.flying) options.flying = true;
  m.options = std::move(options);
  if (mover.stand_size) {
    m.width = mover.stand_size->x;
    m.depth = mover.stand_size->y;
  } else {
    m.width = m.depth = mover.base_diameter;
  }
  m.set_disc(std::min(m.width, m.depth) / 2, settings.contact_tolerance);
  m.frontage = m.width;
  m.add_fixed(bf);
  m.build_index();
}

TransitScene::~TransitScene() = default;
TransitScene::TransitScene(TransitScene&&) noexcept = default;
TransitScene& TransitScene::operator=(TransitScene&&) noexcept = default;

// Stands are traced one after another, each adding the one before it to the
// blockers, so the leading blockers that have not changed are kept (with
// their gates) and only the rest are made again.
void TransitScene::set_own_blockers(const std::vector<OrientedRect>& rects) {
  Impl& m = *impl_;
  std::size_t keep = 0;
  while (keep < rects.size() && m.fixed_count + keep < m.obstacles.size() &&
         *m.obstacles[m.fixed_count + keep].rect == rects[keep])
    ++keep;
  drop_obstacles(m.obstacles, m.fixed_count + keep, m.scratch->points);
  for (std::size_t i = keep; i < rects.size(); ++i) {
    TransitObstacle& o = m.obstacles.emplace_back();
    o.kind = TransitObstacle::Kind::OwnStand;
    set_stand_outline(o, rects[i], m.scratch->points);
    o.unit_id = m.mover_id;
  }
  m.own_gates(m.fixed_count + keep);
}

double TransitScene::clearance() const { return impl_->r; }

bool TransitScene::is_clear(Vec2 p) const {
  return impl_->point_clear(p, impl_->scratch->lists.point);
}

std::vector<TransitScene::Gate> TransitScene::gates() {
  std::vector<Gate> out;
  impl_->ensure_gates(Aabb{{0, 0}, {impl_->table_w, impl_->table_h}}.inflated(10));
  for (const auto& g : impl_->gates)
    out.push_back({g.line, impl_->obstacles[g.a].label(), impl_->gap_partner_label(g.b), g.width});
  return out;
}

// --- Checking a leg -----------------------------------------------------------
// 1. Crossing a gate: warmaster.movement.gap (enemy gap not wider than the frontage).
// 2. The disc sweeping into an obstacle. When another obstacle (or the table
//    edge) the sweep also touches lies closer than the shortest edge to it,
//    and the centre line runs between them rather than into either, the leg
//    tried a gap too narrow: warmaster.movement.gap. Otherwise it runs into
//    the obstacle: warmaster.movement.terrain for terrain it may not enter,
//    warmaster.movement.path for a stand.
namespace {

// The rulings of one leg as they are written. A gap is reported once: it
// may have a gate at each end, and the sweep may meet its sides again.
struct LegReport {
  const TransitScene::Impl& m;
  const std::string& stand_label;
  double passable = 0;  // the narrowest gap the disc passes
  std::vector<Ruling> out;
  std::vector<std::pair<int, int>> reported;  // gap pairs, b = -1 for the table edge

  bool was_reported(int k) const {
    for (auto [x, y] : reported)
      if (x == k || y == k) return true;
    return false;
  }
  // warmaster.movement.gap between obstacle k and j (-1: the table edge): a
  // gap beside an enemy stand must be wider than the frontage, any other at
  // least as wide as the disc.
  void gap(int k, int j, double width, Vec2 where) {
    bool enemy = m.obstacles[k].enemy || (j >= 0 && m.obstacles[j].enemy);
    std::string who = m.obstacles[k].label() + " and " + m.gap_partner_label(j);
    Ruling r;
    r.rule = warmaster::rule_id::movement_gap;
    if (enemy) {
      r.reason = fmt::format("{}: gap between {} is {}, not wider than the {} frontage (a gap beside an enemy stand "
                             "must be wider than the stand's frontage), at {}",
                             stand_label, who, format_compared(width, m.frontage, "cm").value,
                             format_compared(width, m.frontage, "cm").limit, at(where));
      r.figures = {{"gap", width, "cm"}, {"required_more_than", m.frontage, "cm"}};
    } else {
      r.reason = fmt::format("{}: gap between {} is {}, narrower than the {} shortest edge (the {} it needs, touching "
                             "within the {} contact tolerance on each side), at {}",
                             stand_label, who, format_compared(width, passable, "cm").value,
                             format_measure(2 * m.half_edge, "cm"), format_compared(width, passable, "cm").limit,
                             format_measure(m.settings.contact_tolerance * 10, "mm"), at(where));
      r.figures = {{"gap", width, "cm"}, {"required_at_least", passable, "cm"}, {"shortest_edge", 2 * m.half_edge, "cm"}};
    }
    out.push_back(std::move(r));
    reported.push_back({k, j});
  }
};

// 1. The gates the leg crosses, in order along it: each a closed enemy gap.
// The scene's gates near `box` must be found already (ensure_gates).
void report_gates(LegReport& report, const Segment& seg, const Aabb& box) {
  const TransitScene::Impl& m = report.m;
  struct Crossing {
    double t;
    std::size_t g;
  };
  std::vector<Crossing> crossings;
  for (std::size_t g = 0; g < m.gates.size(); ++g) {
    const TransitGateData& gate = m.gates[g];
    if (!gate.box.overlaps(box) || !passes_gate(seg, gate.line, m.tol)) continue;
    crossings.push_back({segment_intersection(seg, gate.line).value_or(0), g});
  }
  std::sort(crossings.begin(), crossings.end(), [](const Crossing& x, const Crossing& y) { return x.t < y.t; });
  for (const Crossing& c : crossings) {
    const TransitGateData& gate = m.gates[c.g];
    // One gap may have a gate at each end: it is reported once.
    if (std::find(report.reported.begin(), report.reported.end(), std::pair<int, int>{gate.a, gate.b}) !=
        report.reported.end())
      continue;
    report.gap(gate.a, gate.b, gate.width, seg.a + (seg.b - seg.a) * c.t);
  }
}

struct SweepHit {
  int k;        // obstacle index
  double t;     // where along the leg the disc first touches it
  double dmin;  // how near the centre line comes (<= 0: it enters)
};

// 2. The blocking obstacles the disc sweeps into, in order along the leg
// (ties by obstacle index).
std::vector<SweepHit> swept_obstacles(const TransitScene::Impl& m, const Segment& seg, const Aabb& box) {
  std::vector<SweepHit> hits;
  std::vector<int> cand;
  m.query(box.inflated(m.r), cand);
  for (int k : cand) {
    const TransitObstacle& o = m.obstacles[k];
    if (!o.blocks) continue;
    double dmin = 0;
    if (!sweep_hits(m, o, seg, &dmin)) continue;
    double t = first_contact(seg, m.r, o.poly).value_or(0.0);
    hits.push_back({k, t, dmin});
  }
  std::sort(hits.begin(), hits.end(),
            [](const SweepHit& x, const SweepHit& y) { return x.t < y.t || (x.t == y.t && x.k < y.k); });
  return hits;
}

// What a hit obstacle makes a narrow gap with, when the centre line runs
// between them rather than into either: another obstacle the sweep also
// touches (not of the same feature), or else a table edge the leg comes
// near, closer to it than the disc passes. partner -2: none, the leg runs
// into the obstacle; -1: the table edge.
struct GapPartner {
  int partner = -2;
  double width = 0;
  Vec2 where{};
};
GapPartner narrow_gap_partner(const TransitScene::Impl& m, const std::vector<SweepHit>& hits, const SweepHit& h,
                              const Segment& seg, double passable) {
  GapPartner gp;
  const TransitObstacle& o = m.obstacles[h.k];
  auto same_feature = [&](int k, int j) {
    return m.obstacles[k].feature >= 0 && m.obstacles[k].feature == m.obstacles[j].feature;
  };
  for (const SweepHit& o2 : hits) {
    if (o2.k == h.k || o2.dmin <= 0 || same_feature(h.k, o2.k)) continue;
    ClosestPoints cp = closest_points(o.poly, m.obstacles[o2.k].poly);
    if (cp.distance > m.tol && cp.distance < passable - m.tol && (gp.partner == -2 || cp.distance < gp.width)) {
      gp.partner = o2.k;
      gp.width = cp.distance;
      gp.where = (cp.on_a + cp.on_b) / 2;
    }
  }
  for (int edge = 0; edge < 4 && gp.partner == -2; ++edge) {
    double clear = std::min(edge_clearance(seg.a, edge, m.table_w, m.table_h),
                            edge_clearance(seg.b, edge, m.table_w, m.table_h));
    if (clear >= m.r - m.tol) continue;
    auto [d, v] = edge_distance(o.poly, edge, m.table_w, m.table_h);
    if (d > m.tol && d < passable - m.tol) {
      gp.partner = -1;
      gp.width = d;
      gp.where = (v + edge_foot(v, edge, m.table_w, m.table_h)) / 2;
    }
  }
  return gp;
}

// The leg runs into obstacle h.k: warmaster.movement.terrain for terrain it
// may not enter (it halts at the edge), warmaster.movement.path for a stand.
Ruling run_into(const TransitScene::Impl& m, const SweepHit& h, const Segment& seg, const std::string& stand_label) {
  const TransitObstacle& o = m.obstacles[h.k];
  const double leg = distance(seg.a, seg.b);
  Vec2 centre = seg.a + (seg.b - seg.a) * h.t;
  Vec2 contact = closest_on_boundary(centre, o.poly);
  double along = h.t * leg;
  Ruling r;
  if (o.kind == TransitObstacle::Kind::Terrain) {
    r.rule = warmaster::rule_id::movement_terrain;
    std::string who = m.character ? std::string("a character (as infantry)") : std::string(to_string(m.type));
    r.reason = fmt::format("{}: {} may not enter {} ({}); it would halt at its edge at {}, {} along the {} leg",
                           stand_label, who, o.label(), to_string(o.terrain), at(centre), format_measure(along, "cm"),
                           format_measure(leg, "cm"));
    r.figures = {{"halt_at", along, "cm"}, {"leg", leg, "cm"}};
  } else {
    r.rule = warmaster::rule_id::movement_path;
    std::string what = o.kind == TransitObstacle::Kind::OwnStand ? "own" : (o.enemy ? "enemy" : "friendly");
    r.reason = fmt::format(
        "{}: blocked by {} {} at {}, {} along the {} leg (its centre passes {} from it; a stand in transit needs "
        "{}, half its {} shortest edge less the {} contact tolerance)",
        stand_label, what, o.label(), at(contact), format_measure(along, "cm"), format_measure(leg, "cm"),
        format_compared(std::max(0.0, h.dmin), m.r, "cm").value, format_compared(std::max(0.0, h.dmin), m.r, "cm").limit,
        format_measure(2 * m.half_edge, "cm"), format_measure(m.settings.contact_tolerance * 10, "mm"));
    r.figures = {{"blocked_at", along, "cm"}, {"clearance", std::max(0.0, h.dmin), "cm"}, {"needed", m.r, "cm"}};
  }
  return r;
}

// 2. Each obstacle the disc sweeps into, once: a narrow gap when the centre
// line runs between it and a partner, else the leg runs into it.
void report_sweep(LegReport& report, const Segment& seg, const Aabb& box) {
  const TransitScene::Impl& m = report.m;
  const std::vector<SweepHit> hits = swept_obstacles(m, seg, box);
  std::vector<int> done;
  for (const SweepHit& h : hits) {
    if (report.was_reported(h.k) || std::find(done.begin(), done.end(), h.k) != done.end()) continue;
    bool through = h.dmin <= 0;  // the centre line itself enters the obstacle
    if (!through) {
      const GapPartner gp = narrow_gap_partner(m, hits, h, seg, report.passable);
      if (gp.partner != -2) {
        report.gap(h.k, gp.partner, gp.width, gp.where);
        if (gp.partner >= 0) done.push_back(gp.partner);
        continue;
      }
    }
    done.push_back(h.k);
    report.out.push_back(run_into(m, h, seg, report.stand_label));
  }
}

// 3. Bursting through: an evader may not stop inside the unit it bursts through.
void report_burst_through(const TransitScene::Impl& m, const Pose& to, const std::string& stand_label,
                          std::vector<Ruling>& out) {
  if (m.burst_rects.empty()) return;
  OrientedRect end = OrientedRect::from_pose(to, m.width, m.depth);
  for (std::size_t i = 0; i < m.burst_rects.size(); ++i) {
    if (!overlaps(end, m.burst_rects[i], m.tol)) continue;
    out.push_back({warmaster::rule_id::movement_burst_through,
                   fmt::format("{}: ends on {}, which it bursts through; an evader must pass completely through "
                               "(ends at {})",
                               stand_label, m.burst_labels[i], at(to.position)),
                   {}});
  }
}

}  // namespace

std::vector<Ruling> TransitScene::check_leg(const Pose& from, const Pose& to, const std::string& stand_label) {
  Impl& m = *impl_;
  const Segment seg{from.position, to.position};
  const Aabb box = seg.bounds();
  m.ensure_gates(box);
  LegReport report{m, stand_label, 2 * m.r, {}, {}};
  report_gates(report, seg, box);
  report_sweep(report, seg, box);
  report_burst_through(m, to, stand_label, report.out);
  return std::move(report.out);
}

// The same decisions as check_leg: it reports something exactly when a gate
// is crossed, the disc sweeps into an obstacle (the first such hit always
// gives a ruling) or an evader ends on a unit it bursts through.
bool TransitScene::leg_clear(const Pose& from, const Pose& to) {
  Impl& m = *impl_;
  Segment seg{from.position, to.position};
  Aabb box = seg.bounds();
  m.ensure_gates(box);
  for (const TransitGateData& gate : m.gates)
    if (gate.box.overlaps(box) && passes_gate(seg, gate.line, m.tol)) return false;
  std::vector<int>& cand = m.scratch->lists.leg;
  cand.clear();
  m.query(box.inflated(m.r), cand);
  for (int k : cand) {
    const TransitObstacle& o = m.obstacles[k];
    double dmin = 0;
    if (o.blocks && sweep_hits(m, o, seg, &dmin)) return false;
  }
  if (!m.burst_rects.empty()) {
    OrientedRect end = OrientedRect::from_pose(to, m.width, m.depth);
    for (const OrientedRect& b : m.burst_rects)
      if (overlaps(end, b, m.tol)) return false;
  }
  return true;
}

// --- Measuring (docs/rulings.md#warmaster-move-distance) ----------------------

std::array<double, 4> corner_distances(const std::vector<Pose>& poses, double width, double depth) {
  RotMemo rot;
  return corner_distances(poses, width, depth, rot);
}

std::array<double, 4> corner_distances(const std::vector<Pose>& poses, double width, double depth, RotMemo& rot) {
  std::array<double, 4> total{0, 0, 0, 0};
  for (std::size_t i = 1; i < poses.size(); ++i) {
    auto c0 = OrientedRect::from_pose(poses[i - 1], width, depth, rot).corners();
    auto c1 = OrientedRect::from_pose(poses[i], width, depth, rot).corners();
    for (int k = 0; k < 4; ++k) total[k] += distance(c0[k], c1[k]);
  }
  return total;
}

double route_distance(const std::vector<Pose>& poses, double width, double depth) {
  auto c = corner_distances(poses, width, depth);
  return *std::max_element(c.begin(), c.end());
}

}  // namespace referee::warmaster
