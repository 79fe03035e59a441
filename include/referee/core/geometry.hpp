// Plain 2D value types and the hot geometry kernels (Box2D style: value types,
// pure functions, queries done in a local frame). Units are whatever the rule
// system measures in: centimetres for Warmaster, inches for Blightmeer.
//
// Angles: a facing is in degrees, compass style. 0 faces +y, 90 faces +x.
// This matches how players describe a table seen from above, with the
// "south" player's army facing 0.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

namespace referee {

inline constexpr double kPi = 3.14159265358979323846;

struct Vec2 {
  double x = 0;
  double y = 0;

  constexpr Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
  constexpr Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
  constexpr Vec2 operator-() const { return {-x, -y}; }
  constexpr Vec2 operator*(double s) const { return {x * s, y * s}; }
  constexpr Vec2 operator/(double s) const { return {x / s, y / s}; }
  constexpr Vec2& operator+=(Vec2 o) { x += o.x; y += o.y; return *this; }
  constexpr Vec2& operator-=(Vec2 o) { x -= o.x; y -= o.y; return *this; }
  constexpr bool operator==(const Vec2&) const = default;
};

constexpr Vec2 operator*(double s, Vec2 v) { return {v.x * s, v.y * s}; }
constexpr double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z of the 3D cross product: > 0 when b is counter-clockwise from a.
constexpr double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
constexpr Vec2 perp(Vec2 a) { return {-a.y, a.x}; }  // counter-clockwise
// sqrt of the dot product: std::hypot is several times slower, and its
// overflow care is not needed at table scale.
inline double length(Vec2 a) { return std::sqrt(dot(a, a)); }
constexpr double length_squared(Vec2 a) { return dot(a, a); }
inline double distance(Vec2 a, Vec2 b) { return length(b - a); }
inline Vec2 normalized(Vec2 a) {
  double l = length(a);
  return l > 0 ? a / l : Vec2{0, 0};
}
inline bool is_finite(Vec2 a) { return std::isfinite(a.x) && std::isfinite(a.y); }

inline double deg_to_rad(double d) { return d * kPi / 180.0; }
inline double rad_to_deg(double r) { return r * 180.0 / kPi; }
// Normalises any angle in degrees to [0, 360).
double normalize_degrees(double d);
// Smallest signed difference b - a in degrees, in (-180, 180].
double angle_difference_degrees(double a, double b);

// A rotation stored as cosine/sine of the compass facing.
// apply() maps local (right, forward) coordinates into world coordinates.
struct Rot {
  double c = 1;  // cos(facing)
  double s = 0;  // sin(facing)

  // cos and sin of the facing in radians, bit for bit. Out of line: whole
  // degrees come from a constant table (see geometry.cpp); no state is kept.
  static Rot from_degrees(double facing_deg);
  // Local +x is the stand's right, local +y is its front.
  constexpr Vec2 apply(Vec2 local) const { return {c * local.x + s * local.y, -s * local.x + c * local.y}; }
  constexpr Vec2 apply_inverse(Vec2 world) const { return {c * world.x - s * world.y, s * world.x + c * world.y}; }
  constexpr Vec2 forward() const { return {s, c}; }
  constexpr Vec2 right() const { return {c, -s}; }
  constexpr bool operator==(const Rot&) const = default;
};

// The last rotation a caller worked out, kept by the caller (Box2D style: an
// explicit cache, no hidden state). Stands of a unit nearly always share a
// facing, so a loop over them asks for the same angle again and again; for
// the same bits of angle it gives back the Rot it gave before, which is
// exactly what Rot::from_degrees gives. A plain value: one per loop or call.
class RotMemo {
 public:
  Rot operator()(double facing_deg) {
    std::uint64_t bits;
    std::memcpy(&bits, &facing_deg, sizeof bits);
    if (bits != bits_) {
      rot_ = Rot::from_degrees(facing_deg);
      bits_ = bits;
    }
    return rot_;
  }

 private:
  std::uint64_t bits_ = 0;  // +0.0, whose rotation is exactly (1, 0)
  Rot rot_{1.0, 0.0};
};

struct Pose {
  Vec2 position;         // centre of the footprint
  double facing_deg = 0; // compass degrees
  constexpr bool operator==(const Pose&) const = default;
};

struct Aabb {
  Vec2 min{0, 0};
  Vec2 max{0, 0};

  constexpr bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && o.min.x <= max.x && min.y <= o.max.y && o.min.y <= max.y;
  }
  constexpr bool contains(Vec2 p) const { return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y; }
  constexpr Aabb inflated(double d) const { return {{min.x - d, min.y - d}, {max.x + d, max.y + d}}; }
  constexpr Aabb merged(const Aabb& o) const {
    return {{std::min(min.x, o.min.x), std::min(min.y, o.min.y)}, {std::max(max.x, o.max.x), std::max(max.y, o.max.y)}};
  }
  static Aabb of_points(std::span<const Vec2> pts);
};

struct Segment {
  Vec2 a;
  Vec2 b;
  double length() const { return distance(a, b); }
  Aabb bounds() const;
};

// An oriented rectangle: a stand's footprint. `half` is half the width (along
// the stand's right axis, i.e. its frontage for a front-facing stand) and half
// the depth (along its forward axis).
struct OrientedRect {
  Vec2 center;
  Vec2 half;  // {half width, half depth}
  Rot rot;

  constexpr bool operator==(const OrientedRect&) const = default;
  static OrientedRect from_pose(const Pose& p, double width, double depth) {
    return {p.position, {width / 2, depth / 2}, Rot::from_degrees(p.facing_deg)};
  }
  static OrientedRect from_pose(const Pose& p, double width, double depth, RotMemo& memo) {
    return {p.position, {width / 2, depth / 2}, memo(p.facing_deg)};
  }
  // Corners in order: front-left, front-right, rear-right, rear-left.
  std::array<Vec2, 4> corners() const;
  Aabb bounds() const;
  Segment front_edge() const;
  bool contains(Vec2 p, double tolerance = 0) const;
};

// A simple polygon in either winding. Closed implicitly (last joins first).
struct Polygon {
  std::vector<Vec2> points;
  Aabb bounds() const { return Aabb::of_points(points); }
  double signed_area() const;  // > 0 when counter-clockwise
};

// --- Kernels -----------------------------------------------------------------
// `tolerance` throughout: shapes whose interiors overlap by no more than this
// are touching, not overlapping. Warmaster uses this for "touching is not
// overlapping".

// Separating-axis test on the four candidate axes.
bool overlaps(const OrientedRect& a, const OrientedRect& b, double tolerance = 1e-6);
// Penetration depth along the best separating axis (<= 0 when apart).
double penetration(const OrientedRect& a, const OrientedRect& b);

struct ClosestPoints {
  Vec2 on_a;
  Vec2 on_b;
  double distance = 0;  // 0 when the shapes overlap
};

double distance(const OrientedRect& a, const OrientedRect& b);
// distance(a, b) <= d (d >= 0), answered by the separating axes alone when
// they settle it: the widest gap along an axis never exceeds the distance.
bool within_distance(const OrientedRect& a, const OrientedRect& b, double d);
ClosestPoints closest_points(const OrientedRect& a, const OrientedRect& b);
double distance(Vec2 p, const Segment& s);
Vec2 closest_point(Vec2 p, const Segment& s);
ClosestPoints closest_points(const Segment& s, const Segment& t);
double distance(Vec2 p, const OrientedRect& r);
// Distance from a point to a polygon's boundary, 0 when inside.
double distance(Vec2 p, const Polygon& poly);
double distance(const OrientedRect& r, const Polygon& poly);
double distance(const Segment& s, const Polygon& poly);
double distance(const Segment& s, const OrientedRect& r);

bool segments_intersect(const Segment& s, const Segment& t);
// Parameter t in [0,1] along s of the first crossing with t, if any.
std::optional<double> segment_intersection(const Segment& s, const Segment& t);
// Parameter t in [0,1] along s where it first enters the rectangle (0 if it starts inside).
std::optional<double> raycast(const Segment& s, const OrientedRect& r);
// How deep the segment reaches into the rectangle: the largest distance from
// the outline of any of its points inside the rectangle; 0 or less when it
// misses or only touches. Exact up to rounding: in the rectangle's frame that
// distance, min(half.x - |x|, half.y - |y|), is concave and piecewise linear
// along the segment, so its largest value is at an end or at a kink.
double segment_depth(const Segment& s, const OrientedRect& r);
std::optional<double> raycast(const Segment& s, const Polygon& poly);

bool contains(const Polygon& poly, Vec2 p);  // boundary counts as inside
// True when the interiors overlap by more than `tolerance`.
bool overlaps(const OrientedRect& r, const Polygon& poly, double tolerance = 1e-6);
// Crosses or lies inside. Rejects a segment whose bounds miss the polygon's
// before any edge is looked at.
bool intersects(const Segment& s, const Polygon& poly);
bool intersects(const Segment& s, const OrientedRect& r);

// True when no two non-adjacent edges touch and the polygon has >= 3 distinct points.
bool is_simple(const Polygon& poly);
// The polygon offset outward by `d` with rounded joins approximated by
// `arc_steps` segments per corner. Used to inflate obstacles by a clearance.
Polygon inflate_convex(std::span<const Vec2> convex_ccw, double d, int arc_steps = 4);
Polygon convex_hull(std::vector<Vec2> pts);
Polygon to_polygon(const OrientedRect& r);

// --- Spatial index -----------------------------------------------------------
// A uniform grid of ids keyed by bounding box. Queries return candidates whose
// boxes may overlap; callers run the exact kernel. Ids are small integers
// chosen by the caller. The grid is rebuilt, not updated, when the scene changes:
// scenes are small (hundreds of items) and rebuilding is cheaper than bookkeeping.
//
// Inserts are only recorded; lay_out() then lays the cells out flat
// (compressed rows: one offset per cell into one array of entries), so
// building an index costs a few allocations however many cells a box covers.
// The builder calls lay_out() after its inserts; a query of an index with
// inserts not laid out is a bug (asserted in debug builds; a release build
// answers it by scanning every box, the same ids, slowly). Threads: once laid
// out, const queries may run on several threads at once; reset, insert, clear
// and lay_out may not run alongside anything else on the same index.
class GridIndex {
 public:
  GridIndex() = default;
  GridIndex(Aabb world, double cell_size);

  // Empty, over a new world with new cells, keeping the storage already
  // grown (an index made again and again, as a transit scene's, allocates
  // nothing once warm).
  void reset(Aabb world, double cell_size);
  void insert(int id, const Aabb& box);
  void clear();
  // Lays the cells out over the boxes inserted; nothing to do when they are
  // laid out already. Queries need it after the last insert.
  void lay_out();
  bool laid_out() const { return laid_out_; }
  // Appends the ids whose boxes overlap `box` to `out`, each once, in ascending order.
  void query(const Aabb& box, std::vector<int>& out) const;
  std::vector<int> query(const Aabb& box) const;
  std::size_t size() const { return boxes_.size(); }

 private:
  // So few entries are scanned in order: cheaper than laying out cells.
  static constexpr std::size_t kScanUpTo = 24;
  struct Entry {
    int id;
    Aabb box;
  };
  struct Cells {  // the cells an entry lies in, first to last; outside: kept in outside_ instead
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool outside = false;
  };
  int cell_x(double x) const;
  int cell_y(double y) const;
  bool inside_world(const Aabb& box) const;
  void scan(const Aabb& box, std::vector<int>& out) const;

  Aabb world_{};
  double cell_ = 1;
  int nx_ = 0;
  int ny_ = 0;
  std::vector<Entry> boxes_;
  bool ids_ascending_ = true;  // ids were inserted in ascending order: entry order is id order
  bool laid_out_ = true;           // the cells below hold every entry of boxes_
  std::vector<int> cell_start_;    // nx_ * ny_ + 1 offsets into cell_entries_
  std::vector<int> cell_entries_;  // indices into boxes_, cell by cell
  std::vector<int> outside_;       // entries that reach beyond the world box
  std::vector<Cells> cells_of_;    // per entry
  std::vector<int> fill_;          // lay_out's cursor per cell (a member so its storage is kept)
};

}  // namespace referee
