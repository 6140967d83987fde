//! The board of any game as a picture: [`Board`] is read from the game's own
//! SFEN (so one reader serves the 5×5, 9×9 and 12×12 boards, Shogammon's `(XY)` points and the
//! Madness board) and drawn as text here; `board_svg` draws the same [`Board`] as SVG.
//! [`Diagram`] is what each game adds: which SFEN fields hold the hands and the lines
//! below the board (dice left, cards).

use crate::rules::dropshogi::{DropPosition, DropVariant};
use crate::rules::geometry::Color;
use crate::rules::variants::madness::{self, Phase};
use crate::rules::variants::{chu, shogammon};

/// One piece as drawn: its owner and its SFEN letter(s) in sente's (upper) case, `+R`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnPiece {
    pub color: Color,
    pub text: String,
}

/// The pieces on one square, lowest first (two on a Shogammon point).
pub type Stack = Vec<DrawnPiece>;

/// A board read from an SFEN: ranks from `a` (top, gote's side), files from the highest
/// (left) down to 1, the hands as SFEN counts, and the notes printed under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `squares[rank][column]`, column 0 being the highest file.
    pub squares: Vec<Vec<Stack>>,
    pub side_to_move: Color,
    /// Each side's pieces in hand as (letter, count); `None` for a game without hands.
    pub hands: Option<[Vec<(String, u32)>; 2]>,
    /// Lines shown under the board (dice left, cards, the SFEN).
    pub notes: Vec<String>,
    /// A card shown beside each side's hand (the Madness card of the analysed side).
    pub cards: [Option<String>; 2],
}

/// What a game adds to its SFEN for a diagram.
pub trait Diagram {
    /// The SFEN whose first field is the board and second the side to move.
    fn diagram_sfen(&self) -> String;
    /// Whether the third SFEN field is the shogi hand field.
    fn has_hands(&self) -> bool {
        true
    }
    /// Lines under the board.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The card shown beside each side's hand.
    fn cards(&self) -> [Option<String>; 2] {
        [None, None]
    }
    /// The board as a [`Board`].
    fn board(&self) -> Board {
        let sfen = self.diagram_sfen();
        let mut board =
            Board::from_sfen(&sfen, self.has_hands()).expect("a position writes a valid SFEN");
        board.notes = self.notes();
        board.notes.push(format!("sfen {sfen}"));
        board.cards = self.cards();
        board
    }
}

/// Standard shogi and Chu Kagamigi: the SFEN says everything.
impl<V: DropVariant> Diagram for DropPosition<V> {
    fn diagram_sfen(&self) -> String {
        self.to_sfen()
    }
}

impl Diagram for chu::Position {
    fn diagram_sfen(&self) -> String {
        self.to_sfen()
    }
    fn has_hands(&self) -> bool {
        false
    }
}

impl Diagram for shogammon::Position {
    fn diagram_sfen(&self) -> String {
        self.to_sfen()
    }
    fn notes(&self) -> Vec<String> {
        if self.awaiting_roll() {
            return vec!["dice: to roll".to_string()];
        }
        let dice: Vec<String> = self
            .dice_left()
            .dice()
            .map(|d| d.value().to_string())
            .collect();
        let mut notes = vec![format!("dice left: {}", dice.join(" "))];
        if let Some(pending) = self.pending_capture() {
            notes.push(format!(
                "point capture under way on {}",
                pending.square.to_usi::<crate::rules::geometry::Board9x9>()
            ));
        }
        notes
    }
}

impl Diagram for madness::PlayerView {
    /// The board as it ended when a king was taken (the taking piece on the king's square).
    fn diagram_sfen(&self) -> String {
        self.final_board().to_sfen()
    }
    fn notes(&self) -> Vec<String> {
        let cards = self.cards();
        let phase = match self.phase() {
            Phase::Deal(c) => format!("{} is dealt a card next", color_name(c)),
            Phase::MadnessChoice => "card or roll (a piece holds 5e)".to_string(),
            Phase::Roll => "the d10 is rolled next".to_string(),
            Phase::Promotion(sq) => format!(
                "the madness piece on {} may promote",
                sq.to_usi::<crate::rules::geometry::Board9x9>()
            ),
            Phase::Draw => "a replacement card is drawn next".to_string(),
            Phase::Normal => "normal move".to_string(),
            Phase::Over(c) => format!("game over: {} won", color_name(c)),
        };
        let discards: Vec<String> = madness::CardValue::ALL
            .into_iter()
            .filter(|v| cards.discards.count(*v) > 0)
            .map(|v| match cards.discards.count(v) {
                1 => v.get().to_string(),
                n => format!("{}x{n}", v.get()),
            })
            .collect();
        vec![
            format!("phase: {phase}"),
            format!(
                "{}'s view; discards: {}; draw pile: {} cards",
                color_name(cards.me),
                if discards.is_empty() {
                    "-".to_string()
                } else {
                    discards.join(" ")
                },
                cards.pile_size
            ),
        ]
    }
    fn cards(&self) -> [Option<String>; 2] {
        let cards = self.cards();
        let mut shown = [None, None];
        shown[cards.me.index()] = Some(match cards.own {
            Some(v) => format!("card {}", v.get()),
            None => "card ?".to_string(),
        });
        if let Some(v) = cards.opponent.filter(|_| cards.opponent_located) {
            shown[cards.me.flip().index()] = Some(format!("card {} (located)", v.get()));
        }
        shown
    }
}

/// `sente` or `gote`.
pub fn color_name(color: Color) -> &'static str {
    color.name()
}

/// Splits one SFEN rank into squares: digit runs are empty squares, `+X` a promoted piece,
/// `(XY)` a point (lower piece first).
fn read_rank(row: &str) -> Result<Vec<Stack>, String> {
    let mut squares = Vec::new();
    let mut chars = row.chars().peekable();
    let mut stack: Option<Stack> = None;
    let mut promoted = false;
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' => {
                let mut run = c.to_digit(10).unwrap_or(0);
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    run = run * 10 + d;
                    chars.next();
                }
                if stack.is_some() || promoted {
                    return Err(format!("an empty-square count inside a piece in {row:?}"));
                }
                squares.extend((0..run).map(|_| Stack::new()));
            }
            '+' => promoted = true,
            '(' if stack.is_none() => stack = Some(Stack::new()),
            ')' => match stack.take() {
                Some(pieces) if !pieces.is_empty() => squares.push(pieces),
                _ => return Err(format!("an empty or unopened point in {row:?}")),
            },
            c if c.is_ascii_alphabetic() => {
                let color = if c.is_ascii_uppercase() {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let letter = c.to_ascii_uppercase();
                let piece = DrawnPiece {
                    color,
                    text: if promoted {
                        format!("+{letter}")
                    } else {
                        letter.to_string()
                    },
                };
                promoted = false;
                match stack.as_mut() {
                    Some(pieces) => pieces.push(piece),
                    None => squares.push(vec![piece]),
                }
            }
            other => return Err(format!("unexpected {other:?} in the board rank {row:?}")),
        }
    }
    if stack.is_some() || promoted {
        return Err(format!("the board rank {row:?} ends inside a piece"));
    }
    Ok(squares)
}

/// Reads the hand field (`-`, `2Pb`) into each side's (letter, count).
fn read_hands(field: &str) -> Result<[Vec<(String, u32)>; 2], String> {
    let mut hands: [Vec<(String, u32)>; 2] = [Vec::new(), Vec::new()];
    if field == "-" {
        return Ok(hands);
    }
    let mut count = 0u32;
    for c in field.chars() {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
        } else if c.is_ascii_alphabetic() {
            let color = if c.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            hands[color.index()].push((c.to_ascii_uppercase().to_string(), count.max(1)));
            count = 0;
        } else {
            return Err(format!("unexpected {c:?} in the hand field {field:?}"));
        }
    }
    if count > 0 {
        return Err(format!("the hand field {field:?} ends in a count"));
    }
    Ok(hands)
}

impl Board {
    /// Reads the board, side and (when `has_hands`) hand fields of an SFEN.
    pub fn from_sfen(sfen: &str, has_hands: bool) -> Result<Board, String> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let (Some(board), Some(side)) = (fields.first(), fields.get(1)) else {
            return Err(format!("{sfen:?} has no board and side fields"));
        };
        let squares = board
            .split('/')
            .map(read_rank)
            .collect::<Result<Vec<_>, _>>()?;
        let files = squares.first().map_or(0, Vec::len);
        if files == 0 || squares.iter().any(|rank| rank.len() != files) {
            return Err(format!("the ranks of {board:?} differ in length"));
        }
        let side_to_move = match *side {
            "b" => Color::Sente,
            "w" => Color::Gote,
            other => return Err(format!("side {other:?} is neither b nor w")),
        };
        let hands = if has_hands {
            Some(read_hands(fields.get(2).copied().unwrap_or("-"))?)
        } else {
            None
        };
        Ok(Board {
            squares,
            side_to_move,
            hands,
            notes: Vec::new(),
            cards: [None, None],
        })
    }

    pub fn files(&self) -> usize {
        self.squares.first().map_or(0, Vec::len)
    }

    /// The text of a side's hand (`R Px2`, `-`), with its card if one is shown.
    pub fn hand_text(&self, color: Color) -> Option<String> {
        let hand = self.hands.as_ref().map(|hands| {
            let parts: Vec<String> = hands[color.index()]
                .iter()
                .map(|(letter, n)| match n {
                    1 => letter.clone(),
                    n => format!("{letter}x{n}"),
                })
                .collect();
            if parts.is_empty() {
                "-".to_string()
            } else {
                parts.join(" ")
            }
        });
        match (hand, &self.cards[color.index()]) {
            (Some(hand), Some(card)) => Some(format!("{hand}; {card}")),
            (Some(hand), None) => Some(hand),
            (None, Some(card)) => Some(card.clone()),
            (None, None) => None,
        }
    }

    /// The board as text: file numbers over the columns (two digits on 12×12), rank letters
    /// on the right, gote's pieces marked `v`, a point written `lower:upper`.
    pub fn text(&self) -> String {
        let cell = |stack: &Stack| -> String {
            if stack.is_empty() {
                return ".".to_string();
            }
            let parts: Vec<String> = stack
                .iter()
                .map(|p| match p.color {
                    Color::Sente => p.text.clone(),
                    Color::Gote => format!("v{}", p.text),
                })
                .collect();
            parts.join(":")
        };
        let width = self
            .squares
            .iter()
            .flatten()
            .map(|s| cell(s).len())
            .max()
            .unwrap_or(1)
            .max(self.files().to_string().len())
            + 1;
        let files = self.files();
        let mut out = String::new();
        if let Some(hand) = self.hand_text(Color::Gote) {
            out.push_str(&format!("Gote (v) in hand: {hand}\n"));
        }
        out.push_str("  ");
        for file in (1..=files).rev() {
            out.push_str(&format!("{file:>width$}"));
        }
        out.push('\n');
        let rule = format!(" +{}+\n", "-".repeat(width * files + 1));
        out.push_str(&rule);
        for (rank, row) in self.squares.iter().enumerate() {
            out.push_str(" |");
            for stack in row {
                out.push_str(&format!("{:>width$}", cell(stack)));
            }
            out.push_str(&format!(" | {}\n", (b'a' + rank as u8) as char));
        }
        out.push_str(&rule);
        if let Some(hand) = self.hand_text(Color::Sente) {
            out.push_str(&format!("Sente in hand: {hand}\n"));
        }
        out.push_str(&format!("{} to move\n", color_name(self.side_to_move)));
        for note in &self.notes {
            out.push_str(note);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::{kagamigi, shogi};

    #[test]
    fn a_shogi_board_with_hands() {
        let pos = shogi::Position::from_sfen("4k4/9/9/9/9/9/9/9/4K2+R1 w 2Pb 1").unwrap();
        let text = pos.board().text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Gote (v) in hand: B");
        assert_eq!(lines[1], "    9  8  7  6  5  4  3  2  1");
        assert_eq!(lines[3], " |  .  .  .  . vK  .  .  .  . | a");
        assert_eq!(lines[11], " |  .  .  .  .  K  .  . +R  . | i");
        assert_eq!(lines[13], "Sente in hand: Px2");
        assert_eq!(lines[14], "gote to move");
    }

    #[test]
    fn twelve_files_are_numbered_with_two_digits() {
        let board = chu::Position::startpos().board();
        assert_eq!((board.files(), board.squares.len()), (12, 12));
        assert!(board.hands.is_none());
        let text = board.text();
        let header = text.lines().next().unwrap();
        assert!(header.trim_start().starts_with("12 11 10  9"), "{header}");
        assert!(header.trim_end().ends_with(" 1"), "{header}");
        let kagamigi = kagamigi::Position::startpos().board().text();
        assert!(kagamigi.starts_with("Gote (v) in hand: -"), "{kagamigi}");
    }

    #[test]
    fn shogammon_points_are_stacks() {
        let pos = shogammon::Position::from_sfen("4k4/9/9/9/9/9/9/4(PG)4/4(K+P)4 b - 1").unwrap();
        let board = pos.board();
        let point = &board.squares[8][4];
        assert_eq!(point.len(), 2);
        assert_eq!(point[0].text, "K");
        assert_eq!(point[1].text, "+P");
        let text = board.text();
        assert!(text.contains("K:+P"), "{text}");
        assert!(text.contains("dice: to roll"), "{text}");
    }

    #[test]
    fn the_madness_card_is_shown_in_the_viewers_hand() {
        let mut view = madness::PlayerView::startpos(Color::Gote);
        view.play_texts(["draw:?", "draw:7"]).unwrap();
        let board = view.board();
        assert_eq!(board.cards[Color::Gote.index()].as_deref(), Some("card 7"));
        assert!(board.text().starts_with("Gote (v) in hand: -; card 7"));
    }

    #[test]
    fn malformed_boards_are_errors() {
        for sfen in ["", "9/9 x", "(P/9 b", "3/4 b", "+ b", "9 b 2"] {
            assert!(Board::from_sfen(sfen, true).is_err(), "{sfen:?}");
        }
    }
}
