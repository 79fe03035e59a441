#include "referee/core/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee {

namespace {

std::string os_error(int err) { return std::strerror(err); }

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }

 private:
  int fd_;
};

std::string kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The target's mode when it is a regular file, 0 when it does not exist.
mode_t output_target_mode(const std::string& path) {
  if (path.empty()) throw InputError("", "an output path is empty");
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return 0;
    throw InputError(path, "cannot write the file: " + os_error(errno));
  }
  if (!S_ISREG(st.st_mode))
    throw InputError(path, "is " + kind_of(st.st_mode) +
                               "; output is written only to a regular file (or to standard output with -)");
  return st.st_mode;
}

// Unpredictable, so nobody can plant a link at the name in advance; the
// temporary file is not game randomness, so it does not go through Dice.
std::string random_suffix() {
  std::random_device rd;
  return fmt::format("{:08x}{:08x}", rd(), rd());
}

void write_all(int fd, std::string_view content, const std::string& path) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, "cannot write the file: " + os_error(errno));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

std::uint64_t max_input_bytes_from(const char* v) {
  if (!v || !*v) return kDefaultMaxInputBytes;
  std::string s(v);
  if (s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos || std::stoull(s) == 0)
    throw InputError(kMaxInputBytesVariable, "expected a positive whole number of bytes, got \"" + s + "\"");
  return std::stoull(s);
}

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before we can refuse it.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) throw InputError(path, "cannot open the file: " + os_error(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw InputError(path, "cannot read the file: " + os_error(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path, "is " + kind_of(st.st_mode) + "; only regular files are read");
  auto too_large = [&] {
    return InputError(path, fmt::format("is larger than the input limit of {} bytes (set {} to raise it)", max_bytes,
                                        kMaxInputBytesVariable));
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) throw too_large();
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw InputError(path, "cannot read the file: " + os_error(errno));
    }
    if (n == 0) break;
    // The file may grow while it is read.
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) throw too_large();
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

void check_output_path(const std::string& path) { (void)output_target_mode(path); }

StagedFile::StagedFile(std::string path, std::string_view content) : path_(std::move(path)) {
  const mode_t mode = output_target_mode(path_);
  std::filesystem::path target(path_);
  std::string folder = target.parent_path().string();
  if (folder.empty()) folder = ".";
  const std::string stem = folder + "/." + target.filename().string() + ".tmp-";
  int fd = -1;
  std::string tmp;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    tmp = stem + random_suffix();
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) throw InputError(path_, "cannot write the file: " + os_error(errno));
  tmp_ = tmp;
  Fd guard(fd);
  try {
    // Replacing a file keeps its permissions; a new one gets 0666 less the umask.
    if (mode != 0) (void)::fchmod(fd, mode & 07777);
    write_all(fd, content, path_);
    if (::fsync(fd) != 0) throw InputError(path_, "cannot write the file: " + os_error(errno));
    if (::close(guard.release()) != 0) throw InputError(path_, "cannot write the file: " + os_error(errno));
  } catch (...) {
    discard();
    throw;
  }
}

StagedFile::StagedFile(StagedFile&& other) noexcept : path_(std::move(other.path_)), tmp_(std::move(other.tmp_)) {
  other.tmp_.clear();
}

StagedFile& StagedFile::operator=(StagedFile&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    tmp_ = std::move(other.tmp_);
    other.tmp_.clear();
  }
  return *this;
}

StagedFile::~StagedFile() { discard(); }

void StagedFile::discard() noexcept {
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
}

void StagedFile::commit() {
  if (tmp_.empty()) return;
  try {
    // Checked again: something may have been planted at the target meanwhile.
    (void)output_target_mode(path_);
  } catch (...) {
    discard();
    throw;
  }
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    discard();
    throw InputError(path_, "cannot write the file: " + os_error(err));
  }
  tmp_.clear();
}

void write_file_atomic(const std::string& path, std::string_view content) {
  StagedFile f(path, content);
  f.commit();
}

}  // namespace referee
