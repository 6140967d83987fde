//! The CECP search thread: owns the [`Searcher`] (created on the first search), runs one
//! search at a time, prints XBoard's thinking output (`DEPTH SCORE TIME NODES PV`, time in
//! centiseconds, the PV in XBoard coordinates) when `post` is on, and hands the decision
//! back to the protocol thread, which prints `move …` and keeps the game.

use super::game::xboard_move_text;
use crate::search::game::SearchGame;
use crate::search::{Config, Control, Decision, Info, Limits, Score, Searcher};
use crate::usi::game::{with_position, UsiPosition};
use crate::usi::options::HashMb;
use crate::usi::output::{is_legal, Output};
use crossbeam_channel::{Receiver, Sender};

/// XBoard's convention for mate scores: 100000 + the moves to mate (negative when mated).
const MATE_SCORE: i64 = 100_000;

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

/// Runs searches until the job channel closes; every job is answered on `done`.
pub fn run(jobs: Receiver<(u64, Job)>, done: Sender<Finished>, out: Output) {
    let mut searcher: Option<Searcher> = None;
    for (id, job) in jobs {
        let searcher = match searcher.as_mut() {
            Some(s) => {
                s.set_hash_size(job.hash.0);
                s
            }
            None => searcher.insert(Searcher::new(job.hash.0)),
        };
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

/// Runs one search of `position` (the position in `job`, seen as its game type).
fn search<G: SearchGame>(
    searcher: &mut Searcher,
    position: &G,
    job: &Job,
    out: &Output,
) -> Decision {
    if !position.has_legal_move() {
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
        play(&mut text_position, mv);
    }
    line
}

/// Plays a move on a position of any of the games.
pub fn play(position: &mut UsiPosition, mv: crate::rules::moves::Move) {
    with_position!(position,
        pos => SearchGame::play(pos.as_mut(), mv),
        cpos => crate::rules::game::Game::play(cpos.as_mut(), mv)
    );
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
