// Stand-to-stand measuring between two units, for sight and initiative (not a
// public header). A stand's footprint costs a sine and a cosine, so each is
// worked out once per unit; and a pair of stands whose circumscribed discs
// are further apart than the best distance found so far cannot be nearer, so
// it is skipped without measuring. The answers are exactly those of measuring
// every pair in stand order.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/model/model.hpp"

namespace referee::warmaster {

// Slack on the disc bounds (cm): far above the rounding of a footprint's
// corners and of a measured distance, far below anything measured.
inline constexpr double kDiscSlack = 1e-6;

// "stand 1" for a unit's first stand (index 0), as the move checker's words
// name them.
inline std::string stand_label(std::size_t i) { return "stand " + std::to_string(i + 1); }
inline std::string stand_label(StandIndex i) { return stand_label(i.slot()); }

// Half the diagonal of the unit's stands: the radius of the disc about a
// stand's centre that contains the stand.
inline double stand_circumradius(const Unit& u) { return 0.5 * std::sqrt(u.width * u.width + u.depth * u.depth); }

// A box around every stand of a unit (which has some): its stand centres,
// widened by the circumradius. Cheap (no trigonometry, one square root) and
// never smaller than the stands.
inline Aabb stands_box(const Unit& u) {
  Aabb b{u.stands.front().pose.position, u.stands.front().pose.position};
  for (const Stand& s : u.stands) b = b.merged({s.pose.position, s.pose.position});
  return b.inflated(stand_circumradius(u));
}

// The footprints of a unit's stands, in stand order (Unit::footprint(i)).
// Up to eight are kept inline, so most units cost no allocation.
class StandRects {
 public:
  explicit StandRects(const Unit& u) : n_(u.stands.size()) {
    OrientedRect* out = inline_.data();
    if (n_ > inline_.size()) {
      heap_.resize(n_);
      out = heap_.data();
    }
    RotMemo rot;  // the stands nearly always share a facing
    for (std::size_t i = 0; i < n_; ++i) out[i] = u.footprint(i, rot);
    data_ = out;
  }
  StandRects(const StandRects&) = delete;
  StandRects& operator=(const StandRects&) = delete;
  std::size_t size() const { return n_; }
  const OrientedRect& operator[](std::size_t i) const { return data_[i]; }

 private:
  std::array<OrientedRect, 8> inline_{};
  std::vector<OrientedRect> heap_;
  const OrientedRect* data_ = nullptr;
  std::size_t n_ = 0;
};

// The two stands (one of each unit) nearest each other and their closest
// points: the first such pair in stand order (a's stands outer), as a scan
// keeping only strictly nearer pairs finds it. a and b none and an infinite
// distance when either unit has no stands.
struct NearestStands {
  StandIndex a = StandIndex::none();
  StandIndex b = StandIndex::none();
  ClosestPoints points{{}, {}, std::numeric_limits<double>::infinity()};
};
NearestStands nearest_stands(const Unit& a, const StandRects& ra, const Unit& b, const StandRects& rb);
inline NearestStands nearest_stands(const Unit& a, const Unit& b) {
  const StandRects ra(a), rb(b);
  return nearest_stands(a, ra, b, rb);
}

}  // namespace referee::warmaster
