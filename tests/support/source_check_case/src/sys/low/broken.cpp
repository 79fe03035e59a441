// What source_check must find (tests/CMakeLists.txt, source.check.finds):
// an include from a room above, a front end's header in the engine, a
// literal rule id (of the system its catalogue rule_ids.hpp names), a mutable
// cache, and a function longer than the test's limit of 5 lines. The mutex is
// not a cache.
#include <mutex>

#include <CLI/CLI.hpp>

#include "high/above.hpp"

struct Cache {
  mutable int memo = 0;
  mutable std::mutex guard;
};

const char* rule() { return "sys.movement.gap"; }

int longer_than_five_lines(int x) {
  x += 1;
  x += 2;
  x += 3;
  x += 4;
  x += 5;
  return x;
}
