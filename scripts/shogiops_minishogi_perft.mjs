// Minishogi (5×5) perft counts from shogiops (lishogi's rules library): the reference for
// positions/perft/minishogi.perft, which engine-tests/minishogi.rs checks a drop variant
// defined from a piece table and a start position against.
//
// Prints suite lines `<sfen> ; <depth> ; <nodes>`: the start position to depth 5, then
// positions reached by seeded random play (kept only when a hand is not empty) to depth 4.
// Counts are shogiops' `perft` (every legal USI move, optional non-promotions included).
//
// Usage: SHOGIOPS_DIR=/tmp/so node scripts/shogiops_minishogi_perft.mjs [seed] > lines.txt
// (SHOGIOPS_DIR holds node_modules/shogiops; `npm install shogiops` there.)
import { pathToFileURL } from 'node:url';

const dir = process.env.SHOGIOPS_DIR || '/tmp/so';
const lib = (p) => import(pathToFileURL(`${dir}/node_modules/shogiops/dist/${p}`).href);
const { parseSfen, initialSfen, makeSfen } = await lib('sfen.js');
const { perft } = await lib('debug.js');
const { pieceCanPromote, pieceForcePromote } = await lib('variant/util.js');
const { parsePieceName } = await lib('util.js');

let seed = Number(process.argv[2] || 7);
const random = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};

// Every legal move of `pos` as shogiops plays them.
function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allMoveDests()) {
    for (const to of dests) {
      const piece = pos.board.get(from);
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
        moves.push({ from, to, promotion: true });
        if (!pieceForcePromote(pos.rules)(piece, to)) moves.push({ from, to, promotion: false });
      } else moves.push({ from, to, promotion: false });
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    for (const to of dests) moves.push({ role: parsePieceName(name).role, to });
  }
  return moves;
}

const start = initialSfen('minishogi');
for (let depth = 1; depth <= 5; depth++) {
  console.log(`${start} ; ${depth} ; ${perft(parseSfen('minishogi', start).unwrap(), depth)}`);
}
let found = 0;
for (let game = 0; game < 40 && found < 8; game++) {
  const pos = parseSfen('minishogi', start).unwrap();
  const plies = 8 + random(30);
  let alive = true;
  for (let i = 0; i < plies && alive; i++) {
    const moves = legalMoves(pos);
    if (moves.length === 0 || pos.isEnd()) alive = false;
    else pos.play(moves[random(moves.length)]);
  }
  if (!alive || pos.isEnd()) continue;
  const sfen = makeSfen(pos);
  if (!/ [bw] [^-]/.test(sfen)) continue;
  found += 1;
  for (let depth = 1; depth <= 4; depth++) console.log(`${sfen} ; ${depth} ; ${perft(pos, depth)}`);
}
