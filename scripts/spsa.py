#!/usr/bin/env python3
"""SPSA tuning of an engine's numeric USI options by self-play through `shishi match`.

Each iteration k perturbs every parameter by +/- c_k (a random sign per parameter), plays
GAMES games (pairs, colours swapped) of the engine with theta + delta against the same
engine with theta - delta, and moves theta along the measured score difference:

    theta_i += a_k * step_i^2 * (score - 0.5) * 2 / (c_k,i * delta_i)   (clamped to [min, max])

where delta_i is +1 or -1, a_k = A_SCALE / (k + 1 + A_OFFSET)^0.602 and
c_k,i = step_i / (k + 1)^0.101 (the usual SPSA gain schedules); the step_i^2 factor makes
A_SCALE the same for parameters of any size (at a 100 % score theta_i moves by
a_k * step_i * (k + 1)^0.101). The state (theta and k) is written to --state after every iteration,
so a run can be stopped and resumed.

    scripts/spsa.py --engine target/release/shishi \
        --param NAME:START:MIN:MAX:STEP [--param ...] \
        [--games 8] [--tc nodes=30000] [--iterations 200] [--state spsa.json] \
        [--concurrency 2] [--match-arg=--resign-score --match-arg=1500 ...]

A parameter is any spin option the engine accepts: one it lists after `usi`, or one of
Shishi's hidden search parameters (`Search_...`, src/search/params.rs, docs/STRENGTH.md).
The script checks before it starts that `setoption` takes the start value without an
`info string error`. Each iteration plays its pairs from GAMES/2 lines drawn at random from
the opening file (default the 714 lines of positions/openings/shogi-wide.txt), so that
node-limited games, which are deterministic, do not replay the same few openings.

    scripts/spsa.py --engine target/release/shishi --tc nodes=30000 --games 8 \
        --param Search_FutilityMargin:120:40:300:20 --param Search_LmrDivisor:220:120:400:20

`--variant chushogi` (or any game `shishi match` referees) tunes in that game, from
positions/openings/VARIANT.txt unless --openings says otherwise: the games ShogiArena cannot
referee (docs/STRENGTH.md).
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

OPENINGS = "positions/openings/shogi-wide.txt"


def parse_param(text):
    name, start, low, high, step = text.split(":")
    return {
        "name": name,
        "value": float(start),
        "min": float(low),
        "max": float(high),
        "step": float(step),
    }


def refused_options(engine, params):
    """The parameters whose start value the engine's `setoption` refuses (or does not know)."""
    commands = ["usi"]
    for p in params:
        commands.append(f"setoption name {p['name']} value {round(p['value'])}")
    commands += ["isready", "quit"]
    answer = subprocess.run(
        [engine], input="\n".join(commands) + "\n", capture_output=True, text=True,
        timeout=30,
    ).stdout
    errors = [line for line in answer.splitlines() if line.startswith("info string error")]
    return [p["name"] for p in params if any(p["name"] in line for line in errors)]


def opening_sample(path, pairs, rng):
    """A temporary file of `pairs` lines drawn at random from the opening file `path`."""
    with open(path) as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    handle, sample = tempfile.mkstemp(prefix="spsa-openings-", suffix=".txt")
    with os.fdopen(handle, "w") as f:
        f.writelines(rng.sample(lines, min(pairs, len(lines))))
    return sample


def play(args, plus, minus, iteration, openings):
    """Engine 1 (theta + delta) against engine 2 (theta - delta): engine 1's score."""
    out = tempfile.mkdtemp(prefix=f"spsa-{iteration}-")
    command = [
        args.shishi,
        "match",
        "--engine1", args.engine, "--name1", "plus",
        "--engine2", args.engine, "--name2", "minus",
        "--variant", args.variant,
        "--games", str(args.games), "--tc", args.tc,
        "--concurrency", str(args.concurrency),
        "--openings", openings, "--out", out,
    ]
    command += args.match_arg
    for name, value in plus.items():
        command += ["--option1", f"{name}={round(value)}"]
    for name, value in minus.items():
        command += ["--option2", f"{name}={round(value)}"]
    try:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        points = 0.0
        games = 0
        with open(os.path.join(out, "games.jsonl")) as records:
            for line in records:
                game = json.loads(line)
                points += {"win": 1.0, "draw": 0.5, "loss": 0.0}[game["engine1_result"]]
                games += 1
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if games == 0:
        sys.exit("shishi match finished no game")
    return points / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the engine to tune")
    parser.add_argument("--shishi", default="target/release/shishi", help="the referee")
    parser.add_argument("--param", action="append", required=True, type=parse_param)
    parser.add_argument("--games", type=int, default=8, help="games per iteration (even)")
    parser.add_argument("--tc", default="nodes=30000")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="games of an iteration played at once")
    parser.add_argument("--match-arg", action="append", default=[],
                        help="one more argument for `shishi match` (repeat it: "
                        "--match-arg=--resign-score --match-arg=1500)")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--variant", default="shogi",
                        help="the game (shishi match --variant): shogi, chushogi, chukagamigi…")
    parser.add_argument("--openings", default=None,
                        help=f"opening file (default {OPENINGS} for shogi, "
                        "positions/openings/VARIANT.txt otherwise)")
    parser.add_argument("--state", default="spsa.json")
    parser.add_argument("--a-scale", type=float, default=1.0)
    parser.add_argument("--a-offset", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.openings is None:
        args.openings = OPENINGS if args.variant == "shogi" else f"positions/openings/{args.variant}.txt"
    if args.games % 2:
        sys.exit("--games must be even (games are played in colour-swapped pairs)")
    refused = refused_options(args.engine, args.param)
    if refused:
        sys.exit(f"the engine refuses the option(s) {', '.join(refused)} at their start values")

    params = args.param
    start = 0
    if os.path.exists(args.state):
        with open(args.state) as f:
            saved = json.load(f)
        start = saved["iteration"]
        for p in params:
            p["value"] = saved["theta"].get(p["name"], p["value"])
    rng = random.Random(args.seed + start)

    for k in range(start, args.iterations):
        a_k = args.a_scale / (k + 1 + args.a_offset) ** 0.602
        signs = {p["name"]: rng.choice((-1, 1)) for p in params}
        c = {p["name"]: p["step"] / (k + 1) ** 0.101 for p in params}
        plus = {}
        minus = {}
        for p in params:
            shift = signs[p["name"]] * c[p["name"]]
            plus[p["name"]] = min(p["max"], max(p["min"], p["value"] + shift))
            minus[p["name"]] = min(p["max"], max(p["min"], p["value"] - shift))
        openings = opening_sample(args.openings, args.games // 2, rng)
        try:
            score = play(args, plus, minus, k, openings)
        finally:
            os.remove(openings)
        for p in params:
            gradient = (score - 0.5) * 2 / (c[p["name"]] * signs[p["name"]])
            step = a_k * gradient * p["step"] ** 2
            p["value"] = min(p["max"], max(p["min"], p["value"] + step))
        theta = {p["name"]: p["value"] for p in params}
        print(f"iteration {k + 1}: score {score:.3f} theta {json.dumps(theta)}", flush=True)
        with open(args.state, "w") as f:
            json.dump({"iteration": k + 1, "theta": theta}, f)


if __name__ == "__main__":
    main()
