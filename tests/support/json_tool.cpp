// json_tool: the few JSON edits and comparisons the command-line tests need,
// so they run on a Debian without python3 or a JSON filter. Independent of the code under
// test: it links only nlohmann_json. Keys keep their order (ordered_json), so
// an edited file differs from its source only where it was edited.
//
//   json_tool edit IN OUT OP...   write IN with the edits applied to OUT, where
//                                 OP is one of: set POINTER JSON | remove POINTER
//                                 | copy FROM_POINTER TO_POINTER
//   json_tool get IN POINTER      print the value at POINTER (compact)
//   json_tool equal A PA B PB     exit 0 when A's value at PA equals B's at PB
//
// POINTER is a JSON pointer ("" for the whole document, /units/0/at). IN may
// be "-" for standard input, OUT "-" for standard output. Compact output uses
// "," and ":" with no spaces, the layout of a game log line. Exit 1 when
// values differ, 2 on a usage or input error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using Json = nlohmann::ordered_json;
using Pointer = Json::json_pointer;

// Edits keep key order; comparisons ignore it, as JSON objects are unordered.
template <class J = Json>
J load(const std::string& path) {
  if (path == "-") return J::parse(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return J::parse(in);
}

void save(const Json& j, const std::string& path) {
  const std::string text = j.dump() + "\n";
  if (path == "-") {
    std::cout << text << std::flush;
    if (!std::cout) throw std::runtime_error("cannot write standard output");
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

int edit(const std::vector<std::string>& args) {
  if (args.size() < 2) throw std::invalid_argument("edit IN OUT OP...");
  Json doc = load(args[0]);
  for (std::size_t i = 2; i < args.size();) {
    const std::string& op = args[i];
    const std::size_t operands = op == "remove" ? 1 : 2;
    if (op != "set" && op != "remove" && op != "copy") throw std::invalid_argument("unknown edit \"" + op + "\"");
    if (i + operands >= args.size()) throw std::invalid_argument("incomplete edit \"" + op + "\"");
    const Pointer at(args[i + 1]);
    if (op == "set") {
      doc[at] = Json::parse(args[i + 2]);
    } else if (op == "copy") {
      doc[Pointer(args[i + 2])] = doc.at(at);
    } else {
      const Pointer parent = at.parent_pointer();
      Json& container = doc.at(parent);
      if (container.is_array()) {
        container.erase(std::stoul(at.back()));
      } else if (container.erase(at.back()) == 0) {
        throw std::invalid_argument("nothing to remove at " + args[i + 1]);
      }
    }
    i += 1 + operands;
  }
  save(doc, args[1]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) throw std::invalid_argument("usage: json_tool edit|get|equal ...");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "edit") return edit(rest);
    if (args[0] == "get" && rest.size() == 2) {
      std::cout << load(rest[0]).at(Pointer(rest[1])).dump() << "\n";
      return std::cout ? 0 : 2;
    }
    if (args[0] == "equal" && rest.size() == 4) {
      using Plain = nlohmann::json;
      return load<Plain>(rest[0]).at(Plain::json_pointer(rest[1])) ==
                     load<Plain>(rest[2]).at(Plain::json_pointer(rest[3]))
                 ? 0
                 : 1;
    }
    throw std::invalid_argument("usage: json_tool edit IN OUT OP... | get IN POINTER | equal A PA B PB");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "json_tool: %s\n", e.what());
    return 2;
  }
}
