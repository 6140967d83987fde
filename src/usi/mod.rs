//! The USI protocol: reading commands from stdin, answering on stdout, and running searches
//! on a thread of their own so that `stop`, `isready` and `ponderhit` are heard at any time.

/// Speaks USI on stdin/stdout until `quit` or end of input; returns the exit code.
pub fn run() -> i32 {
    eprintln!("error: the USI mode is not built yet");
    1
}
