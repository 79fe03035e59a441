// referee <system> rules: the system's rule catalogue, every rule id the
// engine can emit with the rule text it enforces and when it fires. JSON by
// default, --explain as text, --markdown as the table docs/rules.md holds.
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"

namespace referee::cli {

void add_rules_command(CLI::App& parent, const GameType& type) {
  if (!type.rules) return;
  struct Opts {
    bool markdown = false;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("rules", "The rule catalogue: every rule id, the rule it enforces, when it fires");
  cmd->add_flag("--markdown", o->markdown, "Print the catalogue as the Markdown section docs/rules.md holds");
  add_output_options(cmd, o->out);
  cmd->callback([o, &type] {
    const std::string& system = type.name;
    const std::string& title = type.title;
    std::span<const RuleInfo> rules = type.rules();
    if (o->markdown) {
      emit_file(o->out.out.empty() ? "-" : o->out.out,
                "## " + title + "\n\n" + rules_to_markdown(rules));
      return;
    }
    nlohmann::json j{{"system", system}, {"rules", rules_to_json(rules)}};
    emit(o->out, j, title + ": " + std::to_string(rules.size()) + " rules\n\n" + rules_to_text(rules));
  });
}

}  // namespace referee::cli
