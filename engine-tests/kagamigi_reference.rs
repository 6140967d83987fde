//! A second, deliberately simple Chu Kagamigi move generator, written straight from the
//! piece descriptions of RULES.md §3.2 (words, not the Betza strings) and the rules of §3.3,
//! and the tests that hold the engine's fast generator to it.
//!
//! It shares no code with the engine: its own piece table as plain direction lists, a
//! mailbox of `Option<Pc>`, its own SFEN reader and writer and its own USI move text.
//! Legality is decided by playing the move on a copy and asking whether any enemy piece
//! reaches the king; uchifuzume by playing the pawn drop and trying every reply. Moves are
//! compared as USI strings, so the two generators meet only in text.
//!
//! The counts in `positions/perft/chukagamigi.perft` were produced by this generator
//! (`cargo test --release --test kagamigi_reference -- --ignored print_suite_counts
//! --nocapture`) and are checked against the fast one by `suite_matches_fast_generator`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::rules::game::Game;
use shishi::rules::moves::MoveList;
use shishi::rules::perft::perft;
use shishi::rules::variants::kagamigi::{KagamigiRules, Position, PromotionRule};
use std::collections::BTreeSet;
use std::path::PathBuf;

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
        for way in ways(pc.letter, pc.promoted) {
            let (f, l, n) = match way {
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
        let Some(king) = self.king_of(sente) else {
            return false;
        };
        Sq::all().any(|from| match self.at(from) {
            Some(pc) if pc.sente != sente => self.reach(from, pc).contains(&king),
            _ => false,
        })
    }

    fn play(&mut self, mv: &RMove) {
        let me = self.sente_to_move;
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
                if let Some(victim) = self.at(mv.to) {
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

    /// Candidate moves that do not leave the mover's king attacked.
    fn safe_moves(&self) -> Vec<RMove> {
        let me = self.sente_to_move;
        self.candidate_moves()
            .into_iter()
            .filter(|mv| {
                let mut next = self.clone();
                next.play(mv);
                !next.king_attacked(me)
            })
            .collect()
    }

    /// The legal moves: safe moves, less pawn drops that leave the opponent in check with
    /// no safe reply (uchifuzume).
    fn legal_moves(&self) -> Vec<RMove> {
        self.safe_moves()
            .into_iter()
            .filter(|mv| {
                if mv.drop != 'P' {
                    return true;
                }
                let mut next = self.clone();
                next.play(mv);
                !(next.king_attacked(next.sente_to_move) && next.safe_moves().is_empty())
            })
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.legal_moves();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves
            .iter()
            .map(|mv| {
                let mut next = self.clone();
                next.play(mv);
                next.perft(depth - 1)
            })
            .sum()
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

fn reference_moves(board: &Board) -> BTreeSet<String> {
    let moves = board.legal_moves();
    let set: BTreeSet<String> = moves.iter().map(RMove::text).collect();
    assert_eq!(
        set.len(),
        moves.len(),
        "reference duplicates in {}",
        board.to_sfen()
    );
    set
}

/// Compares the two move sets, naming what only one side produced.
fn assert_same_moves(pos: &Position, board: &Board, context: &str) {
    let fast = fast_moves(pos);
    let reference = reference_moves(board);
    if fast != reference {
        let only_fast: Vec<_> = fast.difference(&reference).collect();
        let only_ref: Vec<_> = reference.difference(&fast).collect();
        panic!(
            "{context}: {}\nonly fast: {only_fast:?}\nonly reference: {only_ref:?}",
            pos.to_sfen()
        );
    }
}

struct PerftLine {
    line_number: usize,
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn suite() -> Vec<PerftLine> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions/perft/chukagamigi.perft");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "line {}: `sfen ; depth ; nodes`", i + 1);
            PerftLine {
                line_number: i + 1,
                sfen: fields[0].to_string(),
                depth: fields[1].parse().expect("depth"),
                nodes: fields[2].parse().expect("nodes"),
            }
        })
        .collect()
}

fn suite_positions() -> Vec<String> {
    let mut seen = Vec::new();
    for line in suite() {
        if !seen.contains(&line.sfen) {
            seen.push(line.sfen);
        }
    }
    seen
}

/// Every suite line's count equals the fast generator's perft.
#[test]
fn suite_matches_fast_generator() {
    let lines = suite();
    assert!(suite_positions().len() >= 20, "at least 20 positions");
    for line in &lines {
        let mut pos = Position::from_sfen(&line.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        assert_eq!(
            pos.to_sfen(),
            line.sfen,
            "line {}: round trip",
            line.line_number
        );
        let before = pos.hash();
        assert_eq!(
            perft(&mut pos, line.depth),
            line.nodes,
            "line {}: perft {} of {}",
            line.line_number,
            line.depth,
            line.sfen
        );
        assert_eq!(pos.hash(), before);
    }
}

/// On every suite position the two generators produce the same moves at the root and
/// below every root move (which is perft 2 compared move by move).
#[test]
fn reference_agrees_on_every_suite_position_to_depth_two() {
    for sfen in suite_positions() {
        let mut pos = Position::from_sfen(&sfen).unwrap();
        let board = Board::from_sfen(&sfen);
        assert_eq!(board.to_sfen(), pos.to_sfen(), "the two SFEN writers agree");
        assert_same_moves(&pos, &board, "root");
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        let root: std::collections::HashMap<String, RMove> = board
            .legal_moves()
            .into_iter()
            .map(|m| (m.text(), m))
            .collect();
        let mut reference_total = 0;
        for mv in moves {
            let text = pos.move_to_usi(mv);
            let rmove = root.get(&text).expect("same root moves");
            let mut next = board.clone();
            next.play(rmove);
            pos.play(mv);
            assert_same_moves(&pos, &next, &format!("after {text}"));
            reference_total += next.legal_moves().len() as u64;
            pos.unplay();
        }
        assert_eq!(perft(&mut pos, 2), reference_total, "{sfen}");
    }
}

/// Every line of the suite recomputed by the reference (depth 3 lines take minutes).
#[test]
#[ignore]
fn reference_reproduces_every_suite_line() {
    for line in suite() {
        let board = Board::from_sfen(&line.sfen);
        assert_eq!(
            board.perft(line.depth),
            line.nodes,
            "line {}: reference perft {} of {}",
            line.line_number,
            line.depth,
            line.sfen
        );
    }
}

/// Prints the reference's counts for every suite position at depths 1 to 3 (3 only
/// where the fast generator says it is at most `KAGAMIGI_DEPTH3_LIMIT` leaves, default 3
/// million), for writing the file.
#[test]
#[ignore]
fn print_suite_counts() {
    for sfen in suite_positions() {
        let board = Board::from_sfen(&sfen);
        let mut pos = Position::from_sfen(&sfen).unwrap();
        for depth in 1..=3 {
            let limit = std::env::var("KAGAMIGI_DEPTH3_LIMIT")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(3_000_000);
            if depth == 3 && perft(&mut pos, 3) > limit {
                break;
            }
            println!("{sfen} ; {depth} ; {}", board.perft(depth));
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
