//! CECP (the XBoard/WinBoard protocol, version 2) engine mode: `shishi --xboard`, or a
//! first input line `xboard`. Shogi, Chu Shogi (XBoard's own conventions: Lion double moves
//! as two legs, jitto as `@@@@`) and Chu Kagamigi (an engine-defined variant: see
//! [`kagamigi`]).
//!
//! Three threads, as in USI mode: the reader (stdin lines into a channel, shared with the
//! USI layer), the protocol thread ([`Engine`]: the game, clocks, modes) and the search
//! thread ([`search`]). The positions, the game dispatch and the options are the USI
//! layer's ([`crate::usi::position`], [`crate::usi::options`]); only the protocol is new.
//!
//! While the engine thinks about its move, `?` makes it move now; `force`, `new`,
//! `result`, `undo`… abandon the search (no move is sent); every other command — `ping`
//! above all — is kept and handled after the move, as the protocol asks, or before the
//! command that abandons the search, in the order received. In analyze mode
//! every command is handled at once, and the analysis restarts on the new position.
//! `docs/XBOARD.md` describes the use from XBoard and WinBoard.

mod features;
pub mod kagamigi;
mod search;
pub mod xboard_text;

use crate::eval::nnue::Network;
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::Variant;
use crate::search::game::SearchGame;
use crate::search::time_text::{parse_minutes_seconds, parse_time, TimeUnit};
use crate::search::{Clock, Control, Decision, Limits};
use crate::usi::options::{Effect, GameFileNets, HashMb, NetLoad, NetOrigin, Options};
use crate::usi::output::Output;
use crate::usi::position::{with_position, UsiPosition};
use crate::usi::worker::FillStops;
use crate::usi::{backstop, backstop_timer, stop_at_backstop};
use crossbeam_channel::{Receiver, Sender};
use kagamigi::HoldingSlots;
use search::{Finished, Job, Work};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xboard_text::{parse_xboard_move, play_move, position_of_xboard_fen, xboard_move_text};

/// Speaks CECP on stdin/stdout until `quit` or end of input; returns the exit code.
pub fn run() -> i32 {
    run_with(std::io::BufReader::new(std::io::stdin()), Output::stdout())
}

/// Speaks CECP with `input` as the GUI's commands and `output` as the engine's answers.
pub fn run_with<R: BufRead + Send + 'static>(input: R, output: Output) -> i32 {
    let lines = crate::usi::spawn_reader(input);
    let mut engine = Engine::new(output);
    engine.serve(lines);
    0
}

/// The time control of `level`, `st` and `sd`, and the clocks of `time` and `otim`.
#[derive(Clone, Debug, Default)]
struct TimeControl {
    /// `level`'s MPS: the clock is filled again after this many moves (0: never).
    moves_per_session: u32,
    increment: Duration,
    /// `st`: a fixed time per move.
    per_move: Option<Duration>,
    /// `sd`: a depth limit.
    depth: Option<u32>,
    /// The engine's clock (`time`) and the opponent's (`otim`).
    own: Option<Duration>,
    opponent: Option<Duration>,
}

impl TimeControl {
    /// The search limits for the engine playing `side`, which has made `moves_made` moves
    /// of the game so far.
    fn limits(&self, side: Color, moves_made: u32) -> Limits {
        let mut clock = Clock::default();
        if self.per_move.is_none() {
            clock.time_left[side.index()] = self.own;
            clock.time_left[side.flip().index()] = self.opponent.or(self.own);
            if !self.increment.is_zero() {
                clock.increment = [Some(self.increment); 2];
            }
            let session = self.moves_per_session;
            if session > 0 {
                clock.moves_to_go = Some(session - moves_made % session);
            }
        }
        Limits {
            clock,
            movetime: self.per_move,
            depth: self.depth,
            ..Limits::default()
        }
    }
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move in the game.
    Move,
    /// Analyze mode: runs until stopped, its result is not played.
    Analysis,
}

struct Active {
    id: u64,
    control: Control,
    purpose: Purpose,
    /// When the protocol thread stops the search itself (the USI layer's backstop against a
    /// search that overruns its time limits).
    deadline: Option<Instant>,
}

/// What the protocol loop does after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Commands handled at once even while the engine thinks about its move: they touch
/// neither the position nor the search.
const HARMLESS: &[&str] = &[
    "post", "nopost", "easy", "hard", "time", "otim", "accepted", "rejected", "computer", "name",
    "rating", "ics", "random", "draw", "hint", "bk", ".", "put", "hover", "xboard",
];

/// Commands that abandon a search for the engine's move (its result is not played).
const ABANDON: &[&str] = &[
    "new",
    "force",
    "result",
    "quit",
    "variant",
    "setboard",
    "undo",
    "remove",
    "analyze",
    "exit",
    "playother",
    "edit",
];

/// The protocol thread's state.
struct Engine {
    out: Output,
    options: Options,
    variant: Variant,
    position: UsiPosition,
    /// The positions before each move played since the game's start (for `undo`).
    history: Vec<UsiPosition>,
    /// The side the engine plays (`None`: force mode).
    engine_side: Option<Color>,
    post: bool,
    analyzing: bool,
    time: TimeControl,
    jobs: Sender<Work>,
    done: Receiver<Finished>,
    active: Option<Active>,
    next_id: u64,
    /// Commands received while the engine thinks, handled after its move.
    pending: VecDeque<String>,
    /// The holdings slots Chu Kagamigi's `setup` asks XBoard for.
    kagamigi_holdings: HoldingSlots,
    /// Standard shogi's net in use and where it comes from (`None`: the hand-written
    /// evaluation).
    net: Option<(NetOrigin, Arc<Network>)>,
    /// The 12×12 games' nets (`ChuEvalFile`, `KagamigiEvalFile`).
    file_nets: GameFileNets,
    /// The count of stops that cuts table fills short.
    fill_stops: FillStops,
}

impl Engine {
    fn new(out: Output) -> Engine {
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        let (done_tx, done) = crossbeam_channel::unbounded();
        let search_out = out.clone();
        std::thread::Builder::new()
            .name("cecp-search".into())
            .spawn(move || search::run(job_rx, done_tx, search_out))
            .expect("spawn the search thread");
        let options = Options::default();
        Engine {
            out,
            position: UsiPosition::startpos(Variant::Shogi, options.rules()),
            options,
            variant: Variant::Shogi,
            history: Vec::new(),
            engine_side: Some(Color::Gote),
            post: false,
            analyzing: false,
            time: TimeControl::default(),
            jobs,
            done,
            active: None,
            next_id: 0,
            pending: VecDeque::new(),
            kagamigi_holdings: HoldingSlots::STOCK_XBOARD,
            net: None,
            file_nets: GameFileNets::default(),
            fill_stops: FillStops::default(),
        }
    }

    /// The protocol loop: commands and finished searches, until `quit` or EOF.
    fn serve(&mut self, lines: Receiver<String>) {
        loop {
            let timer = backstop_timer(self.active.as_ref().and_then(|a| a.deadline));
            crossbeam_channel::select! {
                recv(timer) -> _ => {
                    if let Some(active) = self.active.as_mut() {
                        stop_at_backstop(&active.control, &mut active.deadline);
                    }
                }
                recv(lines) -> line => match line {
                    Ok(line) => {
                        log::debug!("< {line}");
                        if self.receive(line) == Flow::Quit {
                            break;
                        }
                    }
                    Err(_) => {
                        log::info!("end of input: quitting");
                        if self.active.is_none() {
                            // A script's last `ping` still gets its `pong`.
                            let (ack, acked) = crossbeam_channel::bounded(1);
                            self.send(Work::Sync(ack));
                            let _ = acked.recv();
                        }
                        break;
                    }
                },
                recv(self.done) -> finished => {
                    if let Ok(finished) = finished {
                        if self.finished(finished) == Flow::Quit {
                            break;
                        }
                    }
                }
            }
        }
        self.abandon_search();
    }

    /// A line from the GUI: handled now, or kept until the engine has moved.
    fn receive(&mut self, line: String) -> Flow {
        let command = line.split_whitespace().next().unwrap_or("");
        if !self.thinking() || HARMLESS.contains(&command) {
            return self.handle(&line);
        }
        if command == "?" {
            if let Some(active) = &self.active {
                active.control.stop();
                self.fill_stops.stop();
            }
            Flow::Continue
        } else if ABANDON.contains(&command) {
            // The commands kept for after the move come before this one: with the search
            // dropped, they are taken in their order now (a `ping` among them answered),
            // each as if it had just arrived.
            self.abandon_search();
            let mut lines: Vec<String> = self.pending.drain(..).collect();
            lines.push(line);
            for line in lines {
                if self.receive(line) == Flow::Quit {
                    return Flow::Quit;
                }
            }
            Flow::Continue
        } else {
            self.pending.push_back(line);
            Flow::Continue
        }
    }

    /// Stops the running search and waits for it, dropping its result.
    fn abandon_search(&mut self) {
        if let Some(active) = self.active.take() {
            active.control.stop();
            self.fill_stops.stop();
            while let Ok(finished) = self.done.recv() {
                if finished.id == active.id {
                    break;
                }
            }
        }
    }

    /// A search ended: play and announce the engine's move, then the commands kept.
    fn finished(&mut self, finished: Finished) -> Flow {
        let Some(active) = self.active.take_if(|a| a.id == finished.id) else {
            return Flow::Continue;
        };
        if active.purpose == Purpose::Move {
            self.announce(finished.decision);
        }
        // Until a kept command starts another search for a move; an analysis it starts
        // takes the rest at once, as it would take new commands.
        while !self.thinking() {
            let Some(line) = self.pending.pop_front() else {
                break;
            };
            if self.handle(&line) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// Whether the engine is thinking about its move (commands other than the harmless ones
    /// wait for it).
    fn thinking(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| a.purpose == Purpose::Move)
    }

    /// Prints the engine's move (made legal) and plays it, or resigns.
    fn announce(&mut self, decision: Decision) {
        let mut legal = MoveList::new();
        with_position!(&self.position,
            pos => pos.generate_legal(&mut legal),
            _cpos => {});
        let chosen = match decision {
            Decision::Move { best, .. } if legal.contains(&best) => Some(best),
            Decision::Move { best, .. } => {
                log::error!("the search chose an illegal move {best:?}; playing a legal one");
                legal.first().copied()
            }
            // No declaration of a win over CECP: play on if there is a move.
            Decision::DeclareWin => legal.first().copied(),
            Decision::Resign => None,
        };
        match chosen {
            Some(mv) => {
                self.out
                    .line(&format!("move {}", xboard_move_text(&self.position, mv)));
                self.play(mv);
            }
            None => self.out.line("resign"),
        }
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.position.clone());
        play_move(&mut self.position, mv);
    }

    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" | "xboard" | "accepted" | "rejected" | "computer" | "name" | "rating" | "ics"
            | "random" | "easy" | "hard" | "draw" | "hint" | "bk" | "." | "put" | "hover" => {}
            "protover" => {
                for line in features::feature_lines() {
                    self.out.line(&line);
                }
                self.load_net();
                self.prepare();
            }
            "ping" => {
                // Queued work (a table allocation) is finished before the search thread
                // answers; during an analysis, which goes on, the answer comes at once.
                self.say(format!("pong {rest}"));
            }
            "quit" => {
                self.fill_stops.stop();
                return Flow::Quit;
            }
            "new" => {
                self.abandon_search();
                self.analyzing = false;
                self.set_variant(Variant::Shogi);
                self.engine_side = Some(Color::Gote);
                self.time.depth = None;
                self.send(Work::Clear);
                self.load_net();
                self.prepare();
            }
            "variant" => match xboard_text::variant_of(rest) {
                Some(variant) => {
                    self.set_variant(variant);
                    if variant == Variant::Chukagamigi {
                        self.out.line(&kagamigi::setup_line(self.kagamigi_holdings));
                        for line in kagamigi::piece_lines() {
                            self.out.line(&line);
                        }
                    }
                }
                None => self.error("unsupported variant", line),
            },
            "force" => self.engine_side = None,
            "result" => {
                self.engine_side = None;
                self.analyzing = false;
            }
            "go" => {
                self.engine_side = Some(self.position.side_to_move());
                self.think();
            }
            "playother" => self.engine_side = Some(self.position.side_to_move().flip()),
            "white" | "black" => {
                // Protocol 1 leftovers: XBoard does not send them to protover 2 engines.
                self.error("command not legal now", line);
            }
            "level" => self.level(rest, line),
            "st" => match parse_time(rest, TimeUnit::Seconds) {
                Some(t) => self.time.per_move = Some(t),
                None => self.error("bad time", line),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(depth) if depth > 0 => self.time.depth = Some(depth),
                _ => self.error("bad depth", line),
            },
            "time" | "otim" => match parse_time(rest, TimeUnit::Centis) {
                Some(t) => {
                    if command == "time" {
                        self.time.own = Some(t);
                    } else {
                        self.time.opponent = Some(t);
                    }
                }
                None => self.error("bad time", line),
            },
            "post" => self.post = true,
            "nopost" => self.post = false,
            "usermove" => self.user_move(rest),
            "?" => {}
            "setboard" => self.setboard(rest),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "analyze" => {
                self.engine_side = None;
                self.analyzing = true;
                self.restart_analysis();
            }
            "exit" => {
                self.abandon_search();
                self.analyzing = false;
            }
            "memory" => {
                self.set_option("USI_Hash", rest, line);
                self.prepare();
            }
            "cores" => self.set_option("Threads", rest, line),
            "option" => {
                let (name, value) = features::parse_option(rest);
                self.apply_option(&name, value.as_deref(), line);
            }
            "lift" => self.highlight(rest),
            _ => {
                // A bare move (engines without usermove=1 get them so).
                if parse_xboard_move(&self.position, command).is_ok() {
                    self.user_move(command);
                } else {
                    self.error("unknown command", line);
                }
            }
        }
        Flow::Continue
    }

    fn send(&self, work: Work) {
        if self.jobs.send(work).is_err() {
            log::error!("the search thread is gone");
        }
    }

    /// Reads the nets the options name, if they are not the ones in use, for the searches
    /// to come; a file that cannot be used is reported and `ShogiEval`'s choice (or the
    /// 12×12 game's tables) goes on.
    fn load_net(&mut self) {
        let loaded = self.net.as_ref().map(|(origin, _)| origin);
        match self.options.net.reload(loaded) {
            NetLoad::Unchanged => {}
            NetLoad::Loaded(origin, net) => self.net = Some((origin, net)),
            NetLoad::Unloaded => self.net = None,
            NetLoad::Failed(message) => {
                self.tell_user_error(&message);
                self.net = self.options.net.unnamed_net();
            }
        }
        for report in self.file_nets.reload(&self.options.net) {
            match report {
                Ok(loaded) => log::info!("{loaded}"),
                Err(message) => self.tell_user_error(&message),
            }
        }
        let nets = self
            .options
            .net
            .board_nets(self.net.as_ref(), &self.file_nets);
        self.send(Work::Network(nets));
    }

    /// Reports `message` to the user (`tellusererror`) and the log.
    fn tell_user_error(&self, message: &str) {
        log::warn!("{message}");
        self.out.line(&format!("tellusererror {message}"));
    }

    /// Allocates the hash table now, so that the first search does not pay for it.
    fn prepare(&self) {
        self.send(Work::Prepare(
            HashMb(self.options.hash.0),
            self.fill_stops.ticket(),
        ));
    }

    fn error(&self, kind: &str, command: &str) {
        log::warn!("{kind}: {command}");
        self.say(format!("Error ({kind}): {command}"));
    }

    /// Prints an answer in its place among the `pong`s: behind the work queued before it
    /// (which a `pong` waits for), or at once while a search goes on.
    fn say(&self, line: String) {
        if self.active.is_none() {
            self.send(Work::Say(line));
        } else {
            self.out.line(&line);
        }
    }

    fn set_variant(&mut self, variant: Variant) {
        self.abandon_search();
        self.variant = variant;
        self.position = UsiPosition::startpos(variant, self.options.rules());
        self.history.clear();
    }

    /// `level MPS BASE INC`: MPS moves per session (0: the whole game), BASE in minutes or
    /// `MIN:SEC`, INC in seconds. Each move is planned on the clock `time` reports and the
    /// moves left in the session.
    fn level(&mut self, rest: &str, line: &str) {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let [moves, base, inc] = words[..] else {
            return self.error("level needs three values", line);
        };
        // A session longer than any game is the whole game.
        let moves = moves
            .parse::<u64>()
            .ok()
            .map(|n| u32::try_from(n).unwrap_or(0));
        match (
            moves,
            parse_minutes_seconds(base),
            parse_time(inc, TimeUnit::Seconds),
        ) {
            (Some(moves), Some(base), Some(inc)) => {
                self.time.per_move = None;
                self.time.moves_per_session = moves;
                self.time.increment = inc;
                self.time.own = Some(base);
                self.time.opponent = Some(base);
            }
            _ => self.error("bad time control", line),
        }
    }

    fn user_move(&mut self, text: &str) {
        match parse_xboard_move(&self.position, text) {
            Ok(mv) => {
                self.abandon_search();
                self.play(mv);
                self.after_position_change();
            }
            Err(e) => {
                log::info!("illegal move {text}: {e}");
                self.say(format!("Illegal move: {text}"));
            }
        }
    }

    /// Thinks when it is the engine's turn, or analyses again.
    fn after_position_change(&mut self) {
        if self.analyzing {
            self.restart_analysis();
        } else if self.engine_side == Some(self.position.side_to_move()) {
            self.think();
        }
    }

    fn setboard(&mut self, fen: &str) {
        match position_of_xboard_fen(fen, self.variant, self.options.rules()) {
            Ok(position) => {
                self.abandon_search();
                self.position = position;
                self.history.clear();
                if self.analyzing {
                    self.restart_analysis();
                }
            }
            Err(e) => {
                log::warn!("setboard refused: {e}");
                self.out
                    .line(&format!("tellusererror Illegal position: {e}"));
            }
        }
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        if self.history.len() < plies {
            return self.error("command not legal now", line);
        }
        self.abandon_search();
        let keep = self.history.len() - plies;
        self.position = self.history[keep].clone();
        self.history.truncate(keep);
        if self.analyzing {
            self.restart_analysis();
        }
    }

    fn set_option(&mut self, name: &str, value: &str, line: &str) {
        self.apply_option(name, Some(value), line);
    }

    fn apply_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        if name == HoldingSlots::OPTION {
            // Takes effect at the next `variant chukagamigi`, which sends the `setup`.
            match value.and_then(HoldingSlots::parse) {
                Some(slots) => self.kagamigi_holdings = slots,
                None => self.error("bad option", line),
            }
            return;
        }
        match self.options.set(name, value) {
            Ok(Effect::None) => {}
            Ok(Effect::ClearHash) => self.send(Work::Clear),
            // CECP has no `isready`: the net is read at once.
            Ok(Effect::Net) => self.load_net(),
            // A rule option: the game starts again under the new rules.
            Ok(Effect::NewGame) => self.set_variant(self.variant),
            Err(e) => {
                log::warn!("{e}");
                self.error("bad option", line);
            }
        }
    }

    /// Starts a search for the engine's move.
    fn think(&mut self) {
        self.abandon_search();
        let side = self.position.side_to_move();
        // The side to move has made half the plies played (rounded down) since the start or
        // the last `setboard`.
        let moves_made = u32::try_from(self.history.len() / 2).unwrap_or(u32::MAX);
        let limits = self.time.limits(side, moves_made);
        self.start(limits, Purpose::Move);
    }

    fn restart_analysis(&mut self) {
        self.abandon_search();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(limits, Purpose::Analysis);
    }

    fn start(&mut self, limits: Limits, purpose: Purpose) {
        let control = Control::new(false);
        let deadline = match purpose {
            Purpose::Move => backstop(
                &limits,
                self.position.side_to_move(),
                self.options.search.network_delay2,
            )
            .map(|after| Instant::now() + after),
            Purpose::Analysis => None,
        };
        self.next_id += 1;
        let id = self.next_id;
        let job = Job {
            position: self.position.clone(),
            limits,
            config: self.options.search.clone(),
            control: control.clone(),
            hash: HashMb(self.options.hash.0),
            post: self.post || purpose == Purpose::Analysis,
        };
        self.send(Work::Search(id, Box::new(job)));
        self.active = Some(Active {
            id,
            control,
            purpose,
            deadline,
        });
    }

    /// `lift SQUARE`: marks the legal targets of the piece there (`highlight` with a
    /// colour board: yellow moves, red captures, magenta promotions).
    fn highlight(&self, square: &str) {
        let board = self.variant.spec().board();
        let Some(from) = xboard_square(square.trim()) else {
            return;
        };
        let (files, ranks) = (usize::from(board.files), usize::from(board.ranks));
        let mut marks = vec![None; files * ranks];
        with_position!(&self.position,
            pos => {
                let mut legal = MoveList::new();
                pos.generate_legal(&mut legal);
                for &mv in legal.iter() {
                    let text = xboard_move_text(&self.position, mv);
                    let squares = xboard_squares_of(&text);
                    let (Some(&first), Some(&(column, rank))) = (squares.first(), squares.last())
                    else {
                        continue;
                    };
                    if first != from || text.starts_with(|c: char| c.is_ascii_uppercase()) {
                        continue;
                    }
                    if column >= files || rank == 0 || rank > ranks {
                        continue;
                    }
                    let colour = if mv.is_promotion() {
                        'M'
                    } else if pos.is_capture(mv) {
                        'R'
                    } else {
                        'Y'
                    };
                    let slot = &mut marks[(ranks - rank) * files + column];
                    // A promotion choice wins over the plain move to the same square.
                    if slot.is_none() || colour == 'M' {
                        *slot = Some(colour);
                    }
                }
            },
            _cpos => {}
        );
        self.out
            .line(&format!("highlight {}", colour_board(&marks, board.files)));
    }
}

/// An XBoard square (`e5`) as (column from a, rank from 1).
fn xboard_square(text: &str) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let letter = chars.next().filter(char::is_ascii_lowercase)?;
    let rank: usize = chars.as_str().parse().ok()?;
    Some((usize::from(letter as u8 - b'a'), rank))
}

/// The squares named in XBoard move text, in order (`g4h5,h5i6` → g4 h5 h5 i6).
fn xboard_squares_of(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_lowercase() {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 {
                if let Some(sq) = xboard_square(&text[i..i + 1 + digits]) {
                    squares.push(sq);
                }
                i += 1 + digits;
                continue;
            }
        }
        i += 1;
    }
    squares
}

/// XBoard's colour board: FEN-like rows from the top, digits for unmarked runs.
fn colour_board(marks: &[Option<char>], files: u8) -> String {
    let files = usize::from(files);
    let mut rows = Vec::new();
    for row in 0..marks.len() / files {
        let mut text = String::new();
        let mut empty = 0;
        for mark in &marks[row * files..(row + 1) * files] {
            match mark {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rows.push(text);
    }
    rows.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_plans_for_the_moves_left_in_it() {
        let minute = Duration::from_secs(60);
        let mut tc = TimeControl {
            moves_per_session: 40,
            own: Some(minute),
            ..TimeControl::default()
        };
        let moves_to_go = |tc: &TimeControl, made| tc.limits(Color::Gote, made).clock.moves_to_go;
        assert_eq!(moves_to_go(&tc, 0), Some(40));
        assert_eq!(moves_to_go(&tc, 39), Some(1));
        assert_eq!(moves_to_go(&tc, 40), Some(40));
        assert_eq!(moves_to_go(&tc, u32::MAX), Some(40 - u32::MAX % 40));
        tc.moves_per_session = 1;
        assert_eq!(moves_to_go(&tc, 7), Some(1));
        tc.moves_per_session = 0;
        assert_eq!(moves_to_go(&tc, 7), None);
        let limits = tc.limits(Color::Gote, 7);
        assert_eq!(limits.clock.time_left, [Some(minute), Some(minute)]);
        // `st` replaces the clock.
        tc.per_move = Some(minute);
        let limits = tc.limits(Color::Gote, 7);
        assert_eq!(
            (limits.movetime, limits.clock),
            (Some(minute), Clock::default())
        );
    }
}
