//! Entering-king declaration (入玉宣言, USI `bestmove win`) for standard shogi, RULES.md §1.7:
//! the selectable rule (`csa27`, `jsa24`, `try`, `none`) and the test whether the side to move
//! may declare and win right now.
//!
//! Conditions (all must hold): the declarer's king stands in the enemy camp (its three
//! farthest ranks) and is not in check; at least 10 of the declarer's other pieces stand in
//! the enemy camp; and the declarer's points (pieces in hand plus pieces in the enemy camp,
//! king excluded; rook and bishop, promoted or not, 5, everything else 1) reach the rule's
//! threshold. `csa27`: 28 for sente, 27 for gote; when pieces are missing from the full set
//! (a handicap start), gote's threshold drops by the missing points, as lishogi and
//! YaneuraOu's `CSARule27H` do. `jsa24`: 31 for either side (30 or fewer is only a draw, which
//! is not something to declare). `try`: the try rule wins by an ordinary king move onto the
//! enemy king's start square, so there is no declaration; like `none` it never declares.

use super::{Geo, Kind, Position};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};

/// Which entering-king rule is in force (USI option `EnteringKingRule`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnteringKingRule {
    /// CSA 27-point declaration (the default; what Floodgate and most GUIs judge by).
    #[default]
    Csa27,
    /// JSA amateur 24-point rule: 31 points declare a win.
    Jsa24,
    /// Try rule: reaching the enemy king's square is an ordinary move; no declaration.
    Try,
    /// No entering-king rule: never declare.
    None,
}

/// Points of a full set of pieces for one side (rook and bishop 5, the 17 others 1).
const FULL_SET_POINTS_PER_SIDE: u32 = 27;

/// How many pieces besides the king must stand in the enemy camp.
const PIECES_IN_CAMP: u32 = 10;

impl EnteringKingRule {
    /// Every rule, in the order the USI option lists them.
    pub const ALL: [EnteringKingRule; 4] = [
        EnteringKingRule::Csa27,
        EnteringKingRule::Jsa24,
        EnteringKingRule::Try,
        EnteringKingRule::None,
    ];

    /// The option value naming this rule.
    pub fn name(self) -> &'static str {
        match self {
            EnteringKingRule::Csa27 => "csa27",
            EnteringKingRule::Jsa24 => "jsa24",
            EnteringKingRule::Try => "try",
            EnteringKingRule::None => "none",
        }
    }

    /// Reads an option value, case-insensitively. YaneuraOu's spellings are accepted too
    /// (`CSARule27`, `CSARule27H`, `CSARule24`, `CSARule24H`, `TryRule`, `NoEnteringKing`),
    /// since clients such as shoginet send them.
    pub fn from_name(text: &str) -> Option<EnteringKingRule> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "csa27" | "csarule27" | "csarule27h" => Some(EnteringKingRule::Csa27),
            "jsa24" | "csarule24" | "csarule24h" => Some(EnteringKingRule::Jsa24),
            "try" | "tryrule" => Some(EnteringKingRule::Try),
            "none" | "noenteringking" => Some(EnteringKingRule::None),
            _ => None,
        }
    }
}

/// What a side would count if it declared now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationCount {
    /// Whether the king stands in the enemy camp.
    pub king_in_camp: bool,
    /// Pieces other than the king inside the enemy camp.
    pub pieces_in_camp: u32,
    /// Points in hand plus points inside the enemy camp (king excluded).
    pub points: u32,
}

fn piece_points(kind: Kind) -> u32 {
    match kind {
        Kind::Rook | Kind::Bishop | Kind::Dragon | Kind::Horse => 5,
        Kind::King => 0,
        _ => 1,
    }
}

/// Whether `sq` lies in the enemy camp of `color` (its three farthest ranks).
fn in_enemy_camp(sq: Square, color: Color) -> bool {
    sq.rank::<Geo>().distance_from_far_edge::<Geo>(color) < 3
}

impl Position {
    /// Counts `color`'s king position, pieces and points for the declaration.
    pub fn declaration_count(&self, color: Color) -> DeclarationCount {
        let in_camp = |sq: Square| in_enemy_camp(sq, color);
        let king_in_camp = self.king_square(color).is_some_and(in_camp);
        let mut pieces_in_camp = 0;
        let mut points = 0;
        for sq in self.pieces_of(color).squares() {
            let kind = self.piece_at(sq).expect("occupied").kind();
            if kind != Kind::King && in_camp(sq) {
                pieces_in_camp += 1;
                points += piece_points(kind);
            }
        }
        for kind in Kind::HAND {
            points += self.hand(color).count(kind) as u32 * piece_points(kind);
        }
        DeclarationCount {
            king_in_camp,
            pieces_in_camp,
            points,
        }
    }

    /// Points of every piece in the game (both sides, board and hands, kings excluded).
    fn total_points(&self) -> u32 {
        let on_board: u32 = self
            .occupied()
            .squares()
            .map(|sq| piece_points(self.piece_at(sq).expect("occupied").kind()))
            .sum();
        let in_hands: u32 = Color::BOTH
            .iter()
            .flat_map(|c| Kind::HAND.map(|k| self.hand(*c).count(k) as u32 * piece_points(k)))
            .sum();
        on_board + in_hands
    }

    /// The points the side to move needs under `rule`, or `None` if the rule has no
    /// declaration.
    pub fn declaration_threshold(&self, rule: EnteringKingRule) -> Option<u32> {
        let side = self.side_to_move();
        match rule {
            EnteringKingRule::Csa27 => Some(match side {
                Color::Sente => 28,
                Color::Gote => {
                    let missing =
                        (2 * FULL_SET_POINTS_PER_SIDE).saturating_sub(self.total_points());
                    27u32.saturating_sub(missing)
                }
            }),
            EnteringKingRule::Jsa24 => Some(31),
            EnteringKingRule::Try | EnteringKingRule::None => None,
        }
    }

    /// True if the side to move may declare a win by entering king (`bestmove win`) now.
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        // The cheap condition first: a search asks this at every node of the Madness.
        let color = self.side_to_move();
        self.king_square(color)
            .is_some_and(|sq| in_enemy_camp(sq, color))
            && self.judge_declaration(rule).is_ok()
    }

    /// Judges a declaration by the side to move under `rule`: `Ok` if it wins, otherwise
    /// the first condition it fails, in words (for the referee's record).
    pub fn judge_declaration(&self, rule: EnteringKingRule) -> Result<(), String> {
        let threshold = self
            .declaration_threshold(rule)
            .ok_or_else(|| format!("the {} rule has no declaration", rule.name()))?;
        let count = self.declaration_count(self.side_to_move());
        if !count.king_in_camp {
            return Err("the king is not in the enemy camp".to_string());
        }
        if self.in_check() {
            return Err("the king is in check".to_string());
        }
        if count.pieces_in_camp < PIECES_IN_CAMP {
            return Err(format!(
                "only {} pieces in the enemy camp ({PIECES_IN_CAMP} needed)",
                count.pieces_in_camp
            ));
        }
        if count.points < threshold {
            return Err(format!("only {} points ({threshold} needed)", count.points));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    /// `color`'s count in `p` is (king in camp, pieces in camp, points).
    fn count_is(
        p: &Position,
        color: Color,
        (king_in_camp, pieces_in_camp, points): (bool, u32, u32),
    ) {
        let count = DeclarationCount {
            king_in_camp,
            pieces_in_camp,
            points,
        };
        assert_eq!(p.declaration_count(color), count);
    }

    /// Sente's count in `p` is `count`, and csa27 refuses the declaration.
    fn csa27_refuses(p: &Position, count: (bool, u32, u32)) {
        count_is(p, Color::Sente, count);
        assert!(!p.can_declare_win(EnteringKingRule::Csa27));
    }

    /// Sente: king on 2a; dragon, horse, 4 golds and 4 silvers in camp (18 points, 10
    /// pieces) and 10 pawns in hand: 28 points.
    const SENTE_28: &str = "+R+BGGGG1K1/SSSS5/9/9/9/pppppppp1/9/9/4k4 b 10Prb4n4l 1";
    /// The same with one pawn moved from sente's hand to gote's: 27 points.
    const SENTE_27: &str = "+R+BGGGG1K1/SSSS5/9/9/9/pppppppp1/9/9/4k4 b 9Prb4n4lp 1";
    /// Gote mirrored: king on 8i; horse, dragon, 4 golds, 4 silvers in ranks g-i, 9 pawns
    /// in hand: 27 points.
    const GOTE_27: &str = "4K4/9/9/PPPPPPPPP/9/9/9/5ssss/1k1gggg+b+r w RB4N4L9p 1";
    /// Gote one pawn short (26 points), full set.
    const GOTE_26: &str = "4K4/9/9/PPPPPPPPP/9/9/9/5ssss/1k1gggg+b+r w PRB4N4L8p 1";
    /// Gote with 26 points, but one pawn is missing from the game (a handicap-like start).
    const GOTE_26_HANDICAP: &str = "4K4/9/9/PPPPPPPPP/9/9/9/5ssss/1k1gggg+b+r w RB4N4L8p 1";

    #[test]
    fn rule_names_round_trip_and_accept_yaneuraou_spellings() {
        for rule in EnteringKingRule::ALL {
            assert_eq!(EnteringKingRule::from_name(rule.name()), Some(rule));
            assert_eq!(
                EnteringKingRule::from_name(&rule.name().to_uppercase()),
                Some(rule)
            );
        }
        assert_eq!(
            EnteringKingRule::from_name("CSARule27H"),
            Some(EnteringKingRule::Csa27)
        );
        assert_eq!(
            EnteringKingRule::from_name("TryRule"),
            Some(EnteringKingRule::Try)
        );
        assert_eq!(EnteringKingRule::from_name("csa28"), None);
        assert_eq!(EnteringKingRule::default(), EnteringKingRule::Csa27);
    }

    #[test]
    fn start_position_cannot_declare() {
        let start = Position::startpos();
        for rule in EnteringKingRule::ALL {
            assert!(!start.can_declare_win(rule), "{rule:?}");
        }
        count_is(&start, Color::Sente, (false, 0, 0));
        assert_eq!(
            start.declaration_threshold(EnteringKingRule::Csa27),
            Some(28)
        );
    }

    #[test]
    fn sente_with_28_points_declares_under_csa27_only() {
        let p = pos(SENTE_28);
        count_is(&p, Color::Sente, (true, 10, 28));
        assert!(p.can_declare_win(EnteringKingRule::Csa27));
        assert!(!p.can_declare_win(EnteringKingRule::Jsa24));
        assert!(!p.can_declare_win(EnteringKingRule::Try));
        assert!(!p.can_declare_win(EnteringKingRule::None));
    }

    #[test]
    fn sente_with_27_points_is_one_short() {
        let p = pos(SENTE_27);
        assert_eq!(p.declaration_count(Color::Sente).points, 27);
        assert!(!p.can_declare_win(EnteringKingRule::Csa27));
    }

    #[test]
    fn jsa24_needs_31_points() {
        let p = pos("+R+BGGGG1K1/SSSS5/9/9/9/ppppp4/9/9/4k4 b 13Prb4n4l 1");
        assert_eq!(p.declaration_count(Color::Sente).points, 31);
        assert!(p.can_declare_win(EnteringKingRule::Jsa24));
        let short = pos("+R+BGGGG1K1/SSSS5/9/9/9/pppppp3/9/9/4k4 b 12Prb4n4l 1");
        assert_eq!(short.declaration_count(Color::Sente).points, 30);
        assert!(!short.can_declare_win(EnteringKingRule::Jsa24));
        assert!(short.can_declare_win(EnteringKingRule::Csa27));
    }

    #[test]
    fn king_in_check_cannot_declare() {
        // A tokin replaces one silver in camp; the gote silver on 3b checks the king on 2a.
        let p = pos("+R+BGGGG1K1/SSS+P2s2/9/9/9/ppppppp2/9/9/4k4 b 10Prb4n4l 1");
        assert!(p.in_check());
        csa27_refuses(&p, (true, 10, 28));
    }

    #[test]
    fn nine_pieces_in_camp_are_not_enough() {
        // One silver stands on 6d, outside the camp; an extra pawn in hand keeps 28 points.
        let p = pos("+R+BGGGG1K1/SSS6/9/3S5/9/ppppppp2/9/9/4k4 b 11Prb4n4l 1");
        csa27_refuses(&p, (true, 9, 28));
    }

    #[test]
    fn king_outside_the_camp_cannot_declare() {
        let p = pos("+R+BGGGG3/SSSS5/9/4K4/9/pppppppp1/9/9/4k4 b 10Prb4n4l 1");
        csa27_refuses(&p, (false, 10, 28));
    }

    #[test]
    fn gote_needs_27_and_its_camp_is_ranks_g_to_i() {
        let p = pos(GOTE_27);
        count_is(&p, Color::Gote, (true, 10, 27));
        assert_eq!(p.declaration_threshold(EnteringKingRule::Csa27), Some(27));
        assert!(p.can_declare_win(EnteringKingRule::Csa27));
        assert!(!pos(GOTE_26).can_declare_win(EnteringKingRule::Csa27));
    }

    #[test]
    fn csa27_lowers_gotes_threshold_by_the_missing_points() {
        let p = pos(GOTE_26_HANDICAP);
        assert_eq!(p.declaration_count(Color::Gote).points, 26);
        assert_eq!(p.declaration_threshold(EnteringKingRule::Csa27), Some(26));
        assert!(p.can_declare_win(EnteringKingRule::Csa27));
        // Only under csa27: jsa24 keeps its fixed 31.
        assert_eq!(p.declaration_threshold(EnteringKingRule::Jsa24), Some(31));
        assert!(!p.can_declare_win(EnteringKingRule::Jsa24));
    }
}
