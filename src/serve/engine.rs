//! The engine pool: a fixed number of search slots, each one USI search thread (`usi::worker`,
//! with its own transposition table) fed from one shared queue, so a slow search never
//! blocks a page and the machine never runs more searches than it has slots.
//!
//! A slot hands the search thread a `Job::Search` exactly as the USI engine does and reads
//! back the USI lines it writes (`info …`, then one `bestmove …`), so every promise the USI
//! layer keeps (a legal best move, a PV cut at its first illegal move, a whole turn joined
//! by `,` in the chance games) holds here too.

use crate::referee::player::Score;
use crate::referee::usi_client::parse_info_score;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::{Config, Control, Limits};
use crate::usi::game::UsiPosition;
use crate::usi::options::HashMb;
use crate::usi::output::Output;
use crate::usi::worker::{self, FillStops, Job, SearchKind};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use std::io::Write;
use std::time::{Duration, Instant};

/// Stack size of a search thread (the searches recurse with move lists on the stack).
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Latency the time manager keeps back from the time per move: the page is on the same
/// machine, so little is needed.
const LOCAL_DELAY: Duration = Duration::from_millis(50);

/// One search the pool is asked for.
pub struct SearchRequest {
    /// The position as the searching side knows it.
    pub position: UsiPosition,
    pub movetime: Duration,
    /// Stops the search early (the game was taken back, resigned or closed).
    pub control: Control,
}

/// What a search reports, in order: any number of progress lines, then its decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    Progress(Progress),
    /// The move after `bestmove` (`7g7f`, `7g7f,5i4h`, `resign`, `win`), without the
    /// `ponder` move.
    Decision(String),
    /// The search thread died before answering (a bug in the search, logged).
    Failed,
}

/// One progress report, read from an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub depth: u32,
    /// From the searching side's point of view: centipawns in shogi, Chu Shogi and Chu
    /// Kagamigi, the equity ×10000 in the chance games.
    pub score: Score,
    /// The principal variation as protocol text.
    pub pv: Vec<String>,
}

impl Progress {
    /// Reads an `info depth … score … pv …` line; other `info` lines give `None`.
    pub fn from_info_line(line: &str) -> Option<Progress> {
        let score = parse_info_score(line)?;
        let mut words = line.split_whitespace();
        let mut depth = 0;
        let mut pv = Vec::new();
        while let Some(word) = words.next() {
            match word {
                "depth" => depth = words.next()?.parse().ok()?,
                "pv" => {
                    pv = words.map(str::to_string).collect();
                    break;
                }
                _ => {}
            }
        }
        Some(Progress { depth, score, pv })
    }
}

type Report = Box<dyn FnMut(EngineEvent) + Send>;

struct Task {
    request: SearchRequest,
    report: Report,
}

/// The shared queue of the search slots.
#[derive(Clone)]
pub struct EnginePool {
    tasks: Sender<Task>,
}

impl EnginePool {
    /// Starts `slots` search slots, each with a table of `hash` MiB.
    pub fn new(slots: usize, hash: HashMb) -> EnginePool {
        let (tasks, queue) = crossbeam_channel::unbounded::<Task>();
        for index in 0..slots.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("serve-slot-{index}"))
                .spawn(move || run_slot(index, queue, hash))
                .expect("spawn a search slot");
        }
        EnginePool { tasks }
    }

    /// Queues a search; `report` hears its progress and then its decision, on a slot's
    /// thread. A search stopped before a slot takes it is dropped without a report.
    pub fn submit(&self, request: SearchRequest, report: Report) {
        if self.tasks.send(Task { request, report }).is_err() {
            log::error!("the engine pool has stopped; a search was dropped");
        }
    }
}

/// Hands the search thread's lines to the slot, one line at a time.
struct LineSink {
    pending: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &byte in bytes {
            if byte == b'\n' {
                let line = String::from_utf8_lossy(&self.pending).into_owned();
                self.pending.clear();
                // The slot outlives its search thread; a send cannot fail while it runs.
                let _ = self.lines.send(line);
            } else {
                self.pending.push(byte);
            }
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One USI search thread and the channels to it.
struct SearchThread {
    jobs: Sender<Job>,
    lines: Receiver<String>,
    done: Receiver<()>,
}

impl SearchThread {
    fn start(index: usize, hash: HashMb) -> Option<SearchThread> {
        let (line_tx, lines) = crossbeam_channel::unbounded();
        let out = Output::new(Box::new(LineSink {
            pending: Vec::new(),
            lines: line_tx,
        }));
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        let (done_tx, done) = crossbeam_channel::unbounded();
        let spawned = std::thread::Builder::new()
            .name(format!("serve-search-{index}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || worker::run(job_rx, done_tx, out, hash));
        match spawned {
            Ok(_) => Some(SearchThread { jobs, lines, done }),
            Err(e) => {
                log::error!("cannot start search thread {index}: {e}");
                None
            }
        }
    }
}

/// Serves the queue with one search thread; when that thread dies (a panic in a search),
/// the search it was running is reported failed and a new thread takes its place.
fn run_slot(index: usize, queue: Receiver<Task>, hash: HashMb) {
    while let Some(thread) = SearchThread::start(index, hash) {
        match serve_queue(index, &queue, hash, &thread) {
            SlotEnd::QueueClosed => return,
            SlotEnd::ThreadDied => log::error!("search thread {index} died: starting another"),
        }
    }
}

enum SlotEnd {
    QueueClosed,
    ThreadDied,
}

fn serve_queue(
    index: usize,
    queue: &Receiver<Task>,
    hash: HashMb,
    thread: &SearchThread,
) -> SlotEnd {
    let config = Config {
        network_delay: LOCAL_DELAY,
        network_delay2: LOCAL_DELAY,
        ..Config::default()
    };
    let mut table_kind = None;
    for Task {
        request,
        mut report,
    } in queue
    {
        if request.control.is_stopped() {
            continue;
        }
        let kind = SearchKind::of(request.position.variant());
        if table_kind != Some(kind) {
            let _ = thread.jobs.send(Job::Resize {
                hash,
                kind,
                // The server never cuts a fill short.
                fill: FillStops::default().ticket(),
            });
            table_kind = Some(kind);
        }
        let limits = Limits {
            movetime: Some(request.movetime),
            ..Limits::default()
        };
        // As under USI, the search is stopped at its time limit should it overrun.
        let mut backstop = crate::usi::backstop(&limits, request.position.side_to_move())
            .map(|limit| Instant::now() + limit);
        let control = request.control.clone();
        let job = Job::Search {
            position: request.position,
            limits,
            config: Box::new(config.clone()),
            control: request.control,
            rule: EnteringKingRule::default(),
        };
        let died = |report: &mut Report| {
            report(EngineEvent::Failed);
            SlotEnd::ThreadDied
        };
        if thread.jobs.send(job).is_err() {
            return died(&mut report);
        }
        loop {
            let line = match backstop {
                Some(at) => match thread.lines.recv_deadline(at) {
                    Ok(line) => line,
                    Err(RecvTimeoutError::Timeout) => {
                        log::warn!("search {index} overran its time: stopping it");
                        control.stop();
                        backstop = None;
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return died(&mut report),
                },
                None => match thread.lines.recv() {
                    Ok(line) => line,
                    Err(_) => return died(&mut report),
                },
            };
            if let Some(rest) = line.strip_prefix("bestmove") {
                let decision = rest.split_whitespace().next().unwrap_or("resign");
                report(EngineEvent::Decision(decision.to_string()));
                break;
            }
            if let Some(progress) = Progress::from_info_line(&line) {
                report(EngineEvent::Progress(progress));
            } else if line.starts_with("info string") {
                log::debug!("search {index}: {line}");
            }
        }
        if thread.done.recv().is_err() {
            return SlotEnd::ThreadDied;
        }
    }
    SlotEnd::QueueClosed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::Variant;
    use crate::usi::game::RuleOptions;

    #[test]
    fn info_lines_are_read_and_other_lines_are_not() {
        let p = Progress::from_info_line(
            "info depth 7 seldepth 9 score cp -35 lowerbound nodes 100 nps 10 time 3 hashfull 0 pv 7g7f 3c3d",
        )
        .unwrap();
        assert_eq!(p.depth, 7);
        assert_eq!(p.score, Score::Cp(-35));
        assert_eq!(p.pv, vec!["7g7f".to_string(), "3c3d".to_string()]);
        let mate = Progress::from_info_line("info depth 3 score mate 5 nodes 9 pv r:61").unwrap();
        assert_eq!(mate.score, Score::Mate(5));
        assert!(Progress::from_info_line("info string ev +0.1 win 55.0%").is_none());
        assert!(Progress::from_info_line("bestmove 7g7f").is_none());
    }

    #[test]
    fn a_slot_searches_and_answers_with_a_legal_move() {
        let pool = EnginePool::new(1, HashMb(1));
        let (tx, rx) = crossbeam_channel::unbounded();
        let position = UsiPosition::startpos(Variant::Shogi, RuleOptions::default());
        pool.submit(
            SearchRequest {
                position: position.clone(),
                movetime: Duration::from_millis(100),
                control: Control::default(),
            },
            Box::new(move |event| {
                let _ = tx.send(event);
            }),
        );
        let decision = rx
            .iter()
            .find_map(|event| match event {
                EngineEvent::Decision(text) => Some(text),
                _ => None,
            })
            .unwrap();
        // The ponder move is not part of the decision.
        assert!(position.parse_move(&decision).is_ok(), "{decision}");
        assert!(!decision.contains(' '), "{decision}");
    }
}
