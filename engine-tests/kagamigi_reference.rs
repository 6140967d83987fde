//! A second, deliberately simple Chu Kagamigi move generator, written straight from the
//! piece descriptions of RULES.md §3.2 (words, not the Betza strings) and the rules of §3.3,
//! and the tests that hold the engine's fast generator to it.
//!
//! It shares no code with the engine: its own piece table as plain direction lists, a
//! mailbox of `Option<Pc>`, its own SFEN reader and writer and its own USI move text.
//! Legality is decided by playing each candidate move on the mailbox, looking outward from
//! the king for an enemy piece whose table moves reach it, and taking the move back;
//! uchifuzume by playing the pawn drop and trying every reply. Moves are compared as USI
//! strings, so the two generators meet only in text.
//!
//! The counts in `positions/perft/chukagamigi.perft` and `chukagamigi_selfplay.perft`
//! (positions from Shishi's games against itself) were produced by this generator
//! (`print_suite_counts`) and are checked against the fast one by
//! `suite_matches_fast_generator`; the long checks are run by
//! `scripts/kagamigi_reference_deep.sh`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use shishi::rules::game::Game;
use shishi::rules::moves::MoveList;
use shishi::rules::perft::perft;
use shishi::rules::variants::kagamigi::{KagamigiRules, Position, PromotionRule};
use shishi::search::mate::{line_to_usi, solve, MateAnswer};
use shishi::search::Control;
use std::collections::{BTreeMap, BTreeSet};

#[path = "common/perft_file.rs"]
mod perft_file;
use perft_file::{read_suite, PerftLine};

// ---------------------------------------------------------------------------------------
// The piece table, typed in from RULES.md §3.2. Directions are (forward, left) for the
// piece's owner.

#[derive(Clone, Copy, Debug)]
enum Way {
    /// One step.
    Step(i32, i32),
    /// Up to `n` steps along a line, stopping at the first piece.
    Line(i32, i32, i32),
    /// A jump to the displacement, whatever stands between.
    Jump(i32, i32),
}

const ALL_LINE: i32 = 99;
const F: (i32, i32) = (1, 0);
const B: (i32, i32) = (-1, 0);
const L: (i32, i32) = (0, 1);
const R: (i32, i32) = (0, -1);
const FL: (i32, i32) = (1, 1);
const FR: (i32, i32) = (1, -1);
const BL: (i32, i32) = (-1, 1);
const BR: (i32, i32) = (-1, -1);
const EIGHT: [(i32, i32); 8] = [F, B, L, R, FL, FR, BL, BR];
const ORTH: [(i32, i32); 4] = [F, B, L, R];
const DIAG: [(i32, i32); 4] = [FL, FR, BL, BR];
const GOLD: [(i32, i32); 6] = [F, B, L, R, FL, FR];
const SILVER: [(i32, i32); 5] = [F, FL, FR, BL, BR];

fn steps(dirs: &[(i32, i32)]) -> Vec<Way> {
    dirs.iter().map(|&(f, l)| Way::Step(f, l)).collect()
}
fn lines(dirs: &[(i32, i32)], n: i32) -> Vec<Way> {
    dirs.iter().map(|&(f, l)| Way::Line(f, l, n)).collect()
}
fn jumps(dirs: &[(i32, i32)]) -> Vec<Way> {
    dirs.iter().map(|&(f, l)| Way::Jump(f, l)).collect()
}

/// How the piece written `letter` (uppercase), promoted or not, moves.
fn ways(letter: char, promoted: bool) -> Vec<Way> {
    let mut w = Vec::new();
    match (letter, promoted) {
        // King: one step any direction.
        ('K', false) => w.extend(steps(&EIGHT)),
        // Left Chariot: slides forward, forward-left, back-right; one step back.
        ('C', false) => {
            w.extend(lines(&[F, FL, BR], ALL_LINE));
            w.extend(steps(&[B]));
        }
        // Right Chariot: mirror.
        ('D', false) => {
            w.extend(lines(&[F, FR, BL], ALL_LINE));
            w.extend(steps(&[B]));
        }
        // Burning Chariot: slides forward, back and diagonally forward; one step sideways.
        ('A', false) => {
            w.extend(lines(&[F, B, FL, FR], ALL_LINE));
            w.extend(steps(&[L, R]));
        }
        // Deva: one step left, diagonally forward, or back-right.
        ('E', false) => w.extend(steps(&[L, FL, FR, BR])),
        // Side Wolf: slides sideways; one step forward-left or back-right.
        ('E', true) => {
            w.extend(lines(&[L, R], ALL_LINE));
            w.extend(steps(&[FL, BR]));
        }
        // Dark Spirit: one step right, diagonally forward, or back-left.
        ('I', false) => w.extend(steps(&[R, FL, FR, BL])),
        // Side Ox: slides sideways; one step forward-right or back-left.
        ('I', true) => {
            w.extend(lines(&[L, R], ALL_LINE));
            w.extend(steps(&[FR, BL]));
        }
        ('B', false) => w.extend(lines(&DIAG, ALL_LINE)),
        // Dragon Horse.
        ('B', true) => {
            w.extend(lines(&DIAG, ALL_LINE));
            w.extend(steps(&ORTH));
        }
        ('R', false) => w.extend(lines(&ORTH, ALL_LINE)),
        // Dragon King.
        ('R', true) => {
            w.extend(lines(&ORTH, ALL_LINE));
            w.extend(steps(&DIAG));
        }
        // Phoenix: one orthogonal step or a diagonal jump of two.
        ('X', false) => {
            w.extend(steps(&ORTH));
            w.extend(jumps(&[(2, 2), (2, -2), (-2, 2), (-2, -2)]));
        }
        // Great Dove: slides diagonally; up to three squares orthogonally.
        ('X', true) => {
            w.extend(lines(&DIAG, ALL_LINE));
            w.extend(lines(&ORTH, 3));
        }
        // Kirin: one diagonal step or an orthogonal jump of two.
        ('O', false) => {
            w.extend(steps(&DIAG));
            w.extend(jumps(&[(2, 0), (-2, 0), (0, 2), (0, -2)]));
        }
        // Center Standard: slides orthogonally; up to three squares diagonally.
        ('O', true) => {
            w.extend(lines(&ORTH, ALL_LINE));
            w.extend(lines(&DIAG, 3));
        }
        // Blue Gecko: up to 4 forward-right; up to 2 left or back; one step forward-left,
        // back-right or forward.
        ('U', false) => {
            w.extend(lines(&[FR], 4));
            w.extend(lines(&[L, B], 2));
            w.extend(steps(&[FL, BR, F]));
        }
        // Divine Turtle: any one step; slides forward-right, back-right, back-left.
        ('U', true) => {
            w.extend(steps(&EIGHT));
            w.extend(lines(&[FR, BR, BL], ALL_LINE));
        }
        // Purple Finch: mirror of the Blue Gecko.
        ('V', false) => {
            w.extend(lines(&[FL], 4));
            w.extend(lines(&[R, B], 2));
            w.extend(steps(&[FR, BL, F]));
        }
        // Divine Sparrow: mirror of the Turtle (RULES.md §3.5 (a)).
        ('V', true) => {
            w.extend(steps(&EIGHT));
            w.extend(lines(&[FL, BL, BR], ALL_LINE));
        }
        ('G', false) => w.extend(steps(&GOLD)),
        // Gold Pashtun: gold, plus jumps of two orthogonally and diagonally forward.
        ('G', true) => {
            w.extend(steps(&GOLD));
            w.extend(jumps(&[(2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (2, -2)]));
        }
        ('S', false) => w.extend(steps(&SILVER)),
        // Silver Pashtun: silver, plus jumps of two diagonally and straight forward.
        ('S', true) => {
            w.extend(steps(&SILVER));
            w.extend(jumps(&[(2, 2), (2, -2), (-2, 2), (-2, -2), (2, 0)]));
        }
        // Left General: one step any direction except straight left.
        ('M', false) => w.extend(steps(&[F, B, R, FL, FR, BL, BR])),
        // Left Army: slides right, forward-right, back-right; one step elsewhere.
        ('M', true) => {
            w.extend(steps(&EIGHT));
            w.extend(lines(&[R, FR, BR], ALL_LINE));
        }
        // Right General / Right Army: mirrors.
        ('W', false) => w.extend(steps(&[F, B, L, FL, FR, BL, BR])),
        ('W', true) => {
            w.extend(steps(&EIGHT));
            w.extend(lines(&[L, FL, BL], ALL_LINE));
        }
        // Left Dog: slides forward and back-right; one step back.
        ('H', false) => {
            w.extend(lines(&[F, BR], ALL_LINE));
            w.extend(steps(&[B]));
        }
        // Left Dragon: slides right, forward-right, back-right; up to two squares left.
        ('H', true) => {
            w.extend(lines(&[R, FR, BR], ALL_LINE));
            w.extend(lines(&[L], 2));
        }
        // Right Dog / Right Dragon: mirrors.
        ('J', false) => {
            w.extend(lines(&[F, BL], ALL_LINE));
            w.extend(steps(&[B]));
        }
        ('J', true) => {
            w.extend(lines(&[L, FL, BL], ALL_LINE));
            w.extend(lines(&[R], 2));
        }
        // Left Quail: slides forward and back-right; one step back-left.
        ('Q', false) => {
            w.extend(lines(&[F, BR], ALL_LINE));
            w.extend(steps(&[BL]));
        }
        // Left Tiger: slides right, forward-right, back-right; one step forward-left or
        // back-left.
        ('Q', true) => {
            w.extend(lines(&[R, FR, BR], ALL_LINE));
            w.extend(steps(&[FL, BL]));
        }
        // Right Quail / Right Tiger: mirrors.
        ('T', false) => {
            w.extend(lines(&[F, BL], ALL_LINE));
            w.extend(steps(&[BR]));
        }
        ('T', true) => {
            w.extend(lines(&[L, FL, BL], ALL_LINE));
            w.extend(steps(&[FR, BR]));
        }
        // Knight: jumps two forward and one sideways.
        ('N', false) => w.extend(jumps(&[(2, 1), (2, -1)])),
        // Heavenly Fortress: slides diagonally and sideways.
        ('N', true) => w.extend(lines(&[FL, FR, BL, BR, L, R], ALL_LINE)),
        // Flying Horse: one orthogonal step; up to two diagonally forward.
        ('F', false) => {
            w.extend(steps(&ORTH));
            w.extend(lines(&[FL, FR], 2));
        }
        // Mountain Witch: slides diagonally and straight back; one step forward.
        ('F', true) => {
            w.extend(lines(&[FL, FR, BL, BR, B], ALL_LINE));
            w.extend(steps(&[F]));
        }
        // Yaksha: up to four sideways; one step back or diagonally forward.
        ('Y', false) => {
            w.extend(lines(&[L, R], 4));
            w.extend(steps(&[B, FL, FR]));
        }
        // Side Boar: slides sideways; one step in the other directions.
        ('Y', true) => {
            w.extend(lines(&[L, R], ALL_LINE));
            w.extend(steps(&EIGHT));
        }
        ('L', false) => w.extend(lines(&[F], ALL_LINE)),
        // Plodding Ox: slides forward and back; one diagonal step.
        ('L', true) => {
            w.extend(lines(&[F, B], ALL_LINE));
            w.extend(steps(&DIAG));
        }
        ('P', false) => w.extend(steps(&[F])),
        // Tokin: gold.
        ('P', true) => w.extend(steps(&GOLD)),
        other => panic!("no such piece {other:?}"),
    }
    w
}

/// How the piece moves, from a table built once from `ways` (every letter, promoted and
/// not; the never-promoting letters have an empty promoted entry).
fn piece_ways(letter: char, promoted: bool) -> &'static [Way] {
    static TABLE: std::sync::OnceLock<Vec<Vec<Way>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        LETTERS
            .chars()
            .flat_map(|c| {
                let promoted_ways = if NEVER_PROMOTE.contains(&c) {
                    Vec::new()
                } else {
                    ways(c, true)
                };
                [ways(c, false), promoted_ways]
            })
            .collect()
    });
    &table[letter_index(letter) * 2 + usize::from(promoted)]
}

/// Letters of the pieces that never promote.
const NEVER_PROMOTE: [char; 4] = ['K', 'C', 'D', 'A'];
/// Every letter a piece can have.
const LETTERS: &str = "KCDAEIBRXOUVGSMWHJQTNFYLP";
/// The order hands are written in by this reference (any order is fine for comparison).
const HAND_ORDER: &str = "ADCTQJHWMVUOXRBIEYFGSNLP";

// ---------------------------------------------------------------------------------------
// The mailbox.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pc {
    /// True for sente (uppercase), false for gote.
    sente: bool,
    letter: char,
    promoted: bool,
}

/// A square: file 1..=12 (file 1 on sente's right), rank 0..=11 (rank a = 0, at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sq {
    file: i32,
    rank: i32,
}

impl Sq {
    fn index(self) -> usize {
        ((self.file - 1) * 12 + self.rank) as usize
    }
    fn text(self) -> String {
        format!("{}{}", self.file, (b'a' + self.rank as u8) as char)
    }
    fn on_board(self) -> bool {
        (1..=12).contains(&self.file) && (0..12).contains(&self.rank)
    }
    /// The square `(forward, left)` away for the owner `sente`.
    fn moved(self, sente: bool, forward: i32, left: i32) -> Sq {
        if sente {
            Sq {
                file: self.file + left,
                rank: self.rank - forward,
            }
        } else {
            Sq {
                file: self.file - left,
                rank: self.rank + forward,
            }
        }
    }
    fn all() -> impl Iterator<Item = Sq> {
        (1..=12).flat_map(|file| (0..12).map(move |rank| Sq { file, rank }))
    }
    /// Ranks from the far edge for the owner (0 = the last rank).
    fn distance_to_far_edge(self, sente: bool) -> i32 {
        if sente {
            self.rank
        } else {
            11 - self.rank
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct RMove {
    from: Option<Sq>,
    to: Sq,
    promote: bool,
    /// The letter dropped, for a drop.
    drop: char,
}

impl RMove {
    fn text(&self) -> String {
        match self.from {
            None => format!("{}*{}", self.drop, self.to.text()),
            Some(from) => format!(
                "{}{}{}",
                from.text(),
                self.to.text(),
                if self.promote { "+" } else { "" }
            ),
        }
    }
}

#[derive(Clone, Debug)]
struct Board {
    cells: [Option<Pc>; 144],
    /// Pieces in hand per side (0 = sente), by letter index into `LETTERS`.
    hands: [[u8; 25]; 2],
    sente_to_move: bool,
    /// The `EndOnly` promotion rule: only a move that ends in the zone may promote.
    end_only: bool,
}

fn letter_index(c: char) -> usize {
    LETTERS.find(c).expect("a piece letter")
}

fn side(sente: bool) -> usize {
    if sente {
        0
    } else {
        1
    }
}

impl Board {
    fn at(&self, sq: Sq) -> Option<Pc> {
        self.cells[sq.index()]
    }

    fn from_sfen(text: &str) -> Board {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut board = Board {
            cells: [None; 144],
            hands: [[0; 25]; 2],
            sente_to_move: fields[1] == "b",
            end_only: false,
        };
        for (rank, row) in fields[0].split('/').enumerate() {
            let mut file = 12;
            let mut promoted = false;
            let mut digits = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file -= digits.parse::<i32>().unwrap();
                    digits.clear();
                }
                if c == '+' {
                    promoted = true;
                    continue;
                }
                board.cells[Sq {
                    file,
                    rank: rank as i32,
                }
                .index()] = Some(Pc {
                    sente: c.is_ascii_uppercase(),
                    letter: c.to_ascii_uppercase(),
                    promoted,
                });
                promoted = false;
                file -= 1;
            }
        }
        if fields[2] != "-" {
            let mut digits = String::new();
            for c in fields[2].chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                let n: u8 = if digits.is_empty() {
                    1
                } else {
                    digits.parse().unwrap()
                };
                digits.clear();
                board.hands[side(c.is_ascii_uppercase())][letter_index(c.to_ascii_uppercase())] +=
                    n;
            }
        }
        board
    }

    fn to_sfen(&self) -> String {
        let mut rows = Vec::new();
        for rank in 0..12 {
            let mut row = String::new();
            let mut empty = 0;
            for file in (1..=12).rev() {
                match self.at(Sq { file, rank }) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if p.promoted {
                            row.push('+');
                        }
                        row.push(if p.sente {
                            p.letter
                        } else {
                            p.letter.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let mut hands = String::new();
        for sente in [true, false] {
            for c in HAND_ORDER.chars() {
                let n = self.hands[side(sente)][letter_index(c)];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    hands.push(if sente { c } else { c.to_ascii_lowercase() });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        format!(
            "{} {} {} 1",
            rows.join("/"),
            if self.sente_to_move { "b" } else { "w" },
            hands
        )
    }

    /// Every square the piece on `from` could move to or capture on (own pieces excluded).
    fn reach(&self, from: Sq, pc: Pc) -> Vec<Sq> {
        let mut out = Vec::new();
        for way in piece_ways(pc.letter, pc.promoted) {
            let (f, l, n) = match *way {
                Way::Step(f, l) => (f, l, 1),
                Way::Line(f, l, n) => (f, l, n),
                Way::Jump(f, l) => (f, l, 1),
            };
            let mut sq = from;
            for _ in 0..n {
                sq = sq.moved(pc.sente, f, l);
                if !sq.on_board() {
                    break;
                }
                // Two ways may reach one square (a king step and a slide): list it once.
                match self.at(sq) {
                    None => {
                        if !out.contains(&sq) {
                            out.push(sq);
                        }
                    }
                    Some(other) => {
                        if other.sente != pc.sente && !out.contains(&sq) {
                            out.push(sq);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    fn king_of(&self, sente: bool) -> Option<Sq> {
        Sq::all().find(|sq| {
            self.at(*sq)
                == Some(Pc {
                    sente,
                    letter: 'K',
                    promoted: false,
                })
        })
    }

    /// Is the king of `sente` attacked by any enemy piece?
    fn king_attacked(&self, sente: bool) -> bool {
        self.king_of(sente)
            .is_some_and(|king| self.attacked_by(king, !sente))
    }

    /// Does any piece of `attacker_sente` reach `target`? Scanned outward from the target:
    /// a step or a slide can only come from the first piece along one of the eight lines
    /// through it, and a jump only from within two squares (every jump of the table is at
    /// most two squares each way; `jumps_stay_within_two_squares` checks that).
    fn attacked_by(&self, target: Sq, attacker_sente: bool) -> bool {
        for (dfile, drank) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let mut sq = target;
            for distance in 1.. {
                sq = Sq {
                    file: sq.file + dfile,
                    rank: sq.rank + drank,
                };
                if !sq.on_board() {
                    break;
                }
                let Some(pc) = self.at(sq) else { continue };
                if pc.sente == attacker_sente
                    && piece_ways(pc.letter, pc.promoted)
                        .iter()
                        .any(|way| match *way {
                            Way::Step(f, l) => distance == 1 && sq.moved(pc.sente, f, l) == target,
                            Way::Line(f, l, n) => {
                                distance <= n
                                    && sq.moved(pc.sente, f * distance, l * distance) == target
                            }
                            Way::Jump(..) => false,
                        })
                {
                    return true;
                }
                break;
            }
        }
        for dfile in -2..=2 {
            for drank in -2..=2 {
                let sq = Sq {
                    file: target.file + dfile,
                    rank: target.rank + drank,
                };
                if !sq.on_board() {
                    continue;
                }
                let Some(pc) = self.at(sq) else { continue };
                if pc.sente == attacker_sente
                    && piece_ways(pc.letter, pc.promoted).iter().any(
                        |way| matches!(*way, Way::Jump(f, l) if sq.moved(pc.sente, f, l) == target),
                    )
                {
                    return true;
                }
            }
        }
        false
    }

    /// Plays the move and returns what `unplay` needs to take it back: the piece that stood
    /// on the destination.
    fn play(&mut self, mv: &RMove) -> Option<Pc> {
        let me = self.sente_to_move;
        let captured = self.at(mv.to);
        match mv.from {
            None => {
                self.hands[side(me)][letter_index(mv.drop)] -= 1;
                self.cells[mv.to.index()] = Some(Pc {
                    sente: me,
                    letter: mv.drop,
                    promoted: false,
                });
            }
            Some(from) => {
                let mut pc = self.at(from).unwrap();
                if let Some(victim) = captured {
                    // A captured piece goes to hand unpromoted.
                    self.hands[side(me)][letter_index(victim.letter)] += 1;
                }
                if mv.promote {
                    pc.promoted = true;
                }
                self.cells[from.index()] = None;
                self.cells[mv.to.index()] = Some(pc);
            }
        }
        self.sente_to_move = !me;
        captured
    }

    /// Takes back `mv`, just played by `play`, which returned `captured`.
    fn unplay(&mut self, mv: &RMove, captured: Option<Pc>) {
        let me = !self.sente_to_move;
        self.sente_to_move = me;
        match mv.from {
            None => self.hands[side(me)][letter_index(mv.drop)] += 1,
            Some(from) => {
                let mut pc = self.at(mv.to).unwrap();
                if mv.promote {
                    pc.promoted = false;
                }
                if let Some(victim) = captured {
                    self.hands[side(me)][letter_index(victim.letter)] -= 1;
                }
                self.cells[from.index()] = Some(pc);
            }
        }
        self.cells[mv.to.index()] = captured;
    }

    /// Moves that obey movement, promotion and drop rules, before the king-safety test.
    fn candidate_moves(&self) -> Vec<RMove> {
        let me = self.sente_to_move;
        let mut out = Vec::new();
        for from in Sq::all() {
            let Some(pc) = self.at(from) else { continue };
            if pc.sente != me {
                continue;
            }
            for to in self.reach(from, pc) {
                let may_promote = !pc.promoted
                    && !NEVER_PROMOTE.contains(&pc.letter)
                    && ((from.distance_to_far_edge(me) < 4 && !self.end_only)
                        || to.distance_to_far_edge(me) < 4);
                let stuck = match pc.letter {
                    'P' | 'L' => to.distance_to_far_edge(me) < 1,
                    'N' => to.distance_to_far_edge(me) < 2,
                    _ => false,
                } && !pc.promoted;
                if may_promote {
                    out.push(RMove {
                        from: Some(from),
                        to,
                        promote: true,
                        drop: ' ',
                    });
                }
                if !stuck {
                    out.push(RMove {
                        from: Some(from),
                        to,
                        promote: false,
                        drop: ' ',
                    });
                }
            }
        }
        for c in LETTERS.chars().filter(|c| *c != 'K') {
            if self.hands[side(me)][letter_index(c)] == 0 {
                continue;
            }
            for to in Sq::all() {
                if self.at(to).is_some() {
                    continue;
                }
                let dead = match c {
                    'P' | 'L' => to.distance_to_far_edge(me) < 1,
                    'N' => to.distance_to_far_edge(me) < 2,
                    _ => false,
                };
                if dead {
                    continue;
                }
                if c == 'P' {
                    let nifu = (0..12).any(|rank| {
                        self.at(Sq {
                            file: to.file,
                            rank,
                        }) == Some(Pc {
                            sente: me,
                            letter: 'P',
                            promoted: false,
                        })
                    });
                    if nifu {
                        continue;
                    }
                }
                out.push(RMove {
                    from: None,
                    to,
                    promote: false,
                    drop: c,
                });
            }
        }
        out
    }

    /// Does `mv` leave the mover's king (on `king` before the move) attacked? Played and
    /// taken back on `self`.
    fn exposes_king(&mut self, mv: &RMove, king: Option<Sq>) -> bool {
        let me = self.sente_to_move;
        let king = match mv.from {
            Some(from) if Some(from) == king => Some(mv.to),
            _ => king,
        };
        let captured = self.play(mv);
        let attacked = king.is_some_and(|k| self.attacked_by(k, !me));
        self.unplay(mv, captured);
        attacked
    }

    /// Candidate moves that do not leave the mover's king attacked.
    fn safe_moves(&self) -> Vec<RMove> {
        let mut work = self.clone();
        let king = self.king_of(self.sente_to_move);
        self.candidate_moves()
            .into_iter()
            .filter(|mv| !work.exposes_king(mv, king))
            .collect()
    }

    /// Has the side to move any safe move?
    fn has_safe_move(&self) -> bool {
        let mut work = self.clone();
        let king = self.king_of(self.sente_to_move);
        self.candidate_moves()
            .iter()
            .any(|mv| !work.exposes_king(mv, king))
    }

    /// The legal moves: safe moves, less pawn drops that leave the opponent in check with
    /// no safe reply (uchifuzume).
    fn legal_moves(&self) -> Vec<RMove> {
        let mut work = self.clone();
        self.safe_moves()
            .into_iter()
            .filter(|mv| {
                if mv.drop != 'P' {
                    return true;
                }
                let captured = work.play(mv);
                let mate = work.king_attacked(work.sente_to_move) && !work.has_safe_move();
                work.unplay(mv, captured);
                !mate
            })
            .collect()
    }

    /// Leaf count of the legal-move tree. From depth 3 up the root moves are shared among
    /// threads (each on its own copy of the board).
    fn perft(&self, depth: u32) -> u64 {
        let moves = self.legal_moves();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        let below = |mv: &RMove| {
            let mut next = self.clone();
            next.play(mv);
            next.perft(depth - 1)
        };
        if depth >= 3 {
            moves.par_iter().map(below).sum()
        } else {
            moves.iter().map(below).sum()
        }
    }
}

// ---------------------------------------------------------------------------------------
// The comparisons.

fn fast_moves(pos: &Position) -> BTreeSet<String> {
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    let set: BTreeSet<String> = moves.iter().map(|m| pos.move_to_usi(*m)).collect();
    assert_eq!(
        set.len(),
        moves.len(),
        "duplicate moves in {}",
        pos.to_sfen()
    );
    set
}

/// The reference's legal moves by their USI text (each text once).
fn reference_move_map(board: &Board) -> BTreeMap<String, RMove> {
    let moves = board.legal_moves();
    let count = moves.len();
    let map: BTreeMap<String, RMove> = moves.into_iter().map(|m| (m.text(), m)).collect();
    assert_eq!(
        map.len(),
        count,
        "reference duplicates in {}",
        board.to_sfen()
    );
    map
}

fn reference_moves(board: &Board) -> BTreeSet<String> {
    reference_move_map(board).into_keys().collect()
}

/// Panics naming what only one generator produced, if the two move sets differ.
fn assert_same_sets(
    fast: &BTreeSet<String>,
    reference: &BTreeSet<String>,
    sfen: &str,
    context: &str,
) {
    if fast != reference {
        let only_fast: Vec<_> = fast.difference(reference).collect();
        let only_ref: Vec<_> = reference.difference(fast).collect();
        panic!("{context}: {sfen}\nonly fast: {only_fast:?}\nonly reference: {only_ref:?}");
    }
}

/// Compares the two move sets of one position.
fn assert_same_moves(pos: &Position, board: &Board, context: &str) {
    assert_same_sets(
        &fast_moves(pos),
        &reference_moves(board),
        &pos.to_sfen(),
        context,
    );
}

/// Compares the two generators' move sets at every node of the tree `depth` plies deep
/// (the root and every node above the leaves), walking the fast position and the reference
/// board in step. Returns the number of leaves. From depth 3 up the root moves are shared
/// among threads.
fn compare_tree(pos: &mut Position, board: &Board, depth: u32, path: &str) -> u64 {
    let fast = fast_moves(pos);
    let reference = reference_move_map(board);
    let reference_texts: BTreeSet<String> = reference.keys().cloned().collect();
    assert_same_sets(&fast, &reference_texts, &pos.to_sfen(), path);
    if depth <= 1 {
        return if depth == 0 { 1 } else { fast.len() as u64 };
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    let below = |pos: &mut Position, mv| {
        let text = pos.move_to_usi(mv);
        let mut next = board.clone();
        next.play(&reference[&text]);
        pos.play(mv);
        let leaves = compare_tree(pos, &next, depth - 1, &format!("{path} {text}"));
        pos.unplay();
        leaves
    };
    if depth >= 3 {
        let moves: Vec<_> = moves.iter().copied().collect();
        moves
            .par_iter()
            .map(|&mv| below(&mut pos.clone(), mv))
            .sum()
    } else {
        moves.iter().map(|&mv| below(pos, mv)).sum()
    }
}

const SUITE: &str = "chukagamigi.perft";
const SELF_PLAY: &str = "chukagamigi_selfplay.perft";

/// Suite lines with more leaves than this are left to the ignored deep test
/// (`scripts/kagamigi_reference_deep.sh`). Today every line is below it (the largest has
/// 676616635 leaves; the fast generator counts all lines in a few seconds).
const REGULAR_NODE_LIMIT: u64 = 700_000_000;

/// The distinct positions of a suite file, in file order.
fn positions_of(lines: &[PerftLine]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for line in lines {
        if !seen.contains(&line.sfen) {
            seen.push(line.sfen.clone());
        }
    }
    seen
}

/// Every line of both files up to `limit` leaves equals the fast generator's perft.
fn check_fast_generator(limit: u64) {
    assert!(
        positions_of(&read_suite(SUITE)).len() >= 20,
        "at least 20 positions"
    );
    assert!(
        positions_of(&read_suite(SELF_PLAY)).len() >= 10,
        "at least 10 self-play positions"
    );
    for name in [SUITE, SELF_PLAY] {
        for line in read_suite(name).iter().filter(|l| l.nodes <= limit) {
            let mut pos = Position::from_sfen(&line.sfen)
                .unwrap_or_else(|e| panic!("{name} line {}: {e}", line.line_number));
            assert_eq!(
                pos.to_sfen(),
                line.sfen,
                "{name} line {}: round trip",
                line.line_number
            );
            let before = pos.hash();
            assert_eq!(
                perft(&mut pos, line.depth),
                line.nodes,
                "{name} line {}: perft {} of {}",
                line.line_number,
                line.depth,
                line.sfen
            );
            assert_eq!(pos.hash(), before);
        }
    }
}

/// Every line of both files (up to `REGULAR_NODE_LIMIT` leaves) equals the fast generator's
/// perft.
#[test]
fn suite_matches_fast_generator() {
    check_fast_generator(REGULAR_NODE_LIMIT);
}

/// Compares the generators move by move at every node `depth` plies deep below each
/// position of `name`, and the leaf count with the fast perft.
fn compare_positions(name: &str, depth: u32) {
    for sfen in positions_of(&read_suite(name)) {
        let mut pos = Position::from_sfen(&sfen).unwrap();
        let board = Board::from_sfen(&sfen);
        assert_eq!(board.to_sfen(), pos.to_sfen(), "the two SFEN writers agree");
        let leaves = compare_tree(&mut pos, &board, depth, &format!("{name}: {sfen} moves"));
        assert_eq!(perft(&mut pos, depth), leaves, "{sfen}");
    }
}

/// On every suite position the two generators produce the same moves at the root and
/// below every root move (which is perft 2 compared move by move).
#[test]
fn reference_agrees_on_every_suite_position_to_depth_two() {
    compare_positions(SUITE, 2);
}

/// The same on the positions from Shishi's games against itself.
#[test]
fn reference_agrees_on_self_play_positions_to_depth_two() {
    compare_positions(SELF_PLAY, 2);
}

/// Move by move at every node to depth 3 on the self-play positions (a few minutes;
/// `scripts/kagamigi_reference_deep.sh`).
#[test]
#[ignore]
fn reference_agrees_on_self_play_positions_to_depth_three() {
    compare_positions(SELF_PLAY, 3);
}

/// Every line of both files recomputed by the reference, and by the fast generator with no
/// node limit (`scripts/kagamigi_reference_deep.sh`; several minutes).
#[test]
#[ignore]
fn reference_reproduces_every_suite_line() {
    check_fast_generator(u64::MAX);
    for name in [SUITE, SELF_PLAY] {
        for line in read_suite(name) {
            let started = std::time::Instant::now();
            let board = Board::from_sfen(&line.sfen);
            assert_eq!(
                board.perft(line.depth),
                line.nodes,
                "{name} line {}: reference perft {} of {}",
                line.line_number,
                line.depth,
                line.sfen
            );
            eprintln!(
                "{name} line {}: depth {} nodes {} in {:.1} s",
                line.line_number,
                line.depth,
                line.nodes,
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// The reference board of a position written as an SFEN or as `startpos moves ...` (the
/// moves played by USI text on both generators, which must accept them and agree on the
/// SFEN reached).
fn board_from_text(text: &str) -> Board {
    let Some(moves) = text.strip_prefix("startpos") else {
        return Board::from_sfen(text);
    };
    let mut pos = Position::startpos();
    let mut board = Board::from_sfen(&pos.to_sfen());
    for word in moves.split_whitespace().filter(|w| *w != "moves") {
        let rmove = reference_move_map(&board)
            .remove(word)
            .unwrap_or_else(|| panic!("{word} is not legal for the reference in {text}"));
        board.play(&rmove);
        assert!(
            fast_moves(&pos).contains(word),
            "{word} is not legal for the engine"
        );
        let mv = pos
            .parse_usi_move(word)
            .expect("the fast generator reads the move");
        pos.play(mv);
    }
    // The reference does not count moves (it writes 1).
    let fast_sfen = pos.to_sfen();
    let without_count = &fast_sfen[..fast_sfen.rfind(' ').unwrap()];
    assert_eq!(format!("{without_count} 1"), board.to_sfen(), "{text}");
    board
}

/// Prints the reference's counts at depths 1 to 3 for writing the files: for every suite
/// position, or for the lines (SFENs or `startpos moves ...`) of the file named by
/// `KAGAMIGI_POSITIONS`. Depth 3 is printed only where the fast generator says it has at
/// most `KAGAMIGI_DEPTH3_LIMIT` leaves (default 3 million).
#[test]
#[ignore]
fn print_suite_counts() {
    let texts: Vec<String> = match std::env::var("KAGAMIGI_POSITIONS") {
        Ok(path) => std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect(),
        Err(_) => positions_of(&read_suite(SUITE)),
    };
    let limit = std::env::var("KAGAMIGI_DEPTH3_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000_000);
    for text in texts {
        let board = board_from_text(&text);
        let sfen = board.to_sfen();
        let mut pos = Position::from_sfen(&sfen).unwrap();
        if sfen != text {
            println!("# {text}");
        }
        for depth in 1..=3 {
            if depth == 3 && perft(&mut pos, 3) > limit {
                break;
            }
            let started = std::time::Instant::now();
            let nodes = board.perft(depth);
            eprintln!("depth {depth}: {:.1} s", started.elapsed().as_secs_f64());
            println!("{sfen} ; {depth} ; {nodes}");
        }
    }
}

/// Plays random games from the start with both generators side by side: at every ply the
/// move sets must agree, and so must the SFENs. Captures are preferred, so that hands
/// fill up and promoted pieces appear. Returns how many positions were compared.
fn playouts(seed: u64, games: usize, plies: usize, end_only: bool) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut start = Position::startpos();
    if end_only {
        start.set_rules(KagamigiRules {
            promotion: PromotionRule::EndOnly,
        });
    }
    let mut compared = 0;
    for game in 0..games {
        let mut pos = start.clone();
        let mut board = Board::from_sfen(&pos.to_sfen());
        board.end_only = end_only;
        for ply in 0..plies {
            assert_same_moves(&pos, &board, &format!("game {game} ply {ply}"));
            compared += 1;
            let mut moves = MoveList::new();
            pos.generate_legal(&mut moves);
            if moves.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| m.from().is_some() && pos.piece_at(m.to()).is_some())
                .collect();
            let mv = if !captures.is_empty() && rng.gen_bool(0.7) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            let text = pos.move_to_usi(mv);
            let rmove = board
                .legal_moves()
                .into_iter()
                .find(|m| m.text() == text)
                .expect("same moves");
            board.play(&rmove);
            pos.play(mv);
            let mut sfen = pos.to_sfen();
            // The reference does not count moves.
            sfen.truncate(sfen.rfind(' ').unwrap());
            assert!(board.to_sfen().starts_with(&sfen), "{sfen}");
        }
    }
    compared
}

#[test]
fn random_playouts_agree() {
    assert!(playouts(0x6b61_6761, 24, 160, false) > 2000);
}

/// Many more random games (a few minutes).
#[test]
#[ignore]
fn random_playouts_agree_long() {
    assert!(playouts(0x6c6f_6e67, 300, 200, false) > 30_000);
}

/// The same under the `EndOnly` promotion rule (the reference's own switch).
#[test]
fn random_playouts_agree_when_promotion_needs_the_move_to_end_in_the_zone() {
    assert!(playouts(0x0065_6e64, 6, 160, true) > 500);
}

/// `shishi perft --variant chukagamigi` as a process, from the start and from an SFEN.
#[test]
fn perft_command_line() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shishi"))
            .args(args)
            .output()
            .expect("run shishi");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, stdout, _) = run(&[
        "perft",
        "--variant",
        "chukagamigi",
        "--startpos",
        "--depth",
        "3",
    ]);
    assert!(ok && stdout.contains("nodes 43680"), "{stdout}");
    let (ok, stdout, _) = run(&[
        "perft",
        "--variant",
        "chukagamigi",
        "--startpos",
        "--moves",
        "12i12h",
        "--depth",
        "1",
        "--divide",
    ]);
    assert!(
        ok && stdout.contains("12d12e: 1") && stdout.contains("nodes 35"),
        "{stdout}"
    );
    let (ok, _, stderr) = run(&[
        "perft",
        "--variant",
        "chukagamigi",
        "--sfen",
        "5k6/12/12/12/12/12/12/12/12/12/12/5K6 b 25P 1",
        "--depth",
        "1",
    ]);
    assert!(!ok && stderr.contains("too large"), "{stderr}");
}

/// Prints positions from capture-preferring random games (reference moves only), used to
/// pick the midgame lines of the suite.
#[test]
#[ignore]
fn print_random_positions() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    for _ in 0..4 {
        let mut board = Board::from_sfen(&Position::startpos().to_sfen());
        for ply in 1..=150 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<&RMove> = moves
                .iter()
                .filter(|m| m.from.is_some() && board.at(m.to).is_some())
                .collect();
            let mv = if !captures.is_empty() && rng.gen_bool(0.8) {
                captures[rng.gen_range(0..captures.len())].clone()
            } else {
                moves[rng.gen_range(0..moves.len())].clone()
            };
            board.play(&mv);
            if ply % 30 == 0 {
                println!("{}", board.to_sfen());
            }
        }
    }
}

/// `attacked_by` looks for jumping attackers only within two squares of the target.
#[test]
fn jumps_stay_within_two_squares() {
    for letter in LETTERS.chars() {
        for promoted in [false, true] {
            for way in piece_ways(letter, promoted) {
                if let Way::Jump(f, l) = *way {
                    assert!(f.abs() <= 2 && l.abs() <= 2, "{letter} {promoted}: {way:?}");
                }
            }
        }
    }
}

/// Positions from capture-preferring random games played by the reference alone.
fn random_reference_boards(seed: u64, games: usize, plies: usize) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut boards = Vec::new();
    for _ in 0..games {
        let mut board = Board::from_sfen(&Position::startpos().to_sfen());
        for _ in 0..plies {
            boards.push(board.clone());
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<&RMove> = moves
                .iter()
                .filter(|m| m.from.is_some() && board.at(m.to).is_some())
                .collect();
            let mv = if !captures.is_empty() && rng.gen_bool(0.7) {
                captures[rng.gen_range(0..captures.len())].clone()
            } else {
                moves[rng.gen_range(0..moves.len())].clone()
            };
            board.play(&mv);
        }
    }
    boards
}

/// The scan out from a square in `attacked_by` finds exactly the attackers that the plain
/// definition finds (some piece of that colour reaches the square), on every square not
/// held by the attacker's own side.
#[test]
fn attack_scan_agrees_with_every_piece_reach() {
    let mut compared = 0;
    for board in random_reference_boards(0x7363_616e, 6, 120) {
        for target in Sq::all() {
            for attacker in [true, false] {
                if board.at(target).is_some_and(|pc| pc.sente == attacker) {
                    continue;
                }
                let by_reach = Sq::all().any(|from| match board.at(from) {
                    Some(pc) if pc.sente == attacker => board.reach(from, pc).contains(&target),
                    _ => false,
                });
                assert_eq!(
                    board.attacked_by(target, attacker),
                    by_reach,
                    "{} {} by {}",
                    board.to_sfen(),
                    target.text(),
                    if attacker { "sente" } else { "gote" }
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 100_000, "{compared}");
}

/// `unplay` restores the board exactly after every candidate move (captures, promotions and
/// drops included).
#[test]
fn unplay_restores_the_board() {
    for board in random_reference_boards(0x756e_706c, 4, 120) {
        let mut work = board.clone();
        for mv in board.candidate_moves() {
            let captured = work.play(&mv);
            work.unplay(&mv, captured);
            assert!(
                work.cells == board.cells
                    && work.hands == board.hands
                    && work.sente_to_move == board.sente_to_move,
                "{} after {}",
                board.to_sfen(),
                mv.text()
            );
        }
    }
}

/// The reference itself on a few hand-checked facts, so that agreement means something.
#[test]
fn reference_knows_the_basic_rules() {
    let start = Board::from_sfen(
        "lfxsgakgsofl/jd1rwiemb1ch/1tyvn2nuyq1/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/1QYUN2NVYT1/HC1BMEIWR1DJ/LFOSGKAGSXFL b - 1",
    );
    assert_eq!(start.legal_moves().len(), 35);
    // Uchifuzume: the pawn drop on 12b would mate and is refused.
    let mate = Board::from_sfen("kn10/12/1G10/12/12/12/12/12/12/12/12/11K b P 1");
    assert!(!reference_moves(&mate).contains("P*12b"));
    let check = Board::from_sfen("kn10/12/12/12/12/12/12/12/12/12/12/11K b P 1");
    assert!(reference_moves(&check).contains("P*12b"));
}

// ---------------------------------------------------------------------------------------
// The Chu Kagamigi mate suite (`positions/mate/chukagamigi.mate`), proven with this
// reference's rules.

/// How many plies longer than the suite's line a mate after another defence may be.
const MATE_SLACK: usize = 4;

/// The time the engine's solver has for each position it is asked about.
const MATE_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The engine's mate line from the reference board `board` (attacker to move), as text.
fn engine_mate(board: &Board) -> Option<Vec<String>> {
    let pos = Position::from_sfen(&board.to_sfen()).ok()?;
    match solve(&pos, Some(MATE_LIMIT), &Control::new(false)) {
        MateAnswer::Mate(line) => Some(
            line_to_usi(&pos, &line)
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        ),
        _ => None,
    }
}

/// Proves on the reference board that `line` (attacker to move) is a forced mate of at most
/// `budget` plies: every attacker move is a legal move that checks; at every defender node
/// every legal defence is tried, the line's own reply continuing the line and any other
/// answered by the engine's solver with a mate of at most the plies left, proven the same
/// way; every branch ends with the defender in check and without a legal move. Returns how
/// many defences were tried.
fn prove_forced_mate(board: &Board, line: &[String], budget: usize) -> Result<usize, String> {
    let Some(first) = line.first() else {
        return Err(format!("an empty line in {}", board.to_sfen()));
    };
    if line.len() > budget {
        return Err(format!(
            "{} plies where at most {budget} are left in {}",
            line.len(),
            board.to_sfen()
        ));
    }
    let attacker_sente = board.sente_to_move;
    let moves = reference_move_map(board);
    let Some(mv) = moves.get(first) else {
        return Err(format!("{first} is not legal in {}", board.to_sfen()));
    };
    let mut after = board.clone();
    after.play(mv);
    if !after.king_attacked(!attacker_sente) {
        return Err(format!("{first} does not check in {}", board.to_sfen()));
    }
    let defences = after.legal_moves();
    if defences.is_empty() {
        return if line.len() == 1 {
            Ok(0)
        } else {
            Err(format!("mate already after {first}, but the line goes on"))
        };
    }
    if line.len() < 3 {
        return Err(format!(
            "the line ends after {first} but {} can answer ({})",
            after.to_sfen(),
            defences[0].text()
        ));
    }
    let mut tried = 0;
    for defence in &defences {
        tried += 1;
        let mut next = after.clone();
        next.play(defence);
        let rest = if defence.text() == line[1] {
            line[2..].to_vec()
        } else {
            engine_mate(&next).ok_or_else(|| {
                format!(
                    "no mate found after the defence {} in {}",
                    defence.text(),
                    next.to_sfen()
                )
            })?
        };
        tried += prove_forced_mate(&next, &rest, budget - 2)?;
    }
    Ok(tried)
}

/// The suite's problems: (line number, sfen, plies, solution).
fn mate_problems() -> Vec<(usize, String, usize, Vec<String>)> {
    let path = format!(
        "{}/positions/mate/chukagamigi.mate",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "line {}: <sfen> ; <plies> ; <line>", i + 1);
            let plies = fields[1].parse().expect("a ply count");
            let line: Vec<String> = fields[2].split_whitespace().map(str::to_string).collect();
            (i + 1, fields[0].to_string(), plies, line)
        })
        .collect()
}

#[test]
fn every_kagamigi_mate_problem_is_a_forced_mate_under_the_reference_rules() {
    let problems = mate_problems();
    assert!(problems.len() >= 20, "only {} problems", problems.len());
    for (line_number, sfen, plies, line) in &problems {
        assert_eq!(line.len(), *plies, "line {line_number}: the ply count");
        let board = Board::from_sfen(sfen);
        assert!(board.sente_to_move, "line {line_number}: sente attacks");
        let tried = prove_forced_mate(&board, line, plies + MATE_SLACK)
            .unwrap_or_else(|e| panic!("line {line_number}: {e}"));
        assert!(*plies == 1 || tried > 0, "line {line_number}");
    }
}

#[test]
fn a_line_that_does_not_mate_is_refused() {
    let (_, sfen, _, line) = mate_problems()
        .into_iter()
        .find(|p| p.2 >= 3)
        .expect("a problem longer than one ply");
    let board = Board::from_sfen(&sfen);
    // Cut short: the defender still has a reply.
    assert!(prove_forced_mate(&board, &line[..1], 1).is_err());
    // A budget smaller than the line.
    assert!(prove_forced_mate(&board, &line, line.len() - 2).is_err());
    // A quiet first move that does not check.
    let quiet = board
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut after = board.clone();
            after.play(m);
            !after.king_attacked(false)
        })
        .expect("a quiet move");
    assert!(prove_forced_mate(&board, &[quiet.text()], 1).is_err());
}

/// Looks for short mates in random positions (a lone gote king on its first two ranks with
/// a few defenders, sente's king far away, a few sente pieces near the gote king and a few
/// in hand), solves them with the engine and prints those proven by
/// `prove_forced_mate` in the suite's format. Run with
/// `cargo test --release --test kagamigi_reference print_mate_problems -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_mate_problems() {
    let wanted: [(usize, usize); 4] = [(1, 6), (3, 8), (5, 6), (7, 4)];
    let mut found: BTreeMap<usize, usize> = BTreeMap::new();
    let mut rng = StdRng::seed_from_u64(0x6d61_7465);
    let attackers = "GSNLRBXOUVMWHJQTFYEIPCDA";
    let in_hand = "GSNLRBXOPUVF";
    let defenders = "GSPMWF";
    for candidate in 0..200_000u32 {
        if wanted
            .iter()
            .all(|(n, k)| found.get(n).copied().unwrap_or(0) >= *k)
        {
            break;
        }
        let mut board = Board::from_sfen("12/12/12/12/12/12/12/12/12/12/12/12 b - 1");
        let king = Sq {
            file: rng.gen_range(1..=12),
            rank: rng.gen_range(0..2),
        };
        board.cells[king.index()] = Some(Pc {
            sente: false,
            letter: 'K',
            promoted: false,
        });
        let own_king = Sq {
            file: rng.gen_range(1..=12),
            rank: 11,
        };
        board.cells[own_king.index()] = Some(Pc {
            sente: true,
            letter: 'K',
            promoted: false,
        });
        let place =
            |board: &mut Board, rng: &mut StdRng, sente: bool, letters: &str, spread: i32| {
                let letter = letters.as_bytes()[rng.gen_range(0..letters.len())] as char;
                let sq = Sq {
                    file: king.file + rng.gen_range(-spread..=spread),
                    rank: king.rank + rng.gen_range(0..=spread),
                };
                if sq.on_board() && board.at(sq).is_none() {
                    let promoted = !NEVER_PROMOTE.contains(&letter) && rng.gen_bool(0.25);
                    board.cells[sq.index()] = Some(Pc {
                        sente,
                        letter,
                        promoted,
                    });
                }
            };
        for _ in 0..rng.gen_range(0..=3) {
            place(&mut board, &mut rng, false, defenders, 1);
        }
        for _ in 0..rng.gen_range(1..=3) {
            place(&mut board, &mut rng, true, attackers, 3);
        }
        for _ in 0..rng.gen_range(1..=2) {
            let letter = in_hand.as_bytes()[rng.gen_range(0..in_hand.len())] as char;
            board.hands[0][letter_index(letter)] += 1;
        }
        let sfen = board.to_sfen();
        let Ok(pos) = Position::from_sfen(&sfen) else {
            continue;
        };
        let quick = std::time::Duration::from_millis(200);
        let MateAnswer::Mate(line) = solve(&pos, Some(quick), &Control::new(false)) else {
            continue;
        };
        let plies = line.len();
        let Some(&(_, limit)) = wanted.iter().find(|(n, _)| *n == plies) else {
            continue;
        };
        if found.get(&plies).copied().unwrap_or(0) >= limit {
            continue;
        }
        let text = line_to_usi(&pos, &line);
        let moves: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        if let Err(e) = prove_forced_mate(&board, &moves, plies + MATE_SLACK) {
            eprintln!("candidate {candidate} not proven: {e}");
            continue;
        }
        *found.entry(plies).or_default() += 1;
        println!("# random placement (seed 0x6d617465, candidate {candidate}): {plies}-ply mate, the engine's line, proven by the reference");
        println!("{sfen} ; {plies} ; {text}");
    }
}
