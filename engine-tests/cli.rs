//! The `shishi` command line driven as a process: results on stdout, errors on stderr with
//! a non-zero exit code, never a panic.

use std::process::{Command, Output};

fn shishi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn perft_prints_nodes_time_and_speed() {
    let out = shishi(&["perft", "--variant", "shogi", "--startpos", "--depth", "3"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l == "nodes 25470"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("time ")));
    assert!(stdout.lines().any(|l| l.starts_with("nps ")));
}

#[test]
fn perft_divide_lists_every_first_move() {
    let out = shishi(&["perft", "--startpos", "--depth", "2", "--divide"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 30);
    assert!(rows.iter().all(|r| r.ends_with(": 30")), "{stdout}");
    assert!(stdout.lines().any(|l| l == "nodes 900"));
}

#[test]
fn perft_after_moves_and_from_sfen() {
    let out = shishi(&[
        "perft",
        "--sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "--moves",
        "7g7f 3c3d",
        "--depth",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // After 7g7f 3c3d sente has 39 moves, 8h2b and 8h2b+ among them (cshogi agrees).
    assert!(text(&out.stdout).lines().any(|l| l == "nodes 39"));
}

#[test]
fn bad_input_is_refused_with_a_message_and_non_zero_exit() {
    for args in [
        vec!["perft", "--sfen", "not an sfen", "--depth", "2"],
        vec!["perft", "--sfen", "9/9/9/9/9/9/9/9/9 x - 1", "--depth", "1"],
        vec!["perft", "--startpos", "--moves", "7g7e", "--depth", "1"],
        vec!["perft", "--startpos", "--moves", "P*5e", "--depth", "1"],
        vec!["perft", "--startpos", "--depth", "minus"],
        vec!["perft", "--startpos"],
        vec!["perft", "--variant", "chess", "--startpos", "--depth", "1"],
        vec!["frobnicate"],
    ] {
        let out = shishi(&args);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?}: no message");
    }
}
