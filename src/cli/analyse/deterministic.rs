//! `shishi analyse` for the games without chance (shogi, Chu Shogi, Chu Kagamigi): the
//! alpha-beta search's progress lines (the USI `info` lines, principal variations checked
//! legal) and the best move, `bestmove win` when the entering-king rule allows it.

use super::{say, SearchBudget};
use crate::rules::moves::MoveList;
use crate::search::{Config, Control, Decision, Info, Limits, Searcher};
use crate::usi::output::{info_line, is_legal};
use crate::usi::position::UsiGame;
use std::time::{Duration, Instant};

/// What one search of a position found: the decision and the last reported line.
pub struct Finding {
    pub decision: Decision,
    /// The last `info` of the first principal variation (none before depth 1 completes).
    pub last: Option<Info>,
}

/// A searcher with a table of `budget`'s size and its nets.
pub fn new_searcher(budget: &SearchBudget) -> Searcher {
    let mut searcher = Searcher::new(budget.hash_mb);
    budget.nets.give_to(&mut searcher);
    searcher
}

/// The search settings for `budget`.
pub fn config(budget: &SearchBudget) -> Config {
    Config {
        threads: budget.threads,
        parallel: budget.parallel.unwrap_or_default(),
        multipv: budget.lines.unwrap_or(1).max(1),
        network_delay: Duration::ZERO,
        network_delay2: Duration::ZERO,
        ..Config::default()
    }
}

/// Searches `position` under `budget`, calling `report` with each progress line.
pub fn search<G: UsiGame>(
    searcher: &mut Searcher,
    position: &G,
    budget: &SearchBudget,
    report: &mut dyn FnMut(&Info),
) -> Finding {
    let mut legal = MoveList::new();
    position.generate_legal(&mut legal);
    if legal.is_empty() {
        return Finding {
            decision: Decision::Resign,
            last: None,
        };
    }
    if position.can_declare_win(budget.entering_king) {
        return Finding {
            decision: Decision::DeclareWin,
            last: None,
        };
    }
    let limits = Limits {
        movetime: budget.movetime,
        depth: budget.depth,
        ..Limits::default()
    };
    let mut last: Option<Info> = None;
    let decision = searcher.search(
        position,
        &limits,
        &config(budget),
        &Control::new(false),
        &mut |info| {
            if info.multipv <= 1 {
                last = Some(info.clone());
            }
            report(info);
        },
    );
    // A search bug must not print an illegal move.
    let decision = match decision {
        Decision::Move { best, .. } if !is_legal(position, best) => Decision::Move {
            best: legal[0],
            ponder: None,
        },
        other => other,
    };
    Finding { decision, last }
}

/// The `bestmove` text of a decision (`bestmove 7g7f ponder 3c3d`, `bestmove win`).
pub fn bestmove_text<G: UsiGame>(position: &G, decision: &Decision) -> String {
    match *decision {
        Decision::Resign => "bestmove resign".to_string(),
        Decision::DeclareWin => "bestmove win".to_string(),
        Decision::Move { best, ponder } => {
            let mut text = format!("bestmove {}", position.move_text(best));
            let mut after = position.clone();
            after.play(best);
            if let Some(reply) = ponder.filter(|r| is_legal(&after, *r)) {
                text.push_str(&format!(" ponder {}", after.move_text(reply)));
            }
            text
        }
    }
}

/// Prints the search's progress lines, a summary and the best move.
pub fn analyse<G: UsiGame>(position: &G, budget: &SearchBudget) {
    let mut searcher = new_searcher(budget);
    let show_multipv = budget.lines.unwrap_or(1) > 1;
    let start = Instant::now();
    let finding = search(&mut searcher, position, budget, &mut |info| {
        say!("{}", info_line(info, position, show_multipv));
    });
    let millis = start.elapsed().as_millis().max(1);
    let nodes = searcher.last_nodes();
    let depth = finding.last.as_ref().map_or(0, |i| i.depth);
    say!(
        "nodes {nodes} time {millis} nps {} depth {depth}",
        nodes as u128 * 1000 / millis
    );
    say!("{}", bestmove_text(position, &finding.decision));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::{chu, kagamigi, shogi};
    use crate::search::Score;

    fn budget(depth: u32) -> SearchBudget {
        SearchBudget {
            depth: Some(depth),
            hash_mb: 1,
            ..SearchBudget::default()
        }
    }

    fn best<G: UsiGame>(position: &G, depth: u32) -> (String, Option<Info>) {
        let mut searcher = Searcher::new(1);
        let finding = search(&mut searcher, position, &budget(depth), &mut |_| {});
        (bestmove_text(position, &finding.decision), finding.last)
    }

    #[test]
    fn a_mate_in_one_is_found_in_every_deterministic_game() {
        // Shogi: a gold dropped on 5b, guarded by the pawn on 5c, mates the king on 5a.
        let shogi = shogi::Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let (text, last) = best(&shogi, 3);
        assert_eq!(text, "bestmove G*5b");
        assert!(matches!(last.unwrap().score, Score::Mate(1)));
        let (text, _) = best(&chu::Position::startpos(), 2);
        assert!(text.starts_with("bestmove "), "{text}");
        let (text, _) = best(&kagamigi::Position::startpos(), 2);
        let mv = text.split_whitespace().nth(1).unwrap();
        assert!(
            kagamigi::Position::startpos().parse_usi_move(mv).is_ok(),
            "{text}"
        );
    }

    #[test]
    fn no_legal_move_resigns() {
        let mated = shogi::Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
        assert_eq!(best(&mated, 2).0, "bestmove resign");
    }
}
