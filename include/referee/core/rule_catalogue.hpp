// A rule catalogue: every rule id a system can emit, the rule text it
// enforces and when the engine emits it. The path from a refusal back to the
// rule: a reason names its id, the catalogue quotes the text (or, for a
// reading, cites it as docs/rulings.md#<anchor>).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace referee {

struct RuleInfo {
  std::string_view id;     // "warmaster.movement.gap"
  std::string_view text;   // the rule text it enforces, quoted or closely paraphrased
  std::string_view fires;  // when the engine emits it
};

// The entry with this id, or nothing.
std::optional<RuleInfo> find_rule(std::span<const RuleInfo> catalogue, std::string_view id);

// [{"id":..., "text":..., "fires":...}, ...] in catalogue order.
nlohmann::json rules_to_json(std::span<const RuleInfo> catalogue);

// One Markdown table (| Rule id | Rule | Fires when |), pipes escaped.
std::string rules_to_markdown(std::span<const RuleInfo> catalogue);

// Readable text: each id on its own line, then its text and when it fires.
std::string rules_to_text(std::span<const RuleInfo> catalogue);

// Whether an id is well formed: a system name and at least one more part,
// each part lower case letters, digits and underscores, joined by dots.
bool well_formed_rule_id(std::string_view id);

}  // namespace referee
