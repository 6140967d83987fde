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

use crate::eval::nnue::feature_file::{self, FeatureRecord, Skip};
use crate::record::packed_sfen::{TrainingRecord, RECORD_BYTES};
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
    /// Files of 40-byte PackedSfenValue records, read in this order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
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
}

/// What a run read, wrote and skipped.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub read: u64,
    pub written: u64,
    pub undecodable: u64,
    pub no_king: u64,
    pub too_many_pieces: u64,
}

/// Records read from the files at a time.
const CHUNK_RECORDS: usize = 4096;

fn write_error(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("cannot write {}: {e}", path.display())
}

pub fn run(args: &NnueFeaturesArgs) -> Result<(), String> {
    let started = Instant::now();
    let file = std::fs::File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&feature_file::header())
        .map_err(write_error(&args.out))?;
    let mut sfens = match &args.sfens {
        Some(path) => Some((
            BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
            ),
            path,
        )),
        None => None,
    };
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
                    .and_then(|record| FeatureRecord::from_training(&record));
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
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "read {} written {} skipped: undecodable {} no-king {} too-many-pieces {} ({:.1} s, {:.0} positions/s)",
        counts.read,
        counts.written,
        counts.undecodable,
        counts.no_king,
        counts.too_many_pieces,
        seconds,
        counts.read as f64 / seconds.max(1e-9)
    );
    Ok(())
}
