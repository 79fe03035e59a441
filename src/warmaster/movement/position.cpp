// A unit's position from the terrain (position.hpp).
#include "referee/warmaster/movement/position.hpp"

#include <fmt/format.h>

namespace referee::warmaster {

namespace {

// docs/rulings.md#warmaster-shooting-position: an obstacle a stand is
// "behind" lies in front of its front edge, this close to it.
constexpr double kBehind = 1.0;

std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

bool in_feature(const OrientedRect& r, const TerrainFeature& f, double tol) {
  if (!r.bounds().overlaps(f.bounds)) return false;
  for (const Polygon& p : f.pieces)
    if (p.points.size() >= 3 && overlaps(r, p, tol)) return true;
  return false;
}

// The obstacle lies ahead of the stand's front edge, within kBehind of it.
bool behind(const OrientedRect& r, const TerrainFeature& f) {
  const Segment front = r.front_edge();
  const Vec2 mid = (front.a + front.b) / 2;
  const Vec2 ahead = r.rot.forward();
  for (const Polygon& p : f.pieces) {
    if (p.points.size() < 3 || distance(front, p) > kBehind) continue;
    Vec2 c{0, 0};
    for (Vec2 v : p.points) c += v / static_cast<double>(p.points.size());
    if (dot(c - mid, ahead) > 0) return true;
  }
  return false;
}

}  // namespace

const char* to_string(Position p) {
  switch (p) {
    case Position::Open: return "open";
    case Position::Defended: return "defended";
    case Position::Fortified: return "fortified";
  }
  return "open";
}

std::optional<Position> position_from_string(const std::string& s) {
  for (Position p : {Position::Open, Position::Defended, Position::Fortified})
    if (s == to_string(p)) return p;
  return std::nullopt;
}

PositionAnswer position_of(const Battlefield& bf, const Unit& u, const Settings& settings) {
  if (u.fortified) return {Position::Fortified, fmt::format("{} holds a fortified position (set by the scenario)", u.id)};
  if (u.type != TroopType::Infantry || u.stands.empty())
    return {Position::Open, fmt::format("{} is in the open: only infantry take defended positions", u.id)};
  int in_dense = 0, behind_low = 0, behind_high = 0;
  std::string dense_name, low_name, high_name;
  for (std::size_t s = 0; s < u.stands.size(); ++s) {
    const OrientedRect r = u.footprint(s);
    bool dense = false, low = false, high = false;
    for (const TerrainFeature& f : bf.terrain) {
      if ((f.kind == TerrainKind::Wood || f.kind == TerrainKind::Village || f.kind == TerrainKind::BrokenGround) &&
          !dense && in_feature(r, f, settings.contact_tolerance)) {
        dense = true;
        dense_name = f.id;
      }
      if (f.kind == TerrainKind::LowObstacle && !low && behind(r, f)) {
        low = true;
        low_name = f.id;
      }
      if (f.kind == TerrainKind::HighObstacle && !high && behind(r, f)) {
        high = true;
        high_name = f.id;
      }
    }
    in_dense += dense;
    behind_low += low;
    behind_high += high;
  }
  // Half or more of its stands decide (docs/rulings.md#warmaster-shooting-position).
  const int n = static_cast<int>(u.stands.size());
  auto half = [&](int k) { return 2 * k >= n; };
  if (half(behind_high))
    return {Position::Fortified, fmt::format("{} is fortified: {} of its {} behind high obstacle {}", u.id,
                                             behind_high, plural(n, "stand", "stands"), high_name)};
  if (half(in_dense))
    return {Position::Defended,
            fmt::format("{} is defended: {} of its {} in {}", u.id, in_dense, plural(n, "stand", "stands"), dense_name)};
  if (half(behind_low + behind_high))
    return {Position::Defended, fmt::format("{} is defended: {} of its {} behind {}", u.id, behind_low + behind_high,
                                            plural(n, "stand", "stands"), low_name.empty() ? high_name : low_name)};
  return {Position::Open, fmt::format("{} is in the open (fewer than half its stands in or behind cover)", u.id)};
}

int to_hit(Position p) { return p == Position::Open ? 4 : p == Position::Defended ? 5 : 6; }

}  // namespace referee::warmaster
