//! The CECP search thread: owns the [`Searcher`] (created on the first search), runs one
//! search at a time, prints XBoard's thinking output (`DEPTH SCORE TIME NODES PV`, time in
//! centiseconds, the PV in XBoard coordinates) when `post` is on, and hands the decision
//! back to the protocol thread, which prints `move …` and keeps the game.
//!
//! It also fills the table (`memory`, `protover`) and answers `ping` once the work queued
//! before it is done, so the protocol thread never waits on a fill: `quit` is heard at once,
//! and stopping a search (or quitting) cuts a fill short, as in the USI mode
//! (`usi::worker`).

use super::xboard_text::{play_move, xboard_move_text};
use crate::eval::nets::BoardNets;
use crate::search::game::SearchGame;
use crate::search::{Config, Control, Decision, Info, Limits, Score, Searcher};
use crate::usi::options::HashMb;
use crate::usi::output::{is_legal, Output};
use crate::usi::position::{with_position, UsiPosition};
use crate::usi::worker::{until_stopped, FillTicket};
use crossbeam_channel::{Receiver, Sender};

/// XBoard's convention for mate scores: 100000 + the moves to mate (negative when mated).
const MATE_SCORE: i64 = 100_000;

/// Work for the search thread, done in the order it was queued.
pub enum Work {
    /// A search, numbered by the protocol thread.
    Search(u64, Box<Job>),
    /// Allocate the transposition table at this size now, off the clock, unless a stop
    /// comes first.
    Prepare(HashMb, FillTicket),
    /// Print this line once everything queued before is done: `pong N`, and the answers
    /// (`Illegal move`, `Error`) to the commands between pings, so that they keep their order.
    Say(String),
    /// Forget the search state (a new game).
    Clear,
    /// Signal when everything queued before is done (end of input).
    Sync(Sender<()>),
    /// Search each game with its net in these from now on (`None`: its hand-written
    /// evaluation).
    Network(BoardNets),
}

/// One search.
pub struct Job {
    pub position: UsiPosition,
    pub limits: Limits,
    pub config: Config,
    pub control: Control,
    pub hash: HashMb,
    /// Whether to print thinking output.
    pub post: bool,
}

/// A finished search: its number (to drop answers of searches the protocol abandoned)
/// and what it decided.
pub struct Finished {
    pub id: u64,
    pub decision: Decision,
}

/// Runs work until the channel closes; every search is answered on `done`.
pub fn run(work: Receiver<Work>, done: Sender<Finished>, out: Output) {
    let mut searcher: Option<Searcher> = None;
    let mut nets = BoardNets::default();
    for item in work {
        let (id, job) = match item {
            Work::Search(id, job) => (id, job),
            Work::Prepare(hash, fill) => {
                fill.run(|| {
                    sized(&mut searcher, hash);
                });
                continue;
            }
            Work::Say(line) => {
                out.line(&line);
                continue;
            }
            Work::Clear => {
                if let Some(s) = searcher.as_mut() {
                    s.clear();
                }
                continue;
            }
            Work::Sync(ack) => {
                let _ = ack.send(());
                continue;
            }
            Work::Network(given) => {
                if let Some(s) = searcher.as_mut() {
                    given.give_to(s);
                }
                nets = given;
                continue;
            }
        };
        let new = searcher.is_none();
        // A table a stop cut short is made again now, on the clock, unless this search is
        // stopped too.
        until_stopped(&job.control, || {
            sized(&mut searcher, job.hash);
        });
        let searcher = searcher.as_mut().expect("the searcher was just made");
        if new {
            nets.give_to(searcher);
        }
        let decision = with_position!(&job.position,
            pos => search(searcher, pos.as_ref(), &job, &out),
            _chance => {
                log::error!("no CECP search for the chance games");
                Decision::Resign
            }
        );
        if done.send(Finished { id, decision }).is_err() {
            break;
        }
    }
}

/// The searcher with a table of `hash` MiB, created on first use.
fn sized(searcher: &mut Option<Searcher>, hash: HashMb) -> &mut Searcher {
    match searcher {
        Some(s) => {
            s.set_hash_size(hash.0);
            s
        }
        None => searcher.insert(Searcher::new(hash.0)),
    }
}

/// Runs one search of `position` (the position in `job`, seen as its game type).
fn search<G: SearchGame>(
    searcher: &mut Searcher,
    position: &G,
    job: &Job,
    out: &Output,
) -> Decision {
    // No move, or the game already lost by the rules (a captured last royal, a bared king).
    if !position.has_legal_move() || position.has_lost() {
        return Decision::Resign;
    }
    let mut report = |info: &Info| {
        if job.post {
            out.line(&thinking_line(info, &job.position, position));
        }
    };
    searcher.search(
        position,
        &job.limits,
        &job.config,
        &job.control,
        &mut report,
    )
}

/// XBoard's score of a search score (centipawns, or ±(100000 + moves) for mates).
pub fn xboard_score(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(plies) if plies > 0 => MATE_SCORE + i64::from((plies + 1) / 2),
        Score::Mate(plies) => -MATE_SCORE - i64::from(-plies / 2),
    }
}

/// `DEPTH SCORE TIME NODES PV`: the PV up to its first illegal move, in XBoard text.
fn thinking_line<G: SearchGame>(info: &Info, root: &UsiPosition, position: &G) -> String {
    let centiseconds = info.elapsed.as_millis() / 10;
    let mut line = format!(
        "{} {} {} {}",
        info.depth,
        xboard_score(info.score),
        centiseconds,
        info.nodes
    );
    let mut text_position = root.clone();
    let mut game = position.clone();
    for &mv in &info.pv {
        if !is_legal(&game, mv) {
            break;
        }
        line.push(' ');
        line.push_str(&xboard_move_text(&text_position, mv));
        game.play(mv);
        play_move(&mut text_position, mv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_follow_xboard() {
        assert_eq!(xboard_score(Score::Cp(-31)), -31);
        assert_eq!(xboard_score(Score::Mate(1)), 100_001);
        assert_eq!(xboard_score(Score::Mate(3)), 100_002);
        assert_eq!(xboard_score(Score::Mate(-2)), -100_001);
        assert_eq!(xboard_score(Score::Mate(0)), -100_000);
    }
}
