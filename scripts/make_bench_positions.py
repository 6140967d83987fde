#!/usr/bin/env python3
"""Makes bench positions for a variant by self-play: Shishi plays itself at a fixed depth
from the start position (with a seeded choice among the first moves for variety) and the
positions at the given plies are printed as USI `position` arguments (startpos moves ...),
ready for positions/bench/<variant>.sfen.

usage: scripts/make_bench_positions.py VARIANT [--depth 4] [--plies 16,32,48] [--games 3]
"""
import argparse
import random
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("--engine", default="target/release/shishi")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--plies", default="16,32,48")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    plies = [int(p) for p in args.plies.split(",")]
    rng = random.Random(args.seed)
    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            if line.startswith(prefix):
                return line.strip()

    send("usi")
    until("usiok")
    send(f"setoption name USI_Variant value {args.variant}")
    send("isready")
    until("readyok")
    for _ in range(args.games):
        moves = []
        # Two random opening moves for variety, chosen among the best eight at depth 2.
        send("setoption name MultiPV value 8")
        for _ in range(2):
            send("position startpos moves " + " ".join(moves))
            send("go depth 2")
            lines = []
            while True:
                line = engine.stdout.readline().strip()
                if line.startswith("bestmove"):
                    break
                if " depth 2 " in line and " pv " in line and "bound" not in line:
                    lines.append(line.split(" pv ")[1].split()[0])
            moves.append(rng.choice(lines) if lines else line.split()[1])
        send("setoption name MultiPV value 1")
        for ply in range(len(moves), max(plies) + 1):
            if ply in plies:
                # Written as USI `position` arguments, which `shishi bench` reads.
                print("startpos moves " + " ".join(moves), flush=True)
            send("position startpos moves " + " ".join(moves))
            send(f"go depth {args.depth}")
            best = until("bestmove").split()[1]
            if best in ("resign", "win"):
                break
            moves.append(best)
    send("quit")


if __name__ == "__main__":
    main()
