// The move checker's index of a battlefield (movement.hpp, MoveIndex): each
// unit's bounding box, to find what lies near a move without looking at
// every unit, with a serial number that tells two states apart.
#include "referee/warmaster/movement/movement.hpp"

#include <algorithm>
#include <atomic>

#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {
Aabb unit_bounds(const Unit& u) {
  RotMemo rot;
  Aabb box = u.footprint(0, rot).bounds();
  for (std::size_t s = 1; s < u.stands.size(); ++s) box = box.merged(u.footprint(s, rot).bounds());
  return box;
}

std::uint64_t next_index_serial() {
  static std::atomic<std::uint64_t> serial{0};
  return ++serial;
}
}  // namespace

MoveIndex::MoveIndex(const Battlefield& bf) : serial_(next_index_serial()) {
  auto terrain = std::make_shared<GridIndex>(bf.table().inflated(20), 10.0);
  for (std::size_t i = 0; i < bf.terrain.size(); ++i) terrain->insert(static_cast<int>(i), bf.terrain[i].bounds);
  terrain->lay_out();
  terrain_ = std::move(terrain);
  index_units(bf, nullptr);
}

MoveIndex::MoveIndex(const Battlefield& bf, const MoveIndex& earlier)
    : terrain_(earlier.terrain_), serial_(next_index_serial()) {
  index_units(bf, &earlier);
}

// A unit's box is worked out again only when its stands differ from the
// earlier index's: footprints cost a sine and cosine per stand.
void MoveIndex::index_units(const Battlefield& bf, const MoveIndex* earlier) {
  const std::size_t n = bf.units.size();
  if (earlier && earlier->unit_boxes_.size() != n) earlier = nullptr;
  unit_boxes_.assign(n, Aabb{});
  unit_present_.assign(n, 0);
  first_pose_.assign(n + 1, 0);
  max_stand_radius_ = 0;
  std::size_t stands = 0;
  for (const Unit& u : bf.units) stands += u.stands.size();
  poses_.resize(stands);
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Unit& u = bf.units[i];
    first_pose_[i] = next;
    for (const Stand& s : u.stands) poses_[next++] = s.pose;
    if (u.stands.empty()) continue;
    unit_present_[i] = 1;
    bool same = false;
    if (earlier && earlier->unit_present_[i] &&
        earlier->first_pose_[i + 1] - earlier->first_pose_[i] == u.stands.size()) {
      same = std::equal(u.stands.begin(), u.stands.end(), earlier->poses_.begin() + static_cast<std::ptrdiff_t>(earlier->first_pose_[i]),
                        [](const Stand& s, const Pose& p) { return s.pose == p; });
    }
    unit_boxes_[i] = same ? earlier->unit_boxes_[i] : unit_bounds(u);
    max_stand_radius_ = std::max(max_stand_radius_, stand_circumradius(u));
  }
  first_pose_[n] = next;
  // The grid is laid out for every state of a game, so a few dozen units are
  // scanned instead (less than one layout costs). Cells hold about one unit
  // each, and are at least 10 cm (a unit's box spans one to four). Laid out
  // now: an index is shared, read-only, between threads.
  units_ = GridIndex();
  if (n > kScanUnitsUpTo) {
    const Aabb world = bf.table().inflated(20);
    const double area = (world.max.x - world.min.x) * (world.max.y - world.min.y);
    units_ = GridIndex(world, std::max(10.0, std::sqrt(area / static_cast<double>(n))));
    for (std::size_t i = 0; i < n; ++i)
      if (unit_present_[i]) units_.insert(static_cast<int>(i), unit_boxes_[i]);
    units_.lay_out();
  }
}

std::optional<Aabb> MoveIndex::unit_box(std::size_t i) const {
  if (i >= unit_boxes_.size() || !unit_present_[i]) return std::nullopt;
  return unit_boxes_[i];
}

void MoveIndex::units_near(const Aabb& box, std::vector<int>& out) const {
  if (unit_boxes_.size() > kScanUnitsUpTo) {
    units_.query(box, out);
    return;
  }
  for (std::size_t i = 0; i < unit_boxes_.size(); ++i)
    if (unit_present_[i] && unit_boxes_[i].overlaps(box)) out.push_back(static_cast<int>(i));
}
void MoveIndex::terrain_near(const Aabb& box, std::vector<int>& out) const { terrain_->query(box, out); }

}  // namespace referee::warmaster
