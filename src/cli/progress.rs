//! Progress of long work (a record review, `bench`) on stderr: a bar redrawn in place when
//! stderr is a terminal, plain lines (at every tenth of the work) otherwise, so logs and
//! pipes stay readable. Written by hand: a bar is a few lines, not worth a crate.

use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Characters of the bar.
const WIDTH: usize = 30;

/// One task's progress display.
pub struct Progress {
    label: String,
    terminal: bool,
    started: Instant,
    /// The last tenth reported in plain mode.
    last_tenth: Option<usize>,
    drawn: bool,
}

impl Progress {
    pub fn new(label: &str) -> Progress {
        Progress {
            label: label.to_string(),
            terminal: std::io::stderr().is_terminal(),
            started: Instant::now(),
            last_tenth: None,
            drawn: false,
        }
    }

    /// The text shown after `done` of `total` steps, with `note` (a rate, …) after it.
    fn line(&self, done: usize, total: usize, note: &str) -> String {
        format!(
            "{} {done}/{total} ({:.1} s){}{note}",
            self.label,
            self.started.elapsed().as_secs_f64(),
            if note.is_empty() { "" } else { " " },
        )
    }

    /// The bar after `done` of `total` steps.
    pub fn bar(done: usize, total: usize) -> String {
        let filled = (done * WIDTH)
            .checked_div(total)
            .unwrap_or(WIDTH)
            .min(WIDTH);
        format!("[{}{}]", "#".repeat(filled), ".".repeat(WIDTH - filled))
    }

    /// Reports that `done` of `total` steps are done (or under way).
    pub fn step(&mut self, done: usize, total: usize) {
        self.step_noted(done, total, "");
    }

    /// [`Progress::step`] with a note after the count (e.g. a rate).
    pub fn step_noted(&mut self, done: usize, total: usize, note: &str) {
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(
                err,
                "\r{} {}",
                Self::bar(done, total),
                self.line(done, total, note)
            );
            let _ = err.flush();
            self.drawn = true;
        } else {
            let tenth = (done * 10).checked_div(total).unwrap_or(10);
            if self.last_tenth != Some(tenth) || done == total {
                self.last_tenth = Some(tenth);
                let _ = writeln!(err, "{}", self.line(done, total, note));
            }
        }
    }

    /// Erases the bar (on a terminal) so that a result line can be printed on its line; the
    /// next step draws it again.
    pub fn clear(&mut self) {
        if self.terminal && self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
        }
    }

    /// Ends the bar's line.
    pub fn finish(&mut self) {
        if self.terminal && self.drawn {
            let _ = writeln!(std::io::stderr().lock());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_work() {
        assert_eq!(Progress::bar(0, 10), format!("[{}]", ".".repeat(WIDTH)));
        assert_eq!(Progress::bar(10, 10), format!("[{}]", "#".repeat(WIDTH)));
        assert_eq!(Progress::bar(5, 10).matches('#').count(), WIDTH / 2);
        assert_eq!(Progress::bar(0, 0), format!("[{}]", "#".repeat(WIDTH)));
    }
}
