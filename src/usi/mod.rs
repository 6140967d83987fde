//! The USI protocol: reading commands from stdin, answering on stdout, and running searches
//! on a thread of their own so that `stop`, `isready` and `ponderhit` are heard at any time.
//!
//! Three threads: the reader (stdin lines into a channel), the protocol thread (this module's
//! [`Engine`]: state, options, answers) and the search thread ([`worker`]). The protocol
//! thread keeps the current position and options, queues jobs for the search thread and
//! steers a running search through its [`Control`]. It never waits on the search thread
//! while commands come: `isready` queues a job that fills the table and prints `readyok`,
//! so `quit` and `stop` are heard during a fill (and cut it short; every queued `isready` is
//! answered before the exit). All stdout goes
//! through one [`output::Output`]. `docs/USI.md` describes the commands and options.

pub mod book;
pub mod chance;
pub mod command;
pub mod option_table;
pub mod options;
pub mod output;
pub mod position;
pub(crate) mod worker;

use crate::eval::board12_choice::Board12Evaluator;
use crate::eval::nnue::features::NetGame;
use crate::eval::nnue::Network;
use crate::eval::shogi_choice::ShogiEvaluator;
use crate::rules::geometry::Color;
use crate::search::game::SearchGame;
use crate::search::params::SearchParams;
use crate::search::{Clock, Control, Limits};
use command::{Go, MateLimit};
use crossbeam_channel::{Receiver, Sender};
use options::Variant;
use options::{Effect, GameFileNets, HashMb, NetLoad, NetOrigin, Options};
use output::Output;
use position::{with_position, RuleOptions, UsiPosition};
use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};
use worker::{FillStops, Job, SearchKind};

/// The engine name sent by `id name`.
pub const ENGINE_NAME: &str = concat!("Shishi ", env!("CARGO_PKG_VERSION"));
/// The author sent by `id author`.
pub const ENGINE_AUTHOR: &str = "the Shishi developers";

/// How long `quit`/EOF waits for a running search to print its last line.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Speaks USI on stdin/stdout until `quit` or end of input; returns the exit code.
pub fn run() -> i32 {
    run_with(std::io::BufReader::new(std::io::stdin()), Output::stdout())
}

/// Speaks USI with `input` as the GUI's commands and `output` as the engine's answers.
pub fn run_with<R: BufRead + Send + 'static>(input: R, output: Output) -> i32 {
    run_listing(input, output, false)
}

/// [`run_with`], and with `search_params` the answer to `usi` also declares the hidden
/// `Search_…` parameters as spin options (`shishi --list-search-params`): for tuners that set
/// only the options an engine declares, such as ShogiArena's SPSA (docs/STRENGTH.md).
pub fn run_listing<R: BufRead + Send + 'static>(
    input: R,
    output: Output,
    search_params: bool,
) -> i32 {
    let lines = spawn_reader(input);
    let mut engine = Engine::new(output);
    engine.list_search_params = search_params;
    engine.serve(lines);
    0
}

/// Reads lines (any line ending, invalid UTF-8 replaced) into a channel; closes it at EOF.
/// Shared with the CECP mode.
pub(crate) fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> Receiver<String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("usi-reader".into())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        log::error!("cannot read stdin: {e}");
                        break;
                    }
                }
            }
        })
        .expect("spawn the reader thread");
    rx
}

/// The search or mate solve currently running.
struct Active {
    control: Control,
    /// The limits of a search that is pondering (for the deadline at `ponderhit`).
    ponder_limits: Option<Limits>,
    /// The side the search moves for.
    side: Color,
    /// When the protocol thread stops the search itself (a backstop for the time limits).
    deadline: Option<Instant>,
}

/// The protocol thread's state.
struct Engine {
    out: Output,
    options: Options,
    position: UsiPosition,
    jobs: Sender<Job>,
    done: Receiver<()>,
    active: Option<Active>,
    /// The table the search thread has allocated: its size and the search it serves (none
    /// before the first `isready`).
    applied_table: Option<(HashMb, SearchKind)>,
    /// The count of stops that cuts table fills short.
    fill_stops: FillStops,
    /// Signalled by the search thread after each `readyok` it prints.
    readies: Receiver<()>,
    readies_tx: Sender<()>,
    /// `isready` commands queued to the search thread since the start (each signals
    /// `readies` once answered), less the signals received.
    readies_unanswered: usize,
    /// Whether a search ran since the search state was last cleared (a new game needs a
    /// clear only then).
    searched_since_clear: bool,
    /// A `ponderhit` that arrived while nothing was pondering, with its clock; applies to a
    /// `go ponder` that is the very next command (see `ponderhit`).
    early_ponderhit: Option<Option<Clock>>,
    /// The opening book (`BookFile`), played from at `go` before searching.
    book: book::EngineBook,
    /// Whether `usi` declares the hidden `Search_…` parameters too.
    list_search_params: bool,
    /// Standard shogi's net and where it was read from (`None`: the hand-written evaluation).
    net: Option<(NetOrigin, Arc<Network>)>,
    /// The 12×12 games' nets (`ChuEvalFile`, `KagamigiEvalFile`).
    file_nets: GameFileNets,
}

/// What the protocol loop should do after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Commands the engine knows (to skip unknown leading tokens, as the spec asks).
const COMMANDS: &[&str] = &[
    "usi",
    "isready",
    "setoption",
    "usinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "gameover",
    "quit",
    "debug",
    "register",
    "e",
];

/// A channel that fires at the running search's backstop `deadline` (never without one),
/// for the protocol loops' `select!`.
pub(crate) fn backstop_timer(deadline: Option<Instant>) -> Receiver<Instant> {
    match deadline {
        Some(at) => crossbeam_channel::at(at),
        None => crossbeam_channel::never(),
    }
}

/// The backstop was reached: the protocol thread stops the search itself.
pub(crate) fn stop_at_backstop(control: &Control, deadline: &mut Option<Instant>) {
    log::info!("time backstop reached: stopping the search");
    control.stop();
    *deadline = None;
}

/// The hard time backstop of a search with these limits for `side`, measured from the
/// moment the clock starts: `movetime`, or the remaining time plus byoyomi (the point past
/// which the move would lose on time; the increment is not counted, as some tools add it
/// only after the move) less a margin of 5 %, at most 500 ms and at most `network_delay2`
/// (`NetworkDelay2`, the worst latency the GUI is said to count: at 0 the whole byoyomi is
/// the engine's, as YaneuraOu takes it). The search's own time management finishes by then
/// (its hard limit keeps the same `network_delay2` off); this only guards against a search
/// that overruns.
pub(crate) fn backstop(limits: &Limits, side: Color, network_delay2: Duration) -> Option<Duration> {
    let clock: &Clock = &limits.clock;
    let hard = match (clock.time_left[side.index()], clock.byoyomi) {
        (None, None) => None,
        (time, byoyomi) => {
            let total = time.unwrap_or_default() + byoyomi.unwrap_or_default();
            let margin = (total / 20)
                .min(Duration::from_millis(500))
                .min(network_delay2);
            Some(total - margin)
        }
    };
    match (hard, limits.movetime) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The standard static evaluation of a deterministic game's position, side to move's view.
fn static_eval_of<G: SearchGame>(pos: &G) -> i32 {
    let evaluator = G::default_evaluator();
    G::eval_score(evaluator, &pos.eval_totals(evaluator), pos.side_to_move())
}

impl Engine {
    fn new(out: Output) -> Engine {
        let options = Options::default();
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        let (done_tx, done) = crossbeam_channel::unbounded();
        let (readies_tx, readies) = crossbeam_channel::unbounded();
        let worker_out = out.clone();
        let hash = options.hash;
        std::thread::Builder::new()
            .name("usi-search".into())
            .spawn(move || worker::run(job_rx, done_tx, worker_out, hash))
            .expect("spawn the search thread");
        Engine {
            out,
            options,
            position: UsiPosition::startpos(Variant::Shogi, RuleOptions::default()),
            jobs,
            done,
            active: None,
            applied_table: None,
            fill_stops: FillStops::default(),
            readies,
            readies_tx,
            readies_unanswered: 0,
            searched_since_clear: false,
            early_ponderhit: None,
            book: book::EngineBook::default(),
            list_search_params: false,
            net: None,
            file_nets: GameFileNets::default(),
        }
    }

    fn send(&self, job: Job) {
        if self.jobs.send(job).is_err() {
            log::error!("the search thread is gone");
        }
    }

    /// The protocol loop: commands, finished searches and deadlines, until quit or EOF.
    fn serve(&mut self, lines: Receiver<String>) {
        loop {
            let timer = backstop_timer(self.active.as_ref().and_then(|a| a.deadline));
            crossbeam_channel::select! {
                recv(lines) -> line => match line {
                    Ok(line) => {
                        log::debug!("< {line}");
                        if self.handle(&line) == Flow::Quit {
                            break;
                        }
                    }
                    Err(_) => {
                        log::info!("end of input: quitting");
                        self.answer_readies();
                        break;
                    }
                },
                recv(self.done) -> _ => self.active = None,
                recv(timer) -> _ => {
                    if let Some(active) = self.active.as_mut() {
                        stop_at_backstop(&active.control, &mut active.deadline);
                    }
                }
            }
        }
        self.finish_search(Some(QUIT_GRACE));
    }

    /// At `quit` or the end of input: stops the running search and waits until every
    /// `isready` queued has been answered (a piped `usi`, `isready`, `quit` still gets its
    /// `readyok`: a table fill still running was cut short by `quit`, so this is quick).
    fn answer_readies(&mut self) {
        if let Some(active) = &self.active {
            active.control.stop();
        }
        while self.readies_unanswered > 0 && self.readies.recv().is_ok() {
            self.readies_unanswered -= 1;
        }
    }

    /// Stops the running search, if any, and waits for its last line (up to `grace`).
    fn finish_search(&mut self, grace: Option<Duration>) {
        if let Some(active) = self.active.take() {
            active.control.stop();
            let received = match grace {
                Some(limit) => self.done.recv_timeout(limit).is_ok(),
                None => self.done.recv().is_ok(),
            };
            if !received {
                log::error!("the search did not stop in time");
            }
        }
    }

    fn handle(&mut self, line: &str) -> Flow {
        // A search that already printed its last line may not have been noticed yet.
        while self.done.try_recv().is_ok() {
            self.active = None;
        }
        let toks = command::tokens(line);
        let Some(start) = toks.iter().position(|(_, t)| COMMANDS.contains(t)) else {
            if !toks.is_empty() {
                self.out.error(&format!("unknown command {:?}", toks[0].1));
            }
            return Flow::Continue;
        };
        if start > 0 {
            log::warn!("skipping unknown tokens before {:?}", toks[start].1);
        }
        let early_ponderhit = self.early_ponderhit.take();
        let (offset, name) = toks[start];
        let rest = &line[offset + name.len()..];
        let args: Vec<&str> = toks[start + 1..].iter().map(|(_, t)| *t).collect();
        match name {
            "usi" => self.usi(),
            "isready" => self.isready(),
            "setoption" => self.setoption(rest),
            "usinewgame" if self.searched_since_clear => self.clear(),
            "position" => {
                match UsiPosition::parse(&args, self.options.variant, self.options.rules()) {
                    Ok(position) => self.position = position,
                    Err(e) => self
                        .out
                        .error(&format!("position refused, keeping the previous one: {e}")),
                }
            }
            "go" => {
                self.go(&args);
                if let Some(clock) = early_ponderhit {
                    log::info!("applying the ponderhit that overtook go ponder");
                    self.apply_ponderhit(clock);
                }
            }
            "stop" => {
                if let Some(active) = &self.active {
                    active.control.stop();
                }
                self.fill_stops.stop();
            }
            "gameover" => {
                if let Some(active) = &self.active {
                    active.control.stop();
                }
                // Clear now, off the clock: queued behind the stopped search, and the next
                // `isready` waits for it. The next `usinewgame` then has nothing to do.
                self.clear();
            }
            "ponderhit" => self.ponderhit(&args),
            "e" => self.static_eval(),
            "quit" => {
                // A fill cut short ends at once; its `readyok` is printed before the exit.
                self.fill_stops.stop();
                self.answer_readies();
                return Flow::Quit;
            }
            // usinewgame with nothing to clear, debug, register: nothing to do.
            _ => {}
        }
        Flow::Continue
    }

    fn usi(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for line in options::declarations() {
            self.out.line(&line);
        }
        if self.list_search_params {
            for spec in SearchParams::SPECS {
                self.out.line(&format!(
                    "option name {} type spin default {} min {} max {}",
                    spec.name, spec.default, spec.min, spec.max
                ));
            }
        }
        self.out.line("usiok");
    }

    /// Queues a reset of the search state.
    fn clear(&mut self) {
        self.send(Job::Clear);
        self.searched_since_clear = false;
    }

    /// The table the current options ask for.
    fn wanted_table(&self) -> (HashMb, SearchKind) {
        (self.options.hash, self.options.variant.spec().search)
    }

    /// Queues the allocation of the table the options ask for, if it is not the one the
    /// search thread has.
    fn queue_table(&mut self) {
        let wanted = self.wanted_table();
        if self.applied_table == Some(wanted) {
            return;
        }
        self.applied_table = Some(wanted);
        let (hash, kind) = wanted;
        self.send(Job::Resize {
            hash,
            kind,
            fill: self.fill_stops.ticket(),
            ack: None,
        });
    }

    /// Heavy initialisation (the table of the game's search, a queued clear) happens here,
    /// but never delays `readyok` during a search: then the new table is queued behind it.
    /// Otherwise the search thread prints `readyok` once the jobs before it are done, while
    /// this thread goes on reading commands.
    fn isready(&mut self) {
        if book::has_books(self.options.variant) {
            self.book.prepare(&self.options.book, &self.out);
        } else if self.options.book.path().is_some() {
            self.out.line(&format!(
                "info string book not used: {} has dice or cards",
                self.options.variant.name()
            ));
        }
        self.load_net();
        self.queue_table();
        if self.active.is_some() {
            self.out.line("readyok");
        } else {
            self.send(Job::Ready {
                fill: self.fill_stops.ticket(),
                answered: self.readies_tx.clone(),
            });
            self.readies_unanswered += 1;
        }
    }

    /// Reads the net `ShogiEval`/`EvalFile`/`EvalDir` name if it is not the one loaded, and
    /// the 12×12 games' (`ChuEvalFile`, `KagamigiEvalFile`), and hands the search thread
    /// them and the Madness's (`MadnessEval`). A file that cannot be
    /// used is reported (`info string error`) and `ShogiEval`'s choice evaluates until a later
    /// `isready` reads a good one.
    fn load_net(&mut self) {
        let loaded = self.net.as_ref().map(|(origin, _)| origin);
        match self.options.net.reload(loaded) {
            NetLoad::Unchanged => {}
            NetLoad::Loaded(origin, net) => {
                self.out.line(&format!(
                    "info string loaded the net {origin} ({})",
                    crate::eval::nnue::file::architecture_name(net.features)
                ));
                self.net = Some((origin, net));
            }
            NetLoad::Unloaded => self.net = None,
            NetLoad::Failed(message) => {
                self.out.error(&message);
                let fallback = self.options.net.unnamed_net();
                if fallback.as_ref().map(|(origin, _)| origin) != loaded {
                    self.net = fallback;
                }
            }
        }
        for report in self.file_nets.reload(&self.options.net) {
            match report {
                Ok(loaded) => self.out.line(&format!("info string {loaded}")),
                Err(message) => self.out.error(&message),
            }
        }
        // Sent at every `isready`: the searchers keep their tables when a net is the same.
        let nets = self
            .options
            .net
            .board_nets(self.net.as_ref(), &self.file_nets);
        self.send(Job::Network(nets));
    }

    /// `e` (YaneuraOu's extension): the static evaluation of the current position for the
    /// side to move, `eval = N`: standard shogi's net when one is loaded, the 12×12 games'
    /// tables corrected by their net when one is loaded, else the built-in evaluation's;
    /// Shogammon's in centipawns on the logistic scale, corrected by its net when one is
    /// loaded (the number its net is trained towards).
    fn static_eval(&self) {
        let value = match &self.position {
            UsiPosition::Shogi(pos) => {
                let evaluator =
                    ShogiEvaluator::with_net(self.net.as_ref().map(|(_, net)| net.clone()));
                evaluator.evaluate(pos)
            }
            UsiPosition::Chushogi(pos) => {
                Board12Evaluator::with_net(self.file_nets.net(NetGame::Chu)).evaluate(&**pos)
            }
            UsiPosition::Chukagamigi(pos) => {
                Board12Evaluator::with_net(self.file_nets.net(NetGame::Kagamigi)).evaluate(&**pos)
            }
            UsiPosition::Shogammon(pos) => {
                let net = self.file_nets.net(NetGame::Shogammon);
                crate::eval::shogammon::corrected_cp(pos, net.as_deref()).round() as i32
            }
            other => with_position!(other,
                pos => static_eval_of(pos.as_ref()),
                _cpos => {
                    return self
                        .out
                        .error("e: the Central Madness has no static evaluation");
                }
            ),
        };
        self.out.line(&format!("eval = {value}"));
    }

    fn setoption(&mut self, rest: &str) {
        let (name, value) = match command::parse_setoption(rest) {
            Ok(parsed) => parsed,
            Err(e) => return self.out.error(&e),
        };
        match self.options.set(&name, value.as_deref()) {
            // The net is read at the next `isready`.
            Ok(Effect::None | Effect::Net) => {}
            Ok(Effect::ClearHash) => self.clear(),
            Ok(Effect::NewGame) => {
                self.clear();
                self.position = UsiPosition::startpos(self.options.variant, self.options.rules());
            }
            Err(e) => self.out.error(&e),
        }
    }

    fn go(&mut self, args: &[&str]) {
        if self.active.is_some() {
            // Usually the search has just printed its bestmove and the GUI answered before
            // its completion was noticed here (then stopping it changes nothing); otherwise
            // it is a GUI error, and the running search ends with its own bestmove first.
            log::debug!("go while a search is active: stopping it first");
            self.finish_search(None);
        }
        let position = self.position.clone();
        let (go, warnings) = command::parse_go(args, &|text| position.parse_move(text));
        self.out.warnings("go", &warnings);
        self.queue_table();
        let Go {
            limits,
            ponder,
            mate,
        } = go;
        if mate.is_none() && !ponder && !limits.infinite {
            let book_move = self
                .book
                .choose(&self.position, &self.options.book, &self.out);
            if let Some(choice) = book_move {
                self.out.line(&match choice.ponder {
                    Some(ponder) => format!("bestmove {} ponder {ponder}", choice.mv),
                    None => format!("bestmove {}", choice.mv),
                });
                return;
            }
        }
        self.searched_since_clear = true;
        let now = Instant::now();
        if let Some(limit) = mate {
            let control = Control::new(false);
            let deadline = match limit {
                MateLimit::Time(ms) => Some(now + ms),
                MateLimit::Infinite => None,
            };
            self.send(Job::Mate {
                position,
                limit,
                control: control.clone(),
            });
            self.active = Some(Active {
                control,
                ponder_limits: None,
                side: self.position.side_to_move(),
                deadline,
            });
            return;
        }
        let control = Control::new(ponder);
        let deadline = if ponder || limits.infinite {
            None
        } else {
            backstop(
                &limits,
                self.position.side_to_move(),
                self.options.search.network_delay2,
            )
            .map(|d| now + d)
        };
        self.active = Some(Active {
            control: control.clone(),
            ponder_limits: ponder.then(|| limits.clone()),
            side: self.position.side_to_move(),
            deadline,
        });
        self.send(Job::Search {
            position,
            limits,
            config: Box::new(self.options.search.clone()),
            control,
            rule: self.options.entering_king,
        });
    }

    /// `ponderhit [btime … wtime … byoyomi|binc …]`: the clock starts now. The time tokens
    /// (YaneuraOu's extension) replace the clock of `go ponder` for the backstop; the search
    /// itself keeps the limits it was started with.
    fn ponderhit(&mut self, args: &[&str]) {
        let (clock, warnings) = command::parse_ponderhit(args);
        self.out.warnings("ponderhit", &warnings);
        let pondering = self
            .active
            .as_ref()
            .is_some_and(|a| a.ponder_limits.is_some());
        if pondering {
            self.apply_ponderhit(clock);
        } else {
            // cshogi.cli writes `go ponder` from a worker thread and `ponderhit` from its main
            // thread, so a quick opponent move can make `ponderhit` overtake `go ponder`. Keep
            // it for a `go ponder` that comes as the very next command.
            log::info!("ponderhit while not pondering: kept for an immediate go ponder");
            self.early_ponderhit = Some(clock);
        }
    }

    /// Turns the running ponder search into a normal one, with `clock` (if any) replacing
    /// the clock of `go ponder` for the backstop.
    fn apply_ponderhit(&mut self, clock: Option<Clock>) {
        let Some(active) = self.active.as_mut() else {
            return;
        };
        let Some(mut limits) = active.ponder_limits.take() else {
            return;
        };
        if let Some(clock) = clock {
            limits.clock = clock;
        }
        active.control.ponderhit();
        if !limits.infinite {
            active.deadline = backstop(&limits, active.side, self.options.search.network_delay2)
                .map(|d| Instant::now() + d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a whole session from a script (ending in EOF) and returns the output lines.
    fn session(script: &str) -> Vec<String> {
        let sink = output::CapturedOutput::default();
        let code = run_with(
            std::io::Cursor::new(script.as_bytes().to_vec()),
            Output::new(Box::new(sink.clone())),
        );
        assert_eq!(code, 0);
        let text = sink.text();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn search_parameters_are_declared_only_when_asked_for() {
        let script = "usi\nsetoption name Search_LmrDivisor value 300\nisready\n";
        let listing = |search_params: bool| {
            let sink = output::CapturedOutput::default();
            let input = std::io::Cursor::new(script.as_bytes().to_vec());
            run_listing(input, Output::new(Box::new(sink.clone())), search_params);
            sink.text()
        };
        let listed = listing(true);
        for spec in SearchParams::SPECS {
            let line = format!(
                "option name {} type spin default {} min {} max {}\n",
                spec.name, spec.default, spec.min, spec.max
            );
            assert!(listed.contains(&line), "{line}");
        }
        assert!(listed.find("Search_").unwrap() < listed.find("usiok").unwrap());
        assert!(!listed.contains("error"), "{listed}");
        let plain = listing(false);
        assert!(
            !plain.contains("Search_") && plain.contains("readyok"),
            "{plain}"
        );
    }

    #[test]
    fn handshake_and_one_bestmove() {
        let out =
            session("usi\r\nisready\nusinewgame\nposition startpos moves 7g7f\ngo byoyomi 100\n");
        assert_eq!(out[0], format!("id name {ENGINE_NAME}"));
        assert!(out.contains(&"usiok".to_string()));
        assert!(out.contains(&"readyok".to_string()));
        let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1, "{out:?}");
    }

    #[test]
    fn unknown_commands_and_bad_positions_report_errors() {
        let out = session("hello\nposition startpos moves 1a1b\njunk isready\n");
        assert!(out[0].starts_with("info string error unknown command"));
        assert!(out[1].starts_with("info string error position refused"));
        // The default evaluations, the built-in nets of standard shogi, Chu Shogi and Chu
        // Kagamigi, are read at the first isready (Shogammon's is not its default).
        assert_eq!(
            out[2],
            "info string loaded the net <builtin> (kp_256x2-32-32)"
        );
        assert_eq!(
            out[3],
            "info string loaded the net <builtin> (chu-p_256x2-32-32)"
        );
        assert_eq!(
            out[4],
            "info string loaded the net <builtin> (kagamigi-p_256x2-32-32)"
        );
        assert_eq!(out[5], "readyok");
    }

    #[test]
    fn backstop_uses_the_movers_clock_and_movetime() {
        // NetworkDelay2's default (1120 ms) is longer than the 5 % / 500 ms margin.
        const DEFAULT_DELAY2: Duration = Duration::from_millis(1120);
        let mut limits = Limits::default();
        assert_eq!(backstop(&limits, Color::Sente, DEFAULT_DELAY2), None);
        limits.clock.byoyomi = Some(Duration::from_millis(1000));
        assert_eq!(
            backstop(&limits, Color::Sente, DEFAULT_DELAY2),
            Some(Duration::from_millis(950))
        );
        limits.clock.time_left = [Some(Duration::from_secs(60)), Some(Duration::ZERO)];
        assert_eq!(
            backstop(&limits, Color::Sente, DEFAULT_DELAY2),
            Some(Duration::from_millis(60_500))
        );
        assert_eq!(
            backstop(&limits, Color::Gote, DEFAULT_DELAY2),
            Some(Duration::from_millis(950))
        );
        limits.movetime = Some(Duration::from_millis(300));
        assert_eq!(
            backstop(&limits, Color::Sente, DEFAULT_DELAY2),
            Some(Duration::from_millis(300))
        );
        let zero = Limits {
            clock: Clock {
                time_left: [Some(Duration::ZERO); 2],
                increment: [None; 2],
                byoyomi: Some(Duration::ZERO),
                moves_to_go: None,
            },
            ..Limits::default()
        };
        assert_eq!(
            backstop(&zero, Color::Gote, DEFAULT_DELAY2),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn backstop_margin_never_exceeds_network_delay2() {
        let mut limits = Limits::default();
        limits.clock.byoyomi = Some(Duration::from_millis(300));
        let ms = Duration::from_millis;
        // At NetworkDelay2 0 the whole byoyomi is the engine's (YaneuraOu's reading).
        assert_eq!(backstop(&limits, Color::Sente, ms(0)), Some(ms(300)));
        assert_eq!(backstop(&limits, Color::Sente, ms(5)), Some(ms(295)));
        assert_eq!(backstop(&limits, Color::Sente, ms(100)), Some(ms(285)));
        limits.clock.time_left = [Some(Duration::from_secs(60)), None];
        assert_eq!(backstop(&limits, Color::Sente, ms(200)), Some(ms(60_100)));
    }
}
