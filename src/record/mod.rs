//! Reading game records back: KIF and CSA (standard shogi, as `shishi match`, cshogi and
//! the usual GUIs write them) and the `.usi` records `shishi match` writes in every game.
//! Each reader turns a file into a [`RecordedGame`]: the game and the `position` words
//! (`startpos|sfen … moves …`) that replay it, which the USI layer's position reader then
//! checks move by move. Readers never panic: malformed input is an error naming the line.
//!
//! The KIF piece names and CSA piece codes are here once (`kif`, `csa`), for reading and
//! for the writer, `referee/game_files.rs`, which writes a match's games in these formats.

pub mod csa;
pub mod kif;
pub mod packed_sfen;
pub mod usi;

use crate::rules::dropshogi::notation::piece_text;
use crate::rules::geometry::Color;
use crate::rules::variants::shogi::{Kind, Piece};
use crate::rules::variants::Variant;

/// A game read from a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    pub variant: Variant,
    /// The SFEN the game starts from (`None`: the game's start position).
    pub start_sfen: Option<String>,
    /// The moves (tokens in the chance games) in USI notation.
    pub moves: Vec<String>,
    /// The players' names when the record gives them (sente, gote).
    pub players: [Option<String>; 2],
    /// The Chu Shogi rule set the record names (`.usi` records of Chu games).
    pub chu_rules: Option<crate::rules::variants::chu::ChuRules>,
}

impl RecordedGame {
    /// The `position` words that set up the start (`startpos` or `sfen …`), without moves.
    pub fn setup_words(&self) -> Vec<String> {
        position_setup_words(self.start_sfen.as_deref())
    }
}

/// The words of a USI `position` command that set up a start, without moves: `startpos`
/// (`None`) or `sfen` and the SFEN's fields.
pub fn position_setup_words(start_sfen: Option<&str>) -> Vec<String> {
    match start_sfen {
        None => vec!["startpos".to_string()],
        Some(sfen) => std::iter::once("sfen".to_string())
            .chain(sfen.split_whitespace().map(str::to_string))
            .collect(),
    }
}

/// Which reader a file needs, by its extension and else by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    Kif,
    Csa,
    Usi,
}

impl RecordFormat {
    /// Guesses the format from the file name and the text.
    pub fn detect(path: &str, text: &str) -> RecordFormat {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".kif") || lower.ends_with(".kifu") {
            RecordFormat::Kif
        } else if lower.ends_with(".csa") {
            RecordFormat::Csa
        } else if lower.ends_with(".usi")
            || text
                .lines()
                .any(|l| l.trim_start().starts_with("position "))
        {
            RecordFormat::Usi
        } else if text.contains("手数") || text.contains("手合割") {
            RecordFormat::Kif
        } else {
            RecordFormat::Csa
        }
    }
}

/// Reads a record file of any supported format. Shift_JIS KIF files are not decoded: save
/// them as UTF-8 (`.kifu`) first.
pub fn read_file(path: &str) -> Result<RecordedGame, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{path} is not UTF-8 (a Shift_JIS .kif must be converted first)"))?;
    read_text(path, &text)
}

/// Reads a record from its text; `path` only picks the format.
pub fn read_text(path: &str, text: &str) -> Result<RecordedGame, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match RecordFormat::detect(path, text) {
        RecordFormat::Kif => kif::read(text),
        RecordFormat::Csa => csa::read(text),
        RecordFormat::Usi => usi::read(text),
    }
}

/// The USI square text of a shogi square given as file and rank digits 1–9.
/// Sente's SFEN text of a shogi kind (`P`, `+L`).
fn sfen_letter(kind: Kind) -> String {
    piece_text(Piece::new(Color::Sente, kind))
}

fn usi_square(file: u32, rank: u32) -> Option<String> {
    ((1..=9).contains(&file) && (1..=9).contains(&rank))
        .then(|| format!("{file}{}", (b'a' + rank as u8 - 1) as char))
}

/// An SFEN from a 9×9 grid (`grid[rank][file-1]`, rank 0 = rank 1 = `a`) of SFEN piece
/// texts, the side to move and the hand field.
fn shogi_sfen(grid: &[[Option<String>; 9]; 9], sente_to_move: bool, hands: &str) -> String {
    let mut rows = Vec::new();
    for row in grid {
        let mut text = String::new();
        let mut empty = 0;
        for file in (0..9).rev() {
            match &row[file] {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(piece);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rows.push(text);
    }
    let hands = if hands.is_empty() { "-" } else { hands };
    format!(
        "{} {} {hands} 1",
        rows.join("/"),
        if sente_to_move { "b" } else { "w" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(RecordFormat::detect("a.kifu", ""), RecordFormat::Kif);
        assert_eq!(RecordFormat::detect("a.CSA", ""), RecordFormat::Csa);
        assert_eq!(
            RecordFormat::detect("x", "# c\nposition startpos moves 7g7f\n"),
            RecordFormat::Usi
        );
        assert_eq!(
            RecordFormat::detect("x", "手合割：平手\n"),
            RecordFormat::Kif
        );
        assert_eq!(RecordFormat::detect("x", "PI\n+\n"), RecordFormat::Csa);
    }

    #[test]
    fn a_grid_becomes_an_sfen() {
        let mut grid: [[Option<String>; 9]; 9] = Default::default();
        grid[0][4] = Some("k".to_string());
        grid[8][4] = Some("K".to_string());
        grid[8][1] = Some("+R".to_string());
        assert_eq!(
            shogi_sfen(&grid, false, "2Pb"),
            "4k4/9/9/9/9/9/9/9/4K2+R1 w 2Pb 1"
        );
    }
}
