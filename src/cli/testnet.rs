//! `shishi testnet`: writes a net of random weights in YaneuraOu's `halfkp_256x2-32-32`
//! format (`nn.bin`), the same bytes for the same seed on every machine, for comparing
//! Shishi's evaluation with YaneuraOu's (`scripts/nnue_crosscheck.sh`). It plays nothing well.

use crate::eval::nnue::{file, Network};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TestnetArgs {
    /// The seed of the weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The file to write (YaneuraOu reads `nn.bin` in its `EvalDir`).
    out: PathBuf,
}

pub fn run(args: &TestnetArgs) -> Result<(), String> {
    let bytes = file::write(&Network::random(args.seed));
    std::fs::write(&args.out, bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))
}
