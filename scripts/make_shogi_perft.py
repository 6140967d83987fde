#!/usr/bin/env python3
"""Regenerate positions/perft/shogi.perft (and optionally an out-of-repo perft file).

Every node count comes from cshogi (PyPI; Apery's C++ move generator), walked with a
Python perft whose last ply is counted with len(board.legal_moves). cshogi's
legal_moves contains every legal USI move, including the optional non-promotions of
pawn, lance, knight, silver, bishop and rook (8h2b and 8h2b+ are two moves), and
excludes pawn-drop mate (uchifuzume), nifu and dead drops / dead moves.

    python3 scripts/make_shogi_perft.py                       # rewrite positions/perft/shogi.perft
    python3 scripts/make_shogi_perft.py --outside /tmp/x.perft --outside-seed 7 --outside-count 30

Positions: hand-built ones (rules corner cases; gote-to-move twins are made by rotating the
board 180 degrees and swapping colours) plus positions harvested from seeded random
games from the start position (capture-biased so that hands fill up).
Depths: 1 upward while the count stays under --max-nodes (default 200 million), at most 6.
"""
import argparse
import os
import random
import subprocess
import sys
import time

try:
    import cshogi
except ImportError:  # pragma: no cover
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "cshogi"])
    import cshogi

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MAX593 = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"


# ----------------------------------------------------------------------------- helpers
def normalize(sfen):
    """cshogi's canonical board/side/hand fields, keeping the given move number."""
    parts = cshogi.Board(sfen).sfen().split()
    fields = sfen.split()
    ply = fields[3] if len(fields) > 3 else "1"
    return " ".join(parts[:3] + [ply])


SET_COUNT = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2, "K": 2}


def check_piece_counts(pieces, hand):
    """Refuse a position with more pieces of a kind than a set holds (it could never arise)."""
    counts = {}
    for p in pieces.values():
        k = p[-1].upper()
        counts[k] = counts.get(k, 0) + 1
    n = ""
    for c in hand if hand != "-" else "":
        if c.isdigit():
            n += c
            continue
        counts[c.upper()] = counts.get(c.upper(), 0) + int(n or 1)
        n = ""
    for k, c in counts.items():
        assert c <= SET_COUNT[k], f"{c} pieces of kind {k}: impossible position"


def B(pieces, side="b", hand="-", ply=1):
    """Build an SFEN from {'5a': 'k', '5i': 'K', '2b': '+R', ...} (uppercase = sente)."""
    check_piece_counts(pieces, hand)
    grid = [[None] * 9 for _ in range(9)]
    for sq, p in pieces.items():
        f = int(sq[0])
        r = "abcdefghi".index(sq[1])
        assert grid[r][9 - f] is None, sq
        grid[r][9 - f] = p
    rows = []
    for r in range(9):
        s, e = "", 0
        for c in range(9):
            p = grid[r][c]
            if p is None:
                e += 1
                continue
            if e:
                s += str(e)
                e = 0
            s += p
        if e:
            s += str(e)
        rows.append(s)
    return normalize(f"{'/'.join(rows)} {side} {hand} {ply}")


def flip(sfen):
    """Rotate the board 180 degrees and swap colours (the gote-to-move twin)."""
    board, side, hand, ply = sfen.split()
    grid = []
    for row in board.split("/"):
        cells, i = [], 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                cells += [None] * int(ch)
                i += 1
            elif ch == "+":
                cells.append("+" + row[i + 1])
                i += 2
            else:
                cells.append(ch)
                i += 1
        grid.append(cells)
    grid = [list(reversed(r)) for r in reversed(grid)]
    pieces = {}
    for r in range(9):
        for c in range(9):
            if grid[r][c]:
                pieces[f"{9 - c}{'abcdefghi'[r]}"] = grid[r][c].swapcase()
    return B(pieces, "w" if side == "b" else "b", "-" if hand == "-" else hand.swapcase(), ply)


def perft(board, depth):
    if depth <= 1:
        return len(board.legal_moves) if depth == 1 else 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def counts_for(sfen, max_nodes, max_depth=6, min_depth=1, fixed=None):
    """[(depth, nodes, seconds)] from depth 1 while nodes <= max_nodes (or the fixed depths)."""
    board = cshogi.Board(sfen)
    out = []
    depths = fixed or range(1, max_depth + 1)
    for d in depths:
        if fixed is None and d > 3 and out and out[-1][1] == 0:
            break
        if fixed is None and len(out) >= 2:
            # same side to move two plies earlier gives the best branching estimate
            prev2 = out[-3][1] if len(out) >= 3 else 1
            est = out[-1][1] * (out[-2][1] / prev2 if prev2 else 0)
            if est > 2 * max_nodes:
                break
        t0 = time.perf_counter()
        n = perft(board, d)
        dt = time.perf_counter() - t0
        if fixed is None and n > max_nodes and d > min_depth:
            break
        out.append((d, n, dt))
    return out


# ----------------------------------------------------------------------------- hand-built
def uchifuzume_set():
    return {
        "a": B({"1a": "k", "2a": "n", "2c": "G", "5i": "K", "9g": "P"}, "b", "GP"),
        "b": B({"1a": "k", "2d": "N", "5i": "K", "9g": "P"}, "b", "P"),
        "c": B({"1a": "k", "2a": "g", "2c": "S", "5i": "K", "9g": "P"}, "b", "P"),
        "d": B({"1a": "k", "2a": "g", "2c": "S", "9a": "R", "5i": "K", "9g": "P"}, "b", "P"),
        "e": B({"1a": "k", "2a": "n", "3c": "G", "5i": "K", "9g": "P"}, "b", "P"),
        "g": B({"5a": "k", "4a": "l", "6a": "n", "9b": "R", "5i": "K", "9g": "P"}, "b", "P"),
        "f": B({"5a": "k", "4a": "l", "6a": "n", "9b": "R", "3c": "S", "5i": "K", "9g": "P"}, "b", "P"),
        "mid": B({"5e": "k", "4d": "p", "5d": "p", "6d": "p", "4e": "l", "6e": "l", "5g": "G", "9i": "K", "9g": "P"}, "b", "Pg"),
        "ev": B({"5a": "k", "4a": "n", "6a": "b", "9a": "R", "5c": "G", "1f": "K", "9g": "P"}, "b", "GSP"),
    }


def hand_built():
    U = uchifuzume_set()
    P = [
        (["start position (sente to move)"], START),
        (["start position with gote to move (colour symmetry)"], flip(START)),
        (["maximum-legal-moves position: 593 legal moves for sente (depth 1 = 593); huge sente hand, gote holds 3g3n17p"], MAX593),
        (["593 position mirrored: gote to move, 593 legal moves"], flip(MAX593)),
        (["drops: bare kings, both sides hold every piece kind (R B G S N L P), sente to move;",
          "dead-drop squares: no P/L drop on rank a, no N drop on ranks a/b (for gote at depth 2: ranks i, h/i)"],
         B({"5a": "k", "5i": "K"}, "b", "RBGSNLPrbgsnlp")),
        (["drops: bare kings, both sides hold every piece kind, gote to move (gote's dead-drop squares at depth 1)"],
         B({"5a": "k", "5i": "K"}, "w", "RBGSNLPrbgsnlp")),
        (["king-only ending: bare kings, sente to move"], B({"5a": "k", "5i": "K"}, "b", "-")),
        (["king-only ending: kings two ranks apart in the centre, gote to move (kings may not step next to each other)"],
         B({"5d": "k", "5f": "K"}, "w", "-")),
        (["check by a knight (sente king 5i in check from 6g): only captures of the knight or king moves, no interposing drops;",
          "the gold 6h that attacks the knight is pinned by the bishop 8f (illegal capture), the silver 7h may capture it"],
         B({"5a": "k", "6g": "n", "8f": "b", "6h": "G", "7h": "S", "5i": "K", "1g": "P", "3g": "P"}, "b", "GPp")),
        (["check by a knight on gote (gote to move), mirror of the previous position"], None),
        (["check by a lance from a distance (5c -> king 5h): interposition by drops (P/L/N/S/G; pawn allowed, no sente pawn on file 5)",
          "and by the rook 9e-5e; the bishop 8f may capture the lance (5c is in the zone: with and without promotion);",
          "the king may not retreat to 5i along the lance's line"],
         B({"1a": "k", "5c": "l", "5h": "K", "9e": "R", "8f": "B", "1g": "P", "3g": "P", "7g": "P"}, "b", "GSNLPr2p")),
        (["check by a lance from a distance on gote (gote to move), mirror of the previous position"], None),
        (["check by a rook along rank e (9e -> king 2e) with drops in hand: interposition on every square between,",
          "nifu forbids pawn interposition on files 5 and 4; the king may not retreat to 1e along the rook's line"],
         B({"1a": "k", "9e": "r", "2e": "K", "5g": "P", "4g": "P", "7i": "N", "3i": "S"}, "b", "PLNSGbp")),
        (["double check (bishop 2f + gold 5h on king 5i): only king moves; the king captures the undefended gold (the only move);",
          "pieces in hand and the gold 4i that could also take the gold are useless"],
         B({"1a": "k", "2f": "b", "5h": "g", "5i": "K", "4i": "G", "6i": "S", "5g": "P"}, "b", "RGPp")),
        (["double check on gote (rook 5e on the file + knight 4c): only king moves, gote to move with pieces in hand"],
         B({"5a": "k", "4c": "N", "5e": "R", "6a": "g", "9i": "K", "1c": "p", "9c": "p"}, "w", "GSPb")),
        (["pins (sente to move): rook 5f pinned on file 5 by the lance 5b (moves along the file, may capture the pinner, promotion choices in the zone);",
          "bishop 7g pinned on the diagonal by the horse 9e (moves along the diagonal, may capture it); gold 3i pinned on rank i by the dragon 1i",
          "(moves along the rank, may capture it)"],
         B({"9a": "k", "5i": "K", "5f": "R", "5b": "l", "7g": "B", "9e": "+b", "3i": "G", "1i": "+r", "2c": "p", "8c": "p"}, "b", "P")),
        (["pins (gote to move): lance 9d pinned on file 9 by the lance 9h (moves forward along the pin, captures with/without promotion);",
          "silver 8b pinned on a diagonal by the bishop 6d (only the diagonal steps along the pin); knight 7a pinned on rank a by the rook 4a (cannot move)"],
         B({"9a": "k", "9d": "l", "9h": "L", "8b": "s", "6d": "B", "7a": "n", "4a": "R", "5i": "K", "3c": "p"}, "w", "Pg")),
        (["pinned pieces that could capture the checker: sente king 5i in check by the knight 4g; the silver 5h (pinned on file 5 by the lance 5c)",
          "and the pawn 4h (pinned on a diagonal by the bishop 2f) attack the knight but may not take it;",
          "the unpinned gold 3h may take the knight; drops cannot interpose a knight check"],
         B({"5a": "k", "5i": "K", "4g": "n", "5h": "S", "5c": "l", "4h": "P", "2f": "b", "3h": "G", "8g": "P", "9g": "P"}, "b", "SNp")),
        (["uchifuzume (sente): P*1b would be mate (king 1a boxed in by its own knight 2a, the pawn defended by the gold 2c) -> illegal;",
          "G*1b (also mate) is legal"], U["a"]),
        (["uchifuzume (gote to move): mirror of the previous position, P*9h is illegal"], flip(U["a"])),
        (["pawn-drop check that is NOT mate (sente): the king can escape to 2a/2b -> P*1b legal"], U["b"]),
        (["pawn-drop check NOT mate (gote to move): the king can escape -> P*9h legal"], flip(U["b"])),
        (["pawn-drop check NOT mate (sente): the dropped pawn can be captured by the gote gold 2a -> P*1b legal"], U["c"]),
        (["pawn-drop check NOT mate (gote to move): the pawn can be captured by the sente gold 8i -> P*9h legal"], flip(U["c"])),
        (["uchifuzume (sente): the only capturer, gold 2a, is pinned along rank a by the rook 9a -> P*1b is mate -> illegal"], U["d"]),
        (["uchifuzume (gote to move): the only capturer is pinned by the rook 1i -> P*9h illegal"], flip(U["d"])),
        (["pawn-drop check NOT mate (sente): the king can capture the undefended pawn -> P*1b legal"], U["e"]),
        (["pawn-drop check NOT mate (gote to move): the king can capture the undefended pawn -> P*9h legal"], flip(U["e"])),
        (["pawn-drop check NOT mate (sente): the pawn on 5b itself cuts the rook 9b's control of 4b, so the king escapes to 4b -> P*5b legal"], U["g"]),
        (["pawn-drop check NOT mate (gote to move): the dropped pawn cuts the defender's line, the king escapes -> P*5h legal"], flip(U["g"])),
        (["uchifuzume (sente): pawn on 5b defended by the rook 9b (king cannot take it), 4b covered by the silver 3c -> P*5b illegal"], U["f"]),
        (["uchifuzume (gote to move): pawn defended, king cannot take it -> P*5h illegal"], flip(U["f"])),
        (["uchifuzume with the king in the middle of the board (gote king 5e boxed by its own pawns and lances, pawn on 5f defended by the gold 5g)",
          "-> P*5f illegal; other pawn drops on file 5 are legal (sente has no pawn on file 5)"], U["mid"]),
        (["uchifuzume in the middle of the board, gote to move (mirror) -> P*5d illegal"], flip(U["mid"])),
        (["uchifuzume inside check evasion: sente king 1f in check by the bishop 6a (itself pinned by the rook 9a, so it cannot take on 5b);",
          "interposing P*5b would mate -> illegal; G*5b, S*5b, the gold 5c-5b and P*4c/P*3d/P*2e are legal"], U["ev"]),
        (["uchifuzume inside check evasion, gote to move (mirror): P*5h illegal"], flip(U["ev"])),
        (["nifu (sente to move): unpromoted pawns on files 1,3,5,7,9 forbid pawn drops there; files 2,4,6 hold only tokins (drops allowed);",
          "gote (depth 2) has pawns on files 2,4,6,8 and only a tokin on file 5; both sides hold pawns"],
         B({"1a": "k", "9i": "K", "1g": "P", "3e": "P", "5g": "P", "7g": "P", "9h": "P", "2c": "+P", "4d": "+P", "6b": "+P",
            "8c": "p", "6e": "p", "4c": "p", "2d": "p", "5f": "+p", "1b": "g"}, "b", "3P2p")),
        (["nifu, gote to move (mirror)"], None),
        (["promotion zone edges (sente to move): knight 3d must promote on 2b/4b, knight 7e may choose on 6c/8c, lance 9d optional on 9c/9b,",
          "pawn 1b forced on 1a, pawn 5d optional on 5c, silver 4c moving within (3b/4b/5b) and out of the zone (3d, optional),",
          "silver 6d into the zone, rook 2c moving within and out of the zone (always optional), bishop 8h entering the zone on the long diagonal,",
          "promoted pieces (promoted lance, tokins, promoted silver) never promote again; gote pieces sit on their own zone edges too:",
          "knight 3f forced on 2h/4h, knight 8e optional on 7g/9g, lance 1f optional on 1g/1h and forced on 1i, pawn 9h forced on 9i, pawn 5f optional on 5g"],
         B({"5i": "K", "5a": "k", "3d": "N", "7e": "N", "9d": "L", "1b": "P", "5d": "P", "4c": "S", "6d": "S", "2c": "R", "8h": "B",
            "6c": "+L", "4e": "+P", "7c": "+P",
            "3f": "n", "8e": "n", "1f": "l", "5f": "p", "9h": "p", "6g": "s", "8g": "r", "2a": "b", "2g": "+s"}, "b", "-")),
        (["promotion zone edges, gote to move (mirror of the previous position)"], None),
        (["checkmate: sente king 1i mated by the gold 1h (supported by the pawn 1g); sente has a full hand but cannot block -> depth 1 = 0"],
         B({"1i": "K", "1h": "g", "1g": "p", "5a": "k", "9c": "P"}, "b", "RBGSNLP")),
        (["checkmate, gote to move (mirror) -> depth 1 = 0"], None),
        (["checkmate by a lance from a distance (9a -> king 9i); flight squares covered by the pawn 8g and the knight 7g;",
          "the sente pawn and silver have moves but none stops the check -> 0"],
         B({"9i": "K", "9a": "l", "8g": "p", "7g": "n", "5a": "k", "5g": "P", "3h": "S"}, "b", "-")),
        (["no legal moves but not in check (sente king 9i, every flight square covered, nothing else to move) -> depth 1 = 0"],
         B({"9i": "K", "8g": "g", "7g": "n", "1a": "k"}, "b", "-")),
    ]
    for i, (c, s) in enumerate(P):
        if s is None:
            P[i] = (c, flip(P[i - 1][1]))
    return P


# ----------------------------------------------------------------------------- random games
def hand_info(sfen):
    h = sfen.split()[2]
    cnt, kinds, n = [0, 0], set(), ""
    if h == "-":
        return 0, 0, kinds
    for ch in h:
        if ch.isdigit():
            n += ch
            continue
        cnt[0 if ch.isupper() else 1] += int(n or 1)
        kinds.add(ch.upper())
        n = ""
    return cnt[0], cnt[1], kinds


def random_games(seed, n, capture_bias=0.6):
    """n random legal games of 30-150 plies from the start; a capture is preferred with probability capture_bias."""
    rng = random.Random(seed)
    out = []
    for g in range(n):
        b = cshogi.Board(START)
        plies = rng.randint(30, 150)
        for _ in range(plies):
            ms = list(b.legal_moves)
            if not ms:
                break
            caps = [m for m in ms if cshogi.move_cap(m)]
            b.push(rng.choice(caps) if caps and rng.random() < capture_bias else rng.choice(ms))
        s = b.sfen()
        sb, sw, kinds = hand_info(s)
        out.append(dict(game=g, sfen=s, check=b.is_check(), nmoves=len(b.legal_moves), sb=sb, sw=sw, kinds=kinds,
                        side=s.split()[1], ply=int(s.split()[3])))
    return out


def describe(r, seed):
    who = "sente" if r["side"] == "b" else "gote"
    hand = r["sfen"].split()[2]
    bits = [f"random game #{r['game']} (seed {seed}, capture-biased random play, {r['ply'] - 1} plies)",
            f"{who} to move", f"{r['nmoves']} legal moves"]
    if r["check"]:
        bits.append("in check" if r["nmoves"] else "checkmated")
    bits.append(f"hands {hand} ({r['sb']} sente / {r['sw']} gote pieces, {len(r['kinds'])} kinds)")
    return ", ".join(bits)


HARVEST_RULES = [
    ("many hand pieces for both sides (5+ kinds), sente to move",
     lambda r: not r["check"] and r["nmoves"] and r["sb"] >= 3 and r["sw"] >= 3 and len(r["kinds"]) >= 5 and r["side"] == "b"),
    ("many hand pieces for both sides (5+ kinds), gote to move",
     lambda r: not r["check"] and r["nmoves"] and r["sb"] >= 3 and r["sw"] >= 3 and len(r["kinds"]) >= 5 and r["side"] == "w"),
    ("very full hands (6+ kinds, 20+ pieces in hand)",
     lambda r: not r["check"] and r["nmoves"] and r["sb"] + r["sw"] >= 20 and len(r["kinds"]) >= 6),
    ("in check with pieces in hand (interposing drops), sente to move",
     lambda r: r["check"] and r["nmoves"] >= 2 and r["sb"] + r["sw"] >= 5 and r["side"] == "b"),
    ("in check with pieces in hand (interposing drops), gote to move",
     lambda r: r["check"] and r["nmoves"] >= 2 and r["sb"] + r["sw"] >= 5 and r["side"] == "w"),
    ("in check with very few evasions",
     lambda r: r["check"] and 1 <= r["nmoves"] <= 4),
    ("checkmated at the end of a random game (depth 1 = 0)",
     lambda r: r["nmoves"] == 0),
    ("quiet middle game with hands, sente to move, narrow enough to go deep",
     lambda r: not r["check"] and 0 < r["nmoves"] < 60 and r["sb"] + r["sw"] >= 6 and r["side"] == "b"),
    ("quiet middle game with hands, gote to move, narrow enough to go deep",
     lambda r: not r["check"] and 0 < r["nmoves"] < 60 and r["sb"] + r["sw"] >= 6 and r["side"] == "w"),
    ("early middle game (few plies played)",
     lambda r: not r["check"] and r["nmoves"] and r["ply"] <= 50),
]


def harvest(seed, n):
    games = random_games(seed, n)
    chosen, used = [], set()
    for why, rule in HARVEST_RULES:
        for r in games:
            if r["game"] not in used and rule(r):
                used.add(r["game"])
                chosen.append(([why + ":", describe(r, seed)], r["sfen"]))
                break
    return chosen


def harvest_outside(seed, count, max_nodes):
    """count random positions with depths 1-4 whose depth-4 count is at most max_nodes."""
    games = random_games(seed, 40 * count)
    want = {"check": count // 4, "hand": count // 3}
    got = {"check": 0, "hand": 0, "other": 0}
    chosen = []
    for r in games:
        if len(chosen) >= count:
            break
        if not r["nmoves"]:
            continue
        kind = "check" if r["check"] else ("hand" if r["sb"] + r["sw"] >= 6 and len(r["kinds"]) >= 4 else "other")
        if kind != "other" and got[kind] >= want[kind]:
            continue
        if kind == "other" and got["other"] >= count - want["check"] - want["hand"]:
            continue
        b = cshogi.Board(r["sfen"])
        c2 = perft(b, 2)
        if c2 * c2 > 2 * max_nodes or perft(b, 4) > max_nodes:
            continue
        got[kind] += 1
        chosen.append(([describe(r, seed)], r["sfen"]))
    return chosen


# ----------------------------------------------------------------------------- output
def write(path, positions, max_nodes, fixed=None, log=sys.stderr, title="Standard shogi perft suite."):
    lines = [f"# {title} Format: <sfen> ; <depth> ; <nodes>",
             "# Every count computed with cshogi (Apery move generator; all legal USI moves incl. optional non-promotions).",
             f"# Depths run from 1 while the count stays <= {max_nodes}." if fixed is None else f"# Depths {list(fixed)}.",
             ""]
    total_t = 0.0
    for comments, sfen in positions:
        res = counts_for(sfen, max_nodes, fixed=fixed)
        if fixed is not None and any(n > 2 * max_nodes for _, n, _ in res):
            raise SystemExit(f"too many nodes for {sfen}")
        for c in comments:
            lines.append("# " + c)
        for d, n, dt in res:
            lines.append(f"{sfen} ; {d} ; {n}")
            total_t += dt
        lines.append("")
        print(f"{res[-1][0]} {res[-1][1]:>11} {sum(x[2] for x in res):7.2f}s  {sfen}", file=log, flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {path}: {len(positions)} positions, cshogi time {total_t:.1f}s", file=log)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(here, "..", "positions", "perft", "shogi.perft"))
    ap.add_argument("--seed", type=int, default=20241122)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--max-nodes", type=int, default=200_000_000)
    ap.add_argument("--outside", help="also write COUNT random positions (depths 1-4) to this path")
    ap.add_argument("--outside-seed", type=int, default=91919)
    ap.add_argument("--outside-count", type=int, default=30)
    ap.add_argument("--skip-suite", action="store_true")
    args = ap.parse_args()
    if not args.skip_suite:
        write(args.out, hand_built() + harvest(args.seed, args.games), args.max_nodes)
    if args.outside:
        write(args.outside, harvest_outside(args.outside_seed, args.outside_count, args.max_nodes),
              args.max_nodes, fixed=range(1, 5),
              title=f"Shogi perft positions from seeded random games (seed {args.outside_seed}), kept outside the repo.")


if __name__ == "__main__":
    main()
