// The sequence of a combat inside a turn (internal to the module): declare,
// evade, roll, hits, retreat, leader checks, momentum, battle back. Each
// function applies one legal action and reports what happened.
#pragma once

#include <string>

#include "referee/ancients/report.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/core/dice.hpp"

namespace referee::ancients {

// Why unit `u` of the side playing may not battle now (empty when it may);
// `rule` receives the rule id.
std::string why_unit_cannot_battle(const Battle& b, const AncientsState& s, int u, const char** rule);
// The same question without the words, for the legal actions and searches.
bool unit_may_battle(const Battle& b, const AncientsState& s, int u);
// A charging warrior that must still close combat, or -1 (ancients.battle.compulsory).
int compulsory_unbattled(const Battle& b, const AncientsState& s);

DeclareReport declare_battle(const Battle& b, AncientsState& s, int unit, int target, Dice& dice);
// A battle against a lone enemy leader: a helmet kills him, else he evades.
LeaderAttackReport attack_leader(const Battle& b, AncientsState& s, int unit, int leader, Dice& dice);
EvadeAnswerReport resolve_evade(const Battle& b, AncientsState& s, int to, Dice& dice);  // to = -1: the defender stands
RetreatAnswerReport resolve_retreat(const Battle& b, AncientsState& s, int to, Dice& dice);
MomentumReport resolve_momentum(const Battle& b, AncientsState& s, bool advance, Dice& dice);

}  // namespace referee::ancients
