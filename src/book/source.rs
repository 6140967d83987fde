//! Where book moves are looked up: a book read whole into memory, or (`BookOnTheFly`) the
//! file itself, searched by bisection on each lookup without loading it. The file must then
//! be sorted by SFEN text, as YaneuraOu and `shishi book` write books.

use super::format::{book_key, classify, insert_move, sort_moves, Book, BookLine, BookMove};
use super::format::{LineProblem, HEADER};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A loaded book.
pub enum BookSource {
    /// Positions by [`book_key`].
    Memory {
        index: HashMap<String, Vec<BookMove>>,
        ignore_ply: bool,
    },
    /// The open file, searched on each lookup.
    OnTheFly {
        path: PathBuf,
        reader: BufReader<File>,
        size: u64,
        ignore_ply: bool,
    },
}

/// A book opened, with what was wrong in it.
pub struct Loaded {
    pub source: BookSource,
    /// Malformed lines, skipped (reading into memory checks every line; reading on the fly
    /// checks only the header here and each position's lines when it is looked up).
    pub problems: Vec<LineProblem>,
    /// How many positions the book has (`None` on the fly: not counted).
    pub positions: Option<usize>,
}

impl BookSource {
    /// Opens `path`, into memory or (`on_the_fly`) for lookups in the file.
    pub fn open(path: &Path, on_the_fly: bool, ignore_ply: bool) -> Result<Loaded, String> {
        let name = path.display();
        if on_the_fly {
            let file = File::open(path).map_err(|e| format!("cannot open book {name}: {e}"))?;
            let size = file
                .metadata()
                .map_err(|e| format!("cannot read book {name}: {e}"))?
                .len();
            let mut reader = BufReader::new(file);
            let mut first = String::new();
            reader
                .read_line(&mut first)
                .map_err(|e| format!("cannot read book {name}: {e}"))?;
            let mut problems = Vec::new();
            if !first.trim_end().starts_with('#') {
                problems.push(LineProblem {
                    line: 1,
                    message: format!("expected the header {HEADER:?}"),
                });
            }
            return Ok(Loaded {
                source: BookSource::OnTheFly {
                    path: path.to_path_buf(),
                    reader,
                    size,
                    ignore_ply,
                },
                problems,
                positions: None,
            });
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read book {name}: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let (book, problems) = Book::read(&text);
        let index = book.index(ignore_ply);
        Ok(Loaded {
            positions: Some(index.len()),
            source: BookSource::Memory { index, ignore_ply },
            problems,
        })
    }

    /// A book already in memory.
    pub fn from_book(book: &Book, ignore_ply: bool) -> BookSource {
        BookSource::Memory {
            index: book.index(ignore_ply),
            ignore_ply,
        }
    }

    /// The moves of the position with this SFEN (move number included), most played first,
    /// and the malformed lines met on the way (on the fly only). Empty when not in the book.
    pub fn lookup(&mut self, sfen: &str) -> (Vec<BookMove>, Vec<LineProblem>) {
        match self {
            BookSource::Memory { index, ignore_ply } => (
                index
                    .get(book_key(sfen, *ignore_ply))
                    .cloned()
                    .unwrap_or_default(),
                Vec::new(),
            ),
            BookSource::OnTheFly {
                path,
                reader,
                size,
                ignore_ply,
            } => match bisect(reader, *size, book_key(sfen, *ignore_ply), *ignore_ply) {
                Ok(found) => found,
                Err(e) => {
                    log::error!("reading book {}: {e}", path.display());
                    (Vec::new(), Vec::new())
                }
            },
        }
    }
}

/// The first `sfen` line starting at or after byte `from`: its key, and the offset just
/// after it. `None` at the end of the file.
fn next_sfen_line(
    reader: &mut BufReader<File>,
    from: u64,
    ignore_ply: bool,
) -> std::io::Result<Option<(String, u64)>> {
    // Start one byte early and drop what precedes the next line break, so that a line
    // starting exactly at `from` is seen.
    let start = from.saturating_sub(1);
    reader.seek(SeekFrom::Start(start))?;
    let mut at = start;
    let mut line = Vec::new();
    if from > 0 {
        at += reader.read_until(b'\n', &mut line)? as u64;
    }
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)? as u64;
        if read == 0 {
            return Ok(None);
        }
        at += read;
        let text = String::from_utf8_lossy(&line);
        if let BookLine::Position(sfen) = classify(&text) {
            return Ok(Some((book_key(sfen, ignore_ply).to_string(), at)));
        }
    }
}

type Found = (Vec<BookMove>, Vec<LineProblem>);

/// Bisection over byte offsets: the `sfen` line sought, if any, starts in `[low, high)`.
fn bisect(
    reader: &mut BufReader<File>,
    size: u64,
    key: &str,
    ignore_ply: bool,
) -> std::io::Result<Found> {
    let (mut low, mut high) = (0u64, size);
    while low < high {
        let middle = low + (high - low) / 2;
        match next_sfen_line(reader, middle, ignore_ply)? {
            Some((found, after)) if found.as_str() == key => {
                return read_moves_here(reader, after);
            }
            Some((found, after)) if found.as_str() < key => low = after,
            _ => high = middle,
        }
    }
    Ok((Vec::new(), Vec::new()))
}

/// Reads the move lines that follow the `sfen` line ending at `after`.
fn read_moves_here(reader: &mut BufReader<File>, after: u64) -> std::io::Result<Found> {
    reader.seek(SeekFrom::Start(after))?;
    let (mut moves, mut problems) = (Vec::new(), Vec::new());
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        match classify(&String::from_utf8_lossy(&line)) {
            BookLine::Skip => {}
            BookLine::Position(_) => break,
            BookLine::Move(Ok(mv)) => insert_move(&mut moves, mv),
            BookLine::Move(Err(message)) => problems.push(LineProblem {
                // The file is not read from its start: the line's number is unknown.
                line: 0,
                message,
            }),
        }
    }
    sort_moves(&mut moves);
    Ok((moves, problems))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_book(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shishi-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Every position of a sorted book is found on the fly, with the same moves as in
    /// memory, and positions not in it (before, between and after) are not.
    #[test]
    fn on_the_fly_finds_what_memory_finds() {
        let mut book = Book::default();
        for i in 0..300u32 {
            let sfen = format!("k{:03}/9 b - {}", i * 7 % 1000, 1 + i % 13);
            book.insert(&sfen, BookMove::counted("1a1b", u64::from(i) + 1));
            book.insert(&sfen, BookMove::counted("2a2b", 5));
        }
        let path = temp_book("fly.db", &book.to_text().replace('\n', "\r\n"));
        let mut fly = BookSource::open(&path, true, false).unwrap();
        assert!(fly.problems.is_empty());
        let mut memory = BookSource::open(&path, false, false).unwrap();
        assert_eq!(memory.positions, Some(300));
        for sfen in book.positions.keys() {
            let (on_the_fly, _) = fly.source.lookup(sfen);
            assert_eq!(on_the_fly.len(), 2, "{sfen}");
            assert_eq!(on_the_fly, memory.source.lookup(sfen).0, "{sfen}");
        }
        for missing in ["a/9 b - 1", "k0005/9 b - 1", "k999/9 b - 99", "z/9 b - 1"] {
            assert!(fly.source.lookup(missing).0.is_empty(), "{missing}");
        }
    }

    #[test]
    fn ignoring_the_move_number_finds_the_position_at_another_ply() {
        let path = temp_book(
            "ply.db",
            &format!("{HEADER}\nsfen x/9 b - 5\n1a1b none 0 0 1\nsfen y/9 b - 7\n2a2b none\n"),
        );
        for on_the_fly in [false, true] {
            let mut exact = BookSource::open(&path, on_the_fly, false).unwrap().source;
            assert!(exact.lookup("y/9 b - 9").0.is_empty());
            let mut loose = BookSource::open(&path, on_the_fly, true).unwrap().source;
            assert_eq!(loose.lookup("y/9 b - 9").0[0].mv, "2a2b", "{on_the_fly}");
        }
    }
}
