// Fuzzes `referee serve --battle FILE` (battle_from_file, apps/server): any
// file gives a battle that every system's loader it names accepts, or an
// InputError naming the file; never a crash. The first byte picks the
// --system given (none, or one of the three), the rest is the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "http_server.hpp"
#include "referee/core/errors.hpp"
#include "referee/games/builtin.hpp"

using namespace referee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/tmp/referee-battle-fuzz-" + std::to_string(::getpid()) + ".json";
  const char* systems[] = {"", "warmaster", "ancients", "blightmeer"};
  const std::string system = systems[data[0] % 4];
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    const server::Battle b = server::battle_from_file(builtin_games(), path, system);
    if (b.id.rfind("file/", 0) != 0 || (!system.empty() && b.system != system)) std::abort();
    builtin_games().at(b.system).load(b.scenario, b.id, nlohmann::json::object());  // what it accepted loads
  } catch (const InputError& e) {
    if (std::string(e.what()).find(path) == std::string::npos && e.field() != "--system") std::abort();
  }
  return 0;
}
