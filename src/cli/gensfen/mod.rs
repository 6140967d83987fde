//! `shishi gensfen`: training data for a learned evaluation. Plays standard-shogi games of
//! Shishi against itself at a node or depth limit per move (or Central Madness games,
//! [`madness`]) and writes one YaneuraOu `PackedSfenValue` record (`record::packed_sfen`) per
//! searched position: the position, the search's score from the side to move's view, the move
//! it chose, the ply, and the game's result for the side to move, filled in when the game has
//! ended. The 12×12 games ([`board12`]) and Shogammon ([`shogammon`], one line per turn)
//! write the same facts as lines of text. This module
//! owns the command, the run (threads, the state file, shards) and the standard-shogi game.
//!
//! Game `k` of a run is played from its own seed (derived from `--seed` and `k`) on a
//! cleared table, so it is the same game whichever thread plays it and whatever else runs:
//! the file depends on the settings alone. `--shard I/N` plays the games `k` with
//! `k mod N = I`, so N machines playing the N shards between them play exactly the games of
//! one machine playing them all. The output is continued, never overwritten: a state file
//! beside it (`FILE.state`: the settings and how many games and records are complete) lets a
//! run that was stopped go on where it stopped, and a file longer than its state says (a
//! game cut short by the stop) is cut back to the last complete game first.
//!
//! Which positions are written, and why, is docs/TRAINING_DATA.md's to say.

mod board12;
mod madness;
mod shogammon;

use super::job_state::{open_output, state_path, write_state, State};
use super::progress::Progress;
use crate::eval::nnue::features::NetGame;
use crate::eval::nnue::{builtin, Network};
use crate::record::packed_sfen::{GameResult, Move16, PackedSfen, TrainingRecord};
use crate::record::quiet::shogi_is_noisy;
use crate::referee::openings;
use crate::referee::runner::pair_seed;
use crate::rules::game::Game;
use crate::rules::game::Outcome;
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::rules::variants::shogi::Position;
use crate::rules::variants::{chu, kagamigi, GameChoice, Variant};
use crate::search::chance::{
    ChanceGame, ChanceLimits, ChanceSearcher, ChanceSettings, Depth, Value,
};
use crate::search::game::SearchGame;
use crate::search::threads::spawn_with_search_stack;
use crate::search::{Config, Control, Decision, Limits, Score, Searcher};
use clap::Args;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "Example: shishi gensfen --out data.bin --nodes 5000 --positions \
1000000 --threads 2 --seed 1. Rerunning the same command continues the file; raising \
--games or --positions makes it longer. The format and the choices behind the defaults are \
in docs/TRAINING_DATA.md."
)]
pub struct GensfenArgs {
    /// The game played: standard shogi, the Central Madness (its board's positions, each
    /// record holding the mover's card in its last byte; no --openings), a 12×12 game (a
    /// line of text per position; no --openings), or Shogammon (a line of text per turn,
    /// the position before its roll; plies count turns; no --openings).
    #[arg(long, value_enum, default_value_t = DataGame::Shogi)]
    variant: DataGame,
    /// The file of 40-byte records, or of lines for the 12×12 games (continued if it
    /// exists; its progress is kept in FILE.state).
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    search: SearchLimit,
    /// Stop when the file holds this many games (of this shard).
    #[arg(long, required_unless_present = "positions", conflicts_with = "positions",
          value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Stop when the file holds at least this many records (whole games: the last game is
    /// written to its end).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    positions: Option<u64>,
    /// The seed every game's seed is derived from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// This machine's share, I/N (0 <= I < N): the games k with k mod N = I.
    #[arg(long, default_value = "0/1", value_parser = parse_shard)]
    shard: Shard,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Transposition table of each game, in MiB.
    #[arg(long, default_value_t = 16, value_parser = super::parse_hash_mib)]
    hash: usize,
    /// Random moves per game (uniform among the legal moves), at distinct plies drawn from
    /// --random-min-ply..=--random-max-ply.
    #[arg(long, default_value_t = 5)]
    random_moves: u32,
    /// The first ply that may get a random move (ply 1 is the start position's move).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    random_min_ply: u32,
    /// The last ply that may get a random move.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..))]
    random_max_ply: u32,
    /// Positions before this ply are played but not written.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    write_min_ply: u32,
    /// A game still going after this ply is a draw.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=60000))]
    max_ply: u32,
    /// A game ends when the search's score reaches this many centipawns either way (or a
    /// mate): the side it favours wins. 0: play on to the end.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u32).range(0..=30000))]
    eval_limit: u32,
    /// Start each game from a line of this opening file (as `shishi match --openings`
    /// reads them), drawn with the game's seed, instead of the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Write only quiet positions: none in check, none whose chosen move captures.
    #[arg(long)]
    quiet_only: bool,
    /// Play with this net (a YaneuraOu `nn.bin`; `<builtin>`: the game's net built into the
    /// engine, standard shogi's, the Madness's, Chu Kagamigi's or Shogammon's; for a 12×12
    /// game or Shogammon one of Shishi's nets for it) instead of the hand-written evaluation:
    /// the net's own games.
    #[arg(long, value_name = "FILE|<builtin>")]
    eval_file: Option<PathBuf>,
}

/// How far each search of a training-data job goes: `--nodes N` or `--depth D`.
#[derive(Args, Debug)]
pub struct SearchLimit {
    /// Nodes per search (each move, each rescored position).
    #[arg(long, required_unless_present = "depth", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Depth per search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
}

impl SearchLimit {
    /// The search's limits.
    pub fn limits(&self) -> Limits {
        Limits {
            nodes: self.nodes,
            depth: self.depth,
            ..Limits::default()
        }
    }
}

/// The games `gensfen` can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DataGame {
    Shogi,
    Madness,
    Chushogi,
    Chukagamigi,
    Shogammon,
}

impl DataGame {
    /// The variant these games are.
    fn variant(self) -> Variant {
        match self {
            DataGame::Shogi => Variant::Shogi,
            DataGame::Madness => Variant::Madness,
            DataGame::Chushogi => Variant::Chushogi,
            DataGame::Chukagamigi => Variant::Chukagamigi,
            DataGame::Shogammon => Variant::Shogammon,
        }
    }

    /// The game of the nets its games are played with.
    fn net_game(self) -> NetGame {
        crate::eval::nets::net_game_of(self.variant()).expect("every data game has nets")
    }
}

/// One machine's share of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// Reads `--shard I/N`.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("{text:?} is not a shard I/N with 0 <= I < N");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let index: u64 = index.trim().parse().map_err(|_| bad())?;
    let count: u64 = count.trim().parse().map_err(|_| bad())?;
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// The score written for a mate in `n` plies (YaneuraOu's mate value less the distance).
const MATE_SCORE: i32 = 32000;
/// The largest centipawn score written (below every mate score).
const MAX_CP_SCORE: i32 = 30000;

/// What decides the games of a run: everything but the amount and the thread count.
struct Settings {
    game: DataGame,
    limits: Limits,
    seed: u64,
    shard: Shard,
    hash_mib: usize,
    random_moves: u32,
    random_plies: std::ops::RangeInclusive<u32>,
    write_min_ply: u32,
    max_ply: u32,
    eval_limit: u32,
    quiet_only: bool,
    /// The positions the games start from (the start position when no file is given).
    starts: Vec<Position>,
    /// A digest of the opening file's bytes (0 without one).
    openings_digest: u64,
    /// The net the games are played with (none: the hand-written evaluation), and a
    /// digest of its file.
    net: Option<(Arc<Network>, u64)>,
}

impl Settings {
    fn from_args(args: &GensfenArgs) -> Result<Settings, String> {
        if args.random_moves > 0 && args.random_max_ply < args.random_min_ply {
            return Err(format!(
                "--random-max-ply {} is below --random-min-ply {}",
                args.random_max_ply, args.random_min_ply
            ));
        }
        if args.variant != DataGame::Shogi && args.openings.is_some() {
            return Err(
                "--openings is for standard shogi: the other games start from the start \
                        position (the random moves, and the dice and cards of the Madness, \
                        make them differ)"
                    .into(),
            );
        }
        let (starts, openings_digest) = match &args.openings {
            None => (vec![Position::startpos()], 0),
            Some(path) => {
                let bytes = std::fs::read(path)
                    .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
                let lines = openings::load(path, GameChoice::from(Variant::Shogi))?;
                let starts = lines
                    .iter()
                    .map(|o| {
                        let mut pos: Position =
                            o.base_position(GameChoice::from(Variant::Shogi))?;
                        for text in &o.moves {
                            let mv = pos.parse_usi_move(text).map_err(|e| e.to_string())?;
                            pos.play(mv);
                        }
                        Ok(pos)
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                (starts, digest(&bytes))
            }
        };
        let net = match &args.eval_file {
            None => None,
            Some(path) => {
                let (net, bytes) = builtin::load_named_for(path, args.variant.variant())?;
                Some((net, digest(&bytes)))
            }
        };
        Ok(Settings {
            game: args.variant,
            limits: args.search.limits(),
            seed: args.seed,
            shard: args.shard,
            hash_mib: args.hash,
            random_moves: args.random_moves,
            random_plies: args.random_min_ply..=args.random_max_ply,
            write_min_ply: args.write_min_ply,
            max_ply: args.max_ply,
            eval_limit: args.eval_limit,
            quiet_only: args.quiet_only,
            starts,
            openings_digest,
            net,
        })
    }

    /// The settings as one line of the state file: a run continues a file only with the
    /// same line (a run with a net adds the net's digest, a Madness run the game; a
    /// standard-shogi run without a net keeps the line it had before either existed).
    fn fingerprint(&self) -> String {
        let net = self
            .net
            .as_ref()
            .map_or(String::new(), |(_, digest)| format!(" net={digest:016x}"));
        let game = match self.game {
            DataGame::Shogi => "",
            DataGame::Madness => " variant=madness",
            DataGame::Chushogi => " variant=chushogi",
            DataGame::Chukagamigi => " variant=chukagamigi",
            DataGame::Shogammon => " variant=shogammon",
        };
        format!(
            "format=1 seed={} shard={}/{} nodes={} depth={} hash={} random={}@{}..={} \
             write-min-ply={} max-ply={} eval-limit={} quiet-only={} openings={:016x}{net}{game}",
            self.seed,
            self.shard.index,
            self.shard.count,
            self.limits.nodes.map_or("-".into(), |n| n.to_string()),
            self.limits.depth.map_or("-".into(), |d| d.to_string()),
            self.hash_mib,
            self.random_moves,
            self.random_plies.start(),
            self.random_plies.end(),
            self.write_min_ply,
            self.max_ply,
            self.eval_limit,
            self.quiet_only,
            self.openings_digest,
        )
    }

    /// The number of this shard's `local`-th game among all games of the seed.
    fn game_number(&self, local: u64) -> u64 {
        self.shard.index + self.shard.count * local
    }

    /// The chance search's limits (the Madness, Shogammon): the same nodes, the depth in its
    /// own units.
    fn chance_limits(&self) -> ChanceLimits {
        ChanceLimits {
            depth: self.limits.depth.map(Depth),
            nodes: self.limits.nodes,
            time: None,
        }
    }

    /// The plies at which a game plays its random moves, drawn with the game's generator
    /// `rng`, for a game whose first position is ply `first_ply`.
    fn random_plies(&self, rng: &mut StdRng, first_ply: u32) -> Vec<u32> {
        let candidates: Vec<u32> = self
            .random_plies
            .clone()
            .filter(|&ply| ply >= first_ply)
            .collect();
        candidates
            .choose_multiple(rng, self.random_moves as usize)
            .copied()
            .collect()
    }
}

/// One thread's player: the search it plays both sides with, kept from game to game.
enum SelfPlay {
    Shogi(Box<Searcher>),
    Madness(Box<ChanceSearcher>),
    Shogammon(Box<ChanceSearcher>),
    Chu(Box<Searcher>),
    Kagamigi(Box<Searcher>),
}

impl SelfPlay {
    fn new(settings: &Settings) -> SelfPlay {
        let net = settings.net.as_ref().map(|(net, _)| net.clone());
        match settings.game {
            DataGame::Shogi | DataGame::Chushogi | DataGame::Chukagamigi => {
                let mut searcher = Box::new(Searcher::new(settings.hash_mib));
                searcher.set_game_network(settings.game.net_game(), net);
                match settings.game {
                    DataGame::Chushogi => SelfPlay::Chu(searcher),
                    DataGame::Chukagamigi => SelfPlay::Kagamigi(searcher),
                    _ => SelfPlay::Shogi(searcher),
                }
            }
            DataGame::Madness | DataGame::Shogammon => {
                let mut searcher = Box::new(ChanceSearcher::new(ChanceSettings {
                    hash_mb: settings.hash_mib,
                    ..ChanceSettings::default()
                }));
                if settings.game == DataGame::Madness {
                    searcher.set_network(net);
                    SelfPlay::Madness(searcher)
                } else {
                    searcher.set_shogammon_network(net);
                    SelfPlay::Shogammon(searcher)
                }
            }
        }
    }

    /// Plays game number `number`; `None` if `stop` rose before it ended.
    fn play(&mut self, settings: &Settings, number: u64, stop: &AtomicBool) -> Option<PlayedGame> {
        match self {
            SelfPlay::Shogi(searcher) => play_game(settings, searcher, number, stop),
            SelfPlay::Madness(searcher) => madness::play_game(settings, searcher, number, stop),
            SelfPlay::Shogammon(searcher) => shogammon::play_game(settings, searcher, number, stop),
            SelfPlay::Chu(searcher) => {
                let start = chu::Position::startpos();
                board12::play_game(settings, searcher, &start, number, stop)
            }
            SelfPlay::Kagamigi(searcher) => {
                let start = kagamigi::Position::startpos();
                board12::play_game(settings, searcher, &start, number, stop)
            }
        }
    }
}

/// FNV-1a over `bytes`: tells opening files and nets apart in a state file.
pub(super) fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The score written for a search's value.
pub(super) fn record_score(score: Score) -> i16 {
    let value = match score {
        Score::Cp(cp) => cp.clamp(-MAX_CP_SCORE, MAX_CP_SCORE),
        Score::Mate(plies) if plies > 0 => MATE_SCORE - plies,
        Score::Mate(plies) => -MATE_SCORE - plies,
    };
    value as i16
}

/// The chance search's value (an expected result, ±[`Value::WIN`]) as a score: a win the
/// search proved (beyond ±[`Value::EVAL_MAX`]) as a mate in as many actions, anything else
/// turned back into centipawns ([`Value::as_centipawns`]: ±EVAL_MAX is about ±1766 cp).
fn value_score(value: Value) -> Score {
    let v = value.0;
    if v.abs() > Value::EVAL_MAX.0 {
        let actions = (Value::WIN.0 - v.abs()).max(1);
        return Score::Mate(if v > 0 { actions } else { -actions });
    }
    Score::Cp(value.as_centipawns().round() as i32)
}

/// A random legal action of `game` (a random move or turn of the chance games).
fn random_action(game: &impl Game, rng: &mut StdRng) -> Move {
    let mut legal = MoveList::new();
    game.legal_actions(&mut legal);
    *legal.choose(rng).expect("a decision has a legal action")
}

/// The chance search's choice for `us` in `view` (the player's own view of `truth`, or the
/// game itself) under the run's limits, and its value as a score. A node limit too small for
/// one iteration may leave no choice: then the first legal action of `truth`.
fn chance_decision<G: ChanceGame>(
    settings: &Settings,
    searcher: &mut ChanceSearcher,
    view: &mut G,
    truth: &impl Game,
    us: Color,
) -> (Move, Score) {
    // Each search ends on its node or depth limit; the run's stop is looked at between actions.
    let never = Arc::new(AtomicBool::new(false));
    let result = searcher.search(view, us, &settings.chance_limits(), &never);
    let best = result.best.first().copied().unwrap_or_else(|| {
        let mut legal = MoveList::new();
        truth.legal_actions(&mut legal);
        legal[0]
    });
    (best, value_score(result.value))
}

/// Whether `score` ends the game under `eval_limit`, and if so who won (`us` to move).
fn adjudicate(score: Score, eval_limit: u32, us: Color) -> Option<Outcome> {
    if eval_limit == 0 {
        return None;
    }
    let favours_us = match score {
        Score::Cp(cp) if cp.unsigned_abs() >= eval_limit => cp > 0,
        Score::Cp(_) => return None,
        Score::Mate(plies) => plies > 0,
    };
    Some(Outcome::Win(if favours_us { us } else { us.flip() }))
}

/// A finished game: its records in ply order, as written to the file, and how it ended.
struct PlayedGame {
    bytes: Vec<u8>,
    records: u64,
    outcome: Outcome,
}

impl PlayedGame {
    /// The game of the records `written` (each with the side it was written for) once it
    /// ended with `outcome`: each record gets the result for its side.
    fn finished(written: Vec<(Color, TrainingRecord)>, outcome: Outcome) -> PlayedGame {
        let records = written.len() as u64;
        let bytes = written
            .into_iter()
            .flat_map(|(side, mut record)| {
                record.result = match outcome {
                    Outcome::Draw => GameResult::Draw,
                    Outcome::Win(winner) if winner == side => GameResult::Win,
                    Outcome::Win(_) => GameResult::Loss,
                };
                record.to_bytes()
            })
            .collect();
        PlayedGame {
            bytes,
            records,
            outcome,
        }
    }

    /// The game of the 12×12 lines `written` once it ended with `outcome`.
    fn finished_lines(written: &[board12::PendingLine], outcome: Outcome) -> PlayedGame {
        let text: String = written.iter().map(|line| line.finish(outcome)).collect();
        PlayedGame {
            bytes: text.into_bytes(),
            records: written.len() as u64,
            outcome,
        }
    }
}

/// Plays game number `number`; `None` if `stop` rose before it ended.
fn play_game(
    settings: &Settings,
    searcher: &mut Searcher,
    number: u64,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let mut rng = StdRng::seed_from_u64(pair_seed(settings.seed, number as usize));
    let mut pos = settings.starts[rng.gen_range(0..settings.starts.len())].clone();
    let random_plies = settings.random_plies(&mut rng, pos.move_number());
    searcher.clear();
    let mut written: Vec<(Color, TrainingRecord)> = Vec::new();
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let ply = pos.move_number();
        let us = pos.side_to_move();
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        if legal.is_empty() {
            break Outcome::Win(us.flip());
        }
        if let Some(outcome) = pos.repetition_outcome() {
            break outcome;
        }
        if ply > settings.max_ply {
            break Outcome::Draw;
        }
        if pos.can_declare_win(EnteringKingRule::default()) {
            break Outcome::Win(us);
        }
        if random_plies.contains(&ply) {
            // The result of the game says little about the positions before a random move
            // (it may be the move that decided the game): they are not written.
            written.clear();
            pos.play(*legal.choose(&mut rng).expect("a legal move"));
            continue;
        }
        let (best, score) = search_move(&settings.limits, searcher, &pos);
        if let Some(outcome) = adjudicate(score, settings.eval_limit, us) {
            break outcome;
        }
        if ply >= settings.write_min_ply && !(settings.quiet_only && shogi_is_noisy(&pos, best)) {
            written.push((
                us,
                TrainingRecord {
                    position: PackedSfen::pack(&pos),
                    score: record_score(score),
                    best_move: Move16::from_move(best),
                    // As YaneuraOu's gensfen: the plies before it (0 at the start).
                    game_ply: game_ply(ply),
                    result: GameResult::Draw,
                    padding: 0,
                },
            ));
        }
        pos.play(best);
    };
    Some(PlayedGame::finished(written, outcome))
}

/// The move the search chooses in `pos` (which has legal moves) under `limits` (from an
/// empty table if the searcher was just cleared), and its value.
pub(super) fn search_move<G: SearchGame>(
    limits: &Limits,
    searcher: &mut Searcher,
    pos: &G,
) -> (Move, Score) {
    let decision = searcher.search(
        pos,
        limits,
        &Config::default(),
        &Control::new(false),
        &mut |_| {},
    );
    let (Decision::Move { best, .. }, Some(score)) = (decision, searcher.last_score()) else {
        unreachable!("a search with legal moves chooses one");
    };
    (best, score)
}

/// The record's `gamePly` for a position at `ply` (1 at the start position): as YaneuraOu's
/// gensfen writes it, the plies before it.
fn game_ply(ply: u32) -> u16 {
    (ply - 1).min(u32::from(u16::MAX)) as u16
}

/// When the file is complete.
#[derive(Clone, Copy, Debug)]
enum Target {
    Games(u64),
    Positions(u64),
}

impl Target {
    fn reached(self, state: &State) -> bool {
        match self {
            Target::Games(n) => state.games >= n,
            Target::Positions(n) => state.records >= n,
        }
    }

    /// (done, total) for the progress bar.
    fn progress(self, state: &State) -> (usize, usize) {
        match self {
            Target::Games(n) => (state.games as usize, n as usize),
            Target::Positions(n) => (state.records as usize, n as usize),
        }
    }
}

/// Games won by sente, by gote, and drawn.
#[derive(Default)]
struct Tally {
    sente: u64,
    gote: u64,
    draws: u64,
}

pub fn run(args: &GensfenArgs) -> Result<(), String> {
    let settings = Settings::from_args(args)?;
    let target = match (args.games, args.positions) {
        (Some(n), _) => Target::Games(n),
        (None, Some(n)) => Target::Positions(n),
        (None, None) => unreachable!("clap requires --games or --positions"),
    };
    let (mut file, mut state) = open_output(&args.out, &settings.fingerprint(), "gensfen")?;
    let first_state = state.clone();
    let started = Instant::now();
    let mut tally = Tally::default();
    if !target.reached(&state) {
        let next_game = AtomicU64::new(state.games);
        let stop = AtomicBool::new(false);
        let (sender, receiver) = crossbeam_channel::unbounded::<(u64, PlayedGame)>();
        let mut progress = Progress::new("gensfen");
        let result = std::thread::scope(|scope| -> Result<(), String> {
            for thread in 0..args.threads {
                let sender = sender.clone();
                let (settings, next_game, stop) = (&settings, &next_game, &stop);
                spawn_with_search_stack(scope, format!("gensfen-{thread}"), move || {
                    let mut player = SelfPlay::new(settings);
                    while !stop.load(Ordering::Relaxed) {
                        let local = next_game.fetch_add(1, Ordering::Relaxed);
                        let number = settings.game_number(local);
                        let Some(game) = player.play(settings, number, stop) else {
                            break;
                        };
                        if sender.send((local, game)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("cannot start a gensfen thread: {e}"))?;
            }
            drop(sender);
            // Games finish in any order; they are written in game order.
            let mut finished: BTreeMap<u64, PlayedGame> = BTreeMap::new();
            let outcome = (|| {
                for (local, game) in receiver.iter() {
                    finished.insert(local, game);
                    while let Some(game) = finished.remove(&state.games) {
                        file.write_all(&game.bytes)
                            .and_then(|()| file.flush())
                            .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
                        state.games += 1;
                        state.records += game.records;
                        state.bytes += game.bytes.len() as u64;
                        write_state(&state_path(&args.out), &state, "gensfen")?;
                        match game.outcome {
                            Outcome::Win(Color::Sente) => tally.sente += 1,
                            Outcome::Win(Color::Gote) => tally.gote += 1,
                            Outcome::Draw => tally.draws += 1,
                        }
                        let (done, total) = target.progress(&state);
                        let new = state.records - first_state.records;
                        let rate = new as f64 / started.elapsed().as_secs_f64().max(1e-9);
                        progress.step_noted(
                            done.min(total),
                            total,
                            &format!(
                                "{} games, {} positions, {rate:.1} positions/s",
                                state.games, state.records
                            ),
                        );
                        if target.reached(&state) {
                            return Ok(());
                        }
                    }
                }
                Ok(())
            })();
            stop.store(true, Ordering::Relaxed);
            outcome
        });
        progress.finish();
        result?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let new_records = state.records - first_state.records;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(
        stdout,
        "gensfen: {} games, {} positions in {} ({} games, {new_records} positions new in \
         {seconds:.1} s, {:.1} positions/s; sente won {}, gote {}, drawn {})",
        state.games,
        state.records,
        args.out.display(),
        state.games - first_state.games,
        new_records as f64 / seconds.max(1e-9),
        tally.sente,
        tally.gote,
        tally.draws
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_and_checked() {
        assert_eq!(parse_shard("1/3"), Ok(Shard { index: 1, count: 3 }));
        assert_eq!(parse_shard("0/1"), Ok(Shard { index: 0, count: 1 }));
        for bad in ["3/3", "1/0", "x/2", "2", "-1/2", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_are_written_as_yaneuraou_writes_them() {
        assert_eq!(record_score(Score::Cp(-250)), -250);
        assert_eq!(record_score(Score::Cp(99_999)), 30000);
        assert_eq!(record_score(Score::Mate(3)), 31997);
        assert_eq!(record_score(Score::Mate(-4)), -31996);
    }

    #[test]
    fn the_eval_limit_names_the_winner() {
        let (s, g) = (Color::Sente, Color::Gote);
        assert_eq!(adjudicate(Score::Cp(2999), 3000, s), None);
        assert_eq!(adjudicate(Score::Cp(3000), 3000, g), Some(Outcome::Win(g)));
        assert_eq!(adjudicate(Score::Cp(-3000), 3000, g), Some(Outcome::Win(s)));
        assert_eq!(adjudicate(Score::Mate(-2), 3000, s), Some(Outcome::Win(g)));
        assert_eq!(adjudicate(Score::Mate(5), 0, s), None);
    }

    #[test]
    fn values_turn_back_into_the_centipawns_they_came_from() {
        for cp in [-1700, -900, -250, -1, 0, 1, 37, 600, 1200, 1750] {
            let Score::Cp(back) = value_score(Value::from_centipawns(cp)) else {
                panic!("{cp} cp came back as a mate");
            };
            // The value scale has 10 000 steps; near its ends one step spans several cp.
            assert!((back - cp).abs() <= 1 + cp.abs() / 200, "{cp} -> {back}");
        }
        assert_eq!(value_score(Value::DRAW), Score::Cp(0));
        assert_eq!(value_score(Value::win_in(3)), Score::Mate(3));
        assert_eq!(value_score(Value::win_in(4).negate()), Score::Mate(-4));
        let Score::Cp(top) = value_score(Value::EVAL_MAX) else {
            panic!("EVAL_MAX is an evaluation");
        };
        assert!((1700..1800).contains(&top), "{top}");
    }
}
