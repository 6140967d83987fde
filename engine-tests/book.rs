//! Opening books (YaneuraOu's text format) end to end: the USI engine plays book moves at
//! `go` (in memory and on the fly, in shogi and Chu Shogi), reports malformed lines at
//! `isready`, searches with `no_book`; `shishi book` writes, merges and describes books;
//! `shishi match --book` draws its openings from one.

use shishi::book::choose::BookPosition;
use shishi::book::{Book, BookMove};
use shishi::usi::options::Variant;
use shishi::usi::position::{RuleOptions, UsiPosition};

#[path = "common/run_shishi.rs"]
mod run_shishi;
use run_shishi::{shishi, shishi_with_input, text};
#[path = "common/scratch_dir.rs"]
mod scratch_dir;
use scratch_dir::ScratchDir;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/fixtures");

/// Runs the USI engine on `script` (then end of input) and returns its stdout lines and
/// its stderr.
fn usi(script: &str) -> (Vec<String>, String) {
    let out = shishi_with_input(&[], script);
    (
        text(&out.stdout).lines().map(str::to_string).collect(),
        text(&out.stderr),
    )
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .cloned()
        .collect()
}

fn start(variant: Variant) -> UsiPosition {
    UsiPosition::startpos(variant, RuleOptions::default())
}

/// A shogi book: the start position with one move, and the position after 7g7f.
fn small_book() -> Book {
    let mut book = Book::default();
    let root = start(Variant::Shogi);
    book.insert(
        &root.book_sfen(),
        BookMove {
            mv: "2g2f".into(),
            ponder: Some("8c8d".into()),
            value: 40,
            depth: 20,
            count: 3,
        },
    );
    let mut after = root.clone();
    assert!(after.play_text("7g7f"));
    book.insert(
        &after.book_sfen(),
        BookMove {
            mv: "5c5d".into(),
            ponder: None,
            value: 0,
            depth: 20,
            count: 1,
        },
    );
    book
}

#[test]
fn the_engine_plays_the_book_move_with_info_lines_and_searches_without_a_book() {
    let dir = ScratchDir::new("shishi-book", "play");
    let path = dir.join("small.db");
    std::fs::write(&path, small_book().to_text()).unwrap();
    for on_the_fly in ["false", "true"] {
        let (lines, _) = usi(&format!(
            "usi\nsetoption name BookFile value {}\nsetoption name BookOnTheFly value {on_the_fly}\n\
             isready\nposition startpos\ngo btime 10000 wtime 10000\n\
             position startpos moves 7g7f\ngo byoyomi 1000\n",
            path.display()
        ));
        assert_eq!(
            bestmoves(&lines),
            ["bestmove 2g2f ponder 8c8d", "bestmove 5c5d"],
            "on the fly {on_the_fly}: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l == "info multipv 1 depth 20 score cp 40 nodes 0 time 0 pv 2g2f 8c8d"),
            "{lines:?}"
        );
    }
    // With no_book (the default) the engine searches: its info lines count nodes.
    let (lines, _) = usi(&format!(
        "setoption name BookFile value {}\nsetoption name BookFile value no_book\nisready\n\
         position startpos\ngo depth 2\n",
        path.display()
    ));
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("book")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && !l.contains(" nodes 0 ")),
        "{lines:?}"
    );
    // Past BookMoves, the book is not used.
    let (lines, _) = usi(&format!(
        "setoption name BookFile value {}\nsetoption name BookMoves value 1\nisready\n\
         position startpos moves 7g7f\ngo depth 1\n",
        path.display()
    ));
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && !l.contains(" nodes 0 ")),
        "{lines:?}"
    );
}

#[test]
fn malformed_lines_are_reported_at_isready_with_their_numbers() {
    let dir = ScratchDir::new("shishi-book", "malformed");
    let path = dir.join("bad.db");
    let text = small_book().to_text().replace("5c5d none 0", "5c5d none x");
    let text = format!("{text}7g7f\tnone 1 2 3 4 5\n");
    std::fs::write(&path, &text).unwrap();
    let bad_value = 1 + text.lines().position(|l| l.contains(" x ")).unwrap();
    let last = text.lines().count();
    let (lines, stderr) = usi(&format!(
        "setoption name BookFile value {}\nisready\nposition startpos\ngo btime 1 wtime 1\n",
        path.display()
    ));
    let reports: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error book"))
        .collect();
    assert_eq!(reports.len(), 2, "{lines:?}");
    let at = |n: usize| format!("line {n}: ");
    assert!(reports[0].contains(&at(bad_value)), "{reports:?}");
    assert!(
        reports[0].contains("the value \"x\" is not a number"),
        "{reports:?}"
    );
    assert!(reports[1].contains(&at(last)), "{reports:?}");
    assert!(stderr.contains(&at(bad_value)), "{stderr}");
    assert_eq!(
        bestmoves(&lines),
        ["bestmove 2g2f ponder 8c8d"],
        "{lines:?}"
    );
}

/// A missing file is an error, and the engine searches instead.
#[test]
fn a_missing_book_is_an_error_and_the_engine_searches() {
    let (lines, _) = usi(
        "setoption name BookFile value /nonexistent/book.db\nisready\nposition startpos\n\
         go depth 1\n",
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error cannot read book")),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn chu_shogi_plays_from_its_own_book_and_the_dice_game_from_none() {
    let dir = ScratchDir::new("shishi-book", "chu");
    let root = start(Variant::Chushogi);
    let mut book = Book::default();
    assert!(root.clone().play_text("7i7h"));
    book.insert(&root.book_sfen(), BookMove::counted("7i7h", 5));
    let path = dir.join("chu.db");
    std::fs::write(&path, book.to_text()).unwrap();
    let (lines, _) = usi(&format!(
        "setoption name USI_Variant value chushogi\nsetoption name BookFile value {}\n\
         setoption name BookDepthLimit value 0\nisready\nposition startpos\ngo byoyomi 1000\n",
        path.display()
    ));
    assert_eq!(bestmoves(&lines), ["bestmove 7i7h"], "{lines:?}");
    // The same book under shogi: its SFEN is no shogi position, so the engine searches.
    let (lines, _) = usi(&format!(
        "setoption name BookFile value {}\nsetoption name BookDepthLimit value 0\nisready\n\
         position startpos\ngo depth 1\n",
        path.display()
    ));
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    let (lines, _) = usi(&format!(
        "setoption name USI_Variant value shogammon\nsetoption name BookFile value {}\nisready\n",
        path.display()
    ));
    assert!(
        lines
            .iter()
            .any(|l| l == "info string book not used: shogammon has dice or cards"),
        "{lines:?}"
    );
}

/// The same seed plays the same book moves, on the fly and in memory; weighted by count,
/// a move played three times in four is chosen most of the time.
#[test]
fn book_choices_follow_the_seed_and_the_counts() {
    let dir = ScratchDir::new("shishi-book", "seed");
    let mut book = Book::default();
    let root = start(Variant::Shogi);
    book.insert(&root.book_sfen(), BookMove::counted("7g7f", 3));
    book.insert(&root.book_sfen(), BookMove::counted("2g2f", 1));
    let path = dir.join("two.db");
    std::fs::write(&path, book.to_text()).unwrap();
    let goes = "position startpos\ngo btime 1 wtime 1\n".repeat(40);
    let run = |on_the_fly: &str, seed: u32| {
        let (lines, _) = usi(&format!(
            "setoption name BookFile value {}\nsetoption name BookDepthLimit value 0\n\
             setoption name ConsiderBookMoveCount value true\n\
             setoption name BookOnTheFly value {on_the_fly}\nsetoption name BookSeed value {seed}\n\
             isready\n{goes}",
            path.display()
        ));
        bestmoves(&lines)
    };
    let memory = run("false", 5);
    assert_eq!(memory.len(), 40);
    assert_eq!(memory, run("true", 5));
    let common = memory.iter().filter(|m| *m == "bestmove 7g7f").count();
    assert!((22..=38).contains(&common), "{common} of 40");
    assert_ne!(memory, run("false", 6), "another seed, other choices");
}

#[test]
fn book_from_games_merge_and_stats() {
    let dir = ScratchDir::new("shishi-book", "cli");
    let one = dir.join("one.db");
    let records = [
        format!("{FIXTURES}/cshogi_export.kifu"),
        format!("{FIXTURES}/cshogi_export.csa"),
        format!("{FIXTURES}/match_game.usi"),
    ];
    let mut args = vec![
        "book",
        "from-games",
        "--plies",
        "4",
        "-o",
        one.to_str().unwrap(),
    ];
    args.extend(records.iter().map(String::as_str));
    let out = shishi(&args);
    assert!(out.status.success(), "{out:?}");
    let (book, problems) = Book::read(&std::fs::read_to_string(&one).unwrap());
    assert!(problems.is_empty());
    let root = start(Variant::Shogi).book_sfen();
    let total: u64 = book.positions[&root].iter().map(|m| m.count).sum();
    assert_eq!(total, 3, "three games start from the start position");
    let text = std::fs::read_to_string(&one).unwrap();
    let sfens: Vec<&str> = text.lines().filter(|l| l.starts_with("sfen ")).collect();
    let mut sorted = sfens.clone();
    sorted.sort();
    assert_eq!(sfens, sorted, "positions sorted by SFEN text");
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n"));

    let merged = dir.join("merged.db");
    let out = shishi(&[
        "book",
        "merge",
        one.to_str().unwrap(),
        one.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let (twice, _) = Book::read(&std::fs::read_to_string(&merged).unwrap());
    for (sfen, moves) in &book.positions {
        for m in moves {
            let doubled = twice.positions[sfen].iter().find(|n| n.mv == m.mv).unwrap();
            assert_eq!(doubled.count, 2 * m.count);
        }
    }

    let out = shishi(&[
        "book",
        "stats",
        merged.to_str().unwrap(),
        "--variant",
        "shogi",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains(&format!("positions: {}\n", book.positions.len())),
        "{stdout}"
    );
    assert!(stdout.contains("illegal moves: 0\n"), "{stdout}");
    let out = shishi(&[
        "book",
        "stats",
        merged.to_str().unwrap(),
        "--variant",
        "chushogi",
    ]);
    assert!(!out.status.success(), "a shogi book is no Chu book");
}

#[test]
fn book_analyse_writes_values_depths_and_replies() {
    let dir = ScratchDir::new("shishi-book", "analyse");
    let input = dir.join("in.db");
    let mut book = Book::default();
    let root = start(Variant::Shogi).book_sfen();
    book.insert(&root, BookMove::counted("7g7f", 2));
    // Giving the bishop away: a bad move.
    let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    book.insert(sfen, BookMove::counted("8h3c", 1));
    book.insert(sfen, BookMove::counted("2g2f", 1));
    std::fs::write(&input, book.to_text()).unwrap();
    let output = dir.join("out.db");
    let out = shishi(&[
        "book",
        "analyse",
        input.to_str().unwrap(),
        "--depth",
        "3",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let (analysed, _) = Book::read(&std::fs::read_to_string(&output).unwrap());
    let moves = &analysed.positions[sfen];
    let value = |mv: &str| moves.iter().find(|m| m.mv == mv).unwrap().value;
    assert!(value("8h3c") < value("2g2f") - 300, "{moves:?}");
    assert!(moves.iter().all(|m| m.depth == 3 && m.ponder.is_some()));
    assert_eq!(analysed.positions[&root][0].count, 2, "counts are kept");
}

#[test]
fn match_openings_are_drawn_from_the_book() {
    let dir = ScratchDir::new("shishi-book", "match");
    let path = dir.join("small.db");
    std::fs::write(&path, small_book().to_text()).unwrap();
    let engine = format!("python3 {FIXTURES}/fake_usi.py resign");
    // Two games between resigning fake engines, with `book_args` and written to `out`.
    let two_games = |book_args: &[&str], out: &std::path::Path| {
        let mut args = vec![
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--games",
            "2",
            "--tc",
            "movetime=100",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(book_args);
        shishi(&args)
    };
    let out_dir = dir.join("out");
    let out = two_games(
        &["--book", path.to_str().unwrap(), "--book-plies", "4"],
        &out_dir,
    );
    assert!(out.status.success(), "{out:?}");
    let games = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap();
    // The book has 2g2f at the start and nothing after it: the opening is that one move.
    assert_eq!(
        games
            .lines()
            .filter_map(shishi::referee::game_files::GameLine::read)
            .filter(|g| g.usi == "position startpos moves 2g2f")
            .count(),
        2,
        "{games}"
    );
    // A book without the start position is refused.
    let other = dir.join("other.db");
    let mut book = Book::default();
    book.insert("4k4/9/9/9/9/9/9/9/4K4 b - 1", BookMove::counted("5i5h", 1));
    std::fs::write(&other, book.to_text()).unwrap();
    let out = two_games(&["--book", other.to_str().unwrap()], &dir.join("out2"));
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("has no move"), "{out:?}");
}
