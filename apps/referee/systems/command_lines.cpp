// The command line's table of systems: what each registered system adds to
// `referee <system> ...` (system_commands.hpp), by its registry name.
#include <map>
#include <string>

#include "system_commands.hpp"

namespace referee::cli {

const CommandLineEntry& command_line_of(std::string_view system) {
  static const std::map<std::string, CommandLineEntry, std::less<>> table = {
      {"warmaster", warmaster_command_line()},
      {"ancients", ancients_command_line()},
      {"blightmeer", blightmeer_command_line()},
  };
  static const CommandLineEntry none;
  const auto it = table.find(system);
  return it == table.end() ? none : it->second;
}

}  // namespace referee::cli
