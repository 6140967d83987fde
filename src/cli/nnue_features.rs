//! `shishi nnue-features`: turns files of YaneuraOu `PackedSfenValue` training records
//! (`shishi gensfen`'s) into the feature file a net trainer memory-maps
//! (`eval::nnue::feature_file`): each position's king squares and BonaPieces as the
//! evaluation computes them (the HalfKP and K+P inputs follow from them), with its score,
//! result and side to move. Positions that do not decode, or lack a
//! king, are skipped and counted. `--sfens` also writes each written position's SFEN, one a
//! line in the same order (for checking a trained net against the engine's evaluation).
//!
//! Input files may still be growing (a gensfen run writing them): only whole 40-byte records
//! present when a file is opened are read.
//!
//! `--variant chushogi|chukagamigi|shogammon` reads the training lines of a 12×12 game or
//! Shogammon instead (`gensfen --variant …`) and writes their feature file
//! (`eval::nnue::sparse_file`); only whole lines are read.
//!
//! `--quiet-only` leaves out the positions `record::quiet` calls noisy, judged by the move
//! each record holds.

use crate::cli::testnet::Arch;
use crate::eval::nnue::feature_file::{self, FeatureRecord, Skip};
use crate::eval::nnue::features::FeatureSet;
use crate::eval::nnue::sparse_file::{self, SparsePosition};
use crate::record::packed_sfen::{TrainingRecord, RECORD_BYTES};
use crate::record::quiet::shogi_is_noisy;
use crate::rules::variants::{chu, kagamigi, shogammon};
use clap::Args;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "Example: shishi nnue-features data.bin --out data.feat. The format is in \
docs/NNUE.md (\"Training a net\")."
)]
pub struct NnueFeaturesArgs {
    /// Files of 40-byte PackedSfenValue records (of training lines for a 12×12 game or
    /// Shogammon), read in this order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The game of the records: standard shogi (and the Central Madness's boards), a 12×12
    /// game, or Shogammon.
    #[arg(long, value_enum, default_value_t = FeatureGame::Shogi)]
    variant: FeatureGame,
    /// The feature file to write (replaced if it exists).
    #[arg(long)]
    out: PathBuf,
    /// Also write the SFEN of every written position to this file, one a line.
    #[arg(long)]
    sfens: Option<PathBuf>,
    /// Skip this many records (over all inputs, skipped ones included) before the first read.
    #[arg(long, default_value_t = 0)]
    skip: u64,
    /// Read at most this many records (after --skip).
    #[arg(long)]
    limit: Option<u64>,
    /// The net architecture whose inputs to write, for a game with more than one
    /// (Shogammon: `shogammon` or `shogammon-pk`); by default the game's first.
    #[arg(long, value_enum)]
    arch: Option<Arch>,
    /// Write only quiet positions: none in check, none whose recorded move captures (as
    /// `gensfen --quiet-only` writes them). Not for Shogammon, whose lines start before the
    /// roll: there `gensfen --quiet-only` leaves them out.
    #[arg(long)]
    quiet_only: bool,
}

/// The games whose training records `nnue-features` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FeatureGame {
    Shogi,
    Chushogi,
    Chukagamigi,
    Shogammon,
}

/// What a run read, wrote and skipped.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub read: u64,
    pub written: u64,
    pub undecodable: u64,
    pub no_king: u64,
    pub too_many_pieces: u64,
    /// Left out by `--quiet-only`.
    pub noisy: u64,
}

/// Records read from the files at a time.
const CHUNK_RECORDS: usize = 4096;

fn write_error(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("cannot write {}: {e}", path.display())
}

pub fn run(args: &NnueFeaturesArgs) -> Result<(), String> {
    match args.variant {
        // The shogi feature file serves both of YaneuraOu's architectures.
        FeatureGame::Shogi => {
            chosen_features(args.arch, &FeatureSet::SHOGI).and_then(|_| run_shogi(args))
        }
        FeatureGame::Chushogi => run_sparse::<chu::Position>(args),
        FeatureGame::Chukagamigi => run_sparse::<kagamigi::Position>(args),
        FeatureGame::Shogammon if args.quiet_only => Err("--quiet-only: a Shogammon line \
            starts before its roll, so its move cannot be judged here; gensfen --variant \
            shogammon --quiet-only leaves out the turns whose first action captures"
            .into()),
        FeatureGame::Shogammon => run_sparse::<shogammon::Position>(args),
    }
}

/// The feature set `--arch` names among the game's `sets` (by default the first), or why
/// not.
fn chosen_features(arch: Option<Arch>, sets: &[FeatureSet]) -> Result<FeatureSet, String> {
    match arch.map(Arch::features) {
        None => Ok(sets[0]),
        Some(chosen) if sets.contains(&chosen) => Ok(chosen),
        Some(chosen) => Err(format!(
            "--arch: {} is a {} net's, not this game's",
            crate::eval::nnue::file::architecture_name(chosen),
            chosen.game().name()
        )),
    }
}

/// Creates the `--sfens` file, if asked for.
fn sfen_file(args: &NnueFeaturesArgs) -> Result<Option<(BufWriter<std::fs::File>, &Path)>, String> {
    args.sfens
        .as_deref()
        .map(|path| {
            std::fs::File::create(path)
                .map(|file| (BufWriter::new(file), path))
                .map_err(|e| format!("cannot create {}: {e}", path.display()))
        })
        .transpose()
}

/// Prints the run's summary line.
fn summary(counts: &Counts, started: Instant) {
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "read {} written {} skipped: undecodable {} no-king {} too-many-pieces {} noisy {} ({:.1} s, {:.0} positions/s)",
        counts.read,
        counts.written,
        counts.undecodable,
        counts.no_king,
        counts.too_many_pieces,
        counts.noisy,
        seconds,
        counts.read as f64 / seconds.max(1e-9)
    );
}

/// The training lines (`SFEN\tscore\tply\tresult\tmove`) of a 12×12 game or Shogammon
/// into its feature file.
fn run_sparse<P: SparsePosition>(args: &NnueFeaturesArgs) -> Result<(), String> {
    let features = chosen_features(args.arch, P::FEATURE_SETS)?;
    let started = Instant::now();
    let file = std::fs::File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&sparse_file::header(features))
        .map_err(write_error(&args.out))?;
    let mut sfens = sfen_file(args)?;
    let mut counts = Counts::default();
    let mut to_skip = args.skip;
    let mut left = args.limit.unwrap_or(u64::MAX);
    for input in &args.inputs {
        let text = std::fs::read_to_string(input)
            .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        // A line still being written has no newline yet.
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        for line in whole.lines() {
            if left == 0 {
                break;
            }
            if to_skip > 0 {
                to_skip -= 1;
                continue;
            }
            left -= 1;
            counts.read += 1;
            let Some((pos, labels, move_text)) = training_line::<P>(line) else {
                counts.undecodable += 1;
                continue;
            };
            if args.quiet_only {
                match pos.is_noisy(move_text) {
                    None => {
                        counts.undecodable += 1;
                        continue;
                    }
                    Some(true) => {
                        counts.noisy += 1;
                        continue;
                    }
                    Some(false) => {}
                }
            }
            let Some(record) = sparse_file::record(&pos, features, labels) else {
                counts.too_many_pieces += 1;
                continue;
            };
            out.write_all(&record).map_err(write_error(&args.out))?;
            if let Some((sfens, path)) = &mut sfens {
                writeln!(sfens, "{}", pos.training_sfen()).map_err(write_error(path))?;
            }
            counts.written += 1;
        }
    }
    out.flush().map_err(write_error(&args.out))?;
    if let Some((mut sfens, path)) = sfens {
        sfens.flush().map_err(write_error(path))?;
    }
    summary(&counts, started);
    Ok(())
}

/// The position, labels and move (as written) of a training line; `None` if it does not
/// read.
fn training_line<P: SparsePosition>(line: &str) -> Option<(P, sparse_file::Labels, &str)> {
    let mut fields = line.split('\t');
    let pos = P::from_training_sfen(fields.next()?)?;
    let score = fields.next()?.trim().parse().ok()?;
    let game_ply = fields.next()?.trim().parse().ok()?;
    let result = fields.next()?.trim().parse().ok()?;
    let move_text = fields.next().unwrap_or("").trim();
    Some((
        pos,
        sparse_file::Labels {
            score,
            game_ply,
            result,
        },
        move_text,
    ))
}

/// Standard shogi's PackedSfenValue records into its feature file.
fn run_shogi(args: &NnueFeaturesArgs) -> Result<(), String> {
    let started = Instant::now();
    let file = std::fs::File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&feature_file::header())
        .map_err(write_error(&args.out))?;
    let mut sfens = sfen_file(args)?;
    let mut counts = Counts::default();
    let mut to_skip = args.skip;
    let mut left = args.limit.unwrap_or(u64::MAX);
    let mut last_report = Instant::now();
    for input in &args.inputs {
        let mut file = std::fs::File::open(input)
            .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        let length = file
            .metadata()
            .map_err(|e| format!("cannot read {}: {e}", input.display()))?
            .len();
        let whole = length / RECORD_BYTES as u64;
        if length % RECORD_BYTES as u64 != 0 {
            log::warn!(
                "{}: {} bytes after the last whole record are not read",
                input.display(),
                length % RECORD_BYTES as u64
            );
        }
        let skipped_here = to_skip.min(whole);
        to_skip -= skipped_here;
        let mut remaining = (whole - skipped_here).min(left);
        left -= remaining;
        if skipped_here > 0 {
            use std::io::Seek;
            file.seek(std::io::SeekFrom::Start(skipped_here * RECORD_BYTES as u64))
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        }
        let mut buffer = vec![0u8; CHUNK_RECORDS * RECORD_BYTES];
        while remaining > 0 {
            let n = remaining.min(CHUNK_RECORDS as u64) as usize;
            let chunk = &mut buffer[..n * RECORD_BYTES];
            file.read_exact(chunk)
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
            remaining -= n as u64;
            for bytes in chunk.chunks_exact(RECORD_BYTES) {
                counts.read += 1;
                let bytes: &[u8; RECORD_BYTES] = bytes.try_into().expect("a whole record");
                let features = TrainingRecord::from_bytes(bytes)
                    .map_err(|_| Skip::Undecodable)
                    .and_then(|record| {
                        let (features, pos) = FeatureRecord::from_training(&record)?;
                        if args.quiet_only {
                            let mv = record.best_move.to_move().ok_or(Skip::Undecodable)?;
                            if shogi_is_noisy(&pos, mv) {
                                return Err(Skip::Noisy);
                            }
                        }
                        Ok((features, pos))
                    });
                match features {
                    Ok((features, pos)) => {
                        out.write_all(&features.to_bytes())
                            .map_err(write_error(&args.out))?;
                        if let Some((sfens, path)) = &mut sfens {
                            writeln!(sfens, "{}", pos.to_sfen()).map_err(write_error(path))?;
                        }
                        counts.written += 1;
                    }
                    Err(Skip::Undecodable) => counts.undecodable += 1,
                    Err(Skip::NoKing) => counts.no_king += 1,
                    Err(Skip::TooManyPieces) => counts.too_many_pieces += 1,
                    Err(Skip::Noisy) => counts.noisy += 1,
                }
            }
            if last_report.elapsed().as_secs() >= 10 {
                last_report = Instant::now();
                eprintln!(
                    "nnue-features: {} read, {} written, {:.0} positions/s",
                    counts.read,
                    counts.written,
                    counts.read as f64 / started.elapsed().as_secs_f64()
                );
            }
        }
    }
    out.flush().map_err(write_error(&args.out))?;
    if let Some((mut sfens, path)) = sfens {
        sfens.flush().map_err(write_error(path))?;
    }
    summary(&counts, started);
    Ok(())
}
