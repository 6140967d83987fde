#!/usr/bin/env python3
"""Times `shishi serve` (docs/SERVE.md): how long the page takes to load, and how long an
engine move takes to arrive at 1 s per move, in each of the five games.

Usage: serve_timing.py URL [SAMPLES]

Page load: SAMPLES times, the page and its three assets fetched over new connections, one
after the other (what a browser needs before it can draw), wall time per load.
Engine move: per game, a game where the engine has sente at movetime 1000; the time from
the request that gives the engine the move (the game's creation, then each of the person's
moves) to the state showing that it is the person's turn again, polled every 5 ms. In
Shogammon an engine "move" is its whole turn (both dice, one search); in the Madness a turn
on 5e is two searches (card or roll, then the move) and its time is divided by two. Prints
min, median and max in ms.
"""

import json
import random
import statistics
import sys
import time
import urllib.request


def get(url):
    with urllib.request.urlopen(url) as r:
        return r.read()


def call(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def summary(name, ms):
    ms = sorted(ms)
    print(f"{name}: n={len(ms)} min {ms[0]:.1f} median {statistics.median(ms):.1f} max {ms[-1]:.1f} ms")


def main():
    base = sys.argv[1].rstrip("/")
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    loads = []
    for _ in range(samples):
        start = time.perf_counter()
        for path in ["/", "/page.js", "/page.css", "/favicon.svg"]:
            get(base + path)
        loads.append((time.perf_counter() - start) * 1000)
    summary("page load (4 requests)", loads)
    rng = random.Random(1)
    for variant in ["shogi", "chushogi", "chukagamigi", "shogammon", "madness"]:
        times = []
        start = time.perf_counter()
        state = call("POST", base + "/api/games", {"variant": variant, "side": "gote", "movetime_ms": 1000, "seed": 1})
        gid = state["id"]
        seen = 0
        while len(times) < 5:
            while not (state["your_turn"] or state["result"]):
                time.sleep(0.005)
                state = call("GET", f"{base}/api/games/{gid}")
            elapsed = (time.perf_counter() - start) * 1000
            # The engine's searches in this wait: each run of its decisions between chance
            # events is one `bestmove` (a Madness turn on 5e is two: card or roll, then move).
            searches, previous = 0, None
            for m in state["moves"][seen:]:
                if m["by"] not in ("chance", state["person"]) and previous != m["by"]:
                    searches += 1
                previous = m["by"]
            times.append(elapsed / max(searches, 1))
            if state["result"]:
                break
            move = rng.choice(state["legal"])
            seen = len(state["moves"])
            start = time.perf_counter()
            state = call("POST", f"{base}/api/games/{gid}/move", {"move": move})
            # Within a Shogammon or Madness turn the person may decide again at once.
            while state["your_turn"] and not state["result"]:
                seen = len(state["moves"])
                start = time.perf_counter()
                state = call("POST", f"{base}/api/games/{gid}/move", {"move": rng.choice(state["legal"])})
        call("DELETE", f"{base}/api/games/{gid}")
        summary(f"engine move at 1000 ms, {variant}", times)


if __name__ == "__main__":
    main()
