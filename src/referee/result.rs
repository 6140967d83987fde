//! How a game under the referee ended: the reason (`Reason`, with the tag the records
//! write) and the result (`GameResult`: the winner, the reason, the details).

use super::player::PlayerResult;
use crate::rules::geometry::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move without being in check (a loss, RULES.md §1.5).
    NoLegalMove,
    /// Fourfold repetition (sennichite): a draw.
    Repetition,
    /// Fourfold repetition in which one side checked on every move: that side loses.
    PerpetualCheck,
    Resign,
    /// An illegal or unreadable move: the mover loses.
    IllegalMove,
    /// The engine took longer than its clock allowed (plus the margin).
    TimeForfeit,
    /// A valid entering-king declaration (`bestmove win`): the declarer wins.
    Declaration,
    /// An invalid declaration: the declarer loses.
    FalseDeclaration,
    /// A CECP engine claimed a result instead of moving, in a game that was not over.
    FalseClaim,
    /// The engine crashed, could not be started, or broke the protocol: it loses.
    EngineFailure,
    /// The move limit was reached: a draw.
    MoveLimit,
    /// Both engines agreed for long enough that one side is lost.
    AdjudicatedWin,
    /// Both engines agreed for long enough that the game is level.
    AdjudicatedDraw,
    /// Chu Shogi: the last royal (King or Crown Prince) was captured.
    RoyalCapture,
    /// Chu Shogi: the bare-king rule of the rule set decided (a win, or a dead draw).
    BareKing,
    /// Chu Shogi: fourfold repetition that the rule set scores as a loss for one side.
    RepetitionLoss,
}

impl Reason {
    pub const ALL: [Reason; 17] = [
        Reason::Checkmate,
        Reason::NoLegalMove,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::Resign,
        Reason::IllegalMove,
        Reason::TimeForfeit,
        Reason::Declaration,
        Reason::FalseDeclaration,
        Reason::FalseClaim,
        Reason::EngineFailure,
        Reason::MoveLimit,
        Reason::AdjudicatedWin,
        Reason::AdjudicatedDraw,
        Reason::RoyalCapture,
        Reason::BareKing,
        Reason::RepetitionLoss,
    ];

    /// The word stored in `games.jsonl`.
    pub fn tag(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMove => "no-legal-move",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::Resign => "resign",
            Reason::IllegalMove => "illegal-move",
            Reason::TimeForfeit => "time-forfeit",
            Reason::Declaration => "declaration",
            Reason::FalseDeclaration => "false-declaration",
            Reason::FalseClaim => "false-claim",
            Reason::EngineFailure => "engine-failure",
            Reason::MoveLimit => "move-limit",
            Reason::AdjudicatedWin => "adjudicated-win",
            Reason::AdjudicatedDraw => "adjudicated-draw",
            Reason::RoyalCapture => "royal-capture",
            Reason::BareKing => "bare-king",
            Reason::RepetitionLoss => "repetition-loss",
        }
    }

    pub fn from_tag(tag: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.tag() == tag)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
    /// Human-readable details (the illegal move, the times, the engine's exit status…).
    pub detail: String,
}

impl GameResult {
    /// `1-0` (sente won), `0-1` or `1/2-1/2`.
    pub fn score_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Sente) => "1-0",
            Some(Color::Gote) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The result on one line, as the records write it: `1-0 checkmate`, or with the
    /// details when they say more than the reason (`0-1 time-forfeit: A sent no move …`).
    /// Line breaks in the details (an engine's own words) become spaces, so that the line
    /// stays one comment line in every record format.
    pub fn one_line(&self) -> String {
        let detail = self.detail.split_whitespace().collect::<Vec<_>>().join(" ");
        let tag = self.reason.tag();
        if detail.is_empty() || detail.replace(' ', "-") == tag {
            format!("{} {tag}", self.score_text())
        } else {
            format!("{} {tag}: {detail}", self.score_text())
        }
    }

    /// The result as `color`'s player sees it.
    pub(super) fn for_player(&self, color: Color) -> PlayerResult {
        match self.winner {
            None => PlayerResult::Draw,
            Some(w) if w == color => PlayerResult::Win,
            Some(_) => PlayerResult::Loss,
        }
    }
}
