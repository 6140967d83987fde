//! Betza notation (RULES.md §0.3) turned into the [`MoveAtom`]s of `piece.rs`.
//!
//! The parser knows the subset the project's games use: the atoms W F D A N (steps and
//! leaps), R B Q (riders), K (W + F), a range after an atom (`R2`, `B4`, `W3`: a rider
//! limited to that many squares) and the direction modifiers `f b l r s v h`, alone or
//! combined (`fF`, `lB`, `rbB`, `lbW2`, `ffN`, `rhQ`). Everything is owner-relative. Anything
//! it cannot express exactly (XBetza's move-only or capture-only modes, bent and hopping
//! moves, unknown atoms, an ambiguous modifier) is refused with a [`BetzaError`] that names
//! the offending part, never guessed at.
//!
//! Modifier semantics, per atom family:
//! * orthogonal atoms (W, D, R): each of `f b l r` picks that direction, `s` = `l`+`r`,
//!   `v` = `f`+`b`; letters written together add up (`lbW2` = left and back).
//! * diagonal atoms (F, A, B): a vertical and a horizontal letter written together pick one
//!   diagonal (`fl`, `rb`, …); a lone `f b l r` picks the two diagonals on that side.
//! * the knight (N): a lone `f b l r` picks the four moves on that side, a doubled one
//!   (`ff`, `rr`, …) the two whose long leg points that way, `s` the four wide and `v` the
//!   four narrow moves.
//! * compounds (Q = R + B, K = W + F): a lone letter or a letter with `h` (`rh`, "right
//!   half") picks every direction with a component that way: `rhQ` = right, forward-right
//!   and back-right.

use crate::rules::piece::MoveAtom;
use std::fmt;

/// Why a Betza string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The whole string that was being parsed.
    pub text: String,
    /// What went wrong, naming the offending part.
    pub reason: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read Betza {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for BetzaError {}

/// Which shape of move an atom letter stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Orthogonal,
    Diagonal,
    Knight,
    Compound,
}

/// One atom letter: its displacement vectors (forward, left) and whether it rides.
struct AtomShape {
    family: Family,
    vectors: &'static [(i8, i8)],
    /// Leaps of more than one square (D, A, N) can never ride in this subset.
    leaper: bool,
    /// R, B, Q: unlimited riders.
    rider: bool,
}

const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ORTHO2: [(i8, i8); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
const DIAG2: [(i8, i8); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
const KNIGHT: [(i8, i8); 8] = [
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
    (1, 2),
    (1, -2),
    (-1, 2),
    (-1, -2),
];
const QUEEN: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn shape(letter: char) -> Option<AtomShape> {
    let (family, vectors, leaper, rider): (Family, &'static [(i8, i8)], bool, bool) = match letter {
        'W' => (Family::Orthogonal, &ORTHO, false, false),
        'F' => (Family::Diagonal, &DIAG, false, false),
        'D' => (Family::Orthogonal, &ORTHO2, true, false),
        'A' => (Family::Diagonal, &DIAG2, true, false),
        'N' => (Family::Knight, &KNIGHT, true, false),
        'R' => (Family::Orthogonal, &ORTHO, false, true),
        'B' => (Family::Diagonal, &DIAG, false, true),
        'Q' => (Family::Compound, &QUEEN, false, true),
        'K' => (Family::Compound, &QUEEN, false, false),
        _ => return None,
    };
    Some(AtomShape {
        family,
        vectors,
        leaper,
        rider,
    })
}

/// One group of modifier letters, as it selects directions.
#[derive(Clone, Copy, Debug)]
enum Clause {
    /// `f`, `b`, `l` or `r` alone (or followed by `h`).
    Single(char),
    /// `fl`, `rb`, … (a vertical and a horizontal letter).
    Pair(char, char),
    /// `ff`, `bb`, `ll`, `rr`.
    Double(char),
    /// `s` (left + right).
    Sideways,
    /// `v` (forward + back).
    Vertical,
}

/// Does `(forward, left)` point the way of the single letter `c` (its half-plane)?
fn toward(c: char, (forward, left): (i8, i8)) -> bool {
    match c {
        'f' => forward > 0,
        'b' => forward < 0,
        'l' => left > 0,
        'r' => left < 0,
        _ => false,
    }
}

fn is_vertical(c: char) -> bool {
    matches!(c, 'f' | 'b')
}

fn is_horizontal(c: char) -> bool {
    matches!(c, 'l' | 'r')
}

/// Splits a run of modifier letters into clauses.
fn clauses(modifiers: &str) -> Result<Vec<Clause>, String> {
    let chars: Vec<char> = modifiers.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            'f' | 'b' | 'l' | 'r' => match next {
                Some(n) if n == c => {
                    out.push(Clause::Double(c));
                    i += 2;
                }
                Some('h') => {
                    out.push(Clause::Single(c));
                    i += 2;
                }
                Some(n)
                    if (is_vertical(c) && is_horizontal(n))
                        || (is_horizontal(c) && is_vertical(n)) =>
                {
                    out.push(Clause::Pair(c, n));
                    i += 2;
                }
                _ => {
                    out.push(Clause::Single(c));
                    i += 1;
                }
            },
            's' => {
                out.push(Clause::Sideways);
                i += 1;
            }
            'v' => {
                out.push(Clause::Vertical);
                i += 1;
            }
            'h' => return Err("'h' must follow one of f, b, l, r".into()),
            other => return Err(format!("modifier {other:?} is not supported")),
        }
    }
    Ok(out)
}

/// The vectors of `shape` that `clause` selects, or why the combination is refused.
fn select(clause: Clause, shape: &AtomShape, atom: char) -> Result<Vec<(i8, i8)>, String> {
    let all = shape.vectors.iter().copied();
    let picked: Vec<(i8, i8)> = match (clause, shape.family) {
        (Clause::Single(c), _) => all.filter(|v| toward(c, *v)).collect(),
        (Clause::Pair(a, b), Family::Orthogonal) => {
            all.filter(|v| toward(a, *v) || toward(b, *v)).collect()
        }
        (Clause::Pair(a, b), Family::Diagonal) => {
            all.filter(|v| toward(a, *v) && toward(b, *v)).collect()
        }
        (Clause::Double(c), Family::Knight) => all
            .filter(|v| toward(c, *v) && (if is_vertical(c) { v.0 } else { v.1 }).abs() == 2)
            .collect(),
        (Clause::Sideways, Family::Orthogonal) => {
            all.filter(|v| toward('l', *v) || toward('r', *v)).collect()
        }
        (Clause::Vertical, Family::Orthogonal) => {
            all.filter(|v| toward('f', *v) || toward('b', *v)).collect()
        }
        (Clause::Sideways, Family::Knight) => all.filter(|v| v.1.abs() == 2).collect(),
        (Clause::Vertical, Family::Knight) => all.filter(|v| v.0.abs() == 2).collect(),
        (clause, _) => {
            return Err(format!(
                "modifier {} is ambiguous on {atom}",
                clause_text(clause)
            ))
        }
    };
    if picked.is_empty() {
        return Err(format!(
            "modifier {} selects no move of {atom}",
            clause_text(clause)
        ));
    }
    Ok(picked)
}

fn clause_text(clause: Clause) -> String {
    match clause {
        Clause::Single(c) => c.to_string(),
        Clause::Pair(a, b) => format!("{a}{b}"),
        Clause::Double(c) => format!("{c}{c}"),
        Clause::Sideways => "s".into(),
        Clause::Vertical => "v".into(),
    }
}

/// The atoms of one Betza atom letter with its modifiers and range.
fn atoms_of(
    modifiers: &str,
    atom: char,
    range: Option<u8>,
    out: &mut Vec<MoveAtom>,
) -> Result<(), String> {
    let shape = shape(atom).ok_or_else(|| format!("unknown atom {atom:?}"))?;
    let mut vectors: Vec<(i8, i8)> = Vec::new();
    if modifiers.is_empty() {
        vectors.extend_from_slice(shape.vectors);
    } else {
        for clause in clauses(modifiers)? {
            for v in select(clause, &shape, atom)? {
                if !vectors.contains(&v) {
                    vectors.push(v);
                }
            }
        }
    }
    if let Some(n) = range {
        if n == 0 {
            return Err(format!("range 0 after {atom}"));
        }
        if shape.leaper {
            return Err(format!(
                "{atom}{n}: riders of {atom} leaps are not supported"
            ));
        }
        if atom == 'K' {
            return Err(format!(
                "K{n}: a ranged king is ambiguous (write W{n}F{n} or Q{n})"
            ));
        }
    }
    for (forward, left) in vectors {
        let limit = match range {
            Some(n) => Some(n),
            None if shape.rider => None,
            None => Some(1),
        };
        out.push(if shape.leaper {
            MoveAtom::Leap { forward, left }
        } else {
            match limit {
                Some(1) => MoveAtom::Step { forward, left },
                Some(max) => MoveAtom::RangeSlide { forward, left, max },
                None => MoveAtom::Slide { forward, left },
            }
        });
    }
    Ok(())
}

/// Parses a Betza string (spaces between atoms are allowed) into move atoms, in the order
/// written. A direction written twice (`KrhQ`: the right step and the right slide) gives two
/// atoms; their union is the move.
pub fn parse(text: &str) -> Result<Vec<MoveAtom>, BetzaError> {
    let fail = |reason: String| BetzaError {
        text: text.to_string(),
        reason,
    };
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.is_empty() {
        return Err(fail("empty string".into()));
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            i += 1;
        }
        let modifiers: String = chars[start..i].iter().collect();
        let Some(&atom) = chars.get(i) else {
            return Err(fail(format!(
                "modifiers {modifiers:?} are not followed by an atom"
            )));
        };
        if !atom.is_ascii_uppercase() {
            return Err(fail(format!(
                "unexpected {atom:?} where an atom letter belongs"
            )));
        }
        i += 1;
        let digits_start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let range = if i > digits_start {
            let digits: String = chars[digits_start..i].iter().collect();
            Some(
                digits
                    .parse::<u8>()
                    .map_err(|_| fail(format!("range {digits} after {atom} is too large")))?,
            )
        } else {
            None
        };
        atoms_of(&modifiers, atom, range, &mut out)
            .map_err(|reason| fail(format!("{modifiers}{atom}: {reason}")))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A move atom written as (kind, forward, left, range) for order-free comparison.
    type Sig = (char, i8, i8, u8);

    fn sig(atom: MoveAtom) -> Sig {
        match atom {
            MoveAtom::Step { forward, left } => ('s', forward, left, 1),
            MoveAtom::Leap { forward, left } => ('j', forward, left, 1),
            MoveAtom::Slide { forward, left } => ('r', forward, left, u8::MAX),
            MoveAtom::RangeSlide { forward, left, max } => ('r', forward, left, max),
        }
    }

    fn set(text: &str) -> BTreeSet<Sig> {
        parse(text)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(sig)
            .collect()
    }

    const INF: u8 = u8::MAX;

    fn steps(v: &[(i8, i8)]) -> Vec<Sig> {
        v.iter().map(|&(f, l)| ('s', f, l, 1)).collect()
    }
    fn rides(v: &[(i8, i8)], n: u8) -> Vec<Sig> {
        v.iter().map(|&(f, l)| ('r', f, l, n)).collect()
    }
    fn leaps(v: &[(i8, i8)]) -> Vec<Sig> {
        v.iter().map(|&(f, l)| ('j', f, l, 1)).collect()
    }
    fn of(parts: &[Vec<Sig>]) -> BTreeSet<Sig> {
        parts.iter().flatten().copied().collect()
    }

    // Owner-relative unit directions: forward, back, left, right and the diagonals.
    const F: (i8, i8) = (1, 0);
    const B: (i8, i8) = (-1, 0);
    const L: (i8, i8) = (0, 1);
    const R: (i8, i8) = (0, -1);
    const FL: (i8, i8) = (1, 1);
    const FR: (i8, i8) = (1, -1);
    const BL: (i8, i8) = (-1, 1);
    const BR: (i8, i8) = (-1, -1);

    #[test]
    fn plain_atoms() {
        assert_eq!(set("W"), of(&[steps(&[F, B, L, R])]));
        assert_eq!(set("F"), of(&[steps(&[FL, FR, BL, BR])]));
        assert_eq!(set("K"), of(&[steps(&[F, B, L, R, FL, FR, BL, BR])]));
        assert_eq!(set("R"), of(&[rides(&[F, B, L, R], INF)]));
        assert_eq!(set("B"), of(&[rides(&[FL, FR, BL, BR], INF)]));
        assert_eq!(set("Q").len(), 8);
        assert_eq!(set("D"), of(&[leaps(&[(2, 0), (-2, 0), (0, 2), (0, -2)])]));
        assert_eq!(
            set("A"),
            of(&[leaps(&[(2, 2), (2, -2), (-2, 2), (-2, -2)])])
        );
        assert_eq!(set("N").len(), 8);
        assert_eq!(set("R1"), set("W"));
        assert_eq!(set("B3"), of(&[rides(&[FL, FR, BL, BR], 3)]));
    }

    /// Every Betza string of Chu Kagamigi (RULES.md §3.2 in both spellings the sources use,
    /// with the §3.5 (a) correction), against the words of the piece description.
    #[test]
    fn every_chu_kagamigi_string() {
        let gold = of(&[steps(&[F, B, L, R, FL, FR])]);
        let king = of(&[steps(&[F, B, L, R, FL, FR, BL, BR])]);
        let king_and = |extra: Vec<Sig>| {
            let mut s = king.clone();
            s.extend(extra);
            s
        };
        let cases: Vec<(&str, BTreeSet<Sig>)> = vec![
            ("K", king.clone()),
            ("fRflBbrBbW", of(&[rides(&[F, FL, BR], INF), steps(&[B])])),
            ("fRfrBblBbW", of(&[rides(&[F, FR, BL], INF), steps(&[B])])),
            ("vRfBsW", of(&[rides(&[F, B, FL, FR], INF), steps(&[L, R])])),
            ("lWfFbrF", of(&[steps(&[L, FL, FR, BR])])),
            ("sRflFbrF", of(&[rides(&[L, R], INF), steps(&[FL, BR])])),
            ("rWfFblF", of(&[steps(&[R, FL, FR, BL])])),
            ("sRfrFblF", of(&[rides(&[L, R], INF), steps(&[FR, BL])])),
            ("B", of(&[rides(&[FL, FR, BL, BR], INF)])),
            (
                "BW",
                of(&[rides(&[FL, FR, BL, BR], INF), steps(&[F, B, L, R])]),
            ),
            ("R", of(&[rides(&[F, B, L, R], INF)])),
            (
                "RF",
                of(&[rides(&[F, B, L, R], INF), steps(&[FL, FR, BL, BR])]),
            ),
            (
                "WA",
                of(&[
                    steps(&[F, B, L, R]),
                    leaps(&[(2, 2), (2, -2), (-2, 2), (-2, -2)]),
                ]),
            ),
            (
                "BW3",
                of(&[rides(&[FL, FR, BL, BR], INF), rides(&[F, B, L, R], 3)]),
            ),
            (
                "FD",
                of(&[
                    steps(&[FL, FR, BL, BR]),
                    leaps(&[(2, 0), (-2, 0), (0, 2), (0, -2)]),
                ]),
            ),
            (
                "RF3",
                of(&[rides(&[F, B, L, R], INF), rides(&[FL, FR, BL, BR], 3)]),
            ),
            (
                "frB4 lW2 bW2 flF brF fW",
                of(&[rides(&[FR], 4), rides(&[L, B], 2), steps(&[FL, BR, F])]),
            ),
            ("frB4lbW2flFbrFfW", set("frB4 lW2 bW2 flF brF fW")),
            ("K frB brB blB", king_and(rides(&[FR, BR, BL], INF))),
            ("KrBlbB", set("K frB brB blB")),
            (
                "flB4 rW2 bW2 frF blF fW",
                of(&[rides(&[FL], 4), rides(&[R, B], 2), steps(&[FR, BL, F])]),
            ),
            ("flB4rbW2frFblFfW", set("flB4 rW2 bW2 frF blF fW")),
            ("K flB blB brB", king_and(rides(&[FL, BL, BR], INF))),
            ("KlBrbB", set("K flB blB brB")),
            ("WfF", gold.clone()),
            ("WfFDfA", {
                let mut s = gold.clone();
                s.extend(leaps(&[(2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (2, -2)]));
                s
            }),
            ("WfF D fA", set("WfFDfA")),
            ("FfW", of(&[steps(&[FL, FR, BL, BR, F])])),
            (
                "FfWAfD",
                of(&[
                    steps(&[FL, FR, BL, BR, F]),
                    leaps(&[(2, 2), (2, -2), (-2, 2), (-2, -2), (2, 0)]),
                ]),
            ),
            ("FfW A fD", set("FfWAfD")),
            ("FvrW", of(&[steps(&[FL, FR, BL, BR, F, B, R])])),
            ("FvlW", of(&[steps(&[FL, FR, BL, BR, F, B, L])])),
            ("KrhQ", king_and(rides(&[R, FR, BR], INF))),
            ("K rR frB brB", set("KrhQ")),
            ("KlhQ", king_and(rides(&[L, FL, BL], INF))),
            ("K lR flB blB", set("KlhQ")),
            ("fRbrBbW", of(&[rides(&[F, BR], INF), steps(&[B])])),
            ("fRblBbW", of(&[rides(&[F, BL], INF), steps(&[B])])),
            ("rhQlW2", of(&[rides(&[R, FR, BR], INF), rides(&[L], 2)])),
            ("rR frB brB lW2", set("rhQlW2")),
            ("lhQrW2", of(&[rides(&[L, FL, BL], INF), rides(&[R], 2)])),
            ("lR flB blB rW2", set("lhQrW2")),
            ("fRbrBblF", of(&[rides(&[F, BR], INF), steps(&[BL])])),
            ("fRblBbrF", of(&[rides(&[F, BL], INF), steps(&[BR])])),
            ("rhQlF", of(&[rides(&[R, FR, BR], INF), steps(&[FL, BL])])),
            ("rR frB brB lF", set("rhQlF")),
            ("lhQrF", of(&[rides(&[L, FL, BL], INF), steps(&[FR, BR])])),
            ("lR flB blB rF", set("lhQrF")),
            ("ffN", of(&[leaps(&[(2, 1), (2, -1)])])),
            ("BsR", of(&[rides(&[FL, FR, BL, BR, L, R], INF)])),
            ("WfF2", of(&[steps(&[F, B, L, R]), rides(&[FL, FR], 2)])),
            (
                "BbRfW",
                of(&[rides(&[FL, FR, BL, BR, B], INF), steps(&[F])]),
            ),
            ("sW4bWfF", of(&[rides(&[L, R], 4), steps(&[B, FL, FR])])),
            ("sW4 bW fF", set("sW4bWfF")),
            ("sRK", king_and(rides(&[L, R], INF))),
            ("fR", of(&[rides(&[F], INF)])),
            ("vRF", of(&[rides(&[F, B], INF), steps(&[FL, FR, BL, BR])])),
            ("fW", of(&[steps(&[F])])),
        ];
        for (text, expected) in cases {
            assert_eq!(set(text), expected, "{text}");
        }
    }

    #[test]
    fn knight_and_brief_examples() {
        assert_eq!(set("ffN"), of(&[leaps(&[(2, 1), (2, -1)])]));
        assert_eq!(set("fN"), of(&[leaps(&[(2, 1), (2, -1), (1, 2), (1, -2)])]));
        assert_eq!(
            set("sN"),
            of(&[leaps(&[(1, 2), (1, -2), (-1, 2), (-1, -2)])])
        );
        assert_eq!(set("rrN"), of(&[leaps(&[(1, -2), (-1, -2)])]));
        assert_eq!(set("lB"), of(&[rides(&[FL, BL], INF)]));
        assert_eq!(set("rbB"), of(&[rides(&[BR], INF)]));
        assert_eq!(set("fF"), of(&[steps(&[FL, FR])]));
    }

    #[test]
    fn refusals_name_the_problem() {
        for (text, why) in [
            ("", "empty"),
            ("mW", "modifier 'm'"),
            ("cR", "modifier 'c'"),
            ("Z", "unknown atom 'Z'"),
            ("H", "unknown atom 'H'"),
            ("fR f", "not followed by an atom"),
            ("W0", "range 0"),
            ("N2", "riders of N"),
            ("D3", "riders of D"),
            ("K2", "ranged king"),
            ("sF", "ambiguous on F"),
            ("vB", "ambiguous on B"),
            ("flN", "ambiguous on N"),
            ("ffW", "ambiguous on W"),
            ("flQ", "ambiguous on Q"),
            ("hR", "'h' must follow"),
            ("R999", "too large"),
            ("W-", "unexpected '-'"),
        ] {
            let err = parse(text).expect_err(text).to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
