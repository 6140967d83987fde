#!/usr/bin/env python3
"""How deep, and with how many nodes, Shishi's Shogammon search goes from the start of every
turn of recorded games, with the hand-written evaluation or the built-in net.

Why: a Shogammon search completes depth 1 (one turn) in a handful of nodes and depth 2 (the
turn, the enemy's 21 rolls, the enemy's turn) in thousands to hundreds of thousands, and an
iteration cut short is thrown away; so a node or time limit decides which of the two a move
comes from. `--go "nodes 30000"` counts the turns by the deepest iteration completed;
`--go "depth 2"` sums the nodes each evaluation needs for the same depth (its tree size),
as each search's last `info` line gives them.
docs/NNUE.md, "Round three", has the numbers this gave.

Positions: right after each roll (`r:..`) of the first `--games` records of a `shishi match`
record (`DIR/games.jsonl`), searched one after another by one engine process (the table is
kept between them, as in a game).

usage: scripts/shogammon_turn_depths.py [--engine target/release/shishi] [--games 3]
           [--go "depth 2"] [--eval hand-written|net] DIR/games.jsonl
"""
import argparse
import collections
import json
import subprocess


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="a shishi match record's games.jsonl")
    parser.add_argument("--engine", default="target/release/shishi")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--go", default="depth 2", help="the limit: 'depth N' or 'nodes N'")
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
    nodes = 0
    turns = 0
    for game in games:
        tokens = game["usi"].split()
        moves = tokens[tokens.index("moves") + 1 :] if "moves" in tokens else []
        for i, token in enumerate(moves):
            if not token.startswith("r:"):
                continue
            send("position startpos moves " + " ".join(moves[: i + 1]))
            send("go " + args.go)
            infos = [l for l in read_until("bestmove") if l[:2] == ["info", "depth"]]
            depths[int(infos[-1][2]) if infos else 0] += 1
            nodes += int(infos[-1][infos[-1].index("nodes") + 1]) if infos else 0
            turns += 1
    send("quit")
    engine.wait()
    print(
        f"{args.eval}, go {args.go}: {turns} turn starts of {len(games)} games; "
        f"deepest completed iteration: {dict(sorted(depths.items()))}; "
        f"nodes (summed from each search's last info line): {nodes}"
    )


if __name__ == "__main__":
    main()
