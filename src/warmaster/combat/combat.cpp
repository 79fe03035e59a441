// The Combat phase: engagements, then each one's rounds, steps 1 to 4 of the
// play sheet (attacks, hits and saves; support; casualties; the result).
// Step 5, the moves that follow, is in combat_moves.cpp; the exact odds of an
// exchange in combat_odds.cpp, and the answers' words and JSON in
// combat_json.cpp. The model is described in combat.hpp.
#include "combat/combat_phase.hpp"

namespace referee::warmaster {

std::vector<Engagement> find_engagements(const Battlefield& bf, const Settings& settings) {
  // Components over enemy contacts, each pair of units tested once.
  const std::size_t n = bf.units.size();
  std::vector<std::size_t> root(n);
  for (std::size_t i = 0; i < n; ++i) root[i] = i;
  auto find = [&](std::size_t i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  std::vector<char> engaged(n, 0);
  for (const auto& [i, k] : enemy_contacts(bf, settings.contact_tolerance)) {
    engaged[i] = engaged[k] = 1;
    root[find(i)] = find(k);
  }
  std::vector<Engagement> out;
  std::map<std::size_t, std::size_t> index;  // component root -> engagement
  for (std::size_t i = 0; i < n; ++i) {
    if (!engaged[i]) continue;
    auto [at, fresh] = index.try_emplace(find(i), out.size());
    if (fresh) out.emplace_back();
    out[at->second].units.push_back(bf.units[i].id);
  }
  return out;
}

namespace combat_detail {

void Phase::fight(int engagement, int round, const std::vector<std::string>& group, const PursuitBonus& pursuit,
                  std::map<std::string, int>& total_hits, std::map<std::string, int>& removed) {
  Round r = start_round(engagement, round, group);
  attacks_hits_and_saves(r, round, pursuit);
  count_support(r);
  remove_casualties(r, total_hits, removed);
  work_out_result(r);
  if (!r.cr.winner) {
    draw_both_fall_back(r);
    rep.rounds.push_back(std::move(r.cr));
    return;
  }
  const int w = *r.cr.winner;
  const Retreats back = losers_retreat(r);
  const std::vector<std::string> pursuers = winners_move(r, back);
  const PursuitBonus next = next_round_bonus(r.cr, back);
  rep.rounds.push_back(std::move(r.cr));
  if (pursuers.empty()) return;
  // Only pursuers that caught an enemy fight on.
  const std::vector<std::string> g = contact_group(bf, pursuers, tol());
  bool both = false;
  for (const std::string& id : g) both = both || bf.find_unit(id)->side != w;
  if (!both) return;
  if (round >= options.max_rounds) {
    rep.rulings.push_back({kRuleRound,
                           fmt::format("Engagement {} stops after {} rounds (the guard max_rounds)", engagement + 1,
                                       options.max_rounds),
                           {{"rounds", static_cast<double>(round), ""}}});
    return;
  }
  fight(engagement, round + 1, g, next, total_hits, removed);
}

// Who each unit fights, and the way directly away, at the start of the round.
Phase::Round Phase::start_round(int engagement, int round, const std::vector<std::string>& group) {
  Round r;
  r.cr.engagement = engagement;
  r.cr.round = round;
  r.group = in_order(group);
  r.cr.units = r.group;
  if (round > 1)
    rep.rulings.push_back({kRuleRound,
                           fmt::format("Round {} of engagement {}: the pursuers fight again: {}", round, engagement + 1,
                                       fmt::join(r.group, ", ")),
                           {{"round", static_cast<double>(round), ""}}});
  for (const std::string& id : r.group) {
    const Unit& u = *bf.find_unit(id);
    for (const std::string& e : r.group)
      if (bf.find_unit(e)->side != u.side && units_touch(u, *bf.find_unit(e), tol())) r.foes[id].push_back(e);
    if (auto c = contact_of(bf, u, r.foes[id], tol())) r.contact[id] = *c;
  }
  return r;
}

// 1. Attacks, hits and saves: each unit against each unit its stands fight.
void Phase::attacks_hits_and_saves(Round& r, int round, const PursuitBonus& pursuit) {
  for (const std::string& id : r.group) {
    const Unit& u = *bf.find_unit(id);
    std::string terror;  // a terrifying enemy it fights
    for (const std::string& e : r.foes[id])
      if (bf.find_unit(e)->terrifying) {
        terror = e;
        break;
      }
    std::vector<Fight> fights;
    for (std::size_t s = 0; s < u.stands.size(); ++s)
      if (auto f = fight_of(bf, u, s, r.group, tol())) {
        fights.push_back(*f);
        r.fighting[static_cast<std::size_t>(u.side)].push_back({u.footprint(s), u.stands[s].pose.facing_deg});
      }
    // docs/rulings.md#warmaster-combat-characters: the joined characters'
    // bonus goes to a stand fighting the enemy unit most of its stands fight
    // (the first of the engagement's units among equals).
    std::string bonus_to;
    std::size_t most = 0;
    for (const std::string& tid : r.group) {
      const auto n = static_cast<std::size_t>(
          std::count_if(fights.begin(), fights.end(), [&](const Fight& f) { return f.target == tid; }));
      if (n > most) {
        most = n;
        bonus_to = tid;
      }
    }
    for (const std::string& tid : r.group) {
      const Unit* t = bf.find_unit(tid);
      if (!t || t->side == u.side) continue;
      std::optional<CombatAttack> a = attack_dice(u, *t, fights, round, pursuit, terror, tid == bonus_to);
      if (!a) continue;
      roll_hits_and_saves(*a);
      rule_on_attack(u, *a);
      r.unsaved[tid] += a->unsaved;
      r.cr.sides[static_cast<std::size_t>(u.side)].hits += a->unsaved;
      r.cr.attacks.push_back(std::move(*a));
    }
  }
}

// The dice unit `u` rolls at `t`: its Attacks for each stand that fights `t`,
// with the play sheet's modifiers; none when no stand of `u` fights `t`.
std::optional<CombatAttack> Phase::attack_dice(const Unit& u, const Unit& t, const std::vector<Fight>& fights,
                                               int round, const PursuitBonus& pursuit, const std::string& terror,
                                               bool with_characters) const {
  CombatAttack a;
  a.attacker = u.id;
  a.target = t.id;
  a.position = position_of(bf, t, settings).position;
  a.needed = to_hit(a.position);
  a.armour = t.armour;
  auto add = [&](const std::string& name, int v) {
    auto m = std::find_if(a.modifiers.begin(), a.modifiers.end(),
                          [&](const AttackModifier& x) { return x.name == name; });
    if (m == a.modifiers.end()) m = a.modifiers.insert(a.modifiers.end(), AttackModifier{name, v, 0, {}});
    ++m->stands;
    return v;
  };
  for (const Fight& f : fights) {
    if (f.target != t.id) continue;
    ++a.stands;
    int n = u.attacks;
    if (round == 1 && charged(u.id) && a.position == Position::Open) {
      n += add("charging an enemy in the open", 1);
      if (u.type == TroopType::Monster || u.type == TroopType::Chariot)
        n += add("monster or chariot charging an enemy in the open", 1);
    }
    if (auto p = pursuit.find(u.id); p != pursuit.end()) {
      n += add("pursuit attack", 1);
      if (p->second.first > 0)
        n += add(fmt::format("extra pursuit attacks ({} full 3 cm of {} retreated)", p->second.first,
                             cm(p->second.second)),
                 p->second.first);
    }
    if (!terror.empty()) n += add(fmt::format("fighting a terrifying enemy ({})", terror), -1);
    if (!f.front) n += add("fighting to the side or rear", -1);
    if (u.confused) n += add("confused", -1);
    a.dice += std::max(0, n);
  }
  if (a.stands == 0) return std::nullopt;
  if (with_characters) add_character_bonus(u, a);
  return a;
}

// "Characters add their Attacks value as a bonus to any stand in the unit
// they are with": a flat bonus to one stand, which no other modifier changes
// (docs/rulings.md#warmaster-combat-characters).
void Phase::add_character_bonus(const Unit& u, CombatAttack& a) const {
  for (const Character& c : bf.characters) {
    if (c.joined_unit != u.id || c.attacks == 0) continue;
    a.dice += c.attacks;
    a.modifiers.push_back(AttackModifier{c.name, c.attacks, 1, c.id});
  }
}

// To hit on the target's position, then the target's armour saves each hit.
void Phase::roll_hits_and_saves(CombatAttack& a) {
  for (int k = 0; k < a.dice; ++k) {
    a.to_hit.push_back(dice.d6(fmt::format("combat to hit: {} at {}", a.attacker, a.target)));
    a.hits += a.to_hit.back() >= a.needed;
  }
  a.unsaved = a.hits;
  if (a.armour > 0)
    for (int k = 0; k < a.hits; ++k) {
      a.saves.push_back(dice.d6(fmt::format("armour save: {}", a.target)));
      a.unsaved -= a.saves.back() >= a.armour;
    }
}

void Phase::rule_on_attack(const Unit& u, const CombatAttack& a) {
  std::vector<std::string> mod_words;
  int total_mod = 0;
  for (const AttackModifier& m : a.modifiers) {
    mod_words.push_back(m.character.empty()
                            ? fmt::format("{:+d} {} ({})", m.value, m.name, plural(m.stands, "stand", "stands"))
                            : fmt::format("{} {:+d}, joined to it", m.name, m.value));
    total_mod += m.value * m.stands;
  }
  rep.rulings.push_back(
      {kRuleAttacks,
       fmt::format("{}: {} (Attacks {}) {} {}: {}{}", a.attacker, plural(a.stands, "stand", "stands"), u.attacks,
                   a.stands == 1 ? "fights" : "fight", a.target, plural(a.dice, "die", "dice"),
                   mod_words.empty() ? std::string(" (no modifier)") : fmt::format(" ({})", fmt::join(mod_words, "; "))),
       {{"stands", static_cast<double>(a.stands), ""},
        {"dice", static_cast<double>(a.dice), ""},
        {"modifiers", static_cast<double>(total_mod), ""}}});
  rep.rulings.push_back(
      {kRuleHits,
       fmt::format("{} rolls {} at {} ({}, hits on {}+): {}; {}", a.attacker, plural(a.dice, "die", "dice"), a.target,
                   to_string(a.position), a.needed, plural(a.hits, "hit", "hits"),
                   a.armour > 0 ? fmt::format("{} saved on {}+, {} unsaved", a.hits - a.unsaved, a.armour, a.unsaved)
                                : fmt::format("no armour save, {} unsaved", a.unsaved)),
       {{"dice", static_cast<double>(a.dice), ""},
        {"needed", static_cast<double>(a.needed), ""},
        {"hits", static_cast<double>(a.hits), ""},
        {"unsaved", static_cast<double>(a.unsaved), ""}}});
}

// 2. Support, from where the stands stood when they fought.
void Phase::count_support(Round& r) {
  for (int s = 0; s < 2; ++s) {
    CombatSideResult& side = r.cr.sides[static_cast<std::size_t>(s)];
    side.side = s;
    for (const std::string& id : r.group)
      if (bf.find_unit(id)->side == s) side.units.push_back(id);
    side.supporting = support(s, r.fighting[static_cast<std::size_t>(s)]);
    side.support = static_cast<int>(side.supporting.size());
    side.result = side.hits + side.support;
    if (side.support > 0)
      rep.rulings.push_back({kRuleSupport,
                             fmt::format("Side {} has {} behind its fighting stands: {}", s,
                                         plural(side.support, "supporting stand", "supporting stands"),
                                         fmt::join(side.supporting, ", ")),
                             {{"support", static_cast<double>(side.support), ""}}});
  }
}

// 3. Casualties: a stand per full Hits value over the engagement, those in
//    contact with the enemy first (docs/rulings.md#warmaster-combat-casualties).
void Phase::remove_casualties(Round& r, std::map<std::string, int>& total_hits, std::map<std::string, int>& removed) {
  std::set<std::string> destroyed;
  for (const std::string& id : r.group) {
    if (r.unsaved[id] == 0) continue;
    Unit& u = *bf.find_unit(id);
    CombatCasualties c;
    c.unit = id;
    c.unsaved = r.unsaved[id];
    total_hits[id] += c.unsaved;
    const int per = u.hits > 0 ? u.hits : 1;
    c.stands_removed = std::min(static_cast<int>(u.stands.size()), total_hits[id] / per - removed[id]);
    removed[id] += c.stands_removed;
    remove_stands(bf, u, c.stands_removed, r.foes[id], tol());
    u.stands_lost += c.stands_removed;
    c.destroyed = u.stands.empty();
    rep.rulings.push_back(
        {kRuleCasualties,
         fmt::format("{} suffers {} this round ({} in the combat): {} removed ({} per stand){}", id,
                     plural(c.unsaved, "unsaved hit", "unsaved hits"), total_hits[id],
                     plural(c.stands_removed, "stand", "stands"), plural(per, "hit", "hits"),
                     c.destroyed ? ", the unit is destroyed" : ""),
         {{"unsaved", static_cast<double>(c.unsaved), ""},
          {"stands_removed", static_cast<double>(c.stands_removed), ""}}});
    r.cr.casualties.push_back(c);
    if (c.destroyed) destroyed.insert(id);
  }
  for (const std::string& id : destroyed) slay_with(id, remove_unit_and_characters(bf, id));
}

// 4. The result: hits and support, unless a side is destroyed.
void Phase::work_out_result(Round& r) {
  CombatRound& cr = r.cr;
  for (const std::string& id : r.group)
    if (const Unit* u = bf.find_unit(id)) r.alive[static_cast<std::size_t>(u->side)].push_back(id);
  const int r0 = cr.sides[0].result, r1 = cr.sides[1].result;
  std::string how;
  if (r.alive[0].empty() && r.alive[1].empty()) {
    how = "both sides are destroyed";
  } else if (r.alive[0].empty() || r.alive[1].empty()) {
    cr.winner = r.alive[0].empty() ? 1 : 0;
    how = fmt::format("side {} is destroyed: side {} wins", 1 - *cr.winner, *cr.winner);
  } else if (r0 != r1) {
    cr.winner = r0 > r1 ? 0 : 1;
    how = fmt::format("side {} wins by {}", *cr.winner, std::abs(r0 - r1));
  } else {
    how = "a draw";
  }
  cr.difference = cr.winner ? std::max(0, cr.sides[static_cast<std::size_t>(*cr.winner)].result -
                                              cr.sides[static_cast<std::size_t>(1 - *cr.winner)].result)
                            : 0;
  rep.rulings.push_back(
      {kRuleResult,
       fmt::format("Combat result: side 0 {} ({} + {} support), side 1 {} ({} + {} support): {}", r0, cr.sides[0].hits,
                   cr.sides[0].support, r1, cr.sides[1].hits, cr.sides[1].support, how),
       {{"side_0", static_cast<double>(r0), ""},
        {"side_1", static_cast<double>(r1), ""},
        {"difference", static_cast<double>(cr.difference), ""}}});
}


void Phase::run() {
  // Moves out of combat are checked with no unit held by its own engaged
  // stands; engagement is worked out again at the end.
  for (Unit& u : bf.units) u.engaged = false;
  rep.engagements = find_engagements(bf, settings);
  // The side whose turn it is first (docs/rulings.md#warmaster-combat-engagements).
  std::stable_sort(rep.engagements.begin(), rep.engagements.end(), [&](const Engagement& a, const Engagement& b) {
    auto has_first = [&](const Engagement& e) {
      for (const std::string& id : e.units)
        if (bf.find_unit(id)->side == first_side) return true;
      return false;
    };
    return has_first(a) && !has_first(b);
  });
  for (std::size_t i = 0; i < rep.engagements.size(); ++i) {
    const Engagement& e = rep.engagements[i];
    rep.rulings.push_back({kRuleEngagement,
                           fmt::format("Engagement {}: {} in contact: {}", i + 1,
                                       plural(static_cast<int>(e.units.size()), "unit", "units"),
                                       fmt::join(e.units, ", ")),
                           {{"units", static_cast<double>(e.units.size()), ""}}});
  }
  for (std::size_t i = 0; i < rep.engagements.size(); ++i) {
    std::vector<std::string> seeds;
    for (const std::string& id : rep.engagements[i].units)
      if (bf.find_unit(id)) seeds.push_back(id);
    const std::vector<std::string> g = contact_group(bf, seeds, tol());
    bool sides[2] = {false, false};
    for (const std::string& id : g) sides[bf.find_unit(id)->side] = true;
    if (!sides[0] || !sides[1]) continue;  // an earlier engagement's moves broke it up
    std::map<std::string, int> total_hits, removed;
    fight(static_cast<int>(i), 1, g, {}, total_hits, removed);
  }
  // Engaged ends when contact ends (docs/rulings.md#warmaster-engaged).
  mark_engaged(bf, tol());
}

}  // namespace combat_detail

CombatReport resolve_combat(const Battlefield& bf, int side, Dice& dice, const CombatOptions& options,
                            const Settings& settings) {
  if (side != 0 && side != 1) throw InputError("side", "must be 0 or 1");
  for (const std::string& id : options.charged)
    if (!bf.find_unit(id)) throw InputError("options.charged", fmt::format("no unit \"{}\" on the battlefield", id));
  for (const CombatDecision& d : options.decisions)
    if (!bf.find_unit(d.unit))
      throw InputError("options.decisions", fmt::format("no unit \"{}\" on the battlefield", d.unit));
  if (options.max_rounds < 1) throw InputError("options.max_rounds", "must be 1 or more");
  CombatReport rep;
  rep.after = bf;
  combat_detail::Phase p{settings, options, dice, side, rep, rep.after};
  p.run();
  return rep;
}

}  // namespace referee::warmaster
