//! Game records: KIF and CSA (standard shogi, as `shishi match`, cshogi and the usual GUIs
//! write them) read and written, and the `.usi` records `shishi match` writes in every game
//! read back. Each reader turns a file into a [`RecordedGame`]: the game and the `position`
//! words (`startpos|sfen … moves …`) that replay it, which the USI layer's position reader
//! then checks move by move. Readers never panic: malformed input is an error naming the
//! line.
//!
//! Each format is one file (`kif`, `csa`) with its piece names or codes, its reader and its
//! writer; the writers take a [`FinishedGame`] (`finished_game`), which `shishi match`
//! fills from its own game record.

pub mod csa;
pub mod finished_game;
pub mod kif;
pub mod packed_sfen;
pub mod quiet;
pub mod usi;

use crate::rules::dropshogi::notation::piece_text;
use crate::rules::geometry::Color;
use crate::rules::variants::shogi::{Kind, Piece};
use crate::rules::variants::Variant;
pub use finished_game::FinishedGame;

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

/// Sente's SFEN text of a shogi kind (`P`, `+L`).
fn sfen_letter(kind: Kind) -> String {
    piece_text(Piece::new(Color::Sente, kind))
}

/// The first `(name, kind)` row of a format's piece table that `wanted` accepts.
fn piece_row(
    table: &'static [(&'static str, Kind)],
    wanted: impl Fn(&str, Kind) -> bool,
) -> Option<(&'static str, Kind)> {
    table
        .iter()
        .copied()
        .find(|&(name, kind)| wanted(name, kind))
}

/// The USI square text of a shogi square given as file and rank digits 1–9.
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

    /// One game (a promotion, a recapture, a drop, a resignation) as KIF writes it.
    const KIF_GAME: &str = "# KIF\n開始日時：2026/01/01\n手合割：平手\n先手：Shishi\n後手：Other\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n**評価値=30\n   3 ２二角成(88)   ( 0:01/00:00:02)\n   4 同　銀(31)   ( 0:01/00:00:02)\n   5 ４五角打   ( 0:01/00:00:03)\n   6 投了   ( 0:01/00:00:03)\nまで5手で先手の勝ち\n";
    /// The same game as CSA writes it.
    const CSA_GAME: &str = "V2.2\nN+Shishi\nN-Other\nPI\n+\n+7776FU\nT1\n-3334FU\n+8822UM,T0\n-3122GI\n+0045KA\n%TORYO\n";

    /// Each reader reads a start position with pieces in hand (KIF's with gote to move).
    #[test]
    fn every_format_reads_a_start_with_hands() {
        let kif_board = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金　歩二\n後手番\n手数----指手---------消費時間--\n   1 ４一玉(51)\n   2 ５二金打\n";
        let csa_board = "P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\n+\n+0042KI\n";
        let usi = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n";
        for (path, text, sfen, moves) in [
            (
                "a.kif",
                kif_board,
                "4k4/9/4P4/9/9/9/9/9/4K4 w G2P 1",
                &["5a4a", "G*5b"][..],
            ),
            (
                "a.csa",
                csa_board,
                "4k4/9/9/9/9/9/9/9/4K4 b G 1",
                &["G*4b"][..],
            ),
            ("a.usi", usi, "4k4/9/9/9/9/9/9/9/4K4 b G 1", &["G*5b"][..]),
        ] {
            let game = read_text(path, text).unwrap();
            assert_eq!(game.start_sfen.as_deref(), Some(sfen), "{path}");
            assert_eq!(game.moves, moves, "{path}");
        }
    }

    /// A move illegal where it stands is an error naming its line; moves that cannot be
    /// read, or do not fit the record, are errors.
    #[test]
    fn errors_name_the_line() {
        let bad_kif = KIF_GAME.replace("３四歩(33)", "３五歩(33)");
        let bad_csa = CSA_GAME.replace("-3334FU", "-3335FU");
        for (message, line) in [
            (kif::read(&bad_kif).unwrap_err(), "KIF line 8"),
            (csa::read(&bad_csa).unwrap_err(), "CSA line 8"),
        ] {
            assert!(message.starts_with(line), "{message}");
        }
        for bad in ["   1 同　歩(77)\n", "   2 ７六歩(77)\n", "   1 ７六歩\n"] {
            assert!(kif::read(bad).is_err(), "{bad}");
        }
        for bad in ["+7776FU\n", "PI\n+\n+77\n", "PI\n+\n-3334FU\n"] {
            assert!(csa::read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_game_reads_alike_from_kif_and_csa() {
        for game in [kif::read(KIF_GAME).unwrap(), csa::read(CSA_GAME).unwrap()] {
            assert_eq!(game.start_sfen, None);
            assert_eq!(game.moves, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
            assert_eq!(
                game.players,
                [Some("Shishi".to_string()), Some("Other".to_string())]
            );
        }
    }

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

    /// A game as the writers take it: from `start` (`None`: the standard start), two
    /// named players, a time and a score on every move.
    fn finished(start: Option<&str>, moves: &[&str]) -> FinishedGame {
        use crate::rules::variants::shogi::Position;
        use finished_game::{Ending, PlayedMove, Score};
        FinishedGame {
            start: start.map(|sfen| Position::from_sfen(sfen).unwrap()),
            moves: moves
                .iter()
                .map(|m| PlayedMove {
                    usi: m.to_string(),
                    millis: Some(2300),
                    score: Some(Score::Mate(-3)),
                })
                .collect(),
            players: ["Sente player".into(), "Gote player".into()],
            started: 1_795_000_000,
            time_control: "byoyomi 1000".into(),
            winner: Some(Color::Sente),
            ending: Ending::Resign,
            result_line: "1-0 resign".into(),
        }
    }

    /// What `kif::write` and `csa::write` write, `kif::read` and `csa::read` read back as the
    /// same game: start, moves (promotions, a recapture, drops) and players.
    #[test]
    fn written_records_read_back_as_the_same_game() {
        use crate::rules::variants::shogi::Position;
        let normal =
            |sfen: Option<String>| sfen.map(|s| Position::from_sfen(&s).unwrap().to_sfen());
        let games = [
            (None, vec!["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]),
            (
                Some("4k4/9/9/9/9/9/9/9/4K4 w 2Pp 1"),
                vec!["5a4a", "P*5c", "P*5g", "5i4h"],
            ),
        ];
        for (start, moves) in games {
            let game = finished(start, &moves);
            for (name, text) in [
                ("game.kif", kif::write(&game)),
                ("game.csa", csa::write(&game)),
            ] {
                let read = read_text(name, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(read.variant, Variant::Shogi, "{text}");
                assert_eq!(normal(read.start_sfen), start.map(str::to_string), "{text}");
                assert_eq!(read.moves, moves, "{text}");
                assert_eq!(
                    read.players,
                    [Some("Sente player".into()), Some("Gote player".into())],
                    "{text}"
                );
            }
        }
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
