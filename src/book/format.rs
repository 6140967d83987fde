//! The text of a book file in YaneuraOu's format (`#YANEURAOU-DB2016 1.00`): reading its
//! lines into entries (with each malformed line reported by number and skipped), the key a
//! position is looked up by, and writing a book back sorted the way YaneuraOu writes it.
//!
//! A file is a header line, then for each position an `sfen BOARD SIDE HANDS PLY` line
//! followed by one line per book move: `MOVE PONDER VALUE DEPTH COUNT`, where `PONDER` may
//! be `none` and the three numbers may be left off (then 0, 0 and 1). Lines starting with
//! `#` (the header among them) or `//` are comments; blank lines are skipped.

use std::collections::HashMap;
use std::io::Write;

/// The first line of every book file.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// A score in centipawns from the side to move's point of view, as books store it.
pub type BookValue = i32;

/// One move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move in USI notation.
    pub mv: String,
    /// The expected reply (`None` when the book wrote `none`).
    pub ponder: Option<String>,
    pub value: BookValue,
    /// The search depth the value comes from (0: unknown).
    pub depth: i32,
    /// How often the move was played (its weight when choosing by count).
    pub count: u64,
}

impl BookMove {
    /// A move seen `count` times, with no reply, score or depth.
    pub fn counted(mv: &str, count: u64) -> BookMove {
        BookMove {
            mv: mv.to_string(),
            ponder: None,
            value: 0,
            depth: 0,
            count,
        }
    }

    /// Reads a move line (`MOVE PONDER [VALUE [DEPTH [COUNT]]]`).
    pub fn parse(line: &str) -> Result<BookMove, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(&mv) = fields.first() else {
            return Err("empty move line".into());
        };
        if is_no_move(mv) {
            return Err(format!("{mv:?} is no move"));
        }
        if fields.len() > 5 {
            return Err(format!(
                "{} fields (expected MOVE PONDER VALUE DEPTH COUNT)",
                fields.len()
            ));
        }
        let ponder = match fields.get(1) {
            None => None,
            Some(p) if is_no_move(p) => None,
            Some(p) => Some(p.to_string()),
        };
        fn number<T: std::str::FromStr>(
            fields: &[&str],
            i: usize,
            name: &str,
            default: T,
        ) -> Result<T, String> {
            match fields.get(i) {
                None => Ok(default),
                Some(text) => text
                    .parse()
                    .map_err(|_| format!("the {name} {text:?} is not a number")),
            }
        }
        Ok(BookMove {
            mv: mv.to_string(),
            ponder,
            value: number(&fields, 2, "value", 0)?,
            depth: number(&fields, 3, "depth", 0)?,
            count: number(&fields, 4, "count", 1)?,
        })
    }

    /// The move's line as written in a book file.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.mv,
            self.ponder.as_deref().unwrap_or("none"),
            self.value,
            self.depth,
            self.count
        )
    }
}

/// The words YaneuraOu writes or accepts in place of a move.
fn is_no_move(text: &str) -> bool {
    matches!(text, "none" | "None" | "resign")
}

/// Orders a position's moves as YaneuraOu does: most played first, then best value; ties
/// keep their order.
pub fn sort_moves(moves: &mut [BookMove]) {
    moves.sort_by(|a, b| b.count.cmp(&a.count).then(b.value.cmp(&a.value)));
}

/// Adds `mv` to `moves`, replacing a move with the same text.
pub fn insert_move(moves: &mut Vec<BookMove>, mv: BookMove) {
    match moves.iter_mut().find(|m| m.mv == mv.mv) {
        Some(old) => *old = mv,
        None => moves.push(mv),
    }
}

/// The key a position is looked up by: its SFEN without surrounding blanks and, with
/// `ignore_ply` (`IgnoreBookPly`), without the move number at its end.
pub fn book_key(sfen: &str, ignore_ply: bool) -> &str {
    let sfen = sfen.trim();
    if ignore_ply {
        sfen.trim_end_matches(|c: char| c.is_ascii_digit())
            .trim_end()
    } else {
        sfen
    }
}

/// A malformed line of a book file, skipped when reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineProblem {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// How one line of a book file reads.
pub enum BookLine<'a> {
    /// A comment, the header or a blank line.
    Skip,
    /// An `sfen …` line: the SFEN after the word.
    Position(&'a str),
    /// A move line.
    Move(Result<BookMove, String>),
}

/// Classifies one line (without its line break; a trailing `\r` is allowed).
pub fn classify(line: &str) -> BookLine<'_> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with('#') || line.starts_with("//") {
        return BookLine::Skip;
    }
    if let Some(sfen) = line.strip_prefix("sfen ") {
        return BookLine::Position(sfen.trim());
    }
    BookLine::Move(BookMove::parse(line))
}

/// A whole book: positions (keyed by their SFEN as written, move number included) and their
/// moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    pub positions: HashMap<String, Vec<BookMove>>,
}

impl Book {
    /// Reads a book's text. Malformed lines are skipped and returned with their numbers;
    /// a position written twice gets the moves of both (a move written twice keeps the
    /// later line).
    pub fn read(text: &str) -> (Book, Vec<LineProblem>) {
        let mut book = Book::default();
        let mut problems = Vec::new();
        let mut current: Option<String> = None;
        for (i, line) in text.lines().enumerate() {
            let problem = |message: String| LineProblem {
                line: i + 1,
                message,
            };
            match classify(line) {
                BookLine::Skip => {}
                BookLine::Position("") => {
                    problems.push(problem("an sfen line without a position".into()));
                    current = None;
                }
                BookLine::Position(sfen) => {
                    book.positions.entry(sfen.to_string()).or_default();
                    current = Some(sfen.to_string());
                }
                BookLine::Move(Err(e)) => {
                    problems.push(problem(format!("{e} in {:?}", line.trim())))
                }
                BookLine::Move(Ok(mv)) => match &current {
                    Some(sfen) => insert_move(book.positions.get_mut(sfen).expect("entry"), mv),
                    None => problems.push(problem(format!(
                        "a move line ({}) before any sfen line",
                        line.trim()
                    ))),
                },
            }
        }
        book.positions.retain(|_, moves| !moves.is_empty());
        for moves in book.positions.values_mut() {
            sort_moves(moves);
        }
        (book, problems)
    }

    /// Adds a move to a position (replacing the same move).
    pub fn insert(&mut self, sfen: &str, mv: BookMove) {
        insert_move(
            self.positions.entry(sfen.trim().to_string()).or_default(),
            mv,
        );
    }

    /// The moves of a position, most played first, looked up by [`book_key`].
    pub fn index(&self, ignore_ply: bool) -> HashMap<String, Vec<BookMove>> {
        let mut index: HashMap<String, Vec<BookMove>> = HashMap::new();
        // With `ignore_ply`, the same position at several move numbers keeps the lowest
        // number's moves, as YaneuraOu keeps only that one when it writes.
        let mut entries: Vec<(&String, &Vec<BookMove>)> = self.positions.iter().collect();
        entries.sort_by_key(|(sfen, _)| ply_of(sfen));
        for (sfen, moves) in entries {
            index
                .entry(book_key(sfen, ignore_ply).to_string())
                .or_insert_with(|| moves.clone());
        }
        index
    }

    /// Writes the book as YaneuraOu writes one: the header, then the positions sorted by
    /// their SFEN text (byte order), each with its moves most played first; positions
    /// without moves are left out.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{HEADER}")?;
        let mut sfens: Vec<&String> = self
            .positions
            .iter()
            .filter(|(_, moves)| !moves.is_empty())
            .map(|(sfen, _)| sfen)
            .collect();
        sfens.sort();
        for sfen in sfens {
            writeln!(out, "sfen {sfen}")?;
            let mut moves = self.positions[sfen].clone();
            sort_moves(&mut moves);
            for mv in &moves {
                writeln!(out, "{}", mv.line())?;
            }
        }
        Ok(())
    }

    /// The book's text, as [`Book::write`] writes it.
    pub fn to_text(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out).expect("writing to memory");
        String::from_utf8(out).expect("books are text")
    }
}

/// The move number at the end of an SFEN (0 if none).
pub fn ply_of(sfen: &str) -> u32 {
    sfen.split_whitespace()
        .last()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn move_lines_read_with_defaults_and_none() {
        let m = BookMove::parse("7g7f 3c3d 35 20 7").unwrap();
        assert_eq!(
            m,
            BookMove {
                mv: "7g7f".into(),
                ponder: Some("3c3d".into()),
                value: 35,
                depth: 20,
                count: 7
            }
        );
        let m = BookMove::parse("2g2f none").unwrap();
        assert_eq!((m.ponder, m.value, m.depth, m.count), (None, 0, 0, 1));
        assert_eq!(BookMove::parse("2g2f none -12").unwrap().value, -12);
        assert!(BookMove::parse("2g2f none x").is_err());
        assert!(BookMove::parse("none none 0 0 1").is_err());
        assert!(BookMove::parse("2g2f none 1 2 3 4").is_err());
        assert!(BookMove::parse("2g2f none 1 2 -3").is_err());
    }

    #[test]
    fn reading_reports_bad_lines_by_number_and_keeps_the_rest() {
        let text = format!(
            "{HEADER}\n7g7f none 0 0 1\nsfen {START}\n// note\n2g2f 8c8d 10 5 3\n\
             7g7f 3c3d 20 5 x\n7g7f 3c3d 20 5 9\r\nsfen \n"
        );
        let (book, problems) = Book::read(&text);
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, vec![2, 6, 8], "{problems:?}");
        let moves = &book.positions[START];
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mv, "7g7f", "most played first");
        assert_eq!(moves[0].count, 9);
    }

    #[test]
    fn writing_sorts_positions_by_text_and_moves_by_count_then_value() {
        let mut book = Book::default();
        book.insert("b/9 w - 2", BookMove::counted("1a1b", 1));
        book.insert("a/9 b - 10", BookMove::counted("1a1b", 1));
        book.insert("a/9 b - 1", BookMove::counted("1a1b", 2));
        let mut low = BookMove::counted("2a2b", 2);
        low.value = -5;
        book.insert("a/9 b - 1", low);
        book.insert("a/9 b - 1", BookMove::counted("3a3b", 5));
        let text = book.to_text();
        assert_eq!(
            text,
            format!(
                "{HEADER}\nsfen a/9 b - 1\n3a3b none 0 0 5\n1a1b none 0 0 2\n\
                 2a2b none -5 0 2\nsfen a/9 b - 10\n1a1b none 0 0 1\nsfen b/9 w - 2\n\
                 1a1b none 0 0 1\n"
            )
        );
        let (again, problems) = Book::read(&text);
        assert!(problems.is_empty());
        assert_eq!(again.to_text(), text);
    }

    #[test]
    fn keys_drop_the_move_number_only_when_asked() {
        assert_eq!(book_key(" x b - 12\r", false), "x b - 12");
        assert_eq!(book_key("x b - 12", true), "x b -");
        let mut book = Book::default();
        book.insert("x b - 30", BookMove::counted("1a1b", 1));
        book.insert("x b - 12", BookMove::counted("2a2b", 1));
        let index = book.index(true);
        assert_eq!(index["x b -"][0].mv, "2a2b", "the lowest move number wins");
        assert_eq!(book.index(false).len(), 2);
    }
}
