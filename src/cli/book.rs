//! `shishi book`: making and inspecting opening books in YaneuraOu's text format.
//! `from-games` counts the moves of game records, `analyse` searches each book move to a
//! depth and writes its score, `merge` joins books, `stats` describes one. Books are
//! written as YaneuraOu writes them (sorted by SFEN text), so `BookOnTheFly` can read them.

use super::Variant;
use crate::book::choose::BookPosition;
use crate::book::format::{ply_of, Book, BookMove};
use crate::record::{self, RecordedGame};
use crate::referee::game_files::GameLine;
use crate::rules::geometry::Color;
use crate::rules::notation::GameText;
use crate::rules::variants::chu::ChuRules;
use crate::search::{Config, Control, Decision, Limits, Score, Searcher};
use crate::usi::position::{with_position, RuleOptions, UsiPosition};
use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Count the moves of game records (KIF, CSA, `.usi`, `games.jsonl`) into a book.
    FromGames(FromGamesArgs),
    /// Search each book move to a depth and write its value, depth and expected reply.
    Analyse(AnalyseArgs),
    /// Join books: counts add up; value and depth come from the deeper search.
    Merge(MergeArgs),
    /// Print a book's size, move numbers and counts, and check it against a game's rules.
    Stats(StatsArgs),
}

#[derive(Args, Debug)]
struct FromGamesArgs {
    /// Record files (`.kif`/`.kifu`, `.csa`, `.usi`, `games.jsonl`).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// The book to write (default: stdout).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// The game of the records (a `.usi` record's own `# variant:` line wins).
    #[arg(long, default_value = "shogi", value_parser = super::parse_variant)]
    variant: Variant,
    /// Count the moves of each game's first N plies.
    #[arg(long, default_value_t = 24)]
    plies: usize,
    /// Count only the moves of the side that won (games without a known result are left
    /// out; results are known in `games.jsonl`, `.usi` and KIF records).
    #[arg(long)]
    winners_only: bool,
    /// Leave out moves counted fewer times.
    #[arg(long, default_value_t = 1)]
    min_count: u64,
}

#[derive(Args, Debug)]
struct AnalyseArgs {
    /// The book to analyse.
    book: PathBuf,
    /// The book to write (default: stdout).
    #[arg(long, short)]
    out: Option<PathBuf>,
    #[arg(long, default_value = "shogi", value_parser = super::parse_variant)]
    variant: Variant,
    /// Search depth of each move.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Transposition table (MiB).
    #[arg(long, default_value = "64", value_parser = super::parse_hash_mib)]
    hash: usize,
    /// Also search each position itself and add its best move when the book lacks it
    /// (with count 0).
    #[arg(long)]
    add_best: bool,
}

#[derive(Args, Debug)]
struct MergeArgs {
    #[arg(required = true)]
    books: Vec<PathBuf>,
    #[arg(long, short)]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct StatsArgs {
    book: PathBuf,
    /// Check every position and move against this game's rules.
    #[arg(long, value_parser = super::parse_variant)]
    variant: Option<Variant>,
}

pub fn run(args: &BookArgs) -> Result<(), String> {
    match &args.command {
        BookCommand::FromGames(a) => write_out(&from_games(a)?, a.out.as_deref()),
        BookCommand::Analyse(a) => write_out(&analyse(a)?, a.out.as_deref()),
        BookCommand::Merge(a) => write_out(&merge(&a.books)?, a.out.as_deref()),
        BookCommand::Stats(a) => stats(a),
    }
}

fn write_out(book: &Book, out: Option<&Path>) -> Result<(), String> {
    match out {
        None => book
            .write(&mut std::io::stdout().lock())
            .map_err(|e| format!("cannot write the book: {e}")),
        Some(path) => {
            let mut file = std::io::BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            );
            book.write(&mut file)
                .and_then(|()| file.flush())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
    }
}

/// Reads a book file, reporting its malformed lines on stderr.
pub fn read_book(path: &Path) -> Result<Book, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (book, problems) = Book::read(&String::from_utf8_lossy(&bytes));
    for p in problems {
        eprintln!("{}: {p}, skipped", path.display());
    }
    Ok(book)
}

/// A position of `variant` from an SFEN (or its start position).
pub fn position_of(
    variant: Variant,
    chu_rules: Option<ChuRules>,
    sfen: Option<&str>,
) -> Result<UsiPosition, String> {
    if !crate::usi::book::has_books(variant) {
        return Err(format!(
            "{} has dice or cards: books serve shogi, chushogi and chukagamigi",
            variant.name()
        ));
    }
    let words = record::position_setup_words(sfen);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let rules = RuleOptions {
        chu_rules: chu_rules.unwrap_or_default(),
        ..RuleOptions::default()
    };
    UsiPosition::parse(&words, variant, rules)
}

/// One game for counting: the record and its winner, when known.
struct CountedGame {
    game: RecordedGame,
    winner: Option<Option<Color>>,
}

/// The winner a result text names (`1-0`, `0-1`, `1/2-1/2`).
fn winner_of(result: &str) -> Option<Option<Color>> {
    match result.split_whitespace().next()? {
        "1-0" => Some(Some(Color::Sente)),
        "0-1" => Some(Some(Color::Gote)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// The winner a record's text states, for the formats that state it.
fn winner_in_text(text: &str) -> Option<Option<Color>> {
    for line in text.lines() {
        if let Some(result) = line.trim().strip_prefix("# result:") {
            return winner_of(result);
        }
        // KIF: `まで77手で先手の勝ち`.
        if line.starts_with("まで") {
            if line.contains("先手の勝ち") || line.contains("下手の勝ち") {
                return Some(Some(Color::Sente));
            }
            if line.contains("後手の勝ち") || line.contains("上手の勝ち") {
                return Some(Some(Color::Gote));
            }
            if line.contains("千日手") || line.contains("持将棋") {
                return Some(None);
            }
        }
    }
    None
}

fn read_games(path: &Path, variant: Variant) -> Result<Vec<CountedGame>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if !name.ends_with(".jsonl") {
        let mut game = record::read_text(&name, &text).map_err(|e| format!("{name}: {e}"))?;
        if matches!(
            record::RecordFormat::detect(&name, &text),
            record::RecordFormat::Kif | record::RecordFormat::Csa
        ) {
            game.variant = Variant::Shogi;
        } else if !text.contains("# variant:") {
            game.variant = variant;
        }
        return Ok(vec![CountedGame {
            game,
            winner: winner_in_text(&text),
        }]);
    }
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line = GameLine::read(line)
            .ok_or_else(|| format!("{name} line {}: not a games.jsonl line", i + 1))?;
        let mut game =
            record::usi::read(&line.usi).map_err(|e| format!("{name} line {}: {e}", i + 1))?;
        game.variant = Variant::from_name(&line.variant).unwrap_or(variant);
        games.push(CountedGame {
            game,
            winner: winner_of(&line.result),
        });
    }
    Ok(games)
}

fn from_games(args: &FromGamesArgs) -> Result<Book, String> {
    // counts[sfen][move]
    let mut counts: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    let (mut used, mut skipped) = (0usize, 0usize);
    for path in &args.records {
        for CountedGame { game, winner } in read_games(path, args.variant)? {
            if game.variant != args.variant {
                skipped += 1;
                continue;
            }
            let winner = match (args.winners_only, winner) {
                (false, _) => None,
                (true, Some(Some(side))) => Some(side),
                (true, _) => {
                    skipped += 1;
                    continue;
                }
            };
            let mut pos = position_of(game.variant, game.chu_rules, game.start_sfen.as_deref())?;
            used += 1;
            for mv in game.moves.iter().take(args.plies) {
                let mover = pos.side_to_move();
                let sfen = pos.book_sfen();
                if !pos.play_text(mv) {
                    return Err(format!("{}: illegal move {mv} at {sfen}", path.display()));
                }
                if winner.is_none() || winner == Some(mover) {
                    *counts
                        .entry(sfen)
                        .or_default()
                        .entry(mv.clone())
                        .or_default() += 1;
                }
            }
        }
    }
    eprintln!("book from-games: {used} games counted, {skipped} left out");
    let mut book = Book::default();
    for (sfen, moves) in counts {
        for (mv, count) in moves {
            if count >= args.min_count {
                book.insert(&sfen, BookMove::counted(&mv, count));
            }
        }
    }
    Ok(book)
}

/// A search score as a book value: centipawns, mates as ±(32000 − plies) as YaneuraOu
/// writes them.
fn book_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(plies) if plies > 0 => 32000 - plies,
        Score::Mate(plies) => -32000 - plies,
    }
}

/// Searches `pos` to `depth`: the best move, its reply and the score for the side to move.
fn search(
    searcher: &mut Searcher,
    pos: &UsiPosition,
    depth: u32,
) -> Option<(String, Option<String>, i32)> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let config = Config::default();
    let mut score = None;
    with_position!(pos,
        p => {
            let decision = searcher.search(p.as_ref(), &limits, &config, &Control::new(false),
                &mut |info| score = Some(info.score));
            match decision {
                Decision::Move { best, ponder } => {
                    let best_text = p.move_text(best);
                    let ponder_text = ponder.map(|r| {
                        let mut after = p.as_ref().clone();
                        crate::search::game::SearchGame::play(&mut after, best);
                        after.move_text(r)
                    });
                    Some((best_text, ponder_text, score.map(book_value).unwrap_or(0)))
                }
                _ => None,
            }
        },
        _c => None)
}

fn analyse(args: &AnalyseArgs) -> Result<Book, String> {
    let book = read_book(&args.book)?;
    let mut out = Book::default();
    let mut searcher = Searcher::new(args.hash);
    let total = book.positions.len();
    let mut sfens: Vec<&String> = book.positions.keys().collect();
    sfens.sort();
    for (i, sfen) in sfens.into_iter().enumerate() {
        eprint!("\rbook analyse: position {}/{total}", i + 1);
        let pos = match position_of(args.variant, None, Some(sfen)) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("\nbook analyse: {sfen}: {e}, left out");
                continue;
            }
        };
        for mv in &book.positions[sfen] {
            let mut after = pos.clone();
            if !after.play_text(&mv.mv) {
                eprintln!("\nbook analyse: illegal move {} at {sfen}, left out", mv.mv);
                continue;
            }
            let mut analysed = mv.clone();
            if let Some((reply, _, value)) = search(&mut searcher, &after, args.depth) {
                analysed.ponder = Some(reply);
                analysed.value = -value;
            } else {
                // No legal reply: the move ends the game (mate or a win).
                analysed.ponder = None;
                analysed.value = 32000 - 1;
            }
            analysed.depth = args.depth as i32;
            out.insert(sfen, analysed);
        }
        if args.add_best {
            if let Some((best, ponder, value)) = search(&mut searcher, &pos, args.depth) {
                if !book.positions[sfen].iter().any(|m| m.mv == best) {
                    out.insert(
                        sfen,
                        BookMove {
                            mv: best,
                            ponder,
                            value,
                            depth: args.depth as i32,
                            count: 0,
                        },
                    );
                }
            }
        }
    }
    eprintln!();
    Ok(out)
}

fn merge(paths: &[PathBuf]) -> Result<Book, String> {
    let mut out = Book::default();
    for path in paths {
        for (sfen, moves) in read_book(path)?.positions {
            let entry = out.positions.entry(sfen).or_default();
            for mv in moves {
                match entry.iter_mut().find(|m| m.mv == mv.mv) {
                    None => entry.push(mv),
                    Some(old) => {
                        old.count += mv.count;
                        if mv.depth > old.depth {
                            old.value = mv.value;
                            old.depth = mv.depth;
                            old.ponder = mv.ponder.or(old.ponder.take());
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

fn stats(args: &StatsArgs) -> Result<(), String> {
    let book = read_book(&args.book)?;
    let positions = book.positions.len();
    let moves: usize = book.positions.values().map(Vec::len).sum();
    let count: u64 = book.positions.values().flatten().map(|m| m.count).sum();
    let deepest = book.positions.values().flatten().map(|m| m.depth).max();
    let mut by_ply: BTreeMap<u32, usize> = BTreeMap::new();
    for sfen in book.positions.keys() {
        *by_ply.entry(ply_of(sfen)).or_default() += 1;
    }
    let mut out = std::io::stdout().lock();
    let mut say = |text: String| {
        let _ = writeln!(out, "{text}");
    };
    say(format!("positions: {positions}"));
    say(format!("moves: {moves}"));
    say(format!("total count: {count}"));
    say(format!("deepest search: {}", deepest.unwrap_or(0)));
    let plies: Vec<String> = by_ply.iter().map(|(p, n)| format!("{p}:{n}")).collect();
    say(format!("positions by move number: {}", plies.join(" ")));
    if let Some(variant) = args.variant {
        let (mut bad_positions, mut illegal) = (0usize, 0usize);
        for (sfen, moves) in &book.positions {
            match position_of(variant, None, Some(sfen)) {
                Err(e) => {
                    bad_positions += 1;
                    eprintln!("not a {} position: {sfen}: {e}", variant.name());
                }
                Ok(pos) => {
                    for m in moves {
                        if !pos.clone().play_text(&m.mv) {
                            illegal += 1;
                            eprintln!("illegal move {} at {sfen}", m.mv);
                        }
                    }
                }
            }
        }
        say(format!("unreadable positions: {bad_positions}"));
        say(format!("illegal moves: {illegal}"));
        if bad_positions + illegal > 0 {
            return Err(format!(
                "{} is not a clean {} book",
                args.book.display(),
                variant.name()
            ));
        }
    }
    Ok(())
}
