//! The dice of Shogammon: a die value, a roll of two dice and its `Move` encoding, the
//! dice still to use in a turn, and the die → piece table ([`ShogammonDice`], RULES.md §4.2,
//! ambiguity #14) with the alternatives RULES.md lists, readable by name or as a table.

use crate::rules::game::Weight;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::Kind;
use std::fmt;

/// One die's value, 1–6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Die(u8);

impl Die {
    /// The die showing `value`, if 1–6.
    pub fn new(value: u8) -> Option<Die> {
        (1..=6).contains(&value).then_some(Die(value))
    }

    #[inline]
    pub fn value(self) -> u8 {
        self.0
    }
}

/// The two dice of a turn, higher first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    pub high: Die,
    pub low: Die,
}

impl Roll {
    pub fn new(a: Die, b: Die) -> Roll {
        Roll {
            high: a.max(b),
            low: a.min(b),
        }
    }

    pub fn is_double(self) -> bool {
        self.high == self.low
    }

    /// The chance action of this roll: `Move::chance(10 * high + low)`.
    pub fn to_move(self) -> Move {
        Move::chance(10 * self.high.0 as u16 + self.low.0 as u16)
    }

    /// The roll a chance action stands for, if it is one.
    pub fn from_move(mv: Move) -> Option<Roll> {
        let code = mv.chance_code()?;
        let high = Die::new(u8::try_from(code / 10).ok()?)?;
        let low = Die::new((code % 10) as u8)?;
        (low <= high).then_some(Roll { high, low })
    }

    /// Weight 1 for a double, 2 for a mixed roll (out of 36).
    pub fn weight(self) -> Weight {
        Weight(if self.is_double() { 1 } else { 2 })
    }

    /// The 21 distinct rolls, high die descending then low die descending.
    pub fn all() -> impl Iterator<Item = Roll> {
        (1..=6u8)
            .rev()
            .flat_map(|h| (1..=h).rev().map(move |l| Roll::new(Die(h), Die(l))))
    }

    /// The token `r:61` (higher die first).
    pub fn token(self) -> String {
        format!("r:{}{}", self.high.0, self.low.0)
    }

    /// Reads `r:ab` (either order of the two dice).
    pub fn parse_token(text: &str) -> Option<Roll> {
        let digits = text.strip_prefix("r:")?.as_bytes();
        match digits {
            [a, b] => Some(Roll::new(
                Die::new(a.checked_sub(b'0')?)?,
                Die::new(b.checked_sub(b'0')?)?,
            )),
            _ => None,
        }
    }
}

/// The dice still to use in the current turn: zero, one or two values, higher first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DiceLeft([Option<Die>; 2]);

impl DiceLeft {
    pub fn of_roll(roll: Roll) -> DiceLeft {
        DiceLeft([Some(roll.high), Some(roll.low)])
    }

    pub fn is_empty(self) -> bool {
        self.0[0].is_none()
    }

    /// The dice, higher first.
    pub fn dice(self) -> impl Iterator<Item = Die> {
        self.0.into_iter().flatten()
    }

    pub fn count(self, die: Die) -> usize {
        self.dice().filter(|d| *d == die).count()
    }

    /// The die left besides one `die` (`None` if `die` is the last one).
    pub fn other_than(self, die: Die) -> Option<Die> {
        match self.0 {
            [Some(a), Some(b)] if a == die => Some(b),
            [Some(a), Some(b)] if b == die => Some(a),
            _ => None,
        }
    }

    /// Removes one die of value `die` (it must be there).
    pub fn without(self, die: Die) -> DiceLeft {
        debug_assert!(self.count(die) > 0, "{die:?} not among {self:?}");
        match self.0 {
            [Some(a), b] if a == die => DiceLeft([b, None]),
            [a, Some(b)] if b == die => DiceLeft([a, None]),
            other => DiceLeft(other),
        }
    }
}

/// How far the duty to use the dice goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DiceUse {
    /// RULES.md §4.3 (the default): the player picks the order and each die must be used if
    /// it can be when its turn comes; a first action may leave the other die unusable.
    #[default]
    Ordered,
    /// Backgammon's rule (RULES.md §4.3, ruling #27): use as many dice as possible; if only
    /// one can be used but either could, the larger. A move that captures the king always
    /// counts as using every die.
    Maximal,
}

impl DiceUse {
    /// Reads `ordered` or `maximal`.
    pub fn parse(text: &str) -> Result<DiceUse, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ordered" => Ok(DiceUse::Ordered),
            "maximal" => Ok(DiceUse::Maximal),
            other => Err(format!("dice use {other:?}: expected ordered or maximal")),
        }
    }
}

/// Which die value moves which piece types: RULES.md §4.2 (ambiguity #14). Promoted pieces
/// use their unpromoted type's value. A game setting, so it can become the USI option
/// `ShogammonDice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShogammonDice {
    /// The die value of each unpromoted kind, indexed by `Kind as usize` (Pawn … King).
    die_of_base: [Die; 8],
}

/// The letters of the eight unpromoted kinds, in `Kind` order (Pawn … King).
const BASE_LETTERS: [char; 8] = ['P', 'L', 'N', 'S', 'B', 'R', 'G', 'K'];

impl ShogammonDice {
    /// The named tables: RULES.md's recommended default and the two alternatives it lists.
    pub const NAMED: [(&'static str, &'static str); 3] = [
        ("default", "P/LN/S/G/BR/K"),
        ("knight3", "P/L/N/SG/BR/K"),
        ("rook5", "P/LN/SG/B/R/K"),
    ];

    /// Reads a table name (`default`, `knight3`, `rook5`) or a table written as six
    /// `/`-separated groups of piece letters for dice 1–6 (`P/LN/S/G/BR/K`); each of
    /// P L N S G B R K must appear exactly once.
    pub fn parse(text: &str) -> Result<ShogammonDice, String> {
        let spec = Self::NAMED
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text.trim()))
            .map_or(text.trim(), |(_, spec)| spec);
        let groups: Vec<&str> = spec.split('/').collect();
        if groups.len() != 6 {
            return Err(format!(
                "dice table {text:?}: expected a name ({}) or six /-separated groups like P/LN/S/G/BR/K",
                Self::NAMED.map(|(n, _)| n).join(", ")
            ));
        }
        let mut die_of_base: [Option<Die>; 8] = [None; 8];
        for (value, group) in (1..=6u8).zip(&groups) {
            for letter in group.chars() {
                let kind = BASE_LETTERS
                    .iter()
                    .position(|l| *l == letter.to_ascii_uppercase())
                    .ok_or_else(|| format!("dice table {text:?}: unknown piece {letter:?}"))?;
                if die_of_base[kind].replace(Die(value)).is_some() {
                    return Err(format!("dice table {text:?}: {letter} appears twice"));
                }
            }
        }
        let mut table = [Die(1); 8];
        for (slot, die) in die_of_base.iter().enumerate() {
            table[slot] = die
                .ok_or_else(|| format!("dice table {text:?}: no die for {}", BASE_LETTERS[slot]))?;
        }
        Ok(ShogammonDice { die_of_base: table })
    }

    /// The die value that moves (or drops) a piece of `kind`.
    #[inline]
    pub fn die_of(&self, kind: Kind) -> Die {
        let base = kind.in_hand().unwrap_or(Kind::King);
        self.die_of_base[base.index()]
    }

    /// The table as six groups (`P/LN/S/G/BR/K`).
    pub fn spec(&self) -> String {
        (1..=6u8)
            .map(|v| {
                BASE_LETTERS
                    .iter()
                    .zip(self.die_of_base)
                    .filter(|(_, d)| d.0 == v)
                    .map(|(l, _)| *l)
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

impl Default for ShogammonDice {
    fn default() -> Self {
        ShogammonDice::parse(Self::NAMED[0].1).expect("the default table is valid")
    }
}

impl fmt::Display for ShogammonDice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = self.spec();
        match Self::NAMED.iter().find(|(_, s)| *s == spec) {
            Some((name, _)) => write!(f, "{name}"),
            None => write!(f, "{spec}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_encode_and_weigh() {
        let rolls: Vec<Roll> = Roll::all().collect();
        assert_eq!(rolls.len(), 21);
        assert_eq!(rolls.iter().map(|r| r.weight().0).sum::<u32>(), 36);
        for roll in &rolls {
            assert_eq!(Roll::from_move(roll.to_move()), Some(*roll));
            assert_eq!(Roll::parse_token(&roll.token()), Some(*roll));
        }
        assert_eq!(Roll::parse_token("r:16").unwrap().token(), "r:61");
        assert_eq!(
            Roll::parse_token("r:61").unwrap().to_move(),
            Move::chance(61)
        );
        for bad in ["r:70", "r:6", "r:611", "61", "r:0a", "r:", "x:61"] {
            assert_eq!(Roll::parse_token(bad), None, "{bad}");
        }
        assert_eq!(Roll::from_move(Move::chance(16)), None);
        assert_eq!(Roll::from_move(Move::pass()), None);
    }

    #[test]
    fn dice_left_removes_one_die() {
        let d = |v| Die::new(v).unwrap();
        let left = DiceLeft::of_roll(Roll::new(d(3), d(3)));
        assert_eq!(left.count(d(3)), 2);
        assert_eq!(left.other_than(d(3)), Some(d(3)));
        let one = left.without(d(3));
        assert_eq!((one.count(d(3)), one.other_than(d(3))), (1, None));
        assert!(one.without(d(3)).is_empty());
        let mixed = DiceLeft::of_roll(Roll::new(d(1), d(6)));
        assert_eq!(mixed.dice().collect::<Vec<_>>(), vec![d(6), d(1)]);
        assert_eq!(mixed.without(d(6)).dice().collect::<Vec<_>>(), vec![d(1)]);
        assert_eq!(mixed.other_than(d(1)), Some(d(6)));
    }

    #[test]
    fn dice_use_parses() {
        assert_eq!(DiceUse::parse("Maximal"), Ok(DiceUse::Maximal));
        assert_eq!(DiceUse::parse("ordered"), Ok(DiceUse::Ordered));
        assert_eq!(DiceUse::default(), DiceUse::Ordered);
        assert!(DiceUse::parse("most").is_err());
    }

    #[test]
    fn tables_parse_by_name_or_spec() {
        let default = ShogammonDice::default();
        let die = |t: &ShogammonDice, k| t.die_of(k).value();
        assert_eq!(
            [
                Kind::Pawn,
                Kind::Lance,
                Kind::Knight,
                Kind::Silver,
                Kind::Gold
            ]
            .map(|k| die(&default, k)),
            [1, 2, 2, 3, 4]
        );
        assert_eq!(
            [Kind::Bishop, Kind::Dragon, Kind::King, Kind::ProPawn].map(|k| die(&default, k)),
            [5, 5, 6, 1]
        );
        let knight3 = ShogammonDice::parse("knight3").unwrap();
        assert_eq!(die(&knight3, Kind::ProKnight), 3);
        assert_eq!(die(&knight3, Kind::Gold), 4);
        let rook5 = ShogammonDice::parse("ROOK5").unwrap();
        assert_eq!((die(&rook5, Kind::Horse), die(&rook5, Kind::Rook)), (4, 5));
        assert_eq!(rook5.to_string(), "rook5");
        let custom = ShogammonDice::parse("K/P/LN/SG/B/R").unwrap();
        assert_eq!(custom.to_string(), "K/P/LN/SG/B/R");
        assert_eq!(die(&custom, Kind::King), 1);
        for bad in [
            "",
            "fancy",
            "P/LN/S/G/BR",
            "P/LN/S/G/BR/KK",
            "P/LN/S/G/B/K",
            "P/LN/S/G/BRX/K",
        ] {
            assert!(ShogammonDice::parse(bad).is_err(), "{bad}");
        }
    }
}
