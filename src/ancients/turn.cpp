#include "referee/ancients/turn.hpp"
#include "referee/ancients/rule_ids.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "combat.hpp"
#include "referee/ancients/battle.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/core/json_io.hpp"

namespace referee::ancients {

namespace {

Verdict validate_unit_move(const Battle& b, const AncientsState& s, int u, ColRow to) {
  Verdict v;
  const UnitSpec& spec = b.units[static_cast<std::size_t>(u)];
  if (spec.side != s.side) {
    v.add(ancients::rule_id::order_side, fmt::format("unit {} belongs to {}; it is {}'s turn", spec.id, b.army(spec.side), b.army(s.side)));
    return v;
  }
  if (!has_order(s, {false, u})) {
    v.add(ancients::rule_id::order_not_ordered, fmt::format("unit {} was not ordered this turn; only ordered units move", spec.id));
    return v;
  }
  return check_unit_move(b, s.position, u, to, s.plan.move);
}

Verdict validate_leader_move(const Battle& b, const AncientsState& s, int l, ColRow to) {
  Verdict v;
  const LeaderSpec& spec = b.leaders[static_cast<std::size_t>(l)];
  const LeaderState& st = s.position.leaders[static_cast<std::size_t>(l)];
  if (spec.side != s.side) {
    v.add(ancients::rule_id::order_side, fmt::format("leader {} belongs to {}; it is {}'s turn", spec.id, b.army(spec.side), b.army(s.side)));
    return v;
  }
  if (!has_order(s, {true, l})) {
    v.add(ancients::rule_id::order_not_ordered,
          st.attached >= 0
              ? fmt::format("leader {} was not ordered on his own: an attached leader moves with his unit {}", spec.id,
                            unit_id(b, st.attached))
              : fmt::format("leader {} was not ordered this turn", spec.id));
    return v;
  }
  if (st.moved) {
    v.add(ancients::rule_id::order_once, fmt::format("leader {} has already moved this turn", spec.id));
    return v;
  }
  if (st.attached >= 0) {
    const CardDef& c = b.cards[static_cast<std::size_t>(s.card)];
    if (!c.detach) {
      v.add(ancients::rule_id::leader_detach_card,
            fmt::format("leader {} may not detach from unit {} under {}: only section cards, Order Mounted Troops and I am "
                        "Spartacus allow it, never Leadership",
                        spec.id, unit_id(b, st.attached), c.name));
      return v;
    }
    if (s.position.units[static_cast<std::size_t>(st.attached)].moved) {
      v.add(ancients::rule_id::leader_detach_after_move,
            fmt::format("unit {} has already moved, so its attached leader {} can no longer detach", unit_id(b, st.attached),
                        spec.id));
      return v;
    }
  }
  return check_leader_move(b, s.position, l, to);
}

// While a combat waits on a choice, only that choice is legal.
Verdict validate_decision(const Battle& b, const AncientsState& s, const Action& a) {
  Verdict v;
  const Pending& pd = s.pending;
  const std::string who = unit_id(b, pd.unit);
  const char* wanted = pd.kind == Pending::Kind::evade     ? "evade or stand"
                       : pd.kind == Pending::Kind::retreat ? "retreat"
                                                           : "advance or hold";
  auto pending_refusal = [&] {
    v.add(ancients::rule_id::decision_pending, fmt::format("the combat waits on {}'s choice for unit {}: {}",
                                                           b.army(b.units[static_cast<std::size_t>(pd.unit)].side), who, wanted));
  };
  switch (pd.kind) {
    case Pending::Kind::evade:
      if (a.type == Action::Type::stand) return v;
      if (a.type != Action::Type::evade) break;
      for (const RetreatOption& o : evade_options(b, s.position, pd.unit))
        if (b.board.index(a.to) == o.end) return v;
      v.add(ancients::rule_id::evade_move, fmt::format("unit {} cannot evade to {}: evasion is 2 hexes toward its own side, "
                                                       "1 only when that is the only space", who, format_hex(a.to)));
      return v;
    case Pending::Kind::retreat:
      if (a.type != Action::Type::retreat) break;
      for (const FlagChoice& c : flag_choices(b, s.position, pd.unit, pd.flags, pd.may_ignore))
        if (b.board.index(a.to) == c.option.end) return v;
      v.add(ancients::rule_id::flag_path,
            fmt::format("unit {} cannot end its retreat for {} on {}: not one of the paths that lose the fewest blocks "
                        "(it may ignore {})",
                        who, count_of(pd.flags, "flag", "flags"), format_hex(a.to), count_of(pd.may_ignore, "flag", "flags")));
      return v;
    case Pending::Kind::momentum:
      if (a.type == Action::Type::advance || a.type == Action::Type::hold) return v;
      break;
    case Pending::Kind::none: return v;
  }
  pending_refusal();
  return v;
}

}  // namespace

int acting_side(const Battle& b, const AncientsState& s) {
  return s.pending.kind == Pending::Kind::none ? s.side : b.units[static_cast<std::size_t>(s.pending.unit)].side;
}

int winner(const Battle& b, const AncientsState& s) {
  for (int side = 0; side < 2; ++side)
    if (s.banners[static_cast<std::size_t>(side)] >= b.victory_banners[static_cast<std::size_t>(side)]) return side;
  return -1;
}

AncientsState AncientsState::initial(const Battle& b) {
  AncientsState s;
  s.position = Position::initial(b);
  s.side = b.first_side;
  for (int p = 0; p < 2; ++p) {
    s.hands[static_cast<std::size_t>(p)] = b.players[static_cast<std::size_t>(p)].hand;
    s.decks[static_cast<std::size_t>(p)] = b.players[static_cast<std::size_t>(p)].deck;
  }
  return s;
}

// The same Fisher-Yates shuffle as the reshuffle's (docs/rulings.md#ancients-reshuffle):
// for i from the last card down to the second, a die of i+1 sides, and a
// roll of k swaps card i with card k-1.
static void shuffle_cards(std::vector<CardIndex>& cards, Dice& dice, const char* purpose) {
  for (std::size_t i = cards.size(); i-- > 1;) {
    const int k = dice.roll(static_cast<int>(i) + 1, purpose);
    std::swap(cards[i], cards[static_cast<std::size_t>(k - 1)]);
  }
}

AncientsState AncientsState::dealt(const Battle& b, Dice& dice) {
  AncientsState s = initial(b);
  if (b.deal != Deal::shuffled) return s;
  for (std::size_t p = 0; p < 2; ++p) {
    const std::size_t hand = s.hands[p].size();
    std::vector<CardIndex> cards = s.hands[p];
    cards.insert(cards.end(), s.decks[p].begin(), s.decks[p].end());
    shuffle_cards(cards, dice, "deal");
    s.hands[p].assign(cards.begin(), cards.begin() + static_cast<std::ptrdiff_t>(hand));
    s.decks[p].assign(cards.begin() + static_cast<std::ptrdiff_t>(hand), cards.end());
  }
  return s;
}

Verdict validate(const Battle& b, const AncientsState& s, const Action& a) {
  Verdict v;
  if (std::string why = game_over_reason(b, s); !why.empty()) {
    v.add(ancients::rule_id::game_over, "the game is over: " + why);
    return v;
  }
  if (s.pending.kind != Pending::Kind::none) return validate_decision(b, s, a);
  switch (a.type) {
    case Action::Type::play_card: {
      if (s.phase == Phase::battle) {
        v.add(ancients::rule_id::battle_phase, "the battle is under way: end it before the next card");
        return v;
      }
      if (s.phase != Phase::play_card) {
        v.add(ancients::rule_id::order_sequence, "a card has already been played this turn; end the movement first");
        return v;
      }
      const auto& hand = s.hands[static_cast<std::size_t>(s.side)];
      if (std::find(hand.begin(), hand.end(), a.card) == hand.end())
        v.add(ancients::rule_id::card_not_in_hand, fmt::format("{} does not hold {}", b.army(s.side), card_id(b, a.card)),
              {{"cards held", static_cast<double>(hand.size()), ""}});
      return v;
    }
    case Action::Type::order: {
      if (s.phase == Phase::battle) {
        v.add(ancients::rule_id::battle_phase, "orders are given before the movement; the battle is under way");
        return v;
      }
      if (s.phase != Phase::movement) {
        v.add(ancients::rule_id::order_sequence, "play a command card before ordering");
        return v;
      }
      if (s.moving) {
        v.add(ancients::rule_id::order_sequence, "orders are announced before any piece moves");
        return v;
      }
      std::vector<OrderItem> all = s.orders;
      all.insert(all.end(), a.items.begin(), a.items.end());
      return check_orders(b, s.position, s.plan, all);
    }
    case Action::Type::move:
      if (s.phase == Phase::battle) {
        v.add(ancients::rule_id::battle_phase, "\"you must complete all unit movements before proceeding to Battle\": no move once the battle has begun");
        return v;
      }
      if (s.phase != Phase::movement) {
        v.add(ancients::rule_id::order_sequence, "play a command card and order pieces before moving");
        return v;
      }
      return a.piece.leader ? validate_leader_move(b, s, a.piece.index, a.to) : validate_unit_move(b, s, a.piece.index, a.to);
    case Action::Type::end_movement:
      if (s.phase == Phase::battle) v.add(ancients::rule_id::battle_phase, "the movement has ended: battle, or end the battle");
      else if (s.phase != Phase::movement) v.add(ancients::rule_id::order_sequence, "no card has been played this turn");
      return v;
    case Action::Type::battle: {
      if (s.phase != Phase::battle) {
        v.add(ancients::rule_id::battle_phase, "battles come after the movement: end the movement first");
        return v;
      }
      const char* rule = nullptr;
      std::string why = why_unit_cannot_battle(b, s, a.piece.index, &rule);
      if (a.target < 0) {  // validate_battler: no target named yet
        if (!why.empty()) v.add(rule, why);
        return v;
      }
      if (why.empty())
        why = a.target_leader ? why_not_leader_target(b, s.position, a.piece.index, a.target, &rule)
                              : why_not_target(b, s.position, a.piece.index, a.target, &rule);
      const int target_hex = a.target_leader ? s.position.leaders[static_cast<std::size_t>(a.target)].hex
                                             : s.position.units[static_cast<std::size_t>(a.target)].hex;
      if (why.empty() && s.position.units[static_cast<std::size_t>(a.piece.index)].battled &&
          !b.board.adjacent(s.position.units[static_cast<std::size_t>(a.piece.index)].hex, target_hex)) {
        rule = ancients::rule_id::momentum_bonus;
        why = "a bonus combat after a momentum advance is a close combat";
      }
      if (!why.empty()) v.add(rule, why);
      return v;
    }
    case Action::Type::end_battle: {
      if (s.phase != Phase::battle) {
        v.add(ancients::rule_id::battle_phase, "no battle phase is under way: end the movement first");
        return v;
      }
      if (const int w = compulsory_unbattled(b, s); w >= 0)
        v.add(ancients::rule_id::battle_compulsory,
              fmt::format("warrior unit {} moved two hexes to charge: its close combat is compulsory", unit_id(b, w)));
      return v;
    }
    case Action::Type::evade:
    case Action::Type::stand:
    case Action::Type::retreat:
    case Action::Type::advance:
    case Action::Type::hold:
      v.add(ancients::rule_id::decision_pending, "no combat is waiting on that choice");
      return v;
  }
  return v;
}

// Ends the movement: the player draws a card and the other side's turn
// begins (docs/rulings.md#ancients-cards-that-order-nothing).
// A draw that finds the deck empty first shuffles the side's discards into
// a new deck (docs/rulings.md#ancients-reshuffle): a Fisher-Yates shuffle
// through the dice, so a replay and scripted dice give the same order. For
// i from the last card down to the second, one die of i+1 sides (a roll of k
// swaps card i with card k-1, counting from the front).
static TurnEndReport end_turn(const Battle& b, AncientsState& s, Dice& dice) {
  TurnEndReport r;
  r.side = s.side;
  r.card = s.card;
  auto& deck = s.decks[static_cast<std::size_t>(s.side)];
  auto& discards = s.discards[static_cast<std::size_t>(s.side)];
  if (deck.empty() && !discards.empty() && b.exhausted_deck == ExhaustedDeck::reshuffle) {
    deck = std::move(discards);
    discards.clear();
    shuffle_cards(deck, dice, "reshuffle");
    r.reshuffled = deck.size();
  }
  if (!deck.empty()) {
    s.hands[static_cast<std::size_t>(s.side)].push_back(deck.front());
    r.drew = deck.front();
    deck.erase(deck.begin());
  }
  s.side = 1 - s.side;
  ++s.turn;
  s.phase = Phase::play_card;
  s.card = -1;
  s.plan = OrderPlan{};
  s.orders.clear();
  s.moving = false;
  s.pending = Pending{};
  s.position.start_turn(b);
  r.next_side = s.side;
  return r;
}

nlohmann::json apply(const Battle& b, AncientsState& s, const Action& a, Dice& dice) {
  const Verdict v = validate(b, s, a);
  if (!v.legal()) return {{"refused", true}, {"violations", v.violations}};
  return describe(b, do_apply(b, s, a, dice));
}

nlohmann::json apply(const Battle& b, AncientsState& s, const Action& a) {
  ScriptedDice none({});
  return apply(b, s, a, none);
}

nlohmann::json do_apply(const Battle& b, AncientsState& s, const Action& a) {
  ScriptedDice none({});
  return describe(b, do_apply(b, s, a, none));
}

Verdict validate_battler(const Battle& b, const AncientsState& s, int u) {
  Action a;
  a.type = Action::Type::battle;
  a.piece = {false, u};
  a.target = -1;
  return validate(b, s, a);
}

// Does any ordered unit of the side playing have a battle now?
static bool any_battle(const Battle& b, const AncientsState& s) {
  for (const OrderItem& it : s.orders) {
    if (it.leader) continue;
    if (unit_may_battle(b, s, it.index) && !battle_targets(b, s.position, it.index).empty()) return true;
  }
  return false;
}

// The card played: the plan of its orders, and the turn skipped when it orders nothing.
static CardPlayReport apply_play_card(const Battle& b, AncientsState& s, const Action& a, Dice& dice, bool describe) {
  Position& pos = s.position;
  auto& hand = s.hands[static_cast<std::size_t>(s.side)];
  const int command = static_cast<int>(hand.size());
  hand.erase(std::find(hand.begin(), hand.end(), a.card));
  s.discards[static_cast<std::size_t>(s.side)].push_back(static_cast<CardIndex>(a.card));
  s.card = a.card;
  s.plan = plan_orders(b, pos, s.side, a.card, command);
  s.phase = Phase::movement;
  CardPlayReport r;
  if (describe) {
    r.plan = s.plan;
    r.pieces = plan_pieces(pos, s.plan);
  }
  // Command cards: "If the card played can order no unit, the
  // turn skips straight to drawing" (ancients.card.orders_nothing).
  if (s.plan.units.empty() && s.plan.leaders.empty()) r.turn_skipped = end_turn(b, s, dice);
  return r;
}

// Orders given: each unit and leader named is marked ordered.
static OrdersReport apply_order_action(AncientsState& s, const Action& a) {
  Position& pos = s.position;
  OrdersReport r;
  // Units first, then leaders: the order the action's JSON lists them in,
  // so a replayed log gives the same result.
  r.ordered = a.items;
  std::stable_partition(r.ordered.begin(), r.ordered.end(), [](const OrderItem& it) { return !it.leader; });
  for (const OrderItem& it : r.ordered) {
    s.orders.push_back(it);
    if (it.leader) pos.leaders[static_cast<std::size_t>(it.index)].ordered = true;
    else pos.units[static_cast<std::size_t>(it.index)].ordered = true;
  }
  r.used = s.orders.size();
  r.given = s.plan.total;
  return r;
}

// A unit moves to `to` (one of its destinations), carrying the leader with it.
static UnitMoveReport apply_unit_move(const Battle& b, AncientsState& s, const Action& a, int to, PathScratch& scratch,
                                      bool describe) {
  Position& pos = s.position;
  UnitMoveReport r;
  const int u = r.unit = a.piece.index;
  r.from = pos.units[static_cast<std::size_t>(u)].hex;
  r.to = to;
  // Validated: `to` is one of the unit's destinations. One search
  // gives it and its route (not every destination, nor a second search).
  const Destination d = r.destination =
      *unit_destination(b, pos, u, to, s.plan.move, scratch, describe ? &r.path : nullptr);
  const int carried = r.leader_moved_with = pos.leader_of(u);
  pos.place_unit(u, to);
  if (carried >= 0) pos.place_leader(carried, to);
  UnitState& us = pos.units[static_cast<std::size_t>(u)];
  us.moved = true;
  us.hexes_moved = d.hexes;
  us.may_battle = d.may_battle;
  us.close_combat_compulsory = d.close_combat_compulsory;
  if (d.attaches_leader >= 0) pos.leaders[static_cast<std::size_t>(d.attaches_leader)].attached = u;
  return r;
}

// A leader moves on its own: it leaves its unit, and joins a unit it stops on, which then
// moves no further.
static LeaderMoveReport apply_leader_move(const Battle& b, AncientsState& s, const Action& a, int to, PathScratch& scratch,
                                          bool describe) {
  Position& pos = s.position;
  LeaderMoveReport r;
  const int l = r.leader = a.piece.index;
  LeaderState& ls = pos.leaders[static_cast<std::size_t>(l)];
  r.from = ls.hex;
  r.to = to;
  if (describe) r.path = leader_route(b, pos, l, to, scratch);
  r.detached_from = ls.attached;
  ls.attached = -1;
  pos.place_leader(l, to);
  ls.moved = true;
  const int joined = pos.unit_on(to);
  if (joined >= 0) {
    ls.attached = r.attached_to = joined;
    UnitState& us = pos.units[static_cast<std::size_t>(joined)];
    r.unit_moves_no_further = !us.moved;
    us.frozen = true;
  }
  return r;
}

Report do_apply(const Battle& b, AncientsState& s, const Action& a, Dice& dice, bool describe) {
  switch (a.type) {
    case Action::Type::play_card: return {apply_play_card(b, s, a, dice, describe)};
    case Action::Type::order: return {apply_order_action(s, a)};
    case Action::Type::move: {
      s.moving = true;
      PathScratch scratch;
      const int to = b.board.index(a.to);
      if (a.piece.leader) return {apply_leader_move(b, s, a, to, scratch, describe)};
      return {apply_unit_move(b, s, a, to, scratch, describe)};
    }
    case Action::Type::end_movement:
      // Battle follows the movement; with no ordered unit able to battle the
      // turn goes straight to drawing (docs/rulings.md#ancients-battle-sequence).
      if (any_battle(b, s)) {
        s.phase = Phase::battle;
        return {BattlePhaseReport{}};
      }
      return {end_turn(b, s, dice)};
    case Action::Type::battle:
      if (a.target_leader) return {attack_leader(b, s, a.piece.index, a.target, dice)};
      return {declare_battle(b, s, a.piece.index, a.target, dice)};
    case Action::Type::evade: return {resolve_evade(b, s, b.board.index(a.to), dice)};
    case Action::Type::stand: return {resolve_evade(b, s, -1, dice)};
    case Action::Type::retreat: return {resolve_retreat(b, s, b.board.index(a.to), dice)};
    case Action::Type::advance: return {resolve_momentum(b, s, true, dice)};
    case Action::Type::hold: return {resolve_momentum(b, s, false, dice)};
    case Action::Type::end_battle: return {end_turn(b, s, dice)};
  }
  return {BattlePhaseReport{}};
}

int reshuffle_dice(const Battle& b, const AncientsState& s, const Action& a) {
  const auto side = static_cast<std::size_t>(s.side);
  if (b.exhausted_deck != ExhaustedDeck::reshuffle || !s.decks[side].empty()) return 0;
  std::size_t cards = s.discards[side].size();
  switch (a.type) {
    case Action::Type::play_card: {
      // The turn ends at once only when the card orders nothing; the card
      // played is then among the discards.
      const OrderPlan plan = plan_orders(b, s.position, s.side, a.card, static_cast<int>(s.hands[side].size()));
      if (!plan.units.empty() || !plan.leaders.empty()) return 0;
      ++cards;
      break;
    }
    case Action::Type::end_movement:
      if (any_battle(b, s)) return 0;
      break;
    case Action::Type::end_battle: break;
    default: return 0;
  }
  return cards > 1 ? static_cast<int>(cards) - 1 : 0;
}

std::string game_over_reason(const Battle& b, const AncientsState& s) {
  if (const int w = winner(b, s); w >= 0)
    return fmt::format("{} has {} of {}", b.army(w), count_of(s.banners[static_cast<std::size_t>(w)], "victory banner", "victory banners"),
                       b.victory_banners[static_cast<std::size_t>(w)]);
  if (s.turn > b.turn_limit) return fmt::format("turn limit ({})", count_of(b.turn_limit, "turn", "turns"));
  if (s.phase == Phase::play_card && s.hands[static_cast<std::size_t>(s.side)].empty())
    return fmt::format("{} has no command card left to play", b.army(s.side));
  return {};
}

bool game_over(const Battle& b, const AncientsState& s) { return !game_over_reason(b, s).empty(); }

static std::vector<Action> legal_battle_actions(const Battle& b, const AncientsState& s) {
  std::vector<Action> out;
  auto add = [&](Action::Type t, int hex = -1) {
    Action a;
    a.type = t;
    if (hex >= 0) a.to = b.board.col_row(hex);
    out.push_back(a);
  };
  switch (s.pending.kind) {
    case Pending::Kind::evade:
      add(Action::Type::stand);
      for (const RetreatOption& o : evade_options(b, s.position, s.pending.unit)) add(Action::Type::evade, o.end);
      return out;
    case Pending::Kind::retreat:
      for (const FlagChoice& c : flag_choices(b, s.position, s.pending.unit, s.pending.flags, s.pending.may_ignore))
        add(Action::Type::retreat, c.option.end);
      return out;
    case Pending::Kind::momentum:
      add(Action::Type::advance);
      add(Action::Type::hold);
      return out;
    case Pending::Kind::none: break;
  }
  for (std::size_t u = 0; u < b.units.size(); ++u) {
    if (!unit_may_battle(b, s, static_cast<int>(u))) continue;
    const bool bonus_only = s.position.units[u].battled;
    for (const Target& t : battle_targets(b, s.position, static_cast<int>(u))) {
      if (bonus_only && !t.close) continue;
      Action a;
      a.type = Action::Type::battle;
      a.piece = {false, static_cast<int>(u)};
      a.target = t.unit;
      a.target_leader = t.leader;
      out.push_back(a);
    }
  }
  if (compulsory_unbattled(b, s) < 0) add(Action::Type::end_battle);
  return out;
}

std::vector<Action> legal_actions(const Battle& b, const AncientsState& s) {
  std::vector<Action> out;
  if (game_over(b, s)) return out;
  if (s.phase == Phase::play_card) {
    for (const CardIndex c : s.hands[static_cast<std::size_t>(s.side)]) {
      Action a;
      a.type = Action::Type::play_card;
      a.card = c;
      if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    }
    return out;
  }
  if (s.phase == Phase::battle) return legal_battle_actions(b, s);
  if (!s.moving) {
    // One piece at a time: a set the card allows stays allowed when a piece
    // is left out (counts, quotas) or can be built up from the leader
    // outwards (the Leadership chain), so every allowed set is reachable.
    std::vector<OrderItem> trial = s.orders;
    auto offer = [&](OrderItem it) {
      if (has_order(s, it)) return;
      trial.push_back(it);
      if (check_orders(b, s.position, s.plan, trial).legal()) {
        Action a;
        a.type = Action::Type::order;
        a.items = {it};
        out.push_back(a);
      }
      trial.pop_back();
    };
    for (int u : s.plan.units) offer({false, u});
    for (int l : s.plan.leaders) offer({true, l});
  }
  PathScratch scratch;
  std::vector<Destination> dests;
  out.reserve(out.size() + 64);
  for (const OrderItem& it : s.orders) {
    if (it.leader) leader_destinations(b, s.position, it.index, scratch, dests);
    else unit_destinations(b, s.position, it.index, s.plan.move, scratch, dests);
    // An ordered unit's destinations are its legal moves (a unit that has
    // moved, or that a joining leader stopped, has none). A leader's own
    // conditions (a detach the card refuses, or after his unit moved) do not
    // depend on the hex: checked once, on his first destination.
    bool allowed = true;
    for (const Destination& d : dests) {
      Action a;
      a.type = Action::Type::move;
      a.piece = it;
      a.to = b.board.col_row(d.hex);
      if (it.leader && &d == &dests.front()) allowed = validate(b, s, a).legal();
      if (allowed) out.push_back(a);
    }
  }
  Action end;
  end.type = Action::Type::end_movement;
  out.push_back(end);
  return out;
}

std::optional<Action> random_action(const Battle& b, const AncientsState& s, Rng& rng) {
  const std::vector<Action> legal = legal_actions(b, s);
  if (legal.empty()) return std::nullopt;
  // The end of the movement or of the battle is always listed last; the
  // others are listed kind by kind (orders, then moves).
  const Action::Type last = legal.back().type;
  const bool ends = last == Action::Type::end_movement || last == Action::Type::end_battle;
  const std::size_t others = ends ? legal.size() - 1 : legal.size();
  if (others == 0 || (ends && rng.below(10) == 0)) return legal.back();
  // A kind of action first, then one of that kind.
  std::array<std::size_t, 2> kind_start{0, others};
  std::size_t kinds = 1;
  for (std::size_t i = 1; i < others; ++i)
    if (legal[i].type != legal[i - 1].type && kinds < 2) kind_start[kinds++] = i;
  const std::size_t k = rng.below(kinds);
  const std::size_t from = kind_start[k], to = k + 1 < kinds ? kind_start[k + 1] : others;
  return legal[from + static_cast<std::size_t>(rng.below(to - from))];
}

Playthrough play_actions(const Battle& b, const nlohmann::json& battle_json, const nlohmann::json& actions,
                         std::uint64_t seed, const std::string& scenario) {
  JsonReader root(actions, "");
  const Json* list = &actions;
  std::string base = "actions";
  if (actions.is_object()) {
    root.allow_only({"actions"});
    list = &root.at("actions").json();
    base = "actions";
  }
  JsonReader lr(*list, base);
  lr.require_array();
  SeededDice dice(seed);
  Playthrough out{GameLog{}, AncientsState::dealt(b, dice)};
  out.log.system = "ancients";
  out.log.seed = seed;
  out.log.scenario = scenario;
  out.log.settings = {{"battle", battle_json}};
  out.log.start_rolls = dice.history();
  for (std::size_t i = 0; i < list->size(); ++i) {
    std::string field = fmt::format("{}[{}]", base, i);
    Action a = parse_action((*list)[i], b, field);
    Verdict v = validate(b, out.state, a);
    if (!v.legal()) throw InputError(field, explain(v));
    const std::size_t mark = dice.history().size();
    nlohmann::json result = describe(b, do_apply(b, out.state, a, dice));
    out.log.append(action_json(b, a), dice.since(mark), result);
  }
  return out;
}

Playthrough replay_log(const GameLog& log, Battle& battle) {
  if (log.system != "ancients") throw InputError("line 1", "the log is for " + log.system + ", not ancients");
  if (!log.settings.is_object() || !log.settings.contains("battle"))
    throw InputError("line 1", "settings.battle is missing: the log does not carry its battle");
  battle = parse_battle(log.settings.at("battle"), "log battle");
  const Battle& b = battle;
  std::vector<int> dealt;
  for (const Roll& r : log.start_rolls) dealt.push_back(r.value);
  ScriptedDice deal(dealt);
  Playthrough out{GameLog{}, AncientsState::initial(b)};
  try {
    out.state = AncientsState::dealt(b, deal);
  } catch (const ScriptError& e) {
    throw InputError("line 1.start_rolls", std::string("the rolls do not deal the start: ") + e.what());
  }
  if (deal.remaining() != 0) throw InputError("line 1.start_rolls", "more rolls than the deal uses");
  out.log = log;
  for (const LogEntry& e : log.entries) {
    std::string field = fmt::format("line {}", e.seq + 1);
    Action a = parse_action(e.action, b, field + ".action");
    Verdict v = validate(b, out.state, a);
    if (!v.legal()) throw InputError(field, "illegal on replay: " + explain(v));
    std::vector<int> values;
    for (const Roll& r : e.rolls) values.push_back(r.value);
    ScriptedDice dice(values);
    const nlohmann::json result = describe(b, do_apply(b, out.state, a, dice));
    if (result != e.result) throw InputError(field, "the result differs from the logged one");
  }
  return out;
}

}  // namespace referee::ancients
