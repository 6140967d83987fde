//! The search thread: owns the [`Searcher`] (created lazily, so start-up stays fast), runs one
//! job at a time in the order the protocol thread queued them, and writes each search's
//! `info` lines and its single `bestmove` (or `checkmate`) line.
//!
//! The USI promises are enforced here, whatever the search does: after `go infinite` or
//! `go ponder` nothing is printed before `stop`/`ponderhit`; no legal move gives
//! `bestmove resign`; a valid entering-king declaration gives `bestmove win`; the best and
//! ponder moves printed are legal.
//!
//! Table fills run here too, interruptible ([`FillStops`]): the protocol thread keeps reading
//! while a table is filled, and a `stop` or `quit` cuts the fill short. A table cut short is
//! made again at the next `isready` or search.

use super::chance::{self, ChanceText};
use super::command::MateLimit;
use super::options::HashMb;
use super::output::{is_legal, legal_prefix, Output};
use super::position::{with_position, UsiGame, UsiPosition};
use crate::eval::nets::BoardNets;
use crate::rules::moves::MoveList;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::chance::{ChanceSearcher, ChanceSettings};
use crate::search::mate::{self, MateAnswer, MateGame};
use crate::search::table_memory;
use crate::search::threads::SearchPool;
use crate::search::{Config, Control, Decision, Info, Limits, Searcher};
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The protocol thread's count of `stop`s (and `quit`s), shared with the search thread: a
/// table fill queued before a stop gives up as soon as the count moves on.
#[derive(Clone, Default)]
pub struct FillStops(Arc<AtomicU64>);

impl FillStops {
    /// Interrupts every fill queued so far (running or not yet started).
    pub fn stop(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// A ticket for a job queued now.
    pub fn ticket(&self) -> FillTicket {
        FillTicket {
            stops: self.clone(),
            since: self.0.load(Ordering::SeqCst),
        }
    }
}

/// The stop count when a job was queued: its fills give up once the count moves on.
pub struct FillTicket {
    stops: FillStops,
    since: u64,
}

impl FillTicket {
    /// Runs `work` with every table fill in it interrupted by a later stop.
    pub fn run<R>(self, work: impl FnOnce() -> R) -> R {
        let FillTicket { stops, since } = self;
        table_memory::interruptible(move || stops.0.load(Ordering::SeqCst) != since, work)
    }
}

/// Runs `work` with every table fill in it interrupted once `control` is stopped.
pub fn until_stopped<R>(control: &Control, work: impl FnOnce() -> R) -> R {
    let stop = control.stop_flag();
    table_memory::interruptible(move || stop.load(Ordering::SeqCst), work)
}

/// Work for the search thread.
pub enum Job {
    /// A normal search (`go`): prints `info` lines and one `bestmove`, then reports done.
    Search {
        position: UsiPosition,
        limits: Limits,
        config: Box<Config>,
        control: Control,
        rule: EnteringKingRule,
    },
    /// `go mate`: prints one `checkmate` line, then reports done.
    Mate {
        position: UsiPosition,
        limit: MateLimit,
        control: Control,
    },
    /// Allocate the table of the search `kind` uses at this size (freeing the other kind's
    /// table first), unless a stop comes first; `ack` is signalled when done.
    Resize {
        hash: HashMb,
        kind: SearchKind,
        fill: FillTicket,
        ack: Option<Sender<()>>,
    },
    /// `isready`: make again a table whose fill a stop cut short, then print `readyok` and
    /// signal `answered`.
    Ready {
        fill: FillTicket,
        answered: Sender<()>,
    },
    /// Forget the search state (new game, `Clear_Hash`).
    Clear,
    /// Search each game, and value the Madness's board, with these nets from now on
    /// (`None`: the hand-written evaluation).
    Network(BoardNets),
}

/// Which search a game uses (its row of the registry says). Each has its own table; the
/// search thread keeps one table at a time, so memory stays within `USI_Hash` whichever
/// game is played.
pub use crate::rules::variants::Search as SearchKind;

/// The search thread's searchers: at most one exists at a time, with its table.
struct Searchers {
    hash: HashMb,
    alpha_beta: Option<Searcher>,
    chance: Option<ChanceSearcher>,
    /// The chance search's threads beyond the first (the alpha-beta searcher keeps its own).
    chance_pool: SearchPool,
    /// The net standard shogi is searched with (given to each new alpha-beta searcher) and the
    /// one the Madness's board is valued with (given to each new chance searcher).
    nets: BoardNets,
}

impl Searchers {
    /// Gives the searcher of `kind` a table of `hash` MiB, freeing the other kind's first.
    /// Returns the table's size in MiB when memory ran short and it is smaller.
    fn prepare(&mut self, kind: SearchKind, hash: HashMb) -> Option<usize> {
        self.hash = hash;
        match kind {
            SearchKind::AlphaBeta => {
                self.chance = None;
                let searcher = match self.alpha_beta.as_mut() {
                    Some(s) => {
                        s.set_hash_size(hash.0);
                        s
                    }
                    None => self.alpha_beta.insert(self.new_alpha_beta(hash)),
                };
                searcher.reduced_table_mib()
            }
            SearchKind::Chance => {
                self.alpha_beta = None;
                let settings = ChanceSettings {
                    hash_mb: hash.0,
                    ..ChanceSettings::default()
                };
                let searcher = match self.chance.as_mut() {
                    Some(s) => {
                        s.set_settings(ChanceSettings {
                            hash_mb: hash.0,
                            ..s.settings()
                        });
                        s
                    }
                    None => self.chance.insert(self.new_chance(settings)),
                };
                searcher.reduced_table_mib()
            }
        }
    }

    /// Whether the table of the searcher that exists was cut short by a stop.
    fn table_interrupted(&self) -> bool {
        self.alpha_beta
            .as_ref()
            .is_some_and(Searcher::table_interrupted)
            || self
                .chance
                .as_ref()
                .is_some_and(ChanceSearcher::table_interrupted)
    }

    /// Makes again a table that a stop cut short, at the size last asked for.
    fn restore_interrupted(&mut self) {
        if self
            .alpha_beta
            .as_ref()
            .is_some_and(Searcher::table_interrupted)
        {
            self.prepare(SearchKind::AlphaBeta, self.hash);
        }
        if self
            .chance
            .as_ref()
            .is_some_and(ChanceSearcher::table_interrupted)
        {
            self.prepare(SearchKind::Chance, self.hash);
        }
    }

    /// The alpha-beta searcher, made now (on the clock) if `isready` did not make it.
    fn alpha_beta(&mut self) -> &mut Searcher {
        if self.alpha_beta.is_none() {
            log::warn!("no isready since the game changed: allocating the table during go");
            self.prepare(SearchKind::AlphaBeta, self.hash);
        }
        let hash = self.hash;
        if self.alpha_beta.is_none() {
            self.alpha_beta = Some(self.new_alpha_beta(hash));
        }
        self.alpha_beta
            .as_mut()
            .expect("the alpha-beta searcher was just made")
    }

    /// A new alpha-beta searcher with a table of `hash` MiB and the current net.
    fn new_alpha_beta(&self, hash: HashMb) -> Searcher {
        let mut searcher = Searcher::new(hash.0);
        self.nets.give_to(&mut searcher);
        searcher
    }

    /// Searches each game with its net in `nets` from now on (the Madness's board valued
    /// with `nets.madness`).
    fn set_networks(&mut self, nets: BoardNets) {
        if let Some(s) = self.alpha_beta.as_mut() {
            nets.give_to(s);
        }
        if let Some(s) = self.chance.as_mut() {
            nets.give_to_chance(s);
        }
        self.nets = nets;
    }

    /// The chance searcher and the pool of `threads` threads it searches on (none for one).
    fn chance_on(&mut self, threads: usize) -> (&mut ChanceSearcher, Option<&rayon::ThreadPool>) {
        self.chance();
        let pool = self.chance_pool.get(threads);
        let searcher = self
            .chance
            .as_mut()
            .expect("the chance searcher was just made");
        (searcher, pool)
    }

    /// The chance searcher, made now (on the clock) if `isready` did not make it.
    fn chance(&mut self) -> &mut ChanceSearcher {
        if self.chance.is_none() {
            log::warn!("no isready since the game changed: allocating the table during go");
            self.prepare(SearchKind::Chance, self.hash);
        }
        if self.chance.is_none() {
            let searcher = self.new_chance(ChanceSettings {
                hash_mb: self.hash.0,
                ..ChanceSettings::default()
            });
            self.chance = Some(searcher);
        }
        self.chance
            .as_mut()
            .expect("the chance searcher was just made")
    }

    /// A new chance searcher with `settings` and the current nets (the Madness's board's,
    /// Shogammon's).
    fn new_chance(&self, settings: ChanceSettings) -> ChanceSearcher {
        let mut searcher = ChanceSearcher::new(settings);
        self.nets.give_to_chance(&mut searcher);
        searcher
    }

    fn clear(&mut self) {
        if let Some(s) = self.alpha_beta.as_mut() {
            s.clear();
        }
        if let Some(s) = self.chance.as_mut() {
            s.clear();
        }
    }
}

/// Runs jobs until the job channel closes. Every `Search` and `Mate` job sends one message
/// on `done` after its last line is written.
pub fn run(jobs: Receiver<Job>, done: Sender<()>, out: Output, initial_hash: HashMb) {
    let mut searchers = Searchers {
        hash: initial_hash,
        alpha_beta: None,
        chance: None,
        chance_pool: SearchPool::default(),
        nets: BoardNets::default(),
    };
    for job in jobs {
        match job {
            Job::Resize {
                hash,
                kind,
                fill,
                ack,
            } => {
                let reduced = fill.run(|| searchers.prepare(kind, hash));
                if let Some(ack) = ack {
                    let _ = ack.send(());
                }
                if searchers.table_interrupted() {
                    out.line(&format!(
                        "info string the {} MiB table's fill was stopped: it is made again at the next isready or go",
                        hash.0
                    ));
                } else if let Some(got) = reduced {
                    out.line(&format!(
                        "info string USI_Hash {} MiB cannot be had on this machine: using {got} MiB",
                        hash.0
                    ));
                }
            }
            Job::Ready { fill, answered } => {
                if searchers.table_interrupted() {
                    fill.run(|| searchers.restore_interrupted());
                }
                out.line("readyok");
                let _ = answered.send(());
            }
            Job::Clear => searchers.clear(),
            Job::Network(nets) => searchers.set_networks(nets),
            Job::Search {
                mut position,
                limits,
                config,
                control,
                rule,
            } => {
                // A table a stop cut short is made again now, on the clock.
                until_stopped(&control, || searchers.restore_interrupted());
                let line = with_position!(&mut position,
                    pos => search(searchers.alpha_beta(), pos.as_ref(), &limits, &config, &control, rule, &out),
                    cpos => {
                        let (searcher, pool) = searchers.chance_on(config.threads);
                        // The job owns its copy: it judges declarations by the GUI's rule.
                        cpos.set_declaration_rule(rule);
                        chance::search(searcher, pool, cpos.as_ref(), &limits, &config, &control, &out)
                    }
                );
                out.line(&line);
                let _ = done.send(());
            }
            Job::Mate {
                position,
                limit,
                control,
            } => {
                let line = match &position {
                    UsiPosition::Shogi(pos) => solve_mate(pos.as_ref(), limit, &control),
                    UsiPosition::Chukagamigi(pos) => solve_mate(pos.as_ref(), limit, &control),
                    UsiPosition::Minishogi(pos) => solve_mate(pos.as_ref(), limit, &control),
                    // Chu (royals, no drops), Shogammon and the Madness have no checkmate.
                    _ => "checkmate notimplemented".to_string(),
                };
                out.line(&line);
                let _ = done.send(());
            }
        }
    }
}

/// Waits while the GUI still owes a `stop` (infinite) or a `ponderhit`/`stop` (ponder).
fn hold_until_released(limits: &Limits, control: &Control) {
    while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs one search and returns its `bestmove` line.
fn search<G: UsiGame>(
    searcher: &mut Searcher,
    position: &G,
    limits: &Limits,
    config: &Config,
    control: &Control,
    rule: EnteringKingRule,
    out: &Output,
) -> String {
    let mut legal = MoveList::new();
    position.generate_legal(&mut legal);
    // `searchmoves` narrows the moves the engine may answer with.
    if !limits.root_moves.is_empty() {
        legal.retain(|mv| limits.root_moves.contains(mv));
        if legal.is_empty() {
            position.generate_legal(&mut legal);
        }
    }
    let decision = if legal.is_empty() {
        Decision::Resign
    } else if position.can_declare_win(rule) {
        Decision::DeclareWin
    } else {
        let show_multipv = config.multipv > 1;
        let mut report =
            |info: &Info| out.line(&super::output::info_line(info, position, show_multipv));
        searcher.search(position, limits, config, control, &mut report)
    };
    hold_until_released(limits, control);
    bestmove_line(position, &legal, decision, rule)
}

/// The `bestmove` line for `decision`, made safe: only moves of `legal` (the legal moves,
/// narrowed by `searchmoves`), `win` only when the declaration is valid under `rule`.
fn bestmove_line<G: UsiGame>(
    position: &G,
    legal: &MoveList,
    decision: Decision,
    rule: EnteringKingRule,
) -> String {
    let fallback = |why: &str| match legal.first() {
        Some(&mv) => {
            log::error!("{why}; playing {} instead", position.move_text(mv));
            format!("bestmove {}", position.move_text(mv))
        }
        None => "bestmove resign".to_string(),
    };
    match decision {
        Decision::Resign => "bestmove resign".to_string(),
        Decision::DeclareWin if position.can_declare_win(rule) => "bestmove win".to_string(),
        Decision::DeclareWin => fallback("the search declared an invalid entering-king win"),
        Decision::Move { best, ponder } => {
            if !legal.contains(&best) {
                return fallback(&format!(
                    "the search chose an illegal or excluded move {best:?}"
                ));
            }
            let mut line = format!("bestmove {}", position.move_text(best));
            if let Some(reply) = ponder {
                let mut after = position.clone();
                after.play(best);
                if is_legal(&after, reply) {
                    line.push_str(&format!(" ponder {}", after.move_text(reply)));
                } else {
                    log::error!("dropping an illegal ponder move {reply:?}");
                }
            }
            line
        }
    }
}

/// Runs the mate solver and returns its `checkmate` line.
fn solve_mate<G: MateGame>(position: &G, limit: MateLimit, control: &Control) -> String {
    let limit = match limit {
        MateLimit::Time(ms) => Some(ms),
        MateLimit::Infinite => None,
    };
    match mate::solve(position, limit, control) {
        MateAnswer::NoMate => "checkmate nomate".to_string(),
        MateAnswer::Timeout => "checkmate timeout".to_string(),
        MateAnswer::Mate(moves) => {
            let text = legal_prefix(position, &moves);
            let mut end = position.clone();
            for &mv in &moves[..text.len()] {
                end.play(mv);
            }
            let mates = !text.is_empty()
                && text.len() == moves.len()
                && end.in_check()
                && !end.has_legal_move();
            if mates {
                format!("checkmate {}", text.join(" "))
            } else {
                log::error!("the mate solver returned a line that does not mate: {moves:?}");
                "checkmate timeout".to_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Position;

    #[test]
    fn bestmove_is_made_legal() {
        let pos = Position::startpos();
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        let m = pos.parse_usi_move("7g7f").unwrap();
        let mut after = pos.clone();
        after.play(m);
        let reply = after.parse_usi_move("3c3d").unwrap();
        let rule = EnteringKingRule::Csa27;
        let move_line =
            |best, ponder| bestmove_line(&pos, &legal, Decision::Move { best, ponder }, rule);
        assert_eq!(move_line(m, Some(reply)), "bestmove 7g7f ponder 3c3d");
        // An illegal ponder move (sente's move again) is dropped.
        assert_eq!(move_line(m, Some(m)), "bestmove 7g7f");
        // An illegal best move is replaced by a legal one.
        let illegal = after.parse_usi_move("3c3d").unwrap();
        let line = move_line(illegal, None);
        let text = line.strip_prefix("bestmove ").unwrap();
        assert!(pos.parse_usi_move(text).is_ok(), "{line}");
        // An invalid declaration is not sent.
        assert_ne!(
            bestmove_line(&pos, &legal, Decision::DeclareWin, rule),
            "bestmove win"
        );
        assert_eq!(
            bestmove_line(&pos, &legal, Decision::Resign, rule),
            "bestmove resign"
        );
    }
}
