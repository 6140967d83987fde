//! Game records: KIF and CSA files for standard shogi, the USI `position` line that
//! replays the game (every variant), the `.usi` record (that line with the players, result,
//! times and scores as `#` comments, so that it loads back as an opening file), and one
//! JSON line per game in `games.jsonl` ([`GameLine`]: written as each game ends, read back by
//! `--resume`).

use super::arbiter::GameRecord;
use super::player::Score;
use super::result::Reason;
use crate::record::csa::code_of as csa_code;
use crate::record::kif::{diagram_name as kif_diagram_name, kind_name as kif_name};
use crate::rules::dropshogi::DropKind;
use crate::rules::geometry::{Color, File, Rank, Square};
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};
use crate::rules::variants::{GameChoice, Variant};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The USI line that sets up the final position: `position startpos moves …`.
pub fn usi_line(game: &GameRecord) -> String {
    let mut line = format!("position {}", game.opening.usi_base());
    if !game.moves.is_empty() {
        line.push_str(" moves");
        for m in &game.moves {
            line.push(' ');
            line.push_str(&m.usi);
        }
    }
    line
}

/// The `.usi` record of any variant: `#` comment lines (variant, players, time control,
/// result, then one line per move with its time and score) and the `position` line, which
/// `position`, `shishi match --openings` and the opening parser read back.
pub fn usi_record(game: &GameRecord) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# written by shishi match");
    let _ = writeln!(out, "# variant: {}", game.variant);
    let _ = writeln!(out, "# started: {} UTC", format_time(game.started));
    let _ = writeln!(out, "# sente: {}", game.names[0]);
    let _ = writeln!(out, "# gote: {}", game.names[1]);
    let _ = writeln!(out, "# time control: {}", game.tc);
    let _ = writeln!(out, "# result: {}", game.result.one_line());
    for (i, m) in game.moves.iter().enumerate() {
        let time = m
            .millis
            .map_or_else(|| "no clock".to_string(), |ms| format!("{ms} ms"));
        let score = m
            .score
            .map_or_else(String::new, |s| format!(" score {}", score_text(s)));
        let _ = writeln!(out, "# {:>4}. {} {time}{score}", i + 1, m.usi);
    }
    let _ = writeln!(out, "{}", usi_line(game));
    out
}

/// Civil date and time (UTC) of a Unix time, as `YYYY/MM/DD HH:MM:SS`.
pub fn format_time(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}/{month:02}/{day:02} {:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

const FILE_DIGITS: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANK_KANJI: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// A side's sign in CSA: `+` sente, `-` gote.
fn csa_side(color: Color) -> char {
    match color {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

fn kanji_number(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => DIGITS[n as usize].to_string(),
        10 => "十".into(),
        _ => format!("十{}", DIGITS[(n % 10) as usize]),
    }
}

fn file_rank(sq: Square) -> (u8, u8) {
    (sq.file::<Geo>().0 + 1, sq.rank::<Geo>().0 + 1)
}

/// Kinds in the order records list hands (R B G S N L P): the order SFEN prints them.
const HAND_ORDER: &[Kind] = <Kind as DropKind>::HAND_PRINT_ORDER;

fn kif_hand(pos: &Position, color: Color) -> String {
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
            format!("{}{count}", kif_name(k))
        })
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// The pieces of `rank` (0: the top rank) as diagrams list them, file 9 first.
fn rank_from_file_9(pos: &Position, rank: u8) -> impl Iterator<Item = Option<Piece>> + '_ {
    (0..9)
        .rev()
        .map(move |file| pos.piece_at(Square::new::<Geo>(File(file), Rank(rank))))
}

/// A KIF board diagram (BOD) for a start position other than the standard one.
fn kif_board(pos: &Position) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "後手の持駒：{}", kif_hand(pos, Color::Gote));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9 {
        out.push('|');
        for piece in rank_from_file_9(pos, rank) {
            out.push_str(&match piece {
                None => " ・".to_string(),
                Some(p) if p.color() == Color::Gote => format!("v{}", kif_diagram_name(p.kind())),
                Some(p) => format!(" {}", kif_diagram_name(p.kind())),
            });
        }
        let _ = writeln!(out, "|{}", RANK_KANJI[rank as usize]);
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", kif_hand(pos, Color::Sente));
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

/// The base position of a standard-shogi record.
fn shogi_base(game: &GameRecord) -> Position {
    game.opening
        .base_position(GameChoice::from(Variant::Shogi))
        .expect("openings are validated when loaded")
}

/// The game in KIF (UTF-8); standard shogi only.
pub fn kif(game: &GameRecord) -> String {
    let mut pos = shogi_base(game);
    let mut out = String::new();
    let _ = writeln!(out, "# KIF written by shishi match");
    let _ = writeln!(out, "開始日時：{}", format_time(game.started));
    let _ = writeln!(out, "持ち時間：{}", game.tc);
    if game
        .opening
        .starts_from_startpos(GameChoice::from(Variant::Shogi))
    {
        out.push_str("手合割：平手\n");
    } else {
        out.push_str(&kif_board(&pos));
    }
    let _ = writeln!(out, "先手：{}", game.names[0]);
    let _ = writeln!(out, "後手：{}", game.names[1]);
    let _ = writeln!(out, "*結果 {}", game.result.one_line());
    out.push_str("手数----指手---------消費時間--\n");
    let mut total_secs = 0u64;
    let mut previous_to: Option<Square> = None;
    let time_text = |secs: u64, total: u64| {
        format!(
            "({:>2}:{:02}/{:02}:{:02}:{:02})",
            secs / 60,
            secs % 60,
            total / 3600,
            total / 60 % 60,
            total % 60
        )
    };
    for (i, m) in game.moves.iter().enumerate() {
        let mv = pos
            .parse_usi_move(&m.usi)
            .expect("records hold legal moves");
        let to = mv.to();
        let (tf, tr) = file_rank(to);
        let mut text = if previous_to == Some(to) {
            "同　".to_string()
        } else {
            format!(
                "{}{}",
                FILE_DIGITS[tf as usize - 1],
                RANK_KANJI[tr as usize - 1]
            )
        };
        match mv.from() {
            None => {
                let kind = Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind");
                text.push_str(kif_name(kind));
                text.push('打');
            }
            Some(from) => {
                let piece = pos.piece_at(from).expect("a piece moves");
                text.push_str(kif_name(piece.kind()));
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
            let _ = writeln!(out, "**評価値={}", score_text(score));
        }
        pos.play(mv);
        previous_to = Some(to);
    }
    let n = game.moves.len();
    let result = &game.result;
    let to_move = pos.side_to_move();
    let terminal = match result.reason {
        Reason::Checkmate | Reason::NoLegalMove => "詰み",
        Reason::Repetition => "千日手",
        Reason::PerpetualCheck => "反則勝ち",
        Reason::Resign => "投了",
        Reason::IllegalMove
        | Reason::FalseDeclaration
        | Reason::FalseClaim
        | Reason::EngineFailure => "反則負け",
        Reason::TimeForfeit => "切れ負け",
        Reason::Declaration => "入玉勝ち",
        Reason::MoveLimit | Reason::AdjudicatedDraw => "持将棋",
        Reason::AdjudicatedWin if result.winner != Some(to_move) => "投了",
        Reason::AdjudicatedWin => "中断",
        // Chu Shogi's ends; KIF is written for standard shogi only.
        Reason::RoyalCapture | Reason::BareKing | Reason::RepetitionLoss => "中断",
    };
    let _ = writeln!(
        out,
        "{:>4} {terminal:<12} {}",
        n + 1,
        time_text(0, total_secs)
    );
    let summary = match (result.winner, result.reason) {
        (None, Reason::Repetition) => "千日手".to_string(),
        (None, _) => "持将棋".to_string(),
        (Some(w), Reason::Declaration) => format!("{}の入玉勝ち", side_name(w)),
        (
            Some(w),
            Reason::IllegalMove
            | Reason::FalseDeclaration
            | Reason::FalseClaim
            | Reason::EngineFailure
            | Reason::PerpetualCheck,
        ) => format!("{}の反則負け", side_name(w.flip())),
        (Some(w), _) => format!("{}の勝ち", side_name(w)),
    };
    let _ = writeln!(out, "まで{n}手で{summary}");
    out
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => cp.to_string(),
        Score::Mate(n) => format!("mate{n}"),
    }
}

/// The game in CSA format (V2.2, UTF-8); standard shogi only.
pub fn csa(game: &GameRecord) -> String {
    let mut pos = shogi_base(game);
    let mut out = String::new();
    out.push_str("'CSA encoding=UTF-8\nV2.2\n");
    let _ = writeln!(out, "N+{}", game.names[0]);
    let _ = writeln!(out, "N-{}", game.names[1]);
    out.push_str("$EVENT:shishi match\n");
    let _ = writeln!(out, "$START_TIME:{}", format_time(game.started));
    let _ = writeln!(out, "'time control {}", game.tc);
    if game
        .opening
        .starts_from_startpos(GameChoice::from(Variant::Shogi))
    {
        out.push_str("PI\n+\n");
    } else {
        for rank in 0..9 {
            let _ = write!(out, "P{}", rank + 1);
            for piece in rank_from_file_9(&pos, rank) {
                out.push_str(&match piece {
                    None => " * ".to_string(),
                    Some(p) => format!("{}{}", csa_side(p.color()), csa_code(p.kind())),
                });
            }
            out.push('\n');
        }
        for color in [Color::Sente, Color::Gote] {
            let _ = write!(out, "P{}", csa_side(color));
            for &k in HAND_ORDER {
                for _ in 0..pos.hand(color).count(k) {
                    let _ = write!(out, "00{}", csa_code(k));
                }
            }
            out.push('\n');
        }
        out.push(csa_side(pos.side_to_move()));
        out.push('\n');
    }
    for m in &game.moves {
        let mv = pos
            .parse_usi_move(&m.usi)
            .expect("records hold legal moves");
        let mover = pos.side_to_move();
        let sign = csa_side(mover);
        let (tf, tr) = file_rank(mv.to());
        let (from, kind) = match mv.from() {
            None => (
                "00".to_string(),
                Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind"),
            ),
            Some(from) => {
                let piece: Piece = pos.piece_at(from).expect("a piece moves");
                let kind = if mv.is_promotion() {
                    piece.kind().promoted()
                } else {
                    piece.kind()
                };
                let (ff, fr) = file_rank(from);
                (format!("{ff}{fr}"), kind)
            }
        };
        let _ = writeln!(out, "{sign}{from}{tf}{tr}{}", csa_code(kind));
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
    let loser_sign = |w: Option<Color>| match w.map(Color::flip) {
        Some(Color::Sente) => "+",
        _ => "-",
    };
    let result = &game.result;
    let terminal = match result.reason {
        // The mated side "resigns": readers (cshogi) then know the winner; %TSUMI they
        // do not. The reason is in the `'result` comment.
        Reason::Checkmate | Reason::NoLegalMove => "%TORYO".to_string(),
        Reason::Repetition => "%SENNICHITE".to_string(),
        Reason::Resign => "%TORYO".to_string(),
        Reason::IllegalMove => "%ILLEGAL_MOVE".to_string(),
        Reason::TimeForfeit => "%TIME_UP".to_string(),
        Reason::Declaration => "%KACHI".to_string(),
        Reason::PerpetualCheck
        | Reason::FalseDeclaration
        | Reason::FalseClaim
        | Reason::EngineFailure => format!("%{}ILLEGAL_ACTION", loser_sign(result.winner)),
        Reason::MoveLimit => "%MAX_MOVES".to_string(),
        Reason::AdjudicatedDraw => "%HIKIWAKE".to_string(),
        Reason::AdjudicatedWin if result.winner != Some(to_move) => "%TORYO".to_string(),
        Reason::AdjudicatedWin => "%CHUDAN".to_string(),
        // Chu Shogi's ends; CSA is written for standard shogi only.
        Reason::RoyalCapture | Reason::BareKing | Reason::RepetitionLoss => "%CHUDAN".to_string(),
    };
    let _ = writeln!(out, "{terminal}");
    let _ = writeln!(out, "'result {}", result.one_line());
    out
}

/// One line of `games.jsonl`: a finished game, written as each game ends and read back by
/// `--resume`, `shishi book from-games` and the Texel fit (JSON through `serde_json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's number in the match, from 1.
    pub game: usize,
    /// The game's name (`USI_Variant`).
    pub variant: String,
    /// The opening's number in the openings list, from 1.
    pub opening: usize,
    pub sente: String,
    pub gote: String,
    /// Which side engine 1 had: `sente` or `gote`.
    pub engine1: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `win`, `draw` or `loss`, for engine 1.
    pub engine1_result: String,
    /// The reason's tag (`Reason::tag`).
    pub reason: String,
    pub detail: String,
    pub plies: usize,
    /// When the game started (Unix seconds).
    pub started: u64,
    /// The USI `position` line that replays the game.
    pub usi: String,
}

impl GameLine {
    /// Reads one line; `None` if it is no game line (a line cut short by a crash, say).
    pub fn read(line: &str) -> Option<GameLine> {
        serde_json::from_str(line).ok()
    }

    /// The line as written (no newline).
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("a game line is plain strings and numbers")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::arbiter::PlayedMove;
    use crate::referee::openings::Opening;
    use crate::referee::result::GameResult;
    use crate::referee::tc::TimeControl;

    fn game(moves: &[&str], winner: Option<Color>, reason: Reason) -> GameRecord {
        GameRecord {
            variant: GameChoice::from(Variant::Shogi),
            opening: Opening::startpos(),
            moves: moves
                .iter()
                .map(|m| PlayedMove {
                    usi: m.to_string(),
                    millis: Some(1500),
                    score: Some(Score::Cp(12)),
                })
                .collect(),
            names: ["A".into(), "B".into()],
            result: GameResult {
                winner,
                reason,
                detail: "x".into(),
            },
            tc: TimeControl::MoveTime(super::super::tc::Millis(100)),
            started: 0,
        }
    }

    #[test]
    fn unix_time_formats_as_a_civil_date() {
        assert_eq!(format_time(0), "1970/01/01 00:00:00");
        assert_eq!(format_time(951_782_400), "2000/02/29 00:00:00");
        assert_eq!(format_time(1_795_000_000), "2026/11/18 11:06:40");
    }

    #[test]
    fn kif_moves_promotions_drops_and_same_square() {
        let g = game(
            &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"],
            Some(Color::Sente),
            Reason::Resign,
        );
        let k = kif(&g);
        assert!(k.contains("手合割：平手"), "{k}");
        assert!(k.contains("   1 ７六歩(77)"), "{k}");
        assert!(k.contains("   3 ２二角成(88)"), "{k}");
        assert!(k.contains("   4 同　銀(31)"), "{k}");
        assert!(k.contains("   5 ４五角打"), "{k}");
        assert!(k.contains("   6 投了"), "{k}");
        assert!(k.contains("まで5手で先手の勝ち"), "{k}");
        assert!(k.contains("( 0:01/00:00:03)"), "{k}");
    }

    #[test]
    fn csa_moves_and_results() {
        let g = game(
            &["7g7f", "3c3d", "8h2b+", "3a2b"],
            Some(Color::Gote),
            Reason::TimeForfeit,
        );
        let c = csa(&g);
        for line in [
            "PI", "+7776FU", "-3334FU", "+8822UM", "-3122GI", "T1", "%TIME_UP", "N+A", "N-B",
        ] {
            assert!(c.lines().any(|l| l == line), "{line} missing:\n{c}");
        }
        let g = game(&["7g7f"], Some(Color::Sente), Reason::Checkmate);
        assert!(csa(&g).contains("\n%TORYO\n'result 1-0 checkmate"));
        assert!(kif(&g).contains("   2 詰み") && kif(&g).contains("まで1手で先手の勝ち"));
        let g = game(&["7g7f"], Some(Color::Gote), Reason::Declaration);
        assert!(csa(&g).contains("\n%KACHI\n"));
        assert!(kif(&g).contains("まで1手で後手の入玉勝ち"));
        let g = game(&["7g7f"], Some(Color::Sente), Reason::EngineFailure);
        assert!(csa(&g).contains("%-ILLEGAL_ACTION"));
        assert!(kif(&g).contains("まで1手で後手の反則負け"));
    }

    /// Issue 34: the KIF header read `*結果 1-0 checkmate checkmate`, and details with a line
    /// break (an engine's own words) broke the comment line in KIF and CSA.
    #[test]
    fn the_result_line_says_each_thing_once_on_one_line() {
        let mut g = game(&["7g7f"], Some(Color::Sente), Reason::Checkmate);
        g.result.detail = "checkmate".into();
        assert!(
            kif(&g).lines().any(|l| l == "*結果 1-0 checkmate"),
            "{}",
            kif(&g)
        );
        assert!(
            csa(&g).lines().any(|l| l == "'result 1-0 checkmate"),
            "{}",
            csa(&g)
        );
        assert!(usi_record(&g)
            .lines()
            .any(|l| l == "# result: 1-0 checkmate"));
        g.result = GameResult {
            winner: Some(Color::Sente),
            reason: Reason::NoLegalMove,
            detail: "no legal move".into(),
        };
        assert!(kif(&g).lines().any(|l| l == "*結果 1-0 no-legal-move"));
        g.result = GameResult {
            winner: Some(Color::Gote),
            reason: Reason::EngineFailure,
            detail: "A exited:\nthread 'main' panicked\n  at x.rs".into(),
        };
        let line = "0-1 engine-failure: A exited: thread 'main' panicked at x.rs";
        assert!(
            kif(&g).lines().any(|l| l == format!("*結果 {line}")),
            "{}",
            kif(&g)
        );
        assert!(
            csa(&g).lines().any(|l| l == format!("'result {line}")),
            "{}",
            csa(&g)
        );
        let record = usi_record(&g);
        assert!(
            record.lines().any(|l| l == format!("# result: {line}")),
            "{record}"
        );
    }

    #[test]
    fn other_start_positions_get_a_board() {
        let mut g = game(&["5a4a"], Some(Color::Sente), Reason::Resign);
        g.opening = Opening {
            sfen: Some("4k4/9/9/9/9/9/9/9/4K4 w 2Pp 1".into()),
            moves: Vec::new(),
        };
        let k = kif(&g);
        assert!(
            k.contains("|・ ・ ・ ・v玉 ・ ・ ・ ・|一")
                || k.contains("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一"),
            "{k}"
        );
        assert!(
            k.contains("先手の持駒：歩二") && k.contains("後手の持駒：歩") && k.contains("後手番"),
            "{k}"
        );
        let c = csa(&g);
        assert!(c.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{c}");
        assert!(c.contains("P+00FU00FU\nP-00FU\n-\n-5141OU"), "{c}");
        assert_eq!(
            usi_line(&g),
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 w 2Pp 1 moves 5a4a"
        );
    }

    #[test]
    fn a_game_line_round_trips_and_a_cut_line_is_none() {
        let line = GameLine {
            game: 3,
            variant: "shogi".into(),
            opening: 1,
            sente: "a \"x\"".into(),
            gote: "b".into(),
            engine1: "gote".into(),
            result: "0-1".into(),
            engine1_result: "win".into(),
            reason: "illegal-move".into(),
            detail: "quote \" back \\ nl \n tab \t ctl \u{1}".into(),
            plies: 1,
            started: 1,
            usi: "position startpos moves 7g7f".into(),
        };
        let text = line.text();
        assert!(!text.contains('\n'), "{text}");
        assert_eq!(GameLine::read(&text), Some(line));
        assert_eq!(GameLine::read(&text[..text.len() - 3]), None);
        assert_eq!(GameLine::read(""), None);
    }
}
