// Live updates: the board follows the game it shows through the server's
// stream of its changes (GET /api/games/{id}/events, Server-Sent Events;
// docs/api.md, "Live updates"). Read with fetch() and a stream, not
// EventSource, so that it carries the seat tokens (X-Referee-Seat). Each
// `game` event newer than the board's view makes the board catch up (the
// view and the new log lines, drawn as after its own action); `presence`
// says who is connected. A dropped stream reconnects by itself, after 0.5 s,
// 1 s, 2 s, … at most 5 s, resuming from the last version seen
// (Last-Event-ID). The board never applies anything on an event: it reads.
import { catchUp, ctx, seatHeaders, showPresence } from './shell.js';

let stream = null;  // { id, seated, abort, lastId, want, force, running }

// Follows the game `id` (the one on the board), or none; anew when the
// board goes from watching it to holding a seat (its header changes).
export function follow(id) {
  const seated = !!id && ctx.watching !== id;
  if (stream?.id === id && stream.seated === seated) return;
  stream?.abort.abort();
  stream = null;
  ctx.live = null;
  if (!id) return;
  stream = { id, seated, abort: new AbortController(), lastId: null, want: -1 };
  run(stream);
}

const sleep = (ms, signal) => new Promise((resolve) => {
  const t = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
});

function setLive(state) {
  if (ctx.live === state) return;
  ctx.live = state;
  if (ctx.game) showPresence({});
}

async function run(s) {
  let delay = 500;
  while (!s.abort.signal.aborted) {
    try {
      const headers = { Accept: 'text/event-stream', ...seatHeaders(s.id) };
      const last = s.lastId ?? ctx.game?.version;
      if (Number.isInteger(last)) headers['Last-Event-ID'] = String(last);
      const res = await fetch(`/api/games/${s.id}/events`, { headers, signal: s.abort.signal, cache: 'no-store' });
      // A server without live updates (or a game gone): nothing to follow.
      if (res.status === 404 || res.status === 405) { setLive(null); return; }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      delay = 500;
      setLive('on');
      await readFrames(res.body, s);
    } catch (e) {
      if (s.abort.signal.aborted) return;
    }
    if (s.abort.signal.aborted) return;
    setLive('reconnecting');
    await sleep(delay, s.abort.signal);
    delay = Math.min(5000, delay * 2);
  }
}

// Reads the stream's frames: lines of `field: value` (one space after the
// colon dropped), a blank line ending each; a line starting with ':' is a
// comment (the server's keep-alive).
async function readFrames(body, s) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const ev = { event: 'message', data: [], id: null };
      for (const line of frame.split('\n')) {
        if (!line || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const v = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') ev.event = v;
        else if (field === 'data') ev.data.push(v);
        else if (field === 'id') ev.id = v;
      }
      if (s.abort.signal.aborted) return;
      if (ev.id !== null && /^\d+$/.test(ev.id)) s.lastId = Number(ev.id);
      if (ev.data.length) handle(ev.event, ev.data.join('\n'), s);
    }
  }
}

function handle(event, text, s) {
  let data;
  try { data = JSON.parse(text); } catch { return; }
  if (event === 'presence') { if (ctx.game?.id === s.id) showPresence(data); return; }
  if (event !== 'game' || !Number.isInteger(data.version)) return;
  // The first event of a stream (kind sync) at another version than the
  // board's: the board catches up whichever way it differs (a server
  // restarted on its stored games may number versions anew).
  if (data.kind === 'sync' && ctx.game?.id === s.id && data.version !== ctx.game.version) {
    s.force = true;
    s.want = data.version;
  } else s.want = Math.max(s.want, data.version);
  catchUpTo(s);
}

// Catches up with the newest version an event named, once nothing of the
// board's own is in flight (its answer carries the newer view itself), one
// catch-up at a time.
async function catchUpTo(s) {
  if (s.running || stream !== s) return;
  if (ctx.busy) { ctx.onQuiet = () => { ctx.onQuiet = null; catchUpTo(s); }; return; }
  if (ctx.opponentBusy) { setTimeout(() => catchUpTo(s), 100); return; }
  if (!ctx.game || ctx.game.id !== s.id || (!s.force && (ctx.game.version ?? -1) >= s.want)) return;
  s.running = true;
  const from = ctx.game.version;
  const force = s.force;
  s.force = false;
  let done;
  try { done = await catchUp({ force }); } catch (e) {
    s.running = false;
    if (e?.status === 404 || e?.status === 403) { ctx.showError(e); return; }
    // The server out of reach for a moment (the stream reconnects too): again in a second.
    s.force ||= force;
    setTimeout(() => catchUpTo(s), 1000);
    return;
  } finally { s.running = false; }
  // An action of the board's own went out meanwhile: again once it is answered.
  if (!done) { s.force ||= force; catchUpTo(s); return; }
  // Newer events came meanwhile: again, unless the view did not move on.
  if (stream === s && (s.force || ((ctx.game?.version ?? -1) < s.want && ctx.game?.version !== from))) catchUpTo(s);
}
