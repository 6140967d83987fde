//! `shishi serve`: the command line of the web server (`src/serve/`).

use crate::serve::{self, ServeOptions};
use crate::usi::options::HashMb;
use clap::Args;
use std::net::IpAddr;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; the default reaches this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Searches the engine runs at once (each on one thread).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    engines: u16,
    /// Each search thread's hash table in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
    /// The most games open at once.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=10000))]
    max_games: u32,
}

pub fn run(args: &ServeArgs) -> Result<(), String> {
    let options = ServeOptions {
        bind: args.bind,
        port: args.port,
        engines: usize::from(args.engines),
        hash: HashMb(args.hash as usize),
        max_games: args.max_games as usize,
        idle: Duration::from_secs(3600),
        faults: crate::serve::fault::TestFaults::from_env()?,
    };
    let bound = serve::bind(&options)?;
    println!("{}", serve::start_line(bound.address));
    use std::io::Write;
    let _ = std::io::stdout().flush();
    bound.serve();
    Ok(())
}
