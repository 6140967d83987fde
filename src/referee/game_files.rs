//! Game records: KIF and CSA files for standard shogi (written by `record/`, from the
//! [`FinishedGame`] made here of the referee's record), the USI `position` line that
//! replays the game (every variant), the `.usi` record (that line with the players, result,
//! times and scores as `#` comments, so that it loads back as an opening file), and one
//! JSON line per game in `games.jsonl` ([`GameLine`]: written as each game ends, read back by
//! `--resume`).

use super::arbiter::GameRecord;
use super::result::{GameResult, Reason};
use super::tc::describe_pair;
use crate::record::finished_game::{format_time, Ending, FinishedGame};
use crate::rules::variants::shogi::Position;
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
    let _ = writeln!(out, "# time control: {}", time_control_text(game));
    let _ = writeln!(out, "# result: {}", game.result.one_line());
    for (i, m) in game.moves.iter().enumerate() {
        let time = m
            .millis
            .map_or_else(|| "no clock".to_string(), |ms| format!("{ms} ms"));
        let score = m
            .score
            .map_or_else(String::new, |s| format!(" score {}", s.record_text()));
        let _ = writeln!(out, "# {:>4}. {} {time}{score}", i + 1, m.usi);
    }
    let _ = writeln!(out, "{}", usi_line(game));
    out
}

/// The time control of the game as the records name it: one control when both players
/// had it, else each player's (`nodes=1000 for sente, 10+0.1 for gote`).
fn time_control_text(game: &GameRecord) -> String {
    describe_pair(game.time_controls, ["sente", "gote"])
}

/// The game as the KIF and CSA writers take it; standard shogi only.
fn finished_shogi_game(game: &GameRecord) -> FinishedGame {
    let shogi = GameChoice::from(Variant::Shogi);
    let start = (!game.opening.starts_from_startpos(shogi)).then(|| {
        game.opening
            .base_position::<Position>(shogi)
            .expect("openings are validated when loaded")
    });
    FinishedGame {
        start,
        moves: game.moves.clone(),
        players: game.names.clone(),
        started: game.started,
        time_control: time_control_text(game),
        winner: game.result.winner,
        ending: ending(&game.result),
        result_line: game.result.one_line(),
    }
}

/// The words KIF and CSA have for why a game ended.
fn ending(result: &GameResult) -> Ending {
    match result.reason {
        Reason::Checkmate | Reason::NoLegalMove => Ending::Mate,
        Reason::Repetition => Ending::Repetition,
        Reason::PerpetualCheck => Ending::PerpetualCheck,
        Reason::Resign => Ending::Resign,
        Reason::IllegalMove => Ending::IllegalMove,
        Reason::FalseDeclaration | Reason::FalseClaim | Reason::EngineFailure => {
            Ending::IllegalAction
        }
        Reason::TimeForfeit => Ending::TimeUp,
        Reason::Declaration => Ending::Declaration,
        Reason::MoveLimit => Ending::MoveLimit,
        Reason::AdjudicatedDraw => Ending::AdjudicatedDraw,
        Reason::AdjudicatedWin => Ending::AdjudicatedWin,
        // Chu Shogi's ends; KIF and CSA are written for standard shogi only.
        Reason::RoyalCapture | Reason::BareKing | Reason::RepetitionLoss => Ending::Unnamed,
    }
}

/// The game in KIF (UTF-8); standard shogi only.
pub fn kif(game: &GameRecord) -> String {
    crate::record::kif::write(&finished_shogi_game(game))
}

/// The game in CSA format (V2.2, UTF-8); standard shogi only.
pub fn csa(game: &GameRecord) -> String {
    crate::record::csa::write(&finished_shogi_game(game))
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
    use crate::referee::player::Score;
    use crate::referee::result::GameResult;
    use crate::referee::tc::TimeControl;
    use crate::rules::geometry::Color;

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
            time_controls: [TimeControl::MoveTime(super::super::tc::Millis(100)); 2],
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

    /// Time odds: every record names each player's control; one shared control is named once.
    #[test]
    fn records_name_each_players_time_control() {
        let mut g = game(&["7g7f"], Some(Color::Sente), Reason::Resign);
        assert!(usi_record(&g)
            .lines()
            .any(|l| l == "# time control: movetime=100"));
        g.time_controls[0] = TimeControl::Nodes(5000);
        let both = "nodes=5000 for sente, movetime=100 for gote";
        assert!(
            usi_record(&g)
                .lines()
                .any(|l| l == format!("# time control: {both}")),
            "{}",
            usi_record(&g)
        );
        assert!(kif(&g).lines().any(|l| l == format!("持ち時間：{both}")));
        assert!(csa(&g)
            .lines()
            .any(|l| l == format!("'time control {both}")));
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
