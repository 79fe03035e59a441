// One server per store: `referee serve --data DIR` holds an advisory lock
// (flock) on DIR/serve.lock while it serves, with its pid written in the
// file, so a second server on the same DIR, whose writes would overwrite the
// first's and leave a log that no longer replays, is refused by name. The
// kernel drops the lock when the process ends, kill -9 included, so a
// crashed server never leaves a stale lock. `referee games delete` takes the
// same lock, and refuses while a server holds it. docs/deploy.md, "One
// server per data directory".
#pragma once

#include <string>

namespace referee::server {

class DataDirLock {
 public:
  // Takes the lock on `dir` (which must exist), or throws InputError naming
  // `field` with the holder's pid when another process holds it. A directory
  // where the lock file can be neither made nor opened (read-only) is not
  // locked: a store there is read-only too, and readers do not conflict.
  DataDirLock(const std::string& dir, const std::string& field = "--data");
  ~DataDirLock();
  DataDirLock(const DataDirLock&) = delete;
  DataDirLock& operator=(const DataDirLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace referee::server
