// Shared by the fuzz targets: bundled scenarios to play inputs against, and
// the checks a fuzzer cannot make by crashing alone.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "referee/core/files.hpp"

namespace referee::fuzz {

// A file of the source tree (a bundled scenario), read once at start-up.
inline std::string source_file(const std::string& relative) {
  return read_text_file(std::string(REFEREE_SOURCE_DIR) + "/" + relative);
}

// Aborts (a finding) when `svg` holds a character XML 1.0 forbids.
inline void require_xml_characters(std::string_view svg) {
  for (char c : svg) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') std::abort();
  }
}

}  // namespace referee::fuzz
