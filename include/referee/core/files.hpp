// File input and output for the command line, hardened against hostile paths
// (docs/input-limits.md):
// - input is read only from regular files, and only up to a size limit, so a
//   FIFO, /dev/zero or a huge file cannot make a command read without end;
// - output goes only to a regular file or a new one: a symbolic link, device,
//   directory or pipe at the target is refused, never written through or
//   replaced. The content is written to a temporary file with an unpredictable
//   name in the target's folder (created O_CREAT|O_EXCL|O_NOFOLLOW) and renamed
//   into place, so a failure never leaves a half-written file behind.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace referee {

// 64 MiB: far more than any battle, action list or game log needs.
inline constexpr std::uint64_t kDefaultMaxInputBytes = std::uint64_t{64} << 20;
// The environment variable that changes the input size limit (a number of bytes).
inline constexpr const char* kMaxInputBytesVariable = "REFEREE_MAX_INPUT_BYTES";

// The limit a value of REFEREE_MAX_INPUT_BYTES sets: kDefaultMaxInputBytes
// when it is null or empty, otherwise the number it gives (an InputError
// naming the variable if it is not a positive whole number). Only the
// programs' entry reads the environment (apps/referee/run.cpp, once), and
// passes the limit down to what reads files.
std::uint64_t max_input_bytes_from(const char* value);

// The whole of a regular file; an InputError naming the path when it is
// missing, not a regular file, or larger than `max_bytes`.
std::string read_text_file(const std::string& path, std::uint64_t max_bytes = kDefaultMaxInputBytes);

// Whether `path` may be written: absent, or a regular file. Otherwise an
// InputError naming it (a symbolic link, directory, device, pipe or socket).
void check_output_path(const std::string& path);

// A file's new content, written to a temporary file beside it and renamed over
// it by commit(). Until then the target is untouched; a StagedFile destroyed
// without commit() removes its temporary. Stage every output of a command
// first and commit them together, so none is written when another fails.
class StagedFile {
 public:
  StagedFile(std::string path, std::string_view content);  // InputError on any failure
  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();

  void commit();  // InputError if the target became unwritable meanwhile
  const std::string& path() const { return path_; }

 private:
  void discard() noexcept;
  std::string path_;
  std::string tmp_;  // empty once committed or discarded
};

void write_file_atomic(const std::string& path, std::string_view content);

}  // namespace referee
