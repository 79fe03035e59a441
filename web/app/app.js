// The web board's entry: the battle menu, new games, undo and redo, saving
// and loading the log, uploading a battle, and the replay. The boards are the
// modules GET /api/systems names (each registers with shell.js); this file
// and the shell name no system.
import { api, ctx, el, refresh, setOpponentSides, showError, sidesForNewGame } from './shell.js';

const $ = (id) => document.getElementById(id);

// Imports every system's board module; each registers itself with the shell.
function loadBoards(systems) {
  return Promise.all(systems.filter((s) => s.board).map((s) => import(new URL(s.board, import.meta.url).href)));
}

// A game opened (new, imported or uploaded): the message of the last one,
// an error included, goes with it.
function opened(game) {
  ctx.game = game;
  ctx.replay = null;
  $('message').replaceChildren();
  $('opponent-panel')?.replaceChildren();
  location.hash = ctx.game.id;
}

// Battle id -> its GET /api/battles entry (who the built-in opponent plays).
const battleInfo = new Map();

async function newGame(body) {
  try {
    const info = battleInfo.get(body.battle);
    const game = await api('POST', 'games', info ? { ...body, opponent_sides: sidesForNewGame(info.system, info.opponent_sides) } : body);
    opened(game);
    await refresh(false);
  } catch (e) { showError(e); }
}

async function start() {
  // The first game is asked for at once, beside the menu's lists: a cold
  // page load waits for one round trip, not three.
  // The address may name a game (#<id>) or a battle to open (#warmaster/default).
  const id = decodeURIComponent(location.hash.slice(1));
  const resume = /^[0-9a-f]{32}$/.test(id);
  const named = /^[a-z0-9_-]+\/[A-Za-z0-9_.-]+$/.test(id) ? { battle: id } : {};
  const firstGame = resume ? null : api('POST', 'games', { ...named, seed: 1 }).catch((e) => e);
  const [{ battles, default: first }, systems] = await Promise.all([api('GET', 'battles'), api('GET', 'systems')]);
  for (const sys of systems) ctx.systems.set(sys.name, sys);
  const boardsLoaded = loadBoards(systems);
  for (const b of battles) battleInfo.set(b.id, b);
  $('battle').replaceChildren(...battles.map((b) => el('option', { value: b.id }, b.title)));
  $('battle').value = first;
  $('new-game').onclick = () => newGame({ battle: $('battle').value, seed: Number($('seed').value) || 0 });
  $('battle').onchange = () => $('new-game').click();
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
      try { opened(await api('POST', 'games', { system, scenario, seed: Number($('seed').value) || 0 })); await refresh(false); return; }
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
  // A game id in the address resumes that game (while the server keeps it).
  if (resume) {
    try { ctx.game = await api('GET', `games/${id}`); await refresh(false); return; } catch { /* gone: start anew */ }
    await newGame({ battle: first, seed: 1 });
    return;
  }
  const made = await firstGame;
  if (made instanceof Error) { showError(made); return; }
  // A first visit: the server's first battle (the fair one against the
  // computer unless `referee serve --battle` named another), with the sides
  // it names played by the built-in opponent.
  ctx.game = made;
  ctx.replay = null;
  // Asked for before the battles were known: the sides the battle names for
  // the built-in opponent are set now, on the server, before anything is drawn.
  const sides = sidesForNewGame(made.system, battleInfo.get(made.battle)?.opponent_sides);
  if (sides.length) { try { await setOpponentSides(sides); } catch (e) { showError(e); } }
  location.hash = ctx.game.id;
  await refresh(false);
}

start().catch(showError);
