//! `shishi serve`: a local web server with one page on which a person plays any game of the
//! registry against the engine, or watches the engine play itself (docs/SERVE.md).
//!
//! Files, one question each: `http` (routing, bounds, JSON, the event stream), `registry`
//! (the open games under unguessable ids), `session` (one game's flow: moves, dice and
//! cards, undo, resignation, the engine's turn), `truth` (a game's true state, one arm per
//! game of the registry), `view` (what a page may be shown), `engine` (the pool of search
//! threads, which keeps a failing search to its own game), `fault` (the faults the tests
//! arm to make a search fail) and `page` (the HTML, CSS and JavaScript built into the
//! binary).

pub mod engine;
pub mod fault;
pub mod http;
pub mod page;
pub mod registry;
pub mod session;
pub mod truth;
pub mod view;

use crate::usi::options::HashMb;
use fault::TestFaults;
use registry::{GameLimits, Registry};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// How the server is started.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// Searches run at once.
    pub engines: usize,
    /// Each search thread's table, in MiB.
    pub hash: HashMb,
    pub max_games: usize,
    /// A game untouched this long may be closed to make room for a new one.
    pub idle: Duration,
    /// The test faults armed (`fault`); none outside the tests.
    pub faults: TestFaults,
}

/// A server bound to its address, not yet serving.
pub struct Bound {
    server: tiny_http::Server,
    registry: std::sync::Arc<Registry>,
    pub address: SocketAddr,
}

/// Binds the address and starts the engine pool.
pub fn bind(options: &ServeOptions) -> Result<Bound, String> {
    let wanted = SocketAddr::new(options.bind, options.port);
    let server =
        tiny_http::Server::http(wanted).map_err(|e| format!("cannot listen on {wanted}: {e}"))?;
    let address = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| "the server is not on an IP address".to_string())?;
    if !options.faults.is_empty() {
        log::warn!("test faults armed: {:?}", options.faults);
    }
    let pool = engine::EnginePool::new(options.engines, options.hash, options.faults.clone());
    let registry = Registry::new(
        pool,
        GameLimits {
            max_games: options.max_games,
            idle: options.idle,
        },
    );
    Ok(Bound {
        server,
        registry,
        address,
    })
}

impl Bound {
    /// Serves until the process ends.
    pub fn serve(self) {
        http::serve(self.server, self.registry)
    }
}

/// The line printed on start: where the page is, and who can reach it.
pub fn start_line(address: SocketAddr) -> String {
    let reach = if address.ip().is_loopback() {
        format!(
            "listening on {} only (this machine); --bind 0.0.0.0 opens it to the network",
            address.ip()
        )
    } else {
        format!(
            "listening on {}: reachable from other machines, with no password",
            address.ip()
        )
    };
    format!("shishi serve: http://{address}/ ({reach})")
}
