//! Move ordering: static exchange evaluation (SEE), the quiet-move heuristics (killers,
//! history, counter-moves) and the picker that hands moves to the search best-first.
//!
//! The legal generator produces every move at once, so the picker scores the whole list and
//! selects lazily: the first few picks by selection (most nodes cut early), then the rest is
//! sorted once.

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList, MAX_MOVES};
use crate::rules::variants::shogi::{Kind, Piece, Position};
use arrayvec::ArrayVec;

/// Piece values for exchanges and ordering, per kind (the king is priceless).
pub const SEE_VALUE: [i32; Kind::COUNT] = [
    100, 330, 400, 530, 800, 950, 580, 20000, 560, 560, 560, 570, 1050, 1250,
];

/// Kinds from least to most valuable, for picking the next recapturer.
const CHEAPEST_FIRST: [Kind; Kind::COUNT] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::Silver,
    Kind::ProPawn,
    Kind::ProLance,
    Kind::ProKnight,
    Kind::ProSilver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
    Kind::Horse,
    Kind::Dragon,
    Kind::King,
];

#[inline]
pub fn value(kind: Kind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// The piece a move puts on its destination square.
#[inline]
pub fn moved_piece(pos: &Position, mv: Move) -> Piece {
    match mv.from() {
        None => Piece::new(
            pos.side_to_move(),
            Kind::from_index(mv.dropped_kind().expect("drop").0).expect("kind"),
        ),
        Some(from) => pos.piece_at(from).expect("a piece to move"),
    }
}

/// The value a promotion adds (0 for other moves).
#[inline]
pub fn promotion_gain(pos: &Position, mv: Move) -> i32 {
    if !mv.is_promotion() {
        return 0;
    }
    let kind = moved_piece(pos, mv).kind();
    value(kind.promoted()) - value(kind)
}

/// The material balance of the exchange `mv` starts on its destination square, assuming
/// both sides recapture with their cheapest piece while it pays (pins are ignored).
pub fn see(pos: &Position, mv: Move) -> i32 {
    let to = mv.to();
    let us = pos.side_to_move();
    let mut occupied = pos.occupied();
    let mover = moved_piece(pos, mv);
    let mut gain = [0i32; 40];
    gain[0] = pos.piece_at(to).map_or(0, |p| value(p.kind())) + promotion_gain(pos, mv);
    let mut on_square = if mv.is_promotion() {
        value(mover.kind().promoted())
    } else {
        value(mover.kind())
    };
    match mv.from() {
        Some(from) => occupied = occupied.without(from),
        None => occupied = occupied.with(to),
    }
    let mut side: Color = us.flip();
    let mut d = 0;
    loop {
        let attackers = pos.attackers_to(to, side, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        let mut found = None;
        for kind in CHEAPEST_FIRST {
            if let Some(sq) = (attackers & pos.pieces_of_kind(kind)).lowest() {
                found = Some((sq, kind));
                break;
            }
        }
        let Some((sq, kind)) = found else { break };
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        if gain[d].max(-gain[d - 1]) < 0 {
            break;
        }
        occupied = occupied.without(sq);
        on_square = value(kind);
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Quiet-move statistics learned during one search (per thread).
pub struct Heuristics {
    pub killers: Vec<[Option<Move>; 2]>,
    /// Indexed by the moved piece (`Piece::index`) and destination.
    history: Vec<[i32; 81]>,
    /// The refutation of a move, indexed by the piece that moved and its destination.
    counter: Vec<[Option<Move>; 81]>,
}

pub const HISTORY_MAX: i32 = 16384;

impl Heuristics {
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; max_ply + 4],
            history: vec![[0; 81]; 2 * Kind::COUNT],
            counter: vec![[None; 81]; 2 * Kind::COUNT],
        }
    }

    #[inline]
    pub fn history(&self, piece: Piece, mv: Move) -> i32 {
        self.history[piece.index()][mv.to().index()]
    }

    #[inline]
    pub fn update_history(&mut self, piece: Piece, mv: Move, bonus: i32) {
        let h = &mut self.history[piece.index()][mv.to().index()];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    #[inline]
    pub fn counter(&self, previous: Option<(Piece, Move)>) -> Option<Move> {
        previous.and_then(|(p, m)| self.counter[p.index()][m.to().index()])
    }

    #[inline]
    pub fn set_counter(&mut self, previous: Option<(Piece, Move)>, mv: Move) {
        if let Some((p, m)) = previous {
            self.counter[p.index()][m.to().index()] = Some(mv);
        }
    }

    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }
}

const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const COUNTER: i32 = (1 << 26) - 2;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Hands out moves best first.
pub struct Picker {
    moves: ArrayVec<(i32, Move), MAX_MOVES>,
    next: usize,
    sorted: bool,
}

/// How many picks are made by selection before the remainder is sorted.
const SELECTION_PICKS: usize = 6;

impl Picker {
    /// An empty picker, to be filled in place (it is large; moving it costs a copy).
    #[inline(always)]
    pub fn empty() -> Picker {
        Picker {
            moves: ArrayVec::new(),
            next: 0,
            sorted: false,
        }
    }

    /// A picker over `moves` scored for a main-search node.
    pub fn new(
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
        previous: Option<(Piece, Move)>,
    ) -> Picker {
        let mut picker = Picker::empty();
        picker.fill(pos, moves, tt_move, heuristics, ply, previous);
        picker
    }

    /// Scores `moves` for a main-search node.
    pub fn fill(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
        previous: Option<(Piece, Move)>,
    ) {
        let killers = heuristics.killers[ply];
        let counter = heuristics.counter(previous);
        let scored = &mut self.moves;
        for &mv in moves {
            let score = if Some(mv) == tt_move {
                TT_SCORE
            } else {
                let piece = moved_piece(pos, mv);
                let captured = if mv.is_drop() {
                    None
                } else {
                    pos.piece_at(mv.to())
                };
                match captured {
                    Some(victim) => {
                        let mvv = value(victim.kind()) * 8 - value(piece.kind()) / 8
                            + promotion_gain(pos, mv);
                        if value(victim.kind()) >= value(piece.kind()) || see(pos, mv) >= 0 {
                            GOOD_CAPTURE + mvv
                        } else {
                            BAD_CAPTURE + mvv
                        }
                    }
                    None => {
                        if Some(mv) == killers[0] {
                            KILLER
                        } else if Some(mv) == killers[1] {
                            KILLER - 1
                        } else if Some(mv) == counter {
                            COUNTER
                        } else if mv.is_promotion() && piece.kind() != Kind::Silver {
                            KILLER + 1 + promotion_gain(pos, mv)
                        } else {
                            heuristics.history(piece, mv)
                        }
                    }
                }
            };
            scored.push((score, mv));
        }
    }

    /// Scores captures (and evasions) for quiescence: most valuable victim first.
    pub fn fill_captures(&mut self, pos: &Position, moves: &MoveList) {
        let scored = &mut self.moves;
        for &mv in moves {
            let victim = if mv.is_drop() {
                None
            } else {
                pos.piece_at(mv.to())
            };
            let score = match victim {
                Some(v) => {
                    GOOD_CAPTURE + value(v.kind()) * 8 - value(moved_piece(pos, mv).kind()) / 8
                        + promotion_gain(pos, mv)
                }
                None => promotion_gain(pos, mv) - if mv.is_drop() { 1000 } else { 0 },
            };
            scored.push((score, mv));
        }
    }

    /// The next move and its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        if !self.sorted {
            if self.next < SELECTION_PICKS {
                let mut best = self.next;
                for i in self.next + 1..self.moves.len() {
                    if self.moves[i].0 > self.moves[best].0 {
                        best = i;
                    }
                }
                self.moves.swap(self.next, best);
            } else {
                self.moves[self.next..].sort_by_key(|m| std::cmp::Reverse(m.0));
                self.sorted = true;
            }
        }
        let (score, mv) = self.moves[self.next];
        self.next += 1;
        Some((mv, score))
    }
}

/// True if an ordering score marks a capture that loses material by SEE.
#[inline]
pub fn is_bad_capture(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_usi_move(text).unwrap()
    }

    #[test]
    fn see_counts_recaptures() {
        // A rook takes a pawn defended by a gold: it loses the rook for a pawn.
        let pos = Position::from_sfen("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        assert_eq!(see(&pos, mv(&pos, "5h5c")), 100 - 950);
        // An undefended pawn is simply won.
        let pos = Position::from_sfen("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        assert_eq!(
            see(&pos, mv(&pos, "5h5c+")),
            100 + value(Kind::Dragon) - 950
        );
        // A pawn takes a pawn defended by a pawn... which is defended by the lance behind.
        let pos = Position::from_sfen("4k4/9/4l4/4p4/4P4/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(see(&pos, mv(&pos, "5e5d")), 0);
    }

    #[test]
    fn picker_puts_the_tt_move_then_good_captures_first() {
        let pos = Position::from_sfen("4k4/9/4p4/9/9/9/9/4R4/4K4 b G 1").unwrap();
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        let tt = mv(&pos, "G*4b");
        let heuristics = Heuristics::new(8);
        let mut picker = Picker::new(&pos, &moves, Some(tt), &heuristics, 0, None);
        assert_eq!(picker.pick().unwrap().0, tt);
        let second = picker.pick().unwrap().0;
        assert_eq!(pos.move_to_usi(second), "5h5c+");
        let mut count = 2;
        while picker.pick().is_some() {
            count += 1;
        }
        assert_eq!(count, moves.len());
    }
}
