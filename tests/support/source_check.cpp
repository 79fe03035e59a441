// source_check: what the structure of the code promises (docs/architecture.md,
// "What the tests keep true of the code"), checked on the tokens of every C++ file rather than
// by grepping lines, so that formatting cannot hide anything:
//
//   long functions      function bodies over the limit (100 lines) in src/ and apps/
//   literal rule ids    string literals that spell a rule id ("warmaster.movement.gap")
//                       outside the rule catalogues that define them
//   outside citations   comments or strings citing what lies outside the repository
//                       ("../shared", "README reading 4", "the README's readings")
//   mutable members     `mutable` data members (caches written by const methods;
//                       a mutex is not a cache and is not counted)
//   upward includes     a file of one room of a system including a room above
//                       it or beside it: src/<system>/rooms.txt lists the rooms
//                       from the bottom up, rooms on one line being neighbours
//                       that do not include each other; the files outside any
//                       room (the system's registration) sit on top
//   front-end includes  a file of the engine (src/, include/) including a front
//                       end's header: one of apps/ or python/, or a library only
//                       a front end uses (CLI11, Beast, Asio, pybind11, SQLite,
//                       OpenSSL); the engine knows nothing of its front ends
//
//   source_check ROOT [--limit N] [--list] [--fail-on KINDS]   exit 1 when any is
//   found, printing each as file:line: what. --list prints the 20 longest
//   functions too. --fail-on names the kinds that fail (a comma list of
//   functions, rule-ids, citations, mutables, layers, front-ends; all by default): the others are
//   reported only (the ctest source.check fails on those already at zero).
//
// Comments, string and character literals (raw strings included) and
// preprocessor lines are recognised; a function body is a brace block opened
// at namespace or class scope after a parameter list (constructor initialiser
// lists included). Lambdas count toward the function that holds them.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

enum class Kind { Identifier, Number, String, Char, Punct, Comment };

struct Token {
  Kind kind;
  std::string text;
  int line;
};

// Splits C++ source into tokens; preprocessor lines are dropped, comments kept.
std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  int line = 1;
  std::size_t i = 0;
  bool line_start = true;
  auto count_lines = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < s.size(); ++k) line += s[k] == '\n';
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // a preprocessor line, with its continuations
      std::size_t j = i;
      while (j < s.size() && !(s[j] == '\n' && s[j - 1] != '\\')) ++j;
      count_lines(i, j);
      i = j;
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      std::size_t j = s.find('\n', i);
      if (j == std::string::npos) j = s.size();
      out.push_back({Kind::Comment, s.substr(i, j - i), line});
      i = j;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      std::size_t j = s.find("*/", i + 2);
      j = j == std::string::npos ? s.size() : j + 2;
      out.push_back({Kind::Comment, s.substr(i, j - i), line});
      count_lines(i, j);
      i = j;
      continue;
    }
    // Raw string: R"delim( ... )delim", with an optional prefix (u8R, LR, ...).
    if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') {
      const std::size_t open = s.find('(', i + 2);
      if (open != std::string::npos) {
        const std::string delim = ")" + s.substr(i + 2, open - i - 2) + "\"";
        std::size_t j = s.find(delim, open + 1);
        j = j == std::string::npos ? s.size() : j + delim.size();
        out.push_back({Kind::String, s.substr(open + 1, j - open - 1 - delim.size()), line});
        count_lines(i, j);
        i = j;
        continue;
      }
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      out.push_back({c == '"' ? Kind::String : Kind::Char, s.substr(i + 1, j - i - 1), line});
      i = j + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Kind::Identifier, s.substr(i, j - i), line});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '\'')) ++j;
      out.push_back({Kind::Number, s.substr(i, j - i), line});
      i = j;
      continue;
    }
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      out.push_back({Kind::Punct, "::", line});
      i += 2;
      continue;
    }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '>') {
      out.push_back({Kind::Punct, "->", line});
      i += 2;
      continue;
    }
    out.push_back({Kind::Punct, std::string(1, c), line});
    ++i;
  }
  return out;
}

struct Function {
  std::string file, name;
  int line = 0, lines = 0;
};

enum class Scope { Namespace, Class, Body, Other };

// Function bodies opened at namespace or class scope.
std::vector<Function> functions(const std::vector<Token>& all, const std::string& file) {
  std::vector<const Token*> t;
  for (const Token& x : all)
    if (x.kind != Kind::Comment) t.push_back(&x);
  std::vector<Function> out;
  struct Open {
    Scope scope;
    std::size_t fn;  // index into out, for a body
  };
  std::vector<Open> stack;
  std::size_t stmt = 0;  // first token of the statement at the current scope
  auto scope = [&] { return stack.empty() ? Scope::Namespace : stack.back().scope; };
  auto is = [&](std::size_t k, const char* text) { return k < t.size() && t[k]->text == text; };
  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::string& x = t[k]->text;
    const bool punct = t[k]->kind == Kind::Punct;
    if (punct && x == "{") {
      Scope s = Scope::Other;
      if (scope() == Scope::Namespace || scope() == Scope::Class) {
        // What the statement so far is: namespace, a class, a function, or data.
        bool has_paren = false, eq_before_paren = false, ctor_init = false, record = false, ns = false;
        int depth = 0;
        for (std::size_t j = stmt; j < k; ++j) {
          const std::string& y = t[j]->text;
          if (t[j]->kind == Kind::Identifier && depth == 0 && !has_paren) {
            if (y == "namespace") ns = true;
            if (y == "class" || y == "struct" || y == "union" || y == "enum") record = true;
          }
          if (y == "(") {
            if (depth == 0) has_paren = true;
            ++depth;
          } else if (y == ")") {
            --depth;
          } else if (y == "=" && depth == 0 && !has_paren) {
            eq_before_paren = true;
          } else if (y == ":" && depth == 0 && has_paren && j > 0 && t[j - 1]->text == ")") {
            ctor_init = true;
          }
        }
        const std::string& prev = k > 0 ? t[k - 1]->text : std::string();
        if (ns) {
          s = Scope::Namespace;
        } else if (record && !has_paren) {
          s = Scope::Class;
        } else if (has_paren && !eq_before_paren &&
                   (!ctor_init || prev == ")" || prev == "}")) {
          s = Scope::Body;
          // The name: the identifier before the parameter list's "(".
          std::string name;
          int d = 0;
          for (std::size_t j = stmt; j < k; ++j) {
            if (t[j]->text == "(" && d++ == 0 && j > stmt) {
              std::size_t n = j - 1;
              name = t[n]->text;
              while (n >= stmt + 2 && t[n - 1]->text == "::") {
                name = t[n - 2]->text + "::" + name;
                n -= 2;
              }
              if (name == "operator" || (n > stmt && t[n - 1]->text == "operator")) name = "operator" + name;
              break;
            }
            if (t[j]->text == ")") --d;
          }
          out.push_back({file, name, t[k]->line, 0});
        }
      }
      stack.push_back({s, s == Scope::Body ? out.size() - 1 : 0});
      stmt = k + 1;
      continue;
    }
    if (punct && x == "}") {
      if (!stack.empty()) {
        if (stack.back().scope == Scope::Body) {
          Function& f = out[stack.back().fn];
          f.lines = t[k]->line - f.line + 1;
        }
        stack.pop_back();
      }
      stmt = k + 1;
      continue;
    }
    if (punct && x == ";" && (scope() == Scope::Namespace || scope() == Scope::Class)) stmt = k + 1;
    // "public:" and the like start a new statement in a class.
    if (punct && x == ":" && scope() == Scope::Class && k > 0 &&
        (t[k - 1]->text == "public" || t[k - 1]->text == "private" || t[k - 1]->text == "protected") &&
        !is(k + 1, ":"))
      stmt = k + 1;
  }
  return out;
}

// The rooms of each system that has a src/<system>/rooms.txt: room -> level
// (0 at the bottom). Blank lines and lines starting with '#' are skipped.
struct Rooms {
  std::string system;
  std::vector<std::pair<std::string, int>> levels;
  int level(const std::string& room) const {
    for (const auto& [name, l] : levels)
      if (name == room) return l;
    return -1;
  }
};

std::vector<Rooms> read_rooms(const fs::path& root) {
  std::vector<Rooms> out;
  if (!fs::exists(root / "src")) return out;
  for (const auto& e : fs::directory_iterator(root / "src")) {
    const fs::path file = e.path() / "rooms.txt";
    if (!e.is_directory() || !fs::exists(file)) continue;
    Rooms r{e.path().filename().string(), {}};
    std::ifstream in(file);
    std::string line;
    int level = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      for (std::string w; words >> w;) r.levels.emplace_back(w, level);
      ++level;
    }
    out.push_back(std::move(r));
  }
  return out;
}

// The room of a file of `sys` (src/<sys>/<room>/... or include/referee/<sys>/<room>/...),
// or "" for a file outside any room of it.
std::string room_of(const std::string& rel, const Rooms& sys) {
  for (const std::string& prefix : {"src/" + sys.system + "/", "include/referee/" + sys.system + "/"}) {
    if (rel.rfind(prefix, 0) != 0) continue;
    const std::string rest = rel.substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (slash != std::string::npos && sys.level(rest.substr(0, slash)) >= 0) return rest.substr(0, slash);
  }
  return "";
}

// The headers a file includes, each with its line.
std::vector<std::pair<int, std::string>> includes(const std::string& text) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^">]+)[">])");
  std::vector<std::pair<int, std::string>> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, include)) out.emplace_back(n, m[1].str());
  }
  return out;
}

// The includes of a file that go up or sideways from its room: each as
// "line: what".
std::vector<std::string> upward_includes(const std::string& text, const std::string& room, const Rooms& sys) {
  std::vector<std::string> out;
  for (const auto& [n, included] : includes(text)) {
    std::string target = included;
    const std::string public_prefix = "referee/" + sys.system + "/";
    const bool is_public = target.rfind(public_prefix, 0) == 0;
    if (is_public) target = target.substr(public_prefix.size());
    const std::size_t slash = target.find('/');
    const std::string to = slash == std::string::npos ? "" : target.substr(0, slash);
    if (to.empty() && !is_public) continue;  // a standard or outside header
    if (!to.empty() && sys.level(to) < 0) continue;
    if (to == room) continue;
    const int from_level = sys.level(room), to_level = to.empty() ? 1 << 20 : sys.level(to);
    if (to_level >= from_level)
      out.push_back(std::to_string(n) + ": room " + room + " includes " + included +
                    (to.empty() ? " (the system's top)" : to_level == from_level ? " (a neighbour)" : " (a room above)"));
  }
  return out;
}

bool under(const fs::path& p, const fs::path& root, const char* dir) {
  const std::string rel = fs::relative(p, root).generic_string();
  return rel.rfind(std::string(dir) + "/", 0) == 0;
}

// The names of the front ends' own headers (apps/, python/) that no engine
// header shares, as an include names them ("system_commands.hpp").
std::set<std::string> front_end_headers(const fs::path& root) {
  const auto names = [&](std::initializer_list<const char*> dirs) {
    std::set<std::string> out;
    for (const char* dir : dirs) {
      if (!fs::exists(root / dir)) continue;
      for (const auto& e : fs::recursive_directory_iterator(root / dir))
        if (e.is_regular_file() && e.path().extension() == ".hpp") out.insert(e.path().filename().string());
    }
    return out;
  };
  std::set<std::string> front = names({"apps", "python"});
  for (const std::string& n : names({"src", "include"})) front.erase(n);
  return front;
}

// The includes of an engine file that reach a front end: each as "line: what".
std::vector<std::string> front_end_includes(const std::string& text, const std::set<std::string>& front_headers) {
  static const std::regex library(R"(^(CLI/|boost/beast|boost/asio|pybind11/|sqlite3|openssl/))");
  std::vector<std::string> out;
  for (const auto& [n, target] : includes(text)) {
    const std::string name = fs::path(target).filename().string();
    if (std::regex_search(target, library) || (target.find('/') == std::string::npos && front_headers.count(name)))
      out.push_back(std::to_string(n) + ": the engine includes a front end's " + target);
  }
  return out;
}

}  // namespace

// A rule catalogue defines the ids: src/<system>/.../rules*.cpp, rule_ids*.hpp.
bool is_catalogue(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.rfind("rules", 0) == 0 || name.rfind("rule_ids", 0) == 0;
}

// The systems whose catalogues under src/ and include/ define rule ids: the
// first word of each string there shaped like an id ("ancients.flag.path").
std::set<std::string> catalogue_systems(const fs::path& root) {
  const std::regex shaped(R"(^([a-z]+)\.[a-z_]+(\.[a-z_0-9]+)*$)");
  std::set<std::string> out;
  for (const char* dir : {"src", "include"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file() || !is_catalogue(e.path())) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      std::smatch m;
      for (const Token& tk : tokenize(ss.str()))
        if (tk.kind == Kind::String && std::regex_match(tk.text, m, shaped)) out.insert(m[1].str());
    }
  }
  return out;
}

// "^(ancients|warmaster)\.[a-z_]+(\.[a-z_0-9]+)*$"; with no catalogue, a pattern nothing matches.
std::string rule_id_pattern(const std::set<std::string>& systems) {
  std::string alternatives;
  for (const std::string& s : systems) alternatives += (alternatives.empty() ? "" : "|") + s;
  if (alternatives.empty()) return "$^";
  return "^(" + alternatives + R"()\.[a-z_]+(\.[a-z_0-9]+)*$)";
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: source_check ROOT [--limit N] [--list] [--fail-on KINDS]\n";
    return 2;
  }
  const fs::path root = argv[1];
  int limit = 100;
  bool list = false;
  std::string fail_on = "functions,rule-ids,citations,mutables,layers,front-ends";
  for (int a = 2; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--limit" && a + 1 < argc) limit = std::stoi(argv[++a]);
    else if (arg == "--list") list = true;
    else if (arg == "--fail-on" && a + 1 < argc) fail_on = std::string(",") + argv[++a] + ",";
    else {
      std::cerr << "source_check: unknown option " << arg << "\n";
      return 2;
    }
  }
  // A rule id is "<system>.<topic>...", its system one whose rule catalogue
  // (rules*.cpp, rule_ids*.hpp) defines ids: the systems are read from the
  // catalogues, so a new system's ids are checked as soon as it has one.
  const std::regex rule_id(rule_id_pattern(catalogue_systems(root)));
  const std::regex outside(R"((\.\./shared|README'?s? readings?|README reading|rules/README|shared/rules))",
                           std::regex::icase);
  // "reading 3": the numbering of a document outside the repository; code
  // cites docs/rulings.md#anchor instead.
  const std::regex numbered_reading(R"(\breadings? [0-9])", std::regex::icase);
  std::vector<std::string> problems;
  std::vector<Function> all_functions;
  int long_functions = 0, literal_ids = 0, citations = 0, mutables = 0, upward = 0, front_ends = 0;
  const std::vector<Rooms> rooms = read_rooms(root);
  const std::set<std::string> front_headers = front_end_headers(root);
  for (const char* dir : {"src", "apps", "include", "tests", "bench", "fuzz"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const fs::path p = e.path();
      const std::string ext = p.extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h" && ext != ".in")) continue;
      if (p.filename() == "source_check.cpp") continue;  // it spells what it looks for
      std::ifstream in(p, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string rel = fs::relative(p, root).generic_string();
      const std::vector<Token> tokens = tokenize(ss.str());
      for (const Rooms& sys : rooms) {
        const std::string room = room_of(rel, sys);
        if (room.empty()) continue;
        for (const std::string& u : upward_includes(ss.str(), room, sys)) {
          problems.push_back(rel + ":" + u);
          ++upward;
        }
      }
      const bool engine = under(p, root, "src") || under(p, root, "include");
      if (engine)
        for (const std::string& f : front_end_includes(ss.str(), front_headers)) {
          problems.push_back(rel + ":" + f);
          ++front_ends;
        }
      const bool code = engine || under(p, root, "apps");
      const bool catalogue = is_catalogue(p);
      for (std::size_t k = 0; k < tokens.size(); ++k) {
        const Token& tk = tokens[k];
        if (code && tk.kind == Kind::String && !catalogue && std::regex_match(tk.text, rule_id)) {
          problems.push_back(rel + ":" + std::to_string(tk.line) + ": literal rule id \"" + tk.text + "\"");
          ++literal_ids;
        }
        if ((tk.kind == Kind::Comment || tk.kind == Kind::String) &&
            (std::regex_search(tk.text, outside) || (code && tk.kind == Kind::Comment &&
                                                     std::regex_search(tk.text, numbered_reading)))) {
          problems.push_back(rel + ":" + std::to_string(tk.line) + ": cites outside the repository: " +
                             tk.text.substr(0, 100));
          ++citations;
        }
        // `mutable` outside a lambda's "() mutable" is a data member.
        const auto next_is = [&](std::size_t d, const char* text) {
          return k + d < tokens.size() && tokens[k + d].text == text;
        };
        const bool mutex = next_is(1, "std") && (next_is(3, "mutex") || next_is(3, "shared_mutex"));
        if (code && tk.kind == Kind::Identifier && tk.text == "mutable" && !(k > 0 && tokens[k - 1].text == ")") &&
            !mutex) {
          problems.push_back(rel + ":" + std::to_string(tk.line) + ": mutable member");
          ++mutables;
        }
      }
      if (code)
        for (Function& f : functions(tokens, rel)) {
          if (f.lines > limit) {
            problems.push_back(rel + ":" + std::to_string(f.line) + ": function " + f.name + " is " +
                               std::to_string(f.lines) + " lines (limit " + std::to_string(limit) + ")");
            ++long_functions;
          }
          all_functions.push_back(std::move(f));
        }
    }
  }
  // The documents: no pointer outside the repository.
  std::vector<fs::path> docs{root / "README.md"};
  if (fs::exists(root / "docs"))
    for (const auto& e : fs::directory_iterator(root / "docs"))
      if (e.path().extension() == ".md") docs.push_back(e.path());
  for (const fs::path& p : docs) {
    std::ifstream in(p);
    std::string text;
    for (int n = 1; std::getline(in, text); ++n)
      if (std::regex_search(text, outside)) {
        problems.push_back(fs::relative(p, root).generic_string() + ":" + std::to_string(n) +
                           ": cites outside the repository: " + text.substr(0, 100));
        ++citations;
      }
  }
  std::sort(problems.begin(), problems.end());
  for (const std::string& p : problems) std::cout << p << "\n";
  if (list) {
    std::sort(all_functions.begin(), all_functions.end(),
              [](const Function& a, const Function& b) { return a.lines > b.lines; });
    std::cout << "longest functions:\n";
    for (std::size_t k = 0; k < all_functions.size() && k < 20; ++k)
      std::cout << "  " << all_functions[k].lines << "  " << all_functions[k].file << ":" << all_functions[k].line
                << " " << all_functions[k].name << "\n";
    int over80 = 0;
    for (const Function& f : all_functions) over80 += f.lines > 80;
    std::cout << all_functions.size() << " functions, " << over80 << " over 80 lines\n";
  }
  std::cout << "source_check: " << long_functions << " functions over " << limit << " lines, " << literal_ids
            << " literal rule ids, " << citations << " citations outside the repository, " << mutables
            << " mutable members, " << upward << " upward includes, " << front_ends << " front-end includes\n";
  if (fail_on.front() != ',') fail_on = "," + fail_on + ",";
  const auto fails = [&](const char* kind, int count) {
    return count > 0 && fail_on.find(std::string(",") + kind + ",") != std::string::npos;
  };
  return fails("functions", long_functions) || fails("rule-ids", literal_ids) || fails("citations", citations) ||
                 fails("mutables", mutables) || fails("layers", upward) || fails("front-ends", front_ends)
             ? 1
             : 0;
}
