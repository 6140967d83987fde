//! A dice race for the tests: two tokens per side on a track of `TRACK` squares, two
//! three-sided dice per turn (doubles weigh 1, mixed rolls 2, total 9), one decision per die
//! (the mover picks the die and the token: two consecutive decisions by the same player),
//! landing on an enemy token sends it back to the start, and the first side home with both
//! tokens wins. The turn's last action costs the depth unit, like Shogammon.

use super::snapshots::{Snapshots, StateRules};
use crate::rules::game::{Game, NodeKind, Outcome, Weight};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::zobrist::KeyStream;
use crate::search::chance::LeafEvaluators;
use crate::search::chance::{ChanceGame, Depth, Value};
use std::sync::OnceLock;

/// Squares 1..TRACK-1 are the track; 0 is the start and TRACK is home.
const TRACK: u8 = 10;
const FACES: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    tokens: [[u8; 2]; 2],
    to_move: Color,
    /// Dice still to use this turn (0 = none); both 0 before the roll.
    dice: [u8; 2],
    rolled: bool,
}

pub type Race = Snapshots<State>;

struct Keys {
    token: [[[u64; TRACK as usize + 1]; 2]; 2],
    gote: u64,
    rolled: u64,
    die: [[u64; FACES as usize + 1]; 2],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut stream = KeyStream::new(0x5EED_0000_2ACE);
        let mut k = Keys {
            token: [[[0; TRACK as usize + 1]; 2]; 2],
            gote: stream.next_key(),
            rolled: stream.next_key(),
            die: [[0; FACES as usize + 1]; 2],
        };
        for side in &mut k.token {
            for token in side.iter_mut() {
                for key in token.iter_mut() {
                    *key = stream.next_key();
                }
            }
        }
        for slot in &mut k.die {
            for key in slot.iter_mut() {
                *key = stream.next_key();
            }
        }
        k
    })
}

fn pass() -> Move {
    Move::normal(Square(7), Square(0), false)
}

fn die_move(die: u8, token: usize) -> Move {
    Move::normal(Square(token as u8), Square(die), false)
}

fn roll_move(a: u8, b: u8) -> Move {
    Move::normal(Square(100 + a), Square(b), true)
}

impl Race {
    pub fn new() -> Race {
        Snapshots::starting_at(State {
            tokens: [[0, 0], [0, 0]],
            to_move: Color::Sente,
            dice: [0, 0],
            rolled: false,
        })
    }
}

impl State {
    fn legal_die_moves(&self, out: &mut MoveList) {
        let me = self.to_move.index();
        let mut seen = [false; FACES as usize + 1];
        for &die in &self.dice {
            if die == 0 || seen[die as usize] {
                continue;
            }
            seen[die as usize] = true;
            for token in 0..2 {
                let at = self.tokens[me][token];
                if at == TRACK {
                    continue;
                }
                let to = (at + die).min(TRACK);
                if to != TRACK && self.tokens[me][1 - token] == to {
                    continue;
                }
                out.push(die_move(die, token));
            }
        }
    }
}

impl StateRules for State {
    fn node_kind(&self) -> NodeKind {
        if self.rolled {
            NodeKind::Decision(self.to_move)
        } else {
            let mut outcomes = Vec::new();
            for a in 1..=FACES {
                for b in a..=FACES {
                    outcomes.push((roll_move(a, b), Weight(if a == b { 1 } else { 2 })));
                }
            }
            NodeKind::Chance(outcomes)
        }
    }

    fn legal_actions(&self, out: &mut MoveList) {
        if let NodeKind::Chance(outcomes) = self.node_kind() {
            out.extend(outcomes.into_iter().map(|(m, _)| m));
            return;
        }
        self.legal_die_moves(out);
        if out.is_empty() {
            out.push(pass());
        }
    }

    fn apply(&mut self, action: Move) {
        if !self.rolled {
            let a = action.from().map_or(0, |sq| sq.0 - 100);
            self.dice = [a, action.to().0];
            self.rolled = true;
            return;
        }
        if action == pass() {
            self.dice = [0, 0];
        } else {
            let me = self.to_move.index();
            let token = action.from().map_or(0, |sq| sq.0 as usize);
            let die = action.to().0;
            let to = (self.tokens[me][token] + die).min(TRACK);
            self.tokens[me][token] = to;
            if to != TRACK {
                for t in &mut self.tokens[1 - me] {
                    if *t == to {
                        *t = 0;
                    }
                }
            }
            let used = if self.dice[0] == die { 0 } else { 1 };
            self.dice[used] = 0;
        }
        if self.dice == [0, 0] {
            self.rolled = false;
            self.to_move = self.to_move.flip();
        }
    }

    fn hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for side in 0..2 {
            for token in 0..2 {
                h ^= k.token[side][token][self.tokens[side][token] as usize];
            }
        }
        if self.to_move == Color::Gote {
            h ^= k.gote;
        }
        if self.rolled {
            h ^= k.rolled;
            let (lo, hi) = (
                self.dice[0].min(self.dice[1]),
                self.dice[0].max(self.dice[1]),
            );
            h ^= k.die[0][lo as usize] ^ k.die[1][hi as usize];
        }
        h
    }

    fn outcome(&self) -> Option<Outcome> {
        Color::BOTH
            .into_iter()
            .find(|c| self.tokens[c.index()] == [TRACK, TRACK])
            .map(Outcome::Win)
    }
}

impl ChanceGame for Race {
    fn evaluate(&self, pov: Color, _evals: &LeafEvaluators) -> Value {
        let progress =
            |c: Color| -> i32 { self.state.tokens[c.index()].iter().map(|&t| t as i32).sum() };
        let lead = progress(pov) - progress(pov.flip());
        // A deterministic tie-breaker from the hash makes values varied.
        let noise = (self.hash() % 61) as i32 - 30;
        let noise = if pov == Color::Sente { noise } else { -noise };
        Value(lead * 400 + noise)
    }

    fn is_capture(&self, action: Move) -> bool {
        let s = &self.state;
        if !s.rolled || action == pass() {
            return false;
        }
        let me = s.to_move.index();
        let token = action.from().map_or(0, |sq| sq.0 as usize);
        let to = (s.tokens[me][token] + action.to().0).min(TRACK);
        to != TRACK && s.tokens[1 - me].contains(&to)
    }

    fn depth_cost(&self, action: Move) -> Depth {
        let last = action == pass() || self.state.dice.iter().filter(|&&d| d != 0).count() == 1;
        Depth(last as u32)
    }
}
