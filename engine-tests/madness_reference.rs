//! A second, deliberately simple Central Madness generator, written from RULES.md §1 and §5,
//! and the tests that hold the engine's fast one (`madness::TrueGame`) to it.
//!
//! It shares no code with the engine: a mailbox of `Option<Pc>` indexed by (file, rank),
//! the piece moves typed in from RULES.md §1.2, its own SFEN reader and token text, and
//! states copied rather than made and unmade. Legality is decided by playing the move on a
//! copy and asking whether any enemy piece reaches the king; uchifuzume by playing the pawn
//! drop and trying every reply. The two generators meet only in text: at every node both
//! list their actions (or chance outcomes with weights) as protocol tokens.
//!
//! The counts in `positions/perft/madness.perft` were produced by this generator
//! (`cargo test --release --test madness_reference -- --ignored print_suite_counts
//! --nocapture`) and are checked against the fast one by `suite_matches_fast_generator`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::rules::game::{Game, NodeKind};
use shishi::rules::moves::MoveList;
use shishi::rules::variants::madness::perft::{perft_decisions, ChanceScript};
use shishi::rules::variants::madness::TrueGame;
use std::path::PathBuf;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Black,
    White,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
    /// The rank step toward the opponent (ranks run a..i from White's side).
    fn forward(self) -> i32 {
        match self {
            Side::Black => -1,
            Side::White => 1,
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
}

const LETTERS: [(char, Kind); 8] = [
    ('P', Kind::Pawn),
    ('L', Kind::Lance),
    ('N', Kind::Knight),
    ('S', Kind::Silver),
    ('G', Kind::Gold),
    ('B', Kind::Bishop),
    ('R', Kind::Rook),
    ('K', Kind::King),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pc {
    side: Side,
    kind: Kind,
    promoted: bool,
}

impl Pc {
    fn can_promote(self) -> bool {
        !self.promoted && !matches!(self.kind, Kind::Gold | Kind::King)
    }
}

/// (file index 0..9 = USI file 1..9, rank index 0..9 = a..i).
type Sq = (i32, i32);
/// A displacement (files, ranks).
type Delta = (i32, i32);

fn on_board(sq: Sq) -> bool {
    (0..9).contains(&sq.0) && (0..9).contains(&sq.1)
}

fn sq_text(sq: Sq) -> String {
    format!("{}{}", sq.0 + 1, (b'a' + sq.1 as u8) as char)
}

const CENTRE: Sq = (4, 4);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Deal(Side),
    Choice,
    Roll,
    Promo(Sq),
    Draw,
    Normal,
    Over,
}

#[derive(Clone)]
struct Ref {
    board: [[Option<Pc>; 9]; 9],
    /// Pieces in hand by side and `Kind as usize` (the king slot stays 0).
    hand: [[u8; 8]; 2],
    side: Side,
    /// Card counts by value 1..=10 (index 0 unused).
    pile: [u8; 11],
    discards: [u8; 11],
    /// Each side's card, 0 before the deal.
    held: [u8; 2],
    stage: Stage,
    frozen: Option<Sq>,
    no_drops: bool,
    draw_pending: bool,
}

impl Ref {
    fn from_sfen(sfen: &str) -> Ref {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let mut board = [[None; 9]; 9];
        for (rank, row) in fields[0].split('/').enumerate() {
            let mut file = 8i32;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file -= n as i32;
                } else if c == '+' {
                    promoted = true;
                } else {
                    let kind = LETTERS
                        .iter()
                        .find(|(l, _)| *l == c.to_ascii_uppercase())
                        .unwrap()
                        .1;
                    let side = if c.is_ascii_uppercase() {
                        Side::Black
                    } else {
                        Side::White
                    };
                    board[file as usize][rank] = Some(Pc {
                        side,
                        kind,
                        promoted,
                    });
                    promoted = false;
                    file -= 1;
                }
            }
        }
        let mut hand = [[0u8; 8]; 2];
        let mut count = 0u8;
        for c in fields[2].chars().filter(|c| *c != '-') {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d as u8;
            } else {
                let kind = LETTERS
                    .iter()
                    .find(|(l, _)| *l == c.to_ascii_uppercase())
                    .unwrap()
                    .1;
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                hand[side][kind as usize] += count.max(1);
                count = 0;
            }
        }
        Ref {
            board,
            hand,
            side: if fields[1] == "b" {
                Side::Black
            } else {
                Side::White
            },
            pile: [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
            discards: [0; 11],
            held: [0; 2],
            stage: Stage::Deal(Side::Black),
            frozen: None,
            no_drops: false,
            draw_pending: false,
        }
    }

    fn at(&self, sq: Sq) -> Option<Pc> {
        self.board[sq.0 as usize][sq.1 as usize]
    }

    fn set(&mut self, sq: Sq, pc: Option<Pc>) {
        self.board[sq.0 as usize][sq.1 as usize] = pc;
    }

    /// The squares a piece on `from` reaches (empty or enemy), RULES.md §1.2.
    fn reach(&self, from: Sq, pc: Pc) -> Vec<Sq> {
        let f = pc.side.forward();
        let gold = [(0, f), (1, f), (-1, f), (1, 0), (-1, 0), (0, -f)];
        let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let orthogonal = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let (steps, slides): (Vec<Delta>, Vec<Delta>) = match (pc.kind, pc.promoted) {
            (Kind::Pawn, false) => (vec![(0, f)], vec![]),
            (Kind::Lance, false) => (vec![], vec![(0, f)]),
            (Kind::Knight, false) => (vec![(1, 2 * f), (-1, 2 * f)], vec![]),
            (Kind::Silver, false) => (vec![(0, f), (1, f), (-1, f), (1, -f), (-1, -f)], vec![]),
            (Kind::Gold, _) | (Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver, true) => {
                (gold.to_vec(), vec![])
            }
            (Kind::King, _) => (
                diagonal.iter().chain(orthogonal.iter()).copied().collect(),
                vec![],
            ),
            (Kind::Bishop, p) => (
                if p { orthogonal.to_vec() } else { vec![] },
                diagonal.to_vec(),
            ),
            (Kind::Rook, p) => (
                if p { diagonal.to_vec() } else { vec![] },
                orthogonal.to_vec(),
            ),
        };
        let mut out = Vec::new();
        for (df, dr) in steps {
            let to = (from.0 + df, from.1 + dr);
            if on_board(to) && self.at(to).is_none_or(|p| p.side != pc.side) {
                out.push(to);
            }
        }
        for (df, dr) in slides {
            let mut to = (from.0 + df, from.1 + dr);
            while on_board(to) {
                match self.at(to) {
                    None => out.push(to),
                    Some(p) => {
                        if p.side != pc.side {
                            out.push(to);
                        }
                        break;
                    }
                }
                to = (to.0 + df, to.1 + dr);
            }
        }
        out
    }

    fn squares(&self) -> Vec<(Sq, Pc)> {
        let mut out = Vec::new();
        for file in 0..9 {
            for rank in 0..9 {
                if let Some(pc) = self.at((file, rank)) {
                    out.push(((file, rank), pc));
                }
            }
        }
        out
    }

    fn attacked(&self, sq: Sq, by: Side) -> bool {
        self.squares()
            .into_iter()
            .any(|(from, pc)| pc.side == by && self.reach(from, pc).contains(&sq))
    }

    fn king(&self, side: Side) -> Option<Sq> {
        self.squares()
            .into_iter()
            .find(|(_, pc)| pc.side == side && pc.kind == Kind::King)
            .map(|(sq, _)| sq)
    }

    fn king_safe(&self, side: Side) -> bool {
        self.king(side)
            .is_none_or(|k| !self.attacked(k, side.other()))
    }

    fn in_zone(side: Side, sq: Sq) -> bool {
        match side {
            Side::Black => sq.1 <= 2,
            Side::White => sq.1 >= 6,
        }
    }

    /// True if an unpromoted `kind` of `side` on `sq` could never move again.
    fn dead(kind: Kind, side: Side, sq: Sq) -> bool {
        let from_far_edge = match side {
            Side::Black => sq.1,
            Side::White => 8 - sq.1,
        };
        match kind {
            Kind::Pawn | Kind::Lance => from_far_edge == 0,
            Kind::Knight => from_far_edge <= 1,
            _ => false,
        }
    }

    /// The start of `self.side`'s turn.
    fn begin_turn(&mut self) {
        self.stage = match self.at(CENTRE) {
            Some(pc) if pc.side == self.side => Stage::Choice,
            _ => Stage::Normal,
        };
        self.frozen = None;
        self.no_drops = false;
        self.draw_pending = false;
    }

    fn after_effect(&self) -> Stage {
        if self.draw_pending {
            Stage::Draw
        } else {
            Stage::Normal
        }
    }

    /// The madness effect of value `v` on the mover's piece on 5e (RULES.md §5.3).
    fn effect(&mut self, v: u8) {
        let us = self.side;
        let x = self.at(CENTRE).unwrap();
        self.stage = self.after_effect();
        match v {
            1..=8 => {
                // E, SE, S, SW, W, NW, N, NE: east is file +1, south is rank -1 (toward a).
                let dirs = [
                    (1, 0),
                    (1, -1),
                    (0, -1),
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ];
                let (df, dr) = dirs[v as usize - 1];
                let mut cur = CENTRE;
                let mut dest = None;
                loop {
                    let next = (cur.0 + df, cur.1 + dr);
                    if !on_board(next) {
                        break;
                    }
                    match self.at(next) {
                        None => {
                            dest = Some(next);
                            cur = next;
                        }
                        Some(p) if p.side == us => break,
                        Some(_) => {
                            dest = Some(next);
                            break;
                        }
                    }
                }
                let Some(dest) = dest else { return };
                if let Some(victim) = self.at(dest) {
                    if victim.kind == Kind::King {
                        self.stage = Stage::Over;
                        return;
                    }
                    self.hand[us.index()][victim.kind as usize] += 1;
                }
                self.set(CENTRE, None);
                let mut landed = x;
                if x.can_promote() && Ref::dead(x.kind, us, dest) {
                    landed.promoted = true;
                } else if x.can_promote() && Ref::in_zone(us, dest) {
                    self.stage = Stage::Promo(dest);
                }
                self.set(dest, Some(landed));
                self.frozen = Some(dest);
            }
            9 => {
                if matches!(x.kind, Kind::King | Kind::Gold) {
                    return;
                }
                let mut flipped = x;
                flipped.promoted = !x.promoted;
                self.set(CENTRE, Some(flipped));
                self.frozen = Some(CENTRE);
            }
            _ => {
                if x.kind == Kind::King {
                    self.stage = Stage::Over;
                    return;
                }
                self.set(CENTRE, None);
                self.hand[us.index()][x.kind as usize] += 1;
                self.no_drops = true;
            }
        }
    }

    /// Every board move of `side` as (text, state after), with `frozen` excluded; a move
    /// onto the enemy king is kept whatever it leaves, the others only if the own king is
    /// then safe.
    fn board_moves(&self, side: Side, frozen: Option<Sq>) -> Vec<(String, Ref)> {
        let mut out = Vec::new();
        for (from, pc) in self.squares() {
            if pc.side != side || Some(from) == frozen {
                continue;
            }
            for to in self.reach(from, pc) {
                let mut options = Vec::new();
                if pc.can_promote() && (Ref::in_zone(side, from) || Ref::in_zone(side, to)) {
                    options.push(true);
                }
                if !(pc.can_promote() && Ref::dead(pc.kind, side, to)) {
                    options.push(false);
                }
                for promote in options {
                    let text = format!(
                        "{}{}{}",
                        sq_text(from),
                        sq_text(to),
                        if promote { "+" } else { "" }
                    );
                    let mut next = self.clone();
                    let victim = next.at(to);
                    if victim.is_some_and(|v| v.kind == Kind::King) {
                        next.stage = Stage::Over;
                        out.push((text, next));
                        continue;
                    }
                    if let Some(v) = victim {
                        next.hand[side.index()][v.kind as usize] += 1;
                    }
                    next.set(from, None);
                    next.set(
                        to,
                        Some(Pc {
                            promoted: pc.promoted || promote,
                            ..pc
                        }),
                    );
                    if next.king_safe(side) {
                        out.push((text, next));
                    }
                }
            }
        }
        out
    }

    /// The normal moves and drops of the mover, each leading to the next turn (or the end).
    fn normal_moves(&self) -> Vec<(String, Ref)> {
        let us = self.side;
        let mut out = self.board_moves(us, self.frozen);
        if !self.no_drops {
            for (l, kind) in LETTERS {
                if kind == Kind::King || self.hand[us.index()][kind as usize] == 0 {
                    continue;
                }
                for file in 0..9 {
                    for rank in 0..9 {
                        let to = (file, rank);
                        if self.at(to).is_some() || Ref::dead(kind, us, to) {
                            continue;
                        }
                        if kind == Kind::Pawn
                            && (0..9).any(|r| {
                                self.at((file, r)).is_some_and(|p| {
                                    p.side == us && p.kind == Kind::Pawn && !p.promoted
                                })
                            })
                        {
                            continue;
                        }
                        let mut next = self.clone();
                        next.hand[us.index()][kind as usize] -= 1;
                        next.set(
                            to,
                            Some(Pc {
                                side: us,
                                kind,
                                promoted: false,
                            }),
                        );
                        if !next.king_safe(us) {
                            continue;
                        }
                        let gives_pawn_check = kind == Kind::Pawn
                            && next.king(us.other()) == Some((file, rank + us.forward()));
                        // Uchifuzume: a pawn drop that leaves no ordinary reply. Drops cannot
                        // answer a pawn's check (it is adjacent and cannot be captured by a
                        // drop), so only board moves are tried.
                        if gives_pawn_check
                            && next
                                .board_moves(us.other(), None)
                                .iter()
                                .all(|(_, after)| !after.king_safe(us.other()))
                        {
                            continue;
                        }
                        out.push((format!("{l}*{}", sq_text(to)), next));
                    }
                }
            }
        }
        for (_, next) in out.iter_mut() {
            if next.stage != Stage::Over {
                next.side = us.other();
                next.begin_turn();
            }
        }
        out
    }

    /// The node: whether it is chance, and its children as (token, weight, state).
    fn node(&self) -> (bool, Vec<(String, u32, Ref)>) {
        let us = self.side;
        match self.stage {
            Stage::Over => (false, vec![]),
            Stage::Deal(who) => {
                let mut out = Vec::new();
                for v in 1..=10u8 {
                    if self.pile[v as usize] > 0 {
                        let mut next = self.clone();
                        next.pile[v as usize] -= 1;
                        next.held[who.index()] = v;
                        if who == Side::Black {
                            next.stage = Stage::Deal(Side::White);
                        } else {
                            next.begin_turn();
                        }
                        out.push((format!("draw:{v}"), self.pile[v as usize] as u32, next));
                    }
                }
                (true, out)
            }
            Stage::Choice => {
                let card = self.held[us.index()];
                let mut play = self.clone();
                play.discards[card as usize] += 1;
                play.held[us.index()] = 0;
                play.draw_pending = true;
                play.effect(card);
                let mut roll = self.clone();
                roll.stage = Stage::Roll;
                (
                    false,
                    vec![(format!("c:{card}"), 1, play), ("roll".into(), 1, roll)],
                )
            }
            Stage::Roll => (
                true,
                (1..=10u8)
                    .map(|v| {
                        let mut next = self.clone();
                        next.effect(v);
                        (format!("r:{v}"), 1, next)
                    })
                    .collect(),
            ),
            Stage::Promo(sq) => {
                let mut yes = self.clone();
                let mut pc = yes.at(sq).unwrap();
                pc.promoted = true;
                yes.set(sq, Some(pc));
                yes.stage = yes.after_effect();
                let mut no = self.clone();
                no.stage = no.after_effect();
                (false, vec![("mad+".into(), 1, yes), ("mad=".into(), 1, no)])
            }
            Stage::Draw => {
                let source = if self.pile.iter().all(|n| *n == 0) {
                    self.discards
                } else {
                    self.pile
                };
                let mut out = Vec::new();
                for (v, &count) in source.iter().enumerate().skip(1) {
                    if count > 0 {
                        let mut next = self.clone();
                        if next.pile.iter().all(|n| *n == 0) {
                            next.pile = next.discards;
                            next.discards = [0; 11];
                        }
                        next.pile[v] -= 1;
                        next.held[us.index()] = v as u8;
                        next.draw_pending = false;
                        next.stage = Stage::Normal;
                        out.push((format!("draw:{v}"), count as u32, next));
                    }
                }
                (true, out)
            }
            Stage::Normal => (
                false,
                self.normal_moves()
                    .into_iter()
                    .map(|(t, n)| (t, 1, n))
                    .collect(),
            ),
        }
    }
}

/// The scripted-chance perft of the reference: depth counts decisions; the `r:` and
/// `draw:` queues are read in order along each path; an impossible outcome counts 0; a
/// used-up queue expands every outcome.
fn reference_perft(state: &Ref, depth: u32, rolls: &[String], draws: &[String]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (chance, children) = state.node();
    if !chance {
        return children
            .iter()
            .map(|(_, _, c)| reference_perft(c, depth - 1, rolls, draws))
            .sum();
    }
    let is_roll = children
        .first()
        .is_some_and(|(t, _, _)| t.starts_with("r:"));
    let queue = if is_roll { rolls } else { draws };
    match queue.split_first() {
        Some((wanted, rest)) => {
            let (rolls, draws) = if is_roll {
                (rest, draws)
            } else {
                (rolls, rest)
            };
            children
                .iter()
                .filter(|(t, _, _)| t == wanted)
                .map(|(_, _, c)| reference_perft(c, depth, rolls, draws))
                .sum()
        }
        None => children
            .iter()
            .map(|(_, _, c)| reference_perft(c, depth, rolls, draws))
            .sum(),
    }
}

// ---------------------------------------------------------------------------------------
// Comparing the two generators.

fn fast_node(game: &TrueGame) -> (bool, Vec<(String, u32)>) {
    let (chance, mut list): (bool, Vec<(String, u32)>) = match game.node_kind() {
        NodeKind::Chance(outcomes) => (
            true,
            outcomes
                .into_iter()
                .map(|(m, w)| (game.action_text(m), w.0))
                .collect(),
        ),
        NodeKind::Decision(_) => {
            let mut moves = MoveList::new();
            game.legal_actions(&mut moves);
            (
                false,
                moves.iter().map(|m| (game.action_text(*m), 1)).collect(),
            )
        }
    };
    assert_eq!(
        game.count_legal_actions() as usize,
        list.len(),
        "count and list disagree"
    );
    list.sort();
    (chance, list)
}

fn reference_node(state: &Ref) -> (bool, Vec<(String, u32)>) {
    let (chance, children) = state.node();
    let mut list: Vec<(String, u32)> = children.into_iter().map(|(t, w, _)| (t, w)).collect();
    list.sort();
    (chance, list)
}

/// One suite line: the start, the tokens played, the chance script, depth and count.
struct SuiteLine {
    line: usize,
    sfen: String,
    tokens: Vec<String>,
    chance: String,
    depth: u32,
    nodes: u64,
}

impl SuiteLine {
    fn fast(&self) -> TrueGame {
        let mut game = TrueGame::from_sfen(&self.sfen).unwrap();
        game.play_texts(self.tokens.iter().map(String::as_str))
            .unwrap();
        game
    }

    fn reference(&self) -> Ref {
        let mut state = Ref::from_sfen(&self.sfen);
        for token in &self.tokens {
            let (_, children) = state.node();
            state = children
                .into_iter()
                .find(|(t, _, _)| t == token)
                .unwrap_or_else(|| panic!("line {}: reference refuses {token}", self.line))
                .2;
        }
        state
    }

    fn script(&self) -> (Vec<String>, Vec<String>) {
        let items: Vec<String> = self
            .chance
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        (
            items
                .iter()
                .filter(|s| s.starts_with("r:"))
                .cloned()
                .collect(),
            items
                .iter()
                .filter(|s| s.starts_with("draw:"))
                .cloned()
                .collect(),
        )
    }
}

/// `positions/perft/madness.perft`: `<sfen> [moves <tokens>] [chance <list>] ; <depth> ;
/// <nodes>`.
fn suite() -> Vec<SuiteLine> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions/perft/madness.perft");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = l.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 3, "line {}", i + 1);
        let (head, chance) = match fields[0].split_once(" chance ") {
            Some((h, c)) => (h, c.trim().to_string()),
            None => (fields[0], String::new()),
        };
        let (sfen, tokens) = match head.split_once(" moves ") {
            Some((s, t)) => (s, t.split_whitespace().map(str::to_string).collect()),
            None => (head, Vec::new()),
        };
        out.push(SuiteLine {
            line: i + 1,
            sfen: sfen.trim().to_string(),
            tokens,
            chance,
            depth: fields[1].parse().unwrap(),
            nodes: fields[2].parse().unwrap(),
        });
    }
    out
}

#[test]
fn suite_matches_fast_generator() {
    let lines = suite();
    assert!(lines.len() >= 15, "the suite has {} lines", lines.len());
    for line in lines {
        let script = ChanceScript::parse(&line.chance).unwrap();
        let mut game = line.fast();
        assert_eq!(
            perft_decisions(&mut game, line.depth, &script),
            line.nodes,
            "line {}",
            line.line
        );
    }
}

/// Walks both trees to `depth` decisions (with the line's script), comparing every node.
fn compare_tree(game: &mut TrueGame, state: &Ref, depth: u32, context: &str) {
    let fast = fast_node(game);
    let reference = reference_node(state);
    assert_eq!(fast, reference, "{context} / {}", game.position().to_sfen());
    if depth == 0 {
        return;
    }
    let (chance, children) = state.node();
    for (text, _, child) in children {
        let mv = game.parse_action(&text).unwrap();
        game.play(mv);
        compare_tree(
            game,
            &child,
            depth - !chance as u32,
            &format!("{context} {text}"),
        );
        game.unplay();
    }
}

#[test]
fn reference_agrees_node_by_node_on_every_suite_position() {
    for line in suite() {
        let mut game = line.fast();
        let state = line.reference();
        compare_tree(&mut game, &state, 1, &format!("line {}", line.line));
    }
}

#[test]
#[ignore]
fn reference_reproduces_every_suite_line() {
    for line in suite() {
        let (rolls, draws) = line.script();
        assert_eq!(
            reference_perft(&line.reference(), line.depth, &rolls, &draws),
            line.nodes,
            "line {}",
            line.line
        );
    }
}

#[test]
#[ignore]
fn print_suite_counts() {
    for line in suite() {
        let (rolls, draws) = line.script();
        println!(
            "line {}: depth {} -> {}",
            line.line,
            line.depth,
            reference_perft(&line.reference(), line.depth, &rolls, &draws)
        );
    }
}

/// Starts for random play: madness is common from them.
const RANDOM_STARTS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/pppp1pppp/9/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1gk2nl/1r1s2gb1/p1pppp1pp/1p4p2/4s4/2P6/PP1PPPPPP/1BG4R1/LNS1KGSNL w - 1",
    "4k4/9/3ppp3/9/4+B4/9/3PPP3/9/4K4 b RGSNLPrgsnlp 1",
];

/// How random play leans toward madness.
#[derive(Clone, Copy)]
struct Bias {
    /// Probability of choosing a move onto 5e when there is one.
    centre: f64,
    /// Probability of playing the card rather than rolling.
    card: f64,
}

/// What a batch of random games went through.
#[derive(Debug, Default)]
struct PlayoutStats {
    madness_turns: usize,
    reshuffles: usize,
}

/// Plays seeded random games on both generators, comparing every node (actions, chance
/// outcomes and their weights); `bias` makes madness turns and card plays frequent.
fn playouts(seed: u64, games: usize, plies: usize, bias: Bias) -> PlayoutStats {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut stats = PlayoutStats::default();
    for g in 0..games {
        let start = RANDOM_STARTS[g % RANDOM_STARTS.len()];
        let mut game = TrueGame::from_sfen(start).unwrap();
        let mut state = Ref::from_sfen(start);
        let mut played = Vec::new();
        for _ in 0..plies {
            let fast = fast_node(&game);
            let reference = reference_node(&state);
            assert_eq!(
                fast,
                reference,
                "seed {seed} game {g}: {}",
                played.join(" ")
            );
            let (chance, children) = state.node();
            if children.is_empty() {
                break;
            }
            let preferred: Vec<usize> = (0..children.len())
                .filter(|&i| children[i].0.ends_with("5e") || children[i].0.starts_with("c:"))
                .collect();
            let lean = if state.stage == Stage::Choice {
                bias.card
            } else {
                bias.centre
            };
            let pick = if !chance && !preferred.is_empty() && rng.gen_bool(lean) {
                preferred[rng.gen_range(0..preferred.len())]
            } else {
                rng.gen_range(0..children.len())
            };
            if state.stage == Stage::Draw && state.pile.iter().all(|n| *n == 0) {
                stats.reshuffles += 1;
            }
            let (text, _, child) = children.into_iter().nth(pick).unwrap();
            if text == "roll" || text.starts_with("c:") {
                stats.madness_turns += 1;
            }
            game.play(game.parse_action(&text).unwrap());
            played.push(text);
            state = child;
        }
    }
    stats
}

const EVEN: Bias = Bias {
    centre: 0.4,
    card: 0.5,
};

#[test]
fn random_playouts_agree() {
    let stats = playouts(20261122, 24, 160, EVEN);
    assert!(stats.madness_turns > 100, "{stats:?}");
}

#[test]
fn random_playouts_agree_through_reshuffles() {
    let stats = playouts(
        99,
        4,
        1500,
        Bias {
            centre: 0.9,
            card: 0.95,
        },
    );
    println!("{stats:?}");
    assert!(stats.reshuffles > 0, "{stats:?}");
}

#[test]
#[ignore]
fn random_playouts_agree_long() {
    let stats = playouts(7, 400, 300, EVEN);
    println!("{stats:?}");
}

#[test]
fn reference_knows_the_basic_rules() {
    let start = Ref::from_sfen(RANDOM_STARTS[0]);
    let (_, deal) = start.node();
    let mut state = deal[0].2.clone();
    state = state.node().1[1].2.clone();
    assert_eq!(state.stage, Stage::Normal);
    assert_eq!(state.node().1.len(), 30);
    assert_eq!(reference_perft(&state, 2, &[], &[]), 900);
}

#[test]
fn perft_command_line() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_shishi"))
            .args(args)
            .output()
            .expect("the binary runs")
    };
    let gold = "2k6/9/9/9/4G4/9/9/9/6K2 b - 1";
    let out = run(&[
        "perft",
        "--variant",
        "madness",
        "--sfen",
        gold,
        "--chance",
        "draw:4,draw:9,r:5",
        "--depth",
        "3",
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l == "nodes 275"), "{stdout}");
    // Tokens after the position, and --divide by the first action.
    let out = run(&[
        "perft",
        "--variant",
        "madness",
        "--sfen",
        gold,
        "--moves",
        "draw:4 draw:9",
        "--chance",
        "r:5",
        "--depth",
        "1",
        "--divide",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("c:4: 1") && stdout.contains("roll: 1"),
        "{stdout}"
    );
    // A player's view: gote's card is a chance node of ten values before gote's choice.
    let out = run(&[
        "perft",
        "--variant",
        "madness",
        "--sfen",
        "4k4/9/9/9/4s4/9/9/9/4K4 b - 1",
        "--view",
        "sente",
        "--moves",
        "draw:4 draw:? 5i4i",
        "--depth",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l == "nodes 20"), "{stdout}");
    for bad in [
        vec!["--view", "sente", "--moves", "draw:4 draw:9"],
        vec!["--chance", "r:11"],
        vec!["--chance", "7g7f"],
        vec!["--moves", "draw:4 draw:9 c:9"],
        vec!["--moves", "r:3"],
    ] {
        let mut args = vec![
            "perft",
            "--variant",
            "madness",
            "--sfen",
            gold,
            "--depth",
            "1",
        ];
        args.extend(bad.iter());
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("error:") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}
