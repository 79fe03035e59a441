// "Play a friend": a new game of the battle on the board where this browser
// takes one side and each other side is open to whoever opens its invitation
// link (POST /api/games with "seats"; docs/api.md, "Seats"). The dialog shows
// the invitation link with a Copy button, and a link that only watches. The
// tokens travel only in the address's fragment (after #), which the browser
// never sends to a server nor in a Referer.
import { api, ctx, el, fill } from './shell.js';

const $ = (id) => document.getElementById(id);

// The links of a game: an invitation to take `side`, or to watch.
export const inviteLink = (id, side, token) => `${location.origin}${location.pathname}#join/${id}/${side}/${token}`;
export const watchLink = (id) => `${location.origin}${location.pathname}#watch/${id}`;

// The invitations this browser made, kept to be shown again (until used).
const inviteKey = (id) => `referee.invites.${id}`;
export function invitationsOf(id) {
  try { return JSON.parse(localStorage.getItem(inviteKey(id)) ?? '[]'); } catch { return ctx.invites?.[id] ?? []; }
}
function keepInvitations(id, invitations) {
  ctx.invites = { ...(ctx.invites ?? {}), [id]: invitations };
  try { localStorage.setItem(inviteKey(id), JSON.stringify(invitations)); } catch { /* this page only */ }
}

// Is the board open at a loopback address (reachable from this computer only)?
const loopback = () => /^(localhost|127(\.\d+){3}|\[::1\])$/.test(location.hostname);

function dialog() {
  let d = $('friend-dialog');
  if (!d) {
    d = el('dialog', { id: 'friend-dialog', 'aria-labelledby': 'friend-title' });
    document.body.append(d);
  }
  return d;
}

// A read-only link with a Copy button that says when it copied.
function linkRow(id, label, url) {
  const input = el('input', { id, type: 'text', readonly: true, value: url, 'aria-label': label, class: 'link', onfocus: (ev) => ev.target.select() });
  const done = el('span', { class: 'copied', 'aria-live': 'polite' });
  const copy = async () => {
    try { await navigator.clipboard.writeText(url); } catch {
      input.select();
      document.execCommand?.('copy');
    }
    done.textContent = 'Copied';
  };
  return el('div', { class: 'controls-row link-row' }, input, el('button', { type: 'button', id: `${id}-copy`, onclick: copy }, 'Copy'), done);
}

// The side names of the battle `battle`: the game's own when it is the one
// on the board, else its file's armies or players.
async function sideNames(battle) {
  if (ctx.game?.battle === battle) return ctx.game.players.slice();
  const file = await api('GET', `battles/${battle}`);
  const sides = file.armies ?? file.players ?? file.sides ?? [];
  return sides.map((s, k) => s?.name ?? `side ${k + 1}`);
}

// Step one: which side you play. `open(game)` puts the new game on the board.
// `advanced()` gives the Advanced menu's seed and settings (it throws when
// the settings are not a JSON object).
export async function playAFriend({ battle, title, advanced, open }) {
  const d = dialog();
  let names;
  try { names = await sideNames(battle); } catch (e) { ctx.showError(e); return; }
  if (names.length < 2) names = ['the first side', 'the second side'];
  const side = el('select', { id: 'friend-side', 'aria-label': 'The side you play' }, names.map((n, k) => el('option', { value: String(k) }, n)));
  const error = el('div', { class: 'error', role: 'alert', id: 'friend-error' });
  const create = el('button', { type: 'button', class: 'primary', id: 'friend-create', onclick: async () => {
    create.disabled = true;
    try {
      const mine = Number(side.value);
      // The other sides are left open for the invited (no built-in opponent).
      const game = await api('POST', 'games', { battle, ...advanced(), seats: [mine], opponent_sides: [] });
      keepInvitations(game.id, game.invitations ?? []);
      await open(game);
      showInvitations(game, mine);
    } catch (e) { error.textContent = `Could not make the game: ${e.error?.message ?? e.message}`; create.disabled = false; }
  } }, 'Make the game and the invitation');
  fill(d, el('h2', { id: 'friend-title' }, 'Play a friend'),
    el('p', {}, `A new game of ${title} for two people, each at their own computer. You play one side on this board; you get a link to send to your friend, and whoever opens it plays the other side.`),
    el('label', { class: 'controls-row' }, 'You play ', side),
    el('p', { class: 'hint' }, 'For another battle, choose it in the Battle menu first.'),
    error,
    el('div', { class: 'controls-row' }, create, el('button', { type: 'button', id: 'friend-cancel', onclick: () => d.close() }, 'Cancel')));
  if (!d.open) d.showModal();
  side.focus();
}

// Step two: the links. Also shown again from the Players panel.
export function showInvitations(game, mine = (game.you ?? [])[0]) {
  const d = dialog();
  // Those still open (the view's seats say which are invited).
  const open = (inv) => (game.seats ?? []).every((s) => s.side !== inv.side || s.invited);
  const invitations = (game.invitations ?? invitationsOf(game.id)).filter(open);
  const name = (k) => game.players[k] ?? `side ${k + 1}`;
  fill(d, el('h2', { id: 'friend-title' }, 'Invite your friend'),
    Number.isInteger(mine) ? el('p', {}, `The game is ready, and you play ${name(mine)}.`) : null,
    invitations.length ? invitations.flatMap((inv) => [
      el('p', {}, el('strong', {}, `Send this link to your friend: it gives them ${name(inv.side)}.`),
        ' It works once, for the first person who opens it, so send it only to them (by e-mail or a message).'),
      linkRow(invitations.length === 1 ? 'invite-link' : `invite-link-${inv.side}`, `Invitation to play ${name(inv.side)}`, inviteLink(game.id, inv.side, inv.token))])
      : el('p', {}, 'Every side of this game has its player.'),
    loopback() ? el('p', { class: 'warning', id: 'loopback-note' }, 'This board is open at an address of this computer only (',
      el('code', {}, location.host), '): the link works in another browser here. For a friend at another computer, start the server with ',
      el('code', {}, 'referee serve --host 0.0.0.0'), ' and open the board by this computer\'s name or network address before inviting.') : null,
    el('p', {}, 'Anyone with this link can watch the game, but cannot move anything:'),
    linkRow('watch-link', 'Link to watch the game', watchLink(game.id)),
    el('p', { class: 'hint' }, 'Under Players, a green dot shows when your friend is connected. The board shows their moves as they make them.'),
    el('div', { class: 'controls-row' }, el('button', { type: 'button', class: 'primary', id: 'friend-close', onclick: () => d.close() }, 'Close')));
  if (!d.open) d.showModal();
  $('friend-close').focus();
}
