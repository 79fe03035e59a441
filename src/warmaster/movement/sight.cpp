// Line of sight and distances (movement text, Moving by initiative;
// docs/rulings.md#warmaster-transit-line-of-sight). See sight.hpp for the method.
#include "referee/warmaster/movement/sight.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "referee/core/ruling.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {

constexpr double kSightTolerance = 1e-7;  // how deep a line must go into a blocker to be blocked
constexpr std::size_t kLazyPairs = 16;    // up to this many edge-target pairs, the nearest is found lazily

std::string at(Vec2 p) { return fmt::format("({:.1f}, {:.1f})", p.x, p.y); }

// A character's base as a polygon: a 24-gon circumscribing the round base
// (so it is never smaller than the base), or its rectangular stand.
Polygon character_shape(const Character& c) {
  if (c.stand_size) return to_polygon(OrientedRect::from_pose(c.pose, c.stand_size->x, c.stand_size->y));
  Polygon p;
  const int n = 24;
  double r = c.base_diameter / 2 / std::cos(kPi / n);
  for (int i = n; i > 0; --i) {  // clockwise, like stand corners
    double a = 2 * kPi * i / n;
    p.points.push_back(c.pose.position + Vec2{std::cos(a), std::sin(a)} * r);
  }
  return p;
}

std::vector<Segment> polygon_edges_cw(const Polygon& poly) {
  // Outward normal of (a, b) is perp(b - a): polygons here run clockwise.
  Polygon p = poly;
  if (p.signed_area() > 0) std::reverse(p.points.begin(), p.points.end());
  std::vector<Segment> out;
  for (std::size_t i = 0, n = p.points.size(); i < n; ++i) out.push_back({p.points[i], p.points[(i + 1) % n]});
  return out;
}

// Interiors overlap: an edge of one properly crosses an edge of the other, or
// one's centroid lies inside the other. Touching along an edge is not overlap.
bool polygons_overlap(const Polygon& a, const Polygon& b) {
  auto centroid = [](const Polygon& p) {
    Vec2 c{0, 0};
    for (Vec2 q : p.points) c += q;
    return c / static_cast<double>(p.points.size());
  };
  if (contains(b, centroid(a)) || contains(a, centroid(b))) return true;
  for (std::size_t i = 0, n = a.points.size(); i < n; ++i)
    for (std::size_t j = 0, m = b.points.size(); j < m; ++j)
      if (crosses_properly({a.points[i], a.points[(i + 1) % n]}, {b.points[j], b.points[(j + 1) % m]})) return true;
  return false;
}

struct Blocker {
  Polygon poly;
  Aabb box;
  const std::string* id = nullptr;  // of the unit or the terrain feature
  int feature = -1;                 // terrain: index into Battlefield::terrain
  OrientedRect rect{};              // a stand's footprint (poly is its corners); unused for terrain
  // Terrain: whether the piece is convex (-1 not yet known), and then its
  // edges' inward unit normals and offsets (depth of x: min of n.x - c).
  int convex = -1;
  std::vector<Vec2> inward;
  std::vector<double> offset;
};

// Is the polygon strictly convex (every turn the same way, strictly, and the
// outline going round once: the sign of the edges' x steps changes at most
// twice)? If so, fill in its inward edge normals and offsets.
bool make_convex(Blocker& b) {
  const std::vector<Vec2>& p = b.poly.points;
  const std::size_t n = p.size();
  if (n < 3) return false;
  int turn = 0, changes = 0;
  double last_dx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 e = p[(i + 1) % n] - p[i], f = p[(i + 2) % n] - p[(i + 1) % n];
    const double c = cross(e, f);
    const int t = c > 0 ? 1 : c < 0 ? -1 : 0;
    if (t == 0 || (turn != 0 && t != turn)) return false;
    turn = t;
    if (e.x != 0) {
      if (last_dx != 0 && (e.x > 0) != (last_dx > 0)) ++changes;
      last_dx = e.x;
    }
  }
  // Close the cycle: the first non-zero x step against the last.
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = p[(i + 1) % n].x - p[i].x;
    if (dx != 0) {
      if ((dx > 0) != (last_dx > 0)) ++changes;
      break;
    }
  }
  if (changes > 2) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 e = p[(i + 1) % n] - p[i];
    const Vec2 in = perp(e) * (static_cast<double>(turn) / length(e));
    b.inward.push_back(in);
    b.offset.push_back(dot(in, p[i]));
  }
  return true;
}

// Distance from a convex piece's outline of a point inside it (negative outside).
double convex_depth(const Blocker& b, Vec2 x) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < b.inward.size(); ++i) d = std::min(d, dot(b.inward[i], x) - b.offset[i]);
  return d;
}

// A line that runs this deep into a stand (10^4 times the sight tolerance,
// and far above the rounding of table coordinates) crosses its interior:
// crosses_interior() splits the line where it meets the outline and measures
// the middle of each piece. A stand is convex, so the line meets its outline
// where it enters and leaves (plus near-copies where it passes a corner, all
// within rounding of the outline); the depth along the chord between is
// concave, so the chord's middle is at least half as deep as its deepest
// point, and is found inside and deeper than the tolerance. So the answer is
// the one crosses_interior() gives, for a few multiplications instead of its
// splitting, sorting and measuring (tests/warmaster/transit_kernels_vs_boost_test.cpp
// checks the claim).
constexpr double kSurelyCrosses = 1e-3;
// The same holds for any convex piece of terrain: its depth is tried at the
// segment's middle and at its point nearest the piece's vertex centroid
// (either deep enough is proof; neither is no answer, and the exact test
// decides).
bool crosses(const Segment& s, Blocker& b) {
  if (b.feature < 0) {
    if (segment_depth(s, b.rect) >= kSurelyCrosses) return true;
  } else {
    if (b.convex < 0) b.convex = make_convex(b) ? 1 : 0;
    if (b.convex == 1) {
      Vec2 c{0, 0};
      for (Vec2 q : b.poly.points) c += q;
      c = c / static_cast<double>(b.poly.points.size());
      if (convex_depth(b, (s.a + s.b) / 2) >= kSurelyCrosses || convex_depth(b, closest_point(c, s)) >= kSurelyCrosses)
        return true;
    }
  }
  return crosses_interior(s, b.poly, kSightTolerance);
}

// Shadows: a convex blocker lies across every line from an edge to a target
// when each line from an end of the edge to a vertex of the target runs
// kShadowDepth deep into it. For then, with p on the edge and q in the
// target: the points p from which a line to a given vertex meets a convex
// set form a convex set, which holds both ends of the edge, hence p; and the
// points q to which a line from p meets it form a convex set, which holds
// every vertex, hence q (the target lies within its vertices' hull). The
// set met is the blocker shrunk by kShadowDepth, so the line pq runs that
// deep, and any line within rounding of it more than kSurelyCrosses deep:
// crosses() refuses it, for a stand by its depth and for convex terrain by
// crosses_interior (see kSurelyCrosses). Every line a search tries runs from
// an edge to (within rounding of) a target, so when each of its edge-target
// pairs has such a blocker, not excused for it, none of them is clear.
constexpr double kShadowDepth = 0.02;

// Does the segment reach `depth` into the convex region {x : n_i.x - c_i >=
// 0 for every i}? The t in [0, 1] where each n_i.x(t) - c_i >= depth, intersected.
bool reaches(const Segment& s, const Vec2* n, const double* c, std::size_t k, double depth) {
  double lo = 0, hi = 1;
  const Vec2 d = s.b - s.a;
  for (std::size_t i = 0; i < k; ++i) {
    const double alpha = dot(n[i], s.a) - c[i] - depth, beta = dot(n[i], d);
    if (beta == 0) {
      if (alpha < 0) return false;
    } else if (beta > 0) {
      lo = std::max(lo, -alpha / beta);
    } else {
      hi = std::min(hi, -alpha / beta);
    }
    if (lo > hi) return false;
  }
  return true;
}

// Does blocker b (a stand, or a convex piece of terrain) lie across every
// line from `edge` to `target` (above)?
bool shadows(Blocker& b, const Segment& edge, const Polygon& target) {
  std::array<Vec2, 4> rect_n;
  std::array<double, 4> rect_c;
  const Vec2* n = nullptr;
  const double* c = nullptr;
  std::size_t k = 0;
  if (b.feature < 0) {
    // depth = min(half.x -+ (x - centre).right, half.y -+ (x - centre).forward)
    const Vec2 r = b.rect.rot.right(), f = b.rect.rot.forward();
    const double cr = dot(b.rect.center, r), cf = dot(b.rect.center, f);
    rect_n = {-r, r, -f, f};
    rect_c = {-cr - b.rect.half.x, cr - b.rect.half.x, -cf - b.rect.half.y, cf - b.rect.half.y};
    n = rect_n.data();
    c = rect_c.data();
    k = 4;
  } else {
    if (b.convex < 0) b.convex = make_convex(b) ? 1 : 0;
    if (b.convex != 1) return false;
    n = b.inward.data();
    c = b.offset.data();
    k = b.inward.size();
  }
  for (Vec2 e : {edge.a, edge.b})
    for (Vec2 q : target.points)
      if (!reaches({e, q}, n, c, k, kShadowDepth)) return false;
  return true;
}
// The line through a segment, to rule out blockers far from it cheaply: a
// blocker whose box lies wholly on one side of the line, clear of it by
// more than `margin`, can neither cross nor touch the segment. The box is
// inside that bound, so no blocker that matters is ever skipped.
struct LineTest {
  Vec2 a, n;  // a point on the line and its unit normal
  bool usable = false;
  explicit LineTest(const Segment& s) : a(s.a) {
    const Vec2 d = s.b - s.a;
    const double l = length(d);
    usable = l > 1e-9;
    n = usable ? Vec2{-d.y / l, d.x / l} : Vec2{0, 0};
  }
  bool far_from(const Aabb& box, double margin) const {
    if (!usable) return false;
    const Vec2 c = (box.min + box.max) / 2, h = (box.max - box.min) / 2;
    return std::abs(dot(c - a, n)) > std::abs(n.x) * h.x + std::abs(n.y) * h.y + margin;
  }
};
constexpr double kLineTestMargin = 1e-6;  // far above rounding, far below any gap that matters

// "unit orcs-2" or "terrain wood-1": written only when a blocker is named.
std::string label(const Blocker& b) { return (b.feature >= 0 ? "terrain " : "unit ") + *b.id; }

// What a body or target is called in a reason: "elves-1 stand 2" for a
// stand, the id alone for a character. Written only when a reason is.
struct Name {
  const std::string* id = nullptr;
  int stand = -1;  // from 0; -1: a character
  std::string text() const { return stand < 0 ? *id : *id + " stand " + std::to_string(stand + 1); }
};

// The shape an edge belongs to (a stand, or a character's base): its own
// features ("own feature") are worked out once per body, not per edge.
struct Body {
  Polygon poly;
  Name label;
};

struct Viewpoint {
  Segment edge;          // outward normal perp(b - a)
  std::size_t body = 0;  // index into Views::bodies
};

// Every body listed has at least one edge.
struct Views {
  std::vector<Body> bodies;
  std::vector<Viewpoint> edges;
};

struct Target {
  Polygon poly;
  Name label;
};

// What a search answers: whether a clear line exists and, in full, which
// line or what blocks (reasons written); or only whether (stands_that_see,
// which reads `visible` alone): the same lines are tried in the same order,
// and no reason is written.
enum class SightDetail { Full, WhetherOnly };

// The units whose stands do not block (the viewer's and the target's).
struct Excluded {
  const std::string* a = nullptr;
  const std::string* b = nullptr;
  bool has(const std::string& id) const { return (a && *a == id) || (b && *b == id); }
};

// The bodies' and targets' box: what a line between them can cross.
Aabb sight_area(const Views& view_set, const std::vector<Target>& targets) {
  Aabb area = view_set.edges[0].edge.bounds();
  for (const auto& b : view_set.bodies) area = area.merged(b.poly.bounds());
  for (const auto& t : targets) area = area.merged(t.poly.bounds());
  return area;
}

// What may block a line within `area`: other units' stands and terrain that
// blocks sight. Built once and searched for each viewpoint set that lies in
// the area (the search only ever tests blockers near each line, so a larger
// area changes no answer).
std::vector<Blocker> sight_blockers(const Battlefield& bf, const Aabb& area, const Excluded& exclude_units) {
  std::vector<Blocker> blockers;
  for (const Unit& u : bf.units) {
    if (u.stands.empty()) continue;
    if (exclude_units.has(u.id)) continue;
    // A stand lies within its circumscribed disc: one whose disc's box misses
    // the area is not worth a footprint (a sine and a cosine) and a polygon.
    const double r = stand_circumradius(u) + kDiscSlack;
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      const Vec2 c = u.stands[s].pose.position;
      if (!Aabb{{c.x - r, c.y - r}, {c.x + r, c.y + r}}.overlaps(area)) continue;
      const OrientedRect rect = u.footprint(s);
      Polygon p = to_polygon(rect);
      Aabb b = p.bounds();
      if (b.overlaps(area)) blockers.push_back({std::move(p), b, &u.id, -1, rect, -1, {}, {}});
    }
  }
  for (std::size_t f = 0; f < bf.terrain.size(); ++f) {
    const TerrainFeature& tf = bf.terrain[f];
    if (!blocks_sight(tf) || !tf.bounds.overlaps(area)) continue;
    for (const Polygon& piece : tf.pieces)
      if (piece.points.size() >= 3 && piece.bounds().overlaps(area))
        blockers.push_back({piece, piece.bounds(), &tf.id, static_cast<int>(f), {}, -1, {}, {}});
  }
  return blockers;
}

// One search for sight between one set of edges and one set of target
// shapes, past `blockers` (sight_blockers over an area holding both): in
// phase 1, sample lines, nearest pair first; in phase 2, every line through
// two critical points; else what blocks the most direct line is named.
// Kept while it runs: the features each body and target is in, the targets'
// discs, and the blocker that refused the last line.
class SightSearch {
 public:
  SightSearch(std::vector<Blocker>& blockers, const Views& view_set, const std::vector<Target>& targets,
              const Settings& settings, SightDetail detail);
  SightAnswer run();

 private:
  // Pairs of an edge and a target, with their distance.
  struct Pair {
    double d;
    std::size_t v, t;
  };
  std::vector<int> features_overlapping(const Polygon& body) const;
  // Terrain the viewer's stand or the target is inside does not block (see_out_of_own_feature).
  bool excused(const Blocker& b, const Viewpoint& v, const Target& t) const {
    if (b.feature < 0) return false;
    const auto& a = body_in_[v.body];
    const auto& c = target_in_[static_cast<std::size_t>(&t - targets_.data())];
    return std::find(a.begin(), a.end(), b.feature) != a.end() || std::find(c.begin(), c.end(), b.feature) != c.end();
  }
  int first_blocker(const Segment& s, const Viewpoint& v, const Target& t) const;
  // Every edge-target pair has a blocker, not excused, lying across all its
  // lines (shadows()): no line the search tries can be clear.
  bool all_shadowed();
  bool clear(const Segment& s, const Viewpoint& v, const Target& t);
  // Does the line from p to q leave the edge forwards (outward normal perp(b - a))?
  static bool forward(const Viewpoint& v, Vec2 p, Vec2 q) {
    Vec2 n = perp(v.edge.b - v.edge.a);
    return dot(q - p, n) > 1e-9 * length(n);
  }
  SightAnswer found(const Viewpoint& v, const Target& t, Segment s) const;
  std::optional<Segment> sample(const Viewpoint& v, std::size_t ti);
  std::size_t nearest_pair() const;
  std::vector<Pair> pairs_nearest_first() const;
  std::optional<Segment> critical_line(const Viewpoint& v, const Target& t);
  SightAnswer not_visible(const Pair& nearest) const;

  std::vector<Blocker>& blockers_;
  const std::vector<Viewpoint>& views_;
  const std::vector<Body>& bodies_;
  const std::vector<Target>& targets_;
  const Settings& settings_;
  SightDetail detail_;
  std::vector<std::vector<int>> body_in_, target_in_;  // features each body and target is inside
  std::vector<Vec2> centroid_;   // each target's (the last sample aimed at)
  std::vector<double> radius_;   // a disc about it holding the whole target
  std::size_t refused_last_;     // the blocker that refused the last line (blockers.size(): none)
};

SightSearch::SightSearch(std::vector<Blocker>& blockers, const Views& view_set, const std::vector<Target>& targets,
                         const Settings& settings, SightDetail detail)
    : blockers_(blockers),
      views_(view_set.edges),
      bodies_(view_set.bodies),
      targets_(targets),
      settings_(settings),
      detail_(detail),
      centroid_(targets.size()),
      radius_(targets.size(), 0.0),
      refused_last_(blockers.size()) {
  body_in_.reserve(bodies_.size());
  target_in_.reserve(targets_.size());
  for (const auto& b : bodies_) body_in_.push_back(features_overlapping(b.poly));
  for (const auto& t : targets_) target_in_.push_back(features_overlapping(t.poly));
  // Each target's disc holds its vertices, hence their convex hull.
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    const std::vector<Vec2>& pts = targets_[t].poly.points;
    Vec2 c{0, 0};
    for (Vec2 p : pts) c += p;
    centroid_[t] = c / static_cast<double>(pts.size());
    for (Vec2 p : pts) radius_[t] = std::max(radius_[t], distance(p, centroid_[t]));
  }
}

// Features a viewpoint's stand or a target is inside (overlaps), which do
// not block its own lines when see_out_of_own_feature is set.
std::vector<int> SightSearch::features_overlapping(const Polygon& body) const {
  std::vector<int> out;
  if (!settings_.see_out_of_own_feature) return out;
  const Aabb body_box = body.bounds();
  for (const Blocker& b : blockers_)
    if (b.feature >= 0 && b.box.overlaps(body_box) && polygons_overlap(body, b.poly)) out.push_back(b.feature);
  return out;
}

// The first blocker a segment crosses (its index), or -1.
int SightSearch::first_blocker(const Segment& s, const Viewpoint& v, const Target& t) const {
  Aabb sb = s.bounds();
  const LineTest line(s);
  int best = -1;
  double best_t = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < blockers_.size(); ++i) {
    const Blocker& b = blockers_[i];
    if (!b.box.overlaps(sb) || line.far_from(b.box, kLineTestMargin)) continue;
    if (!crosses_interior(s, b.poly, kSightTolerance)) continue;
    if (excused(b, v, t)) continue;
    double tt = raycast(s, b.poly).value_or(0);
    if (tt < best_t) {
      best_t = tt;
      best = static_cast<int>(i);
    }
  }
  return best;
}

bool SightSearch::all_shadowed() {
  for (const Viewpoint& v : views_)
    for (const Target& t : targets_) {
      const Aabb between = v.edge.bounds().merged(t.poly.bounds());
      bool shadowed = false;
      for (std::size_t i = 0; i < blockers_.size() && !shadowed; ++i) {
        Blocker& b = blockers_[i];
        shadowed = b.box.overlaps(between) && !excused(b, v, t) && shadows(b, v.edge, t.poly);
      }
      if (!shadowed) return false;
    }
  return true;
}

// Clear: crosses no blocker's interior. A line that only touches blockers
// may still run along the seam between two touching stands, or through the
// point where two stands meet: that is no gap to see through. So when it
// touches two or more, it is blocked if nudging it either way sideways
// runs into one of them.
//
// Neighbouring lines (the samples of one pair, the critical lines) are
// mostly refused by the same blocker, so the one that refused the last line
// is asked first: any blocker crossed makes the line not clear, so asking
// it first changes no answer, and saves the scan up to it.
bool SightSearch::clear(const Segment& s, const Viewpoint& v, const Target& t) {
  Aabb sb = s.bounds().inflated(1e-6);
  const LineTest line(s);
  auto near = [&](const Blocker& b) {
    return b.box.overlaps(sb) && !line.far_from(b.box, kLineTestMargin) && !excused(b, v, t);
  };
  const std::size_t first = refused_last_;
  if (first < blockers_.size() && near(blockers_[first]) && crosses(s, blockers_[first])) return false;
  std::vector<const Blocker*> touching;
  for (std::size_t i = 0; i < blockers_.size(); ++i) {
    Blocker& b = blockers_[i];
    if (!near(b)) continue;
    if (i != first && crosses(s, b)) {
      refused_last_ = i;
      return false;
    }
    if (distance(s, b.poly) <= 1e-7) touching.push_back(&b);
  }
  if (touching.size() < 2) return true;
  Vec2 n = normalized(perp(s.b - s.a)) * 1e-5;
  auto hits = [&](Vec2 shift) {
    Segment moved{s.a + shift, s.b + shift};
    for (const Blocker* b : touching)
      if (crosses_interior(moved, b->poly, 1e-7)) return true;
    return false;
  };
  return !(hits(n) && hits(-n));
}

// The answer for a clear line: reported up to where it first meets the target.
SightAnswer SightSearch::found(const Viewpoint& v, const Target& t, Segment s) const {
  SightAnswer ans;
  ans.visible = true;
  if (detail_ == SightDetail::WhetherOnly) return ans;
  if (auto hit = raycast(s, t.poly)) s.b = s.a + (s.b - s.a) * *hit;
  ans.line = s;
  ans.reason = fmt::format("a clear line runs from {}'s edge at {} to {} at {} ({})", bodies_[v.body].label.text(),
                           at(s.a), t.label.text(), at(s.b), format_measure(s.length(), "cm"));
  return ans;
}

// Phase 1 for one pair: sample lines from five points of the edge to the
// target's corners and centroid.
std::optional<Segment> SightSearch::sample(const Viewpoint& v, std::size_t ti) {
  const Target& t = targets_[ti];
  for (double f : {0.5, 0.0, 1.0, 0.25, 0.75}) {
    Vec2 p = v.edge.a + (v.edge.b - v.edge.a) * f;
    for (Vec2 q : t.poly.points)
      if (forward(v, p, q) && clear({p, q}, v, t)) return Segment{p, q};
    if (forward(v, p, centroid_[ti]) && clear({p, centroid_[ti]}, v, t)) return Segment{p, centroid_[ti]};
  }
  return std::nullopt;
}

// Usually the nearest pair already has a clear sample line. So, with few
// pairs (n <= kLazyPairs), it is found first without measuring every pair
// exactly: pairs are measured in order of a lower bound (edge to target
// disc) until the next bound exceeds the nearest distance measured. Among
// pairs as near, the first listed (edge by edge, target by target) is the
// one std::sort in pairs_nearest_first puts first: libstdc++ sorts up to 16
// elements by insertion, which keeps ties in order. Pair k is edge k / nt and
// target k % nt; gives n_pairs when there are none.
std::size_t SightSearch::nearest_pair() const {
  const std::size_t nt = targets_.size(), n_pairs = views_.size() * nt;
  std::array<double, kLazyPairs> bound{};
  std::array<std::size_t, kLazyPairs> by_bound{};
  for (std::size_t k = 0; k < n_pairs; ++k) {
    bound[k] = distance(centroid_[k % nt], views_[k / nt].edge) - radius_[k % nt] - kDiscSlack;
    by_bound[k] = k;
  }
  std::sort(by_bound.begin(), by_bound.begin() + static_cast<std::ptrdiff_t>(n_pairs),
            [&](std::size_t a, std::size_t b) { return bound[a] < bound[b]; });
  std::size_t nearest = n_pairs;
  double nearest_d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n_pairs; ++i) {
    const std::size_t k = by_bound[i];
    if (bound[k] > nearest_d) break;
    const double d = distance(views_[k / nt].edge, targets_[k % nt].poly);
    if (d < nearest_d || (d == nearest_d && k < nearest)) {
      nearest_d = d;
      nearest = k;
    }
  }
  return nearest;
}

// Every pair, nearest first: the likeliest to be clear and the most telling.
std::vector<SightSearch::Pair> SightSearch::pairs_nearest_first() const {
  std::vector<Pair> pairs;
  pairs.reserve(views_.size() * targets_.size());
  for (std::size_t v = 0; v < views_.size(); ++v)
    for (std::size_t t = 0; t < targets_.size(); ++t)
      pairs.push_back({distance(views_[v].edge, targets_[t].poly), v, t});
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.d < b.d; });
  return pairs;
}

// Phase 2 for one pair: every line through two critical points (the edge's
// ends, the target's corners, the blockers' corners between them), from
// where it meets the edge to where it first meets the target.
std::optional<Segment> SightSearch::critical_line(const Viewpoint& v, const Target& t) {
  Aabb local = v.edge.bounds().merged(t.poly.bounds());
  std::vector<Vec2> pts{v.edge.a, v.edge.b};
  pts.insert(pts.end(), t.poly.points.begin(), t.poly.points.end());
  for (const Blocker& b : blockers_)
    if (b.box.overlaps(local))
      for (Vec2 p : b.poly.points)
        if (local.contains(p)) pts.push_back(p);
  // The edge and the points are read into locals once: the inner loop runs
  // for every pair of points and is the search's hottest.
  const Vec2 a = v.edge.a, e = v.edge.b - a;
  const Vec2* const pt = pts.data();
  const std::size_t n = pts.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 from = pt[i], from_a = from - a;
    for (std::size_t j = i + 1; j < n; ++j) {
      Vec2 d = pt[j] - from;
      if (length_squared(d) < 1e-18) continue;
      double den = cross(e, d);
      if (std::abs(den) < 1e-12) continue;
      // Where the line meets the viewer edge.
      double s = cross(from_a, d) / den;
      if (s < -1e-12 || s > 1 + 1e-12) continue;
      Vec2 p = a + e * std::clamp(s, 0.0, 1.0);
      if (dot(d, perp(e)) < 0) d = -d;
      // Where the ray from p along d first meets the target.
      Segment ray{p, p + d * (1000.0 / length(d))};
      auto hit = raycast(ray, t.poly);
      if (!hit) continue;
      Vec2 q = ray.a + (ray.b - ray.a) * *hit;
      if (!forward(v, p, q)) continue;
      if (clear({p, q}, v, t)) return Segment{p, q};
    }
  }
  return std::nullopt;
}

// Not visible: name what blocks the most direct line (nearest pair, closest points).
SightAnswer SightSearch::not_visible(const Pair& nearest) const {
  SightAnswer ans;
  if (detail_ == SightDetail::WhetherOnly) return ans;
  const Viewpoint& v = views_[nearest.v];
  const Target& t = targets_[nearest.t];
  Vec2 p = (v.edge.a + v.edge.b) / 2, q = centroid_[nearest.t];
  Segment direct{p, q};
  int b = forward(v, p, q) ? first_blocker(direct, v, t) : -1;
  if (b >= 0) {
    ans.blocked_by = label(blockers_[static_cast<std::size_t>(b)]);
    ans.reason = fmt::format("no clear line: every line from an edge that may see is blocked; the most direct, from "
                             "{} to {}, crosses {}",
                             bodies_[v.body].label.text(), t.label.text(), ans.blocked_by);
  } else {
    ans.blocked_by = "out of view";
    ans.reason = fmt::format("no clear line: {} is not in front of any edge that may see, or every line is blocked",
                             t.label.text());
  }
  return ans;
}

SightAnswer SightSearch::run() {
  const std::size_t nt = targets_.size(), n_pairs = views_.size() * nt;
  // The pair whose sample lines were tried already (n_pairs: none). A line
  // refused once is refused again (which blocker is asked first changes no
  // answer), so phase 1 does not try them twice.
  std::size_t sampled = n_pairs;
  if (n_pairs <= kLazyPairs) {
    const std::size_t nearest = nearest_pair();
    if (nearest < n_pairs) {
      if (auto s = sample(views_[nearest / nt], nearest % nt))
        return found(views_[nearest / nt], targets_[nearest % nt], *s);
      sampled = nearest;
    }
  }
  if (all_shadowed()) {
    if (detail_ == SightDetail::WhetherOnly) return SightAnswer{};
    return not_visible(pairs_nearest_first().front());
  }
  const std::vector<Pair> pairs = pairs_nearest_first();
  // Phase 1: sample lines.
  for (const Pair& pr : pairs)
    if (pr.v * nt + pr.t != sampled)
      if (auto s = sample(views_[pr.v], pr.t)) return found(views_[pr.v], targets_[pr.t], *s);
  // Phase 2: every line through two critical points.
  for (const Pair& pr : pairs)
    if (auto s = critical_line(views_[pr.v], targets_[pr.t])) return found(views_[pr.v], targets_[pr.t], *s);
  return not_visible(pairs[0]);
}

// Sight between one set of edges and one set of target shapes, past
// `blockers` (sight_blockers over an area holding both).
SightAnswer search(std::vector<Blocker>& blockers, const Views& view_set, const std::vector<Target>& targets,
                   const Settings& settings, SightDetail detail = SightDetail::Full) {
  if (view_set.edges.empty() || targets.empty()) {
    SightAnswer ans;
    ans.reason = "no stand to see from or to";
    ans.blocked_by = "nothing to see";
    return ans;
  }
  return SightSearch(blockers, view_set, targets, settings, detail).run();
}

SightAnswer solve(const Battlefield& bf, const Views& view_set, const std::vector<Target>& targets,
                  const Excluded& exclude_units, const Settings& settings) {
  if (view_set.edges.empty() || targets.empty()) {
    std::vector<Blocker> none;
    return search(none, view_set, targets, settings);
  }
  std::vector<Blocker> blockers = sight_blockers(bf, sight_area(view_set, targets), exclude_units);
  return search(blockers, view_set, targets, settings);
}

// Every stand's edges that may see, or those of stand `only` alone.
Views unit_views(const Unit& u, const StandRects& rects, const Settings& settings, bool front_only,
                 std::size_t only = static_cast<std::size_t>(-1)) {
  Views out;
  bool all_round = u.sees_all_round && !front_only;
  for (std::size_t s = 0; s < u.stands.size(); ++s) {
    if (only != static_cast<std::size_t>(-1) && s != only) continue;
    auto c = rects[s].corners();
    const std::size_t body = out.bodies.size();
    const std::size_t first_edge = out.edges.size();
    for (int k = 0; k < (all_round ? 4 : 1); ++k) {
      Segment e{c[k], c[(k + 1) % 4]};
      if (all_round) {
        // Free edge: no other stand of the unit against its middle.
        Vec2 mid = (e.a + e.b) / 2;
        bool covered = false;
        for (std::size_t o = 0; o < u.stands.size() && !covered; ++o)
          if (o != s && distance(mid, rects[o]) <= settings.contact_tolerance) covered = true;
        if (covered) continue;
      }
      out.edges.push_back({e, body});
    }
    if (out.edges.size() > first_edge)
      out.bodies.push_back({Polygon{{c.begin(), c.end()}}, {&u.id, static_cast<int>(s)}});
  }
  return out;
}

std::vector<Target> unit_targets(const Unit& u, const StandRects& rects) {
  std::vector<Target> out;
  out.reserve(u.stands.size());
  for (std::size_t s = 0; s < u.stands.size(); ++s)
    out.push_back({to_polygon(rects[s]), {&u.id, static_cast<int>(s)}});
  return out;
}

}  // namespace

std::vector<Segment> sight_edges(const Unit& viewer, const Settings& settings, bool front_only) {
  std::vector<Segment> out;
  const StandRects rects(viewer);
  for (const auto& v : unit_views(viewer, rects, settings, front_only).edges) out.push_back(v.edge);
  return out;
}

// The nearest pair of stands, as a scan of every pair in order finds it
// (stand_pairs.hpp skips pairs that cannot be nearer).
ClosestPoints unit_distance(const Unit& a, const Unit& b) { return nearest_stands(a, b).points; }

Vec2 direction_between(const Unit& from, const Unit& to) {
  const ClosestPoints cp = unit_distance(from, to);
  Vec2 dir = cp.on_b - cp.on_a;
  if (length(dir) < 1e-9) {
    Vec2 a{0, 0}, b{0, 0};
    for (const Stand& s : from.stands) a += s.pose.position / static_cast<double>(from.stands.size());
    for (const Stand& s : to.stands) b += s.pose.position / static_cast<double>(to.stands.size());
    dir = b - a;
  }
  return dir / std::max(length(dir), 1e-12);
}

ClosestPoints character_distance(const Character& c, const Unit& u) {
  ClosestPoints best{{}, {}, std::numeric_limits<double>::infinity()};
  if (c.stand_size) {
    OrientedRect cr = OrientedRect::from_pose(c.pose, c.stand_size->x, c.stand_size->y);
    RotMemo rot;
    for (std::size_t j = 0; j < u.stands.size(); ++j) {
      ClosestPoints cp = closest_points(cr, u.footprint(j, rot));
      if (cp.distance < best.distance) best = cp;
    }
    return best;
  }
  double radius = c.base_diameter / 2;
  RotMemo rot;
  for (std::size_t j = 0; j < u.stands.size(); ++j) {
    OrientedRect r = u.footprint(j, rot);
    Vec2 l = r.rot.apply_inverse(c.pose.position - r.center);
    l.x = std::clamp(l.x, -r.half.x, r.half.x);
    l.y = std::clamp(l.y, -r.half.y, r.half.y);
    Vec2 q = r.center + r.rot.apply(l);
    double d = distance(c.pose.position, q);
    ClosestPoints cp;
    if (d <= radius) {
      cp = {q, q, 0};
    } else {
      cp = {c.pose.position + (q - c.pose.position) * (radius / d), q, d - radius};
    }
    if (cp.distance < best.distance) best = cp;
  }
  return best;
}

SightAnswer line_of_sight(const Battlefield& bf, const Unit& viewer, const Unit& target, const Settings& settings,
                          bool front_only) {
  const StandRects rv(viewer), rt(target);
  SightAnswer a = solve(bf, unit_views(viewer, rv, settings, front_only), unit_targets(target, rt),
                        Excluded{&viewer.id, &target.id}, settings);
  a.distance = nearest_stands(viewer, rv, target, rt).points.distance;
  a.reason = fmt::format("{} {} {}: {}", viewer.id, a.visible ? "sees" : "cannot see", target.id, a.reason);
  return a;
}

std::vector<char> stands_that_see(const Battlefield& bf, const Unit& viewer, const Unit& target,
                                  const Settings& settings, const std::vector<StandIndex>& asked) {
  std::vector<char> out(viewer.stands.size(), 0);
  if (asked.empty() || target.stands.empty()) return out;
  const StandRects rv(viewer), rt(target);
  const std::vector<Target> targets = unit_targets(target, rt);
  const Views all = unit_views(viewer, rv, settings, true);
  if (all.edges.empty()) return out;
  std::vector<Blocker> blockers = sight_blockers(bf, sight_area(all, targets), Excluded{&viewer.id, &target.id});
  for (StandIndex s : asked) {
    if (!s.within(viewer.stands.size())) continue;
    const Views one = unit_views(viewer, rv, settings, true, s.slot());
    out[s.slot()] =
        !one.edges.empty() && search(blockers, one, targets, settings, SightDetail::WhetherOnly).visible;
  }
  return out;
}

SightAnswer line_of_sight(const Battlefield& bf, const Character& viewer, const Unit& target, const Settings& settings) {
  Views views;
  views.bodies.push_back({character_shape(viewer), {&viewer.id, -1}});
  for (const Segment& e : polygon_edges_cw(views.bodies[0].poly)) views.edges.push_back({e, 0});
  const StandRects rt(target);
  SightAnswer a = solve(bf, views, unit_targets(target, rt), Excluded{&target.id, nullptr}, settings);
  a.distance = character_distance(viewer, target).distance;
  a.reason = fmt::format("{} {} {}: {}", viewer.id, a.visible ? "sees" : "cannot see", target.id, a.reason);
  return a;
}

SightAnswer line_of_sight(const Battlefield& bf, const Unit& viewer, const Character& target, const Settings& settings,
                          bool front_only) {
  std::vector<Target> targets{{character_shape(target), {&target.id, -1}}};
  const StandRects rv(viewer);
  SightAnswer a = solve(bf, unit_views(viewer, rv, settings, front_only), targets, Excluded{&viewer.id, nullptr},
                        settings);
  a.distance = character_distance(target, viewer).distance;
  a.reason = fmt::format("{} {} {}: {}", viewer.id, a.visible ? "sees" : "cannot see", target.id, a.reason);
  return a;
}

}  // namespace referee::warmaster
