// Chu Shogi perft with shogiops (lishogi's rules library), the independent reference for
// positions/perft/chushogi.perft.
//
// shogiops' own debug `perft` swaps the middle and final squares of two-step moves when it
// plays them, so this script walks the tree itself with the library's move rules:
// `moveDests`, `secondLionStepDests`, `pieceCanPromote` and `play`. It reports two counts:
//   usi      every USI string lishogi accepts (a direct jump and the same jump through an
//            empty middle square count twice; every jitto spelling counts) - lishogi's count;
//   distinct one per distinct action (origin, captured squares, destination, promotion): the
//            way `shishi perft --variant chushogi` counts.
// A side without a royal (King or Crown Prince) has lost and has no moves.
//
// Usage: SHOGIOPS_DIR=/tmp/so node scripts/shogiops_perft.mjs '<sfen>' <depth>
//        SHOGIOPS_DIR=/tmp/so node scripts/shogiops_perft.mjs --file positions/perft/chushogi.perft
// (SHOGIOPS_DIR holds node_modules/shogiops; `npm install shogiops` there.)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const dir = process.env.SHOGIOPS_DIR || '/tmp/so';
const lib = (p) => import(pathToFileURL(`${dir}/node_modules/shogiops/dist/${p}`).href);
const { parseSfen } = await lib('sfen.js');
const { secondLionStepDests } = await lib('variant/chushogi.js');
const { pieceCanPromote } = await lib('variant/util.js');
const { makeSquareName } = await lib('util.js');

const LION_POWER = ['lion', 'lionpromoted', 'eagle', 'falcon'];

// Every legal USI move of `pos`, grouped by the action it stands for.
function actions(pos) {
  const groups = new Map();
  if (pos.kingsOf(pos.turn).isEmpty()) return groups;
  const add = (key, move) => {
    const g = groups.get(key);
    if (g) g.count += 1;
    else groups.set(key, { move, count: 1 });
  };
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const capture = pos.board.get(to);
      if (pieceCanPromote('chushogi')(piece, from, to, capture))
        add(`${from}-${to}+`, { from, to, promotion: true });
      add(`${from}-${to}`, { from, to, promotion: false });
      if (LION_POWER.includes(piece.role)) {
        for (const fin of secondLionStepDests(pos, from, to)) {
          const midCaptures = pos.board.get(to) !== undefined;
          const key = midCaptures ? `${from}-${to}-${fin}` : fin === from ? `${from}-pass` : `${from}-${fin}`;
          add(key, { from, to: fin, midStep: to, promotion: false });
        }
      }
    }
  }
  return groups;
}

// [distinct, usi] leaf counts `depth` plies below `pos`.
function perft(pos, depth) {
  if (depth === 0) return [1, 1];
  const groups = actions(pos);
  if (depth === 1) {
    let usi = 0;
    for (const g of groups.values()) usi += g.count;
    return [groups.size, usi];
  }
  let distinct = 0,
    usi = 0;
  for (const g of groups.values()) {
    const child = pos.clone();
    child.play(g.move);
    const [d, u] = perft(child, depth - 1);
    distinct += d;
    usi += g.count * u;
  }
  return [distinct, usi];
}

function moveText(m) {
  return makeSquareName(m.from) + (m.midStep !== undefined ? makeSquareName(m.midStep) : '') +
    makeSquareName(m.to) + (m.promotion ? '+' : '');
}

function load(sfen) {
  const pos = parseSfen('chushogi', sfen, false);
  if (pos.isErr) throw new Error(`${sfen}: ${pos.error}`);
  return pos.value;
}

const args = process.argv.slice(2);
if (args[0] === '--file') {
  for (const line of readFileSync(args[1], 'utf8').split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const [sfen, depth] = t.split(';').map((s) => s.trim());
    const [d, u] = perft(load(sfen), Number(depth));
    console.log(`${sfen} ; ${depth} ; ${d} ; ${u}`);
  }
} else if (args[0] === '--divide') {
  const pos = load(args[1]);
  const depth = Number(args[2]);
  for (const g of actions(pos).values()) {
    const child = pos.clone();
    child.play(g.move);
    const [d] = perft(child, depth - 1);
    console.log(`${moveText(g.move)}: ${d}`);
  }
} else {
  const start = process.hrtime.bigint();
  const [d, u] = perft(load(args[0]), Number(args[1]));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`distinct ${d}`);
  console.log(`usi ${u}`);
  console.log(`seconds ${seconds.toFixed(3)}`);
}
