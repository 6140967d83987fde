//! The referee: engine-vs-engine matches (`shishi match`).
//!
//! It owns everything between two engine processes: speaking USI and CECP to them
//! (`usi_client`, `cecp_client`, over `process`; the options they offer, `engine_options`), keeping the true game of any variant with
//! the rules core (`variant`: what the referee needs of each game) and judging how each game
//! ends (`arbiter`, with the reasons and results in `result`; the entering-king rule is the
//! rules core's),
//! clocks (`tc`), openings (`openings`), records (`game_files`: KIF, CSA, USI line,
//! `games.jsonl`), statistics (`stats`) and the match itself (`runner`: scheduling,
//! concurrency, resume, progress, SPRT, summary).

pub mod arbiter;
pub mod cecp_client;
pub mod engine_options;
pub mod game_files;
pub mod openings;
pub mod player;
pub mod process;
pub mod result;
pub mod runner;
pub mod stats;
pub mod tc;
pub mod usi_client;
pub mod variant;
