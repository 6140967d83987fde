//! Shishi (獅子, the Lion): a USI engine for standard shogi and four of its variants.
//!
//! Layers, with dependencies pointing one way only: `rules` (what the games are), `eval`
//! (how good a position is), `search` (finding moves), `usi` (the protocol) and `cli` (the
//! subcommands of the `shishi` binary). See `docs/ARCHITECTURE.md` for which file owns
//! which question.

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
