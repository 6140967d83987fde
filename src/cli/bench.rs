//! `shishi bench`: searches fixed positions to a fixed depth on one thread and prints the
//! total node count (a signature that changes only when the search changes) and nodes/second.

use clap::Args;

#[derive(Args, Debug)]
pub struct BenchArgs {}

pub fn run(_args: &BenchArgs) -> Result<(), String> {
    Err("bench is not built yet".to_string())
}
