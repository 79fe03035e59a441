// Runs a check where a directory cannot be written: root ignores file modes,
// so when the tests run as root the check runs in a child process that has
// become nobody (uid and gid 65534); otherwise in this process, after the
// caller has taken write permission away. The check's result is its exit
// status: 0 for passed, anything else a code the test explains.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <functional>

namespace referee::test_support {

inline bool running_as_root() { return ::geteuid() == 0; }

// 20: fork failed; 21: could not become nobody; 22: the child did not exit.
inline int as_nobody(const std::function<int()>& check) {
  if (!running_as_root()) return check();
  const pid_t pid = ::fork();
  if (pid < 0) return 20;
  if (pid == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0 || ::geteuid() != 65534) ::_exit(21);
    ::_exit(check());
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 22;
  return WEXITSTATUS(status);
}

}  // namespace referee::test_support
