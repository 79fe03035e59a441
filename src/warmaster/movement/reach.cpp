// Reach: a grid Dijkstra over the transit disc's clearance space, and
// marching squares for its boundary. The method is described in reach.hpp.
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/core/errors.hpp"
#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/transit_scene.hpp"

namespace referee::warmaster {

const char* to_string(ReachKind k) {
  switch (k) {
    case ReachKind::Ordered: return "ordered";
    case ReachKind::HalfPace: return "half_pace";
    case ReachKind::Charge: return "charge";
    case ReachKind::Evade: return "evade";
    case ReachKind::Character: return "character";
  }
  return "ordered";
}

std::optional<ReachKind> reach_kind_from_string(const std::string& s) {
  for (ReachKind k : {ReachKind::Ordered, ReachKind::HalfPace, ReachKind::Charge, ReachKind::Evade,
                      ReachKind::Character})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The grid: samples at origin + (i, j) * h, with a one-sample border that is
// always blocked so every contour closes.
struct Grid {
  Vec2 origin;
  double h = 0.5;
  int nx = 0, ny = 0;
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(j) * nx + i; }
  Vec2 point(int i, int j) const { return origin + Vec2{i * h, j * h}; }
  std::size_t cells() const { return static_cast<std::size_t>(nx) * ny; }
  Aabb box() const { return Aabb{origin, point(nx - 1, ny - 1)}; }
  // The samples inside `b`, the border left out.
  void cell_range(const Aabb& b, int& i0, int& i1, int& j0, int& j1) const {
    i0 = std::max(2, static_cast<int>(std::ceil((b.min.x - origin.x) / h)));
    i1 = std::min(nx - 3, static_cast<int>(std::floor((b.max.x - origin.x) / h)));
    j0 = std::max(2, static_cast<int>(std::ceil((b.min.y - origin.y) / h)));
    j1 = std::min(ny - 3, static_cast<int>(std::floor((b.max.y - origin.y) / h)));
  }
};

// Marching squares on f (>= 0 inside), rings with the inside on their left.
std::vector<Polygon> contours(const Grid& g, const std::vector<double>& f) {
  auto edge_h = [&](int i, int j) { return 2 * static_cast<int>(g.at(i, j)); };      // (i,j)-(i+1,j)
  auto edge_v = [&](int i, int j) { return 2 * static_cast<int>(g.at(i, j)) + 1; };  // (i,j)-(i,j+1)
  auto edge_point = [&](int id) {
    int cell = id / 2;
    int i = cell % g.nx, j = cell / g.nx;
    int i2 = (id % 2 == 0) ? i + 1 : i, j2 = (id % 2 == 0) ? j : j + 1;
    double f0 = f[g.at(i, j)], f1 = f[g.at(i2, j2)];
    double t = f0 / (f0 - f1);
    return g.point(i, j) + (g.point(i2, j2) - g.point(i, j)) * t;
  };
  std::vector<int> next(static_cast<std::size_t>(2 * g.nx * g.ny), -1);
  std::vector<int> starts;
  auto seg = [&](int from, int to) {
    next[static_cast<std::size_t>(from)] = to;
    starts.push_back(from);
  };
  // Only the cells round the inside samples can hold the contour.
  int i_lo = g.nx, i_hi = -1, j_lo = g.ny, j_hi = -1;
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i)
      if (f[g.at(i, j)] >= 0) {
        i_lo = std::min(i_lo, i);
        i_hi = std::max(i_hi, i);
        j_lo = std::min(j_lo, j);
        j_hi = std::max(j_hi, j);
      }
  for (int j = std::max(0, j_lo - 1); j <= std::min(g.ny - 2, j_hi); ++j)
    for (int i = std::max(0, i_lo - 1); i <= std::min(g.nx - 2, i_hi); ++i) {
      double bl = f[g.at(i, j)], br = f[g.at(i + 1, j)], tr = f[g.at(i + 1, j + 1)], tl = f[g.at(i, j + 1)];
      int c = (bl >= 0) | ((br >= 0) << 1) | ((tr >= 0) << 2) | ((tl >= 0) << 3);
      int B = edge_h(i, j), T = edge_h(i, j + 1), L = edge_v(i, j), R = edge_v(i + 1, j);
      bool centre_in = (bl + br + tr + tl) / 4 >= 0;
      switch (c) {
        case 1: seg(B, L); break;
        case 2: seg(R, B); break;
        case 4: seg(T, R); break;
        case 8: seg(L, T); break;
        case 14: seg(L, B); break;
        case 13: seg(B, R); break;
        case 11: seg(R, T); break;
        case 7: seg(T, L); break;
        case 3: seg(R, L); break;
        case 12: seg(L, R); break;
        case 6: seg(T, B); break;
        case 9: seg(B, T); break;
        case 5:
          if (centre_in) { seg(B, R); seg(T, L); } else { seg(B, L); seg(T, R); }
          break;
        case 10:
          if (centre_in) { seg(L, B); seg(R, T); } else { seg(R, B); seg(L, T); }
          break;
        default: break;
      }
    }
  std::vector<Polygon> rings;
  for (int s : starts) {
    if (next[static_cast<std::size_t>(s)] < 0) continue;
    Polygon ring;
    int e = s;
    while (e >= 0 && next[static_cast<std::size_t>(e)] >= 0) {
      ring.points.push_back(edge_point(e));
      int n = next[static_cast<std::size_t>(e)];
      next[static_cast<std::size_t>(e)] = -1;
      e = n;
    }
    if (ring.points.size() >= 3) rings.push_back(std::move(ring));
  }
  return rings;
}

// A direction's pseudo-angle in [0, 4): rises with the angle counter-
// clockwise from +x, as the angle does, at a rate between 1/2 and 1, and
// costs a division instead of an atan2.
double pseudo_angle(Vec2 v) {
  const double p = v.y / (std::abs(v.x) + std::abs(v.y));
  return v.x >= 0 ? (v.y >= 0 ? p : 4 + p) : 2 - p;
}

// Straight lines out of a stand's start (docs/warmaster-geometry.md, section
// 4). The directions are split into kBins bins by pseudo-angle; a bin's
// depth is the least distance, over all its directions, at which the transit
// disc's centre would come within r of a blocking obstacle or touch a gate.
// So the straight leg from the start to any point nearer than its bin's depth
// is clear, and the move checker takes that leg as it is.
//
// The disc meets an obstacle when its centre enters the obstacle grown by
// r, the union of one capsule per edge, and it enters that union through an
// edge's offset facing the start or a vertex's disc: the
// least distance to each of those within a bin is exact (a disc's is at the
// direction nearest its centre, a segment's that of the piece of it the bin
// sees), so each depth is exact up to the bin's width.
class Fan {
 public:
  static constexpr int kBins = 1024;
  explicit Fan(Vec2 origin) : o_(origin), depth_(kBins, kInf) {}

  // The filled polygon (counter-clockwise) grown by `radius`.
  void add_polygon(const Polygon& poly, double radius) {
    const std::size_t n = poly.points.size();
    if (n < 2) return;
    if (fast_distance(o_, poly) <= radius) {  // the start is in it (an illegal start may still leave)
      blind_ = true;
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 a = poly.points[i], b = poly.points[(i + 1) % n];
      disc(a, radius);
      const Vec2 d = b - a;
      const double len = length(d);
      if (len == 0) continue;
      // Outward for a counter-clockwise ring. The inner offset is in the
      // grown polygon too: taking it as well keeps the depths safe whatever
      // the ring's winding (a self-crossing outline has none to trust).
      const Vec2 out = Vec2{d.y, -d.x} / len;
      for (const Vec2 side : {out, -out})
        if (dot(side, a - o_) < 0) edge(a + side * radius, b + side * radius);
    }
  }
  // The segment grown by `radius` (a capsule): a gate.
  void add_capsule(const Segment& s, double radius) {
    if (distance(o_, s) <= radius) {
      blind_ = true;
      return;
    }
    add_polygon(Polygon{{s.a, s.b}}, radius);
  }
  bool blind() const { return blind_; }

  static int bin(Vec2 v) { return std::min(kBins - 1, static_cast<int>(pseudo_angle(v) * (kBins / 4.0))); }
  // Is the straight leg from the start to the point `v` from it, `t` away
  // (t = |v|), clear?
  bool sees(Vec2 v, double t) const { return t == 0 || t < depth_[static_cast<std::size_t>(bin(v))] - kSlack; }
  // Is the straight leg from the start clear to every point within `rad` of
  // the point `v` from the start, `t` away (t = |v|)? The bins those
  // points fall in lie within asin(rad / t) of v's, and a pseudo-angle
  // changes no faster than the angle.
  bool sees_around(Vec2 v, double t, double rad) const {
    if (blind_ || t <= rad) return false;
    const int k = static_cast<int>(std::ceil(std::asin(rad / t) * (kBins / 4.0))) + 1;
    if (2 * k + 1 >= kBins) return false;
    const int b = bin(v);
    for (int i = b - k; i <= b + k; ++i)
      if (depth_[static_cast<std::size_t>((i + kBins) % kBins)] - kSlack <= t + rad) return false;
    return true;
  }

 private:
  static constexpr double kSlack = 1e-7;  // rounding, far below the transit tolerance
  // The unit directions of the bins' edges, kBins + 1 of them (the last is the first).
  static const std::vector<Vec2>& edges() {
    static const std::vector<Vec2> e = [] {
      std::vector<Vec2> out;
      for (int i = 0; i <= kBins; ++i) {
        const double q = 4.0 * (i % kBins) / kBins;  // the pseudo-angle's inverse, then normalised
        Vec2 d = q < 1 ? Vec2{1 - q, q} : q < 2 ? Vec2{1 - q, 2 - q} : q < 3 ? Vec2{q - 3, 2 - q} : Vec2{q - 3, q - 4};
        out.push_back(normalized(d));
      }
      return out;
    }();
    return e;
  }
  void lower(int b, double t) {
    double& d = depth_[static_cast<std::size_t>(b)];
    d = std::min(d, t);
  }
  // A disc: along each direction its entry distance grows with the angle
  // from its centre, so within a bin the least is at the direction nearest
  // the centre.
  void disc(Vec2 c, double radius) {
    const Vec2 v = c - o_;
    const double dd = length(v);
    if (dd <= radius) {
      blind_ = true;
      return;
    }
    const Vec2 u = v / dd;
    const double sa = radius / dd, ca = std::sqrt(1 - sa * sa);
    const int first = bin(Vec2{u.x * ca + u.y * sa, -u.x * sa + u.y * ca});
    const int last = bin(Vec2{u.x * ca - u.y * sa, u.x * sa + u.y * ca});
    const int centre = bin(u);
    const auto& e = edges();
    bool before = true;
    for (int b = first;; b = (b + 1) % kBins) {
      if (b == centre) {
        before = false;
        lower(b, dd - radius);
      } else {
        const Vec2 dir = e[static_cast<std::size_t>(before ? b + 1 : b)];
        const double cd = dot(dir, u), sd = cross(dir, u);
        lower(b, dd * cd - std::sqrt(std::max(0.0, radius * radius - dd * dd * sd * sd)));
      }
      if (b == last) break;
    }
  }
  // A segment not seen edge-on (its ends' discs cover that case).
  void edge(Vec2 a, Vec2 b) {
    Vec2 va = a - o_, vb = b - o_;
    const double cr = cross(va, vb);
    if (std::abs(cr) <= 1e-12 * (length_squared(va) + length_squared(vb))) return;
    if (cr < 0) std::swap(va, vb);  // va to vb counter-clockwise
    const Vec2 d = vb - va;
    const int first = bin(va), last = bin(vb);
    const auto& e = edges();
    // The point of the segment a direction meets, as a fraction of the way from va.
    auto at = [&](Vec2 dir) { return std::clamp(cross(va, dir) / cross(dir, d), 0.0, 1.0); };
    for (int b = first;; b = (b + 1) % kBins) {
      const double l0 = b == first ? 0.0 : at(e[static_cast<std::size_t>(b)]);
      const double l1 = b == last ? 1.0 : at(e[static_cast<std::size_t>(b + 1)]);
      lower(b, distance(Vec2{0, 0}, Segment{va + d * l0, va + d * l1}));
      if (b == last) break;
    }
  }

  Vec2 o_;
  std::vector<double> depth_;
  bool blind_ = false;
};

// The most the move checker's measure (docs/rulings.md#warmaster-move-distance)
// gives a straight leg of centre displacement `dv` on which the stand also
// turns: each corner moves by dv plus its own turn offset.
double turned_leg(Vec2 dv, const std::array<Vec2, 4>& corner_turn) {
  double most = 0;
  for (Vec2 w : corner_turn) most = std::max(most, length_squared(dv + w));
  return std::sqrt(most);
}

// The mover's start, allowance and pace (what the move checker would allow
// it), and the scene of what blocks its transit disc.
void mover_and_allowance(const Battlefield& bf, const ReachRequest& req, const Settings& settings, ReachAnswer& ans,
                         std::optional<TransitScene>& scene) {
  if (req.kind == ReachKind::Character) {
    const Character* c = bf.find_character(req.mover);
    if (!c) throw InputError("unit", "no character '" + req.mover + "' on the battlefield");
    scene.emplace(bf, *c, settings);
    ans.starts.push_back(c->pose);
    const double full = c->flying ? kFlyingCharacterPace : kCharacterPace;
    ans.pace = c->flying ? "character, flying" : "character";
    ans.allowance = full;
  } else {
    const Unit* u = bf.find_unit(req.mover);
    if (!u) throw InputError("unit", "no unit '" + req.mover + "' on the battlefield");
    if (u->stands.empty()) throw InputError("unit", "unit '" + req.mover + "' has no stands on the table");
    TransitOptions o;
    o.evading = req.kind == ReachKind::Evade;
    scene.emplace(bf, *u, settings, o);
    for (const Stand& s : u->stands) ans.starts.push_back(s.pose);
    const double full = full_pace(*u);
    switch (req.kind) {
      case ReachKind::Ordered: {
        Formation f = classify_formation(*u, settings);
        if (u->fortified) {
          ans.allowance = full / 2;
          ans.pace = "half pace (fortified)";
        } else if (f == Formation::Irregular) {
          ans.allowance = full / 2;
          ans.pace = "half pace (irregular formation)";
        } else {
          ans.allowance = full;
          ans.pace = std::string("full pace (") + to_string(f) + ")";
        }
        break;
      }
      case ReachKind::HalfPace:
        ans.allowance = full / 2;
        ans.pace = "half pace (failed first order)";
        break;
      case ReachKind::Charge:
      case ReachKind::Evade:
        ans.allowance = full;
        ans.pace = std::string("full pace (") + to_string(req.kind) + ")";
        break;
      case ReachKind::Character: break;
    }
  }
  if (req.allowance) {
    if (!(*req.allowance >= 0) || *req.allowance > 1000) throw InputError("allowance", "must be between 0 and 1000 cm");
    ans.allowance = *req.allowance;
    ans.pace = "given";
  }
  if (!(req.cell > 0.01) || req.cell > 50) throw InputError("cell", "must be between 0.01 and 50 cm");
}

// The facing at the end (docs/rulings.md#warmaster-reach-facing): each
// stand's own, or the one asked for. Turning moves a corner at most
// 2 * rho * sin(turn / 2) further than the centre (rho: the
// half-diagonal), whichever leg the turn is on, so a route is charged that
// much; one straight leg is charged what its corners really move
// (turned_leg), and that is at least 2 * sin(turn / 2) * half the shortest
// edge more than the centre's, so a route is overcharged by turn_slack at
// most.
struct TurnCharge {
  std::vector<double> facings;                  // the end facings
  std::vector<double> turn;                     // per stand: a route's charge for the turn
  std::vector<std::array<Vec2, 4>> corner_turn;  // per stand: how the turn moves each corner (straight legs)
  double least_share = 0;                       // the least a turn's cost can be, as a share of `turn`
};

TurnCharge turn_charge(const ReachRequest& req, const Unit* unit, ReachAnswer& ans) {
  TurnCharge t;
  const std::size_t n_stands = ans.starts.size();
  t.turn.assign(n_stands, 0.0);
  t.corner_turn.assign(n_stands, std::array<Vec2, 4>{});
  if (req.facing) {
    if (!std::isfinite(*req.facing) || std::abs(*req.facing) > 360) throw InputError("facing", "must be between -360 and 360 degrees");
    ans.facing = *req.facing;
    t.facings.push_back(*req.facing);
    if (unit) {
      const double rho = std::hypot(unit->width, unit->depth) / 2;
      t.least_share = std::min(unit->width, unit->depth) / 2 / rho;
      for (std::size_t k = 0; k < n_stands; ++k) {
        const Pose& p = ans.starts[k];
        t.turn[k] = 2 * rho * std::abs(std::sin(deg_to_rad(*req.facing - p.facing_deg) / 2));
        ans.turn_cost = std::max(ans.turn_cost, t.turn[k]);
        const auto c0 = OrientedRect::from_pose(Pose{{0, 0}, p.facing_deg}, unit->width, unit->depth).corners();
        const auto c1 = OrientedRect::from_pose(Pose{{0, 0}, *req.facing}, unit->width, unit->depth).corners();
        for (std::size_t q = 0; q < 4; ++q) t.corner_turn[k][q] = c1[q] - c0[q];
      }
    }
  } else {
    for (const Pose& p : ans.starts)
      if (std::find(t.facings.begin(), t.facings.end(), p.facing_deg) == t.facings.end()) t.facings.push_back(p.facing_deg);
  }
  ans.turn_slack = ans.turn_cost * (1 - t.least_share);
  return t;
}

// The grid over the move's bounding box (`radius` round the starts),
// clipped to where a centre may be, with two samples of border, never
// passable, so that no step (at most two cells) leaves the grid and every
// contour closes.
Grid lay_grid(const ReachAnswer& ans, const TransitScene::Impl& m, double radius, double cell) {
  Aabb box{ans.starts[0].position, ans.starts[0].position};
  for (const Pose& p : ans.starts) box = box.merged(Aabb{p.position, p.position});
  box = box.inflated(std::max(radius, 0.0));
  box.min.x = std::max(box.min.x, m.r);
  box.min.y = std::max(box.min.y, m.r);
  box.max.x = std::min(box.max.x, m.table_w - m.r);
  box.max.y = std::min(box.max.y, m.table_h - m.r);
  Grid g;
  g.h = cell;
  double w = std::max(0.0, box.max.x - box.min.x), hgt = std::max(0.0, box.max.y - box.min.y);
  g.h = std::max(g.h, std::sqrt(w * hgt / 40000.0));
  g.origin = box.min - Vec2{2 * g.h, 2 * g.h};
  g.nx = static_cast<int>(std::floor(w / g.h)) + 5;
  g.ny = static_cast<int>(std::floor(hgt / g.h)) + 5;
  return g;
}

// Clearance of the transit disc at each sample: the distance its edge
// keeps from whatever blocks it (negative inside), a lower bound capped at
// `cap`. It is 1-Lipschitz, which is what makes the steps and the contour
// safe. A sample is passable where the disc fits (within the tolerance).
void clearance(const Grid& g, const TransitScene::Impl& m, double cap, std::vector<double>& clear,
               std::vector<char>& passable) {
  clear.assign(g.cells(), cap);
  std::vector<int> near;
  m.query(g.box().inflated(m.r + cap), near);
  for (int k : near) {
    const TransitObstacle& o = m.obstacles[k];
    if (!o.blocks) continue;
    int i0, i1, j0, j1;
    g.cell_range(o.box.inflated(m.r + cap), i0, i1, j0, j1);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        double& c = clear[g.at(i, j)];
        Vec2 p = g.point(i, j);
        // 0 inside: -r there, which closes the sample all the same.
        c = std::min(c, fast_distance(p, o.poly) - m.r);
      }
  }
  passable.assign(g.cells(), 0);
  for (int j = 2; j + 2 < g.ny; ++j)
    for (int i = 2; i + 2 < g.nx; ++i) {
      std::size_t c = g.at(i, j);
      Vec2 p = g.point(i, j);
      clear[c] = std::min({clear[c], p.x - m.r, m.table_w - m.r - p.x, p.y - m.r, m.table_h - m.r - p.y});
      passable[c] = clear[c] >= -m.tol;
    }
}

// Gates: a band no grid step can jump (steps are at most sqrt(5) cells).
void close_gates(const Grid& g, TransitScene::Impl& m, std::vector<char>& passable, std::vector<Segment>& gates) {
  const double band = 1.5 * g.h;
  const Aabb grid_box = g.box();
  m.ensure_gates(grid_box.inflated(m.r));
  for (const TransitGateData& gate : m.gates) {
    Aabb gb = gate.line.bounds().inflated(band);
    if (!gb.overlaps(grid_box)) continue;
    gates.push_back(gate.line);
    int i0, i1, j0, j1;
    g.cell_range(gb, i0, i1, j0, j1);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i)
        if (distance(g.point(i, j), gate.line) <= band) passable[g.at(i, j)] = 0;
  }
}

// Where each stand's centre can get (docs/warmaster-geometry.md, section 4):
// Dijkstra, 16 neighbours, flat arrays, from one stand's centre: each stand
// has its own area, since a stand's move is measured from its own start
// (the union drawn is theirs together).
class StandRoutes {
 public:
  StandRoutes(const Grid& g, TransitScene::Impl& m, const ReachAnswer& ans, const TurnCharge& t, double radius,
              const std::vector<double>& clear, const std::vector<char>& passable)
      : g_(g), m_(m), ans_(ans), t_(t), radius_(radius), clear_(clear), passable_(passable) {
    for (int di = -2; di <= 2; ++di)
      for (int dj = -2; dj <= 2; ++dj) {
        if ((di == 0 && dj == 0) || (std::abs(di) == 2 && (std::abs(dj) == 2 || dj == 0)) ||
            (std::abs(dj) == 2 && di == 0))
          continue;
        steps_.push_back({di + dj * g.nx, Vec2{di * g.h, dj * g.h}, std::hypot(di, dj) * g.h});
      }
    // Dial's buckets, one cell wide: a step is at least a cell long, so a
    // sample never improves another of its own bucket, and each bucket may
    // be taken in any order (an exact Dijkstra without a heap).
    buckets_.resize(static_cast<std::size_t>(std::max(ans.allowance, 0.0) / g.h) + 2);
  }

  // How much of the allowance stand k has left when its centre ends at each
  // sample (negative: it cannot end there).
  void slack_of(std::size_t k, std::vector<double>& slack) {
    const Vec2 s = ans_.starts[k].position;
    const double budget = ans_.allowance - t_.turn[k];  // what a route leaves for the centre's path
    dist_.assign(g_.cells(), kInf);
    Fan fan(s);
    near_start_.clear();
    m_.query(Aabb{s, s}.inflated(radius_ + m_.r), near_start_);
    for (int o : near_start_)
      if (m_.obstacles[static_cast<std::size_t>(o)].blocks)
        fan.add_polygon(m_.obstacles[static_cast<std::size_t>(o)].poly, m_.r - m_.tol);
    for (const Segment& gate : ans_.gates) fan.add_capsule(gate, m_.tol);
    if (!fan.blind() && budget >= 0) straight_lines(fan, s, budget);
    next_to_start(s, budget);
    grid_steps(budget);
    slack.assign(g_.cells(), -1.0);
    for (std::size_t c = 0; c < g_.cells(); ++c)
      if (dist_[c] <= budget) slack[c] = budget - dist_[c];
    if (t_.turn[k] > 0 && !fan.blind()) turned_straight_legs(k, fan, slack);
  }

 private:
  struct Step {
    int delta;  // in flat cell indices
    Vec2 offset;
    double len;
  };
  void push(double d, std::size_t c) {
    dist_[c] = d;
    buckets_[static_cast<std::size_t>(d / g_.h)].push_back(static_cast<int>(c));
  }
  // Straight lines from the start (the fan): a sample seen from it is
  // reached by one straight leg, its distance exact.
  void straight_lines(const Fan& fan, Vec2 s, double budget) {
    int i0, i1, j0, j1;
    g_.cell_range(Aabb{s, s}.inflated(budget), i0, i1, j0, j1);
    seen_.assign(g_.cells(), 0);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const std::size_t c = g_.at(i, j);
        if (!passable_[c]) continue;
        const Vec2 v = g_.point(i, j) - s;
        const double t2 = length_squared(v);
        if (t2 > budget * budget) continue;
        const double t = std::sqrt(t2);
        if (!fan.sees(v, t)) continue;
        dist_[c] = t;
        seen_[c] = 1;
      }
    // No path is shorter than the straight line, so only samples next to
    // one that is not seen have anything to pass on.
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const std::size_t c = g_.at(i, j);
        if (!seen_[c]) continue;
        for (const Step& st : steps_) {
          const std::size_t n = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + st.delta);
          if (passable_[n] && !seen_[n]) {
            push(dist_[c], c);
            break;
          }
        }
      }
  }
  // The samples next to the start by the transit model itself (a stand
  // that starts too close to something may still move away from it).
  void next_to_start(Vec2 s, double budget) {
    int ci = static_cast<int>(std::lround((s.x - g_.origin.x) / g_.h));
    int cj = static_cast<int>(std::lround((s.y - g_.origin.y) / g_.h));
    for (int j = cj - 2; j <= cj + 2; ++j)
      for (int i = ci - 2; i <= ci + 2; ++i) {
        if (i < 2 || j < 2 || i > g_.nx - 3 || j > g_.ny - 3) continue;
        std::size_t c = g_.at(i, j);
        if (!passable_[c]) continue;
        double d = distance(s, g_.point(i, j));
        if (d > budget || d >= dist_[c] || !m_.segment_clear(s, g_.point(i, j), seg_scratch_)) continue;
        push(d, c);
      }
  }
  // Round what blocks the straight lines: grid steps. A step is clear when
  // the clearances at its ends add up to its length (every point of it is
  // then at least 0 from what blocks); otherwise the transit model decides
  // it exactly.
  void grid_steps(double budget) {
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      // Pushes from this bucket go to later ones, so the loop may index it.
      for (std::size_t q = 0; q < buckets_[b].size(); ++q) {
        const int c = buckets_[b][q];
        const double d = dist_[static_cast<std::size_t>(c)];
        if (static_cast<std::size_t>(d / g_.h) != b) continue;  // improved since: taken from a later bucket
        const double cc = clear_[static_cast<std::size_t>(c)];
        const Vec2 p = g_.point(c % g_.nx, c / g_.nx);
        // The border is never passable, so no step leaves the grid.
        for (const Step& st : steps_) {
          const std::size_t n = static_cast<std::size_t>(c + st.delta);
          const double nd = d + st.len;
          if (!passable_[n] || nd >= dist_[n] || nd > budget) continue;
          if (cc + clear_[n] < st.len && !m_.segment_clear(p, p + st.offset, seg_scratch_)) continue;
          push(nd, n);
        }
      }
      buckets_[b].clear();
    }
  }
  // Turning to the facing asked for costs a route its whole `turn` at
  // most, but a straight leg only what its corners really add
  // (turned_leg). The straight term is used only where every point of the
  // cells round the sample is seen from the start too, so that the area
  // drawn between samples is all reached straight.
  void turned_straight_legs(std::size_t k, const Fan& fan, std::vector<double>& slack) const {
    const Vec2 s = ans_.starts[k].position;
    const double far = ans_.allowance - t_.turn[k] * t_.least_share;
    const double cell_reach = g_.h * std::sqrt(2.0) * 1.01;
    int i0, i1, j0, j1;
    g_.cell_range(Aabb{s, s}.inflated(far), i0, i1, j0, j1);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const std::size_t c = g_.at(i, j);
        if (!passable_[c]) continue;
        const Vec2 v = g_.point(i, j) - s;
        // Well inside the routes' area the straight term changes nothing drawn.
        if (slack[c] >= 2 * g_.h) continue;
        const double left = ans_.allowance - turned_leg(v, t_.corner_turn[k]);
        if (left <= slack[c] || left < 0) continue;
        const double t = length(v);
        if (fan.sees(v, t) && fan.sees_around(v, t, cell_reach)) slack[c] = left;
      }
  }

  const Grid& g_;
  TransitScene::Impl& m_;  // segment_clear finds the gates near a step
  const ReachAnswer& ans_;
  const TurnCharge& t_;
  double radius_;
  const std::vector<double>& clear_;
  const std::vector<char>& passable_;
  std::vector<Step> steps_;
  std::vector<std::vector<int>> buckets_;
  std::vector<double> dist_;  // the centre's path length to each sample
  std::vector<int> near_start_;
  std::vector<char> seen_;  // seen from the start: its distance is the straight line's
  std::vector<int> seg_scratch_;
};

// Where a stand may END (docs/rulings.md#warmaster-reach-end-poses): its
// footprint at the end facing, shrunk by the contact tolerance over sqrt 2
// (so that a footprint clear of everything by that rule overlaps nothing by
// more than the tolerance the move check allows), must stay on the table,
// off other units' stands and out of terrain the troop type may not end in.
// `room` is how far the footprint is from breaking that (a lower bound,
// 1-Lipschitz), at reached samples only.
class EndRoom {
 public:
  EndRoom(const Grid& g, const TransitScene::Impl& m, const Unit& unit, const std::vector<double>& facings,
          double shrink, double cap, const std::vector<double>& slack, std::vector<double>& room)
      : g_(g), m_(m), rho_(std::hypot(unit.width, unit.depth) / 2), cap_(cap), slack_(slack), room_(room) {
    // The footprints at the origin, one per end facing (turned once, moved
    // to each sample), whole and shrunk.
    for (double fa : facings) {
      OrientedRect r = OrientedRect::from_pose(Pose{{0, 0}, fa}, unit.width, unit.depth);
      whole_.push_back(r);
      r.half.x = std::max(0.0, r.half.x - shrink);
      r.half.y = std::max(0.0, r.half.y - shrink);
      shrunk_.push_back(r);
    }
  }
  void table_edges() {
    for (int j = 2; j + 2 < g_.ny; ++j)
      for (int i = 2; i + 2 < g_.nx; ++i) {
        std::size_t c = g_.at(i, j);
        if (slack_[c] < 0) continue;
        const Vec2 p = g_.point(i, j);
        if (std::min({p.x, m_.table_w - p.x, p.y, m_.table_h - p.y}) - rho_ >= cap_) continue;  // far from the edge
        for (const OrientedRect& r : whole_)
          for (Vec2 q : r.corners()) {
            q += p;
            room_[c] = std::min({room_[c], q.x, m_.table_w - q.x, q.y, m_.table_h - q.y});
          }
      }
  }
  // A stand (`rect`) or a piece of terrain (`poly`) the footprint may not overlap.
  void obstacle(const Polygon* poly, const OrientedRect* rect) {
    const Aabb ob = rect ? rect->bounds() : poly->bounds();
    if (!ob.overlaps(g_.box().inflated(rho_ + cap_))) return;
    const Vec2 oc = (ob.min + ob.max) / 2;
    const double orad = distance(ob.min, ob.max) / 2;
    int i0, i1, j0, j1;
    g_.cell_range(ob.inflated(rho_ + cap_), i0, i1, j0, j1);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        std::size_t c = g_.at(i, j);
        if (slack_[c] < 0 || room_[c] < 0) continue;
        Vec2 p = g_.point(i, j);
        if (distance(p, oc) - rho_ - orad >= room_[c]) continue;
        if (poly) {
          // Terrain outlines can be long: the centre's distance less the
          // half-diagonal bounds the footprint's from below, and is cheap.
          if (contains(*poly, p)) {
            room_[c] = -1;
            continue;
          }
          if (fast_distance(p, *poly) - rho_ >= room_[c]) continue;
        }
        for (OrientedRect r : shrunk_) {
          r.center = p;
          room_[c] = std::min(room_[c], gap(r, poly, rect));
        }
      }
  }

 private:
  // How far the shrunk footprint `r` is from the obstacle (negative: it overlaps).
  static double gap(const OrientedRect& r, const Polygon* poly, const OrientedRect* rect) {
    // The widest gap along a separating axis: a lower bound of the
    // distance that changes no faster than the footprint moves.
    if (rect) return -penetration(r, *rect);
    if (overlaps(r, *poly, 0.0)) return -1;
    double d = kInf;
    const auto k = r.corners();
    for (std::size_t e = 0; e < 4; ++e) d = std::min(d, fast_distance(Segment{k[e], k[(e + 1) % 4]}, *poly));
    return d;
  }

  const Grid& g_;
  const TransitScene::Impl& m_;
  double rho_, cap_;
  const std::vector<double>& slack_;
  std::vector<double>& room_;
  std::vector<OrientedRect> whole_, shrunk_;
};

std::vector<double> end_room(const Battlefield& bf, const Unit& unit, const Settings& settings, const Grid& g,
                             const TransitScene::Impl& m, const std::vector<double>& facings, double cap,
                             const std::vector<double>& slack) {
  std::vector<double> room(g.cells(), cap);
  EndRoom er(g, m, unit, facings, settings.contact_tolerance / std::sqrt(2.0), cap, slack, room);
  er.table_edges();
  for (const Unit& other : bf.units) {
    if (other.id == unit.id) continue;
    for (std::size_t s = 0; s < other.stands.size(); ++s) {
      OrientedRect r = other.footprint(s);
      er.obstacle(nullptr, &r);
    }
  }
  for (const TerrainFeature& f : bf.terrain) {
    bool may_end = unit.type == TroopType::Flyer ? flyer_may_end_in(f.kind, settings)
                                                 : may_enter(unit.type, f.kind, settings);
    if (may_end) continue;
    for (const Polygon& piece : f.pieces)
      if (piece.points.size() >= 3) er.obstacle(&piece, nullptr);
  }
  return room;
}

// The field whose contour is drawn: min(slack, room - margin). The margin
// keeps every point the contour shades inside its cell (at most h / sqrt 2
// from a sample) where the footprint still fits. Every outside value is
// -h, so an interpolated boundary point never lies further from its inside
// sample than that sample's value (docs/warmaster-geometry.md, section 4).
std::vector<double> contour_field(const Grid& g, const std::vector<double>& slack, const std::vector<double>& room,
                                  double margin) {
  std::vector<double> f(g.cells(), -g.h);
  for (std::size_t c = 0; c < g.cells(); ++c)
    if (slack[c] >= 0) {
      const double v = std::min(slack[c], room[c] - margin);
      // Exactly zero would put a contour point on a sample.
      if (v >= 0) f[c] = std::max(v, 1e-9);
    }
  return f;
}

}  // namespace

ReachAnswer reach(const Battlefield& bf, const ReachRequest& req, const Settings& settings) {
  ReachAnswer ans;
  ans.mover = req.mover;
  ans.kind = req.kind;
  std::optional<TransitScene> scene;
  mover_and_allowance(bf, req, settings, ans, scene);
  TransitScene::Impl& m = scene->impl();
  ans.clearance = m.r;
  const Unit* unit = req.kind == ReachKind::Character ? nullptr : bf.find_unit(req.mover);
  const TurnCharge turns = turn_charge(req, unit, ans);
  if (unit) ans.other_facing_room = std::hypot(unit->width, unit->depth) / 2 - std::min(unit->width, unit->depth) / 2;
  // The farthest a centre can end: a straight leg turning costs at least
  // least_share of the turn more than the centre moves.
  double radius = 0;
  for (double t : turns.turn) radius = std::max(radius, ans.allowance - t * turns.least_share);
  const Grid g = lay_grid(ans, m, radius, req.cell);
  ans.cell = g.h;
  const double cap = 3 * g.h;
  std::vector<double> clear;
  std::vector<char> passable;
  clearance(g, m, cap, clear, passable);
  close_gates(g, m, passable, ans.gates);

  StandRoutes routes(g, m, ans, turns, radius, clear, passable);
  std::vector<std::vector<double>> slacks(ans.starts.size());
  for (std::size_t k = 0; k < slacks.size(); ++k) routes.slack_of(k, slacks[k]);
  std::vector<double> slack(g.cells(), -1.0);  // the best stand's: where any stand can end
  for (const auto& sl : slacks)
    for (std::size_t c = 0; c < g.cells(); ++c) slack[c] = std::max(slack[c], sl[c]);
  // Characters keep the disc's clearance.
  const std::vector<double> room = unit ? end_room(bf, *unit, settings, g, m, turns.facings, cap, slack) : clear;

  ans.margin = g.h / std::sqrt(2.0);
  for (const auto& sl : slacks) ans.stand_boundaries.push_back(contours(g, contour_field(g, sl, room, ans.margin)));
  ans.boundary = contours(g, contour_field(g, slack, room, ans.margin));
  for (const Polygon& p : ans.boundary) ans.area += p.signed_area();
  return ans;
}

void to_json(nlohmann::json& j, const ReachAnswer& a) {
  auto r2 = [](double v) { return std::round(v * 100) / 100; };
  auto rings_json = [&](const std::vector<Polygon>& polys) {
    nlohmann::json rings = nlohmann::json::array();
    for (const Polygon& p : polys) {
      nlohmann::json ring = nlohmann::json::array();
      for (Vec2 v : p.points) ring.push_back({r2(v.x), r2(v.y)});
      rings.push_back(std::move(ring));
    }
    return rings;
  };
  nlohmann::json rings = rings_json(a.boundary);
  nlohmann::json per_stand = nlohmann::json::array();
  for (std::size_t i = 0; i < a.stand_boundaries.size(); ++i)
    per_stand.push_back({{"stand", i}, {"boundary", rings_json(a.stand_boundaries[i])}});
  nlohmann::json starts = nlohmann::json::array();
  for (const Pose& p : a.starts) starts.push_back({{"x", p.position.x}, {"y", p.position.y}, {"facing", p.facing_deg}});
  nlohmann::json gates = nlohmann::json::array();
  for (const Segment& s : a.gates) gates.push_back({{r2(s.a.x), r2(s.a.y)}, {r2(s.b.x), r2(s.b.y)}});
  j = {{"rule", warmaster::rule_id::movement_reach},
       {"mover", a.mover},
       {"kind", to_string(a.kind)},
       {"allowance", a.allowance},
       {"pace", a.pace},
       {"area", r2(a.area)},
       {"cell", a.cell},
       {"clearance", a.clearance},
       {"facing", a.facing ? nlohmann::json(*a.facing) : nlohmann::json("each stand keeps its own")},
       {"turn_cost", r2(a.turn_cost)},
       {"margin", r2(a.margin)},
       {"miss_bound", r2(a.miss_bound())},
       {"miss_bound_any_facing", r2(a.miss_bound_any_facing())},
       {"meaning", a.facing ? "where a stand's centre can end facing the given way, by a path the gap rule allows, "
                              "with its footprint fitting there"
                            : "where a stand's centre can end keeping its facing, by a path the gap rule allows, "
                              "with its footprint fitting there"},
       {"starts", starts},
       {"boundary", rings},
       {"stands", per_stand},
       {"gates", gates}};
}

std::string facing_words(const ReachAnswer& a) {
  if (!a.facing) return "keeping each stand's facing";
  return fmt::format("ending facing {:.1f} degrees ({} of the allowance goes on the turn)", *a.facing,
                     format_measure(a.turn_cost, "cm"));
}

std::string explain(const ReachAnswer& a) {
  int outer = 0, holes = 0;
  for (const Polygon& p : a.boundary) (p.signed_area() > 0 ? outer : holes)++;
  return fmt::format(
      "{} ({}, {} {}): its stands' centres can end in {:.1f} cm^2 in {} region(s) with {} hole(s), {}; {} closed "
      "enemy gap(s) nearby. Every point shaded is a legal end for a stand's centre; a legal end lies at most {} "
      "outside it ({} ending at another facing), but in a gap or between two things less than a cell wider than "
      "the stand. Grid {} cm, transit disc radius {}.\n",
      a.mover, to_string(a.kind), a.pace, format_measure(a.allowance, "cm"), a.area, outer, holes, facing_words(a),
      a.gates.size(), format_measure(a.miss_bound(), "cm"), format_measure(a.miss_bound_any_facing(), "cm"), a.cell,
      fmt::format("{:.3g} cm", a.clearance));
}

namespace {
std::string terrain_colour(TerrainKind k) {
  switch (k) {
    case TerrainKind::Wood: return "#3b7a3b";
    case TerrainKind::OpenHill: return "#c8b88a";
    case TerrainKind::SteepHill: return "#8a7650";
    case TerrainKind::Village:
    case TerrainKind::Building: return "#9a6b4f";
    case TerrainKind::Marsh:
    case TerrainKind::BrokenGround: return "#7f8f6a";
    case TerrainKind::GrownField: return "#d9c96b";
    case TerrainKind::ShallowRiver:
    case TerrainKind::Ford: return "#7fb2d9";
    case TerrainKind::DeepRiver: return "#3f6fa8";
    case TerrainKind::Bridge: return "#a08060";
    case TerrainKind::LowObstacle: return "#6b5a3a";
    case TerrainKind::HighObstacle:
    case TerrainKind::FortificationWall:
    case TerrainKind::Impassable: return "#555555";
  }
  return "#888888";
}
}  // namespace

namespace {
constexpr double kKeyHeight = 16;  // cm of picture under the table for the key
// The caption, a 10 cm scale bar and the legend, under the table, so they
// never hide what is on it.
void draw_reach_key(SvgWriter& svg, const Battlefield& bf, const ReachAnswer& a) {
  // Below the table (the picture's world reaches kKeyHeight under it).
  const double x0 = 1.5, line = 2.4, size = 1.6;
  const double top = -0.8;
  auto text = [&](double x, double y, const std::string& t, double sz) {  // left-aligned
    Vec2 p = svg.to_pixels({x, y});
    svg.raw(fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="{:.1f}" font-family="sans-serif" )"
                        R"(dominant-baseline="middle" fill="#111">{}</text>)",
                        p.x, p.y, sz * svg.scale(), xml_escape(t)));
  };
  svg.rect(Aabb{{0, top - 6 * line - 0.6}, {bf.width, top + 0.3}}, {"#ffffff", "none", 0, 1.0, ""});
  text(x0, top - line, fmt::format("{}: reach, {} {}", a.mover, a.pace, format_measure(a.allowance, "cm")), size);
  text(x0, top - 2 * line, facing_words(a), size * 0.9);
  auto row = [&](int k) { return top - (k + 2) * line; };
  svg.rect(Aabb{{x0, row(1) - 0.7}, {x0 + 3, row(1) + 0.7}}, {"#3a7bd5", "#1d4f9a", 0.1, 0.5, ""});
  text(x0 + 4, row(1), fmt::format("a stand's centre can end here (a legal end is at most {} outside; {} turned)",
                                   format_measure(a.miss_bound(), "cm"), format_measure(a.miss_bound_any_facing(), "cm")),
       size * 0.85);
  svg.line({x0, row(2)}, {x0 + 3, row(2)}, {"none", "#e00000", 0.35, 1.0, R"(stroke-dasharray="2,1")"});
  text(x0 + 4, row(2), "closed enemy gap: may not be crossed", size * 0.85);
  svg.rect(Aabb{{x0, row(3) - 0.7}, {x0 + 3, row(3) + 0.7}}, {"#ffd400", "#111", 0.12, 1.0, ""});
  text(x0 + 4, row(3), "the unit moving (its side blue, the enemy red)", size * 0.85);
  // Scale bar: 10 cm with a tick every 5.
  const double sy = row(4);
  svg.line({x0, sy}, {x0 + 10, sy}, {"none", "#111", 0.3, 1.0, ""});
  for (double t : {0.0, 5.0, 10.0}) svg.line({x0 + t, sy - 0.5}, {x0 + t, sy + 0.5}, {"none", "#111", 0.2, 1.0, ""});
  text(x0 + 11, sy, "10 cm", size * 0.85);
}
}  // namespace

std::string reach_svg(const Battlefield& bf, const ReachAnswer& a) {
  Aabb world = bf.table();
  world.min.y -= kKeyHeight;
  SvgWriter svg(world, 5.0);
  svg.title(fmt::format("{}: reach ({})", a.mover, to_string(a.kind)));
  svg.rect(bf.table(), {"#e8efd8", "#333", 0.3, 1.0, ""});
  for (const TerrainFeature& f : bf.terrain) {
    svg.begin_group("terrain-" + f.id);
    svg.title(f.id + " (" + to_string(f.kind) + ")");
    for (const Polygon& p : f.pieces) svg.polygon(p, {terrain_colour(f.kind), "#222", 0.15, 0.85, ""});
    svg.end_group();
  }
  // The reach area: one path, even-odd, so holes stay holes.
  if (!a.boundary.empty()) {
    std::string d;
    for (const Polygon& p : a.boundary) {
      for (std::size_t i = 0; i < p.points.size(); ++i) {
        Vec2 q = svg.to_pixels(p.points[i]);
        d += fmt::format("{}{:.1f},{:.1f} ", i == 0 ? "M" : "L", q.x, q.y);
      }
      d += "Z ";
    }
    svg.raw(fmt::format(R"(<path d="{}" fill="#3a7bd5" fill-opacity="0.35" stroke="#1d4f9a" stroke-width="1" )"
                        R"(fill-rule="evenodd"><title>{}</title></path>)",
                        d, xml_escape(explain(a))));
  }
  for (const Unit& u : bf.units) {
    bool mover = u.id == a.mover;
    std::string fill = mover ? "#ffd400" : (u.side == 0 ? "#4a6fd1" : "#c94040");
    svg.begin_group("unit-" + u.id);
    svg.title(u.id + " (" + to_string(u.type) + ")");
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      OrientedRect r = u.footprint(s);
      svg.oriented_rect(r, {fill, "#111", 0.12, 1.0, ""});
      Segment fe = r.front_edge();
      svg.line(fe.a, fe.b, {"none", "#fff", 0.3, 1.0, ""});
    }
    svg.end_group();
  }
  for (const Character& c : bf.characters)
    svg.circle(c.pose.position, c.base_diameter / 2, {c.side == 0 ? "#9fb4ff" : "#ff9f9f", "#111", 0.12, 1.0, ""});
  for (const Segment& s : a.gates) svg.line(s.a, s.b, {"none", "#e00000", 0.35, 1.0, R"(stroke-dasharray="2,1")"});
  draw_reach_key(svg, bf, a);
  return svg.finish();
}

}  // namespace referee::warmaster
