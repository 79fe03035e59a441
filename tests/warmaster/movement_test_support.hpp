// Small battlefields for the movement tests, written as the file format so
// the tests read like scenarios.
#pragma once

#include <string>

#include "referee/warmaster/battle/battlefield_json.hpp"

namespace referee::warmaster::testing {

// A 180 x 120 table with the given terrain and units for army 0 and army 1
// (JSON arrays as text).
inline Battlefield field(const std::string& terrain, const std::string& units0, const std::string& units1 = "[]",
                         const std::string& characters0 = "[]") {
  std::string text = R"({"terrain": )" + terrain + R"(, "armies": [{"name": "a", "units": )" + units0 +
                     R"(, "characters": )" + characters0 + R"(}, {"name": "b", "units": )" + units1 + "}]}";
  return parse_battlefield(Json::parse(text));
}

inline MoveRequest request(const Battlefield& bf, const std::string& text) {
  return parse_move_request(Json::parse(text), bf);
}

}  // namespace referee::warmaster::testing
