//! Shogammon's evaluation: an expected result on the chance search's bounded scale.
//!
//! Three parts, all from the side to act (the player who rolls next, or who is using dice):
//! * a *material* score in centipawns: pieces on the board and in hand by kind, the immobile
//!   lower piece of a point at a per cent of its value, a bonus per point (a point cannot be
//!   taken by one piece), and the threat on single pieces (a piece's value times the chance
//!   that the next roll of its enemy has a die moving some piece onto it);
//! * the *king's odds against the dice*: out of the 36 rolls, how many give the roller a
//!   capturing action on the enemy king ([`king_capture_rolls`]): a die value whose free
//!   piece attacks a single king, or, for a king inside a point, two different pieces on the
//!   roll's two dice (two on a double);
//! * a logistic (`tanh`) of the material score, mixed with the king odds as probabilities:
//!   `E = p + (1 - p)(-q + (1 - q) tanh(s / scale))`, where `p` is the side to act's chance of
//!   capturing the king with this roll and `q` the enemy's chance on its next roll, reduced
//!   by [`ShogammonWeights::defence_percent`] (the side to act moves first and may escape).
//!   `E` in (-1, 1) is mapped to ±[`Value::EVAL_MAX`].
//!
//! The threats count one-action captures only (a first die that clears a line for the
//! second is not seen). All weights live in [`ShogammonWeights`] so that settings can be
//! compared by self-play (`tuning::shogammon_selfplay`). The piece values are guesses from shogi's;
//! the other terms were measured there at one turn deep (200 games per line, duplicate
//! dice, seed 1; the default's Elo and 95% interval, the first four with scale 1500):
//! against no enemy king odds (`defence_percent` 0) +74 (+34 to +116); against no point
//! bonus with lower pieces at full value +96 (+48 to +148); against no hanging-piece term
//! +31 (-11 to +74); against `defence_percent` 100 +21 (-17 to +60). Scale 3000 against
//! 1500 +35 (+7 to +64) and against 6000 -24 (-54 to +5), so the scale went to 3000.

use crate::eval::expected::{Value, LOGISTIC_SCALE_CP};
use crate::eval::nnue::Network;
use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::geometry::{Color, Square};
use crate::rules::variants::shogammon::{Die, Position};
use crate::rules::variants::shogi::{Kind, Piece};
use std::sync::OnceLock;

/// A number of the 36 equally likely ordered rolls of two dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Rolls36(pub u32);

impl Rolls36 {
    pub const ALL: Rolls36 = Rolls36(36);

    /// The probability these rolls stand for.
    pub fn probability(self) -> f64 {
        f64::from(self.0) / 36.0
    }
}

/// The knobs of the Shogammon evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct ShogammonWeights {
    /// Value of a piece on the board, per kind (`Kind as usize`).
    pub board: [i32; Kind::COUNT],
    /// Value of a piece in hand, per hand kind.
    pub hand: [i32; 7],
    /// Per cent of its value that the immobile lower piece of a point keeps.
    pub lower_percent: i32,
    /// Bonus per own point.
    pub point_bonus: i32,
    /// Per cent of the expected loss of the most threatened single piece that counts.
    pub hanging_percent: i32,
    /// Per cent of the enemy's chance of capturing our king on its next roll that counts
    /// (the rest is what our own turn is assumed to parry).
    pub defence_percent: i32,
    /// Centipawns of material for which the expected result is `tanh(1)` ≈ 0.76.
    pub scale: i32,
}

impl Default for ShogammonWeights {
    fn default() -> Self {
        ShogammonWeights {
            //      P    L    N    S    B    R    G   K  +P   +L   +N   +S   +B    +R
            board: [
                100, 280, 300, 450, 650, 750, 500, 0, 450, 450, 450, 480, 900, 1000,
            ],
            hand: [110, 300, 330, 480, 720, 820, 540],
            lower_percent: 90,
            point_bonus: 30,
            hanging_percent: 50,
            defence_percent: 50,
            // Self-play at one turn deep preferred 3000 to 1500 (`tuning::shogammon_selfplay`).
            scale: 3000,
        }
    }
}

/// The Shogammon evaluation with one setting of [`ShogammonWeights`].
#[derive(Clone, Debug)]
pub struct ShogammonEval {
    weights: ShogammonWeights,
}

/// Where each side's free pieces can move with each die value, and its king.
struct Reach {
    /// `by_die[color][value]`: squares some free piece of `color` moved by die `value`
    /// attacks (index 0 unused).
    by_die: [[Bb128; 7]; 2],
    /// `king[color]`: the king's square and whether it sits in a point.
    king: [Option<(Square, bool)>; 2],
}

impl Reach {
    fn of(pos: &Position) -> Reach {
        let t = pos.tables();
        let table = pos.dice_table();
        let occupied = pos.occupied();
        let mut reach = Reach {
            by_die: [[Bb128::EMPTY; 7]; 2],
            king: [None; 2],
        };
        for sq in occupied.squares() {
            let Some(top) = pos.top(sq) else { continue };
            let in_point = pos.bottom(sq).is_some();
            for piece in [Some(top), pos.bottom(sq)].into_iter().flatten() {
                if piece.kind() == Kind::King {
                    reach.king[piece.color().index()] = Some((sq, in_point));
                }
            }
            let die = table.die_of(top.kind()).value() as usize;
            reach.by_die[top.color().index()][die] |= t.attacks(top, sq, occupied);
        }
        reach
    }

    /// How many of `color`'s free pieces on each die value attack `target` (at most 2
    /// counted).
    fn attackers_by_die(&self, pos: &Position, color: Color, target: Square) -> [u8; 7] {
        let mut counts = [0u8; 7];
        let t = pos.tables();
        let table = pos.dice_table();
        let occupied = pos.occupied();
        let reachable = self.by_die[color.index()]
            .iter()
            .any(|bb| bb.contains(target));
        if !reachable {
            return counts;
        }
        for sq in pos.squares_of(color).squares() {
            let top = pos.top(sq).expect("occupied");
            if t.attacks(top, sq, occupied).contains(target) {
                let slot = &mut counts[table.die_of(top.kind()).value() as usize];
                *slot = (*slot + 1).min(2);
            }
        }
        counts
    }
}

/// Whether the dice `(a, b)` give `attackers` (per die value, see
/// [`Reach::attackers_by_die`]) a capture of a single (`needs_two == false`) or of a point.
fn roll_captures(attackers: &[u8; 7], needs_two: bool, a: Die, b: Die) -> bool {
    let (a, b) = (a.value() as usize, b.value() as usize);
    if !needs_two {
        attackers[a] > 0 || attackers[b] > 0
    } else if a == b {
        attackers[a] >= 2
    } else {
        attackers[a] > 0 && attackers[b] > 0
    }
}

fn die(value: u8) -> Die {
    Die::new(value).expect("a die value 1-6")
}

/// Of the 36 rolls, how many give `attacker` a one-action capture of the enemy king in
/// `pos` (board as it stands; no king: 0).
pub fn king_capture_rolls(pos: &Position, attacker: Color) -> Rolls36 {
    let reach = Reach::of(pos);
    king_rolls(pos, &reach, attacker)
}

fn king_rolls(pos: &Position, reach: &Reach, attacker: Color) -> Rolls36 {
    let Some((king, in_point)) = reach.king[attacker.flip().index()] else {
        return Rolls36(0);
    };
    let attackers = reach.attackers_by_die(pos, attacker, king);
    let mut count = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            count += u32::from(roll_captures(&attackers, in_point, die(a), die(b)));
        }
    }
    Rolls36(count)
}

/// Of the 36 rolls, how many contain at least one of the die values in `mask` (bit `v`).
fn rolls_with_any(mask: u8) -> Rolls36 {
    let missing = 6 - (mask & 0b111_1110).count_ones();
    Rolls36(36 - missing * missing)
}

impl ShogammonEval {
    pub fn new(weights: ShogammonWeights) -> ShogammonEval {
        ShogammonEval { weights }
    }

    /// The evaluation with [`ShogammonWeights::default`].
    pub fn standard() -> &'static ShogammonEval {
        static STANDARD: OnceLock<ShogammonEval> = OnceLock::new();
        STANDARD.get_or_init(|| ShogammonEval::new(ShogammonWeights::default()))
    }

    pub fn weights(&self) -> &ShogammonWeights {
        &self.weights
    }

    /// `color`'s material in centipawns: board (lower pieces of points at
    /// `lower_percent`), hand, and the point bonus.
    pub fn material(&self, pos: &Position, color: Color) -> i32 {
        let w = &self.weights;
        let mut total = 0;
        for sq in pos.squares_of(color).squares() {
            let top = pos.top(sq).expect("occupied");
            total += w.board[top.kind().index()];
            if let Some(lower) = pos.bottom(sq) {
                total += w.board[lower.kind().index()] * w.lower_percent / 100 + w.point_bonus;
            }
        }
        let hand = pos.hand(color);
        for kind in Kind::HAND {
            total += hand.count(kind) as i32 * w.hand[kind.index()];
        }
        total
    }

    /// The largest expected loss (value × chance of the enemy's roll reaching it) among
    /// `victim`'s single non-king pieces.
    fn worst_hanging(&self, pos: &Position, reach: &Reach, victim: Color) -> f64 {
        let enemy = &reach.by_die[victim.flip().index()];
        let singles = pos.squares_of(victim).and_not(pos.points());
        let mut worst: f64 = 0.0;
        for sq in singles.squares() {
            let piece: Piece = pos.top(sq).expect("occupied");
            if piece.kind() == Kind::King {
                continue;
            }
            let mask = (1..=6u8)
                .filter(|&v| enemy[v as usize].contains(sq))
                .fold(0u8, |m, v| m | 1 << v);
            if mask != 0 {
                let chance = rolls_with_any(mask).probability();
                worst = worst.max(chance * self.weights.board[piece.kind().index()] as f64);
            }
        }
        worst
    }

    /// The chance that the side to act captures the enemy king with the dice of this turn:
    /// before the roll over the 36 rolls, inside a turn with the dice left (known).
    fn capture_chance_now(&self, pos: &Position, reach: &Reach) -> f64 {
        let us = pos.side_to_move();
        if pos.awaiting_roll() {
            return king_rolls(pos, reach, us).probability();
        }
        let Some((king, in_point)) = reach.king[us.flip().index()] else {
            return 0.0;
        };
        let attackers = reach.attackers_by_die(pos, us, king);
        let dice: Vec<Die> = pos.dice_left().dice().collect();
        let captures = match (dice.as_slice(), pos.pending_capture()) {
            ([a, b], _) => roll_captures(&attackers, in_point, *a, *b),
            // The second half of a point capture (onto the king's point).
            ([a], Some(pending)) => pending.square == king && attackers[a.value() as usize] > 0,
            ([a], None) => !in_point && attackers[a.value() as usize] > 0,
            _ => false,
        };
        if captures {
            1.0
        } else {
            0.0
        }
    }

    /// The value of `pos` (not ended) from `pov`'s point of view.
    pub fn evaluate(&self, pos: &Position, pov: Color) -> Value {
        self.evaluate_corrected(pos, pov, 0.0)
    }

    /// The value of `pos` (not ended) from `pov`'s point of view, with `correction`
    /// centipawns on the logistic scale (the side to act's view: a net's output) added to
    /// the material term inside its `tanh` ([`ExpectedParts::expected`]).
    pub fn evaluate_corrected(&self, pos: &Position, pov: Color, correction: f64) -> Value {
        let value = self.parts(pos).value(correction);
        if pov == pos.side_to_move() {
            value
        } else {
            value.negate()
        }
    }

    /// The parts of the expected result of `pos` (not ended), the side to act's view.
    pub fn parts(&self, pos: &Position) -> ExpectedParts {
        let w = &self.weights;
        let us = pos.side_to_move();
        let them = us.flip();
        let reach = Reach::of(pos);
        let threat_now = self.worst_hanging(pos, &reach, them);
        let threat_next = self.worst_hanging(pos, &reach, us);
        let score = (self.material(pos, us) - self.material(pos, them)) as f64
            + (threat_now - threat_next * w.defence_percent as f64 / 100.0)
                * w.hanging_percent as f64
                / 100.0;
        let p = self.capture_chance_now(pos, &reach);
        let q = king_rolls(pos, &reach, them).probability() * w.defence_percent as f64 / 100.0;
        ExpectedParts {
            material: score / w.scale as f64,
            offset: p - (1.0 - p) * q,
            slope: (1.0 - p) * (1.0 - q),
        }
    }
}

/// The expected result of a position as the evaluation composes it, the side to act's
/// view: `offset + slope · tanh(material)`, where `material` is the material and threat
/// score over the scale, and `offset = p − (1 − p) q`, `slope = (1 − p)(1 − q)` mix in
/// the side to act's chance `p` of capturing the king with this roll and the enemy's `q` on
/// its next. A net's output corrects `material` (the king odds stay exact), and the feature
/// file carries the three numbers so that the trainer composes exactly so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectedParts {
    pub material: f64,
    pub offset: f64,
    pub slope: f64,
}

impl ExpectedParts {
    /// The expected result in [−1, 1] with `correction` centipawns on the logistic scale
    /// added to the material: `offset + slope · tanh(material + correction / (2 · 600))`.
    /// The evaluation maps it linearly onto ±[`Value::EVAL_MAX`].
    pub fn expected(&self, correction: f64) -> f64 {
        let material = self.material + correction / (2.0 * LOGISTIC_SCALE_CP);
        self.offset + self.slope * material.tanh()
    }

    /// [`ExpectedParts::expected`] mapped linearly onto ±[`Value::EVAL_MAX`] (clamped there),
    /// the side to act's view: the evaluation's value.
    pub fn value(&self, correction: f64) -> Value {
        let value = (self.expected(correction) * f64::from(Value::EVAL_MAX.0)).round() as i32;
        Value(value.clamp(-Value::EVAL_MAX.0, Value::EVAL_MAX.0))
    }
}

/// The standard Shogammon evaluation of `pos` from `pov`'s point of view.
pub fn evaluate(pos: &Position, pov: Color) -> Value {
    ShogammonEval::standard().evaluate(pos, pov)
}

/// The standard evaluation of `pos` turned into centipawns on the logistic scale
/// ([`Value::as_centipawns`]), the side to move's view: what a net corrects.
pub fn hand_written_cp(pos: &Position) -> f64 {
    evaluate(pos, pos.side_to_move()).as_centipawns()
}

/// The evaluation of `pos` with the net `net` (if any) in centipawns on the logistic scale
/// ([`Value::as_centipawns`] of [`evaluate_with_net`]), the side to move's view: the USI
/// command `e` prints it, and the trainer's composition of the net's output gives the same
/// number (`scripts/train_nnue.py`, `Base`).
pub fn corrected_cp(pos: &Position, net: Option<&Network>) -> f64 {
    evaluate_with_net(pos, pos.side_to_move(), net).as_centipawns()
}

/// The evaluation of `pos` from `pov`'s point of view with the net `net` (`None`: the
/// standard evaluation alone): [`evaluate_with_output`] of the net's output.
pub fn evaluate_with_net(pos: &Position, pov: Color, net: Option<&Network>) -> Value {
    match net {
        None => evaluate(pos, pov),
        Some(net) => evaluate_with_output(pos, pov, net.evaluate_shogammon(pos)),
    }
}

/// The evaluation of `pos` from `pov`'s point of view corrected by a net whose output for it
/// is `output` (centipawns on the logistic scale, the side to move's view): the output
/// corrects the hand-written material term inside its `tanh`
/// ([`ShogammonEval::evaluate_corrected`]), so the king odds keep their exact say and the
/// value stays within ±[`Value::EVAL_MAX`].
pub fn evaluate_with_output(pos: &Position, pov: Color, output: i32) -> Value {
    ShogammonEval::standard().evaluate_corrected(pos, pov, f64::from(output))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    #[test]
    fn king_odds_count_the_rolls_with_a_capturing_die() {
        // Sente's gold (die 4) next to gote's single king: 11 of 36 rolls hold a 4.
        let p = pos("9/9/9/9/4k4/4G4/9/9/4K4 b - 1");
        assert_eq!(king_capture_rolls(&p, Color::Sente), Rolls36(11));
        assert_eq!(king_capture_rolls(&p, Color::Gote), Rolls36(0));
        // A pawn (1) and a gold (4): rolls with a 4 or a 1, 36 - 4 * 4 = 20.
        let p = pos("9/9/9/9/3k5/3PG4/9/9/4K4 b - 1");
        assert_eq!(king_capture_rolls(&p, Color::Sente), Rolls36(20));
        // The king is a point's lower piece: a 4 and a 1 on different dice, 2 of 36.
        let p = pos("9/9/9/9/3(kp)5/3PG4/9/9/4K4 b - 1");
        assert_eq!(king_capture_rolls(&p, Color::Sente), Rolls36(2));
        // Two golds against a king in a point: only 4-4, 1 of 36.
        let p = pos("9/9/9/9/3(kp)5/3G1G3/9/9/4K4 b - 1");
        assert_eq!(king_capture_rolls(&p, Color::Sente), Rolls36(0));
        let p = pos("9/9/9/9/3(kp)5/2G1G4/9/9/4K4 b - 1");
        assert_eq!(king_capture_rolls(&p, Color::Sente), Rolls36(1));
        // A slider blocked by any piece does not count.
        let p = pos("4k4/9/9/9/4p4/9/9/9/4RK3 b - 1");
        assert_eq!(king_capture_rolls(&p, Color::Sente), Rolls36(0));
    }

    #[test]
    fn king_odds_agree_with_the_rules_on_every_roll() {
        // Compare the count with the rules: for each roll, is some legal first action a
        // king capture, or some legal first action followed by one that captures it?
        use crate::rules::game::Game;
        use crate::rules::moves::MoveList;
        use crate::rules::variants::shogammon::Roll;
        for sfen in [
            "9/9/9/9/3k5/3PG4/9/9/4K4 b - 1",
            "9/9/9/9/3(kp)5/3PG4/9/9/4K4 b - 1",
            "9/9/9/9/3(kp)5/2G1G4/9/9/4K4 b - 1",
            "4k4/9/9/9/9/9/9/9/2B1RK3 b - 1",
        ] {
            let start = pos(sfen);
            let mut direct = 0;
            for roll in Roll::all() {
                let mut p = start.clone();
                p.play(roll.to_move());
                let mut first = MoveList::new();
                p.legal_actions(&mut first);
                let mut captures = false;
                for &a in first.iter() {
                    // A capture of the king's square, completed within this turn.
                    let on_king = Some(a.to()) == Reach::of(&p).king[1].map(|k| k.0)
                        && !a.is_pass()
                        && a.from().is_some();
                    p.play(a);
                    if on_king && p.outcome().is_some() {
                        captures = true;
                    } else if on_king {
                        let mut second = MoveList::new();
                        p.legal_actions(&mut second);
                        for &b in second.iter() {
                            p.play(b);
                            captures |= p.outcome().is_some();
                            p.unplay();
                        }
                    }
                    p.unplay();
                }
                direct += u32::from(captures) * roll.weight().0;
            }
            assert_eq!(
                king_capture_rolls(&start, Color::Sente),
                Rolls36(direct),
                "{sfen}"
            );
        }
    }

    #[test]
    fn the_start_is_even_and_the_scale_is_bounded_and_symmetric() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start, Color::Sente), Value(0));
        assert_eq!(evaluate(&start, Color::Gote), Value(0));
        let rook_up = pos("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let v = evaluate(&rook_up, Color::Sente);
        assert!(v.0 > 1000 && v.0 < Value::EVAL_MAX.0, "{v:?}");
        assert_eq!(evaluate(&rook_up, Color::Gote), v.negate());
        // Mirrored position, gote to roll: the same value for gote.
        let mirrored = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL w - 1");
        assert_eq!(evaluate(&mirrored, Color::Gote), v);
    }

    #[test]
    fn a_king_under_threat_costs_and_a_point_shields_it() {
        // Gote's single king attacked by a sente gold: sente to roll is close to winning
        // (11/36 at once), gote to roll is worse off than with the king out of reach.
        let threatened = pos("9/9/9/9/4k4/4G4/9/9/4K4 b - 1");
        let safe = pos("4k4/9/9/9/9/4G4/9/9/4K4 b - 1");
        let shielded = pos("9/9/9/9/4(kp)4/4G4/9/9/4K4 b - 1");
        let sente = |p: &Position| evaluate(p, Color::Sente).0;
        // 11 of 36 rolls win at once: about a third of the way from the material value to a win.
        assert!(sente(&threatened) > sente(&safe) + 1500);
        assert!(sente(&shielded) < sente(&threatened));
        let gote_threatened = pos("9/9/9/9/4k4/4G4/9/9/4K4 w - 1");
        let gote_safe = pos("4k4/9/9/9/9/4G4/9/9/4K4 w - 1");
        assert!(evaluate(&gote_threatened, Color::Gote).0 < evaluate(&gote_safe, Color::Gote).0);
    }

    #[test]
    fn lower_pieces_and_points_change_material() {
        let e = ShogammonEval::standard();
        let single = pos("4k4/9/9/9/9/4G4/4S4/9/4K4 b - 1");
        let point = pos("4k4/9/9/9/9/9/4(SG)4/9/4K4 b - 1");
        let w = e.weights();
        let expected = w.board[Kind::Gold.index()]
            + w.board[Kind::Silver.index()] * w.lower_percent / 100
            + w.point_bonus;
        assert_eq!(e.material(&point, Color::Sente), expected);
        assert_eq!(
            e.material(&single, Color::Sente),
            w.board[Kind::Gold.index()] + w.board[Kind::Silver.index()]
        );
        let in_hand = pos("4k4/9/9/9/9/9/9/9/4K4 b GS 1");
        assert_eq!(
            e.material(&in_hand, Color::Sente),
            w.hand[Kind::Gold.index()] + w.hand[Kind::Silver.index()]
        );
    }
}
