#!/usr/bin/env bash
# How Shishi's search scales with threads (issue 14), over USI as a GUI would drive it:
#  1. standard shogi, four positions (the start, the position after 7g7f 3c3d 2g2f, and the
#     3rd and 5th positions of positions/bench/shogi.sfen), `go depth DEPTH` with USI_Hash
#     HASH: for each thread count the time to depth DEPTH (the main thread's exact `info
#     depth DEPTH` line), the nodes per second at the end and the CPU time the search got
#     (per second of wall time: 2.0 means two full cores);
#     then geometric means against one thread;
#  2. the same for the chance search's parallel mode: Shogammon, the first four positions of
#     positions/bench/shogammon.sfen, `go depth CHANCE_DEPTH` (whole turns);
#  3. a fixed-time match, MATCH_THREADS threads against one, with `shishi match`
#     (`--concurrency 1`, so each thread can have a core; the paired shogi openings;
#     `NetworkDelay 0` and `NetworkDelay2 0` for both, resignation at 2000 cp for 3 moves).
#     On a machine others use, switch the kernel's autogroup off first (as root:
#     `echo 0 > /proc/sys/kernel/sched_autogroup_enabled`), or `nice` does not give the
#     match priority over builds started in other sessions (docs/STRENGTH.md).
# Each engine run is a fresh process; runs are interleaved thread count by thread count, so a
# change in the machine's load hits every count alike. Take medians over RUNS on a loaded
# machine; the load average is printed.
#
#   scripts/threads.sh
#
# Environment: BIN (target/release/shishi), DEPTH (16), HASH (1024), THREADS (1 2 4 … up to
# nproc, and nproc), MODES (lazysmp rootsplit), RUNS (1), CHANCE_DEPTH (3; 0 skips part 2),
# MATCH_GAMES (0 skips part 3), MATCH_TC (byo0.3), MATCH_THREADS (nproc), MATCH_MODE
# (lazysmp), MATCH_VARIANT (shogi), OUT (target/matches/threads-<time>).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-target/release/shishi}
NPROC=$(nproc)
if [ -z "${THREADS:-}" ]; then
    THREADS=""
    t=1
    while [ "$t" -lt "$NPROC" ]; do
        THREADS="$THREADS $t"
        t=$((t * 2))
    done
    THREADS="$THREADS $NPROC"
fi
export BIN THREADS
export DEPTH=${DEPTH:-16} HASH=${HASH:-1024} MODES=${MODES:-lazysmp rootsplit} RUNS=${RUNS:-1}
export CHANCE_DEPTH=${CHANCE_DEPTH:-3}
MATCH_GAMES=${MATCH_GAMES:-0}
MATCH_TC=${MATCH_TC:-byo0.3}
MATCH_THREADS=${MATCH_THREADS:-$NPROC}
MATCH_MODE=${MATCH_MODE:-lazysmp}
MATCH_VARIANT=${MATCH_VARIANT:-shogi}
OUT=${OUT:-target/matches/threads-$(date -u +%Y%m%d-%H%M%S)}

[ -x "$BIN" ] || cargo build --release
echo "# $(date -u) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - <<'EOF'
import math, os, statistics, subprocess, time

BIN = os.environ["BIN"]
THREADS = [int(t) for t in os.environ["THREADS"].split()]
DEPTH, HASH, RUNS = int(os.environ["DEPTH"]), int(os.environ["HASH"]), int(os.environ["RUNS"])
MODES = os.environ["MODES"].split()
CHANCE_DEPTH = int(os.environ["CHANCE_DEPTH"])

def bench_lines(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]

shogi_bench = bench_lines("positions/bench/shogi.sfen")
SHOGI = [
    ("start", "startpos"),
    ("7g7f 3c3d 2g2f", "sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4"),
    ("bench 3", "sfen " + shogi_bench[2]),
    ("bench 5", "sfen " + shogi_bench[4]),
]
SHOGAMMON = []
for i, line in enumerate(bench_lines("positions/bench/shogammon.sfen")[:4]):
    fields = line.split()
    tokens = fields[5:]
    text = "sfen " + " ".join(fields[1:5]) + (" moves " + " ".join(tokens) if tokens else "")
    SHOGAMMON.append((f"shogammon {i + 1}", text))

def cpu_seconds(pid):
    """User plus system CPU time of a running process so far (not counting the table fill
    at isready when read after it)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def run(variant, position, depth, threads, mode):
    """One fresh engine: returns (time to depth s, nodes, nps, cpu s, wall s)."""
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()
    def wait_for(word):
        for line in p.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError(f"engine ended before {word}")
    send("usi"); wait_for("usiok")
    send(f"setoption name USI_Variant value {variant}")
    send(f"setoption name USI_Hash value {HASH}")
    send(f"setoption name Threads value {threads}")
    send(f"setoption name ParallelMode value {mode}")
    send("isready"); wait_for("readyok")
    send(f"position {position}")
    cpu_before = cpu_seconds(p.pid)
    start = time.monotonic()
    send(f"go depth {depth}")
    reached, last = None, None
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
        w = line.split()
        if not line.startswith("info ") or "depth" not in w or "nodes" not in w:
            continue
        d = int(w[w.index("depth") + 1])
        last = w
        if d == depth and reached is None and "lowerbound" not in w and "upperbound" not in w:
            reached = int(w[w.index("time") + 1]) / 1000
    wall = time.monotonic() - start
    cpu = cpu_seconds(p.pid) - cpu_before
    send("quit")
    p.wait()
    nodes = int(last[last.index("nodes") + 1])
    ms = max(1, int(last[last.index("time") + 1]))
    return (reached if reached is not None else ms / 1000, nodes, nodes * 1000 / ms, cpu, wall)

def table(title, variant, positions, depth, modes, label=None):
    print(f"\n== {title}: go depth {depth}, USI_Hash {HASH}, {RUNS} run(s), medians")
    for mode in modes:
        results = {}  # (position, threads) -> list of runs
        for _ in range(RUNS):
            for name, position in positions:
                for t in THREADS:
                    results.setdefault((name, t), []).append(run(variant, position, depth, t, mode))
        print(f"-- {label or mode}")
        print(f"{'position':16} {'threads':>7} {'to depth s':>10} {'nps':>10} {'cpu/wall':>8}")
        for name, _ in positions:
            for t in THREADS:
                runs = results[(name, t)]
                ttd = statistics.median(r[0] for r in runs)
                nps = statistics.median(r[2] for r in runs)
                share = statistics.median(r[3] / max(r[4], 1e-9) for r in runs)
                print(f"{name:16} {t:>7} {ttd:>10.3f} {nps:>10.0f} {share:>8.2f}")
        print(f"geometric means against 1 thread ({label or mode}):")
        for t in THREADS[1:]:
            speed = [statistics.median(r[0] for r in results[(n, THREADS[0])]) /
                     max(1e-6, statistics.median(r[0] for r in results[(n, t)]))
                     for n, _ in positions]
            rate = [statistics.median(r[2] for r in results[(n, t)]) /
                    statistics.median(r[2] for r in results[(n, THREADS[0])])
                    for n, _ in positions]
            gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
            print(f"  {t:>3} threads: time to depth {gm(speed):.2f}x, nps {gm(rate):.2f}x")

table("shogi", "shogi", SHOGI, DEPTH, MODES)
if CHANCE_DEPTH > 0:
    # The chance search has one parallel mode (root splitting); ParallelMode does not apply.
    table("shogammon (chance search)", "shogammon", SHOGAMMON, CHANCE_DEPTH, MODES[:1],
          "the chance search's root split")
EOF
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$MATCH_GAMES" -gt 0 ]; then
    openings=positions/openings/shogi.txt
    [ "$MATCH_VARIANT" = chushogi ] && openings=positions/openings/chushogi.txt
    echo
    echo "== match: $MATCH_THREADS threads ($MATCH_MODE) against 1, $MATCH_VARIANT, $MATCH_TC, $MATCH_GAMES games"
    "$BIN" match --variant "$MATCH_VARIANT" \
        --engine1 "$BIN" --name1 "threads$MATCH_THREADS" \
        --engine2 "$BIN" --name2 threads1 \
        --option1 "Threads=$MATCH_THREADS" --option1 "ParallelMode=$MATCH_MODE" \
        --option2 Threads=1 \
        --option1 NetworkDelay=0 --option1 NetworkDelay2=0 \
        --option2 NetworkDelay=0 --option2 NetworkDelay2=0 \
        --resign-score 2000 --resign-moves 3 \
        --games "$MATCH_GAMES" --tc "$MATCH_TC" --concurrency 1 \
        --openings "$openings" --out "$OUT"
fi

# Measured 2026-11-23 on the 2-core development machine, shared with four other engineers'
# builds and a self-play soak (load average 11-24 throughout), every job at nice 10; these
# are the numbers of a machine that gave each search 0.15-0.4 of a core, not of a quiet one.
#   DEPTH=11 HASH=1024 RUNS=3 CHANCE_DEPTH=2 scripts/threads.sh (load 23.4 before, 17.9 after):
#     lazysmp, 2 threads against 1: time to depth 0.57x, nps 1.30x
#     rootsplit, 2 threads against 1: time to depth 1.07x, nps 1.49x
#     chance search (root split), 2 threads against 1: time to depth 1.14x, nps 1.39x
#     CPU per wall second of the searches: 0.15-0.38 at one thread, 0.17-0.42 at two.
#   shishi bench nps, whole-process triples (base = 83d0fab, 1 thread, 2 threads) interleaved,
#   five rounds: base 65153 65467 105448 143836 99367 (median 99367); 1 thread 61982 82663
#   89013 120798 128661 (median 89013); 2 threads 128059 204307 113025 217752 236500;
#   2 threads over 1 thread in the same round: 2.07 2.47 1.27 1.80 1.84 (median 1.84).
#   Signature at 1 thread: 4416653 before and after.
#   Matches, lazysmp 2 threads against 1, --concurrency 1, --resign-score 2000 --resign-moves 3,
#   --time-margin 1000:
#     shogi, byo0.3, 200 games (positions/openings/shogi.txt): +93 =1 -106, -22.6 +- 48.4 Elo,
#     pentanomial [25, 1, 55, 0, 19]; 3 time forfeits, all by the 2-thread engine.
#     chushogi, 10+0.1, stopped after 38 games: +12 =0 -26, -134.3 +- 126.3 Elo,
#     pentanomial [7, 0, 12, 0, 0].
#   In 30 searches at byoyomi 300 ms the 1-thread engine got 0.035-0.041 CPU seconds per
#   search and the 2-thread engine 0.055-0.058 (its main thread so about 0.028): on this
#   machine the second thread slowed the main thread more than it added, and the matches
#   measure that, not the scaling the issue asks about.
#
# Measured again 2026-11-23 16:32-18:10 with the kernel's autogroup off (so `nice` holds
# across sessions), the match at nice -5 and other engineers' builds at nice 19, base build
# 12ad96d, lazysmp 2 threads against 1, --concurrency 1, byo0.3, NetworkDelay 0 for both,
# --resign-score 2000 --resign-moves 3 (the match of part 3, MATCH_GAMES=200):
#   shogi, 200 games: +121 =7 -72, 62.3 %, +86.9 +- 49.1 Elo (95 %),
#   pentanomial [12, 3, 45, 4, 36]; endings: 191 adjudicated, 6 repetition, 2 checkmate,
#   1 move limit.
#   The same match before autogroup was switched off (and with the default NetworkDelay),
#   stopped after 115 games: +51 =1 -63, 44.8 %, -36.4 +- 64.3 Elo.
#
# Measured 2026-11-23 evening, autogroup off, release build of ef762c4 (search as 12ad96d),
# load average about 1 (quiet) for the tables:
#   BIN=... DEPTH=13 HASH=256 RUNS=3 CHANCE_DEPTH=3 scripts/threads.sh, shogi part:
#     lazysmp, 2 threads against 1: time to depth 0.99x, nps 2.24x
#     rootsplit, 2 threads against 1: time to depth 1.26x, nps 1.69x
#   (CHANCE_DEPTH=3 was stopped: over 5 minutes without finishing a position.)
#   BIN=... DEPTH=10 HASH=256 MODES=lazysmp RUNS=3 CHANCE_DEPTH=2 scripts/threads.sh:
#     lazysmp, 2 threads against 1: time to depth 1.58x, nps 2.01x
#     chance search (root split), 2 threads against 1: time to depth 1.23x, nps 1.66x; on the
#     two positions with real work at depth 2 (1 and 4) time to depth 2.06x and 1.79x, nps
#     2.16x and 2.31x; positions 2 and 3 finish in 14-46 ms, where starting the threads
#     costs more than it gains.
#   shishi bench --threads 2 against --threads 1 (nps, one run each): shogammon 1036423 /
#     1031776 (its bench is 0.18 s, mostly set-up), madness 1040188 / 636824 (1.63x),
#     chushogi 699741 / 428316 (1.63x).
#   Chu Shogi, 2 threads against 1, 10+0.1, the match of part 3 with MATCH_VARIANT=chushogi:
#     with the vote of ef762c4 (a helper of the main thread's depth could outvote it),
#     stopped after 32 games at +11 =1 -20 (35.9 %, -100.4 +- 130.5 Elo). The losses came
#     from the vote: a helper's stale depth-6 choice (+2815, a piece won) outvoted the main
#     thread, whose unfinished depth-7 iteration had refuted that move (game 16, ply 260).
#     Since 5005a24 a helper votes only with an iteration deeper than the main thread's.
#   The same Chu match with the fixed vote (release build of 5005a24), 20:09-21:34, 100 games:
#     +62 =6 -32, 65.0 %, +107.5 +- 70.2 Elo (95 %), pentanomial [4, 3, 21, 3, 19];
#     as sente 69.0 %, as gote 61.0 %; endings: 75 adjudicated, 19 royal capture, 6 move
#     limit; no time forfeits.
