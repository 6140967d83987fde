#!/usr/bin/env python3
"""Pentanomial counts, Elo interval and SPRT log-likelihood ratio of one or more
`shishi match` records taken together.

Why: a node-limited gate can outlive its opening book (a book of N lines gives 2N distinct
games), and a match stopped undecided may be continued from a second book. The SPRT is
sequential, so the evidence of both matches adds up: this script sums the pentanomial counts
of every record (same two engines, engine 1 the change) and computes what `shishi match
--sprt` would print for the sum, with the same formulas as src/referee/stats.rs (pairs are
games 2k-1 and 2k of one record; a record's unfinished pair is left out). It also counts
distinct game records across all files, which must equal the number of games.

A part whose records are gone (played on a machine that was not kept) enters by its counts
as they were written down then: `--part WINS,DRAWS,LOSSES:P0,P1,P2,P3,P4` (engine 1's W-D-L
and its pentanomial counts, pairs scoring 0, 0.5, 1, 1.5 and 2); it adds to the totals but
not to the distinct games, which only records can show.

usage: scripts/sprt_records.py [--elo0 0] [--elo1 10] [--alpha 0.05] [--beta 0.05]
           [--part W,D,L:P0,P1,P2,P3,P4 ...] [DIR/games.jsonl ...]
"""
import argparse
import json
import math

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
VALUES = [0.0, 0.25, 0.5, 0.75, 1.0]


def read(path):
    """The record's games by number, and its W-D-L for engine 1."""
    games = {}
    for line in open(path):
        line = line.strip()
        if line:
            game = json.loads(line)
            games[game["game"]] = game
    return games


def pentanomial(games):
    counts = [0] * 5
    for first in range(1, max(games, default=0) + 1, 2):
        if first in games and first + 1 in games:
            pair = sum(POINTS[games[g]["engine1_result"]] for g in (first, first + 1))
            counts[int(pair * 2)] += 1
    return counts


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def mean_and_variance(counts):
    """Of the pair score, with the 1e-3 prior per cell of stats.rs."""
    c = [n + 1e-3 for n in counts]
    total = sum(c)
    mean = sum(n * v for n, v in zip(c, VALUES)) / total
    var = sum(n * (v - mean) ** 2 for n, v in zip(c, VALUES)) / total
    return mean, var


def llr(counts, elo0, elo1):
    mean, var = mean_and_variance(counts)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return sum(counts) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def recorded_part(text):
    """`W,D,L:P0,P1,P2,P3,P4` as (W-D-L, pentanomial counts), checked for consistency."""
    try:
        wdl_text, counts_text = text.split(":")
        wdl = [int(n) for n in wdl_text.split(",")]
        counts = [int(n) for n in counts_text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not W,D,L:P0,P1,P2,P3,P4")
    if len(wdl) != 3 or len(counts) != 5 or min(wdl + counts) < 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not W,D,L:P0,P1,P2,P3,P4")
    points_from_pairs = sum(n * v * 2 for n, v in zip(counts, VALUES))
    if 2 * sum(counts) > sum(wdl) or points_from_pairs > wdl[0] + wdl[1] / 2:
        raise argparse.ArgumentTypeError(f"'{text}': the pairs hold more than the games")
    return wdl, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("records", nargs="*")
    ap.add_argument("--part", type=recorded_part, action="append", default=[],
                    help="a part known only by its counts: W,D,L:P0,P1,P2,P3,P4")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args()

    total = [0] * 5
    wdl = [0, 0, 0]
    lines = set()
    games_seen = 0
    for path in args.records:
        games = read(path)
        counts = pentanomial(games)
        results = [g["engine1_result"] for g in games.values()]
        w, d, l = (results.count(r) for r in ("win", "draw", "loss"))
        print(f"{path}: {len(games)} games +{w} ={d} -{l} pentanomial {counts}")
        total = [a + b for a, b in zip(total, counts)]
        wdl = [wdl[0] + w, wdl[1] + d, wdl[2] + l]
        lines.update(g["usi"] for g in games.values())
        games_seen += len(games)
    for (w, d, l), counts in args.part:
        print(f"part without records: {w + d + l} games +{w} ={d} -{l} pentanomial {counts}")
        total = [a + b for a, b in zip(total, counts)]
        wdl = [wdl[0] + w, wdl[1] + d, wdl[2] + l]
        games_seen += w + d + l
    pairs = sum(total)
    if pairs == 0:
        print("no finished pair")
        return
    mean, var = mean_and_variance(total)
    half = 1.96 * math.sqrt(var / pairs)
    clamp = lambda s: min(max(s, 1e-6), 1 - 1e-6)
    lower, upper = (math.log((args.beta) / (1 - args.alpha)),
                    math.log((1 - args.beta) / args.alpha))
    ratio = llr(total, args.elo0, args.elo1)
    verdict = "H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else \
        "no decision yet"
    print(f"together: {games_seen} games ({len(lines)} distinct among the records) "
          f"+{wdl[0]} ={wdl[1]} "
          f"-{wdl[2]}, pentanomial {total} over {pairs} pairs")
    print(f"pair score {mean:.4f}, Elo {elo_from_score(clamp(mean)):+.1f} "
          f"(95 % {elo_from_score(clamp(mean - half)):+.1f} to "
          f"{elo_from_score(clamp(mean + half)):+.1f})")
    print(f"SPRT [{args.elo0:g}, {args.elo1:g}]: LLR {ratio:.3f} in [{lower:.3f}, "
          f"{upper:.3f}]: {verdict}")


if __name__ == "__main__":
    main()
