// Warmaster's rule catalogue. Texts quote or closely paraphrase the movement
// text, the command-phase text and the play sheet; where the engine relies on
// a reading, the entry cites it as docs/rulings.md#<anchor>.
#include "referee/warmaster/model/rules.hpp"

namespace referee::warmaster {

namespace {

constexpr RuleInfo kRules[] = {
    // --- Movement ---------------------------------------------------------
    {"warmaster.movement.pace",
     "\"The chart below gives the full pace move distances for each troop type plus the half pace movement\": "
     "infantry and monsters 20 cm, cavalry and chariots 30, artillery 10, flyers 100, machines varies, characters "
     "60 (100 flying). Reading: docs/rulings.md#warmaster-move-pace",
     "a machine with no pace in its data is asked to move"},
    {"warmaster.movement.formation",
     "\"All stands in the unit must touch at least one other stand in the unit ... either along an edge or at a "
     "point\"; lines and columns move at full pace, \"all units in other formations ... move at half pace\". "
     "Readings: docs/rulings.md#warmaster-move-formation-at-the-start, "
     "docs/rulings.md#warmaster-move-formation-at-the-end",
     "a stand ends its move touching no other stand of its unit (within the contact tolerance)"},
    {"warmaster.movement.distance",
     "\"No part of a stand can move further than its permitted maximum movement distance. Always measure from the "
     "part of the stand that moves the greatest distance\". Reading: docs/rulings.md#warmaster-move-distance",
     "a stand's furthest corner (a character's centre) moves further than the allowance of its pace, formation and "
     "move kind"},
    {"warmaster.movement.path",
     "\"All stands must be able to trace a clear path to their position in the unit's final formation\"; \"a stand "
     "cannot move through the base area of a stand from another unit\" nor through own stands \"who have already "
     "moved or are engaged in combat\". Readings: docs/rulings.md#warmaster-transit-model, "
     "docs/rulings.md#warmaster-move-stand-order",
     "a stand's leg is blocked by a stand, or no route round what blocks it is found within the allowance; also the "
     "rule named by the `route` query's answer"},
    {"warmaster.movement.gap",
     "\"A stand can be oriented to pass through any gap so long as the gap is at least as wide as the stand's "
     "shortest edge\"; it \"cannot pass through a gap between two enemy stands, or between an enemy stand and any "
     "feature or friendly stand, unless the gap is wider than the stand's own frontage\". Reading: "
     "docs/rulings.md#warmaster-transit-enemy-gaps",
     "a stand's path crosses a gap narrower than its shortest edge, or a gap beside an enemy stand not wider than "
     "its frontage"},
    {"warmaster.movement.terrain",
     "\"If units attempt to move into terrain they cannot cross they will halt at the edge\"; cavalry and monsters "
     "enter only hills, bridges, fords, grown fields and low obstacles, chariots and artillery only hills and bridges. "
     "Readings: docs/rulings.md#warmaster-terrain-access, docs/rulings.md#warmaster-move-terrain-at-the-destination",
     "a stand's path or final pose enters terrain its troop type may not enter; the ruling gives the halt point"},
    {"warmaster.movement.overlap",
     "\"A stand cannot move through the base area of a stand from another unit whether friend or foe\"; the final "
     "poses must overlap nothing (touching is not overlapping), and some terrain is \"a barrier to all troops\". "
     "Reading: docs/rulings.md#warmaster-move-overlap",
     "a final footprint overlaps another stand or terrain nobody may enter, by more than the contact tolerance"},
    {"warmaster.movement.off_table",
     "\"If one or more stands in a unit leaves the table edge, whether wholly or partially, the whole unit leaves the "
     "table\"; roll a D6, -1 per stand lost: 0 or less destroyed, 1-2 may return next turn, 3-4 reappears and cannot "
     "move, 5-6 reappears. Reading: docs/rulings.md#warmaster-move-leaving-the-table",
     "a move's final footprint reaches beyond the table edge (the answer sets leaves_table and the engine rolls)"},
    {"warmaster.movement.confused",
     "Confused units cannot move in the Command phase. Reading: docs/rulings.md#warmaster-move-confused-units",
     "a confused unit is asked to make an ordered, half-pace, charge or evade move"},
    {"warmaster.movement.burst_through",
     "\"An evading unit can move through a friendly unengaged unit ... assuming the evaders have sufficient move to "
     "pass completely through\". Reading: docs/rulings.md#warmaster-transit-evaders",
     "an evading stand's leg ends on a unit it bursts through"},
    {"warmaster.movement.reach",
     "Where a stand can get within its allowance under the clear-path and gap rules. Reading: "
     "docs/rulings.md#warmaster-transit-reach",
     "names the answer of the `reach` query (never a refusal)"},
    {"warmaster.sight",
     "\"A unit is assumed to be able to see another if it is possible to draw an uninterrupted line of sight between "
     "the front edge of any stand and any stand in the other unit\"; not through stands nor terrain \"other than low "
     "features\"; characters never block. Reading: docs/rulings.md#warmaster-transit-line-of-sight",
     "names the answer of the `los` query (never a refusal)"},
    {"warmaster.distance",
     "A unit's distance to another unit, or to a character, is the shortest distance between any of their stands. "
     "Reading: docs/rulings.md#warmaster-transit-distances",
     "names the answer of the `distance` query (never a refusal)"},
    // --- Command phase: orders ----------------------------------------------
    {"warmaster.command.phase",
     "The Command phase runs Initiative Movement, then Ordered Movement; \"characters move at the end of the Command "
     "phase after unit movement has been completed\"",
     "an order, or the end of orders, comes after ordered movement has ended"},
    {"warmaster.command.unknown", "Orders, moves and initiative name a unit or character on the battlefield",
     "an action names a unit or character the battlefield does not have"},
    {"warmaster.command.side", "Only the side whose Command phase it is gives orders and moves",
     "an action names a unit or character of the side not moving"},
    {"warmaster.command.battle_over",
     "\"If a General leaves the table (for whatever reason) and does not return immediately then the battle is over "
     "and his army withdraws\"; an army that has lost its break point in units withdraws; the scenario's turn limit. "
     "Readings: docs/rulings.md#warmaster-command-off-the-table, docs/rulings.md#warmaster-end-of-battle, "
     "docs/rulings.md#warmaster-break-point, docs/rulings.md#warmaster-turn-limit",
     "any action after the battle has ended"},
    {"warmaster.command.off_table",
     "A unit that has left the table takes no part until it reappears. Reading: "
     "docs/rulings.md#warmaster-command-off-the-table",
     "an order, initiative or home back names a unit off the table or destroyed"},
    {"warmaster.command.off_table_return",
     "\"At the start of its side's next turn, before initiative moves are made, roll again on this chart\". Reading: "
     "docs/rulings.md#warmaster-command-off-the-table",
     "another action comes before a waiting unit or character has rolled to return, or a return roll names one not "
     "waiting"},
    {"warmaster.command.returned",
     "3-4: \"The unit/character reappears at the table edge at the same point it left. The unit/character cannot "
     "move further that turn\"",
     "a unit or character that came back on a 3-4 is ordered or moved that turn"},
    {"warmaster.command.engaged",
     "Engaged units are fighting and cannot be ordered or use initiative. Reading: "
     "docs/rulings.md#warmaster-command-engaged-and-confused-units",
     "an order, initiative or home back names an engaged unit"},
    {"warmaster.command.confused",
     "Confused units cannot move in the Command phase. Reading: "
     "docs/rulings.md#warmaster-command-engaged-and-confused-units",
     "an order, initiative or home back names a confused unit"},
    {"warmaster.command.general_failed",
     "\"Once the General has failed to give an order, no further orders can be issued by any other characters in "
     "that Command phase\"",
     "any character orders after the General has failed an order"},
    {"warmaster.command.character_failed",
     "\"Once a character has failed to give an order, he cannot issue any more orders in that Command phase\"",
     "a character that has failed an order orders again"},
    {"warmaster.command.character_lost",
     "\"Characters who are on their own must roll in the unlikely event that they leave the table\"; one off the table "
     "gives no orders and makes no moves. Reading: docs/rulings.md#warmaster-command-characters-leaving-table",
     "a character off the table orders, moves, or is chosen for a home back"},
    {"warmaster.command.character_sequence",
     "\"Once a character has begun to issue orders, he must finish issuing all of his orders before another character "
     "can start to do so\"",
     "a character orders again after another character has begun ordering"},
    {"warmaster.command.brigade_size",
     "\"An order to be issued to up to four adjacent units simultaneously\"",
     "an order lists more than four units, or one unit twice"},
    {"warmaster.command.brigade_formed",
     "\"A brigade cannot be formed and subsequently moved in the same Command phase. Units must be in a brigade at "
     "the start of the ordered movement part\". Reading: docs/rulings.md#warmaster-command-brigades",
     "an order to several units that were not touching as one body when ordered movement began"},
    {"warmaster.command.brigade_touching",
     "\"Brigades move as a body, with each unit remaining in touch with the brigade\"; \"units which do not charge "
     "still have to end their move touching\". Readings: docs/rulings.md#warmaster-command-brigades, "
     "docs/rulings.md#warmaster-command-charging-out-of-a-brigade",
     "an order goes to units no longer touching, or a brigade's units that did not charge end apart"},
    {"warmaster.command.brigade_finish",
     "\"Once a brigade has moved, the player must finish moving all the units in the original brigade before he moves "
     "other units\". Reading: docs/rulings.md#warmaster-command-order-sequencing",
     "an order goes to other units while the brigade being ordered has units not yet finished"},
    {"warmaster.command.no_return",
     "\"He is not permitted to go back to a previously moved unit once he has moved another unit\". Reading: "
     "docs/rulings.md#warmaster-command-order-sequencing",
     "an order goes to a unit whose ordering was closed by an order to another unit"},
    {"warmaster.command.other_character",
     "\"Nor is a different character permitted to give a unit an order if that unit has already been given an order "
     "that turn, even if the order was failed\"",
     "a character orders a unit another character has ordered this turn"},
    {"warmaster.command.three_orders", "\"A unit can be given up to a maximum of three orders in succession\"",
     "a fourth order to a unit"},
    {"warmaster.command.charge_ends_orders",
     "\"Once it has charged, a unit cannot receive any further orders that turn\"",
     "an order to a unit that has charged this turn"},
    {"warmaster.command.flyer_range",
     "A flying unit can be ordered only while within 20 cm of a friendly character. Reading: "
     "docs/rulings.md#warmaster-command-flyers-ordered",
     "an order to a flyer more than 20 cm from every friendly character on the table"},
    {"warmaster.command.home_back",
     "\"Flying units more than 20cm from a character can home back up to 10xD6cm before orders are issued\". Reading: "
     "docs/rulings.md#warmaster-command-home-back",
     "a home back after the first order, by a unit that is not a flyer, twice, toward a character not friendly, within "
     "20 cm of a friendly character, or ending further from the character"},
    {"warmaster.command.no_order",
     "\"If a unit receives no orders it remains where it is\". Reading: "
     "docs/rulings.md#warmaster-command-moving-after-an-order",
     "a move with no order or home back waiting for it"},
    {"warmaster.command.not_ordered",
     "A unit moves once per order, and only the units ordered move. Reading: "
     "docs/rulings.md#warmaster-command-moving-after-an-order",
     "a move names a unit outside the waiting order, or moves one unit twice"},
    {"warmaster.command.failed_order",
     "\"If the score is more than the character's Command value then the unit has not received its order and can "
     "move only half pace\"; \"a unit failing to receive a further order cannot move at all\". Reading: "
     "docs/rulings.md#warmaster-command-failed-orders",
     "the 2D6 order test fails (the ruling in the result), or a move follows a failed further order"},
    {"warmaster.command.blunder",
     "A Hero or Wizard rolling 12 to give an order blunders: the order fails and the unit rolls a D6 on the "
     "blunder table (the rulebook's, as on its play sheet). Reading: docs/rulings.md#warmaster-command-blunders",
     "a Hero or Wizard rolls 12 on 2D6 for an order with the setting blunders on (the ruling in the result), or "
     "an order is tested for a unit carrying a blunder's Command penalty"},
    {"warmaster.command.failed_charge", "\"Units that failed to receive an order cannot charge\"",
     "a charge move after a failed first order"},
    {"warmaster.command.move_kind",
     "An order moves at the pace it allows: full pace when received, half pace after a failed first order, a dice "
     "move for a home back. Reading: docs/rulings.md#warmaster-move-pace",
     "a move's kind is not one the waiting order or home back allows"},
    {"warmaster.command.charge_contact",
     "\"A move which brings a unit into contact with the enemy is called a charge\". Reading: "
     "docs/rulings.md#warmaster-command-contact-is-a-charge",
     "a move ends touching an enemy without being a charge, or a charge ends touching no enemy (or not its target)"},
    {"warmaster.command.character_move",
     "\"Each character can move once and up to 60cm, or 100cm if flying\", at the end of the Command phase",
     "a character moves before the end of orders, twice, or with other than one move"},
    {"warmaster.command.join",
     "A character joins a friendly unit it ends its move touching. Reading: docs/rulings.md#warmaster-command-joining-a-unit",
     "a character asks to join an enemy unit, or ends its move not touching the unit it joins"},
    // --- Command penalties (the terms of an order test, not refusals) -------
    {"warmaster.command.distance",
     "\"If the distance between the character and the unit you wish to move is more than 20cm, the character suffers "
     "a Command penalty of -1 per full 20cm of distance\". Reading: docs/rulings.md#warmaster-command-distance-penalty",
     "a penalty term of an order test (odds and order results), for a unit more than 20 cm away"},
    {"warmaster.command.further_order",
     "\"A unit's second order is at -1, its third order is at -2\"",
     "a penalty term of an order test, for a unit already ordered this phase"},
    {"warmaster.command.enemy_near",
     "\"If the distance between the unit you wish to move and the closest enemy unit is 20cm or less, there is a "
     "Command penalty of -1\". Reading: docs/rulings.md#warmaster-command-distance-penalty",
     "a penalty term of an order test, for a unit with an enemy unit 20 cm or less away"},
    {"warmaster.command.dense",
     "\"If the unit you want to move is in dense terrain then there is a Command penalty of -1. The penalty applies if "
     "at least one stand is even partially within dense terrain\". Reading: "
     "docs/rulings.md#warmaster-command-dense-terrain",
     "a penalty term of an order test, for a unit with a stand in dense terrain"},
    {"warmaster.command.casualties",
     "\"If the unit has lost one or more stands as casualties then there is a Command penalty of -1 per stand lost\"",
     "a penalty term of an order test, for a unit that has lost stands"},
    // --- Initiative -------------------------------------------------------
    {"warmaster.initiative.before_orders",
     "\"Individual units that wish to move by initiative must move before any orders are issued\"",
     "an initiative move after the first order"},
    {"warmaster.initiative.brigade", "\"Brigades cannot use initiative as a body\"",
     "an initiative move lists more than one unit"},
    {"warmaster.initiative.once", "A unit moves by initiative once, charging or evading",
     "a unit that has already used initiative this turn uses it again"},
    {"warmaster.initiative.no_orders", "\"A unit that used initiative to move can't be given orders that turn\"",
     "an order or home back to a unit that used initiative this turn"},
    {"warmaster.initiative.range",
     "\"Units within 20cm of the enemy at the start of the Command phase can use their initiative\", to charge or "
     "evade \"the closest visible enemy unit within 20cm\". Reading: docs/rulings.md#warmaster-command-initiative-eligibility",
     "the unit was not within 20 cm of an enemy when the phase began, or the target is not among the enemies within "
     "20 cm"},
    {"warmaster.initiative.target", "A unit charges or evades an enemy unit by initiative",
     "the target named is a unit of the mover's own side"},
    {"warmaster.initiative.sight",
     "\"Charge the closest enemy unit that it can see within 20cm\"; \"even a unit that can see all round cannot "
     "charge an enemy unless a line of sight can be drawn from a stand's front edge\". Reading: "
     "docs/rulings.md#warmaster-transit-line-of-sight",
     "the mover cannot see its target"},
    {"warmaster.initiative.closest",
     "Initiative acts on \"the closest enemy unit that it can see within 20cm\"; \"if two or more enemy units are "
     "equally close a player may choose\". Reading: docs/rulings.md#warmaster-command-initiative-eligibility",
     "another visible enemy, not ignored, is closer than the target"},
    {"warmaster.initiative.ignore",
     "\"Enemy infantry or artillery in fortified positions can be ignored\"; so can enemies \"divided by a mutually "
     "impassable barrier so long as neither ... can move round the barrier within a full pace move\". Readings: "
     "docs/rulings.md#warmaster-command-ignoring-enemies, docs/rulings.md#warmaster-command-barriers-worked-through",
     "an ignored unit is not an enemy, is also the target, or is neither fortified infantry or artillery nor cut off "
     "by a barrier"},
    {"warmaster.initiative.artillery", "\"Artillery cannot use their initiative to charge, although they can use it to evade\"",
     "artillery charges by initiative"},
    {"warmaster.initiative.flyer", "Flyers cannot evade by initiative, but they can charge",
     "a flyer evades by initiative"},
    {"warmaster.initiative.charge", "A charge by initiative moves the unit's stands into contact with the target",
     "a charge by initiative comes without exactly one move of the unit's stands"},
    {"warmaster.initiative.evade",
     "\"When troops evade, they move directly away from the closest enemy they can see up to their full pace move, by "
     "at least 1 cm\"; \"if unable to comply, units cannot evade\". Reading: docs/rulings.md#warmaster-command-the-evade",
     "the evader is in contact with the enemy, no legal evade exists for the engine to plan, or more than one move is "
     "given"},
    {"warmaster.initiative.evade_direction",
     "\"First, move the evading stand that is closest to the enemy. This stand must move in a straight line in the "
     "indicated direction directly away from the evaded enemy\". Reading: docs/rulings.md#warmaster-command-the-evade",
     "the nearest stand does not move, or leaves the line directly away from the enemy"},
    {"warmaster.initiative.evade_distance", "Evaders move \"up to their full pace move, by at least 1 cm\"",
     "the nearest stand moves less than 1 cm away along the evade line"},
    {"warmaster.initiative.evade_order", "\"First, move the evading stand that is closest to the enemy\"",
     "the move's stand order does not start with the stand nearest the enemy"},
    {"warmaster.initiative.evade_clearance",
     "\"An evading unit must end its move at least 5cm from any enemy unit or any unit engaged in combat\"",
     "the evader ends less than 5 cm from an enemy or engaged unit"},
    {"warmaster.initiative.burst_through",
     "\"An evading unit can move through a friendly unengaged unit ... assuming the evaders have sufficient move to "
     "pass completely through\"; the unit burst through is confused. Reading: docs/rulings.md#warmaster-command-burst-through",
     "a unit named to burst through is not friendly and unengaged, or the evader ends on it"},
    // --- The turn (play sheet, "SEQUENCE") -------------------------------------
    {"warmaster.phase.sequence",
     "\"SEQUENCE: 1. Command 2. Shoot 3. Combat\": each side's turn is its Command phase, then its Shooting "
     "phase, then the Combat phase. Reading: docs/rulings.md#warmaster-turn-sequence",
     "an action of another phase: a command action after end_phase, end_phase before the Shooting phase is "
     "resolved (shoot), shoot outside the Shooting phase"},
    // --- Shooting (play sheet, "2. SHOOTING"; docs/warmaster-shooting.md) ---------
    {"warmaster.shooting.target",
     "\"Units shoot at the closest enemy within range\": bows and crossbows 30 cm, stone throwers and cannons 60, "
     "bolt throwers 40, pistols and goblin bows 15; the target must be seen (movement text, line of sight); only "
     "the stands within range of it and in sight shoot; between enemies equally close the shooting player "
     "chooses. Readings: docs/rulings.md#warmaster-shooting-targets, "
     "docs/rulings.md#warmaster-shooting-range-per-stand, docs/rulings.md#warmaster-shooting-ties",
     "a unit with a missile weapon, not engaged, picks the closest enemy unit it can see within its range that "
     "is not engaged; a choice of target names an enemy that is not among the equally close"},
    {"warmaster.shooting.no_target",
     "\"Units shoot at the closest enemy within range\". Reading: docs/rulings.md#warmaster-shooting-targets",
     "a unit with a missile weapon sees no enemy unit within its range that it may shoot at"},
    {"warmaster.shooting.engaged",
     "Units engaged in combat cannot shoot and cannot be shot at (the standard rules, which the play sheet's "
     "\"Units shoot at the closest enemy within range\" summarises); a unit is engaged while an enemy stand "
     "touches it. Readings: docs/rulings.md#warmaster-shooting-engaged, "
     "docs/rulings.md#warmaster-engaged",
     "a shooter is engaged in combat and does not shoot, or passes over a closer enemy that is engaged (unless "
     "the setting shoot_into_combat is on)"},
    {"warmaster.shooting.hits",
     "\"Score to Hit: target in the open 4, 5 or 6; target in defended position 5 or 6; target in fortified "
     "position 6\"; one die per Attack; \"each hit may be saved by a die roll that equals or beats Armour\" "
     "(the profile's public facts). Reading: docs/rulings.md#warmaster-shooting-position",
     "a unit shoots: its dice, the score needed, hits, saves and unsaved hits"},
    {"warmaster.shooting.casualties",
     "\"A stand is removed for every Hits value of unsaved hits\"; \"odd hits are discounted at the end of the "
     "phase\" (public facts). Reading: docs/rulings.md#warmaster-shooting-casualties",
     "a unit shot at loses stands for its unsaved hits"},
    {"warmaster.shooting.drive_back",
     "\"Units suffering missile hits are driven back D6cm per hit. -1 dice if Defended, -2 dice if Fortified. Units "
     "are confused if any Drive Back dice roll a 6.\" Reading: docs/rulings.md#warmaster-shooting-drive-back-dice",
     "at the end of the Shooting phase, a unit that suffered unsaved hits is driven back directly away from the "
     "nearest unit that shot it"},
    {"warmaster.shooting.rout",
     "\"Units driven back by the full pace move or more are routed\"; a routed unit is removed. Reading: "
     "docs/rulings.md#warmaster-shooting-drive-back-dice",
     "a unit's drive-back dice total its full pace or more"},
    {"warmaster.shooting.blocked",
     "\"If they are driven back into impassable terrain as a result of shooting or magic, they may become "
     "confused\" (movement text). Reading: docs/rulings.md#warmaster-shooting-blocked-drive-back",
     "a drive back is cut short by terrain the unit may not enter, or by stands: it stops there, confused"},
    // --- Combat (play sheet, "3. COMBAT"; docs/warmaster-combat.md) -------------------
    {"warmaster.combat.engagement",
     "Units in contact with the enemy fight; units touching enemies that touch others form one engagement. Reading: "
     "docs/rulings.md#warmaster-combat-engagements",
     "a Combat phase finds a connected group of units in contact with enemy units"},
    {"warmaster.combat.attacks",
     "\"Charging enemy in the open +1; Monster/chariot charging enemy in open +1; Pursuit attack +1; Extra pursuit "
     "attack (per 3cm) +1; Fighting terrifying enemy -1; Fighting to side or rear -1; Confused -1\"; one die per "
     "Attack. Reading: docs/rulings.md#warmaster-combat-modifiers",
     "a unit's stands in contact fight an enemy unit: their dice and the modifiers applied"},
    {"warmaster.combat.hits",
     "\"Score to Hit: target in the open 4, 5 or 6; target in defended position 5 or 6; target in fortified position "
     "6\"; \"each hit may be saved by a die roll that equals or beats Armour\" (public facts). Reading: "
     "docs/rulings.md#warmaster-shooting-position",
     "a unit's attack dice are rolled: the score needed, hits, saves and unsaved hits"},
    {"warmaster.combat.support",
     "\"+1 to Combat result per supporting stand\"; confused units \"cannot support\" (public facts). Reading: "
     "docs/rulings.md#warmaster-combat-support",
     "a side has stands behind its fighting stands, facing the same way"},
    {"warmaster.combat.casualties",
     "\"A stand is removed for every Hits value of unsaved hits\" (public facts). Reading: "
     "docs/rulings.md#warmaster-combat-casualties",
     "a unit in combat suffers unsaved hits and loses stands for them"},
    {"warmaster.combat.result",
     "The Combat result is the hits scored plus 1 per supporting stand; the higher wins, equal results are a draw. "
     "Reading: docs/rulings.md#warmaster-combat-engagements",
     "a round of an engagement is decided"},
    {"warmaster.combat.draw",
     "\"Both sides fall back up to 3D6cm and must fall back by the score of the lowest dice. A defended or fortified "
     "unit can stand its ground instead.\" Reading: docs/rulings.md#warmaster-combat-decisions",
     "a round is drawn: each unit falls back, or a defended or fortified unit stands; a decision the draw does not "
     "allow (pursue, advance, or stand in the open) is set aside, saying why"},
    {"warmaster.combat.retreat",
     "\"The loser must retreat by the difference in Combat results in cm\"; several losers share it, rounded up. "
     "Reading: docs/rulings.md#warmaster-combat-moves",
     "a losing unit retreats directly away from the enemy"},
    {"warmaster.combat.artillery", "\"Artillery never pursue and are destroyed if they retreat.\"",
     "an artillery unit loses a combat and must retreat: it is destroyed"},
    {"warmaster.combat.blocked_retreat",
     "\"If a unit is forced to retreat into impassable terrain during combat, then stands may be destroyed as a "
     "result\" (movement text). Reading: docs/rulings.md#warmaster-combat-blocked-retreat",
     "a retreat is cut short by terrain, stands or a gap: the unit loses stands for the distance it could not make"},
    {"warmaster.combat.pursuit",
     "\"The winner can fall back, stand its ground, pursue or (if the enemy is destroyed) advance\"; a pursuit fights "
     "another round at +1 attack, +1 more per 3 cm the enemy retreated. Reading: "
     "docs/rulings.md#warmaster-combat-pursuit",
     "a winning unit follows a retreating enemy it fought"},
    {"warmaster.combat.pursuit_refused",
     "\"Infantry cannot pursue cavalry or chariots. Artillery never pursue ... Fortified units never pursue. Troops "
     "cannot pursue enemy retreating into terrain they cannot enter. Non-flying units cannot pursue flyers.\" Reading: "
     "docs/rulings.md#warmaster-combat-pursuit",
     "a winner that would pursue may not: it stands its ground"},
    {"warmaster.combat.stand", "The winner \"can ... stand its ground\". Reading: docs/rulings.md#warmaster-combat-decisions",
     "a winning unit stands: its player chose so, or no enemy it fought is left"},
    {"warmaster.combat.fall_back",
     "The winner \"can fall back\". Reading: docs/rulings.md#warmaster-combat-decisions",
     "a winning unit falls back: 3D6 cm at most, the lowest die at least"},
    {"warmaster.combat.advance",
     "The winner can \"(if the enemy is destroyed) advance\". Reading: docs/rulings.md#warmaster-combat-decisions",
     "a winning unit whose enemy was destroyed advances straight ahead"},
    {"warmaster.combat.round",
     "A pursuit fights another round of combat. Reading: docs/rulings.md#warmaster-combat-pursuit",
     "pursuers in contact again fight the next round (or the guard max_rounds stops an engagement)"},
    {"warmaster.combat.decisions",
     "\"The winner can fall back, stand its ground, pursue or (if the enemy is destroyed) advance\"; after a draw \"a "
     "defended or fortified unit can stand its ground instead\": each unit's player decides, once, before the phase is "
     "fought. Reading: docs/rulings.md#warmaster-combat-decisions",
     "the decisions given with the Combat phase's end_phase name a unit not on the battlefield or one unit twice, "
     "give a distance outside 0 to 1000 cm, or come with another phase's end_phase"},
    {"warmaster.combat.charge_alignment",
     "\"It is not sufficient for the closest charging stand to contact the enemy corner-to-corner. The closest "
     "charger must always contact edge to edge\"; the remaining stands are placed front edges flush \"and "
     "maximising edge contact\" (the rulebook's Moving Chargers). Reading: docs/rulings.md#warmaster-moving-chargers",
     "a charge ends with no charging stand's front edge flush against an edge of the enemy charged (one edge to "
     "edge with fewer stands in contact than the lined-up placement is accepted: "
     "docs/rulings.md#warmaster-moving-chargers)"},
    {"warmaster.combat.characters",
     "\"Characters add their Attacks value as a bonus to any stand in the unit they are with\"; \"characters cannot "
     "be attacked\" and \"are slain if their unit is destroyed in combat\" or by shooting (the community "
     "edition's Generals, Wizards and Heroes at a glance). Reading: docs/rulings.md#warmaster-combat-characters",
     "a character joined to a fighting unit adds its Attacks bonus to one of its stands; the character is slain "
     "with the unit when the unit is destroyed"},
};

}  // namespace

std::span<const RuleInfo> rule_catalogue() { return kRules; }

}  // namespace referee::warmaster
