#include "referee/core/files.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "referee/core/errors.hpp"

namespace referee {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const std::string& path, const std::string& content) {
  std::string tmp = path + ".tmp-referee";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, "cannot write the file");
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path, "cannot write the file");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError(path, "cannot write the file: " + ec.message());
  }
}

}  // namespace referee
