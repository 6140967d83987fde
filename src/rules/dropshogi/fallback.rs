//! The rules a new member of the family starts with before it has fast ones of its own:
//! attack detection by asking every piece of the attacker whether it reaches the square,
//! and legal moves by trial (each pseudo-legal board move and drop is played on a copy and
//! kept if its own king is not attacked afterwards). They are exact for any piece table and
//! are the defaults of [`DropVariant`]'s hooks; standard shogi and Chu Kagamigi override
//! every one of them with table-driven code.

use super::{Bb, DropKind, DropPosition, DropTables, DropVariant};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::sink::MoveSink;

/// Every piece of `by` whose attacks from its square, with `occupied` as the blocking
/// pieces, reach `sq`.
pub fn attackers_by_trial<V: DropVariant>(
    pos: &DropPosition<V>,
    sq: Square,
    by: Color,
    occupied: Bb<V>,
) -> Bb<V> {
    let t = pos.tables();
    let mut attackers = Bb::<V>::EMPTY;
    for from in pos.pieces_of(by).squares() {
        let piece = pos.piece_at(from).expect("a piece on an occupied square");
        if t.attacks(piece, from, occupied).contains(sq) {
            attackers |= Bb::<V>::from_square(from);
        }
    }
    attackers
}

/// True if the side that just moved left its king attacked.
fn mover_left_king_attacked<V: DropVariant>(pos: &DropPosition<V>) -> bool {
    let mover = pos.side_to_move().flip();
    pos.king_square(mover)
        .is_some_and(|k| pos.is_attacked(k, pos.side_to_move(), pos.occupied()))
}

/// Every legal move: the king's steps to safe squares as the family generates them, then
/// each pseudo-legal board move and drop kept if it does not leave the king attacked.
pub fn generate_by_trial<V: DropVariant, S: MoveSink<Bb<V>>>(pos: &DropPosition<V>, out: &mut S) {
    let us = pos.side_to_move();
    let t = pos.tables();
    let occupied = pos.occupied();
    let ours = pos.pieces_of(us);
    let mut pseudo = MoveList::new();
    let movers = ours.and_not(pos.pieces_of_kind(V::Kind::KING));
    for from in movers.squares() {
        let piece = pos.piece_at(from).expect("a piece on an occupied square");
        let to_set = t.attacks(piece, from, occupied).and_not(ours);
        pos.push_board_moves(piece, from, to_set, &mut pseudo);
    }
    pos.push_drops(t.all().and_not(occupied), &mut pseudo);
    if let Some(k) = pos.king_square(us) {
        pos.push_king_moves(k, out);
    }
    let mut probe = pos.clone();
    for &mv in pseudo.iter() {
        probe.play(mv);
        let illegal = mover_left_king_attacked(&probe);
        probe.unplay();
        if !illegal {
            out.push(mv);
        }
    }
}

/// Whether one of `takers` may take a pawn dropped on `sq` without leaving `color`'s king
/// attacked: the drop and each capture are played on a copy.
pub fn capture_by_trial<V: DropVariant>(pos: &DropPosition<V>, takers: Bb<V>, sq: Square) -> bool {
    let mut probe = pos.clone();
    probe.play(Move::drop(V::Kind::PAWN.id(), sq));
    takers.squares().any(|taker| {
        probe.play(Move::normal(taker, sq, false));
        let illegal = mover_left_king_attacked(&probe);
        probe.unplay();
        !illegal
    })
}
