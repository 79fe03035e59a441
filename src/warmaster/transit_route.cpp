// Route planning under the gap rule (README readings 4 and 5).
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "referee/warmaster/transit.hpp"
#include "referee/warmaster/transit_kernels.hpp"
#include "transit_scene.hpp"

namespace referee::warmaster {

std::optional<std::vector<Pose>> TransitScene::shortest_route(const Pose& from, const Pose& to,
                                                              double max_length) const {
  std::vector<int> scratch;
  if (distance(from.position, to.position) <= max_length &&
      impl_->segment_clear(from.position, to.position, scratch))
    return std::vector<Pose>{from, to};
  return std::nullopt;
}

}  // namespace referee::warmaster
