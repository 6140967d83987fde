//! The turn state machine of Central Madness and its [`Game`] implementation, generic over
//! the card model: [`TrueGame`] (the referee's state) and [`PlayerView`] (one player's).
//!
//! Nodes, in order (RULES.md §5.3; docs/USI.md):
//! * `Deal(Sente)`, `Deal(Gote)`: chance, one `draw:` each before the first turn.
//! * At the start of each turn: if the mover has a piece X on 5e, `MadnessChoice`, else
//!   `Normal`. `MadnessChoice` is a decision between `c:N` (the mover's card) and `roll`. In
//!   a view whose card model does not know the mover's card it is first a chance node whose
//!   outcomes `draw:N` reveal that card (weights = unseen counts); a token stream may also
//!   play the decision (`c:N` or `roll`) there directly, which is how the opponent's real
//!   choice arrives.
//! * `roll` → `Roll`: chance `r:1`..`r:10`, weight 1 each.
//! * The effect of `c:N`/`r:N` is applied at once. If X ends in its promotion zone and may
//!   but need not promote: `Promotion`, a decision `mad+` / `mad=`.
//! * After a played card: `Draw`, chance over the mover's replacement card.
//! * `Normal`: the ordinary move or drop, with X frozen if the madness moved or flipped it
//!   and no drops after 0/10. Then the next turn starts.
//! * `Over(winner)`: a king was captured (by the madness or by a normal move) or X was the
//!   mover's own king sent to hand.
//!
//! Rulings the rules leave open are in RULES.md §5 and §6 (rulings #26, #28–#31): the normal
//! move may capture a king the madness left en prise, which wins at once; the turn-start
//! positions (board, hands, side) are what repetition compares.

use super::cards::{CardModel, TrueCards, ViewCards};
use super::token::{CardValue, Token};
use super::{slide_destination, CENTER};
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::dropshogi::notation::SfenRules;
use crate::rules::game::{Game, NodeKind, Outcome, Weight};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::notation::{NotationError, PositionArgs};
use crate::rules::repetition::REPETITIONS_TO_END;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};
use crate::rules::variants::{GameStart, RuleOptions};
use arrayvec::ArrayVec;

/// The referee's game: both cards and the draw pile known.
pub type TrueGame = MadnessGame<TrueCards>;
/// One player's game: its own card, the public discards, the rest as chance.
pub type PlayerView = MadnessGame<ViewCards>;

/// Where in a turn the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The given side's first card is dealt next (chance).
    Deal(Color),
    /// The mover holds 5e: card or roll.
    MadnessChoice,
    /// The d10 is rolled next (chance).
    Roll,
    /// The piece the madness moved to this square may promote: `mad+` or `mad=`.
    Promotion(Square),
    /// The mover draws a replacement for its played card (chance).
    Draw,
    /// The mover's ordinary move or drop.
    Normal,
    /// The game ended with a king captured or sent to hand; the given side won.
    Over(Color),
}

/// The state of the current turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Turn {
    phase: Phase,
    /// X's square after the madness moved or flipped it: it may not move again this turn.
    frozen: Option<Square>,
    /// The madness sent X to hand (0/10): no drops this turn.
    no_drops: bool,
    /// A card was played this turn and its replacement is still to be drawn.
    draw_pending: bool,
    /// The madness phase of this turn has happened.
    madness_done: bool,
}

impl Turn {
    fn deal() -> Turn {
        Turn {
            phase: Phase::Deal(Color::Sente),
            frozen: None,
            no_drops: false,
            draw_pending: false,
            madness_done: false,
        }
    }

    fn hash(self) -> u64 {
        let phase: u64 = match self.phase {
            Phase::Deal(c) => 1 + c.index() as u64,
            Phase::MadnessChoice => 3,
            Phase::Roll => 4,
            Phase::Promotion(sq) => 5 | (sq.0 as u64) << 8,
            Phase::Draw => 6,
            Phase::Normal => 7,
            Phase::Over(c) => 8 + c.index() as u64,
        };
        let packed = phase
            | (self.frozen.map_or(0xFF, |s| s.0) as u64) << 16
            | (self.no_drops as u64) << 24
            | (self.draw_pending as u64) << 25
            | (self.madness_done as u64) << 26;
        mix(packed)
    }
}

/// SplitMix64's finaliser: spreads a packed state into a hash key.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Board edits of one madness effect, to be reverted in reverse order.
#[derive(Clone, Debug, Default)]
struct EditLog {
    /// Squares changed, with what stood there before.
    squares: ArrayVec<(Square, Option<Piece>), 2>,
    /// A piece kind added to a side's hand.
    hand_gain: Option<(Color, Kind)>,
}

/// How to take back the board side of one action.
#[derive(Clone, Debug)]
enum BoardUndo {
    Nothing,
    ShogiMove,
    Edits(EditLog),
}

#[derive(Clone, Debug)]
struct Undo<C> {
    action: Move,
    turn: Turn,
    cards: C,
    board: BoardUndo,
    turn_start_pushed: bool,
}

/// A turn-start position as repetition compares it.
#[derive(Clone, Copy, Debug)]
struct TurnStart {
    hash: u64,
    side: Color,
    in_check: bool,
    /// How many earlier turn starts had this position (capped at 3): part of the game's
    /// hash, so that a search table never answers for a position with another repetition
    /// count (the fourth occurrence is a draw, the first is not).
    earlier: u8,
}

/// A Central Madness game: the shogi position, the cards as the model `C` knows them, the
/// turn state and the history of actions.
#[derive(Clone, Debug)]
pub struct MadnessGame<C: CardModel> {
    pos: Position,
    start_sfen: String,
    cards: C,
    turn: Turn,
    undo: Vec<Undo<C>>,
    turn_starts: Vec<TurnStart>,
    /// The entering-king rule a declaration is judged by (RULES.md §5.4: standard shogi's;
    /// the CSA 27-point rule unless the player chose another).
    declaration_rule: EnteringKingRule,
}

impl TrueGame {
    /// The start position, before the deal.
    pub fn startpos() -> TrueGame {
        MadnessGame::new(Position::startpos(), TrueCards::default())
    }

    /// A board from an SFEN (two pawns on a file allowed), before the deal, full deck.
    pub fn from_sfen(sfen: &str) -> Result<TrueGame, NotationError> {
        let pos = Position::from_sfen_with(sfen, SfenRules::DoubledPawnsAllowed)?;
        Ok(MadnessGame::new(pos, TrueCards::default()))
    }
}

/// The referee's game before the deal; the Madness has no rule options.
impl GameStart for TrueGame {
    fn set_up(sfen: Option<&str>, _: &RuleOptions) -> Result<Self, NotationError> {
        sfen.map_or_else(|| Ok(TrueGame::startpos()), TrueGame::from_sfen)
    }
}

impl PlayerView {
    /// `me`'s view of the start position, before the deal.
    pub fn startpos(me: Color) -> PlayerView {
        MadnessGame::new(Position::startpos(), ViewCards::new(me))
    }

    /// `me`'s view of a board from an SFEN, before the deal.
    pub fn from_sfen(sfen: &str, me: Color) -> Result<PlayerView, NotationError> {
        let pos = Position::from_sfen_with(sfen, SfenRules::DoubledPawnsAllowed)?;
        Ok(MadnessGame::new(pos, ViewCards::new(me)))
    }
}

impl<C: CardModel> MadnessGame<C> {
    /// A game on `pos` with the card state `cards`, about to deal.
    pub fn new(pos: Position, cards: C) -> MadnessGame<C> {
        MadnessGame {
            start_sfen: pos.to_sfen(),
            pos,
            cards,
            turn: Turn::deal(),
            undo: Vec::new(),
            turn_starts: Vec::new(),
            declaration_rule: EnteringKingRule::default(),
        }
    }

    /// Reads the argument of a USI `position` command, `startpos [moves <tokens>]` or
    /// `sfen <board> <side> <hands> [<number>] [moves <tokens>]`, for a game whose cards
    /// start as `cards` (a full deck before the deal), and plays the tokens.
    pub fn from_position_text(text: &str, cards: C) -> Result<MadnessGame<C>, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let args = PositionArgs::read(&words)?;
        let pos = match &args.sfen {
            None => Position::startpos(),
            Some(sfen) => Position::from_sfen_with(sfen, SfenRules::DoubledPawnsAllowed)?,
        };
        let mut game = MadnessGame::new(pos, cards);
        game.play_texts(args.moves)?;
        Ok(game)
    }

    /// The argument of a USI `position` command that rebuilds this game:
    /// `sfen <start> moves <every token played>`.
    pub fn position_text(&self) -> String {
        let mut replay = MadnessGame::new(
            Position::from_sfen_with(&self.start_sfen, SfenRules::DoubledPawnsAllowed)
                .expect("the start SFEN was read once already"),
            self.undo
                .first()
                .map_or(self.cards.clone(), |u| u.cards.clone()),
        );
        let mut text = format!("sfen {}", self.start_sfen);
        if !self.undo.is_empty() {
            text.push_str(" moves");
        }
        for action in self.played_actions() {
            text.push(' ');
            text.push_str(&replay.action_text(action));
            Game::play(&mut replay, action);
        }
        text
    }

    /// The board, hands and side to move.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn cards(&self) -> &C {
        &self.cards
    }

    /// The board as the game ended, to be drawn. A game won by taking a king (a normal move
    /// onto it, or X's slide from 5e onto it) ends without the rules moving the board, so
    /// here the taking piece stands on the king's square, as it landed (promoted if the move
    /// promoted). Any other position is the board as it stands.
    pub fn final_board(&self) -> Position {
        let mut board = self.pos.clone();
        if let Some((from, to, landed)) = self.king_taken() {
            board.set_square(from, None);
            board.set_square(to, Some(landed));
        }
        board
    }

    /// The square the winner's piece left, the king's square it took and the piece as it
    /// landed there, when the last action of a finished game took a king.
    fn king_taken(&self) -> Option<(Square, Square, Piece)> {
        let Phase::Over(winner) = self.turn.phase else {
            return None;
        };
        let action = self.undo.last()?.action;
        let (from, to, promote) = match Token::from_move(action) {
            None => (action.from()?, action.to(), action.is_promotion()),
            Some(Token::Card(v) | Token::Die(v)) if v.get() <= 8 => {
                (CENTER, slide_destination(&self.pos, winner, v)?, false)
            }
            Some(_) => return None,
        };
        let victim = self.pos.piece_at(to)?;
        let taker = self.pos.piece_at(from)?;
        if victim.kind() != Kind::King || victim.color() == winner || taker.color() != winner {
            return None;
        }
        let landed = if promote {
            Piece::new(winner, taker.kind().promoted())
        } else {
            taker
        };
        Some((from, to, landed))
    }

    pub fn phase(&self) -> Phase {
        self.turn.phase
    }

    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// The square of the piece the madness moved or flipped this turn.
    pub fn frozen_square(&self) -> Option<Square> {
        self.turn.frozen
    }

    /// True after a 0/10 effect this turn: no drops.
    pub fn drops_forbidden(&self) -> bool {
        self.turn.no_drops
    }

    /// Chooses the entering-king rule declarations are judged by.
    pub fn set_declaration_rule(&mut self, rule: EnteringKingRule) {
        self.declaration_rule = rule;
    }

    /// Judges an entering-king declaration (`win`) by the player to act, RULES.md §5.4: it
    /// takes the place of the normal move, so it may be made only at the normal-move
    /// decision, and standard shogi's conditions are judged on the board as the madness phase
    /// of this turn left it. `Ok` if it wins, else why not, in words.
    pub fn judge_declaration(&self) -> Result<(), String> {
        match self.phase() {
            Phase::Normal => self.pos.judge_declaration(self.declaration_rule),
            _ => Err(format!(
                "a declaration takes the place of the normal move, and now {}",
                self.what_comes_next()
            )),
        }
    }

    /// Whether the player to act may declare a win now.
    pub fn can_declare_win(&self) -> bool {
        self.phase() == Phase::Normal && self.pos.can_declare_win(self.declaration_rule)
    }

    /// The SFEN the game started from.
    pub fn start_sfen(&self) -> &str {
        &self.start_sfen
    }

    /// Every action played since the start, oldest first.
    pub fn played_actions(&self) -> impl Iterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.action)
    }

    /// The protocol text of an action (`7g7f`, `P*5e`, `roll`, `r:10`, `draw:?`, `mad+`).
    pub fn action_text(&self, action: Move) -> String {
        match Token::from_move(action) {
            Some(token) => token.text(),
            None => self.pos.move_to_usi(action),
        }
    }

    /// Reads one action in the current state; an error if it is malformed or cannot be
    /// played here.
    pub fn parse_action(&self, text: &str) -> Result<Move, NotationError> {
        let action = match Token::parse(text)? {
            Some(token) => token.to_move(),
            None => {
                let wanted = text.strip_suffix('=').unwrap_or(text);
                let mut legal = MoveList::new();
                if self.turn.phase == Phase::Normal {
                    self.normal_moves(&mut legal);
                }
                legal
                    .iter()
                    .copied()
                    .find(|m| self.pos.move_to_usi(*m) == wanted)
                    .ok_or_else(|| {
                        NotationError::Move(format!(
                            "{text} is not a legal move here: {} (position {})",
                            self.what_comes_next(),
                            self.pos.to_sfen()
                        ))
                    })?
            }
        };
        if self.accepts(action) {
            Ok(action)
        } else if Token::from_move(action) == Some(Token::DrawHidden) {
            Err(NotationError::Move(format!(
                "{text} hides a card its own player must see: a player is sent the value of \
                 each card it draws (draw:N) and draw:? only for the opponent's ({})",
                self.what_comes_next()
            )))
        } else if let (Some(viewer), Some(drawer), Some(Token::Draw(_))) = (
            self.cards.viewer(),
            self.drawer().filter(|d| Some(*d) != self.cards.viewer()),
            Token::from_move(action),
        ) {
            Err(NotationError::Move(format!(
                "{text} cannot be played here: {}'s card is drawn next, and {}'s view does \
                 not see it: write draw:? for it",
                drawer.name(),
                viewer.name()
            )))
        } else {
            Err(NotationError::Move(format!(
                "{text} cannot be played here: {} (position {})",
                self.what_comes_next(),
                self.pos.to_sfen()
            )))
        }
    }

    /// Who draws a card at this node, if it is a deal or a replacement draw.
    fn drawer(&self) -> Option<Color> {
        match self.turn.phase {
            Phase::Deal(receiver) => Some(receiver),
            Phase::Draw => Some(self.pos.side_to_move()),
            _ => None,
        }
    }

    /// What the game waits for, in the game's words (for error messages): whose card is
    /// dealt, whether the mover must play its card or roll, the die, the promotion choice,
    /// the replacement card or the ordinary move.
    pub fn what_comes_next(&self) -> String {
        let side = self.pos.side_to_move().name();
        match self.turn.phase {
            Phase::Deal(receiver) => format!(
                "{}'s card is dealt next: write draw:N, or draw:? when you don't know it",
                receiver.name()
            ),
            Phase::MadnessChoice => format!(
                "{side} has a piece on 5e and must first play its card (c:N) or roll the die \
                 (roll)"
            ),
            Phase::Roll => "the die is rolled next: write r:N (r:1 to r:10)".to_string(),
            Phase::Promotion(square) => format!(
                "the piece the madness moved to {} may promote: write mad+ or mad=",
                square.to_usi::<Geo>()
            ),
            Phase::Draw => format!(
                "{side} draws the card that replaces the one played: write draw:N, or draw:? \
                 when you don't know it"
            ),
            Phase::Normal if self.turn.madness_done => {
                format!("{side} makes its ordinary move or drop")
            }
            Phase::Normal => format!(
                "{side} makes its ordinary move or drop (no piece of {side}'s stands on 5e, so \
                 there is no card or roll this turn)"
            ),
            Phase::Over(winner) => format!("the game is over: {} won", winner.name()),
        }
    }

    /// Parses and plays each action in turn; stops at the first bad one.
    pub fn play_texts<'a>(
        &mut self,
        texts: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), NotationError> {
        for text in texts {
            let action = self.parse_action(text)?;
            Game::play(self, action);
        }
        Ok(())
    }

    /// Whether `action` may be played now: a legal action or chance outcome, or what a
    /// token stream may carry here (the referee's value of one's own draw; the opponent's
    /// actual `c:N`/`roll` at the chance node that would reveal its card).
    pub fn accepts(&self, action: Move) -> bool {
        let us = self.pos.side_to_move();
        match (self.turn.phase, Token::from_move(action)) {
            (Phase::Deal(c), Some(t)) => self.cards.accepts_draw(c, t),
            (Phase::Draw, Some(t)) => self.cards.accepts_draw(us, t),
            (Phase::MadnessChoice, Some(Token::Card(v))) => self.cards.could_hold(us, v),
            (Phase::MadnessChoice, Some(Token::Roll)) => true,
            (Phase::MadnessChoice, Some(Token::Draw(v))) => {
                self.cards.card_of(us).is_none()
                    && self
                        .cards
                        .reveal_outcomes(us)
                        .iter()
                        .any(|(m, _)| *m == Token::Draw(v).to_move())
            }
            (Phase::Roll, Some(Token::Die(_))) => true,
            (Phase::Promotion(_), Some(Token::Promote | Token::Decline)) => true,
            (Phase::Normal, None) => {
                let mut legal = MoveList::new();
                self.normal_moves(&mut legal);
                legal.contains(&action)
            }
            _ => false,
        }
    }

    /// Starts the turn of the side to move: madness if it holds 5e.
    fn begin_turn(&mut self) {
        let us = self.pos.side_to_move();
        let holds_center = self.pos.piece_at(CENTER).is_some_and(|p| p.color() == us);
        self.turn = Turn {
            phase: if holds_center {
                Phase::MadnessChoice
            } else {
                Phase::Normal
            },
            frozen: None,
            no_drops: false,
            draw_pending: false,
            madness_done: false,
        };
        let hash = self.pos.hash();
        let earlier = self
            .turn_starts
            .iter()
            .filter(|t| t.hash == hash)
            .take(3)
            .count() as u8;
        self.turn_starts.push(TurnStart {
            earlier,
            hash,
            side: us,
            in_check: self.pos.in_check(),
        });
    }

    /// What follows a finished madness effect.
    fn after_effect(&self) -> Phase {
        if self.turn.draw_pending {
            Phase::Draw
        } else {
            Phase::Normal
        }
    }

    /// Where X on 5e stops sliding toward value `v`'s direction (1..=8), or `None` if its
    /// first step is blocked by a friendly piece or the edge (the effect fails).
    fn slide_destination(&self, v: CardValue) -> Option<Square> {
        slide_destination(&self.pos, self.pos.side_to_move(), v)
    }

    fn edit(&mut self, log: &mut EditLog, sq: Square, piece: Option<Piece>) {
        log.squares.push((sq, self.pos.piece_at(sq)));
        self.pos.set_square(sq, piece);
    }

    fn gain_in_hand(&mut self, log: &mut EditLog, color: Color, kind: Kind) {
        log.hand_gain = Some((color, kind));
        self.pos.change_hand(color, kind, true);
    }

    fn revert(&mut self, log: EditLog) {
        if let Some((color, kind)) = log.hand_gain {
            self.pos.change_hand(color, kind, false);
        }
        for (sq, piece) in log.squares.into_iter().rev() {
            self.pos.set_square(sq, piece);
        }
    }

    /// Applies the madness effect of value `v` to X on 5e and sets the next phase.
    fn apply_effect(&mut self, v: CardValue) -> BoardUndo {
        let us = self.pos.side_to_move();
        let x = self.pos.piece_at(CENTER).expect("the mover's piece on 5e");
        let t = self.pos.tables();
        let mut log = EditLog::default();
        self.turn.madness_done = true;
        self.turn.phase = self.after_effect();
        match v.get() {
            1..=8 => {
                let Some(to) = self.slide_destination(v) else {
                    return BoardUndo::Nothing;
                };
                let victim = self.pos.piece_at(to);
                if victim.is_some_and(|p| p.kind() == Kind::King) {
                    self.turn.phase = Phase::Over(us);
                    return BoardUndo::Nothing;
                }
                let kind = x.kind();
                let promotable = kind.can_promote();
                let must_promote =
                    promotable && !t.board.alive[us.index()][kind.index()].contains(to);
                let may_promote =
                    promotable && !must_promote && t.board.zone[us.index()].contains(to);
                self.edit(&mut log, CENTER, None);
                if let Some(victim) = victim {
                    let gained = victim.kind().in_hand().expect("not a king");
                    self.gain_in_hand(&mut log, us, gained);
                }
                let landed = if must_promote {
                    Piece::new(us, kind.promoted())
                } else {
                    x
                };
                self.edit(&mut log, to, Some(landed));
                self.turn.frozen = Some(to);
                if may_promote {
                    self.turn.phase = Phase::Promotion(to);
                }
            }
            9 => {
                let kind = x.kind();
                let flipped = if kind.can_promote() {
                    kind.promoted()
                } else if kind.rules().is_promoted {
                    kind.in_hand().expect("a promoted piece demotes")
                } else {
                    return BoardUndo::Nothing;
                };
                self.edit(&mut log, CENTER, Some(Piece::new(us, flipped)));
                self.turn.frozen = Some(CENTER);
            }
            _ => {
                if x.kind() == Kind::King {
                    self.turn.phase = Phase::Over(us.flip());
                    return BoardUndo::Nothing;
                }
                self.edit(&mut log, CENTER, None);
                let kind = x.kind().in_hand().expect("not a king");
                self.gain_in_hand(&mut log, us, kind);
                self.turn.no_drops = true;
            }
        }
        #[cfg(debug_assertions)]
        self.pos.assert_consistent();
        BoardUndo::Edits(log)
    }

    /// The legal normal moves of the mover after the madness phase.
    fn normal_moves(&self, out: &mut MoveList) {
        let us = self.pos.side_to_move();
        let occupied = self.pos.occupied();
        let enemy_king = self
            .pos
            .king_square(us.flip())
            .filter(|k| self.pos.is_attacked(*k, us, occupied));
        let frozen = self.turn.frozen;
        let no_drops = self.turn.no_drops;
        if enemy_king.is_none() && frozen.is_none() && !no_drops {
            self.pos.generate_legal(out);
            return;
        }
        let mut shogi_moves = MoveList::new();
        self.pos.generate_legal(&mut shogi_moves);
        let pawn_drop_check = enemy_king.and_then(|k| self.pos.tables().square_ahead(us.flip(), k));
        for &mv in shogi_moves.iter() {
            if (mv.is_drop() && no_drops) || (mv.from().is_some() && mv.from() == frozen) {
                continue;
            }
            if let Some(king) = enemy_king {
                // King captures are added below, all of them.
                if !mv.is_drop() && mv.to() == king {
                    continue;
                }
                // Shogi's analytic uchifuzume test assumes the king was not in check before
                // the drop; here it may be, so try the drop.
                if mv.dropped_kind() == Some(Kind::Pawn.id())
                    && Some(mv.to()) == pawn_drop_check
                    && self.pawn_drop_mates(mv)
                {
                    continue;
                }
            }
            out.push(mv);
        }
        if let Some(king) = enemy_king {
            for from in self.pos.attackers_to(king, us, occupied).squares() {
                if Some(from) == frozen {
                    continue;
                }
                let piece = self.pos.piece_at(from).expect("an attacker");
                self.pos
                    .push_board_moves(piece, from, Bb128::from_square(king), out);
            }
        }
    }

    /// True if the pawn drop `mv` leaves the opponent without a legal shogi reply.
    fn pawn_drop_mates(&self, mv: Move) -> bool {
        let mut after = self.pos.clone();
        after.play(mv);
        !after.has_legal_move()
    }

    /// True if the normal move `mv` captures the enemy king (the game then ends without the
    /// move being played on the board).
    pub fn captures_king(&self, mv: Move) -> bool {
        !mv.is_drop() && self.pos.king_square(self.pos.side_to_move().flip()) == Some(mv.to())
    }

    /// The result of fourfold repetition of turn-start positions, if it has happened.
    fn repetition_outcome(&self) -> Option<Outcome> {
        let records = &self.turn_starts;
        let now = *records.last()?;
        let last = records.len() - 1;
        let earlier: Vec<usize> = (0..last)
            .rev()
            .filter(|&i| records[i].hash == now.hash)
            .collect();
        if earlier.len() + 1 < REPETITIONS_TO_END {
            return None;
        }
        let first = earlier[REPETITIONS_TO_END - 2];
        let mut always_checked = [true; 2];
        for j in first..last {
            if !records[j + 1].in_check {
                always_checked[records[j].side.index()] = false;
            }
        }
        match always_checked {
            [true, false] => Some(Outcome::Win(Color::Gote)),
            [false, true] => Some(Outcome::Win(Color::Sente)),
            _ => Some(Outcome::Draw),
        }
    }

    fn die_outcomes() -> Vec<(Move, Weight)> {
        CardValue::ALL
            .into_iter()
            .map(|v| (Token::Die(v).to_move(), Weight(1)))
            .collect()
    }
}

impl<C: CardModel> Game for MadnessGame<C> {
    fn node_kind(&self) -> NodeKind {
        let us = self.pos.side_to_move();
        match self.turn.phase {
            Phase::Deal(c) => NodeKind::Chance(self.cards.draw_outcomes(c)),
            Phase::MadnessChoice => match self.cards.card_of(us) {
                Some(_) => NodeKind::Decision(us),
                None => NodeKind::Chance(self.cards.reveal_outcomes(us)),
            },
            Phase::Roll => NodeKind::Chance(Self::die_outcomes()),
            Phase::Draw => NodeKind::Chance(self.cards.draw_outcomes(us)),
            Phase::Promotion(_) | Phase::Normal | Phase::Over(_) => NodeKind::Decision(us),
        }
    }

    fn legal_actions(&self, out: &mut MoveList) {
        match self.turn.phase {
            Phase::Normal => self.normal_moves(out),
            Phase::Over(_) => {}
            Phase::Promotion(_) => {
                out.push(Token::Promote.to_move());
                out.push(Token::Decline.to_move());
            }
            Phase::MadnessChoice => match self.cards.card_of(self.pos.side_to_move()) {
                Some(card) => {
                    out.push(Token::Card(card).to_move());
                    out.push(Token::Roll.to_move());
                }
                None => out.extend(
                    self.cards
                        .reveal_outcomes(self.pos.side_to_move())
                        .into_iter()
                        .map(|(m, _)| m),
                ),
            },
            Phase::Deal(_) | Phase::Roll | Phase::Draw => {
                if let NodeKind::Chance(outcomes) = self.node_kind() {
                    out.extend(outcomes.into_iter().map(|(m, _)| m));
                }
            }
        }
    }

    fn count_legal_actions(&self) -> u64 {
        let plain = self.turn.frozen.is_none() && !self.turn.no_drops;
        if self.turn.phase == Phase::Normal && plain {
            let us = self.pos.side_to_move();
            let king_safe = self
                .pos
                .king_square(us.flip())
                .is_none_or(|k| !self.pos.is_attacked(k, us, self.pos.occupied()));
            if king_safe {
                return self.pos.count_legal();
            }
        }
        let mut out = MoveList::new();
        self.legal_actions(&mut out);
        out.len() as u64
    }

    fn play(&mut self, action: Move) {
        let us = self.pos.side_to_move();
        let mut undo = Undo {
            action,
            turn: self.turn,
            cards: self.cards.clone(),
            board: BoardUndo::Nothing,
            turn_start_pushed: false,
        };
        match (self.turn.phase, Token::from_move(action)) {
            (Phase::Deal(color), Some(token)) => {
                self.cards.apply_draw(color, token);
                if color == Color::Sente {
                    self.turn.phase = Phase::Deal(Color::Gote);
                } else {
                    self.begin_turn();
                    undo.turn_start_pushed = true;
                }
            }
            (Phase::MadnessChoice, Some(Token::Draw(card))) => self.cards.reveal(us, card),
            (Phase::MadnessChoice, Some(Token::Card(card))) => {
                self.cards.discard(us, card);
                self.turn.draw_pending = true;
                undo.board = self.apply_effect(card);
            }
            (Phase::MadnessChoice, Some(Token::Roll)) => {
                self.cards.after_roll(us);
                self.turn.phase = Phase::Roll;
            }
            (Phase::Roll, Some(Token::Die(value))) => undo.board = self.apply_effect(value),
            (Phase::Promotion(sq), Some(Token::Promote)) => {
                let piece = self.pos.piece_at(sq).expect("the mad piece");
                let mut log = EditLog::default();
                self.edit(&mut log, sq, Some(Piece::new(us, piece.kind().promoted())));
                undo.board = BoardUndo::Edits(log);
                self.turn.phase = self.after_effect();
            }
            (Phase::Promotion(_), Some(Token::Decline)) => self.turn.phase = self.after_effect(),
            (Phase::Draw, Some(token)) => {
                self.cards.apply_draw(us, token);
                self.turn.draw_pending = false;
                self.turn.phase = Phase::Normal;
            }
            (Phase::Normal, None) => {
                if self.captures_king(action) {
                    self.turn.phase = Phase::Over(us);
                } else {
                    self.pos.play(action);
                    undo.board = BoardUndo::ShogiMove;
                    self.begin_turn();
                    undo.turn_start_pushed = true;
                }
            }
            (phase, _) => panic!(
                "{} cannot be played in phase {phase:?}",
                self.action_text(action)
            ),
        }
        self.undo.push(undo);
    }

    fn unplay(&mut self) {
        let undo = self.undo.pop().expect("an action to take back");
        if undo.turn_start_pushed {
            self.turn_starts.pop();
        }
        match undo.board {
            BoardUndo::Nothing => {}
            BoardUndo::ShogiMove => self.pos.unplay(),
            BoardUndo::Edits(log) => {
                self.revert(log);
                #[cfg(debug_assertions)]
                self.pos.assert_consistent();
            }
        }
        self.turn = undo.turn;
        self.cards = undo.cards;
    }

    fn hash(&self) -> u64 {
        let repeated = self.turn_starts.last().map_or(0, |t| t.earlier as u64);
        self.pos.hash() ^ self.cards.hash() ^ self.turn.hash() ^ mix(0x5245_5045_4154 + repeated)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.turn.phase {
            Phase::Over(winner) => Some(Outcome::Win(winner)),
            Phase::Normal => {
                if self.count_legal_actions() == 0 {
                    return Some(Outcome::Win(self.pos.side_to_move().flip()));
                }
                if self.turn.madness_done {
                    None
                } else {
                    self.repetition_outcome()
                }
            }
            Phase::MadnessChoice => self.repetition_outcome(),
            _ => None,
        }
    }
}
