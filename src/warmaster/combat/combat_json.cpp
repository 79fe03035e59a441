// The Combat phase's words and JSON: its choices and options read and
// written, and its reports and odds as JSON and as text.
#include "combat/combat_phase.hpp"

namespace referee::warmaster {

using combat_detail::cm;
using combat_detail::plural;
using combat_detail::kRuleResult;

const char* to_string(CombatChoice c) {
  switch (c) {
    case CombatChoice::Default: return "default";
    case CombatChoice::Pursue: return "pursue";
    case CombatChoice::Stand: return "stand";
    case CombatChoice::FallBack: return "fall_back";
    case CombatChoice::Advance: return "advance";
  }
  return "default";
}

std::optional<CombatChoice> combat_choice_from_string(const std::string& s) {
  for (CombatChoice c : {CombatChoice::Default, CombatChoice::Pursue, CombatChoice::Stand, CombatChoice::FallBack,
                         CombatChoice::Advance})
    if (s == to_string(c)) return c;
  return std::nullopt;
}

const char* to_string(CombatMoveKind k) {
  switch (k) {
    case CombatMoveKind::Retreat: return "retreat";
    case CombatMoveKind::FallBack: return "fall_back";
    case CombatMoveKind::Pursuit: return "pursuit";
    case CombatMoveKind::Advance: return "advance";
    case CombatMoveKind::Stand: return "stand";
    case CombatMoveKind::Destroyed: return "destroyed";
  }
  return "stand";
}

std::vector<CombatDecision> combat_decisions_from_json(const nlohmann::json& j, const Battlefield& bf,
                                                       const std::string& path) {
  JsonReader d(j, path);
  d.require_array();
  std::vector<std::string> names;
  for (CombatChoice c : {CombatChoice::Default, CombatChoice::Pursue, CombatChoice::Stand, CombatChoice::FallBack,
                         CombatChoice::Advance})
    names.push_back(to_string(c));
  std::vector<CombatDecision> out;
  for (JsonReader x : d.items()) {
    x.require_object();
    x.allow_only({"unit", "choice", "distance"});
    CombatDecision dec;
    dec.unit = x.string("unit");
    if (!bf.find_unit(dec.unit)) x.fail("unit", fmt::format("no unit \"{}\" on the battlefield", dec.unit));
    for (const CombatDecision& o : out)
      if (o.unit == dec.unit) x.fail("unit", "this unit already has a decision");
    dec.choice = *combat_choice_from_string(x.one_of_or("choice", names, "default"));
    if (x.has("distance")) dec.distance = x.number("distance", 0, 1000);
    out.push_back(std::move(dec));
  }
  return out;
}

nlohmann::json combat_decisions_to_json(const std::vector<CombatDecision>& decisions) {
  nlohmann::json d = nlohmann::json::array();
  for (const CombatDecision& x : decisions) {
    nlohmann::json e{{"unit", x.unit}, {"choice", to_string(x.choice)}};
    if (x.distance) e["distance"] = *x.distance;
    d.push_back(e);
  }
  return d;
}

CombatOptions combat_options_from_json(const nlohmann::json& j, const Battlefield& bf, const char* path) {
  JsonReader r(j, path ? path : "options");
  r.require_object();
  r.allow_only({"charged", "decisions", "max_rounds"});
  CombatOptions o;
  if (auto c = r.find("charged")) {
    c->require_array();
    for (const JsonReader& x : c->items()) {
      const std::string id = x.as_string();
      if (!bf.find_unit(id)) x.fail(fmt::format("no unit \"{}\" on the battlefield", id));
      if (std::find(o.charged.begin(), o.charged.end(), id) != o.charged.end()) x.fail("listed twice");
      o.charged.push_back(id);
    }
  }
  if (auto d = r.find("decisions")) o.decisions = combat_decisions_from_json(d->json(), bf, d->path());
  o.max_rounds = r.integer_or("max_rounds", o.max_rounds, 1, 100);
  return o;
}

void to_json(nlohmann::json& j, const CombatOptions& o) {
  j = {{"charged", o.charged}, {"decisions", combat_decisions_to_json(o.decisions)}, {"max_rounds", o.max_rounds}};
}

void to_json(nlohmann::json& j, const AttackModifier& m) {
  j = {{"name", m.name}, {"value", m.value}, {"stands", m.stands}};
  if (!m.character.empty()) j["character"] = m.character;
}

void to_json(nlohmann::json& j, const CombatReport& r) {
  using nlohmann::json;
  json engagements = json::array();
  for (const Engagement& e : r.engagements) engagements.push_back({{"units", e.units}});
  json rounds = json::array();
  for (const CombatRound& cr : r.rounds) {
    json attacks = json::array();
    for (const CombatAttack& a : cr.attacks) {
      json mods = json::array();
      for (const AttackModifier& m : a.modifiers) mods.push_back(m);
      attacks.push_back({{"attacker", a.attacker}, {"target", a.target}, {"stands", a.stands}, {"dice", a.dice},
                         {"modifiers", mods}, {"position", to_string(a.position)}, {"needed", a.needed},
                         {"to_hit", a.to_hit}, {"hits", a.hits}, {"armour", a.armour}, {"saves", a.saves},
                         {"unsaved", a.unsaved}});
    }
    json sides = json::array();
    for (const CombatSideResult& s : cr.sides)
      sides.push_back({{"side", s.side}, {"units", s.units}, {"hits", s.hits}, {"support", s.support},
                       {"supporting", s.supporting}, {"result", s.result}});
    json cas = json::array();
    for (const CombatCasualties& c : cr.casualties)
      cas.push_back({{"unit", c.unit}, {"unsaved", c.unsaved}, {"stands_removed", c.stands_removed},
                     {"destroyed", c.destroyed}});
    json moves = json::array();
    for (const CombatMove& m : cr.moves) {
      json x{{"unit", m.unit},
             {"kind", to_string(m.kind)},
             {"from", m.from},
             {"rolls", m.rolls},
             {"distance", m.distance},
             {"moved", std::round(m.moved * 1000) / 1000},
             {"blocked", m.blocked},
             {"stands_lost", m.stands_lost},
             {"destroyed", m.destroyed},
             {"left_table", m.left_table},
             {"characters", m.characters}};
      if (m.off_table)
        x["off_table"] = {{"outcome", to_string(m.off_table->outcome)},
                          {"roll", m.off_table->roll},
                          {"modified", m.off_table->modified},
                          {"reason", m.off_table->ruling.reason}};
      moves.push_back(x);
    }
    rounds.push_back({{"engagement", cr.engagement},
                      {"round", cr.round},
                      {"units", cr.units},
                      {"attacks", attacks},
                      {"sides", sides},
                      {"winner", cr.winner ? json(*cr.winner) : json(nullptr)},
                      {"difference", cr.difference},
                      {"casualties", cas},
                      {"moves", moves}});
  }
  json rulings = json::array();
  for (const Ruling& x : r.rulings) rulings.push_back(x);
  j = {{"engagements", engagements}, {"rounds", rounds}, {"rulings", rulings}};
  if (!r.slain.empty()) j["slain"] = r.slain;
}

void to_json(nlohmann::json& j, const CombatOdds& o) {
  using nlohmann::json;
  auto side = [&](int s) {
    const CombatOddsSide& x = s == 0 ? o.request.a : o.request.b;
    json rows = json::array();
    for (const CombatOddsRow& r : o.rows[static_cast<std::size_t>(s)]) {
      json e{{"hits", r.hits}, {"chance", r.chance}};
      if (!r.fraction.empty()) e["fraction"] = r.fraction;
      rows.push_back(e);
    }
    return json{{"dice", x.dice},
                {"position", to_string(x.position)},
                {"armour", x.armour},
                {"support", x.support},
                {"needed_to_hit_enemy", o.needed[static_cast<std::size_t>(s)]},
                {"p_unsaved_per_die", o.p_unsaved[static_cast<std::size_t>(s)]},
                {"hits_inflicted", rows}};
  };
  json diffs = json::array();
  for (const CombatOddsDifference& d : o.differences) {
    json e{{"difference", d.difference}, {"chance", d.chance}};
    if (!d.fraction.empty()) e["fraction"] = d.fraction;
    diffs.push_back(e);
  }
  j = {{"rule", kRuleResult}, {"a", side(0)}, {"b", side(1)}, {"differences", diffs},
       {"a_wins", o.a_wins},  {"draw", o.draw}, {"b_wins", o.b_wins}, {"mean_difference", o.mean_difference}};
  if (!o.a_wins_fraction.empty()) {
    j["a_wins_fraction"] = o.a_wins_fraction;
    j["draw_fraction"] = o.draw_fraction;
    j["b_wins_fraction"] = o.b_wins_fraction;
  }
}

std::string explain(const CombatReport& r) {
  std::string s;
  for (const Ruling& x : r.rulings) s += fmt::format("{}: {}\n", x.rule, x.reason);
  if (r.engagements.empty()) s = "No unit is in contact with an enemy: there is no combat.\n";
  return s;
}

std::string explain(const CombatOdds& o) {
  std::string s;
  for (int k = 0; k < 2; ++k) {
    const CombatOddsSide& x = k == 0 ? o.request.a : o.request.b;
    s += fmt::format("Side {}: {} hitting on {}+ against armour {}, {}: each die an unsaved hit with chance {:.4f}.\n",
                     k == 0 ? 'a' : 'b', plural(x.dice, "die", "dice"), o.needed[static_cast<std::size_t>(k)],
                     (k == 0 ? o.request.b : o.request.a).armour > 0
                         ? fmt::format("{}+", (k == 0 ? o.request.b : o.request.a).armour)
                         : std::string("none"),
                     plural(x.support, "supporting stand", "supporting stands"), o.p_unsaved[static_cast<std::size_t>(k)]);
    for (const CombatOddsRow& r : o.rows[static_cast<std::size_t>(k)])
      s += fmt::format("  {:>3} unsaved  {:>8.4f}  {}\n", r.hits, r.chance, r.fraction);
  }
  s += "Result difference (a - b; the loser retreats this many cm):\n";
  for (const CombatOddsDifference& d : o.differences)
    s += fmt::format("  {:>+4}  {:>8.4f}  {}\n", d.difference, d.chance, d.fraction);
  s += fmt::format("a wins {:.4f} {}; draw {:.4f} {}; b wins {:.4f} {}; mean difference {:+.3f}.\n", o.a_wins,
                   o.a_wins_fraction, o.draw, o.draw_fraction, o.b_wins, o.b_wins_fraction, o.mean_difference);
  return s;
}

}  // namespace referee::warmaster
