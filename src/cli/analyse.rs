//! `shishi analyse`: a person-readable analysis of one position: board diagram and the
//! principal variations.

use clap::Args;

#[derive(Args, Debug)]
pub struct AnalyseArgs {}

pub fn run(_args: &AnalyseArgs) -> Result<(), String> {
    Err("analyse is not built yet".to_string())
}
