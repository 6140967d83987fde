//! What the page is sent about a game: the board, hands, dice and cards as the viewing side
//! may see them, its legal decisions when it is to decide, the move list, the result and
//! the engine's analysis, as one JSON object.
//!
//! Everything here is built from the viewer's tokens (`Session::shown_to`), never from the
//! true state, except the legal decisions, which are the viewer's own. So in the Madness
//! the opponent's unplayed card cannot reach the page: its draws arrive as `draw:?`, the
//! view counts cards as the engine's view does, and the opponent's card appears only once
//! played (or when counting locates it, which the page could work out as well). The
//! engine's line is cut before its first card of the other side for the same reason, and
//! the seed of the dice and cards is shown only once the game is over.

use super::session::{Mode, Session};
use super::truth::{board_of, seen_position, GameRules};
use crate::referee::player::Score;
use crate::rules::geometry::Color;
use crate::rules::variants::madness::{CardValue, Phase};
use crate::rules::variants::Variant;
use crate::usi::position::UsiPosition;
use serde::Serialize;

/// One piece on a square.
#[derive(Serialize, Debug)]
pub struct PieceOut {
    pub side: &'static str,
    /// The SFEN letter in upper case, `+` first when promoted (`+R`).
    pub piece: String,
}

#[derive(Serialize, Debug)]
pub struct MoveOut {
    pub text: String,
    /// `sente`, `gote` or `chance` (a roll or card the server drew).
    pub by: &'static str,
}

#[derive(Serialize, Debug)]
pub struct DiceOut {
    /// The roll of the turn under way (empty before the roll).
    pub rolled: Vec<u8>,
    /// The dice still to use.
    pub left: Vec<u8>,
    /// The die → piece table (`P/LN/S/G/BR/K`).
    pub table: String,
}

#[derive(Serialize, Debug)]
pub struct CardsOut {
    /// The viewer's own card.
    pub own: Option<u8>,
    /// The opponent's card, only when counting has located it (public knowledge).
    pub opponent_located: Option<u8>,
    pub pile: u8,
    /// The discard pile, one entry per card.
    pub discards: Vec<u8>,
    pub phase: String,
    /// The last d10 roll of the game.
    pub last_roll: Option<u8>,
}

#[derive(Serialize, Debug)]
pub struct ResultOut {
    pub winner: Option<&'static str>,
    pub reason: String,
    /// What went wrong, when the game was ended by a failure of the server's engine rather
    /// than by the rules or a player (then there is no winner).
    pub error: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct AnalysisOut {
    /// The side the engine searched for.
    pub side: &'static str,
    pub depth: u32,
    /// The value for `side` (`+35` centipawns, `+0.213` equity, `mate 5`).
    pub value: String,
    pub pv: Vec<String>,
}

/// The whole state of a game as the page sees it.
#[derive(Serialize, Debug)]
pub struct GameView {
    pub id: String,
    pub variant: &'static str,
    /// `play` or `watch`.
    pub mode: &'static str,
    /// The person's side in `play` mode.
    pub person: Option<&'static str>,
    pub viewer: &'static str,
    pub movetime_ms: u64,
    pub chu_rules: &'static str,
    pub version: u64,
    pub files: usize,
    pub ranks: usize,
    /// `squares[rank][column]`, rank 0 = `a` (gote's side), column 0 = the highest file.
    pub squares: Vec<Vec<Vec<PieceOut>>>,
    /// Each side's hand as (letter, count), sente first; `null` in Chu Shogi.
    pub hands: Option<[Vec<(String, u32)>; 2]>,
    /// `sente`, `gote`, `chance` or `over`.
    pub to_act: &'static str,
    pub your_turn: bool,
    /// The viewer's legal decisions when it is the person's turn.
    pub legal: Vec<String>,
    pub moves: Vec<MoveOut>,
    pub dice: Option<DiceOut>,
    pub cards: Option<CardsOut>,
    pub result: Option<ResultOut>,
    pub thinking: Option<&'static str>,
    pub analysis: Option<AnalysisOut>,
    /// The position's SFEN (the board, hands and side; no card state).
    pub sfen: String,
    /// `startpos|sfen … moves …` with the viewer's tokens, as `shishi analyse` reads it.
    pub record: String,
    /// The seed of the dice and cards, once the game is over.
    pub seed: Option<u64>,
}

pub fn side_name(color: Color) -> &'static str {
    color.name()
}

fn is_chance_game(variant: Variant) -> bool {
    matches!(variant, Variant::Shogammon | Variant::Madness)
}

/// A value as the page prints it.
fn value_text(score: Score, variant: Variant) -> String {
    match score {
        Score::Mate(n) => format!("mate {n}"),
        Score::Cp(v) if is_chance_game(variant) => format!("{:+.3}", f64::from(v) / 10000.0),
        Score::Cp(v) => format!("{v:+}"),
    }
}

/// Whether a token shows a card (one the viewer may not see, when it is the other side's).
fn shows_card(token: &str) -> bool {
    token.starts_with("c:") || token.starts_with("draw:")
}

fn phase_text(phase: Phase) -> String {
    match phase {
        Phase::Deal(c) => format!("{} is dealt a card", side_name(c)),
        Phase::MadnessChoice => "a piece holds 5e: play the card or roll".to_string(),
        Phase::Roll => "the d10 is rolled".to_string(),
        Phase::Promotion(_) => "the mad piece may promote".to_string(),
        Phase::Draw => "a new card is drawn".to_string(),
        Phase::Normal => "a normal move".to_string(),
        Phase::Over(c) => format!("over: {} won", side_name(c)),
    }
}

fn dice_of(position: &UsiPosition, shown: &[&str]) -> Option<DiceOut> {
    let UsiPosition::Shogammon(pos) = position else {
        return None;
    };
    let rolled = if pos.awaiting_roll() {
        Vec::new()
    } else {
        shown
            .iter()
            .rev()
            .find_map(|t| t.strip_prefix("r:"))
            .map(|digits| digits.bytes().map(|b| b - b'0').collect())
            .unwrap_or_default()
    };
    Some(DiceOut {
        rolled,
        left: pos.dice_left().dice().map(|d| d.value()).collect(),
        table: pos.dice_table().spec(),
    })
}

fn cards_of(position: &UsiPosition, shown: &[&str]) -> Option<CardsOut> {
    let UsiPosition::Madness(view) = position else {
        return None;
    };
    let cards = view.cards();
    let discards = CardValue::ALL
        .into_iter()
        .flat_map(|v| std::iter::repeat_n(v.get(), usize::from(cards.discards.count(v))))
        .collect();
    Some(CardsOut {
        own: cards.own.map(CardValue::get),
        opponent_located: cards
            .opponent
            .filter(|_| cards.opponent_located)
            .map(CardValue::get),
        pile: cards.pile_size,
        discards,
        phase: phase_text(view.phase()),
        last_roll: shown
            .iter()
            .rev()
            .find_map(|t| t.strip_prefix("r:"))
            .and_then(|n| n.parse().ok()),
    })
}

fn record_text(rules: &GameRules, shown: &[&str]) -> String {
    let mut words = rules.position_words();
    if !shown.is_empty() {
        words.push("moves".to_string());
        words.extend(shown.iter().map(|t| t.to_string()));
    }
    words.join(" ")
}

/// The page's view of `session`, or an error when the viewer's position cannot be read
/// (a bug: every token was played by the rules core).
pub fn game_view(id: &str, session: &Session) -> Result<GameView, String> {
    let setup = session.setup();
    let rules = &setup.rules;
    let viewer = setup.mode.viewer();
    let shown: Vec<&str> = session.shown_to(viewer).collect();
    let position = seen_position(rules, shown.iter().map(|t| t.to_string()))?;
    let board = board_of(&position);
    let squares = board
        .squares
        .iter()
        .map(|rank| {
            rank.iter()
                .map(|stack| {
                    stack
                        .iter()
                        .map(|p| PieceOut {
                            side: side_name(p.color),
                            piece: p.text.clone(),
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let next = session.truth().next();
    let to_act = match (session.finish(), &next) {
        (Some(_), _) | (None, super::truth::Next::Over(_)) => "over",
        (None, super::truth::Next::Chance(_)) => "chance",
        (None, super::truth::Next::Decision(side)) => side_name(*side),
    };
    let your_turn = match setup.mode {
        Mode::Play { person } => {
            session.finish().is_none() && next == super::truth::Next::Decision(person)
        }
        Mode::Watch { .. } => false,
    };
    let legal = if your_turn {
        session.truth().legal_decisions()
    } else {
        Vec::new()
    };
    let moves = session
        .tokens()
        .iter()
        .map(|t| MoveOut {
            text: t.shown[viewer.index()].clone(),
            by: t.actor.map_or("chance", side_name),
        })
        .collect();
    let analysis = session.analysis().map(|a| {
        let mut pv = a.progress.pv.clone();
        if rules.variant == Variant::Madness && a.side != viewer {
            if let Some(cut) = pv.iter().position(|t| shows_card(t)) {
                pv.truncate(cut);
            }
        }
        AnalysisOut {
            side: side_name(a.side),
            depth: a.progress.depth,
            value: value_text(a.progress.score, rules.variant),
            pv,
        }
    });
    let (mode, person) = match setup.mode {
        Mode::Play { person } => ("play", Some(side_name(person))),
        Mode::Watch { .. } => ("watch", None),
    };
    Ok(GameView {
        id: id.to_string(),
        variant: rules.variant.name(),
        mode,
        person,
        viewer: side_name(viewer),
        movetime_ms: setup.movetime.0.as_millis() as u64,
        chu_rules: rules.options.chu_rules.name(),
        version: session.version(),
        files: board.files(),
        ranks: board.squares.len(),
        squares,
        hands: board.hands.clone(),
        to_act,
        your_turn,
        legal,
        moves,
        dice: dice_of(&position, &shown),
        cards: cards_of(&position, &shown),
        result: session.finish().map(|f| ResultOut {
            winner: f.winner.map(side_name),
            reason: f.reason.clone(),
            error: f.error.clone(),
        }),
        thinking: session.thinking().map(side_name),
        analysis,
        sfen: session.truth().sfen(),
        record: record_text(rules, &shown),
        seed: session.finish().map(|_| setup.seed),
    })
}
