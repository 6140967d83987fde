#!/usr/bin/env bash
# The long Shogammon cross-check: 1000 seeded random games played by the engine and the
# reference engine of engine-tests/shogammon_reference.rs in step (legal tokens compared at
# every decision, SFENs after every action), then 300 more under the `maximal` dice-use rule.
# Usage: scripts/shogammon_reference_long.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test shogammon_reference -- --ignored many_random_games_match_reference --nocapture
