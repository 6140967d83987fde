#!/usr/bin/env bash
# Does `shishi match --concurrency K` favour one engine? Plays Shishi against itself (two
# copies of one binary, so each side's processes can be told apart) and prints, besides the
# match result, what each engine process got of the machine: its CPU seconds and the nodes
# per second and nodes per move of its searches (read from its own `info` lines, which a
# `tee` beside each engine keeps). Identical engines given identical treatment score 50 %
# within the interval; a referee or scheduler that favoured one side would show in the
# CPU and node figures first.
#
# usage: scripts/concurrency_bias.sh [GAMES] [CONCURRENCY] [TC]
#   defaults: 600 games, concurrency 2, byoyomi 0.1 s; SHISHI=path (default
#   target/release/shishi), OUT=dir (default /tmp/concurrency-bias). Resignation is
#   adjudicated at 1500 cp for 4 moves each, as in the gating matches, to save time.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-600}
CONCURRENCY=${2:-2}
TC=${3:-byo0.1}
SHISHI=${SHISHI:-target/release/shishi}
OUT=${OUT:-/tmp/concurrency-bias}

[ -x "$SHISHI" ] || { echo "no engine at $SHISHI: cargo build --release first" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT/logs"
cp "$SHISHI" "$OUT/engineA"
cp "$SHISHI" "$OUT/engineB"

# Each engine's output is kept per process ($$ is the wrapping shell's pid).
engine() {
  echo "sh -c 'exec $OUT/engine$1 | tee $OUT/logs/$1.\$\$.log'"
}

"$SHISHI" match --engine1 "$(engine A)" --engine2 "$(engine B)" --name1 A --name2 B \
  --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
  --openings positions/openings/shogi-wide.txt --out "$OUT/match" \
  --time-margin 1000 --resign-score 1500 --resign-moves 4 &
match=$!

# CPU seconds of every engine process, sampled twice a second until the match ends.
python3 - "$OUT" "$match" <<'PY' &
import json, os, sys, time
out, match = sys.argv[1], int(sys.argv[2])
tick = os.sysconf("SC_CLK_TCK")
seen = {}
while os.path.exists(f"/proc/{match}"):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
            if exe.startswith(f"{out}/engine"):
                fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
                seen[pid] = (exe[-1], (int(fields[11]) + int(fields[12])) / tick)
        except OSError:
            pass
    time.sleep(0.5)
json.dump(seen, open(f"{out}/cpu.json", "w"))
PY
sampler=$!
wait "$match"
wait "$sampler"

python3 scripts/sprt_records.py "$OUT/match/games.jsonl"
python3 - "$OUT" <<'PY'
import glob, json, os, re, statistics, sys
out = sys.argv[1]
cpu = {}
for side, seconds in json.load(open(f"{out}/cpu.json")).values():
    cpu[side] = cpu.get(side, 0.0) + seconds
print("CPU seconds:", ", ".join(f"{s} {c:.2f}" for s, c in sorted(cpu.items())))
for path in sorted(glob.glob(f"{out}/logs/*.log")):
    nps, nodes, last = [], [], None
    for line in open(path):
        if line.startswith("info") and " nps " in line:
            last = line
        elif line.startswith("bestmove") and last:
            m = re.search(r" nodes (\d+) nps (\d+) time (\d+)", last)
            if m:
                nodes.append(int(m.group(1)))
                nps.append(int(m.group(2)))
            last = None
    if nps:
        print(f"{os.path.basename(path)}: {len(nps)} moves, median nps {statistics.median(nps):.0f}, "
              f"mean nodes per move {statistics.mean(nodes):.0f}")
PY
