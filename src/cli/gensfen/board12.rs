//! The 12×12 games' self-play for `shishi gensfen` (`--variant chushogi`, `--variant chukagamigi`):
//! the same games as in shogi (a node or depth limit, random moves, the eval limit), written
//! as text, one position a line, since no format of the field holds these boards
//! (docs/TRAINING_DATA.md, "The 12×12 games"):
//!
//! ```text
//! <SFEN>\t<score>\t<ply>\t<result>\t<move>
//! ```
//!
//! the position's SFEN as Shishi writes it, the search's score (centipawns, side to move's
//! view, mates as in the shogi records), the plies played before the position, the game's
//! result for the side to move (1, 0, −1) and the move chosen (USI).

use super::{adjudicate, game_ply, record_score, search_move, PlayedGame, Settings};
use crate::eval::nnue::board12::Board12Net;
use crate::record::quiet::board12_is_noisy;
use crate::referee::runner::pair_seed;
use crate::rules::game::{Game, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::MoveList;
use crate::rules::notation::GameText;
use crate::search::game::SearchGame;
use crate::search::Searcher;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};

/// One written position before its game's result is known.
pub(super) struct PendingLine {
    pub(super) side: Color,
    /// The line without its result: SFEN, score and ply, then the move after the result.
    pub(super) sfen_score_ply: String,
    pub(super) mv: String,
}

impl PendingLine {
    /// The finished line for a game that ended with `outcome`.
    pub(super) fn finish(&self, outcome: Outcome) -> String {
        let result = match outcome {
            Outcome::Draw => 0,
            Outcome::Win(winner) if winner == self.side => 1,
            Outcome::Win(_) => -1,
        };
        format!("{}\t{result}\t{}\n", self.sfen_score_ply, self.mv)
    }
}

/// Plays game number `number` of a 12×12 game from `start`; `None` if `stop` rose before it
/// ended.
pub(super) fn play_game<P>(
    settings: &Settings,
    searcher: &mut Searcher,
    start: &P,
    number: u64,
    stop: &AtomicBool,
) -> Option<PlayedGame>
where
    P: SearchGame + Board12Net + Game + GameText + Clone,
{
    let mut rng = StdRng::seed_from_u64(pair_seed(settings.seed, number as usize));
    let mut pos = start.clone();
    let random_plies = settings.random_plies(&mut rng, SearchGame::move_number(&pos));
    searcher.clear();
    let mut written: Vec<PendingLine> = Vec::new();
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = Game::outcome(&pos) {
            break outcome;
        }
        let ply = SearchGame::move_number(&pos);
        let us = SearchGame::side_to_move(&pos);
        if ply > settings.max_ply {
            break Outcome::Draw;
        }
        let mut legal = MoveList::new();
        pos.legal_actions(&mut legal);
        if legal.is_empty() {
            // `outcome` names every end of these games; a position without moves is lost.
            break Outcome::Win(us.flip());
        }
        if random_plies.contains(&ply) {
            // As in shogi: the positions before a random move are not written.
            written.clear();
            Game::play(&mut pos, *legal.choose(&mut rng).expect("a legal move"));
            continue;
        }
        let (best, score) = search_move(&settings.limits, searcher, &pos);
        if let Some(outcome) = adjudicate(score, settings.eval_limit, us) {
            break outcome;
        }
        if ply >= settings.write_min_ply && !(settings.quiet_only && board12_is_noisy(&pos, best)) {
            written.push(PendingLine {
                side: us,
                sfen_score_ply: format!(
                    "{}\t{}\t{}",
                    pos.sfen(),
                    record_score(score),
                    game_ply(ply)
                ),
                mv: pos.move_text(best),
            });
        }
        Game::play(&mut pos, best);
    };
    Some(PlayedGame::finished_lines(&written, outcome))
}
