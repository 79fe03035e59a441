// Hostile input at the shared entry points: nesting, seeds in log headers,
// unbounded or odd input files, and output targets that must not be written
// through (docs/input-limits.md).
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "referee/core/dice.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"
#include "support/input_error.hpp"

namespace hostile_input_test {

using namespace referee;
using referee::test_support::error_of;
namespace fs = std::filesystem;

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// A fresh folder per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "referee-hostile-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::size_t entries() const {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(path_)) ++n;
    return n;
  }

 private:
  fs::path path_;
};

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
std::string get(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(NestingLimit, DeepArraysAreRefusedBeforeAnyValueIsBuilt) {
  // 87,000 levels overflowed the stack of the release build, 12,000 that of ASan.
  for (std::size_t depth : {std::size_t{87000}, std::size_t{12000}, std::size_t{257}})
    EXPECT_EQ(error_of([&] { parse_json_text(nested(depth), "deep.json"); }),
              "deep.json: nested deeper than 256 levels (the limit for any input)");
  EXPECT_EQ(parse_json_text(nested(256), "ok.json").size(), 1u);
  // Objects count too, and the line is named in a file of several lines.
  std::string objects;
  for (int i = 0; i < 300; ++i) objects += "{\"a\":\n";
  EXPECT_EQ(error_of([&] { parse_json_text(objects, "o.json"); }),
            "o.json: nested deeper than 256 levels at line 257 (the limit for any input)");
}

TEST(NestingLimit, BracketsInsideStringsDoNotCount) {
  std::string s = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
  EXPECT_EQ(parse_json_text(s, "s.json")[0].get<std::string>().size(), 2001u);
  EXPECT_EQ(json_nesting_depth(s, 256), 1u);
  EXPECT_EQ(json_nesting_depth("[[1],[[2]]]", 256), 3u);
}

TEST(NestingLimit, TheLimitIsASetting) {
  EXPECT_EQ(error_of([&] { parse_json_text(nested(10), "x.json", 9); }),
            "x.json: nested deeper than 9 levels (the limit for any input)");
}

TEST(NestingLimit, AnActionFileNestedDeepNamesTheFile) {
  TempDir dir;
  put(dir / "actions.json", "[{\"type\":\"end_phase\",\"x\":" + nested(87000) + "}]");
  EXPECT_EQ(error_of([&] { load_json_file(dir / "actions.json"); }),
            dir / "actions.json" + ": nested deeper than 256 levels (the limit for any input)");
}

TEST(NestingLimit, ALogWhoseResultIsNestedDeepIsRefusedWithItsLine) {
  const std::string header = R"({"format":"referee-log/1","system":"warmaster","seed":1,"scenario":"s"})";
  for (std::size_t depth : {std::size_t{87000}, std::size_t{12000}}) {
    std::string text = header + "\n{\"seq\":1,\"action\":{},\"rolls\":[],\"result\":" + nested(depth) + "}\n";
    EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(text, "game.log"); }),
              "game.log line 2: nested deeper than 256 levels (the limit for any input)");
  }
}

TEST(LogSeed, OnlyAWholeNumberInRange) {
  auto header = [](const std::string& seed) {
    return R"({"format":"referee-log/1","system":"warmaster","scenario":"s","seed":)" + seed + "}\n";
  };
  EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(header("11.5"), "game.log"); }),
            "game.log line 1.seed: expected a whole number from 0 to 18446744073709551615, got 11.5");
  EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(header("-1"), "game.log"); }),
            "game.log line 1.seed: expected a whole number from 0 to 18446744073709551615, got -1");
  EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(header("18446744073709551616"), "game.log"); }),
            "game.log line 1.seed: expected a whole number from 0 to 18446744073709551615, got 1.8446744073709552e+19");
  EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(header("\"7\""), "game.log"); }),
            "game.log line 1.seed: expected a whole number from 0 to 18446744073709551615, got something else");
  EXPECT_EQ(GameLog::parse_jsonl(header("18446744073709551615"), "game.log").seed, 18446744073709551615u);
  EXPECT_EQ(GameLog::parse_jsonl(header("11"), "game.log").seed, 11u);
}

TEST(LogText, APathThatIsNotUtf8IsWrittenAsValidJson) {
  GameLog log;
  log.system = "warmaster";
  log.scenario = "battle\xff.json";
  const std::string text = log.to_jsonl();
  EXPECT_NE(text.find("battle\xEF\xBF\xBD.json"), std::string::npos);
  EXPECT_EQ(GameLog::parse_jsonl(text, "game.log").scenario, "battle\xEF\xBF\xBD.json");
}

TEST(ReadTextFile, ReadsOnlyRegularFiles) {
  TempDir dir;
  EXPECT_EQ(error_of([&] { read_text_file(dir / "missing.json"); }),
            dir / "missing.json" + ": cannot open the file: No such file or directory");
  EXPECT_EQ(error_of([&] { read_text_file(dir / ""); }), dir / "" + ": is a directory; only regular files are read");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(error_of([&] { read_text_file(dir / "fifo"); }), dir / "fifo" + ": is a pipe; only regular files are read");
  EXPECT_EQ(error_of([&] { read_text_file("/dev/zero"); }), "/dev/zero: is a device; only regular files are read");
}

TEST(ReadTextFile, SizeIsCapped) {
  TempDir dir;
  put(dir / "big.json", std::string(100, ' '));
  EXPECT_EQ(read_text_file(dir / "big.json", 100).size(), 100u);
  EXPECT_EQ(error_of([&] { read_text_file(dir / "big.json", 99); }),
            dir / "big.json" + ": is larger than the input limit of 99 bytes (set REFEREE_MAX_INPUT_BYTES to raise it)");
  EXPECT_EQ(kDefaultMaxInputBytes, 67108864u);
}

// The value of REFEREE_MAX_INPUT_BYTES, which only the program's entry reads.
TEST(ReadTextFile, LimitFromTheEnvironmentValue) {
  EXPECT_EQ(max_input_bytes_from(nullptr), kDefaultMaxInputBytes);
  EXPECT_EQ(max_input_bytes_from(""), kDefaultMaxInputBytes);
  EXPECT_EQ(max_input_bytes_from("100"), 100u);
  EXPECT_EQ(max_input_bytes_from("9999999999999999999"), 9999999999999999999u);
  for (const char* bad : {"lots", "0", "-5", "1e6", " 100", "100000000000000000000"})
    EXPECT_EQ(error_of([&] { max_input_bytes_from(bad); }),
              std::string("REFEREE_MAX_INPUT_BYTES: expected a positive whole number of bytes, got \"") + bad + "\"")
        << bad;
}

TEST(WriteFileAtomic, ReplacesARegularFileAndLeavesNoTemporary) {
  TempDir dir;
  put(dir / "out.json", "old");
  ASSERT_EQ(::chmod((dir / "out.json").c_str(), 0640), 0);
  write_file_atomic(dir / "out.json", "new");
  EXPECT_EQ(get(dir / "out.json"), "new");
  struct stat st {};
  ASSERT_EQ(::stat((dir / "out.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  write_file_atomic(dir / "fresh.svg", "<svg/>");
  EXPECT_EQ(get(dir / "fresh.svg"), "<svg/>");
  EXPECT_EQ(dir.entries(), 2u);
}

TEST(WriteFileAtomic, RefusesASymbolicLinkAtTheTarget) {
  TempDir dir;
  put(dir / "victim", "precious");
  ASSERT_EQ(::symlink((dir / "victim").c_str(), (dir / "out.json").c_str()), 0);
  EXPECT_EQ(error_of([&] { write_file_atomic(dir / "out.json", "x"); }),
            dir / "out.json" + ": is a symbolic link; output is written only to a regular file (or to standard output with -)");
  EXPECT_EQ(get(dir / "victim"), "precious");
  EXPECT_TRUE(fs::is_symlink(dir / "out.json"));
  EXPECT_EQ(dir.entries(), 2u);
}

TEST(WriteFileAtomic, ALinkPlantedAtTheOldTemporaryNameIsNotFollowed) {
  TempDir dir;
  put(dir / "victim", "precious");
  ASSERT_EQ(::symlink((dir / "victim").c_str(), (dir / "out.json.tmp-referee").c_str()), 0);
  write_file_atomic(dir / "out.json", "answer");
  EXPECT_EQ(get(dir / "victim"), "precious");
  EXPECT_EQ(get(dir / "out.json"), "answer");
}

TEST(WriteFileAtomic, RefusesDevicesDirectoriesAndMissingFolders) {
  TempDir dir;
  // As root a regression would replace the system's own /dev/null, so root
  // tries a device node of its own making.
  std::string device = "/dev/null";
  bool own_device = false, have_device = true;
  if (::geteuid() == 0) {
    device = dir / "null";
    own_device = have_device = ::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
  }
  if (have_device) {
    EXPECT_EQ(error_of([&] { write_file_atomic(device, "x"); }),
              device + ": is a device; output is written only to a regular file (or to standard output with -)");
    EXPECT_TRUE(fs::is_character_file(device));
  }
  EXPECT_EQ(error_of([&] { write_file_atomic(dir / "", "x"); }),
            dir / "" + ": is a directory; output is written only to a regular file (or to standard output with -)");
  EXPECT_EQ(error_of([&] { write_file_atomic(dir / "no/such/out.json", "x"); }),
            dir / "no/such/out.json" + ": cannot write the file: No such file or directory");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(error_of([&] { write_file_atomic(dir / "fifo", "x"); }),
            dir / "fifo" + ": is a pipe; output is written only to a regular file (or to standard output with -)");
  EXPECT_EQ(dir.entries(), own_device ? 2u : 1u);
}

TEST(StagedFile, NothingIsWrittenUntilCommit) {
  TempDir dir;
  put(dir / "a.json", "old");
  {
    StagedFile a(dir / "a.json", "new");
    EXPECT_EQ(get(dir / "a.json"), "old");
    EXPECT_EQ(dir.entries(), 2u);  // the file and its temporary
  }
  EXPECT_EQ(get(dir / "a.json"), "old");
  EXPECT_EQ(dir.entries(), 1u);
  StagedFile b(dir / "a.json", "new");
  b.commit();
  EXPECT_EQ(get(dir / "a.json"), "new");
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(ErrorsNameTheSource, PrefixedOnce) {
  EXPECT_EQ(std::string(in_source("default.json", InputError("armies", "missing field")).what()),
            "default.json: armies: missing field");
  EXPECT_EQ(std::string(in_source("m.json", InputError("", "expected an object, got an array")).what()),
            "m.json: expected an object, got an array");
  EXPECT_EQ(std::string(in_source("game.log", InputError("game.log line 3.seq", "bad")).what()), "game.log line 3.seq: bad");
  EXPECT_EQ(std::string(in_source("a.json", InputError("a.json[2].type", "bad")).what()), "a.json[2].type: bad");
}

TEST(Ids, ControlCharactersAreRefused) {
  Json j = Json::parse(R"({"id":"a\u0001b","e":""})");
  JsonReader r(j, "units[0]");
  EXPECT_EQ(error_of([&] { r.id("id"); }),
            "units[0].id: contains the control character U+0001; ids are printed in answers and pictures");
  EXPECT_EQ(error_of([&] { r.id("e"); }), "units[0].e: must not be empty");
}

TEST(XmlEscape, ControlCharactersBecomeReplacementCharacters) {
  EXPECT_EQ(xml_escape("a\x01<b>&\"\tc\x1f"), "a\xEF\xBF\xBD&lt;b&gt;&amp;&quot;\tc\xEF\xBF\xBD");
}

}  // namespace hostile_input_test

namespace hostile_input_test_json {

using namespace referee;
using referee::test_support::error_of;

TEST(FromJson, RollsAndRulingsGiveInputErrors) {
  EXPECT_EQ(error_of([] { (void)Json{{"die", "dx"}, {"value", 1}}.get<Roll>(); }),
            "die: expected a die such as \"d6\", got \"dx\"");
  EXPECT_EQ(error_of([] { (void)Json{{"die", "d6"}, {"value", 7}}.get<Roll>(); }), "value: 7 is out of range [1, 6]");
  EXPECT_EQ(error_of([] { (void)Json::array().get<Ruling>(); }), "expected an object, got an array");
  EXPECT_EQ(error_of([] { (void)Json{{"rule", "r"}}.get<Ruling>(); }), "reason: missing field");
  const Roll r = Json{{"die", "d6"}, {"value", 4}, {"for", "order"}}.get<Roll>();
  EXPECT_EQ(r.sides, 6);
  EXPECT_EQ(r.value, 4);
  EXPECT_EQ(r.purpose, "order");
}

}  // namespace hostile_input_test_json
