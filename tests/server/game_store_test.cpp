// The games store of `referee serve` (apps/server/game_store.hpp): what a
// change writes, what survives closing, expiry, and that a failing write (a
// full disk, a read-only directory) leaves the stored game as it was.
#include <gtest/gtest.h>

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "game_store.hpp"
#include "support/temp_dir.hpp"

namespace referee::server {
namespace {

using test_support::TempDir;

std::int64_t now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

StoredGame game(const std::string& id, std::size_t entries) {
  StoredGame g;
  g.id = id;
  g.system = "warmaster";
  g.battle = "fair-battle";
  g.header = R"({"log":"referee","system":"warmaster","battle":{"name":"x"}})";
  g.meta = R"({"seats":[{"side":0}]})";
  for (std::size_t i = 0; i < entries; ++i) g.entries.push_back(R"({"action":{"type":"end_phase"},"n":)" + std::to_string(i) + "}");
  g.position = entries;
  g.version = 1;
  return g;
}

void expect_same(const StoredGame& a, const StoredGame& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.system, b.system);
  EXPECT_EQ(a.battle, b.battle);
  EXPECT_EQ(a.header, b.header);
  EXPECT_EQ(a.meta, b.meta);
  EXPECT_EQ(a.entries, b.entries);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.version, b.version);
}

// Sets a game's `updated` behind the store's back, through a connection of its own.
void set_updated(const std::string& file, const std::string& id, std::int64_t when) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  const std::string sql = "UPDATE games SET updated = " + std::to_string(when) + " WHERE id = '" + id + "'";
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  EXPECT_EQ(sqlite3_changes(db), 1);
  sqlite3_close(db);
}

TEST(GameStore, CreateThenLoadGivesTheGameBack) {
  TempDir tmp;
  auto store = GameStore::open(tmp / "data");
  EXPECT_FALSE(store->read_only());
  EXPECT_FALSE(store->in_memory());
  EXPECT_EQ(store->path(), tmp / "data/games.sqlite3");
  StoredGame g = game("a1", 4);
  g.entries[2] = "{\"text\":\"quotes ' and \\\" and \xc3\xa9\"}";
  g.position = 3;
  store->create(g);
  EXPECT_TRUE(store->contains("a1"));
  EXPECT_FALSE(store->contains("b2"));
  EXPECT_FALSE(store->load("b2").has_value());
  const auto back = store->load("a1");
  ASSERT_TRUE(back.has_value());
  expect_same(*back, g);
  EXPECT_GE(back->created, now() - 60);
  EXPECT_EQ(back->created, back->updated);
  EXPECT_THROW(store->create(game("a1", 1)), StoreError);
  expect_same(*store->load("a1"), g);
}

TEST(GameStore, AnUndoThenANewActionReplacesTheRedoEntries) {
  auto store = GameStore::open(":memory:");
  EXPECT_TRUE(store->in_memory());
  store->create(game("g", 5));
  // Two undos: the entries stay, to be redone; only the position moves.
  store->save({"g", 5, {}, 3, 2, std::nullopt});
  auto g = store->load("g");
  EXPECT_EQ(g->entries.size(), 5u);
  EXPECT_EQ(g->position, 3u);
  EXPECT_EQ(g->version, 2u);
  // A new action there replaces both redo entries with itself.
  store->save({"g", 3, {"{\"new\":1}"}, 4, 3, std::string(R"({"seats":[]})")});
  g = store->load("g");
  const StoredGame before = game("g", 5);
  ASSERT_EQ(g->entries.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(g->entries.begin(), g->entries.begin() + 3),
            std::vector<std::string>(before.entries.begin(), before.entries.begin() + 3));
  EXPECT_EQ(g->entries[3], "{\"new\":1}");
  EXPECT_EQ(g->position, 4u);
  EXPECT_EQ(g->version, 3u);
  EXPECT_EQ(g->meta, R"({"seats":[]})");
  // Appending keeps everything before.
  store->save({"g", 4, {"{\"n\":5}", "{\"n\":6}"}, 6, 4, std::nullopt});
  g = store->load("g");
  ASSERT_EQ(g->entries.size(), 6u);
  EXPECT_EQ(g->entries[5], "{\"n\":6}");
  EXPECT_EQ(g->meta, R"({"seats":[]})");  // no meta given: kept
  EXPECT_EQ(store->list().at(0).entries, 6u);
}

TEST(GameStore, AChangeThatCannotApplyIsRefusedAndChangesNothing) {
  auto store = GameStore::open(":memory:");
  store->create(game("g", 2));
  EXPECT_THROW(store->save({"nope", 0, {}, 0, 2, std::nullopt}), StoreError);
  EXPECT_FALSE(store->contains("nope"));
  // Keeping more entries than are stored would leave a gap.
  EXPECT_THROW(store->save({"g", 3, {"{}"}, 4, 2, std::string("{}")}), StoreError);
  // A position past the entries.
  EXPECT_THROW(store->save({"g", 2, {}, 3, 2, std::nullopt}), StoreError);
  expect_same(*store->load("g"), game("g", 2));
}

TEST(GameStore, RemoveDeletesTheGameAndItsEntries) {
  auto store = GameStore::open(":memory:");
  store->create(game("g", 3));
  store->create(game("h", 1));
  EXPECT_TRUE(store->remove("g"));
  EXPECT_FALSE(store->remove("g"));
  EXPECT_FALSE(store->contains("g"));
  EXPECT_EQ(store->list().size(), 1u);
  // The same id again starts with no entries of the old game.
  store->create(game("g", 0));
  EXPECT_TRUE(store->load("g")->entries.empty());
  EXPECT_EQ(store->load("h")->entries.size(), 1u);
}

TEST(GameStore, ListIsNewestChangeFirst) {
  TempDir tmp;
  const std::string file = tmp / "games.sqlite3";
  {
    auto store = GameStore::open(tmp / "");
    store->create(game("old", 1));
    store->create(game("new", 2));
    store->create(game("mid", 3));
    store->save({"mid", 3, {}, 1, 2, std::nullopt});
  }
  set_updated(file, "old", now() - 3000);
  set_updated(file, "mid", now() - 2000);
  set_updated(file, "new", now() - 1000);
  auto store = GameStore::open(tmp / "");
  const std::vector<GameSummary> list = store->list();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].id, "new");
  EXPECT_EQ(list[1].id, "mid");
  EXPECT_EQ(list[2].id, "old");
  EXPECT_EQ(list[1].entries, 3u);
  EXPECT_EQ(list[1].position, 1u);
  EXPECT_EQ(list[1].system, "warmaster");
  EXPECT_EQ(list[1].battle, "fair-battle");
  EXPECT_LT(list[1].updated, list[0].updated);
}

TEST(GameStore, GamesUnchangedForKeepDaysAreDeleted) {
  TempDir tmp;
  const std::string file = tmp / "games.sqlite3";
  {
    auto store = GameStore::open(tmp / "");
    for (const char* id : {"today", "ten-days", "forty-days"}) store->create(game(id, 2));
  }
  set_updated(file, "ten-days", now() - 10 * 86400);
  set_updated(file, "forty-days", now() - 40 * 86400);
  // Kept for good by default.
  EXPECT_EQ(GameStore::open(tmp / "")->list().size(), 3u);
  EXPECT_EQ(GameStore::open(tmp / "")->expire(), 0u);
  {
    // Opening with 30 days deletes the game of 40 days.
    auto store = GameStore::open(tmp / "", {0, 30});
    EXPECT_FALSE(store->contains("forty-days"));
    EXPECT_TRUE(store->contains("ten-days"));
    EXPECT_EQ(store->expire(), 0u);
  }
  auto store = GameStore::open(tmp / "", {0, 7});
  EXPECT_FALSE(store->contains("ten-days"));
  ASSERT_EQ(store->list().size(), 1u);
  EXPECT_EQ(store->list()[0].id, "today");
  // Their entries went with them.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*) FROM entries", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(s, 0), 2);
  sqlite3_finalize(s);
  sqlite3_close(db);
}

TEST(GameStore, GamesSurviveClosingAndTheFilesArePrivate) {
  TempDir tmp;
  const std::string dir = tmp / "state/referee";
  StoredGame g = game("kept", 3);
  {
    auto store = GameStore::open(dir);
    store->create(g);
    store->save({"kept", 3, {"{\"n\":3}"}, 4, 2, std::nullopt});
  }
  g.entries.push_back("{\"n\":3}");
  g.position = 4;
  g.version = 2;
  auto store = GameStore::open(dir);
  expect_same(*store->load("kept"), g);
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(store->path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(GameStore, AFullDiskRefusesTheWriteAndKeepsTheLastGoodSave) {
  TempDir tmp;
  auto store = GameStore::open(tmp / "", {256 * 1024, 0});
  store->create(game("g", 1));
  const std::string kilobyte(1000, 'x');
  std::size_t saved = 1;
  std::string error;
  for (int i = 0; i < 1000 && error.empty(); ++i) {
    try {
      store->save({"g", saved, {"{\"pad\":\"" + kilobyte + std::to_string(i) + "\"}"}, saved + 1, saved + 1, std::nullopt});
      ++saved;
    } catch (const StoreError& e) {
      error = e.what();
    }
  }
  ASSERT_FALSE(error.empty()) << "256 kB never filled";
  EXPECT_GT(saved, 40u);
  EXPECT_EQ(error, "the disk holding " + store->path() + " is full (or the store reached its --data-max-mb limit)");
  const auto g = store->load("g");
  ASSERT_EQ(g->entries.size(), saved);
  EXPECT_EQ(g->position, saved);
  EXPECT_EQ(g->version, saved);
  EXPECT_NE(g->entries.back().find(kilobyte + std::to_string(saved - 2)), std::string::npos);
  // Removing a game frees room; a store without the limit takes the write.
  store.reset();
  auto roomy = GameStore::open(tmp / "");
  roomy->save({"g", saved, {"{}"}, saved + 1, saved + 1, std::nullopt});
  EXPECT_EQ(roomy->load("g")->entries.size(), saved + 1);
}

TEST(GameStore, AFileThatIsNoStoreIsAnErrorNamingIt) {
  TempDir tmp;
  tmp.put("games.sqlite3", std::string(5000, 'z'));
  try {
    GameStore::open(tmp / "");
    FAIL() << "opened a file that is not a database";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(tmp / "games.sqlite3"), std::string::npos) << e.what();
  }
}

// What a store in a directory that cannot be written does: exit codes of the
// child that checks it (0: all as promised).
int check_read_only(const std::string& dir, const std::string& empty_dir, const StoredGame& expected) {
  try {
    auto store = GameStore::open(dir);
    if (!store->read_only()) return 3;
    const auto g = store->load(expected.id);
    if (!g || g->entries != expected.entries || g->position != expected.position) return 4;
    if (store->list().size() != 1) return 5;
    try {
      store->save({expected.id, 0, {}, 0, 9, std::nullopt});
      return 6;
    } catch (const StoreError& e) {
      if (std::string(e.what()) != store->path() + " cannot be written: the data directory is read-only") return 7;
    }
    try {
      store->remove(expected.id);
      return 8;
    } catch (const StoreError&) {
    }
    if (!store->contains(expected.id)) return 9;
  } catch (const std::exception&) {
    return 10;
  }
  try {
    GameStore::open(empty_dir);
    return 11;
  } catch (const StoreError&) {
  }
  return 0;
}

// Runs check_read_only where the directory cannot be written, the file
// having `file_mode`: as nobody when the test runs as root (root ignores
// modes), in a directory root owns; else with the directory made 0555.
int read_only_check(const TempDir& tmp, const std::string& dir, const std::string& empty, const StoredGame& g,
                    mode_t file_mode) {
  const std::string file = dir + "/games.sqlite3";
  if (::geteuid() == 0) {
    if (::chmod((tmp / "").c_str(), 0755) != 0 || ::chmod(dir.c_str(), 0755) != 0 || ::chmod(file.c_str(), file_mode) != 0 ||
        ::chmod(empty.c_str(), 0755) != 0)
      return 20;
    const pid_t pid = ::fork();
    if (pid < 0) return 21;
    if (pid == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0 || ::geteuid() != 65534) ::_exit(2);
      ::_exit(check_read_only(dir, empty, g));
    }
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 22;
    return WEXITSTATUS(status);
  }
  ::chmod(file.c_str(), file_mode & 0700);
  ::chmod(dir.c_str(), 0555);
  ::chmod(empty.c_str(), 0555);
  const int code = check_read_only(dir, empty, g);
  ::chmod(dir.c_str(), 0755);
  ::chmod(empty.c_str(), 0755);
  return code;
}

TEST(GameStore, AReadOnlyDirectoryIsOpenedForReading) {
  TempDir tmp;
  const std::string dir = tmp / "data", empty = tmp / "empty";
  const StoredGame g = game("ro", 3);
  GameStore::open(dir)->create(g);
  std::filesystem::create_directory(empty);
  // The file cannot be written either.
  EXPECT_EQ(read_only_check(tmp, dir, empty, g, 0444), 0) << "see check_read_only for what the code means";
  // The file can be written, but not the directory, where its -wal and -shm would go.
  EXPECT_EQ(read_only_check(tmp, dir, empty, g, 0666), 0) << "see check_read_only for what the code means";
  // The game is as it was.
  expect_same(*GameStore::open(dir)->load("ro"), g);
}

TEST(GameStore, TheDefaultDirectoryFollowsXdg) {
  const char* xdg = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
  ::setenv("XDG_STATE_HOME", "/srv/state", 1);
  ::setenv("HOME", "/home/ann", 1);
  EXPECT_EQ(default_data_dir(), "/srv/state/referee");
  ::setenv("XDG_STATE_HOME", "relative", 1);  // the XDG specification ignores it
  EXPECT_EQ(default_data_dir(), "/home/ann/.local/state/referee");
  ::unsetenv("XDG_STATE_HOME");
  EXPECT_EQ(default_data_dir(), "/home/ann/.local/state/referee");
  ::unsetenv("HOME");
  EXPECT_EQ(default_data_dir(), "./referee-data");
  if (xdg) ::setenv("XDG_STATE_HOME", saved_xdg.c_str(), 1);
  if (home) ::setenv("HOME", saved_home.c_str(), 1);
}

}  // namespace
}  // namespace referee::server
