//! The Chu Shogi perft suite `positions/perft/chushogi.perft` checked against the engine's
//! move generator, and `shishi perft --variant chushogi` run as a process.
//!
//! Every count in the suite was cross-checked with shogiops (lishogi's rules) in both ways of
//! counting by `scripts/chu_crosscheck.sh`. The regular test runs each line up to a node
//! limit; the `#[ignore]`d test runs every line.

use shishi::rules::perft::perft;
use shishi::rules::variants::chu::movegen::perft_usi_spellings;
use shishi::rules::variants::chu::Position;
use std::process::Command;

#[path = "common/perft_file.rs"]
mod perft_file;
use perft_file::{assert_perft_line, read_suite};

/// Lines with more leaves than this are left to the deep (ignored) run.
const REGULAR_NODE_LIMIT: u64 = 2_000_000;

fn check(limit: Option<u64>) {
    let lines = read_suite("chushogi.perft");
    assert!(lines.len() >= 60, "the suite should hold many lines");
    let positions: std::collections::HashSet<&str> =
        lines.iter().map(|l| l.sfen.as_str()).collect();
    assert!(
        positions.len() >= 16,
        "start position and at least 15 others"
    );
    let mut checked = 0;
    for line in lines.iter().filter(|l| limit.is_none_or(|n| l.nodes <= n)) {
        let mut pos = Position::from_sfen(&line.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        assert_eq!(
            pos.to_sfen(),
            line.sfen,
            "line {}: SFEN round trip",
            line.line_number
        );
        assert_perft_line(&mut pos, line, Position::hash);
        assert_eq!(pos.to_sfen(), line.sfen);
        checked += 1;
    }
    assert!(checked >= 60);
    eprintln!("{checked} Chu perft lines exact");
}

#[test]
fn chu_suite_up_to_node_limit() {
    check(Some(REGULAR_NODE_LIMIT));
}

#[test]
#[ignore = "deep lines: run with --ignored"]
fn chu_suite_every_line() {
    check(None);
}

/// lishogi's published counts: 36, 1,296 and 52,599 USI strings from the start; a lone Lion
/// has 88 (RULES.md §2.3).
#[test]
fn lishogi_counts_every_usi_spelling() {
    let mut start = Position::startpos();
    assert_eq!(perft_usi_spellings(&mut start, 1), 36);
    assert_eq!(perft_usi_spellings(&mut start, 2), 1296);
    assert_eq!(perft_usi_spellings(&mut start, 3), 52_599);
    assert_eq!(perft(&mut start, 3), 48_315);
    // A lone Lion in the centre, kings in the corners (the sente king has 3 moves).
    let mut lion = Position::from_sfen("11k/12/12/12/12/6N5/12/12/12/12/12/K11 b - 1").unwrap();
    assert_eq!(perft_usi_spellings(&mut lion, 1), 88 + 3);
    assert_eq!(perft(&mut lion, 1), 25 + 3);
}

#[test]
fn cli_perft_chushogi_prints_both_counts() {
    let out = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args([
            "perft",
            "--variant",
            "chushogi",
            "--startpos",
            "--depth",
            "3",
        ])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l == "nodes 48315"), "{stdout}");
    assert!(stdout.lines().any(|l| l == "usi-strings 52599"), "{stdout}");
    let bad = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args([
            "perft",
            "--variant",
            "chushogi",
            "--sfen",
            "12/12 b - 1",
            "--depth",
            "1",
        ])
        .output()
        .expect("the binary runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("ranks"));
}
