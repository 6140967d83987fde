//! Every drop variant as a [`Game`]: the trait methods, and the game end shogi's way (no
//! legal move loses; the fourth occurrence of a position draws unless one side checked on
//! every move of the cycle, which loses: RULES.md §1.5–1.6, §3.3). Impasse and move limits
//! belong to whoever runs the game.

use super::{DropPosition, DropVariant};
use crate::rules::game::{inherent_game_methods, Game, Outcome};
use crate::rules::geometry::Color;
use crate::rules::repetition::{fourfold_repetition, History};

impl<V: DropVariant> Game for DropPosition<V> {
    inherent_game_methods!(DropPosition<V>, decisions, counts);

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            return Some(Outcome::Win(self.side_to_move().flip()));
        }
        self.repetition_outcome()
    }
}

impl<V: DropVariant> History for DropPosition<V> {
    fn moves_played(&self) -> usize {
        DropPosition::moves_played(self)
    }
    fn hash_before(&self, back: usize) -> Option<u64> {
        DropPosition::hash_before(self, back)
    }
    fn side_to_move(&self) -> Color {
        DropPosition::side_to_move(self)
    }
    fn in_check(&self) -> bool {
        DropPosition::in_check(self)
    }
}

impl<V: DropVariant> DropPosition<V> {
    /// The result if the current position has now occurred for the fourth time.
    pub fn repetition_outcome(&self) -> Option<Outcome> {
        fourfold_repetition(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::dropshogi::{DropPosition, DropVariant};
    use crate::rules::game::{Game, Outcome};
    use crate::rules::geometry::Color;
    use crate::rules::variants::{kagamigi, shogi};

    fn after<V: DropVariant>(sfen: &str, moves: &[&str]) -> DropPosition<V> {
        let mut pos = DropPosition::<V>::from_sfen(sfen).unwrap();
        for text in moves {
            let mv = pos.parse_usi_move(text).unwrap();
            pos.play(mv);
        }
        pos
    }

    /// Sente's rook and king against the lone gote king in the corner: a quiet cycle of king
    /// moves (`quiet`) and a cycle in which the rook checks on every move (`checks`).
    fn cycles_end_the_game<V: DropVariant>(sfen: &str, quiet: [&str; 4], checks: [&str; 4]) {
        let moves: Vec<&str> = quiet.iter().cycle().take(12).copied().collect();
        assert_eq!(after::<V>(sfen, &moves[..11]).outcome(), None);
        assert_eq!(after::<V>(sfen, &moves[..8]).outcome(), None);
        assert_eq!(after::<V>(sfen, &moves).outcome(), Some(Outcome::Draw));
        let moves: Vec<&str> = checks.iter().cycle().take(12).copied().collect();
        assert_eq!(after::<V>(sfen, &moves[..11]).outcome(), None);
        assert_eq!(
            after::<V>(sfen, &moves).outcome(),
            Some(Outcome::Win(Color::Gote))
        );
    }

    #[test]
    fn fourth_occurrence_draws_and_perpetual_check_loses() {
        let checks = ["5b5a", "1a1b", "5a5b", "1b1a"];
        cycles_end_the_game::<shogi::Shogi>(
            "8k/4R4/9/9/9/9/9/9/K8 b - 1",
            ["9i9h", "1a2a", "9h9i", "2a1a"],
            checks,
        );
        cycles_end_the_game::<kagamigi::Kagamigi>(
            "11k/7R4/12/12/12/12/12/12/12/12/12/K11 b - 1",
            ["12l12k", "1a2a", "12k12l", "2a1a"],
            checks,
        );
    }

    #[test]
    fn no_legal_move_loses_checkmate_or_not() {
        // Gote king on 1a, mated by a gold on 1b protected by a lance on 1c.
        let mate = shogi::Position::from_sfen("8k/8G/8L/9/9/9/9/9/K8 w - 1").unwrap();
        assert_eq!(mate.outcome(), Some(Outcome::Win(Color::Sente)));
        assert!(shogi::Position::startpos().outcome().is_none());
        let mate =
            kagamigi::Position::from_sfen("11k/11G/11L/12/12/12/12/12/12/12/12/K11 w - 1").unwrap();
        assert_eq!(mate.outcome(), Some(Outcome::Win(Color::Sente)));
        assert!(kagamigi::Position::startpos().outcome().is_none());
    }
}
