// Fuzzes read_text_file and write_file_atomic: any content written to a file
// in a private folder reads back the same, under the size limit or refused
// over it, and nothing but the file is left in the folder.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"

using namespace referee;

namespace {
// A private folder, removed when the fuzzer exits.
struct Folder {
  std::string path;
  Folder() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "referee-files-fuzz-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    path = tmpl;
  }
  ~Folder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};
const std::string& folder() {
  static const Folder f;
  return f.path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  const std::string path = folder() + "/out.txt";
  write_file_atomic(path, content);
  if (read_text_file(path, size) != content) std::abort();
  if (size > 0) {
    try {
      (void)read_text_file(path, size - 1);
      std::abort();  // one byte over the limit must be refused
    } catch (const InputError&) {
    }
  }
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(folder())) ++entries;
  if (entries != 1) std::abort();
  return 0;
}
