// referee <system> rules: the system's rule catalogue, every rule id the
// engine can emit with the rule text it enforces and when it fires. JSON by
// default, --explain as text, --markdown as the table docs/rules.md holds.
#include <memory>
#include <stdexcept>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/ancients/rules.hpp"
#include "referee/blightmeer/rules.hpp"
#include "referee/warmaster/rules.hpp"

namespace referee::cli {

namespace {

void add_rules(CLI::App& parent, const std::string& system, const std::string& title,
               std::span<const RuleInfo> (*catalogue)()) {
  struct Opts {
    bool markdown = false;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("rules", "The rule catalogue: every rule id, the rule it enforces, when it fires");
  cmd->add_flag("--markdown", o->markdown, "Print the catalogue as the Markdown section docs/rules.md holds");
  add_output_options(cmd, o->out);
  cmd->callback([o, system, title, catalogue] {
    std::span<const RuleInfo> rules = catalogue();
    if (o->markdown) {
      emit_file(o->out.out.empty() ? "-" : o->out.out,
                "## " + title + "\n\n" + rules_to_markdown(rules));
      return;
    }
    nlohmann::json j{{"system", system}, {"rules", rules_to_json(rules)}};
    emit(o->out, j, title + ": " + std::to_string(rules.size()) + " rules\n\n" + rules_to_text(rules));
  });
}

}  // namespace

void add_rules_command(CLI::App& system_command, const std::string& system) {
  if (system == "warmaster") add_rules(system_command, system, "Warmaster", &warmaster::rule_catalogue);
  else if (system == "ancients") add_rules(system_command, system, "Commands & Colors: Ancients", &ancients::rule_catalogue);
  else if (system == "blightmeer") add_rules(system_command, system, "Blightmeer", &blightmeer::rule_catalogue);
  else throw std::invalid_argument("no rule catalogue for \"" + system + "\"");
}

}  // namespace referee::cli
