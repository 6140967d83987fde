//! What a record writer needs of a finished game of standard shogi ([`FinishedGame`]): the
//! start, the moves with their times and scores, the players, the clock, and how the game
//! ended ([`Ending`], in the terms KIF and CSA have words for). `shishi match` fills it from
//! its own game record; `kif::write` and `csa::write` turn it into text.

use crate::rules::dropshogi::DropKind;
use crate::rules::geometry::{Color, File, Rank, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};

/// An engine's evaluation, from the point of view of the side it moved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many plies; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// A centipawn value for adjudication, mates as ±100000.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n < 0 => -100_000,
            Score::Mate(_) => 100_000,
        }
    }

    /// The score as records write it: `35`, `-120`, `mate5`.
    pub fn record_text(self) -> String {
        match self {
            Score::Cp(cp) => cp.to_string(),
            Score::Mate(n) => format!("mate{n}"),
        }
    }
}

/// One move of a game, with the time it took and the mover's score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub usi: String,
    /// Thinking time; `None` for opening moves and the referee's chance draws.
    pub millis: Option<u64>,
    /// The mover's evaluation, when it reported one.
    pub score: Option<Score>,
}

/// How a game ended, as KIF's terminal words and CSA's `%` lines tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Checkmate, or no legal move.
    Mate,
    /// Fourfold repetition (sennichite).
    Repetition,
    /// Fourfold repetition with every move of one side a check: that side loses.
    PerpetualCheck,
    Resign,
    /// An illegal move: the mover loses.
    IllegalMove,
    /// Any other foul (a false declaration or claim, a failed engine): that side loses.
    IllegalAction,
    /// The loser's clock ran out.
    TimeUp,
    /// A win by entering-king declaration.
    Declaration,
    /// The move limit was reached: a draw.
    MoveLimit,
    /// Adjudicated: a draw.
    AdjudicatedDraw,
    /// Adjudicated: a win.
    AdjudicatedWin,
    /// An end the formats have no word for (Chu Shogi's): the game is marked interrupted.
    Unnamed,
}

/// A finished game of standard shogi, as the KIF and CSA writers take it.
#[derive(Clone)]
pub struct FinishedGame {
    /// The position the moves start from; `None`: the standard start (`平手`, `PI`).
    pub start: Option<Position>,
    /// Every move from the start; each must be legal where it is played.
    pub moves: Vec<PlayedMove>,
    /// The players' names, sente first.
    pub players: [String; 2],
    /// When the game started, in seconds since the Unix epoch.
    pub started: u64,
    /// The time control as text (`byoyomi 1000`).
    pub time_control: String,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    pub ending: Ending,
    /// The result on one line (`1-0 checkmate`), written as a comment.
    pub result_line: String,
}

impl FinishedGame {
    /// The position the moves start from.
    pub(super) fn start_position(&self) -> Position {
        self.start.clone().unwrap_or_else(Position::startpos)
    }
}

/// Kinds in the order records list hands (R B G S N L P): the order SFEN prints them.
pub(super) const HAND_ORDER: &[Kind] = <Kind as DropKind>::HAND_PRINT_ORDER;

/// The file and rank digits (1–9) of a square.
pub(super) fn file_rank(sq: Square) -> (u8, u8) {
    (sq.file::<Geo>().0 + 1, sq.rank::<Geo>().0 + 1)
}

/// The pieces of `rank` (0: the top rank) as diagrams list them, file 9 first.
pub(super) fn rank_from_file_9(
    pos: &Position,
    rank: u8,
) -> impl Iterator<Item = Option<Piece>> + '_ {
    (0..9)
        .rev()
        .map(move |file| pos.piece_at(Square::new::<Geo>(File(file), Rank(rank))))
}

/// The kind that moves (the kind dropped, for a drop) and its origin (`None` for a drop),
/// in `pos` before the move.
pub(super) fn moved_kind_and_origin(pos: &Position, mv: Move) -> (Kind, Option<Square>) {
    match mv.from() {
        None => (
            Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind"),
            None,
        ),
        Some(from) => {
            let kind = pos.piece_at(from).expect("a piece moves").kind();
            (kind, Some(from))
        }
    }
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
