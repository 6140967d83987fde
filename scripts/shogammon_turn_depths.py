#!/usr/bin/env python3
"""How deep Shishi's Shogammon search gets under a node limit from the start of every turn of
recorded games, with the hand-written evaluation or the built-in net.

Why: a Shogammon search completes depth 1 (one turn) in a handful of nodes and depth 2 (the
turn, the enemy's 21 rolls, the enemy's turn) in thousands to hundreds of thousands, and an
iteration cut short is thrown away; so a node or time limit decides which of the two a move
comes from. This counts the turns by the deepest iteration completed. (The nodes each
evaluation needs for the same depth, its tree size, are `scripts/tree_positions.py`'s.)
docs/NNUE.md, "Round three", has the numbers this gave.

Positions: right after each roll (`r:..`) of the first `--games` records of a `shishi match`
record (`DIR/games.jsonl`), searched one after another by one engine process (the table is
kept between them, as in a game).

usage: scripts/shogammon_turn_depths.py [--engine target/release/shishi] [--games 6]
           [--nodes 30000] [--eval hand-written|net] DIR/games.jsonl
"""
import argparse
import collections
import json
import subprocess


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="a shishi match record's games.jsonl")
    parser.add_argument("--engine", default="target/release/shishi")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--nodes", type=int, default=30000, help="the node limit of each search")
    parser.add_argument("--eval", default="hand-written", choices=["hand-written", "net"])
    args = parser.parse_args()

    with open(args.record) as f:
        games = [json.loads(line) for line in f][: args.games]
    engine = subprocess.Popen(
        [args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def read_until(prefix):
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("the engine ended")
            lines.append(line.split())
            if line.startswith(prefix):
                return lines

    send("usi")
    read_until("usiok")
    send("setoption name USI_Variant value shogammon")
    send("setoption name ShogammonEval value " + args.eval)
    send("isready")
    read_until("readyok")

    depths = collections.Counter()
    for game in games:
        tokens = game["usi"].split()
        moves = tokens[tokens.index("moves") + 1 :] if "moves" in tokens else []
        for i, token in enumerate(moves):
            if not token.startswith("r:"):
                continue
            send("position startpos moves " + " ".join(moves[: i + 1]))
            send(f"go nodes {args.nodes}")
            infos = [l for l in read_until("bestmove") if l[:2] == ["info", "depth"]]
            depths[int(infos[-1][2]) if infos else 0] += 1
    send("quit")
    engine.wait()
    print(
        f"{args.eval}, go nodes {args.nodes}: {sum(depths.values())} turn starts of "
        f"{len(games)} games; deepest completed iteration: {dict(sorted(depths.items()))}"
    )


if __name__ == "__main__":
    main()
