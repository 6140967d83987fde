//! The tsume (mate) solver behind `go mate`: proves or refutes a forced mate by checks and
//! returns the mating line.
//!
//! This module owns the public answer ([`MateAnswer`]), the entry point ([`solve`]), the
//! extraction of the principal line from a finished proof, and the line checker
//! ([`verify_mate_line`]). The search itself is df-pn (`dfpn`) over a bounded
//! transposition table with hand dominance (`table`); `checks` recognises the attacker's
//! checks quickly.
//!
//! After the first proof, the line is shortened by re-searching with the length capped two
//! plies below the line in hand, within a node budget (a multiple of the proof's nodes), so
//! the line is usually the shortest mate; the attacker plays the proven check with the
//! shortest known mate and the defender the reply with the longest. Every returned line has
//! been replayed by [`verify_mate_line`].

mod checks;
mod dfpn;
mod game;
mod table;

pub use game::MateGame;

use super::Control;
use crate::rules::moves::{Move, MoveList};
use dfpn::Solver;
use std::time::{Duration, Instant};
use table::NodeId;

/// The transposition-table size `solve` uses.
pub const DEFAULT_TABLE_MIB: usize = 64;

/// The longest line the extraction will follow before giving up (plies).
const MAX_LINE: usize = 1000;

/// How often a failed line extraction is retried after proving the root again.
const EXTRACTION_RETRIES: usize = 2;

/// The search for shorter mates may use this many times the proof's nodes, plus
/// [`REFINE_NODES`].
const REFINE_FACTOR: u64 = 1;
const REFINE_NODES: u64 = 20_000;

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced mate: the attacker's and defender's moves, ending in mate.
    Mate(Vec<Move>),
    /// Proven: no forced mate by checks exists.
    NoMate,
    /// Neither proven nor refuted within the time or when stopped.
    Timeout,
}

/// Searches for a mate by the side to move, within `limit` (None = until `control` stops).
pub fn solve<G: MateGame>(position: &G, limit: Option<Duration>, control: &Control) -> MateAnswer {
    solve_with_stats(position, limit, control, DEFAULT_TABLE_MIB).0
}

/// What a solve cost (for `info` lines and measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateStats {
    /// Nodes searched (df-pn visits).
    pub nodes: u64,
    /// The deepest ply below the root visited (`seldepth`).
    pub max_ply: usize,
    pub elapsed: Duration,
}

/// [`solve`] with a transposition table of at most `table_mib` MiB, also reporting the cost.
pub fn solve_with_stats<G: MateGame>(
    position: &G,
    limit: Option<Duration>,
    control: &Control,
    table_mib: usize,
) -> (MateAnswer, MateStats) {
    let start = Instant::now();
    let deadline = limit.map(|l| start + l);
    let mut pos = position.clone();
    let attacker = pos.side_to_move();
    let mut solver = Solver::new(attacker, table_mib, deadline, control);
    let answer = run(&mut solver, &mut pos, start);
    let stats = MateStats {
        nodes: solver.nodes(),
        max_ply: solver.max_ply(),
        elapsed: start.elapsed(),
    };
    (answer, stats)
}

/// Proves or refutes the root, then extracts and shortens the line.
fn run<G: MateGame>(solver: &mut Solver, pos: &mut G, start: Instant) -> MateAnswer {
    solver.poll();
    if solver.aborted() {
        return MateAnswer::Timeout;
    }
    let root = pos.node_id(solver.attacker());
    solver.set_path(&[root]);
    let outcome = solver.search(pos, root);
    log::debug!(
        "mate search: {} nodes in {:?}, pn {} dn {}",
        solver.nodes(),
        start.elapsed(),
        outcome.pn,
        outcome.dn
    );
    if solver.aborted() {
        return MateAnswer::Timeout;
    }
    if outcome.is_disproven() {
        return MateAnswer::NoMate;
    }
    // The extraction re-searches what the table lost; should it still fail (a line running
    // into a repetition), prove the root again and retry a few times.
    let mut first = checked_line(solver, pos, root);
    for _ in 0..EXTRACTION_RETRIES {
        if first.is_some() || solver.aborted() {
            break;
        }
        solver.set_path(&[root]);
        if !solver.search(pos, root).is_proven() {
            break;
        }
        first = checked_line(solver, pos, root);
    }
    let Some(mut line) = first else {
        return MateAnswer::Timeout;
    };
    // Look for shorter mates with a bounded effort: each pass caps the length two plies
    // below the line in hand, until a pass fails or the budget is spent.
    solver.set_node_limit(solver.nodes() + solver.nodes() * REFINE_FACTOR + REFINE_NODES);
    while line.len() > 1 {
        solver.set_cap(line.len() - 2);
        solver.set_path(&[root]);
        let outcome = solver.search(pos, root);
        log::debug!(
            "cap {}: pn {} dn {} after {} nodes{}",
            line.len() - 2,
            outcome.pn,
            outcome.dn,
            solver.nodes(),
            if solver.aborted() { " (stopped)" } else { "" }
        );
        if solver.aborted() || !outcome.is_proven() {
            break;
        }
        match checked_line(solver, pos, root) {
            Some(shorter) if shorter.len() < line.len() => line = shorter,
            _ => break,
        }
    }
    log::debug!(
        "mate line of {} plies after {} nodes, {:?}",
        line.len(),
        solver.nodes(),
        start.elapsed()
    );
    MateAnswer::Mate(line)
}

/// The principal line of a proven root, if it can be extracted and verifies.
fn checked_line<G: MateGame>(solver: &mut Solver, pos: &mut G, root: NodeId) -> Option<Vec<Move>> {
    let Some(line) = principal_line(solver, pos, root) else {
        if !solver.aborted() {
            log::error!("mate proven but no line extracted for {}", pos.sfen());
        }
        return None;
    };
    match verify_mate_line(pos, &line) {
        Ok(()) => Some(line),
        Err(problem) => {
            log::error!("mate line failed to verify ({problem}) for {}", pos.sfen());
            None
        }
    }
}

/// Follows the proof from the root: the attacker plays the proven check with the shortest
/// known mate, the defender the reply with the longest. Unproven branches met on the way are
/// searched again.
fn principal_line<G: MateGame>(
    solver: &mut Solver,
    pos: &mut G,
    root: NodeId,
) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut path = vec![root];
    let mut result = None;
    while line.len() <= MAX_LINE {
        let id = *path.last().expect("the root is on the path");
        let next = match choose(solver, pos, &mut path) {
            Choice::Play(mv) => mv,
            Choice::Mated => {
                result = Some(());
                break;
            }
            Choice::Fail => break,
        };
        let next_id = pos.node_id_after(id, solver.attacker(), next);
        pos.play(next);
        line.push(next);
        path.push(next_id);
    }
    for _ in 0..line.len() {
        pos.unplay();
    }
    result.map(|()| line)
}

enum Choice {
    Play(Move),
    Mated,
    Fail,
}

/// The next move of the principal line at the end of `path`.
fn choose<G: MateGame>(solver: &mut Solver, pos: &mut G, path: &mut Vec<NodeId>) -> Choice {
    let id = *path.last().expect("the root is on the path");
    let attacking = pos.side_to_move() == solver.attacker();
    solver.set_path(path);
    let children = solver.expand(pos, id);
    if children.is_empty() {
        return if !attacking && pos.in_check() {
            Choice::Mated
        } else {
            Choice::Fail
        };
    }
    if attacking {
        if let Some(c) = children
            .iter()
            .filter(|c| c.outcome.pn == 0)
            .min_by_key(|c| c.outcome.distance)
        {
            return Choice::Play(c.mv);
        }
        let outcome = solver.search(pos, id);
        return match outcome.best {
            Some(mv) if outcome.is_proven() => Choice::Play(mv),
            _ => Choice::Fail,
        };
    }
    let mut longest: Option<(u16, Move)> = None;
    for c in &children {
        if c.outcome.dn == 0 {
            // A refuting reply (a repetition, or no mate within the cap): no line here.
            return Choice::Fail;
        }
        let distance = if c.outcome.pn == 0 {
            c.outcome.distance
        } else {
            pos.play(c.mv);
            path.push(c.id);
            solver.set_path(path);
            let outcome = solver.search(pos, c.id);
            path.pop();
            pos.unplay();
            if !outcome.is_proven() {
                return Choice::Fail;
            }
            outcome.distance
        };
        if longest.is_none_or(|(d, _)| distance > d) {
            longest = Some((distance, c.mv));
        }
    }
    match longest {
        Some((_, mv)) => Choice::Play(mv),
        None => Choice::Fail,
    }
}

/// Checks that `line` is a forced-mate line from `position`: an odd number of legal moves,
/// every attacker move a check, and the defender checkmated at the end.
pub fn verify_mate_line<G: MateGame>(position: &G, line: &[Move]) -> Result<(), String> {
    if line.len().is_multiple_of(2) {
        return Err(format!(
            "{} plies: a mate line has an odd length",
            line.len()
        ));
    }
    let mut pos = position.clone();
    let attacker = pos.side_to_move();
    let mut moves = MoveList::new();
    for (ply, &mv) in line.iter().enumerate() {
        moves.clear();
        pos.generate_legal(&mut moves);
        if !moves.contains(&mv) {
            return Err(format!(
                "ply {}: {:?} is not legal in {}",
                ply + 1,
                mv,
                pos.sfen()
            ));
        }
        let usi = pos.move_text(mv);
        let attacking = pos.side_to_move() == attacker;
        pos.play(mv);
        if attacking && !pos.in_check() {
            return Err(format!("ply {}: {usi} does not give check", ply + 1));
        }
    }
    moves.clear();
    pos.generate_legal(&mut moves);
    if !pos.in_check() || !moves.is_empty() {
        return Err(format!("the line ends without mate in {}", pos.sfen()));
    }
    Ok(())
}

/// The line in USI notation, space separated (for logs and tests).
pub fn line_to_usi<G: MateGame>(position: &G, line: &[Move]) -> String {
    let mut pos = position.clone();
    let mut text = Vec::with_capacity(line.len());
    for &mv in line {
        text.push(pos.move_text(mv));
        pos.play(mv);
    }
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Position;

    fn solve_sfen(sfen: &str, limit_ms: u64) -> (Position, MateAnswer) {
        let pos = Position::from_sfen(sfen).unwrap();
        let answer = solve(
            &pos,
            Some(Duration::from_millis(limit_ms)),
            &Control::new(false),
        );
        (pos, answer)
    }

    fn expect_mate(sfen: &str) -> (Position, Vec<Move>) {
        let (pos, answer) = solve_sfen(sfen, 10_000);
        match answer {
            MateAnswer::Mate(line) => {
                verify_mate_line(&pos, &line).unwrap();
                (pos, line)
            }
            other => panic!("{sfen}: expected a mate, got {other:?}"),
        }
    }

    fn expect_no_mate(sfen: &str) {
        let (_, answer) = solve_sfen(sfen, 10_000);
        assert_eq!(answer, MateAnswer::NoMate, "{sfen}");
    }

    #[test]
    fn mate_in_one_by_a_gold_drop() {
        let (pos, line) = expect_mate("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        assert_eq!(line_to_usi(&pos, &line), "G*5b");
    }

    #[test]
    fn verify_rejects_bad_lines() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let drop = pos.parse_usi_move("G*5b").unwrap();
        let no_check = pos.parse_usi_move("G*1i").unwrap();
        assert!(verify_mate_line(&pos, &[drop]).is_ok());
        assert!(verify_mate_line(&pos, &[no_check]).is_err());
        assert!(verify_mate_line(&pos, &[]).is_err());
        let check_only = pos.parse_usi_move("G*4b").unwrap();
        assert!(verify_mate_line(&pos, &[check_only]).is_err());
    }

    #[test]
    fn no_mate_with_a_lone_pawn() {
        expect_no_mate("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        expect_no_mate("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    }

    /// An open king against a big hand: neither a mate nor a refutation comes quickly.
    const HARD: &str = "9/9/9/9/4k4/9/9/9/9 b RBGSrb3g3s4n4l18p 1";

    #[test]
    fn mate_in_three_with_drops() {
        let (pos, line) = expect_mate("9/7k1/5+R2r/6+S2/9/9/9/9/9 b 2G2b2g3s4n4l18p 1");
        assert_eq!(line.len(), 3, "{}", line_to_usi(&pos, &line));
        assert!(line[0].is_drop() && line[2].is_drop());
    }

    #[test]
    fn mate_in_three_starts_with_a_bishop_drop() {
        // B*7c and B*8b both mate in 3; no mate in 1 exists.
        let (pos, line) = expect_mate("k8/9/1G7/9/9/9/9/9/9 b BNL2rb3g4s3n3l18p 1");
        assert_eq!(line.len(), 3);
        assert!(["B*7c", "B*8b"].contains(&line_to_usi(&pos, &line[..1]).as_str()));
    }

    #[test]
    fn pawn_drop_mate_is_not_a_mate() {
        // P*1b would mate but is illegal; nothing else checks.
        expect_no_mate("7nk/7p1/7S1/9/9/9/9/9/9 b P2r2b4g3s3n4l16p 1");
    }

    #[test]
    fn a_tiny_time_limit_gives_a_timeout() {
        let started = Instant::now();
        let (_, answer) = solve_sfen(HARD, 30);
        assert_eq!(answer, MateAnswer::Timeout);
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn the_stop_flag_ends_an_unlimited_search() {
        let pos = Position::from_sfen(HARD).unwrap();
        let control = Control::new(false);
        let remote = control.clone();
        let started = Instant::now();
        let search = std::thread::spawn(move || solve(&pos, None, &remote));
        std::thread::sleep(Duration::from_millis(50));
        control.stop();
        assert_eq!(search.join().unwrap(), MateAnswer::Timeout);
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn repetition_is_not_a_mate() {
        // The dragon can check forever along the file and rank but never mates alone:
        // perpetual check must come back as no mate, not as a line or a hang.
        expect_no_mate("8k/9/9/9/9/9/9/9/+R8 b - 1");
    }

    #[test]
    fn a_small_table_still_solves_and_verifies() {
        let pos = Position::from_sfen("9/7k1/5+R2r/6+S2/9/9/9/9/9 b 2G2b2g3s4n4l18p 1").unwrap();
        match solve_with_stats(&pos, Some(Duration::from_secs(10)), &Control::new(false), 1).0 {
            MateAnswer::Mate(line) => verify_mate_line(&pos, &line).unwrap(),
            other => panic!("expected a mate, got {other:?}"),
        }
    }

    #[test]
    fn deep_searches_fit_a_small_stack() {
        // An 11-ply mate whose search wanders about 30 plies deep: the recursion must not
        // keep move lists in its frames.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/+R7+B b 4G4S4N4L18P 1").unwrap();
        let search = std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || {
                let limit = Some(Duration::from_secs(10));
                solve_with_stats(&pos, limit, &Control::new(false), 16)
            })
            .unwrap();
        let (answer, stats) = search.join().expect("no stack overflow");
        assert!(matches!(answer, MateAnswer::Mate(_)), "{answer:?}");
        assert!(stats.max_ply > 20, "only {} plies deep", stats.max_ply);
    }

    #[test]
    fn stopped_before_start_is_a_timeout() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let control = Control::new(false);
        control.stop();
        assert_eq!(solve(&pos, None, &control), MateAnswer::Timeout);
    }
}
