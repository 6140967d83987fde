//! Shishi (獅子, the Lion): a USI engine for standard shogi and five of its variants (the
//! registry of games: `rules::variants`).
//!
//! Layers, each depending only on those below it:
//! * `rules`: what the games are (pieces, positions, moves, notation) and the registry of
//!   games every layer dispatches from (`rules::variants`);
//! * `eval` (how good a position is), `record` (game records and training data) and `book`
//!   (opening books), on `rules`; `referee` (judging engine-vs-engine games), on `rules` and
//!   `record`'s piece names;
//! * `search`: finding moves, alpha-beta and chance searches, over `eval`;
//! * `usi`: the USI protocol, over `search` and `book`;
//! * `cecp` (the XBoard protocol) and `serve` (a board in the browser), over `usi` and
//!   `referee`; `serve` draws boards with `cli::analyse::diagram`, the one arrow upward;
//! * `cli`: the subcommands of the `shishi` binary.
//!
//! The test-only `tuning` harnesses stand beside `cli`. See `docs/ARCHITECTURE.md` for which
//! file owns which question.

pub mod book;
pub mod cecp;
pub mod cli;
pub mod eval;
pub mod record;
pub mod referee;
pub mod rules;
pub mod search;
pub mod serve;
#[cfg(test)]
mod tuning;
pub mod usi;
