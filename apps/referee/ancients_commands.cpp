#include "cli_support.hpp"
#include "commands.hpp"

namespace referee::cli {

void add_ancients_commands(CLI::App& ancients) { (void)ancients; }

}  // namespace referee::cli
