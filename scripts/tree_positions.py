#!/usr/bin/env python3
"""Tree size over many game positions: the nodes Shishi needs to complete a fixed depth in
each of a set of middle-game positions, one thread, for two settings, and how the two compare
position by position.

Why: `shishi bench` searches 8 fixed positions, and one or two of them can decide a total
(a single position searched ten times larger). Comparing two evaluations or two search
settings needs many positions and the distribution of the ratio, not one sum.

The positions are USI move lists from the start position, one per line (`--positions FILE`;
positions/tree/shogi-games.txt holds 118 middle-game positions from net-against-hand games
at byoyomi 0.1 s), or are taken from `shishi match` records (`--records DIR`, its
`games/*.usi`): from each of the first `--games` games, the position after each ply in
`--plies` (if the game went at least four plies further); `--save FILE` writes them as a
positions file. Each position is searched after `usinewgame` (empty table and histories), in
one engine process per setting, `go depth D`; the nodes are those of the last `info depth D`
line that is not a bound.

usage: scripts/tree_positions.py (--positions FILE | --records DIR [--games 40]
           [--plies 30,50,70] [--save FILE]) [--depth 9] [--engine target/release/shishi]
           [--a NAME=VALUE ...] [--b NAME=VALUE ...]
  e.g. --b ShogiEval=hand-written (setting A: the defaults, the built-in net; setting B:
  the hand-written evaluation)
"""
import argparse
import glob
import math
import re
import statistics
import subprocess


def positions(records, games, plies):
    """USI move lists (startpos moves ...) taken from the match records."""
    out = []
    for path in sorted(glob.glob(f"{records}/games/*.usi"))[:games]:
        moves = []
        for line in open(path):
            m = re.match(r"#\s+(\d+)\. (\S+)", line)
            if m:
                moves.append(m.group(2))
        for ply in plies:
            if len(moves) >= ply + 4:
                out.append(" ".join(moves[:ply]))
    return out


def search_all(engine, options, lines, depth):
    """Nodes to complete `depth` in each position, with the USI options given."""
    proc = subprocess.Popen(
        [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)

    def send(text):
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def until(prefix):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit(f"{engine} stopped before {prefix!r}")
            if line.startswith(prefix):
                return line

    send("usi")
    until("usiok")
    send("setoption name Threads value 1")
    for option in options:
        name, value = option.split("=", 1)
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    nodes = []
    for moves in lines:
        send("usinewgame")
        send(f"position startpos moves {moves}")
        send(f"go depth {depth}")
        found = None
        while True:
            line = until("")
            if line.startswith(f"info depth {depth} ") and " bound" not in line:
                found = int(line.split(" nodes ")[1].split()[0])
            if line.startswith("bestmove"):
                break
        if found is None:
            raise SystemExit(f"no completed depth {depth} for: {moves}")
        nodes.append(found)
    send("quit")
    proc.wait()
    return nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--positions")
    source.add_argument("--records")
    ap.add_argument("--save")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--plies", default="30,50,70")
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--engine", default="target/release/shishi")
    ap.add_argument("--a", nargs="*", default=[], metavar="NAME=VALUE")
    ap.add_argument("--b", nargs="*", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    if args.positions:
        lines = [line.strip() for line in open(args.positions) if line.strip()]
    else:
        plies = [int(p) for p in args.plies.split(",")]
        lines = positions(args.records, args.games, plies)
    if not lines:
        raise SystemExit("no positions")
    if args.save:
        with open(args.save, "w") as out:
            out.writelines(line + "\n" for line in lines)
    a = search_all(args.engine, args.a, lines, args.depth)
    b = search_all(args.engine, args.b, lines, args.depth)
    ratios = sorted(y / x for x, y in zip(a, b))
    quantiles = [ratios[round(q * (len(ratios) - 1))] for q in (0, 0.1, 0.25, 0.5, 0.75, 0.9, 1)]
    geometric = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"{len(lines)} positions, depth {args.depth}")
    print(f"A {' '.join(args.a) or '(defaults)'}: {sum(a)} nodes, median {statistics.median(a)}")
    print(f"B {' '.join(args.b) or '(defaults)'}: {sum(b)} nodes, median {statistics.median(b)}")
    print(f"B/A: total {sum(b) / sum(a):.3f}, geometric mean {geometric:.3f}")
    print("B/A quantiles (0, 10, 25, 50, 75, 90, 100 %): "
          + ", ".join(f"{q:.2f}" for q in quantiles))


if __name__ == "__main__":
    main()
