//! Minishogi (5×5), the sixth game: its rules are the drop-shogi family's with a piece
//! table (`shishi::rules::variants::minishogi`), and it plays wherever the other games do.
//!
//! Every perft count here comes from shogiops (lishogi's rules library), not from Shishi:
//! `positions/perft/minishogi.perft` is the output of `scripts/shogiops_minishogi_perft.mjs 7`
//! (the start position to depth 5, then positions of seeded random play with pieces in hand),
//! and the command-line counts below are lines of that file.

use shishi::rules::game::{Game, Outcome};
use shishi::rules::geometry::Color;
use shishi::rules::moves::MoveList;
use shishi::rules::variants::minishogi::Position;
use shishi::rules::xboard_moves::{xboard_to_usi, BoardSize};
use std::io::{BufRead, BufReader, Write};

#[path = "common/perft_file.rs"]
mod perft_file;
use perft_file::{assert_perft_line, read_suite};

#[path = "common/run_shishi.rs"]
mod run_shishi;
use run_shishi::{shishi, shishi_with_input, spawn_shishi, text};

#[test]
fn perft_agrees_with_shogiops() {
    let lines = read_suite("minishogi.perft");
    assert!(lines.len() >= 40, "the suite should hold many lines");
    for line in &lines {
        let mut pos = Position::from_sfen(&line.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        assert_eq!(
            pos.to_sfen(),
            line.sfen,
            "line {}: SFEN round trip",
            line.line_number
        );
        assert_perft_line(&mut pos, line, Position::to_sfen);
    }
}

#[test]
fn the_perft_command_counts_as_shogiops_does() {
    // shogiops: 14, 181, 2512, 35401 from the start; 487 at depth 2 from a position with a
    // rook in hand (lines of positions/perft/minishogi.perft).
    for (args, nodes) in [
        (vec!["--startpos", "--depth", "1"], 14),
        (vec!["--startpos", "--depth", "4"], 35401),
        (
            vec!["--sfen", "1B2k/3gp/3p1/GsKB1/2S1R b R 15", "--depth", "2"],
            487,
        ),
    ] {
        let mut all = vec!["perft", "--variant", "minishogi"];
        all.extend(args);
        let out = shishi(&all);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.lines().any(|l| l == format!("nodes {nodes}")),
            "{all:?}: {stdout}"
        );
    }
}

#[test]
fn drop_rules_and_game_end_are_the_familys() {
    let legal = |sfen: &str| {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut moves = MoveList::new();
        pos.legal_actions(&mut moves);
        moves
            .iter()
            .map(|m| pos.move_to_usi(*m))
            .collect::<Vec<_>>()
    };
    // Pawn-drop mate is refused; the same check without the gold's guard is allowed.
    assert!(!legal("kr3/5/1G3/5/4K b P 1").contains(&"P*5b".to_string()));
    assert!(legal("kr3/5/5/5/4K b P 1").contains(&"P*5b".to_string()));
    // Nifu, and no pawn drop on the last rank.
    let moves = legal("4k/5/5/4P/K4 b P 1");
    assert!(!moves.iter().any(|m| m.starts_with("P*1")));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("P*") && m.ends_with('a')));
    // A pawn reaching the last rank must promote; a silver may choose.
    let moves = legal("2k2/P3S/5/5/K4 b - 1");
    assert!(moves.contains(&"5b5a+".to_string()) && !moves.contains(&"5b5a".to_string()));
    assert!(moves.contains(&"1b1a+".to_string()) && moves.contains(&"1b1a".to_string()));
    // Bad positions are refused; a checkmated side has lost.
    assert!(Position::from_sfen("P3k/5/5/5/K4 b - 1").is_err());
    assert!(Position::from_sfen("rbsgk/4p/5/P4/KGSBR b 3P 1").is_err());
    let mate = Position::from_sfen("4k/4G/4P/5/K4 w - 1").unwrap();
    assert_eq!(mate.outcome(), Some(Outcome::Win(Color::Sente)));
}

/// Feeds `input` to `shishi` (USI, or CECP after `xboard`) and returns its stdout.
fn converse(input: &str) -> String {
    text(&shishi_with_input(&[], input).stdout)
}

#[test]
fn usi_plays_minishogi() {
    let out = converse(
        "usi\nsetoption name USI_Variant value minishogi\nisready\n\
         position startpos moves 1e1d\ngo depth 4\nquit\n",
    );
    assert!(out.contains("var minishogi"), "{out}");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    let mut pos = Position::startpos();
    pos.play(pos.parse_usi_move("1e1d").unwrap());
    assert!(
        pos.parse_usi_move(best.split_whitespace().next().unwrap())
            .is_ok(),
        "{best}"
    );
    // A shogi move is no minishogi move: an error, and the engine goes on (every `isready`
    // is answered at the end of input).
    let out = converse(
        "usi\nsetoption name USI_Variant value minishogi\nisready\n\
         position startpos moves 7g7f\nisready\n",
    );
    assert!(out.contains("info string error"), "{out}");
    assert!(out.trim_end().ends_with("readyok"), "{out}");
}

/// The `checkmate` line `go mate 5000` answers on the minishogi position `sfen`.
fn go_mate(sfen: &str) -> String {
    let mut child = spawn_shishi(&[]);
    let mut stdin = child.stdin.take().unwrap();
    write!(
        stdin,
        "usi\nsetoption name USI_Variant value minishogi\nisready\n\
         position sfen {sfen}\ngo mate 5000\n"
    )
    .unwrap();
    stdin.flush().unwrap();
    // The answer is awaited before `quit`, which would stop the solver.
    let line = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| l.unwrap())
        .find(|l| l.starts_with("checkmate"))
        .unwrap_or_else(|| panic!("no checkmate line for {sfen}"));
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    child.wait().unwrap();
    line
}

/// `go mate` solves minishogi tsume, checked by hand. Mate in 1: the gold dropped on 1b,
/// guarded by the pawn on 1c, covers 2a and 2b (no other check mates). Mate in 3 (no
/// check mates in 1: a rook or silver drop leaves 2a/4a or 2b/4b free, the pawn push is
/// taken): R*3b, guarded by the pawn, leaves the king 2a or 4a, and a silver dropped on 1b
/// or 5b, guarded by the rook along the b rank, mates.
#[test]
fn go_mate_solves_minishogi_tsume() {
    assert_eq!(go_mate("4k/5/4P/5/K4 b G 1"), "checkmate G*1b");
    let line = go_mate("2k2/5/2P2/5/K4 b RS 1");
    let moves: Vec<&str> = line
        .strip_prefix("checkmate ")
        .unwrap_or_else(|| panic!("{line}"))
        .split(' ')
        .collect();
    assert_eq!(moves.len(), 3, "{line}");
    let mut pos = Position::from_sfen("2k2/5/2P2/5/K4 b RS 1").unwrap();
    for m in &moves {
        let mv = pos
            .parse_usi_move(m)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        pos.play(mv);
    }
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win(Color::Sente)),
        "{line} does not mate"
    );
}

#[test]
fn cecp_offers_and_plays_minishogi() {
    let mut child = spawn_shishi(&["--xboard"]);
    let mut stdin = child.stdin.take().unwrap();
    // Shishi is gote after `new`: it answers sente's 1e1d (XBoard's e1e2).
    stdin
        .write_all(b"xboard\nprotover 2\nnew\nvariant minishogi\nsd 2\nusermove e1e2\n")
        .unwrap();
    let mut seen = Vec::new();
    let mut reply = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(mv) = line.strip_prefix("move ") {
            reply = Some(mv.to_string());
            break;
        }
        seen.push(line);
    }
    stdin.write_all(b"quit\n").unwrap();
    child.wait().unwrap();
    let features = seen.iter().find(|l| l.contains("variants=")).unwrap();
    assert!(features.contains("minishogi"), "{seen:?}");
    let reply = reply.unwrap_or_else(|| panic!("no move: {seen:?}"));
    let usi = xboard_to_usi(&reply, BoardSize { files: 5, ranks: 5 });
    let mut pos = Position::startpos();
    pos.play(pos.parse_usi_move("1e1d").unwrap());
    assert!(pos.parse_usi_move(&usi).is_ok(), "{reply} ({usi})");
}

#[test]
fn bench_searches_the_minishogi_positions() {
    let out = shishi(&["bench", "--variant", "minishogi", "--depth", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .filter(|l| l.starts_with("position "))
            .count()
            >= 8,
        "{stdout}"
    );
    assert!(stdout.lines().any(|l| l.starts_with("nodes ")), "{stdout}");
}

#[test]
fn analyse_reads_a_minishogi_position() {
    let out = shishi(&[
        "analyse",
        "--variant",
        "minishogi",
        "--startpos",
        "--depth",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}
