//! The search thread: owns the [`Searcher`] (created lazily, so start-up stays fast), runs one
//! job at a time in the order the protocol thread queued them, and writes each search's
//! `info` lines and its single `bestmove` (or `checkmate`) line.
//!
//! The USI promises are enforced here, whatever the search does: after `go infinite` or
//! `go ponder` nothing is printed before `stop`/`ponderhit`; no legal move gives
//! `bestmove resign`; a valid entering-king declaration gives `bestmove win`; the best and
//! ponder moves printed are legal.

use super::chance;
use super::command::MateLimit;
use super::game::{with_position, UsiGame, UsiPosition};
use super::options::HashMb;
use super::output::{is_legal, legal_prefix, Output};
use crate::rules::moves::MoveList;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::chance::{ChanceSearcher, ChanceSettings};
use crate::search::mate::{self, MateAnswer, MateGame};
use crate::search::{Config, Control, Decision, Info, Limits, Searcher};
use crossbeam_channel::{Receiver, Sender};
use std::time::Duration;

/// Work for the search thread.
pub enum Job {
    /// A normal search (`go`): prints `info` lines and one `bestmove`, then reports done.
    Search {
        position: UsiPosition,
        limits: Limits,
        config: Box<Config>,
        control: Control,
        rule: EnteringKingRule,
    },
    /// `go mate`: prints one `checkmate` line, then reports done.
    Mate {
        position: UsiPosition,
        limit: MateLimit,
        control: Control,
    },
    /// Allocate the transposition table at this size; `ack` is signalled when done.
    Resize {
        hash: HashMb,
        ack: Option<Sender<()>>,
    },
    /// Forget the search state (new game, `Clear_Hash`).
    Clear,
    /// Signal when every job queued before this one is done (`isready`).
    Sync(Sender<()>),
}

/// Runs jobs until the job channel closes. Every `Search` and `Mate` job sends one message
/// on `done` after its last line is written.
pub fn run(jobs: Receiver<Job>, done: Sender<()>, out: Output, initial_hash: HashMb) {
    let mut hash = initial_hash;
    let mut searcher: Option<Searcher> = None;
    let mut chance_searcher: Option<ChanceSearcher> = None;
    for job in jobs {
        match job {
            Job::Resize { hash: size, ack } => {
                hash = size;
                match searcher.as_mut() {
                    Some(s) => s.set_hash_size(size.0),
                    None => searcher = Some(Searcher::new(size.0)),
                }
                if let Some(s) = chance_searcher.as_mut() {
                    s.set_settings(ChanceSettings {
                        hash_mb: size.0,
                        ..s.settings()
                    });
                }
                if let Some(ack) = ack {
                    let _ = ack.send(());
                }
            }
            Job::Sync(ack) => {
                let _ = ack.send(());
            }
            Job::Clear => {
                if let Some(s) = searcher.as_mut() {
                    s.clear();
                }
                if let Some(s) = chance_searcher.as_mut() {
                    s.clear();
                }
            }
            Job::Search {
                position,
                limits,
                config,
                control,
                rule,
            } => {
                let line = with_position!(&position,
                    pos => {
                        let searcher = searcher.get_or_insert_with(|| Searcher::new(hash.0));
                        search(searcher, pos.as_ref(), &limits, &config, &control, rule, &out)
                    },
                    cpos => {
                        let searcher = chance_searcher.get_or_insert_with(|| {
                            ChanceSearcher::new(ChanceSettings {
                                hash_mb: hash.0,
                                ..ChanceSettings::default()
                            })
                        });
                        chance::search(searcher, cpos.as_ref(), &limits, &config, &control, &out)
                    }
                );
                out.line(&line);
                let _ = done.send(());
            }
            Job::Mate {
                position,
                limit,
                control,
            } => {
                let line = match &position {
                    UsiPosition::Shogi(pos) => solve_mate(pos.as_ref(), limit, &control),
                    UsiPosition::Kagamigi(pos) => solve_mate(pos.as_ref(), limit, &control),
                    // Chu (royals, no drops), Shogammon and the Madness have no checkmate.
                    _ => "checkmate notimplemented".to_string(),
                };
                out.line(&line);
                let _ = done.send(());
            }
        }
    }
}

/// Waits while the GUI still owes a `stop` (infinite) or a `ponderhit`/`stop` (ponder).
fn hold_until_released(limits: &Limits, control: &Control) {
    while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs one search and returns its `bestmove` line.
fn search<G: UsiGame>(
    searcher: &mut Searcher,
    position: &G,
    limits: &Limits,
    config: &Config,
    control: &Control,
    rule: EnteringKingRule,
    out: &Output,
) -> String {
    let mut legal = MoveList::new();
    position.generate_legal(&mut legal);
    // `searchmoves` narrows the moves the engine may answer with.
    if !limits.root_moves.is_empty() {
        legal.retain(|mv| limits.root_moves.contains(mv));
        if legal.is_empty() {
            position.generate_legal(&mut legal);
        }
    }
    let decision = if legal.is_empty() {
        Decision::Resign
    } else if position.can_declare_win(rule) {
        Decision::DeclareWin
    } else {
        let show_multipv = config.multipv > 1;
        let mut report =
            |info: &Info| out.line(&super::output::info_line(info, position, show_multipv));
        searcher.search(position, limits, config, control, &mut report)
    };
    hold_until_released(limits, control);
    bestmove_line(position, &legal, decision, rule)
}

/// The `bestmove` line for `decision`, made safe: only moves of `legal` (the legal moves,
/// narrowed by `searchmoves`), `win` only when the declaration is valid under `rule`.
fn bestmove_line<G: UsiGame>(
    position: &G,
    legal: &MoveList,
    decision: Decision,
    rule: EnteringKingRule,
) -> String {
    let fallback = |why: &str| match legal.first() {
        Some(&mv) => {
            log::error!("{why}; playing {} instead", position.move_text(mv));
            format!("bestmove {}", position.move_text(mv))
        }
        None => "bestmove resign".to_string(),
    };
    match decision {
        Decision::Resign => "bestmove resign".to_string(),
        Decision::DeclareWin if position.can_declare_win(rule) => "bestmove win".to_string(),
        Decision::DeclareWin => fallback("the search declared an invalid entering-king win"),
        Decision::Move { best, ponder } => {
            if !legal.contains(&best) {
                return fallback(&format!(
                    "the search chose an illegal or excluded move {best:?}"
                ));
            }
            let mut line = format!("bestmove {}", position.move_text(best));
            if let Some(reply) = ponder {
                let mut after = position.clone();
                after.play(best);
                if is_legal(&after, reply) {
                    line.push_str(&format!(" ponder {}", after.move_text(reply)));
                } else {
                    log::error!("dropping an illegal ponder move {reply:?}");
                }
            }
            line
        }
    }
}

/// Runs the mate solver and returns its `checkmate` line.
fn solve_mate<G: MateGame>(position: &G, limit: MateLimit, control: &Control) -> String {
    let limit = match limit {
        MateLimit::Time(ms) => Some(ms),
        MateLimit::Infinite => None,
    };
    match mate::solve(position, limit, control) {
        MateAnswer::NoMate => "checkmate nomate".to_string(),
        MateAnswer::Timeout => "checkmate timeout".to_string(),
        MateAnswer::Mate(moves) => {
            let text = legal_prefix(position, &moves);
            let mut end = position.clone();
            for &mv in &moves[..text.len()] {
                end.play(mv);
            }
            let mates = !text.is_empty()
                && text.len() == moves.len()
                && end.in_check()
                && !end.has_legal_move();
            if mates {
                format!("checkmate {}", text.join(" "))
            } else {
                log::error!("the mate solver returned a line that does not mate: {moves:?}");
                "checkmate timeout".to_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Position;

    #[test]
    fn bestmove_is_made_legal() {
        let pos = Position::startpos();
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        let m = pos.parse_usi_move("7g7f").unwrap();
        let mut after = pos.clone();
        after.play(m);
        let reply = after.parse_usi_move("3c3d").unwrap();
        let rule = EnteringKingRule::Csa27;
        assert_eq!(
            bestmove_line(
                &pos,
                &legal,
                Decision::Move {
                    best: m,
                    ponder: Some(reply)
                },
                rule
            ),
            "bestmove 7g7f ponder 3c3d"
        );
        // An illegal ponder move (sente's move again) is dropped.
        assert_eq!(
            bestmove_line(
                &pos,
                &legal,
                Decision::Move {
                    best: m,
                    ponder: Some(m)
                },
                rule
            ),
            "bestmove 7g7f"
        );
        // An illegal best move is replaced by a legal one.
        let illegal = after.parse_usi_move("3c3d").unwrap();
        let line = bestmove_line(
            &pos,
            &legal,
            Decision::Move {
                best: illegal,
                ponder: None,
            },
            rule,
        );
        let text = line.strip_prefix("bestmove ").unwrap();
        assert!(pos.parse_usi_move(text).is_ok(), "{line}");
        // An invalid declaration is not sent.
        assert_ne!(
            bestmove_line(&pos, &legal, Decision::DeclareWin, rule),
            "bestmove win"
        );
        assert_eq!(
            bestmove_line(&pos, &legal, Decision::Resign, rule),
            "bestmove resign"
        );
    }
}
