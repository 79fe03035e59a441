// The checks every system's rule catalogue passes, by reading the source
// tree (REFEREE_SOURCE_DIR): every rule id the code can emit is in the
// catalogue, every catalogue id is emitted by some test or golden file, and
// the catalogue is well formed. A new `v.add("warmaster.x", ...)` without a
// catalogue entry, or an entry no test exercises, fails its suite.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "referee/core/rule_catalogue.hpp"

namespace referee::test_support {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Files under `dir` (relative to the source tree) whose extension is listed.
inline std::vector<std::filesystem::path> source_files(const std::string& dir, const std::set<std::string>& extensions) {
  std::vector<std::filesystem::path> out;
  std::filesystem::path root = std::filesystem::path(REFEREE_SOURCE_DIR) / dir;
  if (!std::filesystem::exists(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && extensions.count(e.path().extension().string())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The catalogue files themselves list every id; they prove nothing.
inline bool is_catalogue_file(const std::filesystem::path& p) {
  std::string name = p.filename().string();
  return name == "rules.cpp" || name == "rule_catalogue_test.cpp" || name == "rule_catalogue_checks.hpp";
}

// Every run of characters `keep` accepts that stands between `before` and
// `after` in `text` (empty runs only when `allow_empty`). A scanner, not
// std::regex: GCC 12 warns inside <regex> under the sanitizer build's -O1.
template <class Keep>
std::vector<std::string> runs_between(const std::string& text, const std::string& before, Keep keep,
                                      const std::string& after, bool allow_empty) {
  std::vector<std::string> out;
  for (std::size_t at = text.find(before); at != std::string::npos; at = text.find(before, at + 1)) {
    std::size_t end = at + before.size();
    while (end < text.size() && keep(text[end])) ++end;
    const std::size_t start = at + before.size();
    if ((allow_empty || end > start) && text.compare(end, after.size(), after) == 0)
      out.push_back(text.substr(start, end - start));
  }
  return out;
}

inline bool id_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'; }
inline bool anchor_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Every string literal "<system>.<...>" in src/, include/ and apps/.
// Literals that end in a dot ("warmaster.command.") are prefixes of ids
// composed at run time; they are returned too, so a test can insist that each
// is handled explicitly.
inline std::set<std::string> rule_literals_in_code(const std::string& system) {
  std::set<std::string> ids;
  for (const char* dir : {"src", "include", "apps"})
    for (const auto& p : source_files(dir, {".cpp", ".hpp", ".h"})) {
      if (is_catalogue_file(p)) continue;
      const std::string text = read_text(p);
      for (const std::string& rest : runs_between(text, "\"" + system + ".", id_char, "\"", true))
        ids.insert(system + "." + rest);
    }
  return ids;
}

// All test sources, scripts and golden files, as one text per file.
inline std::vector<std::pair<std::filesystem::path, std::string>> test_texts() {
  std::vector<std::pair<std::filesystem::path, std::string>> out;
  for (const auto& p : source_files("tests", {".cpp", ".hpp", ".sh", ".json", ".jsonl", ".txt"})) {
    if (is_catalogue_file(p)) continue;
    out.push_back({p, read_text(p)});
  }
  return out;
}

// Whether `id` occurs in `text` as a whole id: in test code as a string
// literal ("warmaster.movement.gap"), in golden files and scripts bounded by
// characters that cannot be part of an id ("warmaster.movement.gap: ...").
inline bool mentions_id(const std::filesystem::path& file, const std::string& text, const std::string& id) {
  const std::string ext = file.extension().string();
  if (ext == ".cpp" || ext == ".hpp") return text.find("\"" + id + "\"") != std::string::npos;
  for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
    bool left = at == 0 || !id_char(text[at - 1]);
    std::size_t after = at + id.size();
    // A trailing full stop ends a sentence, not the id.
    bool right = after == text.size() || !id_char(text[after]) ||
                 (text[after] == '.' && (after + 1 == text.size() || !id_char(text[after + 1])));
    if (left && right) return true;
  }
  return false;
}

// Every `docs/rulings.md#<anchor>` cited in `text`.
inline std::vector<std::string> cited_anchors(const std::string& text) {
  return runs_between(text, "docs/rulings.md#", anchor_char, "", false);
}

inline std::set<std::string> rulings_anchors() {
  std::set<std::string> out;
  std::string text = read_text(std::filesystem::path(REFEREE_SOURCE_DIR) / "docs" / "rulings.md");
  for (std::string& a : runs_between(text, "<a id=\"", anchor_char, "\"></a>", false)) out.insert(std::move(a));
  return out;
}

// (a) Every id the code can emit is in the catalogue. `composed` lists the
// ids built at run time from a prefix literal, each of which must be in the
// catalogue too; a prefix literal not accounted for fails.
inline void expect_code_ids_catalogued(const std::string& system, std::span<const RuleInfo> catalogue,
                                       const std::vector<std::string>& composed_prefixes = {},
                                       const std::vector<std::string>& composed_ids = {}) {
  std::set<std::string> literals = rule_literals_in_code(system);
  ASSERT_FALSE(literals.empty()) << "no " << system << " rule ids found under " << REFEREE_SOURCE_DIR;
  for (const std::string& id : literals) {
    if (id.back() == '.') {
      EXPECT_TRUE(std::find(composed_prefixes.begin(), composed_prefixes.end(), id) != composed_prefixes.end())
          << "a rule id is composed from \"" << id << "\": list the ids it can make in this test";
      continue;
    }
    EXPECT_TRUE(find_rule(catalogue, id).has_value()) << id << " is emitted by the code but not in the catalogue";
  }
  for (const std::string& id : composed_ids)
    EXPECT_TRUE(find_rule(catalogue, id).has_value()) << id << " (composed) is not in the catalogue";
}

// (b) Every catalogue id appears in some test or golden file.
inline void expect_catalogue_ids_tested(std::span<const RuleInfo> catalogue) {
  auto texts = test_texts();
  ASSERT_FALSE(texts.empty());
  for (const RuleInfo& r : catalogue) {
    std::string id(r.id);
    bool found = std::any_of(texts.begin(), texts.end(), [&](const auto& t) { return mentions_id(t.first, t.second, id); });
    EXPECT_TRUE(found) << id << " is in the catalogue but no test or golden file emits it";
  }
}

// (c) Ids unique, well formed and of this system; texts and firing
// conditions present; every docs/rulings.md#<anchor> cited exists.
inline void expect_catalogue_well_formed(const std::string& system, std::span<const RuleInfo> catalogue) {
  ASSERT_FALSE(catalogue.empty());
  std::set<std::string_view> seen;
  const std::set<std::string> anchors = rulings_anchors();
  for (const RuleInfo& r : catalogue) {
    EXPECT_TRUE(seen.insert(r.id).second) << r.id << " is listed twice";
    EXPECT_TRUE(well_formed_rule_id(r.id)) << r.id;
    EXPECT_EQ(r.id.substr(0, system.size() + 1), system + ".") << r.id;
    EXPECT_FALSE(r.text.empty()) << r.id;
    EXPECT_FALSE(r.fires.empty()) << r.id;
    for (const std::string& a : cited_anchors(std::string(r.text)))
      EXPECT_TRUE(anchors.count(a)) << r.id << " cites docs/rulings.md#" << a << ", which has no such anchor";
  }
}

}  // namespace referee::test_support
