//! Tuning harnesses: in-process self-play that measures evaluation weights and search
//! settings by playing the engine against itself. They drive the search, so they live above
//! it (`rules` ← `eval` ← `search` ← `tuning`), never inside `eval`. Test-only: each
//! measurement is an ignored test run by hand or by a script.
//!
//! `shogi_selfplay` compares two standard-shogi evaluation settings at a fixed depth;
//! `texel` writes the evaluation's features of recorded positions for `scripts/texel.py`;
//! `shogammon_selfplay` plays Shogammon pairs with duplicate dice (`scripts/shogammon_selfplay.sh`).

mod shogammon_selfplay;
mod shogi_selfplay;
mod texel;
