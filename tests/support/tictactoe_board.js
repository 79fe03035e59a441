// The tests' fourth system's web board (tic-tac-toe): served as
// tictactoe.js by the test build of referee (tests/support/referee_with_tictactoe.cpp),
// it registers with the shell like the three real boards, and the shell
// learns of it only from GET /api/systems.
import { el, fill, registerBoard } from './shell.js';

function render(root, state, ctx) {
  const mark = ['', 'X', 'O'];
  const cells = state.cells.map((c, i) => el('button', {
    type: 'button', class: 'ttt-cell', 'data-cell': String(i), disabled: c !== 0 || !state.tossed,
    onclick: () => ctx.apply({ type: 'mark', cell: i }),
  }, mark[c] || '·'));
  fill(root, el('div', { id: 'ttt-board' }, [0, 3, 6].map((r) => el('div', {}, cells.slice(r, r + 3)))));
}

function controls(root) { fill(root); }

registerBoard('tictactoe', { render, controls });
