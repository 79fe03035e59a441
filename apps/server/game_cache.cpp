#include "game_cache.hpp"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "referee/core/game_log.hpp"

namespace referee::server {

namespace {

using Json = nlohmann::json;

// A game as loaded is estimated at this many times its battle's JSON text
// (measured: a Warmaster battle of 1,000 units, 390 kB of JSON, loads into
// 5.3 MB; a Blightmeer battle at its caps, 990 kB, into 20 MB), and each kept
// state at one and a half times its JSON text (measured: 14 kB per entry
// against 9 kB of JSON on the bundled pitched battle, 210 kB against 570 kB
// on the 1,000-unit battle). Estimates, for the cache's limits;
// docs/architecture.md, "History".
std::size_t json_bytes(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace).size(); }

constexpr std::size_t kLoadBytesPerJsonByte = 24;

std::size_t state_bytes(const GameState& s) { return json_bytes(s.to_json()) * 3 / 2; }

}  // namespace

bool seed_secret(const Slot& slot) { return !slot.fixed_seed && !slot.match->state().is_terminal(); }

std::string meta_json(const Slot& slot) {
  Json seats = Json::array();
  for (const Seat& s : slot.seats) seats.push_back({{"token", s.token}, {"invite", s.invite}, {"used_invite", s.used_invite}});
  Json meta{{"opponent_sides", slot.opponent_sides}, {"seats", seats}, {"opponent_seed", slot.opponent_seed},
            {"fixed_seed", slot.fixed_seed}, {"salt", slot.salt}, {"seed_secret", seed_secret(slot)},
            {"client", slot.client}};
  if (const auto& script = slot.match->dice_source().script) meta["dice_script"] = *script;
  return meta.dump();
}

GameCache::GameCache(const GameRegistry& registry, CacheLimits limits, std::function<std::string()> new_id,
                     std::shared_ptr<GameStore> store)
    : registry_(registry), limits_(limits), new_id_(std::move(new_id)), store_(std::move(store)) {}

std::size_t GameCache::count() const {
  std::lock_guard lock(mutex_);
  return games_.size();
}

std::size_t GameCache::game_bytes(const Slot& slot) const {
  const Match& m = *slot.match;
  return slot.load_bytes + m.snapshots_kept() * slot.state_bytes + m.log_bytes();
}

std::size_t GameCache::snapshot_interval_for(const GameState& state) const {
  return std::clamp<std::size_t>(state_bytes(state) / std::max<std::size_t>(1, limits_.snapshot_bytes_per_entry), 1,
                                 limits_.max_snapshot_interval);
}

std::function<void(Match&)> GameCache::replay_watcher(std::vector<int>& actors) const {
  return [this, &actors](Match& m) {
    if (actors.empty()) m.set_snapshot_interval(snapshot_interval_for(m.state()));
    actors.push_back(m.state().current_player());
  };
}

std::shared_ptr<Slot> GameCache::new_slot(std::unique_ptr<Match> match, std::string battle, std::string client) const {
  auto slot = std::make_shared<Slot>();
  slot->opponent_seed = match->dice_source().seed;
  slot->load_bytes = json_bytes(match->game().scenario()) * kLoadBytesPerJsonByte;
  slot->state_bytes = state_bytes(match->state());
  match->set_snapshot_interval(snapshot_interval_for(match->state()));
  slot->match = std::move(match);
  slot->battle = std::move(battle);
  slot->client = std::move(client);
  slot->bytes = game_bytes(*slot);
  slot->used = std::chrono::steady_clock::now();
  return slot;
}

std::pair<std::string, std::shared_ptr<Slot>> GameCache::add(std::unique_ptr<Match> match, std::string battle,
                                                             const std::string& client) {
  auto slot = new_slot(std::move(match), std::move(battle), client);
  if (slot->bytes > limits_.max_game_bytes) return {"", nullptr};
  std::lock_guard lock(mutex_);
  make_room(client, slot->bytes, true, nullptr);
  std::string id = new_id_();
  while (games_.count(id) != 0) id = new_id_();
  games_.emplace(id, slot);
  return {id, slot};
}

void GameCache::erase(const std::string& id) {
  std::lock_guard lock(mutex_);
  games_.erase(id);
}

void GameCache::forget(const std::string& id, const Slot& slot) {
  std::lock_guard lock(mutex_);
  auto it = games_.find(id);
  if (it != games_.end() && it->second.get() == &slot) games_.erase(it);
}

void GameCache::make_room(const std::string& client, std::size_t extra, bool adding, const Slot* keep) {
  std::size_t total = extra;
  for (const auto& [id, s] : games_) total += s->bytes;
  // The least recently used game of `owner`, or of whichever client holds
  // the most (games, or bytes), leaving `keep` alone.
  auto drop = [&](const std::string* owner, bool by_bytes) {
    std::map<std::string, std::size_t> held;
    for (const auto& [id, s] : games_)
      if (s.get() != keep) held[s->client] += by_bytes ? s->bytes.load() : 1;
    if (held.empty()) return false;
    std::string victim = owner ? *owner : "";
    if (!owner)
      victim = std::max_element(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
    auto oldest = games_.end();
    for (auto it = games_.begin(); it != games_.end(); ++it)
      if (it->second.get() != keep && it->second->client == victim &&
          (oldest == games_.end() || it->second->used < oldest->second->used))
        oldest = it;
    if (oldest == games_.end()) return false;
    total -= oldest->second->bytes;
    games_.erase(oldest);
    trim_wanted_ = true;
    return true;
  };
  if (adding) {
    std::size_t mine = 0;
    for (const auto& [id, s] : games_) mine += s->client == client;
    for (; mine >= limits_.max_games_per_client && drop(&client, false); --mine) {
    }
    while (games_.size() >= limits_.max_games && drop(nullptr, false)) {
    }
  }
  while (total > limits_.max_memory_bytes && drop(nullptr, true)) {
  }
}

void GameCache::account(Slot& slot) {
  const std::size_t before = slot.bytes;
  slot.bytes = game_bytes(slot);
  if (slot.bytes <= before) return;
  std::lock_guard lock(mutex_);
  make_room(slot.client, 0, false, &slot);
}

std::size_t GameCache::memory_estimate() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [id, s] : games_) total += s->bytes;
  return total;
}

std::shared_ptr<Slot> GameCache::find(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    auto it = games_.find(id);
    if (it != games_.end()) {
      it->second->used = std::chrono::steady_clock::now();
      return it->second;
    }
  }
  // Memory holds the recent games, the store every game.
  if (!store_ || !is_token(id)) return nullptr;
  return load_stored(id);
}

// A stored game is replayed from its log (Match::replay checks every roll and
// result against the engine), then stepped back to its position: its redo
// entries stay redoable.
std::shared_ptr<Slot> GameCache::load_stored(const std::string& id) {
  std::optional<StoredGame> g;
  try {
    g = store_->load(id);
  } catch (const StoreError&) {
    return nullptr;
  }
  if (!g) return nullptr;
  std::string text = g->header + "\n";
  for (const std::string& line : g->entries) text += line + "\n";
  const GameLog log = GameLog::parse_jsonl(text, "stored game " + id);
  // Dice rolled at a real table: the log holds the values used so far, the
  // store the whole script, so the values still to come are not lost.
  const Json meta = Json::parse(g->meta, nullptr, false);
  std::optional<std::vector<int>> script;
  if (meta.is_object() && meta.contains("dice_script") && meta["dice_script"].is_array())
    script = meta["dice_script"].get<std::vector<int>>();
  std::vector<int> actors;
  auto match = std::make_unique<Match>(Match::replay(registry_, log, "stored game " + id, nullptr, "",
                                                     replay_watcher(actors), script ? &*script : nullptr));
  while (match->position() > g->position) match->undo();
  // Its creator's address (kept in the meta): a reloaded game counts
  // against that client's share of memory and of the store like any other.
  std::string client = meta.is_object() ? meta.value("client", std::string("stored")) : std::string("stored");
  auto slot = new_slot(std::move(match), g->battle, std::move(client));
  slot->actors = std::move(actors);
  slot->version = g->version;
  if (meta.is_object()) {
    slot->opponent_sides = meta.value("opponent_sides", std::vector<int>{});
    slot->opponent_seed = meta.value("opponent_seed", slot->opponent_seed);
    slot->fixed_seed = meta.value("fixed_seed", true);
    slot->salt = meta.value("salt", std::string());
    if (slot->salt.empty()) slot->fixed_seed = true;
    if (meta.contains("seats") && meta["seats"].is_array())
      for (const Json& seat : meta["seats"])
        slot->seats.push_back({seat.value("token", ""), seat.value("invite", ""), seat.value("used_invite", "")});
  }
  slot->seats.resize(slot->match->game().players().size());
  std::lock_guard lock(mutex_);
  // Another request may have loaded it meanwhile: the first one stays.
  auto it = games_.find(id);
  if (it != games_.end()) return it->second;
  make_room(slot->client, slot->bytes, true, nullptr);
  games_.emplace(id, slot);
  return slot;
}

}  // namespace referee::server
