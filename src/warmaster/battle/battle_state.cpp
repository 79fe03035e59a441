#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "battle/command_internal.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"

namespace referee::warmaster {

namespace {
constexpr std::array<std::pair<ActionType, const char*>, 9> kActionNames{{
    {ActionType::OffTableReturn, "off_table_return"},
    {ActionType::HomeBack, "home_back"},
    {ActionType::Initiative, "initiative"},
    {ActionType::Order, "order"},
    {ActionType::Move, "move"},
    {ActionType::EndOrders, "end_orders"},
    {ActionType::CharacterMove, "character_move"},
    {ActionType::EndPhase, "end_phase"},
    {ActionType::Shoot, "shoot"},
}};

bool contains_index(const std::vector<int>& v, int i) { return std::find(v.begin(), v.end(), i) != v.end(); }

std::string join_ids(const Battlefield& bf, const std::vector<int>& units) {
  std::string s;
  for (int i : units) {
    if (!s.empty()) s += ", ";
    s += bf.units[static_cast<std::size_t>(i)].id;
  }
  return s;
}
}  // namespace

const char* to_string(Phase p) {
  switch (p) {
    case Phase::Command: return "command";
    case Phase::Shooting: return "shooting";
    case Phase::Combat: return "combat";
  }
  return "?";
}

const char* to_string(CommandStep s) {
  switch (s) {
    case CommandStep::Initiative: return "initiative";
    case CommandStep::Orders: return "orders";
    case CommandStep::Characters: return "characters";
  }
  return "?";
}

const char* to_string(ActionType t) {
  for (const auto& [k, n] : kActionNames)
    if (k == t) return n;
  return "?";
}

std::optional<ActionType> action_type_from_string(const std::string& s) {
  for (const auto& [k, n] : kActionNames)
    if (s == n) return k;
  return std::nullopt;
}

// --- Construction and turn bookkeeping ---------------------------------------

WarmasterState::WarmasterState(std::shared_ptr<const BattleGame> game)
    : game_(std::move(game)), bf_(std::make_shared<Battlefield>(game_->start)) {
  units_.resize(bf_->units.size());
  chars_.resize(bf_->characters.size());
  for (std::size_t i = 0; i < bf_->units.size(); ++i)
    if (bf_->units[i].stands.empty()) units_[i].destroyed = true;
  begin_phase();
  // Built now, so that every clone of this state shares it.
  build_move_index();
}

void WarmasterState::refresh_engaged() {
  const std::vector<char> engaged = engaged_now(*bf_, settings().contact_tolerance);
  bool same = true;
  for (std::size_t i = 0; i < engaged.size() && same; ++i) same = bf_->units[i].engaged == (engaged[i] != 0);
  if (same) return;
  Battlefield& bf = mutable_battlefield();
  for (std::size_t i = 0; i < engaged.size(); ++i) bf.units[i].engaged = engaged[i] != 0;
}

int WarmasterState::unit_index(const std::string& id) const {
  for (std::size_t i = 0; i < bf_->units.size(); ++i)
    if (bf_->units[i].id == id) return static_cast<int>(i);
  return -1;
}

int WarmasterState::character_index(const std::string& id) const {
  for (std::size_t i = 0; i < bf_->characters.size(); ++i)
    if (bf_->characters[i].id == id) return static_cast<int>(i);
  return -1;
}

// Copy on write: states share one battlefield until one of them moves a stand,
// so cloning a state copies only the flags. A state that holds its
// battlefield alone (it has moved since it was cloned) changes it in place.
Battlefield& WarmasterState::mutable_battlefield() {
  if (bf_.use_count() == 1) index_current_ = false;
  else replace_battlefield(std::make_shared<Battlefield>(*bf_));
  return *bf_;
}

void WarmasterState::replace_battlefield(std::shared_ptr<Battlefield> bf) {
  bf_ = std::move(bf);
  index_current_ = false;
}

// Once per apply that changed the battlefield, however many stands moved: a
// new index, sharing the terrain part of the one before.
void WarmasterState::build_move_index() {
  if (index_current_) return;
  index_ = index_ ? std::make_shared<const MoveIndex>(*bf_, *index_) : std::make_shared<const MoveIndex>(*bf_);
  index_current_ = true;
}

void BattlefieldFactsDelete::operator()(BattlefieldFacts* f) const { delete f; }

BattlefieldFacts& WarmasterState::facts(MoveScratch& scratch) const {
  if (!scratch.facts) scratch.facts.reset(new BattlefieldFacts);
  BattlefieldFacts& f = *scratch.facts;
  if (f.index != index_->serial()) {
    f.index = index_->serial();
    f.touching.reset();
    f.targets.assign(2 * bf_->units.size(), std::nullopt);
  }
  return f;
}

const std::vector<InitiativeCandidate>& WarmasterState::initiative_targets(const std::string& unit, bool charge,
                                                                         MoveScratch& scratch) const {
  static const std::vector<InitiativeCandidate> none;
  const int ui = unit_index(unit);
  if (ui < 0) return none;
  auto& slot = facts(scratch).targets[2 * static_cast<std::size_t>(ui) + (charge ? 1 : 0)];
  if (!slot) slot = initiative_candidates(*bf_, move_index(), unit_at(ui), settings(), charge);
  return *slot;
}

std::vector<InitiativeCandidate> WarmasterState::initiative_targets(const std::string& unit, bool charge) const {
  const int ui = unit_index(unit);
  if (ui < 0) return {};
  return initiative_candidates(*bf_, move_index(), unit_at(ui), settings(), charge);
}

// The start of a side's Command phase: per-turn flags are cleared, and the
// units within 20 cm of an enemy now are the ones that may use initiative
// (movement text, "Moving by initiative": "at the start of the Command phase").
void WarmasterState::begin_phase() {
  refresh_engaged();
  const std::vector<char> near_enemy = enemies_within(*bf_, side_, 20.0);
  for (std::size_t i = 0; i < units_.size(); ++i) {
    UnitStatus& s = units_[i];
    s.orders = 0;
    s.ordered_by.clear();
    s.used_initiative = s.charged = s.moved = s.finished = s.homed_back = s.frozen = false;
    const Unit& u = bf_->units[i];
    // A unit that left the table on a 1-2 rolls again at the start of its
    // side's next turn, before initiative.
    s.returns_next_turn = u.side == side_ && s.off_table && !s.destroyed;
    s.near_enemy_at_start = u.side == side_ && !s.off_table && !s.destroyed && near_enemy[i];
  }
  for (std::size_t i = 0; i < chars_.size(); ++i) {
    CharacterStatus& c = chars_[i];
    const bool lost = c.lost;  // a lost character stays lost until it rolls to return
    const bool slain = c.slain;  // and a slain one for good
    const Vec2 back_at = c.return_point;
    c = CharacterStatus{};
    c.lost = lost;
    c.slain = slain;
    c.return_point = back_at;
    c.returns_next_turn = lost && !slain && bf_->characters[i].side == side_;
  }
  command_.step = CommandStep::Initiative;
  command_.orders_begun = command_.general_failed = false;
  command_.active_character.clear();
  command_.family.clear();
  command_.last_group.clear();
  command_.brigade_touching.clear();
  command_.pending.reset();
}

// Two units touch when some stand of one is within the contact tolerance of a
// stand of the other (docs/rulings.md#warmaster-command-brigades). This is how
// brigades are recognised.
const std::vector<std::vector<int>>& WarmasterState::touching_now(MoveScratch& scratch) const {
  BattlefieldFacts& f = facts(scratch);
  if (!f.touching) f.touching = measure_touching();
  return *f.touching;
}

std::vector<std::vector<int>> WarmasterState::touching_now() const { return measure_touching(); }

std::vector<std::vector<int>> WarmasterState::measure_touching() const {
  const Battlefield& bf = *bf_;
  const MoveIndex& index = move_index();
  std::vector<std::vector<int>> adj(bf.units.size());
  const double tol = settings().contact_tolerance;
  // Pairs of the same side whose boxes meet (widened by the tolerance) are
  // measured. The units are swept in order of their boxes' left edges, so
  // each is compared only with those whose boxes reach it along x.
  struct Entry {
    Aabb box;
    std::size_t unit;
  };
  std::vector<Entry> present;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    if (bf.units[i].stands.empty() || units_[i].off_table) continue;
    present.push_back({index.unit_box(i)->inflated(tol), i});
  }
  std::sort(present.begin(), present.end(), [](const Entry& a, const Entry& b) {
    return a.box.min.x < b.box.min.x || (a.box.min.x == b.box.min.x && a.unit < b.unit);
  });
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t pi = 0; pi < present.size(); ++pi) {
    const Unit& a = bf.units[present[pi].unit];
    for (std::size_t pj = pi + 1; pj < present.size() && present[pj].box.min.x <= present[pi].box.max.x; ++pj) {
      const Unit& b = bf.units[present[pj].unit];
      if (b.side != a.side || !present[pi].box.overlaps(present[pj].box) || !units_touch(a, b, tol)) continue;
      const auto [lo, hi] = std::minmax(present[pi].unit, present[pj].unit);
      pairs.push_back({static_cast<int>(lo), static_cast<int>(hi)});
    }
  }
  // Neighbour lists in unit order, as a scan of all pairs would give them.
  std::sort(pairs.begin(), pairs.end());
  for (const auto& [i, j] : pairs) {
    adj[static_cast<std::size_t>(i)].push_back(j);
    adj[static_cast<std::size_t>(j)].push_back(i);
  }
  return adj;
}

// docs/rulings.md#warmaster-combat-characters: every character by id; one
// missing after the phase was slain with its unit, or left the table with it.
// Either way it stays in the state, lost, with no unit; a General lost so
// makes his army withdraw.
void WarmasterState::carry_characters(Battlefield& next, const Battlefield& after, const std::vector<std::string>& slain) {
  for (std::size_t i = 0; i < next.characters.size(); ++i) {
    Character& c = next.characters[i];
    const auto it = std::find_if(after.characters.begin(), after.characters.end(),
                                 [&](const Character& a) { return a.id == c.id; });
    if (it != after.characters.end()) {
      c = *it;
      continue;
    }
    CharacterStatus& cs = chars_[i];
    if (cs.lost) continue;
    const bool was_slain = std::find(slain.begin(), slain.end(), c.id) != slain.end();
    const std::string unit = c.joined_unit;
    cs.lost = true;
    cs.slain = was_slain;
    cs.return_point = c.pose.position;
    c.joined_unit.clear();
    if (c.role == CharacterRole::General)
      end_battle(was_slain ? fmt::format("the General {} was slain with {}: his army withdraws", c.id, unit)
                           : fmt::format("the General {} left the table with his unit: his army withdraws", c.id),
                 1 - c.side);
  }
}

void WarmasterState::end_battle(const std::string& reason, int winner) {
  battle_over_reason_ = reason;
  winner_ = winner;
}

// docs/rulings.md#warmaster-break-point: an army that has lost its break
// point in units withdraws at once, and the battle ends. Both at once (the
// texts never say how) is a draw.
void WarmasterState::check_break_points() {
  bool broken[2] = {false, false};
  int lost[2] = {0, 0}, points[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    lost[side] = units_lost(side);
    points[side] = break_point(side);
    broken[side] = points[side] > 0 && lost[side] >= points[side];
  }
  if (!broken[0] && !broken[1]) return;
  auto army = [&](int side) {
    const std::vector<Army>& armies = bf_->armies;
    return static_cast<std::size_t>(side) < armies.size() && !armies[static_cast<std::size_t>(side)].name.empty()
               ? armies[static_cast<std::size_t>(side)].name
               : fmt::format("army {}", side);
  };
  auto says = [&](int side) {
    int units = 0;
    for (const Unit& u : game_->start.units) units += u.side == side && !u.stands.empty();
    return fmt::format("{} has lost {} {} of {}, reaching its break point of {}: it withdraws", army(side),
                       lost[side], lost[side] == 1 ? "unit" : "units", units, points[side]);
  };
  if (broken[0] && broken[1]) end_battle(says(0) + "; " + says(1), -1);
  else end_battle(says(broken[0] ? 0 : 1), broken[0] ? 1 : 0);
}

// Side 0 moves first, so a turn is complete when side 1's Combat phase ends
// (docs/rulings.md#warmaster-turn-limit). The clock still moves on, so the
// state shows the turn that will not be played.
void WarmasterState::pass_turn() {
  side_ = 1 - side_;
  if (side_ == 0) ++turn_;
  phase_ = Phase::Command;
  begin_phase();
  if (side_ == 0 && turn_ > settings().turn_limit) {
    // docs/rulings.md#warmaster-end-of-battle: at the turn limit, the side
    // that has destroyed more enemy units wins; as many is a draw.
    const int lost0 = units_lost(0), lost1 = units_lost(1);
    const int winner = lost0 == lost1 ? -1 : lost0 > lost1 ? 1 : 0;
    end_battle(fmt::format("turn limit ({} turns): units lost {} to {}{}", settings().turn_limit, lost0, lost1,
                           winner < 0 ? ", a draw" : ""),
               winner);
  }
}

// --- Validation ----------------------------------------------------------------

Verdict WarmasterState::validate(const Action& a) const {
  MoveScratch scratch;
  return validate(a, scratch);
}

Verdict WarmasterState::validate(const Action& a, MoveScratch& scratch) const {
  Verdict v;
  if (battle_over()) {
    v.add(warmaster::rule_id::command_battle_over, "the battle is over: " + battle_over_reason_);
    return v;
  }
  if (Verdict pv = validate_phase(a); !pv.legal()) return pv;
  switch (a.type) {
    case ActionType::Shoot: return validate_shooting(a);
    case ActionType::OffTableReturn: return validate_off_table(a);
    case ActionType::HomeBack: return validate_home_back(a);
    case ActionType::Initiative: return validate_initiative(a, scratch);
    case ActionType::Order: return validate_order(a, scratch);
    case ActionType::Move: return validate_move(a, scratch);
    case ActionType::CharacterMove: return validate_character_move(a, scratch);
    case ActionType::EndOrders: return validate_step_change(a);
    case ActionType::EndPhase: return phase_ == Phase::Combat ? validate_combat_phase(a) : validate_step_change(a);
  }
  return v;
}

// Play sheet, "SEQUENCE: 1. Command 2. Shoot 3. Combat"
// (docs/rulings.md#warmaster-turn-sequence): each action belongs to one phase.
Verdict WarmasterState::validate_phase(const Action& a) const {
  Verdict v;
  const char* side_name = side_ == 0 ? "side 0" : "side 1";
  switch (phase_) {
    case Phase::Command:
      if (a.type == ActionType::Shoot)
        v.add(warmaster::rule_id::phase_sequence,
              fmt::format("it is the Command phase of {}: shooting comes after it (end_phase first)", side_name));
      // parse_action refuses these as bad input; a typed caller is told here.
      if (a.type == ActionType::EndPhase && !a.decisions.empty())
        v.add(warmaster::rule_id::combat_decisions,
              fmt::format("it is the Command phase of {}: decisions are given with the end_phase of the Combat "
                          "phase",
                          side_name));
      break;
    case Phase::Shooting:
      if (a.type == ActionType::EndPhase)
        v.add(warmaster::rule_id::phase_sequence,
              fmt::format("the Shooting phase of {} ends when it is resolved (shoot): every unit that can shoot "
                          "must shoot at the closest enemy",
                          side_name));
      else if (a.type != ActionType::Shoot)
        v.add(warmaster::rule_id::phase_sequence,
              fmt::format("it is the Shooting phase of {}: the Command phase is over, and the only action now is "
                          "shoot",
                          side_name));
      break;
    case Phase::Combat:
      if (a.type != ActionType::EndPhase)
        v.add(warmaster::rule_id::phase_sequence,
              fmt::format("it is the Combat phase of {}: the only action now is end_phase, which fights the "
                          "engagements and passes the turn",
                          side_name));
      break;
  }
  return v;
}

std::vector<std::string> WarmasterState::engaged_units() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < bf_->units.size(); ++i)
    if (bf_->units[i].engaged && !bf_->units[i].stands.empty() && !units_[i].off_table && !units_[i].destroyed)
      out.push_back(bf_->units[i].id);
  return out;
}

// Units that took the field (had stands when the battle began) and are now
// destroyed: by casualties, routed, or off the table for good.
int WarmasterState::units_lost(int side) const {
  int lost = 0;
  for (std::size_t i = 0; i < bf_->units.size(); ++i)
    if (bf_->units[i].side == side && !game_->start.units[i].stands.empty() && units_[i].destroyed) ++lost;
  return lost;
}

int WarmasterState::break_point(int side) const {
  const Battlefield& start = game_->start;
  if (side >= 0 && static_cast<std::size_t>(side) < start.armies.size() &&
      start.armies[static_cast<std::size_t>(side)].break_point > 0)
    return start.armies[static_cast<std::size_t>(side)].break_point;
  int units = 0;
  for (const Unit& u : start.units) units += u.side == side && !u.stands.empty();
  return (units + 1) / 2;
}

void WarmasterState::require_no_pending_returns(Verdict& v) const {
  for (std::size_t i = 0; i < units_.size(); ++i)
    if (units_[i].returns_next_turn && bf_->units[i].side == side_)
      v.add(warmaster::rule_id::command_off_table_return,
            fmt::format("unit {} left the table and must roll to return before anything else moves this turn",
                        bf_->units[i].id));
  for (std::size_t i = 0; i < chars_.size(); ++i)
    if (chars_[i].returns_next_turn && bf_->characters[i].side == side_)
      v.add(warmaster::rule_id::command_off_table_return,
            fmt::format("{} left the table and must roll to return before anything else moves this turn",
                        bf_->characters[i].id));
}

Verdict WarmasterState::validate_off_table(const Action& a) const {
  Verdict v;
  if (!a.character.empty()) {
    const int ci = character_index(a.character);
    if (ci < 0) {
      v.add(warmaster::rule_id::command_unknown, fmt::format("no character \"{}\"", a.character));
      return v;
    }
    if (bf_->characters[static_cast<std::size_t>(ci)].side != side_)
      v.add(warmaster::rule_id::command_side, fmt::format("{} is not on the side moving", a.character));
    if (!chars_[static_cast<std::size_t>(ci)].returns_next_turn)
      v.add(warmaster::rule_id::command_off_table_return,
            fmt::format("{} is not waiting off the table to roll for its return", a.character));
    return v;
  }
  const int ui = unit_index(a.unit);
  if (ui < 0) {
    v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", a.unit));
    return v;
  }
  if (unit_at(ui).side != side_) v.add(warmaster::rule_id::command_side, fmt::format("unit {} is not on the side moving", a.unit));
  if (!units_[static_cast<std::size_t>(ui)].returns_next_turn)
    v.add(warmaster::rule_id::command_off_table_return,
          fmt::format("unit {} is not waiting off the table to roll for its return", a.unit));
  return v;
}

Verdict WarmasterState::validate_step_change(const Action& a) const {
  Verdict v;
  require_no_pending_returns(v);
  if (a.type == ActionType::EndOrders && command_.step == CommandStep::Characters)
    v.add(warmaster::rule_id::command_phase, "ordered movement has already ended");
  return v;
}

Verdict WarmasterState::validate_home_back(const Action& a) const {
  Verdict v;
  require_no_pending_returns(v);
  const int ui = unit_index(a.unit);
  const int ci = character_index(a.character);
  if (ui < 0) v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", a.unit));
  if (ci < 0) v.add(warmaster::rule_id::command_unknown, fmt::format("no character \"{}\"", a.character));
  if (ui < 0 || ci < 0) return v;
  const Unit& u = unit_at(ui);
  const UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  const Character& c = bf_->characters[static_cast<std::size_t>(ci)];
  if (command_.step != CommandStep::Initiative || command_.orders_begun)
    v.add(warmaster::rule_id::command_home_back, "flyers home back before any order is issued");
  if (u.side != side_) v.add(warmaster::rule_id::command_side, fmt::format("unit {} is not on the side moving", u.id));
  if (c.side != u.side) v.add(warmaster::rule_id::command_home_back, fmt::format("{} is not a friendly character", c.id));
  if (chars_[static_cast<std::size_t>(ci)].lost)
    v.add(warmaster::rule_id::command_character_lost, fmt::format("{} is off the table: nothing can home back on it", c.id));
  if (u.type != TroopType::Flyer) v.add(warmaster::rule_id::command_home_back, fmt::format("unit {} is not a flying unit", u.id));
  if (s.homed_back) v.add(warmaster::rule_id::command_home_back, fmt::format("unit {} has already homed back", u.id));
  if (s.off_table || s.destroyed) v.add(warmaster::rule_id::command_off_table, fmt::format("unit {} is not on the table", u.id));
  if (s.used_initiative) v.add(warmaster::rule_id::initiative_no_orders, fmt::format("unit {} used initiative", u.id));
  if (u.engaged) v.add(warmaster::rule_id::command_engaged, fmt::format("unit {} is engaged in combat", u.id));
  if (u.confused) v.add(warmaster::rule_id::command_confused, fmt::format("unit {} is confused and cannot move", u.id));
  if (!v.legal() || u.stands.empty()) return v;
  for (std::size_t k = 0; k < bf_->characters.size(); ++k) {
    const Character& f = bf_->characters[k];
    if (f.side != u.side || chars_[k].lost) continue;
    const double d = character_distance(f, u).distance;
    if (to_hundredths_of_mm(d) <= to_hundredths_of_mm(kFlyerCharacterRange))
      v.add(warmaster::rule_id::command_home_back,
            fmt::format("unit {} is {} from {}: only a flyer more than {} from every friendly character may home back",
                        u.id, format_compared(d, kFlyerCharacterRange, "cm").value, f.id,
                        format_compared(d, kFlyerCharacterRange, "cm").limit),
            {{"distance", d, "cm"}, {"limit", kFlyerCharacterRange, "cm"}});
  }
  return v;
}

namespace validate_order_parts {

// The conditions on each unit ordered: on the side moving, on the table, free
// to move, not ordered by another character, within three orders, and a
// flyer within range of a friendly character.
void validate_ordered_unit(const WarmasterState& st, const Character& c, int ui, Verdict& v) {
  const Battlefield& bf = st.battlefield();
  const Unit& u = bf.units[static_cast<std::size_t>(ui)];
  const UnitStatus& s = st.units()[static_cast<std::size_t>(ui)];
  if (u.side != st.side())
    v.add(warmaster::rule_id::command_side, fmt::format("unit {} is not on the side moving", u.id));
  if (s.off_table || s.destroyed)
    v.add(warmaster::rule_id::command_off_table, fmt::format("unit {} is not on the table", u.id));
  if (s.frozen)
    v.add(warmaster::rule_id::command_returned,
          fmt::format("unit {} came back onto the table and cannot move this turn", u.id));
  if (u.engaged) v.add(warmaster::rule_id::command_engaged, fmt::format("unit {} is engaged in combat", u.id));
  if (u.confused) v.add(warmaster::rule_id::command_confused, fmt::format("unit {} is confused and cannot move", u.id));
  if (s.used_initiative)
    v.add(warmaster::rule_id::initiative_no_orders,
          fmt::format("unit {} used initiative this turn and cannot be ordered", u.id));
  if (s.charged)
    v.add(warmaster::rule_id::command_charge_ends_orders,
          fmt::format("unit {} has charged: no further orders this turn", u.id));
  if (!s.ordered_by.empty() && s.ordered_by != c.id)
    v.add(warmaster::rule_id::command_other_character,
          fmt::format("unit {} was ordered by {} this turn; another character cannot order it", u.id, s.ordered_by));
  if (s.orders >= 3)
    v.add(warmaster::rule_id::command_three_orders,
          fmt::format("unit {} has had {} orders: at most three in succession", u.id, s.orders),
          {{"orders", static_cast<double>(s.orders), ""}, {"limit", 3, ""}});
  else if (s.finished)
    v.add(warmaster::rule_id::command_no_return,
          fmt::format("unit {} was ordered earlier and another unit has moved since: no going back to it", u.id));
  if (u.type == TroopType::Flyer) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < bf.characters.size(); ++k)
      if (bf.characters[k].side == u.side && !st.characters()[k].lost)
        best = std::min(best, character_distance(bf.characters[k], u).distance);
    if (!(to_hundredths_of_mm(best) <= to_hundredths_of_mm(kFlyerCharacterRange)))
      v.add(warmaster::rule_id::command_flyer_range,
            fmt::format("flying unit {} is {} from the nearest friendly character: flyers are ordered only within {}",
                        u.id,
                        std::isfinite(best) ? format_compared(best, kFlyerCharacterRange, "cm").value
                                            : std::string("far"),
                        format_compared(std::isfinite(best) ? best : 0, kFlyerCharacterRange, "cm").limit),
            {{"distance", std::isfinite(best) ? best : 0, "cm"}, {"limit", kFlyerCharacterRange, "cm"}});
  }
}

// Order sequencing within one character's orders (command text, "Giving
// further orders" and "Brigades"): an order either continues the original
// unit or brigade now being ordered (the whole, a part, or single units of
// it) or starts with units that have had no order yet.
void validate_order_sequence(const WarmasterState& st, const Character& c, const std::vector<int>& group, Verdict& v) {
  const Battlefield& bf = st.battlefield();
  const CommandPhaseState& cmd = st.command_phase();
  const std::vector<UnitStatus>& units = st.units();
  const bool same_character = cmd.active_character == c.id;
  bool any_in_family = false, all_in_family = true;
  for (int ui : group) {
    if (same_character && contains_index(cmd.family, ui)) any_in_family = true;
    else all_in_family = false;
  }
  if (any_in_family && !all_in_family) {
    std::vector<int> inside, outside;
    for (int ui : group) (contains_index(cmd.family, ui) ? inside : outside).push_back(ui);
    v.add(warmaster::rule_id::command_brigade_finish,
          fmt::format("{} {} {} to the brigade being ordered ({}) but {} {} not; finish the brigade before "
                      "ordering other units",
                      inside.size() == 1 ? "unit" : "units", join_ids(bf, inside),
                      inside.size() == 1 ? "belongs" : "belong", join_ids(bf, cmd.family), join_ids(bf, outside),
                      outside.size() == 1 ? "does" : "do"));
  }
  if (!any_in_family)
    for (int ui : group)
      if (units[static_cast<std::size_t>(ui)].orders > 0 && units[static_cast<std::size_t>(ui)].ordered_by == c.id)
        v.add(warmaster::rule_id::command_no_return,
              fmt::format("unit {} was ordered earlier and another unit has moved since: no going back to it",
                          bf.units[static_cast<std::size_t>(ui)].id));
}

}  // namespace validate_order_parts

Verdict WarmasterState::validate_order(const Action& a, MoveScratch& scratch) const {
  Verdict v;
  require_no_pending_returns(v);
  if (command_.step == CommandStep::Characters) v.add(warmaster::rule_id::command_phase, "ordered movement has ended");
  const int ci = character_index(a.character);
  if (ci < 0) {
    v.add(warmaster::rule_id::command_unknown, fmt::format("no character \"{}\"", a.character));
    return v;
  }
  const Character& c = bf_->characters[static_cast<std::size_t>(ci)];
  const CharacterStatus& cs = chars_[static_cast<std::size_t>(ci)];
  if (c.side != side_) v.add(warmaster::rule_id::command_side, fmt::format("{} is not on the side moving", c.id));
  if (command_.general_failed)
    v.add(warmaster::rule_id::command_general_failed, "the General has failed an order: no more orders this phase");
  if (cs.failed)
    v.add(warmaster::rule_id::command_character_failed, fmt::format("{} has failed an order and can issue no more", c.id));
  if (cs.lost)
    v.add(warmaster::rule_id::command_character_lost,
          fmt::format("{} left the table and did not come back: it issues no more orders", c.id));
  if (cs.finished)
    v.add(warmaster::rule_id::command_character_sequence,
          fmt::format("{} has finished: another character has begun issuing orders since", c.id));

  if (a.units.empty() || a.units.size() > 4) {
    v.add(warmaster::rule_id::command_brigade_size,
          fmt::format("an order goes to one unit or a brigade of up to four, not {}", a.units.size()),
          {{"units", static_cast<double>(a.units.size()), ""}});
    return v;
  }
  std::vector<int> group;
  for (const std::string& id : a.units) {
    const int ui = unit_index(id);
    if (ui < 0) {
      v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", id));
      continue;
    }
    if (contains_index(group, ui)) {
      v.add(warmaster::rule_id::command_brigade_size, fmt::format("unit {} is listed twice", id));
      continue;
    }
    group.push_back(ui);
  }
  if (!v.legal()) return v;

  for (int ui : group) validate_order_parts::validate_ordered_unit(*this, c, ui, v);
  if (!v.legal()) return v;

  validate_order_parts::validate_order_sequence(*this, c, group, v);

  if (group.size() > 1) {
    // A brigade must have been touching when ordered movement began, and
    // (after moving) must still touch now.
    const std::vector<std::vector<int>>& at_start = command_.orders_begun ? command_.brigade_touching : touching_now(scratch);
    if (!connected(group, at_start))
      v.add(warmaster::rule_id::command_brigade_formed,
            fmt::format("units {} were not touching as one body when ordered movement began: a brigade cannot be "
                        "formed and moved in the same phase",
                        join_ids(*bf_, group)));
    else if (command_.orders_begun && !connected(group, touching_between(*bf_, group, settings().contact_tolerance)))
      v.add(warmaster::rule_id::command_brigade_touching, fmt::format("units {} no longer touch as one body", join_ids(*bf_, group)));
  }
  return v;
}

WarmasterState::OrderQuestion WarmasterState::ask_order(const std::string& character,
                                                    const std::vector<std::string>& units) const {
  OrderQuestion q;
  Action a;
  a.type = ActionType::Order;
  a.character = character;
  a.units = units;
  q.verdict = validate(a);
  if (const auto f = order_factors_now(character, units)) {
    q.factors = *f;
    q.target = order_target(q.factors);
  }
  return q;
}

std::optional<OrderFactors> WarmasterState::order_factors_now(const std::string& character,
                                                            const std::vector<std::string>& units) const {
  const int ci = character_index(character);
  std::vector<const Unit*> group;
  int previous = 0;
  int blunder = 0;
  for (const std::string& id : units) {
    const int ui = unit_index(id);
    if (ui < 0) continue;
    group.push_back(&unit_at(ui));
    previous = std::max(previous, units_[static_cast<std::size_t>(ui)].orders);
    blunder = std::max(blunder, units_[static_cast<std::size_t>(ui)].blunder_penalty);
  }
  if (ci < 0 || group.empty()) return std::nullopt;
  const bool bonus = settings().first_turn_command_bonus && turn_ == 1 &&
                     !chars_[static_cast<std::size_t>(ci)].first_order_given;
  OrderFactors f = order_factors(*bf_, move_index(), bf_->characters[static_cast<std::size_t>(ci)], group, previous, bonus);
  f.blunder_penalty = blunder;
  return f;
}

MoveAnswer WarmasterState::check_unit_move(const Battlefield& bf, const MoveRequest& req, Verdict& v,
                                         MoveScratch& scratch, CheckDepth depth) const {
  // Moves checked on the current battlefield share its index; a brigade's
  // later units are checked on the battlefield its earlier moves leave.
  MoveAnswer ans = &bf == bf_.get() ? check_move(bf, move_index(), req, settings(), scratch, depth)
                                    : check_move(bf, MoveIndex(bf), req, settings(), scratch, depth);
  for (const Ruling& r : ans.verdict.violations) v.add(r);
  return ans;
}

Verdict WarmasterState::validate_move(const Action& a, MoveScratch& scratch, MovePlan* plan, CheckDepth depth) const {
  Verdict v;
  require_no_pending_returns(v);
  if (!command_.pending) {
    v.add(warmaster::rule_id::command_no_order, "no order or home back is waiting for a move");
    return v;
  }
  const PendingMove& p = *command_.pending;
  if (!p.kind) {
    v.add(warmaster::rule_id::command_failed_order, "this order allows no move: a failed further order, or a blunder whose move the engine made");
    return v;
  }
  if (a.moves.empty()) return v;  // holding: the units stay where they are
  std::vector<int> movers;
  // The battlefield as the moves so far leave it; no copy until one is applied.
  std::optional<Battlefield> moved;
  const Battlefield* cur = bf_.get();
  std::vector<int> chargers;
  for (std::size_t k = 0; k < a.moves.size(); ++k) {
    MoveRequest req = a.moves[k];
    const int ui = unit_index(req.mover);
    if (ui < 0) {
      v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", req.mover));
      continue;
    }
    if (!contains_index(p.units, ui)) {
      v.add(warmaster::rule_id::command_not_ordered, fmt::format("unit {} has no order to move on ({} waiting: {})", req.mover,
                                                         p.source, join_ids(*bf_, p.units)));
      continue;
    }
    if (contains_index(movers, ui)) {
      v.add(warmaster::rule_id::command_not_ordered, fmt::format("unit {} moves once per order", req.mover));
      continue;
    }
    movers.push_back(ui);
    if (!normalise_move_kind(p, req, v)) continue;
    MoveAnswer answer = check_unit_move(*cur, req, v, scratch, depth);
    if (!v.legal()) continue;
    if (plan) {
      plan->requests.push_back(req);
      plan->answers.push_back(std::move(answer));
    }
    check_charge_contact(*cur, unit_after(cur->units[static_cast<std::size_t>(ui)], req), req, req.charge_target,
                         settings(), v);
    if (req.kind == MoveKind::Charge) chargers.push_back(ui);
    // The battlefield after the move is needed only by a brigade's later
    // units and checks, and by the home back's direction; a single unit's
    // move is placed when applied.
    if (p.units.size() > 1 || k + 1 < a.moves.size() || p.source == "home back") {
      if (!moved) moved = *cur;
      place_move(*moved, req);
      cur = &*moved;
    }
    if (p.source == "home back") check_home_back_direction(*bf_, *cur, ui, p.homing_on, v);
  }
  if (v.legal() && p.units.size() > 1) {
    // A brigade moves as a body: the units that did not charge must still
    // touch as one body (command text, "Brigades").
    std::vector<int> body;
    for (int ui : p.units)
      if (!contains_index(chargers, ui)) body.push_back(ui);
    if (body.size() > 1 && !connected(body, touching_between(*cur, body, settings().contact_tolerance)))
      v.add(warmaster::rule_id::command_brigade_touching,
            fmt::format("the brigade's units that did not charge ({}) must end touching as one body",
                        join_ids(*bf_, body)));
  }
  if (plan && v.legal() && moved) plan->after = std::make_shared<Battlefield>(std::move(*moved));
  return v;
}

Verdict WarmasterState::validate_character_move(const Action& a, MoveScratch& scratch, MoveAnswer* answer,
                                              CheckDepth depth) const {
  Verdict v;
  require_no_pending_returns(v);
  if (command_.step != CommandStep::Characters)
    v.add(warmaster::rule_id::command_character_move, "characters move at the end of the Command phase, after end_orders");
  const int ci = character_index(a.character);
  if (ci < 0) {
    v.add(warmaster::rule_id::command_unknown, fmt::format("no character \"{}\"", a.character));
    return v;
  }
  const Character& c = bf_->characters[static_cast<std::size_t>(ci)];
  if (c.side != side_) v.add(warmaster::rule_id::command_side, fmt::format("{} is not on the side moving", c.id));
  if (chars_[static_cast<std::size_t>(ci)].moved)
    v.add(warmaster::rule_id::command_character_move, fmt::format("{} has already moved this phase", c.id));
  if (chars_[static_cast<std::size_t>(ci)].lost)
    v.add(warmaster::rule_id::command_character_lost, fmt::format("{} left the table and did not come back", c.id));
  if (chars_[static_cast<std::size_t>(ci)].frozen)
    v.add(warmaster::rule_id::command_returned,
          fmt::format("{} came back onto the table on a 3-4 and cannot move this turn", c.id));
  if (a.moves.size() != 1) {
    v.add(warmaster::rule_id::command_character_move, "a character move needs exactly one move");
    return v;
  }
  MoveRequest req = a.moves[0];
  req.mover = c.id;
  req.kind = MoveKind::Character;
  MoveAnswer checked = check_unit_move(*bf_, req, v, scratch, depth);
  if (answer) *answer = std::move(checked);
  if (!a.join.empty()) {
    const int ui = unit_index(a.join);
    if (ui < 0) v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", a.join));
    else if (unit_at(ui).side != c.side)
      v.add(warmaster::rule_id::command_join, fmt::format("{} can join only a friendly unit", c.id));
    else if (v.legal()) {
      Character moved = c;
      moved.pose = req.stands.empty() ? c.pose : req.stands[0].final_pose;
      const double d = character_distance(moved, unit_at(ui)).distance;
      if (d > settings().contact_tolerance)
        v.add(warmaster::rule_id::command_join,
              fmt::format("{} must end touching unit {} to join it ({} away; touching means within {})", c.id, a.join,
                          format_compared(d, settings().contact_tolerance, "cm").value,
                          format_compared(d, settings().contact_tolerance, "cm").limit),
              {{"distance", d, "cm"}});
    }
  }
  return v;
}

}  // namespace referee::warmaster
