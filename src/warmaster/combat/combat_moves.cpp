// Step 5 of a combat round (combat_phase.hpp): after a draw both sides fall
// back; the losers retreat (artillery destroyed, a blocked retreat paid in
// stands, the table's edge); the winners pursue, stand, fall back or advance.
#include "combat/combat_phase.hpp"

namespace referee::warmaster::combat_detail {

CombatMove Phase::fall_back(const std::string& id, const Contact& c, const CombatDecision* d, bool winner) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::FallBack;
  m.from = c.enemy;
  int total = 0, lowest = 6;
  for (int k = 0; k < 3; ++k) {
    m.rolls.push_back(dice.d6(fmt::format("fall back: {}", id)));
    total += m.rolls.back();
    lowest = std::min(lowest, m.rolls.back());
  }
  m.distance = d && d->distance ? std::clamp(*d->distance, static_cast<double>(lowest), static_cast<double>(total))
                                : static_cast<double>(lowest);
  const Slide s = slide_unit(bf, id, c.away, m.distance, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  std::string tail;
  if (s.left_table) {
    tail = leaves_table(id, m);
  } else if (s.blocked) {
    tail = fmt::format(", cut short after {} ({})", cm(s.moved), s.why);
  } else {
    tail = with_characters(s.characters, "moves");
  }
  rep.rulings.push_back(
      {winner ? kRuleFallBack : kRuleDraw,
       fmt::format("{} falls back {} away from {} (3D6: {}, at least the lowest die {}, at most {}){}", id,
                   cm(m.distance), c.enemy, fmt::join(m.rolls, "+"), lowest, total, tail),
       {{"lowest", static_cast<double>(lowest), "cm"},
        {"total", static_cast<double>(total), "cm"},
        {"distance", m.distance, "cm"},
        {"moved", m.moved, "cm"}}});
  return m;
}

// 5. A draw: both sides fall back; defended or fortified units may stand.
void Phase::draw_both_fall_back(Round& r) {
  if (r.alive[0].empty() || r.alive[1].empty()) return;
  for (const std::string& id : r.group) {
    if (!bf.find_unit(id) || !r.contact.count(id)) continue;
    const CombatDecision* d = decision_of(options, id);
    const CombatChoice choice = d ? d->choice : CombatChoice::Default;
    const PositionAnswer pos = position_of(bf, *bf.find_unit(id), settings);
    const bool may_stand = pos.position != Position::Open;
    // "Both sides fall back ... A defended or fortified unit can stand its
    // ground instead": after a draw nobody pursues or advances, and only a
    // defended or fortified unit stands. Any other choice is refused, said
    // so in a ruling, and the default (fall back by the lowest die, or stand
    // when it may) takes its place (docs/rulings.md#warmaster-combat-decisions).
    if (choice == CombatChoice::Pursue || choice == CombatChoice::Advance ||
        (choice == CombatChoice::Stand && !may_stand)) {
      const std::string what = may_stand ? "it stands its ground" : "it falls back";
      rep.rulings.push_back(
          {kRuleDraw,
           choice == CombatChoice::Stand
               ? fmt::format("{} is in the open: after a draw only a defended or fortified unit may stand its "
                             "ground; {}",
                             id, what)
               : fmt::format("{} may not {} after a draw (\"Both sides fall back\"); {}", id,
                             choice == CombatChoice::Pursue ? "pursue" : "advance", what),
           {}});
    }
    if (may_stand && choice != CombatChoice::FallBack) {
      CombatMove m;
      m.unit = id;
      m.kind = CombatMoveKind::Stand;
      rep.rulings.push_back({kRuleDraw, fmt::format("{} stands its ground after the draw: {}", id, pos.reason), {}});
      r.cr.moves.push_back(m);
      continue;
    }
    // The decision's distance is the fall back its player asked for, so it
    // counts only when the choice was to fall back; a refused choice falls
    // back by the lowest die, as the default does.
    r.cr.moves.push_back(fall_back(id, r.contact[id], choice == CombatChoice::FallBack ? d : nullptr, false));
  }
}

// 5. The losers retreat the difference, split among them, rounded up.
Phase::Retreats Phase::losers_retreat(Round& r) {
  Retreats out;
  const std::vector<std::string>& losers = r.alive[static_cast<std::size_t>(1 - *r.cr.winner)];
  const int n = static_cast<int>(losers.size());
  const int each = losers.empty() ? 0 : (r.cr.difference + n - 1) / n;
  for (const std::string& id : losers) r.cr.moves.push_back(retreat_one(r, id, each, losers.size(), out));
  return out;
}

CombatMove Phase::retreat_one(Round& r, const std::string& id, int each, std::size_t losers, Retreats& out) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::Retreat;
  m.distance = each;
  const Contact c = r.contact.count(id) ? r.contact[id] : Contact{};
  m.from = c.enemy;
  const Unit& u = *bf.find_unit(id);
  if (u.type == TroopType::Artillery) {
    artillery_destroyed_retreating(m, each);
    out.gone.insert(id);
    return m;
  }
  const Slide s = slide_unit(bf, id, c.away, each, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  const std::string split =
      losers > 1 ? fmt::format(" (a difference of {} split among {} units, rounded up)", r.cr.difference, losers)
                 : std::string();
  if (s.left_table) {
    retreat_off_table(u, m, each, split);
    out.gone.insert(id);
    return m;
  }
  out.shift[id] = s.shift;
  out.retreated[id] = s.moved;
  rep.rulings.push_back(
      {kRuleRetreat,
       fmt::format("{} retreats {} directly away from {}{}{}", id, cm(each), c.enemy,
                   losers > 1 ? split : std::string(" (the difference in results)"),
                   s.blocked ? fmt::format(", but only {} before it is blocked ({})", cm(s.moved), s.why)
                             : with_characters(s.characters, "moves")),
       {{"retreat", static_cast<double>(each), "cm"}, {"moved", s.moved, "cm"}}});
  if (s.blocked) lose_stands_for_blocked_retreat(r, m, each - s.moved, out);
  return m;
}

// "Artillery ... are destroyed if they retreat".
void Phase::artillery_destroyed_retreating(CombatMove& m, int each) {
  m.kind = CombatMoveKind::Destroyed;
  m.destroyed = true;
  m.characters = remove_unit_and_characters(bf, m.unit);
  rep.rulings.push_back({kRuleArtillery,
                         fmt::format("{} is artillery and must retreat {}: \"Artillery ... are destroyed if "
                                     "they retreat\"",
                                     m.unit, cm(each)),
                         {{"retreat", static_cast<double>(each), "cm"}}});
  slay_with(m.unit, m.characters);
}

// A unit that leaves the table retreating from combat is destroyed, and its
// characters with it; it rolls on the off-table chart first.
void Phase::retreat_off_table(const Unit& u, CombatMove& m, int each, const std::string& split) {
  m.left_table = true;
  m.destroyed = true;
  m.off_table = resolve_off_table(u, dice, true);
  rep.rulings.push_back(m.off_table->ruling);
  m.characters = remove_unit_and_characters(bf, m.unit);
  rep.rulings.push_back(
      {kRuleRetreat,
       fmt::format("{} retreats {} away from {}{} over the table edge: a unit that leaves the table retreating "
                   "from combat is destroyed{}",
                   m.unit, cm(each), m.from, split,
                   m.characters.empty() ? std::string()
                                        : fmt::format("; {} suffers the same fate", fmt::join(m.characters, ", "))),
       {{"retreat", static_cast<double>(each), "cm"}}});
}

// docs/rulings.md#warmaster-combat-blocked-retreat
void Phase::lose_stands_for_blocked_retreat(Round& r, CombatMove& m, double short_by, Retreats& out) {
  Unit& mu = *bf.find_unit(m.unit);
  const int lost = std::min(static_cast<int>(mu.stands.size()),
                            static_cast<int>(std::ceil(short_by / settings.blocked_retreat_cm_per_stand - 1e-9)));
  m.stands_lost = lost;
  remove_stands(bf, mu, lost, r.foes[m.unit], tol());
  mu.stands_lost += lost;
  m.destroyed = mu.stands.empty();
  rep.rulings.push_back(
      {kRuleBlockedRetreat,
       fmt::format("{} cannot retreat the last {}: it loses {} (one per {} or part of it that it could not "
                   "retreat){}",
                   m.unit, cm(short_by), plural(lost, "stand", "stands"), cm(settings.blocked_retreat_cm_per_stand),
                   m.destroyed ? ", and is destroyed" : ""),
       {{"short_by", short_by, "cm"},
        {"per_stand", settings.blocked_retreat_cm_per_stand, "cm"},
        {"stands_lost", static_cast<double>(lost), ""}}});
  if (m.destroyed) {
    m.characters = remove_unit_and_characters(bf, m.unit);
    slay_with(m.unit, m.characters);
    out.gone.insert(m.unit);
  }
}

// 5. The winners: pursue, stand, fall back or advance. Returns the pursuers
// still on the table.
std::vector<std::string> Phase::winners_move(Round& r, const Retreats& back) {
  std::vector<std::string> pursuers;
  for (const std::string& id : r.alive[static_cast<std::size_t>(*r.cr.winner)]) {
    const Unit* wu = bf.find_unit(id);
    if (!wu || !r.contact.count(id)) continue;
    const CombatDecision* d = decision_of(options, id);
    const CombatChoice choice = d ? d->choice : CombatChoice::Default;
    std::vector<std::string> left;  // foes still on the table
    for (const std::string& e : r.foes[id])
      if (bf.find_unit(e) && !back.gone.count(e)) left.push_back(e);
    if (choice == CombatChoice::FallBack) {
      r.cr.moves.push_back(fall_back(id, r.contact[id], d, true));
      continue;
    }
    if (left.empty() && choice == CombatChoice::Advance) {
      r.cr.moves.push_back(advance_after_destroying(*wu, r.contact[id], d));
      continue;
    }
    if (left.empty() || choice == CombatChoice::Stand || choice == CombatChoice::Advance) {
      r.cr.moves.push_back(stand_ground(id, left.empty(), choice));
      continue;
    }
    std::string refusal;
    const std::string target = pursuit_target(*wu, left, refusal);
    if (target.empty()) {
      CombatMove m;
      m.unit = id;
      m.kind = CombatMoveKind::Stand;
      rep.rulings.push_back({kRulePursuitRefused, refusal + "; it stands its ground", {}});
      r.cr.moves.push_back(m);
      continue;
    }
    CombatMove m = pursue(id, target, back);
    if (!m.left_table) pursuers.push_back(id);
    r.cr.moves.push_back(std::move(m));
  }
  return pursuers;
}

// docs/rulings.md#warmaster-combat-decisions: straight ahead, up to its full pace.
CombatMove Phase::advance_after_destroying(const Unit& wu, const Contact& c, const CombatDecision* d) {
  CombatMove m;
  m.unit = wu.id;
  const double pace = full_pace(wu);
  m.kind = CombatMoveKind::Advance;
  m.from = c.enemy;
  m.distance = d && d->distance ? std::min(*d->distance, pace) : pace;
  const Vec2 ahead = Rot::from_degrees(wu.stands[0].pose.facing_deg).forward();
  const std::string id = wu.id;  // `wu` moves with the slide
  const Slide s = slide_unit(bf, id, ahead, m.distance, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  std::string tail = s.blocked ? fmt::format(", stopping after {} ({})", cm(s.moved), s.why)
                               : with_characters(s.characters, "moves");
  if (s.left_table) tail = leaves_table(id, m);
  rep.rulings.push_back({kRuleAdvance,
                         fmt::format("{} advances {} straight ahead, its enemy destroyed{}", id, cm(m.distance), tail),
                         {{"distance", m.distance, "cm"}, {"moved", m.moved, "cm"}}});
  return m;
}

CombatMove Phase::stand_ground(const std::string& id, bool none_left, CombatChoice choice) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::Stand;
  rep.rulings.push_back({kRuleStand,
                         fmt::format("{} stands its ground{}", id,
                                     none_left                             ? " (no enemy it fought is left to pursue)"
                                     : choice == CombatChoice::Advance ? " (it may advance only when the enemy was destroyed)"
                                                                       : ""),
                         {}});
  return m;
}

// The first foe in `left` the rules let `wu` pursue (docs/rulings.md#warmaster-combat-pursuit);
// none, with the first refusal in `refusal`, when it may pursue none.
std::string Phase::pursuit_target(const Unit& wu, const std::vector<std::string>& left, std::string& refusal) const {
  const Position own = position_of(bf, wu, settings).position;
  for (const std::string& e : left) {
    const std::string why = pursuit_refusal(wu, own, *bf.find_unit(e));
    if (why.empty()) return e;
    if (refusal.empty()) refusal = fmt::format("{} may not pursue {}: {}", wu.id, e, why);
  }
  return {};
}

// Why `wu` may not pursue `eu`, or nothing when it may.
std::string Phase::pursuit_refusal(const Unit& wu, Position own, const Unit& eu) const {
  if (wu.type == TroopType::Artillery) return "artillery never pursue";
  if (own == Position::Fortified) return "fortified units never pursue";
  if (wu.type == TroopType::Infantry && (eu.type == TroopType::Cavalry || eu.type == TroopType::Chariot))
    return fmt::format("infantry cannot pursue {}", to_string(eu.type));
  if (eu.type == TroopType::Flyer && wu.type != TroopType::Flyer) return "non-flying units cannot pursue flyers";
  for (std::size_t s = 0; s < eu.stands.size(); ++s) {
    const OrientedRect r = eu.footprint(s);
    for (const TerrainFeature& f : bf.terrain) {
      const bool ok = wu.type == TroopType::Flyer ? flyer_may_end_in(f.kind, settings)
                                                  : may_enter(wu.type, f.kind, settings);
      if (ok || !r.bounds().overlaps(f.bounds)) continue;
      for (const Polygon& p : f.pieces)
        if (p.points.size() >= 3 && overlaps(r, p, settings.contact_tolerance))
          return fmt::format("{} retreated into {} ({}), which {} cannot enter", eu.id, f.id, to_string(f.kind),
                             to_string(wu.type));
    }
  }
  return {};
}

// The pursuer follows its enemy's retreat: +1 attack per stand next round, and
// one more for each full 3 cm the enemy retreated.
CombatMove Phase::pursue(const std::string& id, const std::string& target, const Retreats& back) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::Pursuit;
  m.from = target;
  const auto shift = back.shift.find(target);
  const Vec2 v = shift != back.shift.end() ? shift->second : Vec2{0, 0};
  m.distance = length(v);
  const Slide s = slide_unit(bf, id, v / std::max(m.distance, 1e-12), m.distance, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  const auto retreated = back.retreated.find(target);
  const double cm_back = retreated != back.retreated.end() ? retreated->second : 0.0;
  const int extra = static_cast<int>(std::floor(cm_back / 3.0 + 1e-9));
  std::string tail = s.blocked ? fmt::format(", stopping after {} ({})", cm(s.moved), s.why)
                               : with_characters(s.characters, "moves");
  if (s.left_table) tail = leaves_table(id, m);
  rep.rulings.push_back(
      {kRulePursuit,
       fmt::format("{} pursues {}, following its retreat of {}{}: +1 attack per stand, +{} more ({} full 3 cm)", id,
                   target, cm(cm_back), tail, extra, extra),
       {{"retreated", cm_back, "cm"}, {"moved", m.moved, "cm"}, {"extra_attacks", static_cast<double>(extra), ""}}});
  return m;
}

// The pursuit bonus of each pursuer on the table, for the next round.
Phase::PursuitBonus Phase::next_round_bonus(const CombatRound& cr, const Retreats& back) {
  PursuitBonus next;
  for (const CombatMove& m : cr.moves)
    if (m.kind == CombatMoveKind::Pursuit && !m.left_table) {
      const auto retreated = back.retreated.find(m.from);
      const double cm_back = retreated != back.retreated.end() ? retreated->second : 0.0;
      next[m.unit] = {static_cast<int>(std::floor(cm_back / 3.0 + 1e-9)), cm_back};
    }
  return next;
}

}  // namespace referee::warmaster::combat_detail
