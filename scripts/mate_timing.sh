#!/bin/sh
# Per-problem solve times of the mate suite (positions/mate/shogi.mate) in a release build,
# with the median and maximum per mate length and the total. Timings are wall-clock: run on
# an idle machine for meaningful numbers.
set -e
cd "$(dirname "$0")/.."
exec cargo test --release --test mate_suite -- --ignored --nocapture mate_suite_timing
