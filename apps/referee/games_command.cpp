// referee games list | export ID | delete ID [--data DIR]: the games that
// `referee serve` keeps (apps/server/game_store.hpp), read and deleted from
// the command line. A store that cannot be opened, or an id it does not hold,
// is bad input (exit 2).
#include <ctime>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "data_dir_lock.hpp"
#include "dice_commitment.hpp"
#include "game_store.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"

namespace referee::cli {

namespace {

struct GamesOptions {
  std::string data = server::default_data_dir();
  std::string id;
  bool json = false;
};

// The store in --data; a directory without one is an error rather than a new, empty store.
std::unique_ptr<server::GameStore> open_store(const std::string& dir) {
  if (dir == ":memory:") throw InputError("--data", ":memory: keeps no games to read; give the directory of referee serve --data");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError("--data", fmt::format("{} is not a directory (referee serve --data makes it)", dir));
  if (!std::filesystem::exists(std::filesystem::path(dir) / "games.sqlite3", ec))
    throw InputError("--data", fmt::format("{} holds no games store (games.sqlite3); referee serve --data {} makes one", dir, dir));
  try {
    return server::GameStore::open(dir);
  } catch (const server::StoreError& e) {
    throw InputError("--data", e.what());
  }
}

std::string iso_date(std::int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

void list_games(const GamesOptions& o) {
  const auto store = open_store(o.data);
  const std::vector<server::GameSummary> games = store->list();
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const server::GameSummary& g : games)
      out.push_back({{"id", g.id}, {"system", g.system}, {"battle", g.battle}, {"entries", g.entries},
                     {"position", g.position}, {"created", iso_date(g.created)}, {"updated", iso_date(g.updated)}});
    write_stdout(dump_answer(out) + "\n");
    return;
  }
  std::string text;
  for (const server::GameSummary& g : games)
    text += fmt::format("{}  {}  {}  {}/{}  {}\n", g.id, g.system, g.battle, g.position, g.entries, iso_date(g.updated));
  write_stdout(text);
  if (games.empty()) std::cerr << "referee: no games in " << store->path() << "\n";
}

// The header as the server serves it (docs/api.md, "The dice"): a game with
// secret dice still on withholds its seed, beside the commitment; once over,
// the seed and the salt that check it.
std::string served_header(const server::StoredGame& g) {
  const nlohmann::json meta = nlohmann::json::parse(g.meta, nullptr, false);
  const std::string salt = meta.is_object() ? meta.value("salt", std::string()) : std::string();
  if (salt.empty() || meta.value("fixed_seed", true)) return g.header;
  GameLog head = GameLog::parse_jsonl(g.header, "stored game " + g.id);
  server::commit_log_header(head, salt, meta.value("seed_secret", true));
  std::string line = head.to_jsonl();
  line.pop_back();  // the newline the caller adds
  return line;
}

// The game's log as `referee <system> replay --log` reads it: the header,
// then the entries played (not those an undo left to redo).
void export_game(const GamesOptions& o) {
  const auto store = open_store(o.data);
  const std::optional<server::StoredGame> g = store->load(o.id);
  if (!g) throw InputError("ID", fmt::format("no game {} in {}", o.id, store->path()));
  std::string text = served_header(*g) + "\n";
  for (std::size_t i = 0; i < g->position && i < g->entries.size(); ++i) text += g->entries[i] + "\n";
  write_stdout(text);
}

// Deleting writes the store, so it takes the lock a running server holds
// (data_dir_lock.hpp) and refuses while one serves the directory: the
// server would go on serving the game from memory and write it again.
void delete_game(const GamesOptions& o) {
  const auto store = open_store(o.data);
  const server::DataDirLock lock(o.data, "--data");
  bool removed = false;
  try {
    removed = store->remove(o.id);
  } catch (const server::StoreError& e) {
    throw InputError("--data", e.what());
  }
  if (!removed) throw InputError("ID", fmt::format("no game {} in {}", o.id, store->path()));
  write_stdout(fmt::format("deleted game {} from {}\n", o.id, store->path()));
}

}  // namespace

void add_games_command(CLI::App& app) {
  auto o = std::make_shared<GamesOptions>();
  auto* games = app.add_subcommand("games", "The games referee serve keeps (--data): list, export or delete them");
  games->require_subcommand(1);
  const std::string data_help = "The data directory of referee serve --data (default " + server::default_data_dir() + ")";
  auto* list = games->add_subcommand("list", "One line per game, newest change first: id, system, battle, played/entries, last change (UTC)");
  list->add_option("--data", o->data, data_help);
  list->add_flag("--json", o->json, "A JSON array instead, one object per game");
  list->callback([o] { list_games(*o); });
  auto* exp = games->add_subcommand("export", "Write a game's log (JSON Lines, what `referee <system> replay --log` reads) to standard output");
  exp->add_option("ID", o->id, "The game's id")->required();
  exp->add_option("--data", o->data, data_help);
  exp->callback([o] { export_game(*o); });
  auto* del = games->add_subcommand("delete", "Delete a game for good");
  del->add_option("ID", o->id, "The game's id")->required();
  del->add_option("--data", o->data, data_help);
  del->callback([o] { delete_game(*o); });
}

}  // namespace referee::cli
