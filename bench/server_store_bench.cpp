// The games store of `referee serve` (apps/server/game_store.hpp): one change
// of one game, one ~1 kB entry line appended, committed and synced to disk
// (WAL, synchronous=FULL) before it returns: the cost of keeping every
// answer's change for good (BM_GameStoreSave; docs/architecture.md, "Where
// games are kept"). The store is made in a fresh folder of the current
// directory, not in /tmp, which is often a tmpfs where a sync costs nothing.
#include <benchmark/benchmark.h>

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "game_store.hpp"

namespace {

using referee::server::GameChange;
using referee::server::GameStore;
using referee::server::StoredGame;

void BM_GameStoreSave(benchmark::State& state) {
  std::string dir = (std::filesystem::current_path() / "referee-store-bench-XXXXXX").string();
  if (!::mkdtemp(dir.data())) {
    state.SkipWithError("cannot make a folder in the current directory");
    return;
  }
  {
    auto store = GameStore::open(dir);
    StoredGame game;
    game.id = "0123456789abcdef0123456789abcdef";
    game.system = "warmaster";
    game.battle = "fair-battle";
    game.header = R"({"format":"referee-log/1","system":"warmaster","seed":1,"scenario":"fair-battle"})";
    game.meta = R"({"seats":[]})";
    store->create(game);
    // An entry line of about 1 kB, as a Warmaster move with its result.
    const std::string line = R"({"seq":1,"action":{"type":"move","unit":"emp-halberd-1","stands":[)" + std::string(900, ' ') +
                             R"(]},"rolls":[],"result":{"next":"turn 1"}})";
    std::size_t entries = 0;
    for (auto _ : state) {
      store->save(GameChange{game.id, entries, {line}, entries + 1, entries + 1, std::nullopt});
      ++entries;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(entries * line.size()));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
BENCHMARK(BM_GameStoreSave)->Unit(benchmark::kMicrosecond);

}  // namespace
