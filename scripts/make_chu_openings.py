#!/usr/bin/env python3
"""Writes positions/openings/chushogi.txt: short, varied Chu Shogi openings as USI move
lists from the start position, made from random and engine play and checked legal.

Each opening starts with RANDOM_PLIES random pawn or Go-Between steps (a seeded choice
among the legal moves that `shishi perft --divide` lists), which makes the lines differ;
HaChu then plays both sides for ENGINE_PLIES more plies through `shishi match` (which checks
every move with the rules core), so the lines look like play rather than noise. Every line
is checked again with `shishi perft --moves … --depth 1` (it refuses an illegal move).

Run from the repository root (needs hachu: scripts/install_hachu.sh):
    python3 scripts/make_chu_openings.py [COUNT] [SEED] > positions/openings/chushogi.txt
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

SHISHI = "target/release/shishi"
RANDOM_PLIES = 4
ENGINE_PLIES = 6
# A pawn or Go-Between one step forward: sente moves up the board (rank letters go down),
# gote down.
STEP = re.compile(r"^(\d+)([a-l])(\d+)([a-l])$")


def legal_moves(moves):
    cmd = [SHISHI, "perft", "--variant", "chushogi", "--startpos", "--depth", "1", "--divide"]
    if moves:
        cmd += ["--moves", " ".join(moves)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [line.split(":")[0] for line in out.splitlines() if line.endswith(": 1")]


def is_forward_step(move, sente, start_ranks):
    m = STEP.match(move)
    if not m or m.group(1) != m.group(3):
        return False
    step = ord(m.group(4)) - ord(m.group(2))
    return (step == -1 if sente else step == 1) and m.group(2) in start_ranks


def random_prefix(rng):
    moves = []
    for ply in range(RANDOM_PLIES):
        sente = ply % 2 == 0
        # Pawns start on rank i (sente) / d (gote), Go-Betweens on h / e.
        ranks = "ih" if sente else "de"
        options = [m for m in legal_moves(moves) if is_forward_step(m, sente, ranks)]
        moves.append(rng.choice(options))
    return moves


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    hachu = subprocess.run(["scripts/install_hachu.sh"], capture_output=True, text=True,
                           check=True).stdout.strip()
    prefixes = []
    while len(prefixes) < count:
        p = random_prefix(rng)
        if p not in prefixes:
            prefixes.append(p)
    with tempfile.TemporaryDirectory() as tmp:
        seeds = os.path.join(tmp, "seeds.txt")
        with open(seeds, "w") as f:
            for p in prefixes:
                f.write(" ".join(p) + "\n")
        out = os.path.join(tmp, "match")
        # One game per seed line: game 2k uses line k (pairs share a line), so ask for
        # 2*count games and keep the first of each pair.
        played = subprocess.run(
            [SHISHI, "match", "--variant", "chushogi",
             "--engine1", hachu, "--proto1", "cecp", "--option1", "Allow repeats=1",
             "--engine2", hachu, "--proto2", "cecp", "--option2", "Allow repeats=1",
             "--games", str(2 * count), "--tc", "movetime=300", "--time-margin", "1000",
             "--concurrency", "2", "--max-moves", str(RANDOM_PLIES + ENGINE_PLIES),
             "--openings", seeds, "--out", out],
            capture_output=True, text=True)
        if played.returncode != 0:
            sys.exit(f"shishi match failed:\n{played.stderr}")
        lines = []
        with open(os.path.join(out, "games.jsonl")) as f:
            for raw in f:
                game = json.loads(raw)
                if game["game"] % 2 == 0 or game["reason"] != "move-limit":
                    continue
                moves = game["usi"].split()[3:]
                if moves not in lines:
                    lines.append(moves)
    print("# Chu Shogi openings for `shishi match --variant chushogi`: USI moves from the start")
    print(f"# position, {RANDOM_PLIES} random pawn/Go-Between steps then {ENGINE_PLIES} plies of HaChu")
    print(f"# (movetime 300 ms). Written by scripts/make_chu_openings.py {count} {seed}.")
    for moves in lines:
        subprocess.run([SHISHI, "perft", "--variant", "chushogi", "--startpos", "--moves",
                        " ".join(moves), "--depth", "1"], check=True, capture_output=True)
        print(" ".join(moves))


if __name__ == "__main__":
    main()
