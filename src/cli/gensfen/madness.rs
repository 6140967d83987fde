//! The Central Madness's games for `shishi gensfen` (`--variant madness`): Shishi plays both
//! sides with the chance search, each side searching its own view of the game (its own card,
//! the public discards, the opponent's card unknown) while this module holds the true game
//! and deals, draws and rolls with the game's seeded generator, as the referee does. One
//! record is written per ordinary move the search chose: the board, hands and side to move
//! as standard shogi's `PackedSfenValue` holds them, the search's expected result turned
//! back into centipawns, and the mover's card in the record's last byte (docs/TRAINING_DATA.md,
//! "The Central Madness").

use super::{
    adjudicate, chance_decision, game_ply, random_action, record_score, PlayedGame, Settings,
};
use crate::record::packed_sfen::{GameResult, Move16, PackedSfen, TrainingRecord};
use crate::record::quiet::shogi_is_noisy;
use crate::referee::arbiter::draw_chance;
use crate::referee::runner::pair_seed;
use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::geometry::Color;
use crate::rules::variants::madness::{view, Phase, PlayerView, TrueGame};
use crate::search::chance::ChanceSearcher;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};

/// Plays Madness game number `number`; `None` if `stop` rose before it ended. The settings
/// mean what they mean in shogi, counted in the board's plies (a move or drop; the madness's
/// steps do not count): random moves replace the ordinary move at their plies, and the eval
/// limit is compared with the search's value in centipawns ([`value_score`]).
pub(super) fn play_game(
    settings: &Settings,
    searcher: &mut ChanceSearcher,
    number: u64,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let mut rng = StdRng::seed_from_u64(pair_seed(settings.seed, number as usize));
    let mut truth = TrueGame::startpos();
    let mut views = Color::BOTH.map(PlayerView::startpos);
    let random_plies = settings.random_plies(&mut rng, truth.position().move_number());
    searcher.clear();
    let mut written: Vec<(Color, TrainingRecord)> = Vec::new();
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = truth.outcome() {
            break outcome;
        }
        let ply = truth.position().move_number();
        if ply > settings.max_ply {
            break Outcome::Draw;
        }
        let action = match truth.node_kind() {
            NodeKind::Chance(outcomes) => {
                draw_chance(&mut rng, &outcomes).expect("a chance node has an outcome")
            }
            NodeKind::Decision(us) => {
                let ordinary = truth.phase() == Phase::Normal;
                if truth.can_declare_win() {
                    break Outcome::Win(us);
                }
                if ordinary && random_plies.contains(&ply) {
                    // As in shogi: the positions before a random move are not written.
                    written.clear();
                    random_action(&truth, &mut rng)
                } else {
                    let mut own_view = views[us.index()].clone();
                    let (best, score) =
                        chance_decision(settings, searcher, &mut own_view, &truth, us);
                    if let Some(outcome) = adjudicate(score, settings.eval_limit, us) {
                        break outcome;
                    }
                    let pos = truth.position();
                    if ordinary
                        && ply >= settings.write_min_ply
                        && !(settings.quiet_only && shogi_is_noisy(pos, best))
                    {
                        let card = truth.cards().held[us.index()];
                        written.push((
                            us,
                            TrainingRecord {
                                position: PackedSfen::pack(pos),
                                score: record_score(score),
                                best_move: Move16::from_move(best),
                                game_ply: game_ply(ply),
                                result: GameResult::Draw,
                                padding: card.map_or(0, |v| v.get()),
                            },
                        ));
                    }
                    best
                }
            }
        };
        for side in Color::BOTH {
            views[side.index()].play(view::visible_to(&truth, action, side));
        }
        truth.play(action);
    };
    Some(PlayedGame::finished(written, outcome))
}
