//! `shishi testnet`: writes a net of random weights in one of YaneuraOu's formats
//! (`halfkp_256x2-32-32` or `kp_256x2-32-32`, its `nn.bin`), or of Shishi's own for the
//! 12×12 games and Shogammon, the same bytes for the same seed on every machine, for comparing Shishi's
//! evaluation with YaneuraOu's (`scripts/nnue_crosscheck.py`) and for testing. It plays
//! nothing well.

use crate::eval::nnue::features::FeatureSet;
use crate::eval::nnue::{file, Network};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// The architecture of the net written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Arch {
    /// halfkp_256x2-32-32 (HalfKP features, 125 388 inputs; 64 MB).
    Halfkp,
    /// kp_256x2-32-32 (K+P features, 1 710 inputs; under 1 MB).
    Kp,
    /// chu-p_256x2-32-32 (Chu Shogi, Shishi's own: 11 232 inputs).
    Chu,
    /// chu-pk_256x2-32-32 (Chu Shogi, Shishi's own, with the pieces near the royals:
    /// 15 132 inputs).
    ChuPk,
    /// kagamigi-p_256x2-32-32 (Chu Kagamigi, Shishi's own).
    Kagamigi,
    /// shogammon-p_256x2-32-32 (Shogammon, Shishi's own: 7 056 inputs).
    Shogammon,
    /// shogammon-pk_256x2-32-32 (Shogammon, Shishi's own, with the pieces' places from the
    /// kings: 23 240 inputs).
    ShogammonPk,
}

impl Arch {
    pub fn features(self) -> FeatureSet {
        match self {
            Arch::Halfkp => FeatureSet::HalfKp,
            Arch::Kp => FeatureSet::Kp,
            Arch::Chu => FeatureSet::ChuP,
            Arch::ChuPk => FeatureSet::ChuPK,
            Arch::Kagamigi => FeatureSet::KagamigiP,
            Arch::Shogammon => FeatureSet::ShogammonP,
            Arch::ShogammonPk => FeatureSet::ShogammonPK,
        }
    }
}

#[derive(Args, Debug)]
pub struct TestnetArgs {
    /// The seed of the weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The architecture.
    #[arg(long, value_enum, default_value_t = Arch::Halfkp)]
    arch: Arch,
    /// The file to write (YaneuraOu reads `nn.bin` in its `EvalDir`).
    out: PathBuf,
}

pub fn run(args: &TestnetArgs) -> Result<(), String> {
    let bytes = file::write(&Network::random(args.arch.features(), args.seed));
    std::fs::write(&args.out, bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))
}
