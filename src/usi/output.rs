//! Everything the engine writes on stdout: one mutex-guarded writer that writes and flushes
//! whole lines (so `info` from the search thread and `bestmove`/`readyok` never interleave),
//! and the text of `info`, `bestmove` and `checkmate` lines.
//!
//! Moves the search reports are checked against the rules before they are printed: a PV is
//! cut at its first illegal move, an illegal best move is replaced by a legal one and an
//! illegal ponder move is dropped, so a search bug can never make a GUI declare a foul.

use crate::rules::game::walk_legal_prefix;
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::GameText;
use crate::search::game::SearchGame;
use crate::search::{Bound, Info, Score};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The shared, line-atomic protocol writer.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(sink)))
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one protocol line and flushes it.
    pub fn line(&self, text: &str) {
        log::debug!("> {text}");
        let mut sink = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let result = writeln!(sink, "{text}").and_then(|()| sink.flush());
        if let Err(e) = result {
            log::warn!("cannot write to the GUI: {e}");
        }
    }

    /// `info string error <message>`: how bad input is reported.
    pub fn error(&self, message: &str) {
        log::warn!("{message}");
        self.line(&format!("info string error {}", one_line(message)));
    }

    /// The warnings of one command as `info string error` lines: the first
    /// [`WARNINGS_SHOWN`] in full, the rest counted on one more line, so a command with
    /// thousands of bad tokens costs a few lines, not thousands.
    pub fn warnings(&self, command: &str, warnings: &[String]) {
        for w in warnings.iter().take(WARNINGS_SHOWN) {
            self.error(&format!("{command}: {w}"));
        }
        if warnings.len() > WARNINGS_SHOWN {
            self.error(&format!(
                "{command}: {} more problems like these not shown",
                warnings.len() - WARNINGS_SHOWN
            ));
        }
    }
}

/// How many of one command's warnings are printed in full.
pub const WARNINGS_SHOWN: usize = 3;

/// Keeps a message on one line.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Whether `mv` is legal in `position`.
pub fn is_legal<G: SearchGame>(position: &G, mv: Move) -> bool {
    let mut legal = MoveList::new();
    position.generate_legal(&mut legal);
    legal.contains(&mv)
}

/// The longest legal prefix of `moves` from `root`, as USI text.
pub fn legal_prefix<G: SearchGame + GameText>(root: &G, moves: &[Move]) -> Vec<String> {
    let mut out = Vec::with_capacity(moves.len());
    let stop = walk_legal_prefix(root, moves, G::generate_legal, G::play, |pos, mv| {
        out.push(pos.move_text(mv))
    });
    if let Some((position, mv)) = stop {
        log::error!(
            "dropping the rest of a line at an illegal move {mv:?} in {}",
            position.sfen()
        );
    }
    out
}

/// The `score …` part of an info line.
pub fn score_text(score: Score, bound: Bound) -> String {
    let mut text = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        // Mated right now (0 plies) is a loss: `-0` is how USI spells an unknown-length loss.
        Score::Mate(0) => "score mate -0".to_string(),
        Score::Mate(plies) => format!("score mate {plies}"),
    };
    match bound {
        Bound::Exact => {}
        Bound::Lower => text.push_str(" lowerbound"),
        Bound::Upper => text.push_str(" upperbound"),
    }
    text
}

/// The `info …` line for one progress report of a search from `root`; `multipv k` appears
/// only when several lines are searched, `pv` always comes last.
pub fn info_line<G: SearchGame + GameText>(info: &Info, root: &G, show_multipv: bool) -> String {
    let ms = info.elapsed.as_millis() as u64;
    let nps = info.nodes.saturating_mul(1000) / ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth.max(info.depth),
        score_text(info.score, info.bound),
        info.nodes,
        nps,
        ms,
        info.hashfull.min(1000),
    );
    if show_multipv {
        line.push_str(&format!(" multipv {}", info.multipv.max(1)));
    }
    let pv = legal_prefix(root, &info.pv);
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// An output sink the tests read back: what the engine wrote, as text.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct CapturedOutput(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl CapturedOutput {
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

#[cfg(test)]
impl Write for CapturedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Position;
    use std::time::Duration;

    fn info(score: Score, bound: Bound, pv: Vec<Move>) -> Info {
        Info {
            depth: 3,
            seldepth: 5,
            multipv: 2,
            score,
            bound,
            nodes: 5000,
            elapsed: Duration::from_millis(250),
            hashfull: 12,
            pv,
        }
    }

    #[test]
    fn lines_from_many_threads_never_interleave() {
        let sink = CapturedOutput::default();
        let out = Output::new(Box::new(sink.clone()));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let out = out.clone();
                std::thread::spawn(move || {
                    for i in 0..200 {
                        out.line(&format!(
                            "info string thread {t} line {i} {}",
                            "x".repeat(50)
                        ));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let text = sink.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 800);
        for line in lines {
            assert!(line.starts_with("info string thread "), "{line}");
            assert!(line.ends_with(&"x".repeat(50)), "{line}");
        }
    }

    #[test]
    fn info_line_has_pv_last_and_multipv_only_when_asked() {
        let root = Position::startpos();
        let mut after = root.clone();
        let m1 = root.parse_usi_move("7g7f").unwrap();
        after.play(m1);
        let m2 = after.parse_usi_move("3c3d").unwrap();
        let line = info_line(
            &info(Score::Cp(-35), Bound::Exact, vec![m1, m2]),
            &root,
            false,
        );
        assert_eq!(
            line,
            "info depth 3 seldepth 5 score cp -35 nodes 5000 nps 20000 time 250 hashfull 12 \
             pv 7g7f 3c3d"
        );
        let line = info_line(&info(Score::Mate(-4), Bound::Upper, vec![m1]), &root, true);
        assert!(
            line.contains("score mate -4 upperbound nodes") && line.ends_with("multipv 2 pv 7g7f"),
            "{line}"
        );
        let line = info_line(&info(Score::Mate(3), Bound::Lower, vec![]), &root, false);
        assert!(line.contains("score mate 3 lowerbound") && !line.contains(" pv"));
    }

    #[test]
    fn illegal_pv_moves_are_cut() {
        let root = Position::startpos();
        let m1 = root.parse_usi_move("7g7f").unwrap();
        // 7g7f again is not legal for gote: the line stops after the first move.
        let line = info_line(
            &info(Score::Cp(0), Bound::Exact, vec![m1, m1, m1]),
            &root,
            false,
        );
        assert!(line.ends_with(" pv 7g7f"), "{line}");
    }

    #[test]
    fn many_warnings_are_summed_up_in_one_line() {
        let sink = CapturedOutput::default();
        let out = Output::new(Box::new(sink.clone()));
        let warnings: Vec<String> = (0..12_500).map(|i| format!("bad token {i}")).collect();
        out.warnings("go", &warnings);
        let text = sink.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), WARNINGS_SHOWN + 1, "{text}");
        assert_eq!(lines[0], "info string error go: bad token 0");
        assert_eq!(
            lines[WARNINGS_SHOWN],
            "info string error go: 12497 more problems like these not shown"
        );
    }

    #[test]
    fn errors_are_one_info_string_line() {
        let sink = CapturedOutput::default();
        let out = Output::new(Box::new(sink.clone()));
        out.error("bad\nthing");
        assert_eq!(sink.text(), "info string error bad thing\n");
    }
}
