#!/usr/bin/env python3
"""Writes positions/openings/shogi-wide.txt (about a thousand balanced opening lines),
chukagamigi.txt and chushogi-wide.txt, the books of node-limited self-play gating.

Why: with `--tc nodes=N` two builds of Shishi play deterministically, so the 44 lines of
shogi.txt give only 88 distinct games however long the match runs (a 217-game match on
2026-11-23 held 88 distinct games). Gating needs as many distinct openings as games.

How: each line of shogi.txt is extended VARIATIONS times by EXTRA plies; at each ply the
engine (SHISHI, `go depth DEPTH` with MultiPV) lists its best moves and one is drawn at
random (seeded) among those within WINDOW cp of the best. A line is kept when the engine's
score after it, at depth DEPTH + 2, is within BALANCE cp of zero, and it is new. Every move
is checked legal by the engine itself (an illegal move gets an error, which aborts).

usage: SHISHI=target/release/shishi python3 scripts/make_wide_openings.py [> file]
Environment: VARIATIONS (24), EXTRA (6), DEPTH (6), WINDOW (40), BALANCE (150), SEED (1),
EXCLUDE (an opening file whose lines are left out, so that a second book shares no game with
the first: shogi-wide2.txt was written with SEED=2 EXCLUDE=positions/openings/shogi-wide.txt),
VARIANT (shogi; any USI_Variant of the alpha-beta games), BASE (the file of lines to extend:
shogi.txt for shogi; for the other games the start position alone, extended VARIATIONS times).
positions/openings/chukagamigi.txt was written with
VARIANT=chukagamigi VARIATIONS=500 EXTRA=8 DEPTH=4 WINDOW=30 BALANCE=100, chushogi-wide.txt
(797 lines, 1 min 28 s on one core) with
VARIANT=chushogi VARIATIONS=2000 EXTRA=10 DEPTH=4 WINDOW=60 BALANCE=150.
"""
import os
import random
import subprocess
import sys

ENGINE = os.environ.get("SHISHI", "target/release/shishi")
VARIATIONS = int(os.environ.get("VARIATIONS", "24"))
EXTRA = int(os.environ.get("EXTRA", "6"))
DEPTH = int(os.environ.get("DEPTH", "6"))
WINDOW = int(os.environ.get("WINDOW", "40"))
BALANCE = int(os.environ.get("BALANCE", "150"))
SEED = int(os.environ.get("SEED", "1"))
EXCLUDE = os.environ.get("EXCLUDE")
VARIANT = os.environ.get("VARIANT", "shogi")
BASE = os.environ.get("BASE")
MULTIPV = 6


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        self.send(f"setoption name MultiPV value {MULTIPV}")
        if VARIANT != "shogi":
            self.send(f"setoption name USI_Variant value {VARIANT}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine closed while waiting for {token}")
            line = line.strip()
            if "info string error" in line:
                sys.exit(f"engine: {line}")
            lines.append(line)
            if line.startswith(token):
                return lines

    def scored_moves(self, moves, depth):
        """[(score, move)] of the last complete iteration, best first."""
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go depth {depth}")
        best = {}
        for line in self.wait("bestmove"):
            w = line.split()
            if not line.startswith("info") or "multipv" not in w or "pv" not in w:
                continue
            if "lowerbound" in w or "upperbound" in w or "cp" not in w:
                continue
            d = int(w[w.index("depth") + 1])
            k = int(w[w.index("multipv") + 1])
            best[(d, k)] = (int(w[w.index("cp") + 1]), w[w.index("pv") + 1])
        if not best:
            return []
        top = max(d for d, _ in best)
        return sorted((v for (d, _), v in best.items() if d == top), reverse=True)


def book_lines(path):
    """The move lists of an opening file, comments and blank lines left out."""
    lines = []
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            lines.append(line.split())
    return lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    base_file = BASE
    if base_file is None and VARIANT == "shogi":
        base_file = os.path.join(here, "..", "positions", "openings", "shogi.txt")
    base = book_lines(base_file) if base_file else [[]]
    rng = random.Random(SEED)
    engine = Engine(ENGINE)
    seen = set()
    excluded = {" ".join(moves) for moves in book_lines(EXCLUDE)} if EXCLUDE else set()
    game = "standard-shogi" if VARIANT == "shogi" else VARIANT
    source = f"each line of {os.path.basename(base_file)}" if base_file else "the start position"
    print(f"# Wide {game} openings for node-limited gating (USI moves from the start")
    print(f"# position), written by scripts/make_wide_openings.py: {source}")
    print(f"# extended by {EXTRA} plies drawn among the engine's moves within {WINDOW} cp of")
    print(f"# its best at depth {DEPTH}, kept when the score after it is within {BALANCE} cp.")
    print(f"# Seed {SEED}" + (f"; no line of {os.path.basename(EXCLUDE)}." if EXCLUDE else "."))
    for line in base:
        for _ in range(VARIATIONS):
            moves = list(line)
            for _ in range(EXTRA):
                scored = engine.scored_moves(moves, DEPTH)
                if not scored:
                    break
                choices = [m for s, m in scored if s >= scored[0][0] - WINDOW]
                moves.append(rng.choice(choices))
            key = " ".join(moves)
            if key in seen or key in excluded:
                continue
            final = engine.scored_moves(moves, DEPTH + 2)
            if not final or abs(final[0][0]) > BALANCE:
                continue
            seen.add(key)
            print(key, flush=True)
    print(f"{len(seen)} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
