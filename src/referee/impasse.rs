//! The entering-king declaration (`bestmove win`) judged by the CSA 27-point rule
//! (RULES.md §1.7).
//!
//! This lives in the referee, not in `rules/`, so that it cannot clash with a rules-core
//! version being written in parallel (`rules/variants/shogi/impasse.rs`); once that exists
//! the referee should call it instead and this file can go.

use crate::rules::geometry::{Color, Square};
use crate::rules::variants::shogi::{Geo, Kind, Position};

/// Why a declaration fails, or `Ok` when it wins.
pub fn judge_declaration(pos: &Position) -> Result<(), String> {
    let me = pos.side_to_move();
    let king = pos
        .king_square(me)
        .ok_or_else(|| "the declarer has no king".to_string())?;
    if !in_enemy_camp(king, me) {
        return Err("the king is not in the enemy camp".into());
    }
    if pos.in_check() {
        return Err("the king is in check".into());
    }
    let mut points = 0u32;
    let mut pieces_in_camp = 0u32;
    for sq in Square::all::<Geo>() {
        if let Some(piece) = pos.piece_at(sq) {
            if piece.color() == me && piece.kind() != Kind::King && in_enemy_camp(sq, me) {
                pieces_in_camp += 1;
                points += value(piece.kind());
            }
        }
    }
    let hand = pos.hand(me);
    for kind in Kind::HAND {
        points += hand.count(kind) as u32 * value(kind);
    }
    let needed = match me {
        Color::Sente => 28,
        Color::Gote => 27,
    };
    if pieces_in_camp < 10 {
        return Err(format!(
            "only {pieces_in_camp} pieces in the enemy camp (10 needed)"
        ));
    }
    if points < needed {
        return Err(format!("only {points} points ({needed} needed)"));
    }
    Ok(())
}

fn in_enemy_camp(sq: Square, color: Color) -> bool {
    let rank = sq.rank::<Geo>().0;
    match color {
        Color::Sente => rank <= 2,
        Color::Gote => rank >= 6,
    }
}

fn value(kind: Kind) -> u32 {
    match kind {
        Kind::Rook | Kind::Bishop | Kind::Dragon | Kind::Horse => 5,
        Kind::King => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_cannot_declare() {
        let err = judge_declaration(&Position::startpos()).unwrap_err();
        assert!(err.contains("not in the enemy camp"), "{err}");
    }

    #[test]
    fn sente_with_28_points_and_10_pieces_wins() {
        // Sente king on 1b; rank a: +R +B G G S S +P +P (16 points), rank b: G G (2):
        // 10 pieces worth 18, hand R B (10) = 28 points.
        let sfen = "+R+BGGSS+P+P1/6GGK/9/9/9/9/9/9/4k4 b RB 1";
        assert_eq!(
            judge_declaration(&Position::from_sfen(sfen).unwrap()),
            Ok(())
        );
        // Hand R P instead: 24 points.
        let short = "+R+BGGSS+P+P1/6GGK/9/9/9/9/9/9/4k4 b RP 1";
        let err = judge_declaration(&Position::from_sfen(short).unwrap()).unwrap_err();
        assert!(err.contains("24 points"), "{err}");
    }

    #[test]
    fn gote_needs_only_27() {
        // Gote: 10 pieces in ranks g–i worth 18, hand B + 4P = 9: 27 points.
        let sfen = "K8/9/9/9/9/9/9/kgg6/+r+bggss+p+p1 w b4p 1";
        assert_eq!(
            judge_declaration(&Position::from_sfen(sfen).unwrap()),
            Ok(())
        );
        // The same material for sente is one point short.
        let sente = "+R+BGGSS+P+P1/6GGK/9/9/9/9/9/9/4k4 b B4P 1";
        let err = judge_declaration(&Position::from_sfen(sente).unwrap()).unwrap_err();
        assert!(err.contains("27 points (28 needed)"), "{err}");
    }

    #[test]
    fn fewer_than_ten_pieces_or_check_fails() {
        // 9 pieces in camp, 28 points.
        let nine = "+R+BGGSS+P2/6GGK/9/9/9/9/9/9/4k4 b RBP 1";
        let err = judge_declaration(&Position::from_sfen(nine).unwrap()).unwrap_err();
        assert!(err.contains("only 9 pieces"), "{err}");
        // A gote rook on 1i gives check up file 1.
        let check = "+R+BGGSS+P+P1/6GGK/9/9/9/9/9/9/4k3r b B5P 1";
        let err = judge_declaration(&Position::from_sfen(check).unwrap()).unwrap_err();
        assert!(err.contains("check"), "{err}");
    }
}
