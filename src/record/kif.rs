//! KIF (Kakinoki's format, UTF-8), read and written: the piece names, the reader and the
//! writer ([`write`]). The reader takes the header (`手合割：平手`, or a board diagram
//! with `後手の持駒：`/`先手の持駒：` and `後手番`), the players (`先手：`, `後手：`), and
//! the move lines `   1 ７六歩(77)   ( 0:01/00:00:01)`: destination (full-width file,
//! kanji rank, or `同` for the previous destination), piece, `成`/`不成`, `打`, origin.
//! Reading stops at the first terminal word (`投了`, `詰み`, …) or variation (`変化：`).

use super::finished_game::{
    file_rank, format_time, moved_kind_and_origin, rank_from_file_9, Ending, FinishedGame,
    HAND_ORDER,
};
use super::{piece_row, sfen_letter, shogi_sfen, usi_square, RecordedGame};
use crate::rules::geometry::{Color, Square};
use crate::rules::variants::shogi::{Kind, Position};
use crate::rules::variants::Variant;
use std::fmt::Write as _;

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Every piece name KIF uses, longest first (so that a prefix test finds the right one),
/// with its kind. A kind's first name is the one a record writes ([`kind_name`]); the
/// promoted lance, knight and silver also have one-character names for board diagrams
/// ([`diagram_name`]); `王` and `竜` are read only.
const PIECES: [(&str, Kind); 19] = [
    ("成香", Kind::ProLance),
    ("成桂", Kind::ProKnight),
    ("成銀", Kind::ProSilver),
    ("歩", Kind::Pawn),
    ("香", Kind::Lance),
    ("桂", Kind::Knight),
    ("銀", Kind::Silver),
    ("金", Kind::Gold),
    ("角", Kind::Bishop),
    ("飛", Kind::Rook),
    ("玉", Kind::King),
    ("王", Kind::King),
    ("と", Kind::ProPawn),
    ("杏", Kind::ProLance),
    ("圭", Kind::ProKnight),
    ("全", Kind::ProSilver),
    ("馬", Kind::Horse),
    ("龍", Kind::Dragon),
    ("竜", Kind::Dragon),
];

/// The name a KIF move writes for `kind`.
pub fn kind_name(kind: Kind) -> &'static str {
    piece_row(&PIECES, |_, k| k == kind)
        .expect("every kind has a name")
        .0
}

/// The one-character name a KIF board diagram writes for `kind`.
pub fn diagram_name(kind: Kind) -> &'static str {
    piece_row(&PIECES, |name, k| k == kind && name.chars().count() == 1)
        .expect("every kind has a one-character name")
        .0
}

/// A piece name at the start of `text`, with its SFEN text (`+L`, sente's letters).
fn piece_at_start(text: &str) -> Option<(&'static str, String)> {
    piece_row(&PIECES, |name, _| text.starts_with(name))
        .map(|(name, kind)| (name, sfen_letter(kind)))
}

/// Words that end the moves.
const TERMINALS: [&str; 11] = [
    "投了",
    "中断",
    "詰み",
    "千日手",
    "持将棋",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不詰",
    "封じ手",
];

fn error(line: usize, message: impl std::fmt::Display) -> String {
    format!("KIF line {line}: {message}")
}

/// A kanji count (`二`, `十八`) as a number.
fn kanji_count(text: &str) -> Option<u32> {
    if text.is_empty() {
        return Some(1);
    }
    let digit = |c: char| RANKS.iter().position(|k| *k == c).map(|i| i as u32 + 1);
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [d] => digit(*d),
        _ => None,
    }
}

/// `飛　角　金二　歩三` or `なし` as SFEN hand text for `sente`.
fn read_hand(text: &str, sente: bool, line: usize) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() || text == "なし" {
        return Ok(String::new());
    }
    let mut out = String::new();
    for item in text.split(['　', ' ']).filter(|s| !s.is_empty()) {
        let (name, letter) = piece_at_start(item)
            .filter(|(_, letter)| !letter.starts_with('+'))
            .ok_or_else(|| error(line, format!("unknown piece in hand {item:?}")))?;
        let count = kanji_count(&item[name.len()..])
            .ok_or_else(|| error(line, format!("bad count in {item:?}")))?;
        if count > 1 {
            out.push_str(&count.to_string());
        }
        out.push_str(&if sente {
            letter
        } else {
            letter.to_ascii_lowercase()
        });
    }
    Ok(out)
}

/// One board-diagram row `| ・v香 …|一` into the grid.
fn read_board_row(
    row: &str,
    grid: &mut [[Option<String>; 9]; 9],
    line: usize,
) -> Result<(), String> {
    let inner = row
        .trim()
        .strip_prefix('|')
        .and_then(|r| r.rsplit_once('|'))
        .ok_or_else(|| error(line, "a board row must be framed by |"))?;
    let rank = inner
        .1
        .chars()
        .next()
        .and_then(|c| RANKS.iter().position(|k| *k == c))
        .ok_or_else(|| error(line, "a board row must end with its rank"))?;
    let chars: Vec<char> = inner.0.chars().collect();
    if chars.len() != 18 {
        return Err(error(line, "a board row has 9 cells of 2 characters"));
    }
    for column in 0..9 {
        let (mark, name) = (chars[2 * column], chars[2 * column + 1].to_string());
        let file = 8 - column;
        grid[rank][file] = if name == "・" {
            None
        } else {
            let (_, letter) = piece_at_start(&name)
                .filter(|(n, _)| *n == name)
                .ok_or_else(|| error(line, format!("unknown piece {name:?}")))?;
            Some(match mark {
                'v' => letter.to_ascii_lowercase(),
                _ => letter,
            })
        };
    }
    Ok(())
}

/// Reads one KIF record of standard shogi.
pub fn read(text: &str) -> Result<RecordedGame, String> {
    let mut grid: Option<[[Option<String>; 9]; 9]> = None;
    let mut hands = [String::new(), String::new()];
    let mut sente_to_move = true;
    let mut players: [Option<String>; 2] = [None, None];
    let mut moves_text: Vec<(usize, String)> = Vec::new();
    // Whether any line was KIF: a `key：value` header, a board row, `後手番`, the move
    // table's heading or a numbered move. A file with none of them is not a record.
    let mut kif_seen = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let row = raw.trim_end_matches('\r');
        let trimmed = row.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('*') {
            continue;
        }
        if trimmed.starts_with("変化") {
            break;
        }
        if trimmed.starts_with("手数") {
            kif_seen = true;
            continue;
        }
        if let Some((key, value)) = trimmed.split_once('：') {
            kif_seen = true;
            match key {
                "先手" | "下手" => players[0] = Some(value.trim().to_string()),
                "後手" | "上手" => players[1] = Some(value.trim().to_string()),
                "先手の持駒" | "下手の持駒" => hands[0] = read_hand(value, true, line)?,
                "後手の持駒" | "上手の持駒" => hands[1] = read_hand(value, false, line)?,
                "手合割" if value.trim() != "平手" && grid.is_none() => {
                    return Err(error(line, format!("handicap {value:?} without a board")))
                }
                _ => {}
            }
            continue;
        }
        if trimmed.starts_with('|') {
            kif_seen = true;
            read_board_row(trimmed, grid.get_or_insert_with(Default::default), line)?;
            continue;
        }
        if trimmed.starts_with("後手番") || trimmed.starts_with("上手番") {
            kif_seen = true;
            sente_to_move = false;
            continue;
        }
        // `同　銀`: the ideographic space after 同 is whitespace to `split_whitespace`.
        let joined = trimmed.replace("同　", "同");
        let mut words = joined.split_whitespace();
        let Some(number) = words
            .next()
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        else {
            continue;
        };
        kif_seen = true;
        let Some(mv) = words.next() else {
            return Err(error(line, format!("move {number} has no move")));
        };
        if TERMINALS.iter().any(|t| mv.starts_with(t)) {
            break;
        }
        if number.parse::<usize>().ok() != Some(moves_text.len() + 1) {
            return Err(error(line, format!("move number {number} out of order")));
        }
        moves_text.push((line, mv.to_string()));
    }
    if !kif_seen {
        return Err(if text.trim().is_empty() {
            "KIF: the file is empty, not a game record".to_string()
        } else {
            "KIF: not a game record: no header line (手合割：平手, 先手：…), no board and no \
             numbered move (   1 ７六歩(77))"
                .to_string()
        });
    }
    let start_sfen =
        grid.map(|grid| shogi_sfen(&grid, sente_to_move, &format!("{}{}", hands[0], hands[1])));
    let mut pos = match &start_sfen {
        Some(sfen) => Position::from_sfen(sfen).map_err(|e| format!("KIF board: {e}"))?,
        None => Position::startpos(),
    };
    let mut previous: Option<String> = None;
    let mut moves = Vec::new();
    for (line, text) in moves_text {
        let (usi, to) = move_to_usi(&text, previous.as_deref()).map_err(|e| error(line, e))?;
        let mv = pos
            .parse_usi_move(&usi)
            .map_err(|e| error(line, format!("{text} ({usi}): {e}")))?;
        pos.play(mv);
        moves.push(usi);
        previous = Some(to);
    }
    Ok(RecordedGame {
        variant: Variant::Shogi,
        start_sfen: start_sfen.filter(|s| *s != Position::startpos().to_sfen()),
        moves,
        players,
        chu_rules: None,
    })
}

/// `７六歩(77)` as USI text and its destination, given the previous move's destination.
fn move_to_usi(text: &str, previous: Option<&str>) -> Result<(String, String), String> {
    let mut rest = text;
    let to = if let Some(after) = rest.strip_prefix('同') {
        rest = after.trim_start_matches(['　', ' ']);
        previous
            .ok_or_else(|| format!("{text}: 同 without a previous move"))?
            .to_string()
    } else {
        let mut chars = rest.chars();
        let file = chars
            .next()
            .and_then(|c| FILES.iter().position(|f| *f == c))
            .ok_or_else(|| format!("{text}: no destination file"))?;
        let rank = chars
            .next()
            .and_then(|c| RANKS.iter().position(|r| *r == c))
            .ok_or_else(|| format!("{text}: no destination rank"))?;
        rest = chars.as_str();
        usi_square(file as u32 + 1, rank as u32 + 1).unwrap_or_default()
    };
    let (name, letter) = piece_at_start(rest).ok_or_else(|| format!("{text}: no piece name"))?;
    rest = &rest[name.len()..];
    let mut promotes = false;
    if let Some(after) = rest.strip_prefix("不成") {
        rest = after;
    } else if let Some(after) = rest.strip_prefix('成') {
        promotes = true;
        rest = after;
    }
    if let Some(after) = rest.strip_prefix('打') {
        if letter.starts_with('+') || letter == "K" || promotes || !after.is_empty() {
            return Err(format!("{text}: not a drop"));
        }
        return Ok((format!("{letter}*{to}"), to));
    }
    let origin = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| format!("{text}: no origin (xy)"))?;
    let digits: Vec<u32> = origin.chars().filter_map(|c| c.to_digit(10)).collect();
    let from = match digits.as_slice() {
        [f, r] if origin.len() == 2 => usi_square(*f, *r),
        _ => None,
    }
    .ok_or_else(|| format!("{text}: bad origin {origin:?}"))?;
    Ok((format!("{from}{to}{}", if promotes { "+" } else { "" }), to))
}

/// KIF's kanji numbers up to 18 (`二`, `十`, `十八`), as hands count pieces.
fn kanji_number(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => DIGITS[n as usize].to_string(),
        10 => "十".into(),
        _ => format!("十{}", DIGITS[(n % 10) as usize]),
    }
}

/// A side's hand as a KIF header writes it (`飛　金二　歩三`, or `なし`).
fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = HAND_ORDER
        .iter()
        .filter(|k| hand.count(**k) > 0)
        .map(|&k| {
            let n = hand.count(k);
            let count = if n > 1 {
                kanji_number(n)
            } else {
                String::new()
            };
            format!("{}{count}", kind_name(k))
        })
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// A KIF board diagram (BOD) for a start position other than the standard one.
fn board_diagram(pos: &Position) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "後手の持駒：{}", hand_text(pos, Color::Gote));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9 {
        out.push('|');
        for piece in rank_from_file_9(pos, rank) {
            out.push_str(&match piece {
                None => " ・".to_string(),
                Some(p) if p.color() == Color::Gote => format!("v{}", diagram_name(p.kind())),
                Some(p) => format!(" {}", diagram_name(p.kind())),
            });
        }
        let _ = writeln!(out, "|{}", RANKS[rank as usize]);
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand_text(pos, Color::Sente));
    if pos.side_to_move() == Color::Gote {
        out.push_str("後手番\n");
    }
    out
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Sente => "先手",
        Color::Gote => "後手",
    }
}

/// A move's time as KIF writes it: this move's minutes and seconds, then the mover's total.
fn time_text(secs: u64, total: u64) -> String {
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        secs / 60,
        secs % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// The game in KIF (UTF-8).
pub fn write(game: &FinishedGame) -> String {
    let mut pos = game.start_position();
    let mut out = String::new();
    let _ = writeln!(out, "# KIF written by shishi match");
    let _ = writeln!(out, "開始日時：{}", format_time(game.started));
    let _ = writeln!(out, "持ち時間：{}", game.time_control);
    if game.start.is_none() {
        out.push_str("手合割：平手\n");
    } else {
        out.push_str(&board_diagram(&pos));
    }
    let _ = writeln!(out, "先手：{}", game.players[0]);
    let _ = writeln!(out, "後手：{}", game.players[1]);
    let _ = writeln!(out, "*結果 {}", game.result_line);
    out.push_str("手数----指手---------消費時間--\n");
    let mut total_secs = 0u64;
    let mut previous_to: Option<Square> = None;
    for (i, m) in game.moves.iter().enumerate() {
        let mv = pos
            .parse_usi_move(&m.usi)
            .expect("records hold legal moves");
        let to = mv.to();
        let (tf, tr) = file_rank(to);
        let mut text = if previous_to == Some(to) {
            "同　".to_string()
        } else {
            format!("{}{}", FILES[tf as usize - 1], RANKS[tr as usize - 1])
        };
        let (kind, origin) = moved_kind_and_origin(&pos, mv);
        text.push_str(kind_name(kind));
        match origin {
            None => text.push('打'),
            Some(from) => {
                if mv.is_promotion() {
                    text.push('成');
                }
                let (ff, fr) = file_rank(from);
                let _ = write!(text, "({ff}{fr})");
            }
        }
        let secs = m.millis.unwrap_or(0) / 1000;
        total_secs += secs;
        let _ = writeln!(
            out,
            "{:>4} {text:<12} {}",
            i + 1,
            time_text(secs, total_secs)
        );
        if let Some(score) = m.score {
            let _ = writeln!(out, "**評価値={}", score.record_text());
        }
        pos.play(mv);
        previous_to = Some(to);
    }
    let n = game.moves.len();
    let to_move = pos.side_to_move();
    let terminal = match game.ending {
        Ending::Mate => "詰み",
        Ending::Repetition => "千日手",
        Ending::PerpetualCheck => "反則勝ち",
        Ending::Resign => "投了",
        Ending::IllegalMove | Ending::IllegalAction => "反則負け",
        Ending::TimeUp => "切れ負け",
        Ending::Declaration => "入玉勝ち",
        Ending::MoveLimit | Ending::AdjudicatedDraw => "持将棋",
        Ending::AdjudicatedWin if game.winner != Some(to_move) => "投了",
        Ending::AdjudicatedWin | Ending::Unnamed => "中断",
    };
    let _ = writeln!(
        out,
        "{:>4} {terminal:<12} {}",
        n + 1,
        time_text(0, total_secs)
    );
    let summary = match (game.winner, game.ending) {
        (None, Ending::Repetition) => "千日手".to_string(),
        (None, _) => "持将棋".to_string(),
        (Some(w), Ending::Declaration) => format!("{}の入玉勝ち", side_name(w)),
        (Some(w), Ending::IllegalMove | Ending::IllegalAction | Ending::PerpetualCheck) => {
            format!("{}の反則負け", side_name(w.flip()))
        }
        (Some(w), _) => format!("{}の勝ち", side_name(w)),
    };
    let _ = writeln!(out, "まで{n}手で{summary}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34: a file with no KIF in it was read as a game of no moves.
    #[test]
    fn text_that_is_not_kif_is_an_error() {
        for text in [
            "",
            "\n  \n",
            "hello world\n",
            "hello: world\n",
            "# only a comment\n",
        ] {
            let message = read(text).unwrap_err();
            assert!(message.contains("not a game record"), "{text:?}: {message}");
        }
        // A record of no moves is still a record.
        assert!(read("手合割：平手\n").unwrap().moves.is_empty());
        assert!(read("手数----指手---------消費時間--\n")
            .unwrap()
            .moves
            .is_empty());
    }
}
