// The ```json blocks of a Markdown document, in order: the examples the
// docs' tests read (docs/blightmeer.md).
#pragma once

#include <string>
#include <vector>

namespace referee::blightmeer::testing {

inline std::vector<std::string> doc_json_blocks(const std::string& md) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = md.find("```json\n", at)) != std::string::npos) {
    std::size_t end = md.find("```", at + 8);
    out.push_back(md.substr(at + 8, end - at - 8));
    at = end + 3;
  }
  return out;
}

}  // namespace referee::blightmeer::testing
