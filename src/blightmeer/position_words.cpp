#include <fmt/format.h>

#include "referee/blightmeer/model.hpp"

namespace referee::blightmeer {

std::string position_words(Vec3 p, int decimals) {
  return fmt::format("({:.{}f}, {:.{}f}, {:.{}f})", p.x, decimals, p.y, decimals, p.z, decimals);
}

}  // namespace referee::blightmeer
