//! Chu Kagamigi as a [`Game`]: the trait methods and the game end, which follows shogi
//! (RULES.md §3.3): no legal move loses, the fourth occurrence of a position draws unless
//! one side checked on every move of the cycle, which loses. No impasse rule exists (the
//! move-limit draw belongs to whoever runs the game).

use super::Position;
use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::repetition::{fourfold_repetition, History};

impl Game for Position {
    #[inline]
    fn node_kind(&self) -> NodeKind {
        NodeKind::Decision(self.side_to_move())
    }

    #[inline]
    fn legal_actions(&self, out: &mut MoveList) {
        self.generate_legal(out);
    }

    #[inline]
    fn count_legal_actions(&self) -> u64 {
        self.count_legal()
    }

    #[inline]
    fn play(&mut self, action: Move) {
        Position::play(self, action);
    }

    #[inline]
    fn unplay(&mut self) {
        Position::unplay(self);
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(Outcome::Win(self.side_to_move().flip()));
        }
        self.repetition_outcome()
    }
}

impl History for Position {
    fn moves_played(&self) -> usize {
        Position::moves_played(self)
    }
    fn hash_before(&self, back: usize) -> Option<u64> {
        Position::hash_before(self, back)
    }
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
}

impl Position {
    /// The result if the current position has now occurred for the fourth time.
    pub fn repetition_outcome(&self) -> Option<Outcome> {
        fourfold_repetition(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(sfen: &str, moves: &[&str]) -> Position {
        let mut pos = Position::from_sfen(sfen).unwrap();
        for text in moves {
            let mv = pos.parse_usi_move(text).unwrap();
            pos.play(mv);
        }
        pos
    }

    const ROOK_AND_KING: &str = "11k/7R4/12/12/12/12/12/12/12/12/12/K11 b - 1";

    #[test]
    fn fourth_occurrence_is_a_draw_and_perpetual_check_loses() {
        let quiet = ["12l12k", "1a2a", "12k12l", "2a1a"];
        let moves: Vec<&str> = quiet.iter().cycle().take(12).copied().collect();
        assert_eq!(after(ROOK_AND_KING, &moves[..11]).outcome(), None);
        assert_eq!(after(ROOK_AND_KING, &moves).outcome(), Some(Outcome::Draw));
        let checks = ["5b5a", "1a1b", "5a5b", "1b1a"];
        let moves: Vec<&str> = checks.iter().cycle().take(12).copied().collect();
        assert_eq!(
            after(ROOK_AND_KING, &moves).outcome(),
            Some(Outcome::Win(Color::Gote))
        );
    }

    #[test]
    fn no_legal_move_loses() {
        // Gote king on 1a, mated by a gold on 1b protected by a lance on 1c.
        let mate = Position::from_sfen("11k/11G/11L/12/12/12/12/12/12/12/12/K11 w - 1").unwrap();
        assert_eq!(mate.outcome(), Some(Outcome::Win(Color::Sente)));
        assert!(Position::startpos().outcome().is_none());
    }
}
