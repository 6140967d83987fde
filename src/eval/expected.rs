//! The bounded expected-result scale every chance-game evaluation maps onto and the chance
//! search averages over (`docs/USI.md`, "Scores"). It lives below the search so that the
//! evaluations of Shogammon and the Central Madness can name it without importing the
//! search (`search::chance` re-exports it).

/// Centipawns at which the logistic gives a 73% expected result (one unit of its scale): the
/// chance games' evaluations that count in centipawns (the Madness's board, the net that
/// corrects Shogammon's) and their training records go to and from [`Value`] by it.
pub const LOGISTIC_SCALE_CP: f64 = 600.0;

/// A score on the bounded expected-result scale: [`Value::WIN`] is a certain win for the
/// point of view, [`Value::LOSS`] a certain loss, 0 an even game. A terminal win `ply` actions
/// after the root scores `WIN - ply`; static evaluations lie within ±[`Value::EVAL_MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Value(pub i32);

impl Value {
    /// A certain win (`W` in the design).
    pub const WIN: Value = Value(10_000);
    /// A certain loss (`-W`).
    pub const LOSS: Value = Value(-10_000);
    /// The most plies a search can go below its root; wins within this many plies of the
    /// root are "win scores" that the transposition table stores relative to the node.
    pub const MAX_PLY: i32 = 256;
    /// The largest static evaluation (clamped): below every terminal score.
    pub const EVAL_MAX: Value = Value(9_000);
    /// A draw.
    pub const DRAW: Value = Value(0);

    /// The value of a won (or, negated, lost) terminal `ply` actions below the root.
    pub fn win_in(ply: usize) -> Value {
        Value(Value::WIN.0 - ply.min(Value::MAX_PLY as usize) as i32)
    }

    /// The same value from the other colour's point of view.
    #[inline]
    pub fn negate(self) -> Value {
        Value(-self.0)
    }

    /// Centipawns mapped onto the expected-result scale: `W · (2·logistic(cp / scale) − 1)`,
    /// i.e. `W · tanh(cp / (2·scale))` with the scale [`LOGISTIC_SCALE_CP`], within
    /// ±[`Value::EVAL_MAX`].
    pub fn from_centipawns(cp: i32) -> Value {
        Value::from_fractional_centipawns(f64::from(cp))
    }

    /// [`Value::from_centipawns`] of a fractional number of centipawns (near 0 one
    /// centipawn spans about 8 steps of the scale).
    pub fn from_fractional_centipawns(cp: f64) -> Value {
        let v = Value::WIN.0 as f64 * (cp / (2.0 * LOGISTIC_SCALE_CP)).tanh();
        Value((v.round() as i32).clamp(-Value::EVAL_MAX.0, Value::EVAL_MAX.0))
    }

    /// The centipawns an evaluation (within ±[`Value::EVAL_MAX`]) stands for: the inverse of
    /// [`Value::from_centipawns`] (±EVAL_MAX is about ±1766 cp).
    pub fn as_centipawns(self) -> f64 {
        let fraction = f64::from(self.0) / f64::from(Value::WIN.0);
        2.0 * LOGISTIC_SCALE_CP * fraction.atanh()
    }

    /// This value as a win probability in per mille (0 = certain loss, 1000 = certain win).
    pub fn win_permille(self) -> u32 {
        ((self.0 - Value::LOSS.0) as i64 * 1000 / (2 * Value::WIN.0) as i64) as u32
    }
}

const _: () = assert!(Value::EVAL_MAX.0 < Value::WIN.0 - Value::MAX_PLY);
