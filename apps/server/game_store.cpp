// TEMPORARY stub (not committed): H1 writes the real one.
#include "game_store.hpp"
namespace referee::server {
struct GameStore::Impl {};
GameStore::GameStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GameStore::~GameStore() = default;
std::unique_ptr<GameStore> GameStore::open(const std::string&, StoreOptions) { throw StoreError("stub"); }
bool GameStore::read_only() const { return false; }
bool GameStore::in_memory() const { return true; }
const std::string& GameStore::path() const { static std::string p = ":memory:"; return p; }
void GameStore::create(const StoredGame&) {}
void GameStore::save(const GameChange&) {}
bool GameStore::remove(const std::string&) { return false; }
std::size_t GameStore::expire() { return 0; }
std::optional<StoredGame> GameStore::load(const std::string&) const { return std::nullopt; }
std::vector<GameSummary> GameStore::list() const { return {}; }
bool GameStore::contains(const std::string&) const { return false; }
std::string default_data_dir() { return "/tmp"; }
}
