#!/usr/bin/env python3
"""Checks the records of a `shishi match` output directory with cshogi (pip install cshogi).

  python3 scripts/check_match_records.py OUT_DIR

For every standard-shogi line of OUT_DIR/games.jsonl it checks the following:
* the `usi` line replays legally;
* games/NNNN.kifu and games/NNNN.csa load with cshogi's parsers;
* both records hold the same moves as the USI line, and their winner agrees with `result`
  (cshogi cannot tell the winner of an adjudicated win with the winner to move, or of a
  perpetual check in KIF; those are only checked for moves).
Games of other variants (`variant` chushogi, chukagamigi) have no KIF or CSA: their `usi`
line is replayed with Shishi's own rules (`target/release/shishi perft --moves …`, which
refuses an illegal move), and games/NNNN.usi must end with the same line.
It prints one line per problem and a count, and exits non-zero when something is wrong.
"""
import json
import os
import subprocess
import sys

import cshogi
import cshogi.CSA
import cshogi.KIF

WIN = {"1-0": cshogi.BLACK_WIN, "0-1": cshogi.WHITE_WIN, "1/2-1/2": cshogi.DRAW}


def check_other_variant(out, g):
    """Replays a non-shogi game with shishi's rules; returns the number of problems."""
    n = g["game"]
    words = g["usi"].split()
    end = words.index("moves") if "moves" in words else len(words)
    cmd = [SHISHI, "perft", "--variant", g["variant"], "--depth", "1"]
    cmd += ["--startpos"] if words[1] == "startpos" else ["--sfen", " ".join(words[2:end])]
    if end < len(words):
        cmd += ["--moves", " ".join(words[end + 1:])]
    problems = 0
    replay = subprocess.run(cmd, capture_output=True, text=True)
    if replay.returncode != 0:
        print(f"game {n}: the usi line does not replay: {replay.stderr.strip()}")
        problems += 1
    record = os.path.join(out, "games", f"{n:04}.usi")
    lines = open(record).read().splitlines() if os.path.exists(record) else []
    if not lines or lines[-1] != g["usi"]:
        print(f"game {n}: games/{n:04}.usi does not end with the usi line")
        problems += 1
    return problems


SHISHI = os.environ.get("SHISHI", "target/release/shishi")


def main():
    out = sys.argv[1]
    problems = 0
    games = [json.loads(l) for l in open(os.path.join(out, "games.jsonl")) if l.strip()]
    for g in games:
        n = g["game"]
        if g.get("variant", "shogi") != "shogi":
            problems += check_other_variant(out, g)
            continue
        words = g["usi"].split()
        board = cshogi.Board()
        if words[1] == "sfen":
            end = words.index("moves") if "moves" in words else len(words)
            board.set_sfen(" ".join(words[2:end]))
            moves = words[end + 1:]
        else:
            moves = words[3:]
        for m in moves:
            mv = board.move_from_usi(m)
            if mv == 0 or not board.is_legal(mv):
                print(f"game {n}: illegal move {m} in the usi line")
                problems += 1
                break
            board.push(mv)
        stem = os.path.join(out, "games", f"{n:04}")
        try:
            kif = cshogi.KIF.Parser.parse_file(stem + ".kifu")
            csa = cshogi.CSA.Parser.parse_file(stem + ".csa")[0]
        except Exception as e:  # noqa: BLE001 - any parser failure is a finding
            print(f"game {n}: a record does not load: {e}")
            problems += 1
            continue
        for name, rec in (("kifu", kif), ("csa", csa)):
            got = [cshogi.move_to_usi(m) for m in rec.moves]
            if got != moves:
                print(f"game {n}: the {name} moves differ from the usi line")
                problems += 1
        unclear = g["reason"] in ("adjudicated-win",) or (g["reason"] == "perpetual-check")
        if not unclear and csa.win != WIN[g["result"]]:
            print(f"game {n}: the csa winner {csa.win} is not {g['result']}")
            problems += 1
    print(f"{len(games)} games checked, {problems} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
