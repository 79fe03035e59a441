// A Warmaster battle file as the commands load it: its warnings (units
// deployed in no formation, docs/rulings.md#warmaster-deployment) go to
// standard error, so that an answer on standard output stays one JSON value.
#pragma once

#include <cstdint>
#include <iostream>
#include <string>

#include "referee/warmaster/battle/battlefield_json.hpp"

namespace referee::cli {

inline warmaster::BattlefieldFile load_warmaster_battle(const std::string& path, std::uint64_t max_bytes) {
  warmaster::BattlefieldFile f = warmaster::load_battlefield_file(path, max_bytes);
  for (const Ruling& w : f.warnings) std::cerr << "referee: warning: " << path << ": " << w.rule << ": " << w.reason << "\n";
  return f;
}

}  // namespace referee::cli
