// The web board's entry: the battle menu, new games, undo and redo, saving
// and loading the log, uploading a battle, and the replay. The boards are the
// modules GET /api/systems names (each registers with shell.js); this file
// and the shell name no system.
import { api, ApiError, ctx, el, refresh, seatTokens, setOpponentSides, showError, sidesForNewGame } from './shell.js';
import { follow } from './live.js';
import { invitationsOf, playAFriend, showInvitations } from './friend.js';

const $ = (id) => document.getElementById(id);

// Imports every system's board module; each registers itself with the shell.
function loadBoards(systems) {
  return Promise.all(systems.filter((s) => s.board).map((s) => import(new URL(s.board, import.meta.url).href)));
}

// A game opened (new, imported or uploaded): the message of the last one,
// an error included, goes with it.
function opened(game) {
  show(game);
  $('message').replaceChildren();
  $('opponent-panel')?.replaceChildren();
  location.hash = ctx.game.id;
}

// A game on the board, followed live; `watch`: as a spectator.
function show(game, watch = false) {
  ctx.game = game;
  ctx.replay = null;
  ctx.watching = watch ? game.id : null;
  follow(game.id);
}

// The address of the game on the board.
const address = () => (ctx.game ? (ctx.watching === ctx.game.id ? `#watch/${ctx.game.id}` : `#${ctx.game.id}`) : '');

// No game on the board (a link to a game this server does not have, or an
// invitation refused): the message says why, and what can be done.
function noGame(...lines) {
  ctx.game = null;
  follow(null);
  $('board').replaceChildren();
  $('controls').replaceChildren();
  $('status').replaceChildren();
  $('players').replaceChildren();
  $('action-list').replaceChildren();
  $('log-list').replaceChildren();
  $('undo').disabled = $('redo').disabled = true;
  ctx.message(el('div', { class: 'warning', id: 'no-game', role: 'alert' }, ...lines));
}

// A game by its id (#<id>, or #watch/<id> to watch it).
async function openGame(id, watch = false) {
  ctx.watching = watch ? id : null;
  try {
    show(await api('GET', `games/${id}`), watch);
    await refresh(false);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
    noGame(el('strong', {}, 'This game is not on this server'),
      ` (no game ${id} here: the link may be from another server, or the game was deleted). Start a game of your own with New game or Play a friend.`);
  }
}

// An invitation (#join/<id>/<side>/<token>): takes the side, keeps its seat
// token, and puts the plain game address in place of the invitation (it is
// used up; the address bar and the history keep no token).
async function join(id, side, token) {
  history.replaceState(null, '', `#${id}`);
  // Opened again in the browser that took it: the game, as it stands.
  if (seatTokens(id).some((s) => s.side === side)) { await openGame(id); return; }
  let out;
  try {
    out = await api('POST', `games/${id}/join`, { side }, { 'X-Referee-Invite': token });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    history.replaceState(null, '', location.pathname);
    const why = e.status === 404 ? 'the game is not on this server' : e.error?.problem ?? e.error?.message ?? `HTTP ${e.status}`;
    const watch = e.status === 404 ? null : el('button', { type: 'button', class: 'primary', id: 'watch-instead', onclick: () => { location.hash = `watch/${id}`; } }, 'Watch the game');
    noGame(el('strong', {}, 'This invitation cannot be used'), ` (${why}). An invitation works once: ask your friend for a new one, or watch the game.`,
      watch ? el('div', { class: 'controls-row' }, watch) : null);
    return;
  }
  show(out.game);
  const name = out.game.players[out.side] ?? `side ${out.side}`;
  ctx.message(el('div', { class: 'legal', id: 'joined', role: 'status' }, `You joined the game: you play ${name}.`));
  await refresh(false);
}

// Opens what the address names, when it names an invitation, a game to
// watch or a game (by id): true; false for anything else (a battle's id,
// #warmaster/default, or nothing), which start() makes a new game of.
async function openFromAddress() {
  const hash = decodeURIComponent(location.hash.slice(1));
  const invite = /^join\/([0-9a-f]{32})\/(\d+)\/([0-9a-f]{32})$/.exec(hash);
  if (invite) { await join(invite[1], Number(invite[2]), invite[3]); return true; }
  const watch = /^watch\/([0-9a-f]{32})$/.exec(hash);
  if (watch) { await openGame(watch[1], true); return true; }
  if (/^[0-9a-f]{32}$/.test(hash)) { await openGame(hash); return true; }
  return false;
}

// Battle id -> its GET /api/battles entry (who the built-in opponent plays).
const battleInfo = new Map();

// The Advanced menu's fixed seed, or nothing: the server's secret dice
// (docs/api.md, "The dice"); and its battle settings, a JSON object the
// game is made with (an Ancients battle's "deal": "as_listed"), or nothing.
// Settings that are not a JSON object throw, and the board says why.
function advanced() {
  const v = $('seed').value.trim();
  const out = /^[0-9]{1,15}$/.test(v) ? { seed: Number(v) } : {};
  const text = $('settings').value.trim();
  if (!text) return out;
  let settings;
  try { settings = JSON.parse(text); } catch { settings = null; }
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
    throw new Error(`Battle settings (under Advanced) must be a JSON object, such as {"deal": "as_listed"}; got ${text}`);
  return { ...out, settings };
}

async function newGame(body) {
  try {
    const info = battleInfo.get(body.battle);
    const game = await api('POST', 'games', info ? { ...body, opponent_sides: sidesForNewGame(info.system, info.opponent_sides) } : body);
    opened(game);
    await refresh(false);
  } catch (e) { showError(e); }
}

// The Players panel shows again the invitations this browser made.
ctx.invitationsOf = invitationsOf;
ctx.showInvitations = (game) => showInvitations(game);

async function start() {
  // The first game is asked for at once, beside the menu's lists: a cold
  // page load waits for one round trip, not three.
  // The address may name a game (#<id>) or a battle to open (#warmaster/default).
  const id = decodeURIComponent(location.hash.slice(1));
  const resume = /^([0-9a-f]{32}|(join|watch)\/[0-9a-f]{32}(\/.*)?)$/.test(id);
  const named = !resume && /^[a-z0-9_-]+\/[A-Za-z0-9_.-]+$/.test(id) ? { battle: id } : {};
  // A fixed seed is an advanced option (?seed=N in the address fills it in);
  // empty, the server's secret dice.
  // ?settings={...} fills in the battle settings the same way.
  const params = new URLSearchParams(location.search);
  const seedParam = params.get('seed');
  if (seedParam !== null && /^[0-9]{1,15}$/.test(seedParam)) { $('seed').value = seedParam; $('advanced').open = true; }
  if (params.get('settings')) { $('settings').value = params.get('settings'); $('advanced').open = true; }
  const firstGame = resume ? null : (async () => api('POST', 'games', { ...named, ...advanced() }))().catch((e) => e);
  const [{ battles, default: first }, systems] = await Promise.all([api('GET', 'battles'), api('GET', 'systems')]);
  for (const sys of systems) ctx.systems.set(sys.name, sys);
  const boardsLoaded = loadBoards(systems);
  for (const b of battles) battleInfo.set(b.id, b);
  $('battle').replaceChildren(...battles.map((b) => el('option', { value: b.id }, b.title)));
  $('battle').value = first;
  $('new-game').onclick = () => { try { return newGame({ battle: $('battle').value, ...advanced() }); } catch (e) { showError(e); } };
  $('battle').onchange = () => $('new-game').click();
  $('play-friend').onclick = () => playAFriend({ battle: $('battle').value, title: $('battle').selectedOptions[0]?.textContent ?? $('battle').value,
    advanced, open: async (game) => { opened(game); await refresh(false); } });
  $('undo').onclick = async () => { try { ctx.game = await ctx.post('undo'); ctx.replay = null; await refresh(false); } catch (e) { showError(e); } };
  $('redo').onclick = async () => { try { ctx.game = await ctx.post('redo'); ctx.replay = null; await refresh(false); } catch (e) { showError(e); } };
  $('save-log').onclick = async () => {
    const text = await api('GET', `games/${ctx.game.id}/log`);
    const a = el('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' })), download: `${ctx.game.system}-game.jsonl` });
    document.body.append(a); a.click(); a.remove();
  };
  $('load-log').onchange = async (ev) => {
    const f = ev.target.files[0]; ev.target.value = '';
    if (!f) return;
    try { opened(await api('POST', 'games/import', await f.text())); await refresh(false); } catch (e) { showError(e); }
  };
  $('upload-battle').onchange = async (ev) => {
    const f = ev.target.files[0]; ev.target.value = '';
    if (!f) return;
    let scenario;
    try { scenario = JSON.parse(await f.text()); } catch (e) { showError(new Error(`${f.name} is not JSON: ${e.message}`)); return; }
    const systems = [...ctx.systems.keys()];
    const errors = [];
    for (const system of systems) {
      try { opened(await api('POST', 'games', { system, scenario, ...advanced() })); await refresh(false); return; }
      catch (e) { errors.push(`as ${system}: ${e.error?.message ?? e.message}`); }
    }
    showError(new Error(`${f.name} is not a battle of any system. ${errors.join('; ')}`));
  };
  $('replay-step').oninput = async (ev) => {
    const step = Number(ev.target.value);
    if (step === ctx.game.position) { ctx.replay = null; await refresh(false); return; }
    ctx.replay = await api('GET', `games/${ctx.game.id}/replay/${step}`);
    await refresh(false);
  };
  $('replay-live').onclick = async () => { ctx.replay = null; await refresh(false); };
  document.addEventListener('keydown', (ev) => {
    if (!(ev.ctrlKey || ev.metaKey)) return;
    if (ev.key === 'z') { ev.preventDefault(); $('undo').click(); }
    if (ev.key === 'y') { ev.preventDefault(); $('redo').click(); }
  });
  await boardsLoaded;
  // A link opened in this tab later (pasted into the address bar) is followed too.
  window.addEventListener('hashchange', () => { if (location.hash !== address()) openFromAddress().catch(showError); });
  // A game id in the address resumes that game; an invitation joins it; a
  // spectator's link watches it.
  if (resume) { await openFromAddress(); return; }
  const made = await firstGame;
  if (made instanceof Error) { showError(made); return; }
  // A first visit: the server's first battle (the fair one against the
  // computer unless `referee serve --battle` named another), with the sides
  // it names played by the built-in opponent.
  show(made);
  // Asked for before the battles were known: the sides the battle names for
  // the built-in opponent are set now, on the server, before anything is drawn.
  const sides = sidesForNewGame(made.system, battleInfo.get(made.battle)?.opponent_sides);
  if (sides.length) { try { await setOpponentSides(sides); } catch (e) { showError(e); } }
  location.hash = ctx.game.id;
  await refresh(false);
}

start().catch(showError);
