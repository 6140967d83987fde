//! A second, deliberately simple Shogammon rules engine, written straight from RULES.md §4
//! (with its rulings in §6), and the tests that hold the engine's fast
//! generator to it.
//!
//! It shares no code with the engine: a mailbox of stacks (`Vec<Pc>` per square, lower piece
//! first), its own piece movement table, SFEN reader and writer, and token text. It never
//! takes an action back: every action is applied to a copy. Whether a move onto an enemy
//! point is allowed is decided by applying it and looking for a second arrival with the other
//! die. The two engines meet only in text (action tokens and SFENs).
//!
//! The counts in `positions/perft/shogammon.perft` were produced by this generator
//! (`cargo test --release --test shogammon_reference -- --ignored print_suite_counts
//! --nocapture`) and `cargo test` checks every line against both generators.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::rules::game::Game;
use shishi::rules::moves::MoveList;
use shishi::rules::perft::perft_given_outcomes;
use shishi::rules::variants::shogammon::{DiceUse, Position, Roll};

#[path = "common/perft_file.rs"]
mod perft_file;
use perft_file::read_suite;

// ---------------------------------------------------------------------------------------
// The reference model.

/// A piece: its side, its unpromoted letter (uppercase) and whether it is promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pc {
    black: bool,
    letter: char,
    promoted: bool,
}

/// Hand letters in the order the hands are written.
const HAND_LETTERS: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

/// RULES.md §4.2: 1 P, 2 L N, 3 S, 4 G, 5 B R, 6 K.
fn die_of(letter: char) -> u8 {
    match letter {
        'P' => 1,
        'L' | 'N' => 2,
        'S' => 3,
        'G' => 4,
        'B' | 'R' => 5,
        'K' => 6,
        other => panic!("no die for {other}"),
    }
}

#[derive(Clone, Copy)]
enum Way {
    Step(i32, i32),
    Line(i32, i32),
    Jump(i32, i32),
}

/// How a piece moves, as (forward, left) from its owner's seat.
fn ways(letter: char, promoted: bool) -> Vec<Way> {
    let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let gold = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1)];
    let step = |d: &[(i32, i32)]| d.iter().map(|&(f, l)| Way::Step(f, l)).collect::<Vec<_>>();
    let line = |d: &[(i32, i32)]| d.iter().map(|&(f, l)| Way::Line(f, l)).collect::<Vec<_>>();
    match (letter, promoted) {
        ('P', false) => step(&[(1, 0)]),
        ('L', false) => line(&[(1, 0)]),
        ('N', false) => vec![Way::Jump(2, 1), Way::Jump(2, -1)],
        ('S', false) => step(&[(1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]),
        ('G', false) | ('P' | 'L' | 'N' | 'S', true) => step(&gold),
        ('B', false) => line(&diag),
        ('B', true) => [line(&diag), step(&orth)].concat(),
        ('R', false) => line(&orth),
        ('R', true) => [line(&orth), step(&diag)].concat(),
        ('K', false) => [step(&orth), step(&diag)].concat(),
        other => panic!("no such piece {other:?}"),
    }
}

type Sq = (usize, usize); // (file 0 = USI file 1, rank 0 = rank a)

fn sq_text((f, r): Sq) -> String {
    format!("{}{}", f + 1, (b'a' + r as u8) as char)
}

fn sq_parse(text: &str) -> Sq {
    let b = text.as_bytes();
    ((b[0] - b'1') as usize, (b[1] - b'a') as usize)
}

#[derive(Clone)]
struct Ref {
    /// `board[file][rank]`: the pieces on the square, lower first (at most two).
    board: Vec<Vec<Vec<Pc>>>,
    /// Hand counts per side (black first), in `HAND_LETTERS` order.
    hands: [[u8; 7]; 2],
    black_to_move: bool,
    turn: u32,
    /// Dice still to use this turn.
    dice: Vec<u8>,
    /// The first arrival of a point capture: the square and the piece.
    pending: Option<(Sq, Pc)>,
    /// The side that captured a king.
    winner: Option<bool>,
    /// Backgammon's duty (as many dice as possible, else the larger) instead of RULES.md
    /// §4.3's ordered one.
    maximal: bool,
}

fn pc_text(p: Pc) -> String {
    let letter = if p.black {
        p.letter
    } else {
        p.letter.to_ascii_lowercase()
    };
    if p.promoted {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

impl Ref {
    fn from_sfen(sfen: &str) -> Ref {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let mut board = vec![vec![Vec::new(); 9]; 9];
        for (r, row) in fields[0].split('/').enumerate() {
            let mut f = 9usize;
            let mut chars = row.chars();
            let read_piece = |c: char, chars: &mut std::str::Chars| {
                let (promoted, c) = if c == '+' {
                    (true, chars.next().unwrap())
                } else {
                    (false, c)
                };
                Pc {
                    black: c.is_ascii_uppercase(),
                    letter: c.to_ascii_uppercase(),
                    promoted,
                }
            };
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    f -= d as usize;
                } else if c == '(' {
                    f -= 1;
                    let first = chars.next().unwrap();
                    let lower = read_piece(first, &mut chars);
                    let second = chars.next().unwrap();
                    let upper = read_piece(second, &mut chars);
                    assert_eq!(chars.next(), Some(')'));
                    board[f][r] = vec![lower, upper];
                } else {
                    f -= 1;
                    board[f][r] = vec![read_piece(c, &mut chars)];
                }
            }
            assert_eq!(f, 0, "rank {r} of {sfen}");
        }
        let mut hands = [[0u8; 7]; 2];
        if fields[2] != "-" {
            let mut n = 0u8;
            for c in fields[2].chars() {
                if let Some(d) = c.to_digit(10) {
                    n = n * 10 + d as u8;
                } else {
                    let slot = HAND_LETTERS
                        .iter()
                        .position(|l| *l == c.to_ascii_uppercase())
                        .unwrap();
                    hands[usize::from(!c.is_ascii_uppercase())][slot] += n.max(1);
                    n = 0;
                }
            }
        }
        Ref {
            board,
            hands,
            black_to_move: fields[1] == "b",
            turn: fields.get(3).map_or(1, |t| t.parse().unwrap()),
            dice: Vec::new(),
            pending: None,
            winner: None,
            maximal: false,
        }
    }

    fn to_sfen(&self) -> String {
        let mut rows = Vec::new();
        for r in 0..9 {
            let mut row = String::new();
            let mut empty = 0;
            for f in (0..9).rev() {
                let stack = &self.board[f][r];
                if stack.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                if stack.len() == 2 {
                    row += &format!("({}{})", pc_text(stack[0]), pc_text(stack[1]));
                } else {
                    row += &pc_text(stack[0]);
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut hands = String::new();
        for (side, black) in [(0, true), (1, false)] {
            for (slot, letter) in HAND_LETTERS.iter().enumerate() {
                let n = self.hands[side][slot];
                if n > 1 {
                    hands += &n.to_string();
                }
                if n > 0 {
                    hands += &pc_text(Pc {
                        black,
                        letter: *letter,
                        promoted: false,
                    });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        format!(
            "{} {} {hands} {}",
            rows.join("/"),
            if self.black_to_move { 'b' } else { 'w' },
            self.turn
        )
    }

    fn side(&self) -> usize {
        usize::from(!self.black_to_move)
    }

    /// Where a piece standing on `from` could go by its movement (sliders stop at the first
    /// occupied square, which they may reach).
    fn reach(&self, from: Sq, p: Pc) -> Vec<Sq> {
        let (sign_rank, sign_file) = if p.black { (-1, 1) } else { (1, -1) };
        let on_board = |f: i32, r: i32| (0..9).contains(&f) && (0..9).contains(&r);
        let mut out = Vec::new();
        for way in ways(p.letter, p.promoted) {
            let (fwd, left, slide) = match way {
                Way::Step(a, b) | Way::Jump(a, b) => (a, b, false),
                Way::Line(a, b) => (a, b, true),
            };
            let (mut f, mut r) = (from.0 as i32, from.1 as i32);
            loop {
                f += left * sign_file;
                r += fwd * sign_rank;
                if !on_board(f, r) {
                    break;
                }
                out.push((f as usize, r as usize));
                if !slide || !self.board[f as usize][r as usize].is_empty() {
                    break;
                }
            }
        }
        out
    }

    fn in_zone(black: bool, r: usize) -> bool {
        if black {
            r <= 2
        } else {
            r >= 6
        }
    }

    /// Ranks from the far edge (0 = last rank).
    fn depth(black: bool, r: usize) -> usize {
        if black {
            r
        } else {
            8 - r
        }
    }

    fn dead(letter: char, black: bool, r: usize) -> bool {
        match letter {
            'P' | 'L' => Self::depth(black, r) == 0,
            'N' => Self::depth(black, r) <= 1,
            _ => false,
        }
    }

    /// Tokens of the move from `from` to `to` with its promotion choices.
    fn with_promotions(p: Pc, from: Sq, to: Sq, out: &mut Vec<String>) {
        let text = format!("{}{}", sq_text(from), sq_text(to));
        let promotable = !p.promoted && !matches!(p.letter, 'G' | 'K');
        if promotable && (Self::in_zone(p.black, from.1) || Self::in_zone(p.black, to.1)) {
            out.push(format!("{text}+"));
        }
        if !(promotable && Self::dead(p.letter, p.black, to.1)) {
            out.push(text);
        }
    }

    /// The die actions for `die` with `other` the die left after it.
    fn die_actions(&self, die: u8, other: Option<u8>) -> Vec<String> {
        let black = self.black_to_move;
        let mut out = Vec::new();
        for f in 0..9 {
            for r in 0..9 {
                let Some(&p) = self.board[f][r].last() else {
                    continue;
                };
                if p.black != black || die_of(p.letter) != die {
                    continue;
                }
                for to in self.reach((f, r), p) {
                    let there = &self.board[to.0][to.1];
                    let ok = match there.len() {
                        0 => true,
                        1 => true,
                        _ if there[0].black == black => false,
                        _ => {
                            // An enemy point: only if a second piece can follow with `other`.
                            match other {
                                None => false,
                                Some(second) => {
                                    let mut after = self.clone();
                                    after.apply(&format!("{}{}", sq_text((f, r)), sq_text(to)));
                                    !after.completions(second).is_empty()
                                }
                            }
                        }
                    };
                    if ok {
                        Self::with_promotions(p, (f, r), to, &mut out);
                    }
                }
            }
        }
        let side = self.side();
        for (slot, letter) in HAND_LETTERS.iter().enumerate() {
            if self.hands[side][slot] == 0 || die_of(*letter) != die {
                continue;
            }
            for f in 0..9 {
                let pawn_on_file = (0..9).any(|r| {
                    self.board[f][r]
                        .iter()
                        .any(|q| q.black == black && q.letter == 'P' && !q.promoted)
                });
                if *letter == 'P' && pawn_on_file {
                    continue;
                }
                for r in 0..9 {
                    if self.board[f][r].is_empty() && !Self::dead(*letter, black, r) {
                        out.push(format!("{letter}*{}", sq_text((f, r))));
                    }
                }
            }
        }
        out
    }

    /// Second arrivals with `die` onto the pending point.
    fn completions(&self, die: u8) -> Vec<String> {
        let (target, _) = self.pending.expect("a pending capture");
        let mut out = Vec::new();
        for f in 0..9 {
            for r in 0..9 {
                let Some(&p) = self.board[f][r].last() else {
                    continue;
                };
                if p.black == self.black_to_move
                    && die_of(p.letter) == die
                    && self.reach((f, r), p).contains(&target)
                {
                    Self::with_promotions(p, (f, r), target, &mut out);
                }
            }
        }
        out
    }

    /// Every legal token, sorted.
    fn legal(&self) -> Vec<String> {
        if self.maximal {
            self.legal_maximal()
        } else {
            self.legal_ordered()
        }
    }

    /// The die a token uses (`None` for `pass` and rolls).
    fn token_die(&self, token: &str) -> Option<u8> {
        if token == "pass" || token.starts_with("r:") {
            return None;
        }
        if let Some((letter, _)) = token.split_once('*') {
            return Some(die_of(letter.chars().next().unwrap()));
        }
        let from = sq_parse(&token[0..2]);
        Some(die_of(self.board[from.0][from.1].last().unwrap().letter))
    }

    /// The maximal rule, from the whole turn: every ordered sequence of the turn, the ones
    /// using the most dice kept (a king capture counts as using both), and among one-die
    /// sequences those using the larger die if any; their first tokens.
    fn legal_maximal(&self) -> Vec<String> {
        if self.winner.is_some() || self.dice.len() < 2 || self.pending.is_some() {
            return self.legal_ordered();
        }
        let larger = *self.dice.iter().max().unwrap();
        // (first token, dice used, the die used when one is)
        let mut sequences: Vec<(String, usize, Option<u8>)> = Vec::new();
        for first in self.legal_ordered() {
            let first_die = self.token_die(&first);
            let mut next = self.clone();
            next.apply(&first);
            if next.winner.is_some() {
                sequences.push((first, 2, None));
                continue;
            }
            for second in next.legal_ordered() {
                let second_die = next.token_die(&second);
                let used = usize::from(first_die.is_some()) + usize::from(second_die.is_some());
                sequences.push((first.clone(), used, first_die.or(second_die)));
            }
        }
        let most = sequences.iter().map(|s| s.1).max().unwrap();
        sequences.retain(|s| s.1 == most);
        if most == 1 && sequences.iter().any(|s| s.2 == Some(larger)) {
            sequences.retain(|s| s.2 == Some(larger));
        }
        let mut out: Vec<String> = sequences.into_iter().map(|s| s.0).collect();
        out.sort();
        out.dedup();
        out
    }

    /// Every legal token under RULES.md §4.3, sorted.
    fn legal_ordered(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        if self.dice.is_empty() {
            for a in 1..=6 {
                for b in 1..=a {
                    out.push(format!("r:{a}{b}"));
                }
            }
        } else if self.pending.is_some() {
            out = self.completions(self.dice[0]);
        } else {
            let mut some_unusable = false;
            let mut values = self.dice.clone();
            values.sort_unstable();
            values.dedup();
            for die in values {
                let actions = self.die_actions(die, self.other_die(die));
                some_unusable |= actions.is_empty();
                out.extend(actions);
            }
            if some_unusable {
                out.push("pass".to_string());
            }
        }
        out.sort();
        out
    }

    fn other_die(&self, die: u8) -> Option<u8> {
        let mut rest = self.dice.clone();
        let i = rest.iter().position(|d| *d == die).unwrap();
        rest.remove(i);
        rest.first().copied()
    }

    fn take_to_hand(&mut self, victim: Pc) {
        if victim.letter == 'K' {
            self.winner = Some(self.black_to_move);
            return;
        }
        let slot = HAND_LETTERS
            .iter()
            .position(|l| *l == victim.letter)
            .unwrap();
        self.hands[self.side()][slot] += 1;
    }

    /// Applies a token known to be legal.
    fn apply(&mut self, token: &str) {
        let used_die;
        if let Some(digits) = token.strip_prefix("r:") {
            let b = digits.as_bytes();
            self.dice = vec![b[0] - b'0', b[1] - b'0'];
            return;
        } else if token == "pass" {
            let mut dice = self.dice.clone();
            dice.sort_unstable_by(|a, b| b.cmp(a));
            used_die = *dice
                .iter()
                .find(|d| self.die_actions(**d, self.other_die(**d)).is_empty())
                .expect("an unusable die");
        } else if let Some((letter, to)) = token.split_once('*') {
            let letter = letter.chars().next().unwrap();
            let slot = HAND_LETTERS.iter().position(|l| *l == letter).unwrap();
            let side = self.side();
            self.hands[side][slot] -= 1;
            let to = sq_parse(to);
            self.board[to.0][to.1].push(Pc {
                black: self.black_to_move,
                letter,
                promoted: false,
            });
            used_die = die_of(letter);
        } else {
            let from = sq_parse(&token[0..2]);
            let to = sq_parse(&token[2..4]);
            let mut p = self.board[from.0][from.1].pop().unwrap();
            used_die = die_of(p.letter);
            if token.ends_with('+') {
                p.promoted = true;
            }
            let there = self.board[to.0][to.1].clone();
            match there.len() {
                0 => self.board[to.0][to.1] = vec![p],
                1 if there[0].black == p.black => self.board[to.0][to.1].push(p),
                1 => {
                    self.take_to_hand(there[0]);
                    self.board[to.0][to.1] = vec![p];
                }
                _ => match self.pending.take() {
                    None => self.pending = Some((to, p)),
                    Some((_, first)) => {
                        self.take_to_hand(there[0]);
                        self.take_to_hand(there[1]);
                        self.board[to.0][to.1] = vec![first, p];
                    }
                },
            }
        }
        let i = self.dice.iter().position(|d| *d == used_die).unwrap();
        self.dice.remove(i);
        if self.dice.is_empty() && self.winner.is_none() {
            self.black_to_move = !self.black_to_move;
            self.turn += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Comparison helpers.

fn engine_legal(pos: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut texts: Vec<String> = list.iter().map(|m| pos.action_to_usi(*m)).collect();
    texts.sort();
    texts
}

/// Reference perft over decisions, the i-th turn started taking `rolls[i]`.
fn reference_perft(state: &Ref, rolls: &[String], used: usize, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if state.dice.is_empty() && state.winner.is_none() {
        let mut next = state.clone();
        next.apply(&rolls[used]);
        return reference_perft(&next, rolls, used + 1, depth);
    }
    let legal = state.legal();
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .iter()
        .map(|token| {
            let mut next = state.clone();
            next.apply(token);
            reference_perft(&next, rolls, used, depth - 1)
        })
        .sum()
}

/// Walks both trees together to `depth` decisions and panics at the first node where the
/// legal tokens or the SFENs differ.
fn compare_trees(pos: &mut Position, state: &Ref, rolls: &[String], used: usize, depth: u32) {
    assert_eq!(pos.to_sfen(), state.to_sfen(), "positions differ");
    if depth == 0 || pos.outcome().is_some() {
        assert_eq!(pos.outcome().is_some(), state.winner.is_some());
        return;
    }
    if pos.awaiting_roll() {
        let roll = pos.parse_action(&rolls[used]).unwrap();
        pos.play(roll);
        let mut next = state.clone();
        next.apply(&rolls[used]);
        compare_trees(pos, &next, rolls, used + 1, depth);
        pos.unplay();
        return;
    }
    let ours = engine_legal(pos);
    let theirs = state.legal();
    assert_eq!(ours, theirs, "legal actions differ in {pos:?}");
    for token in &theirs {
        let action = pos.parse_action(token).unwrap();
        pos.play(action);
        let mut next = state.clone();
        next.apply(token);
        compare_trees(pos, &next, rolls, used, depth - 1);
        pos.unplay();
    }
}

fn rolls_of(text: &[String]) -> Vec<String> {
    text.iter()
        .map(|r| {
            let roll = Roll::parse_token(&format!("r:{r}")).expect("roll");
            roll.token()
        })
        .collect()
}

/// Rolls as `Move`s for the engine's perft.
fn roll_moves(rolls: &[String]) -> Vec<shishi::rules::moves::Move> {
    rolls
        .iter()
        .map(|r| Roll::parse_token(r).unwrap().to_move())
        .collect()
}

// ---------------------------------------------------------------------------------------
// Tests.

#[test]
fn suite_matches_both_generators() {
    let lines = read_suite("shogammon.perft");
    assert!(lines.len() >= 30, "the suite should hold many lines");
    let mut sfens: Vec<&str> = lines.iter().map(|l| l.sfen.as_str()).collect();
    sfens.dedup();
    assert!(sfens.len() >= 20, "at least 20 positions");
    for line in &lines {
        let rolls = rolls_of(&line.rolls);
        let mut pos = Position::from_sfen(&line.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        let hash = pos.hash();
        let fast = perft_given_outcomes(&mut pos, &roll_moves(&rolls), line.depth)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        assert_eq!(
            fast, line.nodes,
            "line {}: engine perft {} of {}",
            line.line_number, line.depth, line.sfen
        );
        assert_eq!(pos.hash(), hash);
        let state = Ref::from_sfen(&line.sfen);
        assert_eq!(
            reference_perft(&state, &rolls, 0, line.depth),
            line.nodes,
            "line {}: reference perft {} of {}",
            line.line_number,
            line.depth,
            line.sfen
        );
        compare_trees(&mut pos, &state, &rolls, 0, line.depth);
    }
}

/// The maximal dice-use rule has no stored counts: the two engines are compared node by
/// node on every suite position instead.
#[test]
fn suite_trees_match_with_maximal_dice_use() {
    for line in read_suite("shogammon.perft") {
        let rolls = rolls_of(&line.rolls);
        let mut pos = Position::from_sfen(&line.sfen).unwrap();
        pos.set_dice_use(DiceUse::Maximal);
        let mut state = Ref::from_sfen(&line.sfen);
        state.maximal = true;
        compare_trees(&mut pos, &state, &rolls, 0, line.depth.min(3));
    }
}

/// Plays seeded random games with both engines in step, comparing the legal tokens at every
/// decision and the SFEN after every action.
fn random_games_agree(games: u64, max_turns: u32, rule: DiceUse) {
    let mut finished = 0;
    let mut decisions = 0;
    for seed in 0..games {
        let mut rng = StdRng::seed_from_u64(0x5A6A_0000 + seed);
        let mut pos = Position::startpos();
        pos.set_dice_use(rule);
        let mut state = Ref::from_sfen(&pos.to_sfen());
        state.maximal = rule == DiceUse::Maximal;
        while pos.outcome().is_none() && pos.turn_number() <= max_turns {
            let token = if pos.awaiting_roll() {
                let a = rng.gen_range(1..=6u8);
                let b = rng.gen_range(1..=6u8);
                format!("r:{}{}", a.max(b), a.min(b))
            } else {
                let ours = engine_legal(&pos);
                assert_eq!(ours, state.legal(), "seed {seed}: {pos:?}");
                decisions += 1;
                ours[rng.gen_range(0..ours.len())].clone()
            };
            let action = pos.parse_action(&token).unwrap();
            pos.play(action);
            state.apply(&token);
            assert_eq!(pos.to_sfen(), state.to_sfen(), "seed {seed} after {token}");
            assert_eq!(pos.outcome().is_some(), state.winner.is_some());
        }
        finished += u32::from(pos.outcome().is_some());
    }
    eprintln!("{games} games, {finished} ended by a king capture, {decisions} decisions compared");
    assert!(finished > 0, "some random game should end");
}

#[test]
fn random_games_match_reference() {
    random_games_agree(30, 300, DiceUse::Ordered);
}

#[test]
fn random_games_match_reference_with_maximal_dice_use() {
    random_games_agree(15, 300, DiceUse::Maximal);
}

#[test]
#[ignore = "long: scripts/shogammon_reference_long.sh"]
fn many_random_games_match_reference() {
    random_games_agree(1000, 300, DiceUse::Ordered);
    random_games_agree(300, 300, DiceUse::Maximal);
}

#[test]
#[ignore = "prints the suite counts from the reference generator"]
fn print_suite_counts() {
    for line in read_suite("shogammon.perft") {
        let rolls = rolls_of(&line.rolls);
        let n = reference_perft(&Ref::from_sfen(&line.sfen), &rolls, 0, line.depth);
        println!(
            "{} ; {} ; {n} ; {}",
            line.sfen,
            line.depth,
            line.rolls.join(",")
        );
    }
}

#[test]
#[ignore = "prints turn-start SFENs from seeded random games, for the perft suite"]
fn print_random_positions() {
    for seed in 0..6u64 {
        let mut rng = StdRng::seed_from_u64(0x5EED_0000 + seed);
        let mut pos = Position::startpos();
        while pos.outcome().is_none() && pos.turn_number() <= 20 + 10 * seed as u32 {
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            let action = list[rng.gen_range(0..list.len())];
            pos.play(action);
        }
        if pos.outcome().is_none() {
            println!("{}", pos.to_sfen());
        }
    }
}
