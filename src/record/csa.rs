//! CSA (the CSA standard file format V2.2, the subset game records use), read and written:
//! the piece codes, the reader and the writer ([`write`]). The reader takes `N+`/`N-`
//! names, the start position as `PI` or `P1`…`P9` rows with `P+`/`P-` hand lines and the
//! side to move, move lines `+7776FU` (`00` for a drop), several statements per line
//! separated by `,`, `T` times, `'` comments, `%` results. Promotion is read from the board:
//! a move whose piece code is the promoted form of the piece on its origin promotes.

use super::finished_game::{
    file_rank, format_time, moved_kind_and_origin, rank_from_file_9, Ending, FinishedGame,
    HAND_ORDER,
};
use super::{piece_row, sfen_letter, shogi_sfen, usi_square, RecordedGame};
use crate::rules::geometry::Color;
use crate::rules::variants::shogi::{Kind, Position};
use crate::rules::variants::Variant;
use std::fmt::Write as _;

/// The CSA piece codes, read and written.
const CODES: [(&str, Kind); 14] = [
    ("FU", Kind::Pawn),
    ("KY", Kind::Lance),
    ("KE", Kind::Knight),
    ("GI", Kind::Silver),
    ("KI", Kind::Gold),
    ("KA", Kind::Bishop),
    ("HI", Kind::Rook),
    ("OU", Kind::King),
    ("TO", Kind::ProPawn),
    ("NY", Kind::ProLance),
    ("NK", Kind::ProKnight),
    ("NG", Kind::ProSilver),
    ("UM", Kind::Horse),
    ("RY", Kind::Dragon),
];

/// The CSA code of `kind`.
pub fn code_of(kind: Kind) -> &'static str {
    piece_row(&CODES, |_, k| k == kind)
        .expect("every kind has a code")
        .0
}

/// The SFEN text (sente's letter, with `+`) of a CSA piece code.
fn sfen_piece(code: &str) -> Option<String> {
    piece_row(&CODES, |c, _| c == code).map(|(_, kind)| sfen_letter(kind))
}

fn error(line: usize, message: impl std::fmt::Display) -> String {
    format!("CSA line {line}: {message}")
}

/// `text` split into statements with their line numbers (`,` separates statements).
fn statements(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('\'') {
            continue;
        }
        for part in line.split(',') {
            // Board rows end in spaces (` * ` cells): keep them.
            let part = part.trim_start();
            let part = if part.starts_with('P') {
                part
            } else {
                part.trim_end()
            };
            if !part.is_empty() {
                out.push((index + 1, part));
            }
        }
    }
    out
}

/// Reads one CSA record of standard shogi.
pub fn read(text: &str) -> Result<RecordedGame, String> {
    if text.trim().is_empty() {
        return Err("CSA: the file is empty, not a game record".to_string());
    }
    let mut grid: [[Option<String>; 9]; 9] = Default::default();
    let mut hands = [String::new(), String::new()];
    let mut board_given = false;
    let mut sente_to_move: Option<bool> = None;
    let mut players: [Option<String>; 2] = [None, None];
    let mut moves_text: Vec<(usize, &str)> = Vec::new();
    for (line, statement) in statements(text) {
        let bytes: Vec<char> = statement.chars().collect();
        match bytes[0] {
            'V' | '$' | 'T' => {}
            'N' if statement.len() >= 2 => {
                let name = statement.get(2..).unwrap_or("").trim().to_string();
                match bytes.get(1) {
                    Some('+') => players[0] = Some(name),
                    Some('-') => players[1] = Some(name),
                    _ => return Err(error(line, format!("bad name line {statement:?}"))),
                }
            }
            '%' => break,
            'P' if statement == "PI" => {
                grid = initial_grid();
                board_given = true;
            }
            'P' if statement.starts_with("PI") => {
                return Err(error(line, "handicap PI lines are not supported"))
            }
            'P' if matches!(bytes.get(1), Some('1'..='9')) => {
                let rank = bytes[1].to_digit(10).unwrap_or(1) as usize - 1;
                let mut cells: Vec<char> = bytes[2..].to_vec();
                // Trailing spaces of the last cell may have been stripped by an editor.
                while cells.len() < 27 && cells.len() >= 25 {
                    cells.push(' ');
                }
                if cells.len() != 27 {
                    return Err(error(line, format!("row {statement:?} is not 9 cells")));
                }
                for column in 0..9 {
                    let cell: String = cells[3 * column..3 * column + 3].iter().collect();
                    let file = 8 - column;
                    grid[rank][file] = match cell.as_str() {
                        " * " => None,
                        _ => {
                            let sign: String = cell.chars().take(1).collect();
                            let code: String = cell.chars().skip(1).collect();
                            let (sign, code) = (sign.as_str(), code.as_str());
                            let piece = sfen_piece(code)
                                .ok_or_else(|| error(line, format!("unknown piece {cell:?}")))?;
                            Some(match sign {
                                "+" => piece,
                                "-" => piece.to_ascii_lowercase(),
                                _ => return Err(error(line, format!("bad cell {cell:?}"))),
                            })
                        }
                    };
                }
                board_given = true;
            }
            'P' if matches!(bytes.get(1), Some('+' | '-')) => {
                let side = usize::from(bytes[1] == '-');
                let rest: Vec<char> = bytes[2..].to_vec();
                if !rest.len().is_multiple_of(4) {
                    return Err(error(line, format!("bad piece list {statement:?}")));
                }
                for chunk in rest.chunks(4) {
                    let square: String = chunk[..2].iter().collect();
                    let code: String = chunk[2..].iter().collect();
                    if square != "00" || code == "AL" {
                        return Err(error(line, "only pieces in hand (00XX) are supported"));
                    }
                    let piece = sfen_piece(&code)
                        .filter(|p| !p.starts_with('+') && *p != "K")
                        .ok_or_else(|| error(line, format!("{code:?} cannot be in hand")))?;
                    hands[side].push_str(&if side == 0 {
                        piece.clone()
                    } else {
                        piece.to_ascii_lowercase()
                    });
                }
            }
            '+' | '-' if statement.len() == 1 => {
                if sente_to_move.is_none() && moves_text.is_empty() {
                    sente_to_move = Some(statement == "+");
                }
            }
            '+' | '-' => moves_text.push((line, statement)),
            _ => {
                return Err(error(
                    line,
                    format!(
                        "{statement:?} is not a CSA statement (N+name, PI, P1…P9, +7776FU, \
                         T1, %TORYO): not a game record"
                    ),
                ))
            }
        }
    }
    if !board_given {
        return Err("CSA: no start position (PI or P1…P9)".to_string());
    }
    let sfen = shogi_sfen(
        &grid,
        sente_to_move.unwrap_or(true),
        &counted_hand(&format!("{}{}", hands[0], hands[1])),
    );
    let mut pos = Position::from_sfen(&sfen).map_err(|e| format!("CSA start position: {e}"))?;
    let start_sfen = (sfen != Position::startpos().to_sfen()).then_some(sfen);
    let mut moves = Vec::new();
    for (line, statement) in moves_text {
        let usi = move_to_usi(&pos, statement).map_err(|e| error(line, e))?;
        let mv = pos
            .parse_usi_move(&usi)
            .map_err(|e| error(line, format!("{statement} ({usi}): {e}")))?;
        pos.play(mv);
        moves.push(usi);
    }
    Ok(RecordedGame {
        variant: Variant::Shogi,
        start_sfen,
        moves,
        players,
        chu_rules: None,
    })
}

/// SFEN hand text of a CSA hand listed piece by piece (`PPp`: `P+00FU00FU`, `P-00FU`),
/// each letter once with its count (`2Pp`), in the order the letters first appear.
fn counted_hand(letters: &str) -> String {
    let mut counts: Vec<(char, usize)> = Vec::new();
    for letter in letters.chars() {
        match counts.iter_mut().find(|(l, _)| *l == letter) {
            Some((_, n)) => *n += 1,
            None => counts.push((letter, 1)),
        }
    }
    counts
        .iter()
        .map(|&(letter, n)| match n {
            1 => letter.to_string(),
            n => format!("{n}{letter}"),
        })
        .collect()
}

/// The standard start position as a grid.
fn initial_grid() -> [[Option<String>; 9]; 9] {
    let mut grid: [[Option<String>; 9]; 9] = Default::default();
    let back = ["L", "N", "S", "G", "K", "G", "S", "N", "L"];
    for file in 0..9 {
        grid[0][file] = Some(back[file].to_ascii_lowercase());
        grid[2][file] = Some("p".to_string());
        grid[6][file] = Some("P".to_string());
        grid[8][file] = Some(back[file].to_string());
    }
    grid[1][7] = Some("r".to_string());
    grid[1][1] = Some("b".to_string());
    grid[7][7] = Some("B".to_string());
    grid[7][1] = Some("R".to_string());
    grid
}

/// `+7776FU` as USI text in `pos` (which must have the mover to move).
fn move_to_usi(pos: &Position, statement: &str) -> Result<String, String> {
    let chars: Vec<char> = statement.chars().collect();
    if chars.len() != 7 {
        return Err(format!("{statement:?} is not a move (+7776FU)"));
    }
    let sente = chars[0] == '+';
    if sente != (pos.side_to_move() == crate::rules::geometry::Color::Sente) {
        return Err(format!("{statement}: the other side is to move"));
    }
    let digit = |c: char| {
        c.to_digit(10)
            .ok_or_else(|| format!("{statement}: bad square"))
    };
    let (ff, fr, tf, tr) = (
        digit(chars[1])?,
        digit(chars[2])?,
        digit(chars[3])?,
        digit(chars[4])?,
    );
    let code: String = chars[5..].iter().collect();
    let piece = sfen_piece(&code).ok_or_else(|| format!("{statement}: unknown piece {code}"))?;
    let to = usi_square(tf, tr).ok_or_else(|| format!("{statement}: bad destination"))?;
    if ff == 0 && fr == 0 {
        if piece.starts_with('+') || piece == "K" {
            return Err(format!("{statement}: {code} cannot be dropped"));
        }
        return Ok(format!("{piece}*{to}"));
    }
    let from = usi_square(ff, fr).ok_or_else(|| format!("{statement}: bad origin"))?;
    let sq = crate::rules::geometry::Square::from_usi::<crate::rules::variants::shogi::Geo>(&from)
        .ok_or_else(|| format!("{statement}: bad origin"))?;
    let on_board = pos
        .piece_at(sq)
        .ok_or_else(|| format!("{statement}: no piece on {from}"))?;
    let promotes = piece.starts_with('+') && !is_promoted(on_board.kind());
    Ok(format!("{from}{to}{}", if promotes { "+" } else { "" }))
}

fn is_promoted(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::ProPawn
            | Kind::ProLance
            | Kind::ProKnight
            | Kind::ProSilver
            | Kind::Horse
            | Kind::Dragon
    )
}

/// A side's sign in CSA: `+` sente, `-` gote.
fn side_sign(color: Color) -> char {
    match color {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

/// The start position as `P1`…`P9` rows, `P+`/`P-` hand lines and the side to move.
fn board_rows(pos: &Position) -> String {
    let mut out = String::new();
    for rank in 0..9 {
        let _ = write!(out, "P{}", rank + 1);
        for piece in rank_from_file_9(pos, rank) {
            out.push_str(&match piece {
                None => " * ".to_string(),
                Some(p) => format!("{}{}", side_sign(p.color()), code_of(p.kind())),
            });
        }
        out.push('\n');
    }
    for color in [Color::Sente, Color::Gote] {
        let _ = write!(out, "P{}", side_sign(color));
        for &k in HAND_ORDER {
            for _ in 0..pos.hand(color).count(k) {
                let _ = write!(out, "00{}", code_of(k));
            }
        }
        out.push('\n');
    }
    out.push(side_sign(pos.side_to_move()));
    out.push('\n');
    out
}

/// The game in CSA format (V2.2, UTF-8).
pub fn write(game: &FinishedGame) -> String {
    let mut pos = game.start_position();
    let mut out = String::new();
    out.push_str("'CSA encoding=UTF-8\nV2.2\n");
    let _ = writeln!(out, "N+{}", game.players[0]);
    let _ = writeln!(out, "N-{}", game.players[1]);
    out.push_str("$EVENT:shishi match\n");
    let _ = writeln!(out, "$START_TIME:{}", format_time(game.started));
    let _ = writeln!(out, "'time control {}", game.time_control);
    if game.start.is_none() {
        out.push_str("PI\n+\n");
    } else {
        out.push_str(&board_rows(&pos));
    }
    for m in &game.moves {
        let mv = pos
            .parse_usi_move(&m.usi)
            .expect("records hold legal moves");
        let mover = pos.side_to_move();
        let sign = side_sign(mover);
        let (tf, tr) = file_rank(mv.to());
        let (kind, origin) = moved_kind_and_origin(&pos, mv);
        let (from, kind) = match origin {
            None => ("00".to_string(), kind),
            Some(from) => {
                let (ff, fr) = file_rank(from);
                let kind = if mv.is_promotion() {
                    kind.promoted()
                } else {
                    kind
                };
                (format!("{ff}{fr}"), kind)
            }
        };
        let _ = writeln!(out, "{sign}{from}{tf}{tr}{}", code_of(kind));
        let _ = writeln!(out, "T{}", m.millis.unwrap_or(0) / 1000);
        if let Some(score) = m.score {
            // Floodgate-style comment; CSA scores are from sente's point of view.
            let cp = score.as_cp();
            let cp = if mover == Color::Sente { cp } else { -cp };
            let _ = writeln!(out, "'** {cp}");
        }
        pos.play(mv);
    }
    let to_move = pos.side_to_move();
    let loser_sign = match game.winner.map(Color::flip) {
        Some(Color::Sente) => "+",
        _ => "-",
    };
    let terminal = match game.ending {
        // The mated side "resigns": readers (cshogi) then know the winner; %TSUMI they
        // do not. The reason is in the `'result` comment.
        Ending::Mate | Ending::Resign => "%TORYO".to_string(),
        Ending::Repetition => "%SENNICHITE".to_string(),
        Ending::IllegalMove => "%ILLEGAL_MOVE".to_string(),
        Ending::TimeUp => "%TIME_UP".to_string(),
        Ending::Declaration => "%KACHI".to_string(),
        Ending::PerpetualCheck | Ending::IllegalAction => format!("%{loser_sign}ILLEGAL_ACTION"),
        Ending::MoveLimit => "%MAX_MOVES".to_string(),
        Ending::AdjudicatedDraw => "%HIKIWAKE".to_string(),
        Ending::AdjudicatedWin if game.winner != Some(to_move) => "%TORYO".to_string(),
        Ending::AdjudicatedWin | Ending::Unnamed => "%CHUDAN".to_string(),
    };
    let _ = writeln!(out, "{terminal}");
    let _ = writeln!(out, "'result {}", game.result_line);
    out
}
