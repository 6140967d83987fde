//! Shogammon as a [`Game`]: a chance node (the 21 rolls) at the start of each turn, then two
//! decisions of the same player, then the other player's roll (see the module header of
//! `shogammon` for the encoding). The game ends only by capturing a king (RULES.md §4.5);
//! the turn-limit draw is the referee's, not the rules'.

use super::dice::Roll;
use super::Position;
use crate::rules::game::{inherent_game_methods, Game, NodeKind, Outcome};

impl Game for Position {
    fn node_kind(&self) -> NodeKind {
        if self.awaiting_roll() {
            NodeKind::Chance(Roll::all().map(|r| (r.to_move(), r.weight())).collect())
        } else {
            NodeKind::Decision(self.side_to_move())
        }
    }

    #[inline]
    fn is_chance(&self) -> bool {
        self.awaiting_roll()
    }

    inherent_game_methods!(Position, counts);

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Weight;
    use crate::rules::geometry::Color;
    use crate::rules::moves::{Move, MoveList};

    fn play_tokens(pos: &mut Position, tokens: &[&str]) {
        for token in tokens {
            let action = pos
                .parse_action(token)
                .unwrap_or_else(|e| panic!("{token}: {e}"));
            pos.play(action);
        }
    }

    #[test]
    fn a_turn_is_a_roll_and_two_decisions() {
        let mut pos = Position::startpos();
        let NodeKind::Chance(outcomes) = pos.node_kind() else {
            panic!("a turn starts with the roll")
        };
        assert_eq!(outcomes.len(), 21);
        assert_eq!(outcomes.iter().map(|(_, w)| w.0).sum::<u32>(), 36);
        assert!(outcomes.contains(&(Move::chance(33), Weight(1))));
        assert!(outcomes.contains(&(Move::chance(61), Weight(2))));
        let start_hash = pos.hash();
        play_tokens(&mut pos, &["r:33"]);
        assert_eq!(pos.node_kind(), NodeKind::Decision(Color::Sente));
        let after_roll = pos.hash();
        assert_ne!(after_roll, start_hash);
        play_tokens(&mut pos, &["7i6h"]);
        assert_eq!(pos.node_kind(), NodeKind::Decision(Color::Sente));
        // The same silver again (doubles may use one piece twice).
        play_tokens(&mut pos, &["6h5g"]);
        assert!(matches!(pos.node_kind(), NodeKind::Chance(_)));
        assert_eq!(pos.side_to_move(), Color::Gote);
        assert_eq!(pos.turn_number(), 2);
        for _ in 0..3 {
            pos.unplay();
        }
        assert_eq!(pos.hash(), start_hash);
        assert_eq!(pos, Position::startpos());
    }

    #[test]
    fn dice_left_are_in_the_hash() {
        // The same board with a 6 left or a 5 left.
        let mut six_left = Position::from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b - 1").unwrap();
        let mut five_left = six_left.clone();
        play_tokens(&mut six_left, &["r:61", "5g5f"]);
        play_tokens(&mut five_left, &["r:51", "5g5f"]);
        assert_eq!(six_left.to_sfen(), five_left.to_sfen());
        assert_ne!(six_left.hash(), five_left.hash());
        assert_eq!(six_left.hash(), six_left.compute_hash());
    }

    #[test]
    fn point_capture_needs_both_dice_and_two_pieces() {
        // Gote point (gold under pawn) on 5e; sente pawn 5f (die 1) and gold 4e (die 4).
        let sfen = "4k4/9/9/9/4(gp)G3/4P4/9/9/4K4 b - 1";
        let mut pos = Position::from_sfen(sfen).unwrap();
        play_tokens(&mut pos, &["r:41", "5f5e"]);
        assert!(pos.pending_capture().is_some());
        let mut list = MoveList::new();
        pos.generate_legal(&mut list);
        let texts: Vec<String> = list.iter().map(|m| pos.action_to_usi(*m)).collect();
        assert_eq!(texts, vec!["4e5e"], "only the completion");
        play_tokens(&mut pos, &["4e5e"]);
        let e5 = crate::rules::geometry::Square::from_usi::<super::super::Geo>("5e").unwrap();
        assert_eq!(
            pos.top(e5).map(|p| p.kind()),
            Some(crate::rules::variants::shogi::Kind::Gold)
        );
        assert_eq!(pos.bottom(e5).map(|p| p.color()), Some(Color::Sente));
        assert_eq!(
            pos.hand(Color::Sente)
                .count(crate::rules::variants::shogi::Kind::Gold),
            1
        );
        assert_eq!(
            pos.hand(Color::Sente)
                .count(crate::rules::variants::shogi::Kind::Pawn),
            1
        );
        assert_eq!(pos.side_to_move(), Color::Gote);
        // With 1-1 there is only one piece for the 1s: the point cannot be taken.
        let mut ones = Position::from_sfen(sfen).unwrap();
        play_tokens(&mut ones, &["r:11"]);
        assert!(ones.parse_action("5f5e").is_err());
        // With 4-2 the pawn cannot take part; nor can the gold alone.
        let mut no_pawn = Position::from_sfen(sfen).unwrap();
        play_tokens(&mut no_pawn, &["r:42"]);
        assert!(no_pawn.parse_action("4e5e").is_err());
    }

    #[test]
    fn capturing_the_king_ends_the_game_with_a_die_left() {
        let mut pos = Position::from_sfen("9/9/9/9/4k4/4P4/9/9/4K4 b - 1").unwrap();
        play_tokens(&mut pos, &["r:61", "5f5e"]);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Sente)));
        assert_eq!(pos.count_legal_actions(), 0);
        pos.unplay();
        assert_eq!(pos.outcome(), None);
    }

    /// Seeded random games to the end: every legal action, played and taken back, restores
    /// the state and hash exactly, and unwinding the whole game returns the start.
    #[test]
    fn random_games_end_and_unplay_restores_everything() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut ended = 0;
        for seed in 0..40 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut pos = Position::startpos();
            let mut trail = vec![(pos.clone(), pos.hash())];
            while pos.outcome().is_none() && pos.turn_number() < 1000 {
                let action = if pos.is_chance() {
                    let (a, b) = (rng.gen_range(1..=6u8), rng.gen_range(1..=6u8));
                    let d = |v| super::super::Die::new(v).unwrap();
                    Roll::new(d(a), d(b)).to_move()
                } else {
                    let mut list = MoveList::new();
                    pos.legal_actions(&mut list);
                    assert!(!list.is_empty(), "a decision always has an action: {pos:?}");
                    let before = pos.clone();
                    for &a in list.iter() {
                        pos.play(a);
                        assert_eq!(pos.hash(), pos.compute_hash());
                        pos.unplay();
                        assert_eq!(pos, before);
                        assert_eq!(pos.hash(), before.hash());
                    }
                    list[rng.gen_range(0..list.len())]
                };
                pos.play(action);
                trail.push((pos.clone(), pos.hash()));
            }
            ended += usize::from(pos.outcome().is_some());
            while let Some((state, hash)) = trail.pop() {
                assert_eq!(pos, state);
                assert_eq!(pos.hash(), hash);
                if !trail.is_empty() {
                    pos.unplay();
                }
            }
            assert_eq!(pos, Position::startpos());
        }
        assert!(ended >= 35, "only {ended} of 40 random games ended");
    }
}
