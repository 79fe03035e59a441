// The games held in memory: each game's Slot (its Match, its seats, its
// events) by id, with an estimate of the memory each holds, within the
// limits on games and memory; a game not held is read back from the store
// (game_store.hpp) when next asked for.
//
// Memory holds the recent games: each game's memory is estimated
// (game_bytes); memory holds at most CacheLimits::max_games games and
// CacheLimits::max_memory_bytes of them, and a client address at most
// CacheLimits::max_games_per_client: a game that needs room pushes out the
// least recently used game of its own client first, then of the client
// holding the most, to be read back from the store when next asked for
// (without a store, it is gone).
//
// Concurrency: the cache has one mutex, and each game its own, so requests
// on different games run in parallel and requests on one game in turn. A
// game's mutex may be taken before the cache's, never the other way round.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "game_store.hpp"
#include "referee/core/game.hpp"
#include "referee/core/match.hpp"
#include "seats.hpp"

namespace referee::server {

// One game held in memory. Its fields are under its `mutex`, but for
// `used` (under the cache's mutex) and `bytes` (read by the cache).
struct Slot {
  std::mutex mutex;
  std::unique_ptr<Match> match;
  std::string battle;  // the battle's id or name, for people
  std::string client;  // whose game it is, for the per-client limits
  // The built-in opponent's choices are drawn from this seed (the game's
  // dice seed) and the log position, so a game replays the same and an
  // undone choice is chosen again.
  std::uint64_t opponent_seed = 1;
  // Secret dice (dice_commitment.hpp): a game whose seed the server drew
  // keeps it to itself until the game is over, showing the commitment made
  // with `salt`; a fixed seed (the creator's, an imported log's, a game
  // stored before secret dice) or scripted dice are shown to everyone.
  bool fixed_seed = true;
  std::string salt;
  // The sides the built-in opponent plays, the game's own (not a page's):
  // every board that opens the game, and a reload, plays them so.
  std::vector<int> opponent_sides;
  std::chrono::steady_clock::time_point used;  // under the cache's mutex
  std::size_t load_bytes = 0;    // the game as loaded, estimated
  std::size_t state_bytes = 0;   // one state, estimated
  std::atomic<std::size_t> bytes{0};  // game_bytes(), updated under the game's mutex
  std::vector<Seat> seats;  // each side's (seats.hpp)
  std::vector<int> actors;  // per log entry (the whole history): the side that made it
  std::uint64_t version = 0;  // one more with every change; the events' id
  // The last events, oldest first, as the whole game's (each viewer is told
  // its own view of one: seat_views.hpp).
  std::vector<std::pair<std::uint64_t, nlohmann::json>> recent;
};

// Whether the seed is still secret: a drawn seed, and the game not over.
bool seed_secret(const Slot& slot);

// The game as the store keeps it besides its log: seats, the opponent's
// sides, the dice's secrets, its creator; read back by GameCache::find.
std::string meta_json(const Slot& slot);

// The cache's share of the API's limits (api.hpp, Limits).
struct CacheLimits {
  std::size_t max_games = 500;
  std::size_t max_games_per_client = 100;
  std::size_t max_memory_bytes = std::size_t{384} << 20;
  std::size_t max_game_bytes = std::size_t{64} << 20;
  std::size_t snapshot_bytes_per_entry = 16 << 10;
  std::size_t max_snapshot_interval = 16;
};

class GameCache {
 public:
  // `store`: where games are read back from; null keeps them in memory
  // only, and a game dropped from memory is gone. `new_id` makes a new
  // game's id.
  GameCache(const GameRegistry& registry, CacheLimits limits, std::function<std::string()> new_id,
            std::shared_ptr<GameStore> store);

  // The game `id`, held or read back from the store, or null; marks it used.
  // Not under a slot's mutex.
  std::shared_ptr<Slot> find(const std::string& id);
  // Sets up a new game's slot (its memory estimate and snapshot interval),
  // makes room for it and holds it under a new id; the caller answers from
  // the slot it gets back, which a concurrent request may already have
  // dropped. {"", null} when the game alone is over max_game_bytes.
  std::pair<std::string, std::shared_ptr<Slot>> add(std::unique_ptr<Match> match, std::string battle,
                                                     const std::string& client);
  // Stops holding the game `id` (deleted, or its creation refused).
  void erase(const std::string& id);
  // Stops holding `slot` if it is still the game `id`'s: what memory holds
  // is ahead of what is kept, so that the next request reloads its last
  // good state.
  void forget(const std::string& id, const Slot& slot);
  // Updates the slot's estimate after its history changed; drops other
  // games if the cache is now over its memory limit. Under the slot's mutex.
  void account(Slot& slot);
  // A replay's each_entry: records the side about to act before each entry,
  // and sets the snapshot interval from the first state.
  std::function<void(Match&)> replay_watcher(std::vector<int>& actors) const;

  std::size_t count() const;
  // The estimated memory of every game held (game_bytes summed).
  std::size_t memory_estimate() const;
  // Whether games were dropped since last asked: the request that dropped
  // them then hands the freed memory back to the system (Api::handle).
  bool take_trim_wanted() { return trim_wanted_.exchange(false); }

 private:
  // A slot for a game in memory: its estimates, its history's snapshot
  // interval, its time of use; not yet held.
  std::shared_ptr<Slot> new_slot(std::unique_ptr<Match> match, std::string battle, std::string client) const;
  // Loads a stored game into memory, or null.
  std::shared_ptr<Slot> load_stored(const std::string& id);
  // Every k-th state kept, k from a state's size (CacheLimits::snapshot_bytes_per_entry).
  std::size_t snapshot_interval_for(const GameState& state) const;
  // Drops least recently used games until the cache is within its limits
  // with `extra` more bytes and, when `adding`, one more game of `client`.
  // `keep` is never dropped. Under mutex_.
  void make_room(const std::string& client, std::size_t extra, bool adding, const Slot* keep);
  std::size_t game_bytes(const Slot& slot) const;

  const GameRegistry& registry_;
  CacheLimits limits_;
  std::function<std::string()> new_id_;
  std::shared_ptr<GameStore> store_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Slot>> games_;
  std::atomic<bool> trim_wanted_{false};
};

}  // namespace referee::server
