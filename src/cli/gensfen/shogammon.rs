//! Shogammon's games for `shishi gensfen` (`--variant shogammon`): Shishi plays both sides
//! with the chance search, this module rolls the dice with the game's seeded generator as the
//! referee does, and one line of text is written per turn, in the 12×12 games' form
//! (docs/TRAINING_DATA.md, "Shogammon"):
//!
//! ```text
//! <SFEN>\t<score>\t<ply>\t<result>\t<turn>
//! ```
//!
//! the position before the turn's roll (the SFEN with points, as Shishi writes it), the
//! search's value at the turn's first decision turned into centipawns (an unbiased sample of
//! the position's value before the roll, which is what the net is asked for), the turns played
//! before it, the game's result for the side to roll, and the turn as tokens (`r:61 7g7f
//! 2g2f`). The settings' plies count turns here: random turns (both actions drawn among the
//! legal ones), `--write-min-ply`, `--max-ply`.

use super::board12::PendingLine;
use super::{
    adjudicate, chance_decision, game_ply, random_action, record_score, PlayedGame, Settings,
};
use crate::referee::arbiter::draw_chance;
use crate::referee::runner::pair_seed;
use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::variants::shogammon::Position;
use crate::search::chance::{ChanceGame, ChanceSearcher};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};

/// Plays Shogammon game number `number`; `None` if `stop` rose before it ended.
pub(super) fn play_game(
    settings: &Settings,
    searcher: &mut ChanceSearcher,
    number: u64,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let mut rng = StdRng::seed_from_u64(pair_seed(settings.seed, number as usize));
    let mut pos = Position::startpos();
    let random_turns = settings.random_plies(&mut rng, pos.turn_number());
    searcher.clear();
    let mut written: Vec<PendingLine> = Vec::new();
    // The position before this turn's roll, and the turn's tokens so far.
    let mut turn_start = pos.to_sfen();
    let mut tokens: Vec<String> = Vec::new();
    // Whether this turn's line is the last of `written` (its tokens go on growing).
    let mut writing_turn = false;
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            break outcome;
        }
        let turn = pos.turn_number();
        if turn > settings.max_ply {
            break Outcome::Draw;
        }
        let action = match pos.node_kind() {
            NodeKind::Chance(outcomes) => {
                if pos.awaiting_roll() {
                    turn_start = pos.to_sfen();
                    tokens.clear();
                    writing_turn = false;
                }
                draw_chance(&mut rng, &outcomes).expect("a chance node has an outcome")
            }
            NodeKind::Decision(us) => {
                let first = pos.dice_left().dice().count() == 2;
                if random_turns.contains(&turn) {
                    // As in shogi: the positions before a random turn are not written.
                    written.clear();
                    writing_turn = false;
                    random_action(&pos, &mut rng)
                } else {
                    let (best, score) =
                        chance_decision(settings, searcher, &mut pos.clone(), &pos, us);
                    if let Some(outcome) = adjudicate(score, settings.eval_limit, us) {
                        break outcome;
                    }
                    let noisy = || pos.is_capture(best);
                    if first && turn >= settings.write_min_ply && !(settings.quiet_only && noisy())
                    {
                        written.push(PendingLine {
                            side: us,
                            sfen_score_ply: format!(
                                "{turn_start}\t{}\t{}",
                                record_score(score),
                                game_ply(turn)
                            ),
                            mv: String::new(),
                        });
                        writing_turn = true;
                    }
                    best
                }
            }
        };
        tokens.push(pos.action_to_usi(action));
        if writing_turn {
            if let Some(line) = written.last_mut() {
                line.mv = tokens.join(" ");
            }
        }
        pos.play(action);
    };
    Some(PlayedGame::finished_lines(&written, outcome))
}
