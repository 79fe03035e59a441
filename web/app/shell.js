// The web board's shell: what every system's board draws with and talks
// through (the API of docs/api.md, the game being played, refusals with
// their rule text, the status, players, actions and log), and the boards
// themselves, which register here. It knows no system by name: app.js
// imports each board module GET /api/systems names, and the module calls
// registerBoard with its system's name. The boards import this module and
// nothing imports them, so there is no import cycle.

// system name -> { render(root, state, ctx), controls(root, ctx), and, when the
// board has them: filterActions(actions, ctx), describe(action, ctx, offered)
// (an action in words), describeEntry(entry, ctx) (a log entry in words, with
// what it did), confirmFirst(action, ctx) (a question to ask before
// sending it), howTo (a few lines for a newcomer), phaseWords(phase) (the
// engine's phase name as the status line puts it to a player) }
const boards = new Map();

export function registerBoard(system, board) {
  if (boards.has(system)) throw new Error(`a board for ${system} is registered twice`);
  boards.set(system, board);
}

// The board of `system`, or an error saying none was registered.
export function boardOf(system) {
  const board = boards.get(system);
  if (!board) throw new Error(`no board for ${system}: GET /api/systems names none, or its module did not register`);
  return board;
}

const $ = (id) => document.getElementById(id);

export class ApiError extends Error {
  constructor(status, error) { super(error?.message ?? `HTTP ${status}`); this.status = status; this.error = error; }
}

// Seat tokens: the secret that lets a browser act for a side of a game
// (docs/api.md, "Seats"). The board keeps those of each game it was given
// (the `seat_tokens` of POST /api/games, /import and /join) in the browser's
// storage under referee.seats.<game id>, as [{side, token}], and sends them
// with every request about that game in X-Referee-Seat. Never in an address.
const seatsInMemory = new Map();  // game id -> [{side, token}], when storage is off
const seatKey = (id) => `referee.seats.${id}`;

export function seatTokens(id) {
  try {
    const kept = JSON.parse(localStorage.getItem(seatKey(id)) ?? 'null');
    if (Array.isArray(kept)) return kept.filter((s) => Number.isInteger(s?.side) && /^[0-9a-f]{32}$/.test(s?.token ?? ''));
  } catch { /* storage off or spoilt: the page's own copy */ }
  return seatsInMemory.get(id) ?? [];
}

export function keepSeats(id, tokens) {
  if (!/^[0-9a-f]{32}$/.test(id ?? '') || !Array.isArray(tokens) || !tokens.length) return;
  const seats = seatTokens(id).filter((s) => !tokens.some((t) => t.side === s.side));
  seats.push(...tokens.map(({ side, token }) => ({ side, token })));
  seats.sort((a, b) => a.side - b.side);
  seatsInMemory.set(id, seats);
  try { localStorage.setItem(seatKey(id), JSON.stringify(seats)); } catch { /* this page only */ }
}

// The header that carries a game's seat tokens ({} for a spectator: a page
// opened by a #watch/ link sends none, whatever the browser holds).
export function seatHeaders(id) {
  if (ctx.watching === id) return {};
  const tokens = seatTokens(id).map((s) => s.token).slice(0, 8);
  return tokens.length ? { 'X-Referee-Seat': tokens.join(',') } : {};
}

// The game a path of the API is about (games/<id>/...), or null.
function gameOfPath(path) { return /^games\/([0-9a-f]{32})(?:\/|$)/.exec(path)?.[1] ?? null; }

// A request that changes something carries Content-Type application/json
// (a log, application/x-ndjson), with a body of {} when it has nothing to
// say: the server refuses any other type, which a page on another site could
// send without the browser asking the server first (docs/api.md, "Safety").
// Every request about a game carries its seat tokens; the tokens an answer
// gives (`seat_tokens`) are kept. `headers`: more of them (an invitation's).
export async function api(method, path, body, headers = {}) {
  const game = gameOfPath(path);
  const init = { method, headers: { ...(game ? seatHeaders(game) : {}), ...headers } };
  if (method !== 'GET' && method !== 'HEAD') {
    const text = typeof body === 'string';
    init.headers['Content-Type'] = text ? 'application/x-ndjson' : 'application/json';
    init.body = text ? body : JSON.stringify(body ?? {});
  }
  const res = await fetch('/api/' + path, init);
  const text = await res.text();
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('application/json') && text ? JSON.parse(text) : text;
  if (!res.ok) throw new ApiError(res.status, data?.error);
  if (Array.isArray(data?.seat_tokens)) keepSeats(data.id ?? data.game?.id ?? game, data.seat_tokens);
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// Replaces a node's children, leaving out the null and false of optional parts.
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

const ruleTexts = new Map();  // system -> Map(rule id -> rule)
async function ruleText(system, id) {
  if (!ruleTexts.has(system)) {
    const rules = await api('GET', `rules/${system}`);
    ruleTexts.set(system, new Map(rules.map((r) => [r.id, r])));
  }
  return ruleTexts.get(system).get(id);
}

// Who plays each side is the game's, not the page's: the server keeps it
// with the game (its view's `opponent_sides`, set with POST .../players), so
// a reload, a second browser or a link opened elsewhere plays it the same.
export function playedByOpponent(g, side) {
  return !!g && !!ctx.systems.get(g.system)?.opponent && (g.opponent_sides ?? []).includes(side);
}

// Does this board hold `side`? The view's `you` names the sides the
// request's seat tokens hold (a server without seats sends none: then every
// side is the board's, as in hot seat).
export function holds(g, side) { return !Array.isArray(g?.you) || g.you.includes(side); }

// Is this board a spectator of the game (opened by a #watch/ link, or
// holding no seat of it)?
export function watching(g = ctx.game) {
  return !!g && (ctx.watching === g.id || (Array.isArray(g.you) && g.you.length === 0));
}

// May this board act now? Not a spectator, and not while another player's
// side is to play (the built-in opponent's turn stays the board's to start,
// as before: it plays on this board's request).
export function mayAct(g = ctx.game) {
  if (!g || watching(g)) return false;
  return g.current_player < 0 || playedByOpponent(g, g.current_player) || holds(g, g.current_player);
}

// May this board play the side to play? It holds it, and the built-in
// opponent does not play it: a side the opponent plays takes its actions
// from the opponent alone (the server refuses a player's for it).
export function mayPlay(g = ctx.game) {
  if (!g || watching(g) || g.terminal || g.current_player < 0) return false;
  return !playedByOpponent(g, g.current_player) && holds(g, g.current_player);
}
// May this board choose for `side` (a choice of the side not to play, such
// as what its units do after a round of combat)?
export function choosesFor(g, side) { return !!g && !watching(g) && !playedByOpponent(g, side) && holds(g, side); }

// Whose turn it is, in words, from this board's seat: [line, kind], kind
// one of mine, opponent, waiting, watching; null once the game is over.
export function whoseTurn(g = ctx.game) {
  if (!g || g.terminal || g.current_player < 0) return null;
  const side = g.players[g.current_player];
  const seat = seatsNow(g).seats.find((s) => s.side === g.current_player);
  if (watching(g)) {
    const who = playedByOpponent(g, g.current_player) ? `the built-in opponent plays ${side}` : `${side} to play`;
    return [`You are watching this game (${who}); only its players can move.`, 'watching'];
  }
  if (playedByOpponent(g, g.current_player)) return [`The built-in opponent is playing ${side}`, 'opponent'];
  if (holds(g, g.current_player)) return [`Your turn: you play ${side}`, 'mine'];
  if (seat?.invited) return [`Waiting for ${side}'s player: your friend has not opened the invitation yet`, 'waiting'];
  return [`Waiting for ${side}'s player${seat && !seat.connected ? ' (not connected)' : ''}`, 'waiting'];
}

// The sides a new game on `battle` gives the built-in opponent (POST
// /api/games' `opponent_sides`): the battle's own choice (GET /api/battles:
// the fair battle against the computer names the side it plays), else the
// choice made for the last game of that system.
export function sidesForNewGame(system, battleSides) {
  if (!ctx.systems.get(system)?.opponent) return [];
  if (battleSides?.length) return battleSides.slice();
  return ctx.lastSides?.system === system ? ctx.lastSides.sides.slice() : [];
}

// Sets who plays each side of the game being played (on the server).
export async function setOpponentSides(sides) {
  ctx.game = await ctx.post('players', { opponent_sides: sides });
}

// The one game being played, and what the board needs to talk to it.
export const ctx = {
  game: null,          // the game's view (GET /api/games/{id})
  replay: null,        // a past state being looked at, or null
  systems: new Map(),  // name -> GET /api/systems entry (has it a built-in opponent?)
  opponentBusy: false,
  // The last lines of the game's log, kept from the answers of apply and
  // opponent (their `entries`) so that no action fetches the log again.
  log: { game: null, position: -1, entries: [] },
  // Requests in flight: the live updates wait until none is, so that they
  // never redraw the board under an action on its way (ctx.onQuiet).
  busy: 0,
  posted: 0,  // requests made so far (a catch-up that saw one start gives way)
  async post(what, body) {
    ctx.busy += 1;
    ctx.posted += 1;
    // onQuiet runs after the caller has taken the answer in (its view).
    try { return await api('POST', `games/${ctx.game.id}/${what}`, body); } finally { ctx.busy -= 1; if (!ctx.busy) setTimeout(() => { if (!ctx.busy) ctx.onQuiet?.(); }, 0); }
  },
  async query(name, args) { return ctx.post('query', { name, args }); },
  async validate(action) { return ctx.post('validate', { action }); },
  // Applies an action; shows the rolls, or the refusal with its rule text.
  async apply(action, label) {
    // Not this board's turn (another player's side, or watching): said, not sent.
    if (!mayPlay()) { notYourTurn(); return null; }
    // An action the board says would give something up asks first.
    const question = boards.get(ctx.game.system)?.confirmFirst?.(action, ctx);
    if (question && !(await ask(question))) return null;
    const before = ctx.game.position;
    try {
      const out = await ctx.post('apply', { action });
      keepEntries(out.entries, out.game);
      ctx.game = out.game;
      // Refused because the other player acted first (the game had moved
      // on): the board catches up and says so, instead of a rule's refusal.
      const movedOn = !out.applied && out.game.position - (out.entries?.length ?? 0) !== before;
      if (movedOn) {
        await refresh();
        ctx.message(el('div', { class: 'warning', id: 'moved-on', role: 'status' },
          `Not played: ${label ?? describeAction(action)}. The game had moved on before it reached the server (the other player acted); the board now shows the game as it stands.`));
        return out;
      }
      if (out.applied) showOutcome(label ?? describeAction(action), out);
      else await showVerdict(out, label ?? describeAction(action));
      await refresh(false);
      return out;
    } catch (e) {
      // A seat refused (403) or the game moved on (409): catch up, then say why.
      if (e instanceof ApiError && (e.status === 403 || e.status === 409)) await refresh().catch(() => {});
      showError(e);
      return null;
    }
  },
  showVerdict: (...a) => showVerdict(...a),
  showError: (...a) => showError(...a),
  message: (node) => { $('message').replaceChildren(node); },
  refresh: (...a) => refresh(...a),
};

// An action tried while it is not this board's to make.
function notYourTurn() {
  const turn = whoseTurn();
  ctx.message(el('div', { class: 'warning', id: 'not-your-turn', role: 'status' },
    turn ? `${turn[0]}. The board takes your moves when it is your side's turn.` : 'The game is over.'));
}

// One player's turn of one game: what a board's selections belong to.
export function turnKey(game) { return `${game.id}:${game.turn}:${game.current_player}`; }

// An action in words: the board's own description when it gives one
// (registerBoard's `describe`), else its type and fields.
// `offered`: an action offered now (a button), which may say how far it goes.
export function describeAction(a, offered = false) {
  const board = ctx.game && boards.get(ctx.game.system);
  const words = board?.describe?.(a, ctx, offered);
  if (words) return words;
  return rawAction(a);
}

// A log entry (or an opponent's action with its result) in words, with what
// it did: the board's describeEntry when it gives one, else its action's words.
function describeEntry(e) {
  const board = ctx.game && boards.get(ctx.game.system);
  return board?.describeEntry?.(e, ctx) ?? describeAction(e.action);
}

// An action as its type and fields (ids): the tooltip of a described one.
export function rawAction(a) {
  if (!a || typeof a !== 'object') return String(a);
  if (a.type === 'move' && Array.isArray(a.moves) && a.moves.length === 0) return 'move: none (the ordered units stay)';
  const parts = [a.type ?? a.kind ?? 'action'];
  for (const k of ['character', 'unit', 'units', 'card', 'leader', 'leaders', 'target', 'to', 'hex'])
    if (a[k] !== undefined) parts.push(`${k} ${typeof a[k] === 'object' ? JSON.stringify(a[k]) : a[k]}`);
  // A shooting player's choices between equally close targets.
  if (Array.isArray(a.targets)) parts.push(...a.targets.map((t) => `${t.shooter} shoots at ${t.target}`));
  else if (a.type === 'shoot') parts.push('every shooter at its closest target');
  return parts.join(', ');
}

// The engine's text in words: the board's `words` (its ids replaced by
// names) when it has one.
function inWords(text) {
  const board = ctx.game && boards.get(ctx.game.system);
  return board?.words ? board.words(text, ctx) : text;
}

// Rolls drawn as dice, each titled with what it was rolled for.
function diceOf(rolls) { return rolls.map((r) => el('span', { class: 'die', title: inWords(r.for ?? '') }, String(r.value))); }

// What an action did, kept on screen until the next one: a test that failed
// says so in large type (red), with the reason and what follows.
// A result in the words of the game's board, where it puts one in words
// itself (Ancients' battles); undefined otherwise.
const boardWords = (result) => (ctx.game && boards.get(ctx.game.system))?.summarize?.(result, ctx);

function showOutcome(label, out) {
  const r = out.result ?? {};
  const rolls = out.rolls?.length
    ? el('div', { class: 'rolls' }, 'Dice: ', diceOf(out.rolls),
      ' ', el('span', { class: 'muted' }, inWords(out.rolls.map((d) => d.for).filter(Boolean).filter((v, i, s) => s.indexOf(v) === i).join(', '))))
    : null;
  const summary = boardWords(r) ?? r.text ?? r.summary ?? r.ruling?.reason ?? r.reason ?? r.explain ?? '';
  // What happened step by step (Blightmeer's checks and falls), each in words.
  const events = Array.isArray(r.events) ? r.events.filter((e) => e?.reason) : [];
  const failed = r.passed === false || events.some((e) => /: failed$/.test(e.reason));
  const head = failed ? `Failed: ${label}` : r.passed === true ? `Passed: ${label}` : `Done: ${label}`;
  ctx.message(el('div', { id: 'outcome' }, el('div', { class: failed ? 'illegal outcome-head' : 'legal outcome-head' }, head), rolls,
    summary ? el('div', { class: 'summary', title: String(summary) }, inWords(String(summary))) : null,
    events.length ? el('ul', { class: 'events' }, events.map((e) => el('li', { title: e.rule ?? '' }, inWords(e.reason)))) : null,
    // Whose turn came next, true only while nothing else has been played.
    r.next ? el('div', { class: 'outcome-next', 'data-position': String(ctx.game.position) }, `Next: ${describeNext(r.next)}`) : null,
    r.battle_over ? el('div', { class: 'legal outcome-head' }, `The battle is over: ${r.battle_over}`) : null));
}

// A result's "next": a word, or {turn, side} (whose turn comes next).
function describeNext(next) {
  // The engine's words name a side by its number ("turn 1, side 1: command
  // phase"); a player reads the side's name.
  if (typeof next === 'string') return next.replace(/\bside (\d+)\b/g, (m, k) => ctx.game?.players?.[Number(k)] ?? m);
  if (typeof next !== 'object' || next === null) return String(next);
  const parts = [];
  if (next.turn !== undefined) parts.push(`turn ${next.turn}`);
  if (next.side !== undefined) parts.push(`${next.side} to play`);
  for (const [k, v] of Object.entries(next)) if (k !== 'turn' && k !== 'side') parts.push(`${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return parts.join(', ');
}

// Asks the player a yes-or-no question in the message panel; true for yes.
function ask(question) {
  return new Promise((resolve) => {
    const answer = (yes) => () => { $('message').replaceChildren(); resolve(yes); };
    ctx.message(el('div', { id: 'confirm', role: 'alertdialog', 'aria-label': question }, el('div', { class: 'warning' }, question),
      el('div', { class: 'controls-row' },
        el('button', { type: 'button', id: 'confirm-yes', onclick: answer(true) }, 'Yes, go on'),
        el('button', { type: 'button', id: 'confirm-no', class: 'primary', onclick: answer(false) }, 'No, keep the move'))));
    document.getElementById('confirm-no')?.focus();
  });
}

// A verdict ({legal, violations}) with each rule's id, reason and text.
export async function showVerdict(v, label = '') {
  if (v.legal) {
    ctx.message(el('div', { class: 'legal' }, `Legal${label ? ': ' + label : ''}`));
    return;
  }
  const items = [];
  for (const r of v.violations ?? []) {
    const info = await ruleText(ctx.game.system, r.rule).catch(() => null);
    items.push(el('li', {},
      el('div', { class: 'rule' }, r.rule),
      el('div', { class: 'reason' }, r.reason),
      info ? el('div', { class: 'rule-text' }, info.text) : null));
  }
  ctx.message(el('div', {}, el('div', { class: 'illegal' }, `Refused${label ? ': ' + label : ''}`), el('ul', { class: 'violations' }, items)));
}

export function showError(e) {
  const m = e instanceof ApiError && e.error ? e.error.message : String(e.message ?? e);
  ctx.message(el('div', { class: 'error', role: 'alert' }, `Error: ${m}`));
}

function renderStatus() {
  const g = ctx.game;
  const r = g.result ?? {};
  const who = g.current_player >= 0 ? g.players[g.current_player] : '—';
  const turn = whoseTurn(g);
  $('status').replaceChildren(...[
    el('div', {}, el('strong', {}, g.battle), ` (${g.system})`),
    // Once the game is over the banner below says where it stands.
    r.over ? null : el('div', { id: 'turn-line' }, `Turn ${g.turn} · ${who} · ${boards.get(g.system)?.phaseWords?.(g.phase) ?? g.phase}`),
    // Whose turn, from this board's seat (another player's, a spectator's).
    turn ? el('div', { id: 'whose-turn', class: `whose-turn ${turn[1]}`, 'data-kind': turn[1] }, turn[0]) : null,
    // The end of the game: a banner at the top of the panel, above the
    // last outcome, so that it is the first thing seen at any size.
    r.over ? el('div', { class: 'banner', id: 'battle-over', role: 'status' }, el('h2', {}, 'The battle is over'),
      el('div', { class: 'outcome-head' }, r.winner !== null && r.winner !== undefined ? `${g.players[r.winner]} wins` : 'A draw'),
      r.reason ? el('div', {}, r.reason) : null) : null].filter(Boolean));
  // An outcome's "Next:" goes once the game has moved on (the opponent played).
  for (const n of document.querySelectorAll('#outcome .outcome-next'))
    if (n.dataset.position !== String(g.position)) n.remove();
  // Brought into view once when the game ends (below the board on a phone).
  if (r.over && ctx.endSeen !== g.id) {
    ctx.endSeen = g.id;
    $('battle-over')?.scrollIntoView?.({ block: 'nearest' });
  }
  // The menu names the battle being played (a game opened by its link included).
  const menu = $('battle');
  if (menu && [...menu.options].some((o) => o.value === g.battle)) menu.value = g.battle;
  // A spectator takes nothing back, nor a player while the other side is to
  // play (the server lets each undo only their own last action: docs/api.md).
  $('undo').disabled = !g.can_undo || !mayAct(g);
  $('redo').disabled = !g.can_redo || !mayAct(g);
  const step = $('replay-step');
  step.max = String(g.position);
  if (!ctx.replay) step.value = String(g.position);
  // A replay names the action that led to the step shown.
  $('replay-label').textContent = ctx.replay
    ? `step ${ctx.replay.step} of ${ctx.replay.steps}${ctx.replay.action ? `: ${describeAction(ctx.replay.action)}` : ' (the start)'}`
    : `step ${g.position} (live)`;
  $('replay-live').disabled = !ctx.replay;
  renderPlayers();
}

// Who plays each side: "you" (hot-seat, both at this board), the built-in
// opponent (for systems that have one: GET /api/systems says so), or
// another player (a friend who joined by an invitation). Beside each side,
// whether its player is connected now (the view's `seats`, kept up to date
// by the live updates' presence events), and how many are watching.
function renderPlayers() {
  const g = ctx.game;
  const sys = ctx.systems.get(g.system);
  const has = !!sys?.opponent;
  const sides = g.players.map((_, side) => playedByOpponent(g, side));
  const { seats, spectators } = seatsNow(g);
  const tip = has ? 'Who plays this side' : `${sys?.title ?? g.system} has no built-in opponent yet: both sides are played here (hot-seat)`;
  const spectator = watching(g);
  // A side held by another player, or invited, is not this board's to give away.
  const others = (side) => !sides[side] && (spectator || !holds(g, side));
  const presence = (side) => {
    const seat = seats.find((x) => x.side === side);
    if (!seat || sides[side]) return null;
    const [word, state] = holds(g, side) && !spectator ? ['you', 'you']
      : seat.invited ? ['invited, not joined yet', 'invited']
        : seat.connected ? ['connected', 'on'] : ['not connected', 'off'];
    // The invitation this board made, to be shown again (the dialog closed too soon).
    const again = state === 'invited' && ctx.invitationsOf?.(g.id).some((i) => i.side === side)
      ? el('button', { type: 'button', class: 'link-button', id: `show-invite-${side}`, onclick: (ev) => { ev.preventDefault(); ctx.showInvitations(g); } }, 'show the link') : null;
    return el('span', { class: `presence ${state}`, id: `presence-${side}`, 'data-state': state }, el('span', { class: 'dot', 'aria-hidden': 'true' }), word, again);
  };
  // What the selects show and allow. A live update that changes none of it
  // (someone connected, another spectator) redraws only the dots and the
  // hints: a select the player is using is never replaced under the pointer,
  // which would drop the choice being made.
  const showsOpponent = has && !spectator && (sides.some(Boolean) || !g.players.some((_, k) => others(k)));
  const key = JSON.stringify([g.id, g.players, has, spectator, sides, g.players.map((_, k) => others(k)), showsOpponent]);
  const panel = $('players');
  const hints = () => [
    spectators ? el('div', { class: 'hint', id: 'spectators' }, `${spectators} watching`) : null,
    ctx.live ? el('div', { class: 'hint', id: 'live-state', 'data-state': ctx.live }, ctx.live === 'on' ? 'Live: moves show here as they are made' : 'Live updates: reconnecting…') : null];
  if (panel.dataset.key === key && $('players-hints')) {
    g.players.forEach((_, side) => {
      const now = presence(side);
      const was = $(`presence-${side}`);
      if (was && now) was.replaceWith(now);
      else if (was) was.remove();
      else if (now) panel.querySelector(`#player-${side}`)?.closest('label')?.querySelector('.side-name')?.append(now);
    });
    fill($('players-hints'), hints());
    // The dice's line changes when the game ends (the seed revealed).
    $('dice-line')?.replaceWith(diceLine(g));
    return;
  }
  panel.dataset.key = key;
  fill(panel, el('h2', {}, 'Players'), ...g.players.map((name, side) =>
    el('label', { class: 'controls-row player-row', title: tip }, el('span', { class: 'side-name' }, el('span', {}, name), presence(side)),
      el('select', { id: `player-${side}`, 'aria-label': `Who plays ${name}`, disabled: !has || spectator || others(side), title: tip,
        onchange: async (ev) => {
          sides[side] = ev.target.value === 'opponent';
          try {
            await setOpponentSides(sides.flatMap((mine, k) => (mine ? [k] : [])));
            // A new game of this system keeps the choice made here.
            ctx.lastSides = { system: ctx.game.system, sides: ctx.game.opponent_sides.slice() };
          } catch (e) { showError(e); }
          renderPlayers();
          maybeOpponent();
        } },
      others(side) ? el('option', { value: 'friend', selected: true }, spectator ? 'a player' : 'your friend') : null,
      el('option', { value: 'you', selected: !sides[side] && !others(side) }, 'you'),
      el('option', { value: 'opponent', selected: has && sides[side] }, 'built-in opponent')))),
    el('div', { id: 'players-hints' }, hints()),
    diceLine(g),
    // How the built-in opponent plays: not asked in a game between two players where it plays no side.
    showsOpponent ? el('label', { class: 'controls-row', title: 'How the built-in opponent plays its turn' }, el('span', { class: 'side-name' }, 'Opponent plays'),
      el('select', { id: 'opponent-pace', 'aria-label': 'How the built-in opponent plays',
        onchange: (ev) => { ctx.opponentPace = ev.target.value; maybeOpponent(); } },
      el('option', { value: 'turn', selected: ctx.opponentPace !== 'action' }, 'its whole turn at once'),
      el('option', { value: 'action', selected: ctx.opponentPace === 'action' }, 'one action per click'))) : null);
}

// What the game says of its dice (docs/api.md, "The dice"): secret, with
// the commitment shown from the start; revealed once over, to check with
// referee replay; or fixed, so that everyone knows the rolls can be foreseen.
function diceLine(g) {
  const d = g.dice ?? {};
  let text, tip;
  if (d.scripted) { text = 'Dice: entered by hand (scripted)'; tip = 'The rolls were given when the game was made.'; }
  else if (d.fixed) { text = `Dice: fixed seed ${d.seed}: anyone can foresee the rolls`; tip = 'A fixed seed is for one computer, tests and replays.'; }
  else if (d.seed === null || d.seed === undefined) {
    text = `Dice: secret until the game ends (commitment ${String(d.commitment ?? '').slice(0, 12)}…)`;
    tip = `SHA-256 commitment to the seed: ${d.commitment}. The seed and salt are revealed when the game ends.`;
  } else {
    text = `Dice: seed ${d.seed} revealed; Save log and run referee replay to check it against the commitment`;
    tip = `seed ${d.seed}, salt ${d.salt}, commitment ${d.commitment}`;
  }
  return el('div', { id: 'dice-line', class: 'hint', title: tip }, text);
}

// Who is connected now (a presence event of the live updates: `seats` as
// in the view, or `connected`, a count per side). Kept apart from the view:
// a view fetched meanwhile may be older than the last presence event.
export function showPresence({ seats, connected, spectators }) {
  if (!ctx.game) return;
  const counts = Array.isArray(connected) ? connected : Array.isArray(seats) ? seats.map((x) => x.connected) : null;
  if (counts || Number.isInteger(spectators)) ctx.presence = { game: ctx.game.id, connected: counts, spectators };
  renderStatus();
}

// The game's seats and spectators, with the last presence event's counts.
function seatsNow(g) {
  const p = ctx.presence?.game === g.id ? ctx.presence : null;
  const seats = (g.seats ?? []).map((x) => (p?.connected ? { ...x, connected: p.connected[x.side] ?? x.connected } : x));
  return { seats, spectators: Number.isInteger(p?.spectators) ? p.spectators : g.spectators };
}

// When it is the turn of a side the built-in opponent plays, it plays that
// side's actions on the server (POST .../opponent, the game's own dice and
// log), and the board shows what it did.
async function maybeOpponent(step = false) {
  const g = ctx.game;
  if (ctx.opponentBusy || ctx.replay || !g || g.terminal || g.current_player < 0) return;
  if (!playedByOpponent(g, g.current_player) || watching(g)) return;
  // One action per click: the panel offers the next one.
  if (ctx.opponentPace === 'action' && !step) { offerOpponentStep(); return; }
  ctx.opponentBusy = true;
  try {
    const out = await ctx.post('opponent', { until: step ? 'action' : 'player' });
    keepEntries(out.entries, out.game);
    ctx.game = out.game;
    showOpponent(out, step);
    await refresh(false);
  } catch (e) { showError(e); } finally { ctx.opponentBusy = false; }
  // One action per click: offer the next while it is still the opponent's turn.
  if (ctx.opponentPace === 'action') { maybeOpponent(); return; }
  // Both sides the opponent's: play on, a turn at a time, each drawn.
  if (!ctx.game.terminal && playedByOpponent(ctx.game, ctx.game.current_player)) setTimeout(maybeOpponent, 300);
}

// The opponent's report has a panel of its own, under the message, so the
// outcome of the player's own last action stays on screen beside it. Played
// an action per click, the report grows by one line per click.
function opponentPanel() {
  let panel = $('opponent-panel');
  if (!panel) {
    panel = el('section', { id: 'opponent-panel', 'aria-live': 'polite' });
    $('message').after(panel);
  }
  return panel;
}

function offerOpponentStep() {
  const who = ctx.game.players[ctx.game.current_player];
  const panel = opponentPanel();
  panel.querySelector('#opponent-step')?.remove();
  panel.prepend(el('button', { type: 'button', class: 'primary', id: 'opponent-step', onclick: () => maybeOpponent(true) }, `Next action of the built-in opponent (${who})`));
}

function showOpponent(out, step = false) {
  const who = ctx.game.players[out.player] ?? `player ${out.player}`;
  const items = out.actions.map((a, k) => {
    const summary = boardWords(a.result) ?? a.result?.text ?? a.result?.summary ?? '';
    return el('li', { class: a.applied ? '' : 'refused' }, el('span', { class: 'entry-words' }, describeEntry(out.entries?.[k] ?? a)),
      a.rolls?.length ? el('span', { class: 'rolls' }, ' ', diceOf(a.rolls)) : null,
      // In words, as the outcome is: the names of units and characters, not their ids.
      summary ? el('div', { class: 'summary', title: String(summary) }, inWords(String(summary))) : null);
  });
  const panel = opponentPanel();
  const old = panel.querySelector('#opponent-report');
  if (step && old && old.dataset.player === String(out.player)) {
    old.querySelector('ol').append(...items);
    const n = old.querySelector('ol').children.length;
    old.querySelector('.legal').textContent = `The built-in opponent is playing ${who}: ${n} action${n === 1 ? '' : 's'} so far`;
  } else {
    panel.replaceChildren(el('div', { id: 'opponent-report', 'data-player': String(out.player) },
      el('div', { class: 'legal' }, `The built-in opponent played ${who}: ${out.actions.length} action${out.actions.length === 1 ? '' : 's'} (${out.stopped})`),
      el('ol', { class: 'opponent-actions' }, items)));
  }
  // The list scrolls in its box (style.css): its newest action in sight.
  const list = panel.querySelector('#opponent-report ol');
  if (list) list.scrollTop = list.scrollHeight;
  panel.querySelector('#opponent-step')?.remove();
}

// The log panel shows the last kLogShown lines. They come with each answer
// that adds some (keepEntries); only a game opened, undone or redone fetches
// them, and then only those lines (GET .../entries/{from}).
const kLogShown = 40;
function keepEntries(entries, game) {
  const log = ctx.log;
  if (!Array.isArray(entries) || log.game !== game.id || log.position + entries.length !== game.position) return;
  log.entries = log.entries.concat(entries).slice(-kLogShown);
  log.position = game.position;
}

async function syncLog() {
  const g = ctx.game;
  if (ctx.log.game === g.id && ctx.log.position === g.position) return;
  const from = Math.max(0, g.position - kLogShown);
  const answer = await api('GET', `games/${g.id}/entries/${from}`);
  ctx.log = { game: g.id, position: answer.to, entries: answer.entries };
}

async function renderLog() {
  await syncLog();
  const lines = ctx.log.entries;
  const earlier = ctx.game.position - lines.length;
  $('log-list').replaceChildren(...lines.map((e) => el('li', { class: e.refused ? 'refused' : '' },
    `${describeEntry(e)}${e.rolls?.length ? ' [' + e.rolls.map((r) => r.value).join(' ') + ']' : ''}${e.refused ? ' — refused' : ''}`)));
  // Numbered as in the log; the heading says when earlier lines are left out.
  $('log-list').start = earlier + 1;
  $('log').querySelector('h2').textContent = earlier > 0 ? `Log (the last ${lines.length} of ${ctx.game.position}; Save log has them all)` : 'Log';
}

async function renderActions() {
  const list = $('action-list');
  if (ctx.replay || ctx.game.terminal || !mayPlay()) { list.replaceChildren(); return; }
  const actions = ctx.game.legal_actions ?? [];
  const board = boardOf(ctx.game.system);
  const shown = board.filterActions ? board.filterActions(actions, ctx) : actions;
  list.replaceChildren(...shown.slice(0, 60).map((a) =>
    el('button', { type: 'button', 'data-action': JSON.stringify(a), title: rawAction(a), onclick: () => ctx.apply(a, describeAction(a, true)) }, describeAction(a, true))));
  if (shown.length > 60) list.append(el('div', {}, `… and ${shown.length - 60} more`));
}

// A board's short how-to (registerBoard's `howTo`, a few lines), above the
// status until the player dismisses it; dismissed, it stays away (kept in the
// browser's storage, per system).
function renderHowTo() {
  const system = ctx.game.system;
  const lines = boards.get(system)?.howTo;
  const key = `referee.howto.${system}`;
  let dismissed = false;
  try { dismissed = localStorage.getItem(key) === 'dismissed'; } catch { /* storage off */ }
  $('howto')?.remove();
  // A spectator has nothing to click: the status says they are watching.
  if (!lines?.length || dismissed || watching()) return;
  const box = el('section', { id: 'howto', 'aria-label': 'How to play' }, el('h2', {}, 'How to play'),
    el('ol', {}, lines.map((l) => el('li', {}, l))),
    el('button', { type: 'button', id: 'howto-dismiss', onclick: () => { try { localStorage.setItem(key, 'dismissed'); } catch { /* this page only */ } box.remove(); } }, 'Got it'));
  $('status').before(box);
}

// The game has moved on elsewhere (a live update: the other player acted,
// or undid): fetches the view and the log lines since the board's last, then
// redraws as after an action of its own (the other player's moves leave
// their trails, as the built-in opponent's do), and says what was played.
// A view no newer than the board's is left alone: nothing is drawn twice.
// `force`: take the view whatever its version (a server restarted may
// number its versions anew). False when a request of the board's own
// started meanwhile (its answer may be in what was fetched): the caller
// tries again once it is answered.
export async function catchUp({ force = false } = {}) {
  const g0 = ctx.game;
  if (!g0) return true;
  const posted = ctx.posted;
  const view = await api('GET', `games/${g0.id}`);
  const stale = () => ctx.game?.id !== view.id || (!force && (ctx.game.version ?? -1) >= (view.version ?? 0));
  if (ctx.posted !== posted) return false;
  if (stale()) return true;
  const log = ctx.log, added = view.position - log.position;
  let fresh = [];
  if (log.game === view.id && added > 0 && added <= kLogShown) {
    const answer = await api('GET', `games/${view.id}/entries/${log.position}`);
    if (ctx.posted !== posted) return false;
    if (stale() || ctx.log.position !== log.position) return true;
    fresh = answer.entries.slice(0, added);
    keepEntries(fresh, view);
  }
  ctx.game = view;
  if (fresh.length) showOthers(fresh, g0.players[g0.current_player]);
  await refresh(false);
  return true;
}

// What another player (or the built-in opponent at their board) played,
// in the panel under the message, a line per action with its dice.
// `who`: the side that was to play (the log's lines do not name it).
function showOthers(entries, who = 'the other player') {
  const items = entries.map((e) => el('li', { class: e.refused ? 'refused' : '' }, el('span', { class: 'entry-words' }, describeEntry(e)),
    e.rolls?.length ? el('span', { class: 'rolls' }, ' ', diceOf(e.rolls)) : null, e.refused ? ' — refused' : null));
  const panel = opponentPanel();
  const old = panel.querySelector('#others-report');
  if (old && old.dataset.who === who) {
    old.querySelector('ol').append(...items);
    return;
  }
  panel.replaceChildren(el('div', { id: 'others-report', 'data-who': who },
    el('div', { class: 'legal' }, `${who} played:`), el('ol', { class: 'opponent-actions' }, items)));
}

export async function refresh(fetchGame = true) {
  if (fetchGame) ctx.game = await api('GET', `games/${ctx.game.id}`);
  // The how-to is drawn once per system shown, not on every redraw.
  if (ctx.howToFor !== ctx.game.system) { ctx.howToFor = ctx.game.system; renderHowTo(); }
  renderStatus();
  const board = boardOf(ctx.game.system);
  const state = ctx.replay ? ctx.replay.state : ctx.game.state;
  board.render($('board'), state, ctx);
  board.controls($('controls'), ctx);
  // Milliseconds from navigation to the first board drawn (the browser tests read it).
  if (!document.body.dataset.readyMs) document.body.dataset.readyMs = performance.now().toFixed(1);
  await Promise.all([renderLog(), renderActions()]);
  if (!ctx.replay && !ctx.opponentBusy) setTimeout(maybeOpponent, 0);
}

