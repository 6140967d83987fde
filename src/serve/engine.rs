//! The engine pool: a fixed number of search slots, each one USI search thread (`usi::worker`,
//! with its own transposition table) fed from one shared queue, so a slow search never
//! blocks a page and the machine never runs more searches than it has slots.
//!
//! A slot hands the search thread a `Job::Search` exactly as the USI engine does and reads
//! back the USI lines it writes (`info …`, then one `bestmove …`), so every promise the USI
//! layer keeps (a legal best move, a PV cut at its first illegal move, a whole turn joined
//! by `,` in the chance games) holds here too.
//!
//! A failing search costs its own game only. A panic on the search thread is caught there
//! (the release profile unwinds for this), the search is reported failed with the panic's
//! message and a new thread takes the slot. The slot also keeps the search's time by its
//! own clock: at the time per move it stops the search, and a search that has still not
//! answered [`STOP_GRACE`] later is given up (reported failed, its thread left to itself)
//! and a new thread takes the slot. A panic in the game's handling of an answer is caught
//! as well and ends that game with the error.

use super::fault::{Fault, TestFaults};
use crate::referee::player::Score;
use crate::referee::usi_client::parse_info_score;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::{Config, Control, Limits};
use crate::usi::options::{GameFileNets, HashMb, NetSource};
use crate::usi::output::Output;
use crate::usi::position::UsiPosition;
use crate::usi::worker::{self, FillStops, Job, SearchKind};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use std::any::Any;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Latency the time manager keeps back from the time per move: the page is on the same
/// machine, so little is needed.
const LOCAL_DELAY: Duration = Duration::from_millis(50);

/// How long a search the slot stopped at its time may take to answer before the slot gives
/// it up. A working search answers within milliseconds of the stop; only one stuck in a
/// loop or blocked takes this long, so the margin is wide for a loaded machine.
pub const STOP_GRACE: Duration = Duration::from_secs(3);

/// One search the pool is asked for.
pub struct SearchRequest {
    /// The position as the searching side knows it.
    pub position: UsiPosition,
    pub movetime: Duration,
    /// Stops the search early (the game was taken back, resigned or closed).
    pub control: Control,
    /// The seed of the game searched for: names the game in the log and picks its test
    /// fault, if one is armed (`fault`).
    pub game_seed: u64,
}

/// What a search reports, in order: any number of progress lines, then its decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    Progress(Progress),
    /// The move after `bestmove` (`7g7f`, `7g7f,5i4h`, `resign`, `win`), without the
    /// `ponder` move.
    Decision(String),
    /// The search ended without an answer, for the reason given (it panicked, or did not
    /// stop in time; a bug in the search, logged). The slot has a new search thread.
    Failed(String),
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
    /// Starts `slots` search slots, each with a table of `hash` MiB; `faults` are the test
    /// faults armed (none outside the tests).
    pub fn new(slots: usize, hash: HashMb, faults: TestFaults) -> EnginePool {
        let (tasks, queue) = crossbeam_channel::unbounded::<Task>();
        for index in 0..slots.max(1) {
            let queue = queue.clone();
            let faults = faults.clone();
            std::thread::Builder::new()
                .name(format!("serve-slot-{index}"))
                .spawn(move || run_slot(index, queue, hash, faults))
                .expect("spawn a search slot");
        }
        EnginePool { tasks }
    }

    /// Queues a search; `report` hears its progress and then its decision (or its failure),
    /// on a slot's thread. A search stopped before a slot takes it is dropped without a
    /// report.
    pub fn submit(&self, request: SearchRequest, report: Report) {
        if self.tasks.send(Task { request, report }).is_err() {
            log::error!("the engine pool has stopped; a search was dropped");
        }
    }
}

/// The test fault of the search under way on one search thread.
type ArmedFault = Arc<Mutex<Option<Fault>>>;

/// Hands the search thread's lines to the slot, one line at a time.
struct LineSink {
    pending: Vec<u8>,
    lines: Sender<String>,
    fault: ArmedFault,
}

impl LineSink {
    /// Makes the search fail as its test fault says, on the search thread itself.
    fn strike(&self) {
        let fault = *self
            .fault
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match fault {
            None => {}
            Some(Fault::Panic) => panic!("test fault: this game's search panics"),
            Some(Fault::Hang) => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Some(Fault::Overrun) => {}
        }
    }
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.strike();
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

/// The text of a panic's payload.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// One USI search thread and the channels to it.
struct SearchThread {
    jobs: Sender<Job>,
    lines: Receiver<String>,
    done: Receiver<()>,
    /// The message of the panic that ended the thread, sent as it ends.
    panicked: Receiver<String>,
    fault: ArmedFault,
}

impl SearchThread {
    fn start(index: usize, hash: HashMb) -> Option<SearchThread> {
        let (line_tx, lines) = crossbeam_channel::unbounded();
        let fault = ArmedFault::default();
        let out = Output::new(Box::new(LineSink {
            pending: Vec::new(),
            lines: line_tx,
            fault: Arc::clone(&fault),
        }));
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        // Every game is evaluated as the USI engine evaluates it by default.
        let defaults = NetSource::default();
        let shogi = defaults.unnamed_net();
        let mut built_in = GameFileNets::default();
        let reports = built_in.reload(&defaults);
        debug_assert!(reports.iter().all(Result::is_ok), "{reports:?}");
        let _ = jobs.send(Job::Network(defaults.board_nets(shogi.as_ref(), &built_in)));
        let (done_tx, done) = crossbeam_channel::unbounded();
        let (panic_tx, panicked) = crossbeam_channel::bounded(1);
        let spawned = std::thread::Builder::new()
            .name(format!("serve-search-{index}"))
            .stack_size(crate::search::threads::STACK_BYTES)
            .spawn(move || {
                let run =
                    catch_unwind(AssertUnwindSafe(|| worker::run(job_rx, done_tx, out, hash)));
                if let Err(payload) = run {
                    let _ = panic_tx.send(panic_text(payload.as_ref()));
                }
            });
        match spawned {
            Ok(_) => Some(SearchThread {
                jobs,
                lines,
                done,
                panicked,
                fault,
            }),
            Err(e) => {
                log::error!("cannot start search thread {index}: {e}");
                None
            }
        }
    }

    /// Why the thread ended, once its channels are closed.
    fn death(&self) -> String {
        match self.panicked.recv_timeout(STOP_GRACE) {
            Ok(message) => format!("the search panicked: {message}"),
            Err(_) => "the search thread ended without an answer".to_string(),
        }
    }
}

/// Serves the queue with one search thread; when that thread is lost (it died, or was
/// given up), the search it was running is reported failed and a new thread takes its
/// place.
fn run_slot(index: usize, queue: Receiver<Task>, hash: HashMb, faults: TestFaults) {
    while let Some(thread) = SearchThread::start(index, hash) {
        match serve_queue(index, &queue, hash, &thread, &faults) {
            SlotEnd::QueueClosed => return,
            SlotEnd::ThreadLost => log::error!("search thread {index} is lost: starting another"),
        }
    }
}

enum SlotEnd {
    QueueClosed,
    ThreadLost,
}

/// Hands `event` to the game; a panic in the game's handling of it is caught, logged and
/// reported to the game as its failure (it may have left the game half-changed).
fn deliver(index: usize, report: &mut Report, event: EngineEvent) {
    let Err(payload) = catch_unwind(AssertUnwindSafe(|| report(event))) else {
        return;
    };
    let message = panic_text(payload.as_ref());
    log::error!("slot {index}: the game's handling of a search panicked: {message}");
    let failed = EngineEvent::Failed(format!(
        "the server failed on the engine's answer: {message}"
    ));
    if catch_unwind(AssertUnwindSafe(|| report(failed))).is_err() {
        log::error!("slot {index}: the game's handling of its failure panicked too");
    }
}

fn serve_queue(
    index: usize,
    queue: &Receiver<Task>,
    hash: HashMb,
    thread: &SearchThread,
    faults: &TestFaults,
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
        let seed = request.game_seed;
        let search = Search {
            index,
            hash,
            thread,
            config: &config,
            fault: faults.for_seed(seed),
        };
        if let Err(lost) = search.run(request, &mut table_kind, &mut report) {
            log::error!("slot {index}, the game seeded {seed}: {}", lost.why);
            // A game that had its answer goes on; only the thread is replaced.
            if !lost.answered {
                deliver(index, &mut report, EngineEvent::Failed(lost.why));
            }
            return SlotEnd::ThreadLost;
        }
    }
    SlotEnd::QueueClosed
}

/// A search thread lost: why, and whether the game had its answer first.
struct Lost {
    why: String,
    answered: bool,
}

impl Lost {
    fn before_answer(why: String) -> Lost {
        Lost {
            why,
            answered: false,
        }
    }
}

/// One search on a slot's thread.
struct Search<'a> {
    index: usize,
    hash: HashMb,
    thread: &'a SearchThread,
    config: &'a Config,
    fault: Option<Fault>,
}

impl Search<'_> {
    /// Runs the search and reports its progress and decision; `Err` says why the thread
    /// was lost (it is then of no further use) and whether the decision came first.
    fn run(
        &self,
        request: SearchRequest,
        table_kind: &mut Option<SearchKind>,
        report: &mut Report,
    ) -> Result<(), Lost> {
        let thread = self.thread;
        let kind = request.position.variant().spec().search;
        if *table_kind != Some(kind) {
            // The table is ready before the search's clock starts: a large one takes
            // seconds to fill.
            let (ack, acked) = crossbeam_channel::bounded(1);
            let resize = Job::Resize {
                hash: self.hash,
                kind,
                // The server never cuts a fill short.
                fill: FillStops::default().ticket(),
                ack: Some(ack),
            };
            if thread.jobs.send(resize).is_err() || acked.recv().is_err() {
                return Err(Lost::before_answer(thread.death()));
            }
            *table_kind = Some(kind);
        }
        *thread
            .fault
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = self.fault;
        let mut limits = Limits {
            movetime: Some(request.movetime),
            ..Limits::default()
        };
        // The server's own clock: at the time per move, as the USI engine's backstop.
        let stop_after = crate::usi::backstop(
            &limits,
            request.position.side_to_move(),
            self.config.network_delay2,
        )
        .unwrap_or(request.movetime);
        if self.fault == Some(Fault::Overrun) {
            limits = Limits {
                infinite: true,
                ..Limits::default()
            };
        }
        let control = request.control.clone();
        let job = Job::Search {
            position: request.position,
            limits,
            config: Box::new(self.config.clone()),
            control: request.control,
            rule: EnteringKingRule::default(),
        };
        if thread.jobs.send(job).is_err() {
            return Err(Lost::before_answer(thread.death()));
        }
        let mut deadline = Instant::now() + stop_after;
        let mut stopped = false;
        loop {
            let line = match thread.lines.recv_deadline(deadline) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) if !stopped => {
                    log::warn!("search {} overran its time: stopping it", self.index);
                    control.stop();
                    stopped = true;
                    deadline = Instant::now() + STOP_GRACE;
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Lost::before_answer(self.given_up(request.movetime)))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Lost::before_answer(thread.death()))
                }
            };
            if let Some(rest) = line.strip_prefix("bestmove") {
                let decision = rest.split_whitespace().next().unwrap_or("resign");
                deliver(
                    self.index,
                    report,
                    EngineEvent::Decision(decision.to_string()),
                );
                break;
            }
            if let Some(progress) = Progress::from_info_line(&line) {
                deliver(self.index, report, EngineEvent::Progress(progress));
            } else if line.starts_with("info string") {
                log::debug!("search {}: {line}", self.index);
            }
        }
        // The game has its answer; the thread must still come back for the next search.
        let why = match thread
            .done
            .recv_deadline(deadline.max(Instant::now() + STOP_GRACE))
        {
            Ok(()) => return Ok(()),
            Err(RecvTimeoutError::Timeout) => self.given_up(request.movetime),
            Err(RecvTimeoutError::Disconnected) => thread.death(),
        };
        Err(Lost {
            why,
            answered: true,
        })
    }

    /// Why a search that does not answer is given up; its thread is left to itself.
    fn given_up(&self, movetime: Duration) -> String {
        format!(
            "the search did not answer within {} s of being stopped at its {} ms, so the server gave it up",
            STOP_GRACE.as_secs(),
            movetime.as_millis()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::Variant;
    use crate::usi::position::RuleOptions;

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

    fn request(movetime_ms: u64, game_seed: u64) -> SearchRequest {
        SearchRequest {
            position: UsiPosition::startpos(Variant::Shogi, RuleOptions::default()),
            movetime: Duration::from_millis(movetime_ms),
            control: Control::default(),
            game_seed,
        }
    }

    /// Submits a search and waits for its last event (a decision or a failure), with the
    /// time it took.
    fn answer(pool: &EnginePool, request: SearchRequest) -> (EngineEvent, Duration) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let start = Instant::now();
        pool.submit(
            request,
            Box::new(move |event| {
                let _ = tx.send(event);
            }),
        );
        let last = rx
            .iter()
            .find(|event| !matches!(event, EngineEvent::Progress(_)))
            .unwrap();
        (last, start.elapsed())
    }

    #[test]
    fn a_slot_searches_and_answers_with_a_legal_move() {
        let pool = EnginePool::new(1, HashMb(1), TestFaults::default());
        let (event, _) = answer(&pool, request(100, 1));
        let EngineEvent::Decision(decision) = event else {
            panic!("{event:?}")
        };
        // The ponder move is not part of the decision.
        let position = UsiPosition::startpos(Variant::Shogi, RuleOptions::default());
        assert!(position.parse_move(&decision).is_ok(), "{decision}");
        assert!(!decision.contains(' '), "{decision}");
    }

    /// A pool of one slot whose searches fail as `faults` says (`panic:13`).
    fn faulty_pool(faults: &str) -> EnginePool {
        EnginePool::new(1, HashMb(1), TestFaults::parse(faults).unwrap())
    }

    /// Asserts that `pool` answers the 100 ms search of game `game_seed` with a move: after a
    /// failure, its slot goes on.
    fn assert_the_slot_goes_on(pool: &EnginePool, game_seed: u64) {
        let (event, _) = answer(pool, request(100, game_seed));
        assert!(matches!(event, EngineEvent::Decision(_)), "{event:?}");
    }

    /// Why the search failed; panics if it did not.
    fn failure(event: EngineEvent) -> String {
        match event {
            EngineEvent::Failed(why) => why,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_panicking_search_is_reported_and_the_slot_goes_on() {
        let pool = faulty_pool("panic:13");
        for _ in 0..2 {
            let why = failure(answer(&pool, request(100, 13)).0);
            assert!(
                why.contains("panicked") && why.contains("test fault"),
                "{why}"
            );
            // The one slot has a new thread, which answers another game's search.
            assert_the_slot_goes_on(&pool, 14);
        }
    }

    #[test]
    fn a_search_that_does_not_stop_is_given_up_by_the_slots_clock() {
        let pool = faulty_pool("hang:21");
        let (event, took) = answer(&pool, request(200, 21));
        let why = failure(event);
        assert!(why.contains("did not answer"), "{why}");
        let given_up_at = Duration::from_millis(200) + STOP_GRACE;
        assert!(took >= given_up_at, "{took:?}");
        assert!(took < given_up_at + Duration::from_secs(5), "{took:?}");
        assert_the_slot_goes_on(&pool, 22);
    }

    #[test]
    fn a_search_without_a_time_limit_is_stopped_by_the_slots_clock() {
        let pool = faulty_pool("overrun:31");
        let (event, took) = answer(&pool, request(300, 31));
        assert!(matches!(event, EngineEvent::Decision(_)), "{event:?}");
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(took < Duration::from_millis(300) + STOP_GRACE, "{took:?}");
    }
}
