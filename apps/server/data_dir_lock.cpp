#include "data_dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee::server {

DataDirLock::DataDirLock(const std::string& dir, const std::string& field) {
  const std::string path = dir + "/serve.lock";
  // O_NOFOLLOW: a link planted in the directory is not followed.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd_ < 0 && (errno == EACCES || errno == EROFS)) fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd_ < 0) return;  // a read-only directory: nothing here can be written
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char text[32] = {};
    const ssize_t n = ::pread(fd_, text, sizeof text - 1, 0);
    std::string pid = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string();
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    ::close(fd_);
    fd_ = -1;
    if (err != EWOULDBLOCK)
      throw InputError(field, fmt::format("{} could not be locked: {}", path, std::strerror(err)));
    throw InputError(field, fmt::format("{} is in use by another referee serve{} (one server per data directory: "
                                        "stop it, or give another --data)",
                                        dir, pid.empty() ? std::string() : " (pid " + pid + ")"));
  }
  // The holder's pid, for the message a second server gives.
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The lock holds without the pid; the message then names no pid.
  }
}

DataDirLock::~DataDirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the lock
}

}  // namespace referee::server
