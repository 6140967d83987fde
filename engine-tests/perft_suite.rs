//! The perft suites in `positions/perft/` checked against the engine's move generator.
//!
//! Every count in those files was cross-checked with an independent implementation before
//! it was committed (cshogi for standard shogi: `scripts/perft_crosscheck.py`). The regular
//! test runs each line up to a node limit; the `#[ignore]`d test runs every line and is run
//! by `scripts/perft_deep.sh`.

use shishi::rules::variants::shogi::Position;

#[path = "common/perft_file.rs"]
mod perft_file;
use perft_file::{assert_perft_line, read_suite};

/// Lines with more leaves than this are left to the deep (ignored) run.
const REGULAR_NODE_LIMIT: u64 = 20_000_000;

fn check_shogi(limit: Option<u64>) {
    let lines = read_suite("shogi.perft");
    assert!(lines.len() >= 20, "the suite should hold many lines");
    let mut checked = 0;
    for line in lines.iter().filter(|l| limit.is_none_or(|n| l.nodes <= n)) {
        let mut pos = Position::from_sfen(&line.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        assert_perft_line(&mut pos, line, Position::to_sfen);
        checked += 1;
    }
    assert!(checked > 0);
    eprintln!("{checked} perft lines exact");
}

#[test]
fn shogi_suite_up_to_node_limit() {
    check_shogi(Some(REGULAR_NODE_LIMIT));
}

#[test]
#[ignore = "deep lines: run by scripts/perft_deep.sh"]
fn shogi_suite_every_line() {
    check_shogi(None);
}
