#!/bin/sh
# In-process Shogammon self-play with duplicate dice (src/tuning/shogammon_selfplay.rs):
#   weights  the default evaluation against each weight variation (SELFPLAY_DEPTH, default 1)
#   depth    depth SELFPLAY_DEEP (default 2) against the 1-turn greedy search
#   time     Star2 against plain expectimax at chance nodes, SELFPLAY_MS (default 20) per turn
# SELFPLAY_PAIRS (default 100 pairs = 200 games), SELFPLAY_SEED (default 1) and
# SELFPLAY_THREADS (default 2) apply to all. Prints W/D/L of the first player and Elo with
# a 95% interval from the pair scores. Depth 2 vs 1 takes about 30 minutes on two cores.
set -eu
what="${1:-all}"
run() {
    cargo test --release -p shishi --lib "$1" -- --ignored --nocapture \
        | grep -E ' vs |test result'
}
case "$what" in
    weights) run shogammon_weights_selfplay ;;
    depth) run shogammon_depth_vs_greedy ;;
    time) run shogammon_star2_vs_expectimax_equal_time ;;
    all)
        run shogammon_weights_selfplay
        run shogammon_depth_vs_greedy
        run shogammon_star2_vs_expectimax_equal_time
        ;;
    *) echo "usage: $0 [weights|depth|time|all]" >&2; exit 2 ;;
esac
