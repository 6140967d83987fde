#!/bin/sh
# Central Madness through the referee's arbiter with in-process players (engine-tests/
# madness_play.rs): Shishi against Shishi with every decision checked against the true game,
# then card-aware search against a search that always rolls, over duplicate pairs (one
# random 10-ply opening and one chance seed per pair, colours swapped), with W/D/L, Elo and
# its 95% error. Sizes and depths: MADNESS_SELFPLAY_GAMES (1000), MADNESS_SELFPLAY_DEPTH (1),
# MADNESS_STRENGTH_GAMES (400), MADNESS_STRENGTH_DEPTH (1), MADNESS_MAX_TOKENS (600: a draw
# after this many tokens of the strength games).
set -eu
cargo test --release -p shishi --test madness_play shishi_against_shishi -- --ignored --nocapture \
    | grep -E 'games at depth|panicked|test result'
cargo test --release -p shishi --test madness_play card_aware_search -- --ignored --nocapture \
    | grep -E 'card-aware|^W |pentanomial|panicked|test result'
