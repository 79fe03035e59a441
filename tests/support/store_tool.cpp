// store_tool: puts a game log into a games store (apps/server/game_store.hpp),
// as `referee serve` would keep it, for the tests of `referee games`
// (games_cli.sh).
//   store_tool DIR ID LOG POSITION   the log's first line is the header, the
//                                    others its entries; POSITION of them played
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "game_store.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: store_tool DIR ID LOG POSITION\n";
    return 2;
  }
  std::ifstream in(argv[3]);
  referee::server::StoredGame g;
  g.id = argv[2];
  if (!std::getline(in, g.header)) {
    std::cerr << "store_tool: " << argv[3] << " has no header line\n";
    return 2;
  }
  const nlohmann::json header = nlohmann::json::parse(g.header);
  g.system = header.at("system");
  g.battle = header.value("scenario", "");
  g.meta = "{}";
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) g.entries.push_back(line);
  g.position = std::stoul(argv[4]);
  g.version = g.position;
  try {
    referee::server::GameStore::open(argv[1])->create(g);
  } catch (const referee::server::StoreError& e) {
    std::cerr << "store_tool: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
