#!/bin/sh
# Central Madness through the referee's arbiter with in-process players (engine-tests/
# madness_play.rs): Shishi against Shishi with every decision checked against the true game,
# then card-aware search against a search that always rolls, over duplicate pairs (one
# random 10-ply opening and one chance seed per pair, colours swapped), with W/D/L, Elo and
# its 95% error. Sizes and depths: MADNESS_SELFPLAY_GAMES (1000), MADNESS_SELFPLAY_DEPTH (1),
# MADNESS_STRENGTH_GAMES (400), MADNESS_STRENGTH_DEPTH (1), MADNESS_MAX_TOKENS (600: a draw
# after this many tokens of the strength games).
#
# Measured 2026-11-22 on 2 shared cores (load ~10):
#   MADNESS_SELFPLAY_GAMES=1000 MADNESS_SELFPLAY_DEPTH=1: 1000 games, no illegal decision and no
#     stream differing from the player's view; 152164 tokens, 3268 cards played; checkmate 404,
#     repetition 416, move-limit (400 tokens) 126, royal-capture 54; 221 s.
#   MADNESS_STRENGTH_GAMES=1000 MADNESS_STRENGTH_DEPTH=1 MADNESS_MAX_TOKENS=1000: card-aware
#     W 281 D 492 L 227, Elo +18.8 ± 15.4 (95%), LOS 0.992; 408 s.
#   MADNESS_STRENGTH_GAMES=400 MADNESS_STRENGTH_DEPTH=2 MADNESS_MAX_TOKENS=600: card-aware
#     W 89 D 250 L 61, Elo +24.4 ± 20.8 (95%), LOS 0.989; 816 s.
set -eu
cargo test --release -p shishi --test madness_play shishi_against_shishi -- --ignored --nocapture \
    | grep -E 'games at depth|panicked|test result'
cargo test --release -p shishi --test madness_play card_aware_search -- --ignored --nocapture \
    | grep -E 'card-aware|^W |pentanomial|panicked|test result'
