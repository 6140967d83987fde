//! Move text in XBoard coordinates and its conversion to and from USI move text, for both
//! sides of CECP: the referee talking to CECP engines and Shishi's own CECP mode.
//!
//! XBoard coordinates: files a–i (a–l on 12×12) from sente's left, ranks 1–9 (1–12) from
//! sente's side, drops `P@e5`, promotion `+`. A Chu double move is two legs joined by a
//! comma (`g4h5,h5i6` = USI `6i5h4g`; igui `g4h5,h5g4` = `6i5h6i`), and jitto (a Lion's
//! pass) is XBoard's null move `@@@@`. Sente is XBoard's "white" and moves first.

/// XBoard's null move, which HaChu and XBoard send for jitto (a Lion's pass); any jitto of
/// the position gives the same board, so the first one generated stands for it.
pub const XBOARD_NULL_MOVE: &str = "@@@@";

/// The size of the board, for converting coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSize {
    pub files: u8,
    pub ranks: u8,
}

impl BoardSize {
    pub const SHOGI: BoardSize = BoardSize { files: 9, ranks: 9 };
    pub const CHU: BoardSize = BoardSize {
        files: 12,
        ranks: 12,
    };

    /// USI `7g` / `12a` → XBoard `c3` / `a12`.
    pub fn usi_to_xboard(self, sq: &str) -> Option<String> {
        let split = sq.find(|c: char| !c.is_ascii_digit())?;
        let file: u8 = sq[..split].parse().ok()?;
        let rank_letter = sq[split..]
            .chars()
            .next()
            .filter(char::is_ascii_lowercase)?;
        if sq.len() != split + 1 || file == 0 || file > self.files {
            return None;
        }
        let rank_from_top = rank_letter as u8 - b'a';
        if rank_from_top >= self.ranks {
            return None;
        }
        let letter = (b'a' + self.files - file) as char;
        Some(format!("{letter}{}", self.ranks - rank_from_top))
    }

    /// XBoard `c3` / `a12` → USI `7g` / `12a`.
    pub fn xboard_to_usi(self, sq: &str) -> Option<String> {
        let mut chars = sq.chars();
        let letter = chars.next().filter(char::is_ascii_lowercase)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        let column = letter as u8 - b'a';
        if column >= self.files || rank == 0 || rank > self.ranks {
            return None;
        }
        let file = self.files - column;
        let rank_letter = (b'a' + self.ranks - rank) as char;
        Some(format!("{file}{rank_letter}"))
    }
}

/// Splits USI squares (`6i5h4g` → `6i`, `5h`, `4g`): digits, then one letter.
fn usi_squares(body: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let letter = rest.find(|c: char| !c.is_ascii_digit())?;
        let end = letter + rest[letter..].chars().next()?.len_utf8();
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    Some(out)
}

/// Splits XBoard squares (`g4h5` → `g4`, `h5`): one letter, then digits.
fn xboard_squares(body: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        if !rest.starts_with(|c: char| c.is_ascii_lowercase()) {
            return None;
        }
        let digits_end = rest[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| i + 1);
        out.push(&rest[..digits_end]);
        rest = &rest[digits_end..];
    }
    Some(out)
}

/// Converts a USI move to XBoard coordinates. `pass` marks jitto (a two-step move back to
/// its square through an empty one), which XBoard writes as the null move. Text that does
/// not read as a move is returned unchanged.
pub fn usi_to_xboard(usi: &str, board: BoardSize, pass: bool) -> String {
    if pass {
        return XBOARD_NULL_MOVE.to_string();
    }
    if let Some((piece, to)) = usi.split_once('*') {
        return match board.usi_to_xboard(to) {
            Some(to) => format!("{piece}@{to}"),
            None => usi.to_string(),
        };
    }
    let (body, suffix) = match usi.strip_suffix('+') {
        Some(b) => (b, "+"),
        None => (usi.strip_suffix('=').unwrap_or(usi), ""),
    };
    let squares: Option<Vec<String>> =
        usi_squares(body).and_then(|sqs| sqs.iter().map(|sq| board.usi_to_xboard(sq)).collect());
    match squares.as_deref() {
        Some([from, to]) => format!("{from}{to}{suffix}"),
        Some([from, mid, to]) => format!("{from}{mid},{mid}{to}{suffix}"),
        _ => usi.to_string(),
    }
}

/// Converts a move in XBoard coordinates to USI text, passing USI text through (they cannot
/// be confused: shogi squares start with a digit, XBoard squares with a letter). XBoard legs
/// joined by commas become one USI move through the middle square; the null move `@@@@` is
/// kept for the game to read. Unreadable text is returned unchanged so that the caller
/// reports it as it was sent.
pub fn xboard_to_usi(text: &str, board: BoardSize) -> String {
    let text = text.trim();
    if text == XBOARD_NULL_MOVE {
        return text.to_string();
    }
    if let Some((piece, to)) = text.split_once('@') {
        return match board.xboard_to_usi(to) {
            Some(to) => format!("{}*{to}", piece.to_ascii_uppercase()),
            None => text.to_string(),
        };
    }
    if !text.starts_with(|c: char| c.is_ascii_lowercase()) {
        return text.to_string();
    }
    let (body, suffix) = match text.strip_suffix('+') {
        Some(b) => (b, "+"),
        None => (text.strip_suffix('=').unwrap_or(text), ""),
    };
    let mut squares: Vec<String> = Vec::new();
    for (i, leg) in body.split(',').enumerate() {
        let Some(pair) = xboard_squares(leg)
            .filter(|sqs| sqs.len() == 2)
            .and_then(|sqs| {
                sqs.iter()
                    .map(|sq| board.xboard_to_usi(sq))
                    .collect::<Option<Vec<String>>>()
            })
        else {
            return text.to_string();
        };
        // Each leg starts where the one before ended.
        if i > 0 && squares.last() != Some(&pair[0]) {
            return text.to_string();
        }
        if i == 0 {
            squares.push(pair[0].clone());
        }
        squares.push(pair[1].clone());
    }
    if !(2..=3).contains(&squares.len()) {
        return text.to_string();
    }
    format!("{}{suffix}", squares.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that each `(usi, xboard)` move is written as `xboard` on board `b` and read
    /// back as `usi`.
    fn assert_round_trips(b: BoardSize, moves: &[(&str, &str)]) {
        for &(usi, xboard) in moves {
            assert_eq!(usi_to_xboard(usi, b, false), xboard, "{usi}");
            assert_eq!(xboard_to_usi(xboard, b), usi, "{xboard}");
        }
    }

    #[test]
    fn xboard_coordinates_round_trip() {
        let b = BoardSize::SHOGI;
        let x = |usi: &str| usi_to_xboard(usi, b, false);
        assert_round_trips(
            b,
            &[
                ("7g7f", "c3c4"),
                ("8h2b+", "b2h8+"),
                ("P*5e", "P@e5"),
                ("1a1b", "i9i8"),
                ("9i9h", "a1a2"),
            ],
        );
        assert_eq!(xboard_to_usi("7g7f", b), "7g7f");
        assert_eq!(xboard_to_usi("garbage", b), "garbage");
        // Off-board text passes through unchanged rather than panicking.
        assert_eq!(x("7z7f"), "7z7f");
        assert_eq!(xboard_to_usi("z9a1", b), "z9a1");
        assert_eq!(xboard_to_usi("a0a1", b), "a0a1");
        assert_eq!(xboard_to_usi("a1a10", b), "a1a10");
        assert_eq!(xboard_to_usi("a1é2", b), "a1é2");
        assert_eq!(xboard_to_usi("a1b2,é", b), "a1b2,é");
    }

    #[test]
    fn chu_moves_in_xboard_coordinates() {
        let b = BoardSize::CHU;
        let x = |usi: &str| usi_to_xboard(usi, b, false);
        assert_round_trips(
            b,
            &[
                // Sente's left rook corner 12l is a1; gote's 1a is l12.
                ("12l11k", "a1b2"),
                ("1a1b", "l12l11"),
                ("5i5h", "h4h5"),
                ("10c10d+", "c10c9+"),
                ("3a12l", "j12a1"),
                // Double moves are two legs; igui comes back to its square.
                ("6i5h4g", "g4h5,h5i6"),
                ("6i5h6i", "g4h5,h5g4"),
            ],
        );
        // Jitto is the null move; lishogi's explicit non-promotion is left out.
        assert_eq!(usi_to_xboard("6f5e6f", b, true), "@@@@");
        assert_eq!(x("5i5h="), "h4h5");
        assert_eq!(xboard_to_usi("@@@@", b), "@@@@");
        // Legs that do not join, or too many of them, are left as sent.
        assert_eq!(xboard_to_usi("g4h5,i5i6", b), "g4h5,i5i6");
        assert_eq!(xboard_to_usi("a1a2,a2a3,a3a4", b), "a1a2,a2a3,a3a4");
        assert_eq!(xboard_to_usi("m1a1", b), "m1a1");
        assert_eq!(xboard_to_usi("a13a1", b), "a13a1");
        assert_eq!(x("1m1a"), "1m1a");
        assert_eq!(x("13a1a"), "13a1a");
        // Nothing an engine prints makes the converter panic.
        for junk in [
            "", ",", "a", "a1,", ",a1", "@", "P@", "ü1a2", "a1ü", "1", "+", "=", "a1b2,b2",
        ] {
            let _ = xboard_to_usi(junk, b);
            let _ = usi_to_xboard(junk, b, false);
        }
    }
}
