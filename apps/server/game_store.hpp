// The games of `referee serve`, kept for good: SQLite (Debian's libsqlite3)
// in WAL mode, each change one transaction, synced (synchronous=FULL) before
// the call returns, so an answer sent after it survives kill -9 or a power
// cut. docs/deploy.md, "Where games are kept".
//
// One file, DIR/games.sqlite3 (DIR made with mode 0700: it holds the seat
// tokens). Tables:
//   games(id TEXT PRIMARY KEY, system, battle, header TEXT (the log's header
//         line), meta TEXT (the API's JSON: seats, invitations, opponent
//         sides...), position INTEGER, version INTEGER, created INTEGER,
//         updated INTEGER (unix seconds))
//   entries(game TEXT, seq INTEGER, line TEXT, PRIMARY KEY(game, seq)) WITHOUT ROWID
// A game's log is its header and its entries in seq order (0-based); the
// first `position` of them are played, the rest can be redone.
//
// Failures: any write that SQLite refuses (a full disk: SQLITE_FULL, also
// when the store reaches StoreOptions::max_bytes; a read-only directory or
// file: SQLITE_READONLY / SQLITE_CANTOPEN / SQLITE_IOERR) throws StoreError
// with a sentence for people ("the disk holding /x/games.sqlite3 is full"),
// and the transaction is rolled back: the stored game stays as it was.
// A data directory that cannot be written is opened read-only (read_only()):
// every game can still be read; every write throws StoreError.
// Thread-safe: one connection behind a mutex.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace referee::server {

struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct StoreOptions {
  // The most bytes the database may hold (0: as much as the disk holds):
  // past it a write fails as on a full disk (PRAGMA max_page_count).
  std::uint64_t max_bytes = 0;
  // Games not changed for this many days are deleted (0: kept for good, the
  // default), when the store opens and once a day after (expire()).
  int keep_days = 0;
};

struct StoredGame {
  std::string id;
  std::string system;
  std::string battle;  // for people: the battle's id or name
  std::string header;  // the log's header line (JSON text)
  std::string meta;    // the API's JSON text
  std::vector<std::string> entries;  // the log's entry lines, in order
  std::size_t position = 0;
  std::uint64_t version = 0;
  std::int64_t created = 0;
  std::int64_t updated = 0;
};

struct GameSummary {
  std::string id, system, battle;
  std::size_t entries = 0, position = 0;
  std::int64_t created = 0, updated = 0;
};

// One change of one game, written as one transaction.
struct GameChange {
  std::string id;
  std::size_t keep = 0;                // entries [0, keep) stay; every later one is replaced by `append`
  std::vector<std::string> append;     // entry lines from seq `keep` on
  std::size_t position = 0;
  std::uint64_t version = 0;
  std::optional<std::string> meta;     // replaces the meta when given
};

class GameStore {
 public:
  // ":memory:" keeps nothing on disk. Otherwise makes `dir` if missing and
  // opens (or creates) dir/games.sqlite3. Throws StoreError when the
  // directory can neither be written nor read.
  static std::unique_ptr<GameStore> open(const std::string& dir, StoreOptions options = {});
  ~GameStore();

  bool read_only() const;
  bool in_memory() const;
  const std::string& path() const;  // the database file, or ":memory:"

  // Writes; each is one synced transaction; StoreError on failure.
  void create(const StoredGame& game);  // an existing id: StoreError
  void save(const GameChange& change);  // an unknown id: StoreError
  bool remove(const std::string& id);   // false when there was none
  std::size_t expire();                 // by StoreOptions::keep_days; returns how many were deleted

  // Reads.
  std::optional<StoredGame> load(const std::string& id) const;
  std::vector<GameSummary> list() const;  // newest `updated` first
  bool contains(const std::string& id) const;

 private:
  struct Impl;
  explicit GameStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The default data directory: $XDG_STATE_HOME/referee, else
// $HOME/.local/state/referee, else ./referee-data.
std::string default_data_dir();

}  // namespace referee::server
