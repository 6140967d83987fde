//! `shishi rescore`: searches again the positions of training data already written (standard
//! shogi's PackedSfenValue records, a 12×12 game's lines) and writes each with the new
//! search's score and move, everything else kept. Labels from a deeper search, or from
//! another net, for positions already chosen; and with `--every`, for a sample spread over
//! many games instead of every position of a few (a game's positions are alike).
//!
//! Which records are searched is decided before any search, from the records alone (every
//! `--every`-th record, this `--shard`'s share of those, with `--quiet-only` the quiet ones:
//! `record::quiet`), and each search starts from an empty table, so the output is the same
//! whatever the thread count, and a run stopped at any point continues to the same file
//! (its progress is kept in `OUT.state`).

use super::gensfen::{digest, parse_shard, record_score, search_move, SearchLimit, Shard};
use super::job_state::{open_output, state_path, write_state};
use super::progress::Progress;
use crate::eval::board12::TablePosition;
use crate::eval::nnue::builtin;
use crate::record::packed_sfen::{Move16, TrainingRecord, RECORD_BYTES};
use crate::record::quiet::{board12_is_noisy, shogi_is_noisy};
use crate::rules::game::Game;
use crate::rules::moves::MoveList;
use crate::rules::notation::GameText;
use crate::rules::variants::{chu, kagamigi, Variant};
use crate::search::game::SearchGame;
use crate::search::threads::spawn_with_search_stack;
use crate::search::{Limits, Searcher};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Example: shishi rescore --variant chushogi shallow.tsv --out deep.tsv --nodes \
20000 --every 4 --quiet-only --threads 2. Rerunning the same command continues the file. \
More in docs/TRAINING_DATA.md (\"Rescoring\")."
)]
pub struct RescoreArgs {
    /// Training data, read in this order: 40-byte PackedSfenValue records (standard shogi),
    /// or a 12×12 game's lines (`gensfen --variant chushogi|chukagamigi`).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The game of the records.
    #[arg(long, value_enum, default_value_t = RescoreGame::Shogi)]
    variant: RescoreGame,
    /// The file written, in the inputs' format (continued if it exists; its progress is kept
    /// in FILE.state).
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    search: SearchLimit,
    /// Search only every K-th record of the inputs (the first, the (K+1)-th, …).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// This machine's share, I/N (0 <= I < N): of the records --every keeps, the k-th with
    /// k mod N = I.
    #[arg(long, default_value = "0/1", value_parser = parse_shard)]
    shard: Shard,
    /// Search only quiet records: none in check, none whose recorded move captures.
    #[arg(long)]
    quiet_only: bool,
    /// Search with this net (a YaneuraOu `nn.bin` for shogi, one of Shishi's 12×12 nets;
    /// `<builtin>`: the game's built-in net) instead of the hand-written evaluation.
    #[arg(long, value_name = "FILE|<builtin>")]
    eval_file: Option<PathBuf>,
    /// Positions searched at once (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Transposition table of each search, in MiB (cleared before every position).
    #[arg(long, default_value_t = 4, value_parser = super::parse_hash_mib)]
    hash: usize,
    /// Stop when the file holds this many records.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
}

/// The games whose training data `rescore` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RescoreGame {
    Shogi,
    Chushogi,
    Chukagamigi,
}

impl RescoreGame {
    fn variant(self) -> Variant {
        match self {
            RescoreGame::Shogi => Variant::Shogi,
            RescoreGame::Chushogi => Variant::Chushogi,
            RescoreGame::Chukagamigi => Variant::Chukagamigi,
        }
    }
}

/// One record of the inputs, as read.
enum Item {
    Record(Box<[u8; RECORD_BYTES]>),
    Line(String),
}

/// Positions searched between two writes of the output and its state.
const CHUNK_PER_THREAD: usize = 32;

pub fn run(args: &RescoreArgs) -> Result<(), String> {
    let variant = args.variant.variant();
    let net = match &args.eval_file {
        None => None,
        Some(path) => Some(builtin::load_named_for(path, variant)?),
    };
    let net_game = crate::eval::nets::net_game_of(variant).expect("every rescore game has nets");
    let limits = args.search.limits();
    let items = read_inputs(args)?;
    let chosen: Vec<&Item> = items
        .iter()
        .enumerate()
        .filter(|(index, _)| (*index as u64).is_multiple_of(args.every))
        .map(|(_, item)| item)
        .enumerate()
        .filter(|(k, _)| *k as u64 % args.shard.count == args.shard.index)
        .map(|(_, item)| item)
        .filter(|item| searchable(args.variant, item, args.quiet_only))
        .collect();
    let fingerprint = fingerprint(args, net.as_ref().map(|(_, bytes)| digest(bytes)));
    let (mut out, mut state) = open_output(&args.out, &fingerprint, "rescore")?;
    let target = args.limit.unwrap_or(u64::MAX).min(chosen.len() as u64);
    eprintln!(
        "rescore: {} records read, {} to search, {} already in {}",
        items.len(),
        chosen.len(),
        state.records,
        args.out.display()
    );
    let threads = args.threads as usize;
    // One searcher a thread for the whole run: its table is cleared before every position.
    let mut searchers: Vec<Searcher> = (0..threads)
        .map(|_| {
            let mut searcher = Searcher::new(args.hash);
            searcher.set_game_network(net_game, net.as_ref().map(|(n, _)| n.clone()));
            searcher
        })
        .collect();
    let mut progress = Progress::new("rescore");
    let (first, started) = (state.records, std::time::Instant::now());
    let state_file = state_path(&args.out);
    while state.records < target {
        let start = state.records as usize;
        let end = (start + CHUNK_PER_THREAD * threads).min(target as usize);
        let chunk = &chosen[start..end];
        let outputs: Vec<Vec<(usize, Vec<u8>)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = searchers
                .iter_mut()
                .enumerate()
                .map(|(thread, searcher)| {
                    let limits = &limits;
                    spawn_with_search_stack(scope, format!("rescore-{thread}"), move || {
                        (thread..chunk.len())
                            .step_by(threads)
                            .map(|i| (i, rescored(args.variant, searcher, limits, chunk[i])))
                            .collect()
                    })
                    .expect("a rescore thread starts")
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a rescore thread ends"))
                .collect()
        });
        let mut ordered: Vec<(usize, Vec<u8>)> = outputs.into_iter().flatten().collect();
        ordered.sort_by_key(|(i, _)| *i);
        let bytes: Vec<u8> = ordered.into_iter().flat_map(|(_, b)| b).collect();
        out.write_all(&bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
        state.games += 1;
        state.records = end as u64;
        state.bytes += bytes.len() as u64;
        write_state(&state_file, &state, "rescore")?;
        let searched = state.records - first;
        progress.step_noted(
            state.records as usize,
            target as usize,
            &format!(
                "{:.1} positions/s",
                searched as f64 / started.elapsed().as_secs_f64()
            ),
        );
    }
    eprintln!(
        "rescore: {} records in {} ({} searched now)",
        state.records,
        args.out.display(),
        state.records - first
    );
    Ok(())
}

/// Every record of the inputs, in order (whole records and whole lines only: a file still
/// being written can be read).
fn read_inputs(args: &RescoreArgs) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for input in &args.inputs {
        let bytes =
            std::fs::read(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        match args.variant {
            RescoreGame::Shogi => items.extend(
                bytes
                    .chunks_exact(RECORD_BYTES)
                    .map(|r| Item::Record(Box::new(r.try_into().expect("a whole record")))),
            ),
            RescoreGame::Chushogi | RescoreGame::Chukagamigi => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("{} is not text", input.display()))?;
                let whole = text.rfind('\n').map_or("", |end| &text[..end]);
                items.extend(whole.lines().map(|line| Item::Line(line.to_string())));
            }
        }
    }
    Ok(items)
}

/// Whether `item` reads as a position with legal moves (and, under `quiet_only`, a
/// recorded move that makes it quiet).
fn searchable(game: RescoreGame, item: &Item, quiet_only: bool) -> bool {
    match (game, item) {
        (RescoreGame::Shogi, Item::Record(bytes)) => {
            let Some((record, pos)) = shogi_record(bytes) else {
                return false;
            };
            let mut legal = MoveList::new();
            pos.generate_legal(&mut legal);
            let quiet = || {
                record
                    .best_move
                    .to_move()
                    .is_some_and(|mv| !shogi_is_noisy(&pos, mv))
            };
            !legal.is_empty() && (!quiet_only || quiet())
        }
        (RescoreGame::Chushogi, Item::Line(line)) => {
            line_searchable::<chu::Position>(line, quiet_only)
        }
        (RescoreGame::Chukagamigi, Item::Line(line)) => {
            line_searchable::<kagamigi::Position>(line, quiet_only)
        }
        _ => unreachable!("items are read in the game's format"),
    }
}

fn shogi_record(
    bytes: &[u8; RECORD_BYTES],
) -> Option<(TrainingRecord, crate::rules::variants::shogi::Position)> {
    let record = TrainingRecord::from_bytes(bytes).ok()?;
    let pos = record
        .position
        .to_position(u32::from(record.game_ply) + 1)
        .ok()?;
    Some((record, pos))
}

/// A 12×12 line's fields: SFEN, score, ply, result, move.
fn line_fields(line: &str) -> Option<[&str; 5]> {
    let mut fields = line.split('\t');
    let out = [(); 5].map(|()| fields.next());
    out.iter()
        .all(Option::is_some)
        .then(|| out.map(Option::unwrap))
}

fn line_searchable<P: GameText + Game + TablePosition + SearchGame>(
    line: &str,
    quiet_only: bool,
) -> bool {
    let Some([sfen, .., mv]) = line_fields(line) else {
        return false;
    };
    let Ok(pos) = P::parse_sfen(sfen) else {
        return false;
    };
    let mut legal = MoveList::new();
    pos.legal_actions(&mut legal);
    let quiet = || {
        pos.parse_move(mv.trim())
            .is_ok_and(|mv| !board12_is_noisy(&pos, mv))
    };
    !legal.is_empty() && (!quiet_only || quiet())
}

/// The item, searched again: its bytes as written to the output.
fn rescored(game: RescoreGame, searcher: &mut Searcher, limits: &Limits, item: &Item) -> Vec<u8> {
    searcher.clear();
    match (game, item) {
        (RescoreGame::Shogi, Item::Record(bytes)) => {
            let (mut record, pos) = shogi_record(bytes).expect("a searchable record");
            let (best, score) = search_move(limits, searcher, &pos);
            record.score = record_score(score);
            record.best_move = Move16::from_move(best);
            record.to_bytes().to_vec()
        }
        (RescoreGame::Chushogi, Item::Line(line)) => {
            rescored_line::<chu::Position>(searcher, limits, line)
        }
        (RescoreGame::Chukagamigi, Item::Line(line)) => {
            rescored_line::<kagamigi::Position>(searcher, limits, line)
        }
        _ => unreachable!("items are read in the game's format"),
    }
}

fn rescored_line<P: GameText + SearchGame>(
    searcher: &mut Searcher,
    limits: &Limits,
    line: &str,
) -> Vec<u8> {
    let [sfen, _, ply, result, _] = line_fields(line).expect("a searchable line");
    let pos = P::parse_sfen(sfen).expect("a searchable line");
    let (best, score) = search_move(limits, searcher, &pos);
    format!(
        "{sfen}\t{}\t{ply}\t{result}\t{}\n",
        record_score(score),
        pos.move_text(best)
    )
    .into_bytes()
}

/// What decides the output: a run continues a file only with the same settings and inputs.
fn fingerprint(args: &RescoreArgs, net: Option<u64>) -> String {
    let inputs: Vec<String> = args
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    format!(
        "format=1 variant={:?} nodes={} depth={} hash={} every={} shard={}/{} quiet-only={} \
         net={} inputs={}",
        args.variant,
        args.search.nodes.map_or("-".into(), |n| n.to_string()),
        args.search.depth.map_or("-".into(), |d| d.to_string()),
        args.hash,
        args.every,
        args.shard.index,
        args.shard.count,
        args.quiet_only,
        net.map_or("-".into(), |d| format!("{d:016x}")),
        inputs.join(",")
    )
}
