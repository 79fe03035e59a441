// The games of `referee serve` in SQLite (game_store.hpp): one connection
// behind a mutex, its statements prepared once, every change one
// BEGIN IMMEDIATE ... COMMIT that is rolled back on any failure.
#include "game_store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <mutex>
#include <type_traits>

#include <fmt/format.h>

namespace referee::server {

namespace {

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The sentence for people of a failed SQLite call on `path`.
std::string reason(int rc, const std::string& path, const char* message) {
  switch (rc & 0xff) {
    case SQLITE_FULL:
      return fmt::format("the disk holding {} is full (or the store reached its --data-max-mb limit)", path);
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
      return fmt::format("{} cannot be written: the data directory is read-only", path);
    default:
      return fmt::format("the games store {} failed: {}", path, message ? message : sqlite3_errstr(rc));
  }
}

bool refused_for_rights(int rc) {
  rc &= 0xff;
  return rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN || rc == SQLITE_PERM;
}

// "file:" URI of a path: the characters a URI gives a meaning to are escaped.
std::string file_uri(const std::string& path, const char* query) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '?' || c == '#' || c == '%') uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    else uri += c;
  }
  return uri + query;
}

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY, system TEXT NOT NULL, battle TEXT NOT NULL,"
    " header TEXT NOT NULL, meta TEXT NOT NULL, position INTEGER NOT NULL, version INTEGER NOT NULL,"
    " created INTEGER NOT NULL, updated INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS games_by_updated ON games(updated);"
    "CREATE TABLE IF NOT EXISTS entries(game TEXT NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL,"
    " PRIMARY KEY(game, seq)) WITHOUT ROWID;";

// The statements, prepared once each.
enum Sql : int {
  kBegin, kBeginRead, kCommit, kInsertGame, kInsertEntry, kUpdateGame, kEntryCount, kDeleteEntriesFrom,
  kDeleteEntries, kDeleteGame, kExpireEntries, kExpireGames, kLoadGame, kLoadEntries, kList, kContains, kSqlCount
};
constexpr const char* kSql[kSqlCount] = {
    "BEGIN IMMEDIATE",
    "BEGIN",
    "COMMIT",
    "INSERT INTO games(id, system, battle, header, meta, position, version, created, updated)"
    " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    "INSERT INTO entries(game, seq, line) VALUES(?1, ?2, ?3)",
    "UPDATE games SET position = ?2, version = ?3, updated = ?4, meta = coalesce(?5, meta) WHERE id = ?1",
    "SELECT coalesce(max(seq) + 1, 0) FROM entries WHERE game = ?1",
    "DELETE FROM entries WHERE game = ?1 AND seq >= ?2",
    "DELETE FROM entries WHERE game = ?1",
    "DELETE FROM games WHERE id = ?1",
    "DELETE FROM entries WHERE game IN (SELECT id FROM games WHERE updated < ?1)",
    "DELETE FROM games WHERE updated < ?1",
    "SELECT system, battle, header, meta, position, version, created, updated FROM games WHERE id = ?1",
    "SELECT line FROM entries WHERE game = ?1 ORDER BY seq",
    "SELECT g.id, g.system, g.battle, g.position, g.created, g.updated,"
    " (SELECT count(*) FROM entries e WHERE e.game = g.id) FROM games g ORDER BY g.updated DESC, g.created DESC, g.id",
    "SELECT 1 FROM games WHERE id = ?1",
};

std::string column_text(sqlite3_stmt* s, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i))) : std::string();
}

}  // namespace

struct GameStore::Impl {
  sqlite3* db = nullptr;
  std::string path;
  bool read_only = false, in_memory = false;
  StoreOptions options;
  mutable std::mutex mutex;
  sqlite3_stmt* statements[kSqlCount] = {};  // prepared once, by prepare_all()

  ~Impl() { close(); }

  void close() {
    for (sqlite3_stmt*& s : statements) {
      sqlite3_finalize(s);
      s = nullptr;
    }
    if (db) sqlite3_close(db);
    db = nullptr;
  }

  int last_error = SQLITE_OK;  // of open(), which falls back to reading only when writing is refused
  [[noreturn]] void fail(int rc) const { throw StoreError(reason(rc, path, db ? sqlite3_errmsg(db) : nullptr)); }
  void check(int rc) const {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) fail(rc);
  }
  void exec(const char* sql) const { check(sqlite3_exec(db, sql, nullptr, nullptr, nullptr)); }

  // A cached statement, reset and its bindings cleared when the Query ends.
  class Query {
   public:
    Query(const Impl& impl, Sql which) : impl_(impl) {
      s_ = impl.statements[which];
    }
    ~Query() {
      sqlite3_reset(s_);
      sqlite3_clear_bindings(s_);
    }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;
    Query& bind(int i, const std::string& v) {
      impl_.check(sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC));
      return *this;
    }
    Query& bind(int i, std::int64_t v) {
      impl_.check(sqlite3_bind_int64(s_, i, v));
      return *this;
    }
    Query& bind(int i, const std::optional<std::string>& v) {
      if (v) return bind(i, *v);
      impl_.check(sqlite3_bind_null(s_, i));
      return *this;
    }
    bool step() {  // true while there is a row
      const int rc = sqlite3_step(s_);
      impl_.check(rc);
      return rc == SQLITE_ROW;
    }
    void run() { step(); }
    sqlite3_stmt* operator*() const { return s_; }

   private:
    const Impl& impl_;
    sqlite3_stmt* s_ = nullptr;
  };

  int changes() const { return sqlite3_changes(db); }

  // One write transaction: committed (synced) when `body` returns, rolled
  // back when anything in it throws, so nothing is half-written.
  template <class Body>
  auto write(Body body) {
    if (read_only) throw StoreError(reason(SQLITE_READONLY, path, nullptr));
    return transaction(kBegin, body);
  }

  // A read transaction, so that a game is read whole even while another
  // process (`referee games delete`) writes.
  template <class Body>
  auto read(Body body) const {
    return transaction(kBeginRead, body);
  }

  template <class Body>
  auto transaction(Sql begin, Body body) const {
    Query(*this, begin).run();
    try {
      if constexpr (std::is_void_v<decltype(body())>) {
        body();
        Query(*this, kCommit).run();
      } else {
        auto result = body();
        Query(*this, kCommit).run();
        return result;
      }
    } catch (...) {
      if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  void insert_entries(const std::string& id, std::size_t from, const std::vector<std::string>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      Query(*this, kInsertEntry).bind(1, id).bind(2, static_cast<std::int64_t>(from + i)).bind(3, lines[i]).run();
  }

  void prepare_all() {
    for (int i = 0; i < kSqlCount; ++i)
      check(sqlite3_prepare_v3(db, kSql[i], -1, SQLITE_PREPARE_PERSISTENT, &statements[i], nullptr));
  }

  void open_file(const std::string& dir);
  void open_read_write(int extra_flags);
  bool open_read_only(const char* query);
  void limit_size();
};

void GameStore::Impl::open_read_write(int extra_flags) {
  last_error = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | extra_flags, nullptr);
  if (last_error != SQLITE_OK) fail(last_error);
  sqlite3_extended_result_codes(db, 1);
  // The operating system refused writing: sqlite opened the file read-only.
  if (sqlite3_db_readonly(db, "main") == 1) fail(last_error = SQLITE_READONLY);
  sqlite3_busy_timeout(db, 5000);
  if (!in_memory) {
    // WAL: a commit appends to one file and syncs it once; readers (`referee
    // games list` while the server runs) never wait for a writer.
    sqlite3_stmt* s = nullptr;
    check(sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &s, nullptr));
    const int step = sqlite3_step(s);
    const std::string mode = step == SQLITE_ROW ? column_text(s, 0) : "";
    sqlite3_finalize(s);
    if (step != SQLITE_ROW) fail(last_error = step);
    if (mode != "wal") throw StoreError(fmt::format("the games store {} cannot use write-ahead logging (journal mode {})", path, mode));
  }
  exec("PRAGMA synchronous=FULL");
  exec(kSchema);
}

bool GameStore::Impl::open_read_only(const char* query) {
  close();
  const std::string uri = file_uri(path, query);
  int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 5000);
    rc = sqlite3_exec(db, "SELECT count(*) FROM games", nullptr, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) return true;
  if (!refused_for_rights(rc)) fail(rc);
  return false;
}

void GameStore::Impl::limit_size() {
  if (options.max_bytes == 0 || read_only) return;
  sqlite3_stmt* s = nullptr;
  std::int64_t page_size = 4096, pages = 0;
  check(sqlite3_prepare_v2(db, "SELECT page_size, page_count FROM pragma_page_size, pragma_page_count", -1, &s, nullptr));
  if (sqlite3_step(s) == SQLITE_ROW) {
    page_size = sqlite3_column_int64(s, 0);
    pages = sqlite3_column_int64(s, 1);
  }
  sqlite3_finalize(s);
  const auto limit = std::max<std::int64_t>(static_cast<std::int64_t>(options.max_bytes / static_cast<std::uint64_t>(page_size)), pages);
  exec(fmt::format("PRAGMA max_page_count={}", std::max<std::int64_t>(limit, 1)).c_str());
}

std::unique_ptr<GameStore> GameStore::open(const std::string& dir, StoreOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  if (dir == ":memory:") {
    impl->in_memory = true;
    impl->path = ":memory:";
    impl->open_read_write(SQLITE_OPEN_MEMORY);
  } else {
    impl->open_file(dir);
  }
  impl->limit_size();
  impl->prepare_all();
  auto store = std::unique_ptr<GameStore>(new GameStore(std::move(impl)));
  if (options.keep_days > 0 && !store->read_only()) store->expire();
  return store;
}

// Opens dir/games.sqlite3 for writing, else for reading only.
void GameStore::Impl::open_file(const std::string& dir) {
  if (dir.empty()) throw StoreError("the data directory is empty: give a directory, or :memory: to keep nothing");
  namespace fs = std::filesystem;
  path = (fs::path(dir) / "games.sqlite3").string();
  std::error_code ec;
  if (fs::create_directories(dir, ec)) ::chmod(dir.c_str(), 0700);  // it holds the seat tokens
  if (ec && !fs::is_directory(dir))
    throw StoreError(fmt::format("the data directory {} cannot be made: {}", dir, ec.message()));
  // A new file is made here, so that it (and its -wal and -shm, which take
  // its mode) is 0600 from the start.
  bool writable = true;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
  else if (errno == EACCES || errno == EROFS || errno == EPERM) writable = false;
  if (writable) {
    try {
      open_read_write(0);
    } catch (const StoreError&) {
      const int rc = last_error != SQLITE_OK ? last_error : db ? sqlite3_extended_errcode(db) : SQLITE_CANTOPEN;
      if (!refused_for_rights(rc)) throw;
      writable = false;
    }
  }
  if (!writable) {
    if (!fs::exists(path))
      throw StoreError(fmt::format("{} cannot be made: the data directory {} is read-only and holds no games store yet", path, dir));
    read_only = true;
    // Without -shm beside a WAL database and no right to make one, only an
    // immutable open can read it.
    if (!open_read_only("?mode=ro") && !open_read_only("?immutable=1"))
      throw StoreError(fmt::format("{} can be neither written nor read", path));
  }
}

GameStore::GameStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GameStore::~GameStore() = default;

bool GameStore::read_only() const { return impl_->read_only; }
bool GameStore::in_memory() const { return impl_->in_memory; }
const std::string& GameStore::path() const { return impl_->path; }

void GameStore::create(const StoredGame& game) {
  std::lock_guard lock(impl_->mutex);
  Impl& d = *impl_;
  if (game.position > game.entries.size())
    throw StoreError(fmt::format("game {}: position {} is past its {} entries", game.id, game.position, game.entries.size()));
  d.write([&] {
    {
      Impl::Query exists(d, kContains);
      if (exists.bind(1, game.id).step()) throw StoreError(fmt::format("a game {} is already stored in {}", game.id, d.path));
    }
    const std::int64_t now = now_seconds();
    Impl::Query(d, kInsertGame)
        .bind(1, game.id).bind(2, game.system).bind(3, game.battle).bind(4, game.header).bind(5, game.meta)
        .bind(6, static_cast<std::int64_t>(game.position)).bind(7, static_cast<std::int64_t>(game.version))
        .bind(8, game.created ? game.created : now).bind(9, game.updated ? game.updated : now)
        .run();
    d.insert_entries(game.id, 0, game.entries);
  });
}

void GameStore::save(const GameChange& change) {
  std::lock_guard lock(impl_->mutex);
  Impl& d = *impl_;
  if (change.position > change.keep + change.append.size())
    throw StoreError(fmt::format("game {}: position {} is past its {} entries", change.id, change.position,
                                 change.keep + change.append.size()));
  d.write([&] {
    Impl::Query(d, kUpdateGame)
        .bind(1, change.id).bind(2, static_cast<std::int64_t>(change.position))
        .bind(3, static_cast<std::int64_t>(change.version)).bind(4, now_seconds()).bind(5, change.meta)
        .run();
    if (d.changes() == 0) throw StoreError(fmt::format("no game {} in {}", change.id, d.path));
    std::int64_t stored = 0;
    {
      Impl::Query count(d, kEntryCount);
      if (count.bind(1, change.id).step()) stored = sqlite3_column_int64(*count, 0);
    }
    if (static_cast<std::int64_t>(change.keep) > stored)
      throw StoreError(fmt::format("game {}: cannot keep {} entries of the {} stored", change.id, change.keep, stored));
    if (static_cast<std::int64_t>(change.keep) < stored)
      Impl::Query(d, kDeleteEntriesFrom).bind(1, change.id).bind(2, static_cast<std::int64_t>(change.keep)).run();
    d.insert_entries(change.id, change.keep, change.append);
  });
}

bool GameStore::remove(const std::string& id) {
  std::lock_guard lock(impl_->mutex);
  Impl& d = *impl_;
  return d.write([&] {
    Impl::Query(d, kDeleteEntries).bind(1, id).run();
    Impl::Query(d, kDeleteGame).bind(1, id).run();
    return d.changes() > 0;
  });
}

std::size_t GameStore::expire() {
  std::lock_guard lock(impl_->mutex);
  Impl& d = *impl_;
  if (d.options.keep_days <= 0) return 0;
  const std::int64_t cutoff = now_seconds() - std::int64_t{d.options.keep_days} * 86400;
  return d.write([&] {
    Impl::Query(d, kExpireEntries).bind(1, cutoff).run();
    Impl::Query(d, kExpireGames).bind(1, cutoff).run();
    return static_cast<std::size_t>(d.changes());
  });
}

std::optional<StoredGame> GameStore::load(const std::string& id) const {
  std::lock_guard lock(impl_->mutex);
  const Impl& d = *impl_;
  return d.read([&]() -> std::optional<StoredGame> {
    StoredGame g;
    {
      Impl::Query q(d, kLoadGame);
      if (!q.bind(1, id).step()) return std::nullopt;
      g.id = id;
      g.system = column_text(*q, 0);
      g.battle = column_text(*q, 1);
      g.header = column_text(*q, 2);
      g.meta = column_text(*q, 3);
      g.position = static_cast<std::size_t>(sqlite3_column_int64(*q, 4));
      g.version = static_cast<std::uint64_t>(sqlite3_column_int64(*q, 5));
      g.created = sqlite3_column_int64(*q, 6);
      g.updated = sqlite3_column_int64(*q, 7);
    }
    Impl::Query e(d, kLoadEntries);
    e.bind(1, id);
    while (e.step()) g.entries.push_back(column_text(*e, 0));
    return g;
  });
}

std::vector<GameSummary> GameStore::list() const {
  std::lock_guard lock(impl_->mutex);
  const Impl& d = *impl_;
  return d.read([&] {
    std::vector<GameSummary> out;
    Impl::Query q(d, kList);
    while (q.step()) {
      GameSummary s;
      s.id = column_text(*q, 0);
      s.system = column_text(*q, 1);
      s.battle = column_text(*q, 2);
      s.position = static_cast<std::size_t>(sqlite3_column_int64(*q, 3));
      s.created = sqlite3_column_int64(*q, 4);
      s.updated = sqlite3_column_int64(*q, 5);
      s.entries = static_cast<std::size_t>(sqlite3_column_int64(*q, 6));
      out.push_back(std::move(s));
    }
    return out;
  });
}

bool GameStore::contains(const std::string& id) const {
  std::lock_guard lock(impl_->mutex);
  const Impl& d = *impl_;
  return d.read([&] {
    Impl::Query q(d, kContains);
    return q.bind(1, id).step();
  });
}

std::string default_data_dir() {
  // XDG: a relative XDG_STATE_HOME is ignored.
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && state[0] == '/') return std::string(state) + "/referee";
  const char* home = std::getenv("HOME");
  if (home && home[0]) return std::string(home) + "/.local/state/referee";
  return "./referee-data";
}

}  // namespace referee::server
