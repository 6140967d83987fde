//! The state of a Shogammon game: two layers per square (the free upper piece and the
//! immobile lower piece of a point), hands, side to move, the dice still to use this turn, a
//! point capture half done, the incremental zobrist hash, and the undo history.
//!
//! The two mailboxes are the source of truth; the colour and point bitboards are caches of
//! them. Every change to a square goes through one helper that keeps caches and hash in step,
//! and debug builds recompute everything after each `play` and `unplay`.

use super::dice::{DiceLeft, DiceUse, Die, Roll, ShogammonDice};
use super::Geo;
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::dropshogi::DropPiece;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::position::Hand;
use crate::rules::variants::shogi::tables::{tables, Tables};
use crate::rules::variants::shogi::{Kind, Piece};
use crate::rules::zobrist::KeyStream;
use std::sync::OnceLock;

type Bb = Bb128;
const SQUARES: usize = 81;

/// The first half of a point capture: `piece` (as it landed, promoted or not) has moved onto
/// the enemy point on `square` and waits there for a second piece to complete the capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PendingCapture {
    pub square: Square,
    pub piece: Piece,
}

/// Zobrist keys of the Shogammon state (separate from shogi's: two layers, dice, pending).
struct Keys {
    top: [[u64; SQUARES]; 2 * Kind::COUNT],
    bottom: [[u64; SQUARES]; 2 * Kind::COUNT],
    pending: [[u64; SQUARES]; 2 * Kind::COUNT],
    hand: [[[u64; 19]; 7]; 2],
    /// Per die value (index 1–6) and how many dice of that value are left (0 hashes to 0).
    dice: [[u64; 3]; 7],
    side: u64,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut stream = KeyStream::new(0x5348_4F47_414D);
        let mut fill = |n: &mut u64| *n = stream.next_key();
        let mut k = Keys {
            top: [[0; SQUARES]; 2 * Kind::COUNT],
            bottom: [[0; SQUARES]; 2 * Kind::COUNT],
            pending: [[0; SQUARES]; 2 * Kind::COUNT],
            hand: [[[0; 19]; 7]; 2],
            dice: [[0; 3]; 7],
            side: 0,
        };
        for table in [&mut k.top, &mut k.bottom, &mut k.pending] {
            table.iter_mut().flatten().for_each(&mut fill);
        }
        for per_kind in k.hand.iter_mut().flatten() {
            per_kind.iter_mut().skip(1).for_each(&mut fill);
        }
        for per_value in k.dice.iter_mut().skip(1) {
            per_value.iter_mut().skip(1).for_each(&mut fill);
        }
        fill(&mut k.side);
        k
    })
}

/// What `unplay` needs, pushed by every `play`.
#[derive(Clone, Copy, Debug)]
struct Undo {
    action: Move,
    hash: u64,
    side: Color,
    turn_number: u32,
    dice: DiceLeft,
    pending: Option<PendingCapture>,
    winner: Option<Color>,
    /// The origin square's two layers before a board move.
    from_before: [Option<Piece>; 2],
    /// The destination square's two layers before a board move or drop.
    to_before: [Option<Piece>; 2],
    /// Pieces that went to the mover's hand (as they stood on the board).
    captured: [Option<Piece>; 2],
}

/// A Shogammon position with its action history.
#[derive(Clone)]
pub struct Position {
    /// The free piece of each square: a single piece, or the upper piece of a point.
    top: [Option<Piece>; SQUARES],
    /// The immobile lower piece of a point (only where `top` is occupied).
    bottom: [Option<Piece>; SQUARES],
    by_color: [Bb; 2],
    points: Bb,
    hands: [Hand; 2],
    side: Color,
    /// Turns completed since the SFEN's move number (the SFEN move number counts turns).
    turn_number: u32,
    dice: DiceLeft,
    pending: Option<PendingCapture>,
    winner: Option<Color>,
    hash: u64,
    history: Vec<Undo>,
    dice_table: ShogammonDice,
    dice_use: DiceUse,
    tables: &'static Tables,
}

impl Position {
    /// An empty board, sente to roll; callers fill it through [`Position::put`].
    pub(super) fn empty(dice_table: ShogammonDice) -> Position {
        Position {
            top: [None; SQUARES],
            bottom: [None; SQUARES],
            by_color: [Bb::EMPTY; 2],
            points: Bb::EMPTY,
            hands: [Hand::default(); 2],
            side: Color::Sente,
            turn_number: 1,
            dice: DiceLeft::default(),
            pending: None,
            winner: None,
            hash: 0,
            history: Vec::new(),
            dice_table,
            dice_use: DiceUse::default(),
            tables: tables(),
        }
    }

    /// Places a single piece or (with `bottom`) a point while setting up.
    pub(super) fn put(&mut self, sq: Square, top: Piece, bottom: Option<Piece>) {
        self.set_square(sq, Some(top), bottom);
    }

    /// Finishes a set-up: side, hands and move number; computes the hash.
    pub(super) fn finish_setup(&mut self, side: Color, hands: [Hand; 2], turn_number: u32) {
        self.side = side;
        self.hands = hands;
        self.turn_number = turn_number;
        self.hash = self.compute_hash();
    }

    #[inline]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    #[inline]
    pub fn dice_table(&self) -> &ShogammonDice {
        &self.dice_table
    }

    #[inline]
    pub fn dice_use(&self) -> DiceUse {
        self.dice_use
    }

    /// Chooses the dice-use rule (a game setting, like the die table; not in the hash).
    pub fn set_dice_use(&mut self, rule: DiceUse) {
        self.dice_use = rule;
    }

    /// The player whose turn it is (who rolls next, or who uses the dice left).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The free piece on `sq` (a single, or the upper piece of a point).
    #[inline]
    pub fn top(&self, sq: Square) -> Option<Piece> {
        self.top[sq.index()]
    }

    /// The lower piece of a point on `sq`.
    #[inline]
    pub fn bottom(&self, sq: Square) -> Option<Piece> {
        self.bottom[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bb {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding `color`'s pieces (singles and points).
    #[inline]
    pub fn squares_of(&self, color: Color) -> Bb {
        self.by_color[color.index()]
    }

    /// Squares holding a point (two pieces) of either side.
    #[inline]
    pub fn points(&self) -> Bb {
        self.points
    }

    #[inline]
    pub fn dice_left(&self) -> DiceLeft {
        self.dice
    }

    #[inline]
    pub fn pending_capture(&self) -> Option<PendingCapture> {
        self.pending
    }

    /// The side that captured the other's king, if the game is over.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The SFEN move number: the number of the current turn.
    #[inline]
    pub fn turn_number(&self) -> u32 {
        self.turn_number
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// True when the next action is the roll of a new turn.
    #[inline]
    pub fn awaiting_roll(&self) -> bool {
        self.winner.is_none() && self.dice.is_empty()
    }

    /// The actions played since set-up, oldest first.
    pub fn played_actions(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.action)
    }

    /// Sets both layers of `sq`, keeping the bitboards and the hash in step.
    fn set_square(&mut self, sq: Square, top: Option<Piece>, bottom: Option<Piece>) {
        debug_assert!(top.is_some() || bottom.is_none());
        let k = keys();
        let i = sq.index();
        if let Some(p) = self.top[i] {
            self.hash ^= k.top[p.index()][i];
        }
        if let Some(p) = self.bottom[i] {
            self.hash ^= k.bottom[p.index()][i];
        }
        if let Some(p) = top {
            self.hash ^= k.top[p.index()][i];
        }
        if let Some(p) = bottom {
            self.hash ^= k.bottom[p.index()][i];
        }
        self.top[i] = top;
        self.bottom[i] = bottom;
        self.refresh_caches(sq);
    }

    /// Rewrites the bitboard bits of `sq` from the mailboxes.
    fn refresh_caches(&mut self, sq: Square) {
        let bit = Bb::from_square(sq);
        for color in Color::BOTH {
            self.by_color[color.index()] = self.by_color[color.index()].and_not(bit);
        }
        self.points = self.points.and_not(bit);
        if let Some(p) = self.top[sq.index()] {
            self.by_color[p.color().index()] |= bit;
        }
        if self.bottom[sq.index()].is_some() {
            self.points |= bit;
        }
    }

    fn hand_add(&mut self, color: Color, kind: Kind) {
        let n = self.hands[color.index()].count(kind) as usize;
        let keys = &keys().hand[color.index()][kind.index()];
        self.hash ^= keys[n] ^ keys[n + 1];
        self.hands[color.index()].add(kind);
    }

    fn hand_remove(&mut self, color: Color, kind: Kind) {
        let n = self.hands[color.index()].count(kind) as usize;
        let keys = &keys().hand[color.index()][kind.index()];
        self.hash ^= keys[n] ^ keys[n - 1];
        self.hands[color.index()].remove(kind);
    }

    fn set_dice(&mut self, dice: DiceLeft) {
        self.hash ^= dice_hash(self.dice) ^ dice_hash(dice);
        self.dice = dice;
    }

    fn set_pending(&mut self, pending: Option<PendingCapture>) {
        self.hash ^= pending_hash(self.pending) ^ pending_hash(pending);
        self.pending = pending;
    }

    /// Sends a captured piece to the mover's hand; notes a king capture.
    fn capture(&mut self, victim: Piece) {
        match victim.kind().in_hand() {
            Some(kind) => self.hand_add(self.side, kind),
            None => self.winner = Some(self.side),
        }
    }

    /// The die an action uses: the die of the piece moved or dropped.
    pub fn die_of_action(&self, action: Move) -> Option<Die> {
        if action.is_pass() || action.chance_code().is_some() {
            return None;
        }
        let kind = match action.dropped_kind() {
            Some(kind) => Kind::from_index(kind.0)?,
            None => self.top[action.from()?.index()]?.kind(),
        };
        Some(self.dice_table.die_of(kind))
    }

    /// Plays a legal action (a roll at the start of a turn, or a die action or `pass`).
    pub fn play(&mut self, action: Move) {
        let mut undo = Undo {
            action,
            hash: self.hash,
            side: self.side,
            turn_number: self.turn_number,
            dice: self.dice,
            pending: self.pending,
            winner: self.winner,
            from_before: [None; 2],
            to_before: [None; 2],
            captured: [None; 2],
        };
        if let Some(roll) = Roll::from_move(action) {
            debug_assert!(self.awaiting_roll());
            self.set_dice(DiceLeft::of_roll(roll));
        } else if action.is_pass() {
            let lost = self
                .die_to_pass()
                .expect("pass is legal only with an unusable die");
            self.set_dice(self.dice.without(lost));
        } else {
            let die = self.die_of_action(action).expect("a die action");
            let us = self.side;
            let to = action.to();
            undo.to_before = [self.top[to.index()], self.bottom[to.index()]];
            let arriving = match action.from() {
                None => {
                    let kind = Kind::from_index(action.dropped_kind().expect("drop").0)
                        .expect("hand kind");
                    self.hand_remove(us, kind);
                    Piece::new(us, kind)
                }
                Some(from) => {
                    let moving = self.top[from.index()].expect("a piece to move");
                    let below = self.bottom[from.index()];
                    undo.from_before = [Some(moving), below];
                    self.set_square(from, below, None);
                    moving.landing(action)
                }
            };
            match (self.top[to.index()], self.bottom[to.index()]) {
                (None, _) => self.set_square(to, Some(arriving), None),
                (Some(single), None) if single.color() == us => {
                    self.set_square(to, Some(arriving), Some(single))
                }
                (Some(single), None) => {
                    self.capture(single);
                    undo.captured = [Some(single), None];
                    self.set_square(to, Some(arriving), None);
                }
                (Some(upper), Some(lower)) => match self.pending {
                    None => self.set_pending(Some(PendingCapture {
                        square: to,
                        piece: arriving,
                    })),
                    Some(first) => {
                        debug_assert_eq!(first.square, to);
                        self.set_pending(None);
                        self.capture(upper);
                        self.capture(lower);
                        undo.captured = [Some(upper), Some(lower)];
                        self.set_square(to, Some(arriving), Some(first.piece));
                    }
                },
            }
            self.set_dice(self.dice.without(die));
        }
        if self.dice.is_empty() && self.winner.is_none() && action.chance_code().is_none() {
            self.side = self.side.flip();
            self.hash ^= keys().side;
            self.turn_number += 1;
        }
        self.history.push(undo);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last action. Panics if there is none.
    pub fn unplay(&mut self) {
        let undo = self.history.pop().expect("an action to take back");
        self.side = undo.side;
        if undo.action.chance_code().is_none() && !undo.action.is_pass() {
            let to = undo.action.to();
            self.top[to.index()] = undo.to_before[0];
            self.bottom[to.index()] = undo.to_before[1];
            self.refresh_caches(to);
            match undo.action.from() {
                Some(from) => {
                    self.top[from.index()] = undo.from_before[0];
                    self.bottom[from.index()] = undo.from_before[1];
                    self.refresh_caches(from);
                }
                None => {
                    let kind = Kind::from_index(undo.action.dropped_kind().expect("drop").0)
                        .expect("hand kind");
                    self.hands[undo.side.index()].add(kind);
                }
            }
            for victim in undo.captured.into_iter().flatten() {
                if let Some(kind) = victim.kind().in_hand() {
                    self.hands[undo.side.index()].remove(kind);
                }
            }
        }
        self.turn_number = undo.turn_number;
        self.dice = undo.dice;
        self.pending = undo.pending;
        self.winner = undo.winner;
        self.hash = undo.hash;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// The zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let k = keys();
        let mut hash = 0;
        for i in 0..SQUARES {
            if let Some(p) = self.top[i] {
                hash ^= k.top[p.index()][i];
            }
            if let Some(p) = self.bottom[i] {
                hash ^= k.bottom[p.index()][i];
            }
        }
        for color in Color::BOTH {
            for kind in Kind::HAND {
                hash ^= k.hand[color.index()][kind.index()]
                    [self.hands[color.index()].count(kind) as usize];
            }
        }
        if self.side == Color::Gote {
            hash ^= k.side;
        }
        hash ^ dice_hash(self.dice) ^ pending_hash(self.pending)
    }

    /// Panics if a cache disagrees with the mailboxes or the hash with a recomputation.
    pub fn assert_consistent(&self) {
        let mut by_color = [Bb::EMPTY; 2];
        let mut points = Bb::EMPTY;
        for sq in Square::all::<Geo>() {
            match (self.top[sq.index()], self.bottom[sq.index()]) {
                (None, None) => {}
                (None, Some(_)) => panic!("a lower piece without an upper one on {sq:?}"),
                (Some(top), bottom) => {
                    by_color[top.color().index()] |= Bb::from_square(sq);
                    if let Some(bottom) = bottom {
                        assert_eq!(bottom.color(), top.color(), "mixed point on {sq:?}");
                        points |= Bb::from_square(sq);
                    }
                }
            }
        }
        assert_eq!(by_color, self.by_color, "colour bitboards out of step");
        assert_eq!(points, self.points, "point bitboard out of step");
        assert_eq!(
            self.compute_hash(),
            self.hash,
            "incremental hash out of step"
        );
        if let Some(pending) = self.pending {
            assert!(
                self.points.contains(pending.square),
                "pending capture off a point"
            );
            assert_eq!(pending.piece.color(), self.side);
        }
    }
}

fn dice_hash(dice: DiceLeft) -> u64 {
    let k = keys();
    (1..=6u8)
        .filter_map(Die::new)
        .map(|d| k.dice[d.value() as usize][dice.count(d)])
        .fold(0, |a, b| a ^ b)
}

fn pending_hash(pending: Option<PendingCapture>) -> u64 {
    pending.map_or(0, |p| keys().pending[p.piece.index()][p.square.index()])
}

impl PartialEq for Position {
    /// Equal when board, hands, side, dice, pending capture and result agree (not history).
    fn eq(&self, other: &Self) -> bool {
        self.top == other.top
            && self.bottom == other.bottom
            && self.hands == other.hands
            && self.side == other.side
            && self.dice == other.dice
            && self.pending == other.pending
            && self.winner == other.winner
            && self.turn_number == other.turn_number
    }
}

impl Position {
    /// The position in the game's words for messages: its SFEN, the dice left to use and a
    /// point capture under way.
    pub fn describe(&self) -> String {
        let dice: Vec<String> = self.dice.dice().map(|d| d.value().to_string()).collect();
        let mut text = format!("{} (dice left: ", self.to_sfen());
        text.push_str(&if dice.is_empty() {
            "none".to_string()
        } else {
            dice.join(" ")
        });
        if let Some(pending) = self.pending {
            text.push_str(&format!(
                "; a point capture waits on {} for its second piece",
                pending.square.to_usi::<Geo>()
            ));
        }
        text.push(')');
        text
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Position({} dice {:?} pending {:?})",
            self.to_sfen(),
            self.dice.dice().map(Die::value).collect::<Vec<_>>(),
            self.pending
        )
    }
}
