// File input and output for the command line. Output is written to a
// temporary file and renamed into place, so a failure never leaves a
// half-written file behind.
#pragma once

#include <string>

namespace referee {

std::string read_text_file(const std::string& path);  // InputError when missing
void write_file_atomic(const std::string& path, const std::string& content);

}  // namespace referee
