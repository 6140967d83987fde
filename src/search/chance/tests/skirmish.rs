//! A tiny dice-capture game for the tests: a line of `SQUARES` squares, a king and two
//! soldiers per side. A decision moves one piece a step (king one or two squares) and
//! captures what it lands on; capturing the king wins. A piece landing on a centre square
//! triggers a chance event with weights 1:2:3 — the mover acts again (consecutive decisions
//! by one player), the nearest enemy piece is pushed back, or nothing happens. Every
//! decision costs one depth unit, like the Central Madness.

use super::snapshots::{Snapshots, StateRules};
use crate::rules::game::{Game, NodeKind, Outcome, Weight};
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::{Move, MoveList};
use crate::rules::zobrist::KeyStream;
use crate::search::chance::LeafEvaluators;
use crate::search::chance::{ChanceGame, Value};
use std::sync::OnceLock;

const SQUARES: usize = 8;
const CENTRE: [usize; 2] = [3, 4];
/// Piece codes on a square: 0 empty, 1 king, 2 soldier (and the owner beside it).
const KING: u8 = 1;
const SOLDIER: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Decide,
    /// The chance event after a piece of the mover reached the centre square given.
    Event(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// (piece code, owner) per square.
    board: [(u8, Color); SQUARES],
    to_move: Color,
    stage: Stage,
    winner: Option<Color>,
}

pub type Skirmish = Snapshots<State>;

struct Keys {
    piece: [[[u64; 3]; 2]; SQUARES],
    gote: u64,
    event: [u64; SQUARES],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut stream = KeyStream::new(0x5EED_0000_5C1F);
        let mut piece = [[[0; 3]; 2]; SQUARES];
        for square in &mut piece {
            for owner in square.iter_mut() {
                for key in owner.iter_mut() {
                    *key = stream.next_key();
                }
            }
        }
        Keys {
            piece,
            gote: stream.next_key(),
            event: std::array::from_fn(|_| stream.next_key()),
        }
    })
}

const AGAIN: u8 = 1;
const PUSH: u8 = 2;
const CALM: u8 = 3;

fn event_move(kind: u8) -> Move {
    Move::normal(Square(200), Square(kind), false)
}

impl Skirmish {
    pub fn new() -> Skirmish {
        let mut board = [(0, Color::Sente); SQUARES];
        board[0] = (KING, Color::Sente);
        board[1] = (SOLDIER, Color::Sente);
        board[2] = (SOLDIER, Color::Sente);
        board[SQUARES - 1] = (KING, Color::Gote);
        board[SQUARES - 2] = (SOLDIER, Color::Gote);
        board[SQUARES - 3] = (SOLDIER, Color::Gote);
        Snapshots::starting_at(State {
            board,
            to_move: Color::Sente,
            stage: Stage::Decide,
            winner: None,
        })
    }
}

impl State {
    fn steps(code: u8) -> &'static [i32] {
        if code == KING {
            &[-2, -1, 1, 2]
        } else {
            &[-1, 1]
        }
    }
}

impl StateRules for State {
    fn node_kind(&self) -> NodeKind {
        match self.stage {
            Stage::Decide => NodeKind::Decision(self.to_move),
            Stage::Event(_) => NodeKind::Chance(vec![
                (event_move(AGAIN), Weight(1)),
                (event_move(PUSH), Weight(2)),
                (event_move(CALM), Weight(3)),
            ]),
        }
    }

    fn legal_actions(&self, out: &mut MoveList) {
        if let Stage::Event(_) = self.stage {
            out.extend([AGAIN, PUSH, CALM].map(event_move));
            return;
        }
        for from in 0..SQUARES {
            let (code, owner) = self.board[from];
            if code == 0 || owner != self.to_move {
                continue;
            }
            for &step in State::steps(code) {
                let to = from as i32 + step;
                if !(0..SQUARES as i32).contains(&to) {
                    continue;
                }
                let (target, target_owner) = self.board[to as usize];
                if target != 0 && target_owner == self.to_move {
                    continue;
                }
                out.push(Move::normal(Square(from as u8), Square(to as u8), false));
            }
        }
    }

    fn apply(&mut self, action: Move) {
        match self.stage {
            Stage::Event(square) => {
                match action.to().0 {
                    AGAIN => {}
                    PUSH => {
                        // The nearest enemy piece beyond the square steps away if it can.
                        let square = square as i32;
                        let away = if self.to_move == Color::Sente { 1 } else { -1 };
                        let mut at = square + away;
                        while (0..SQUARES as i32).contains(&at) {
                            let (code, owner) = self.board[at as usize];
                            if code != 0 {
                                let next = at + away;
                                if owner != self.to_move
                                    && (0..SQUARES as i32).contains(&next)
                                    && self.board[next as usize].0 == 0
                                {
                                    self.board[next as usize] = (code, owner);
                                    self.board[at as usize] = (0, Color::Sente);
                                }
                                break;
                            }
                            at += away;
                        }
                        self.to_move = self.to_move.flip();
                    }
                    _ => self.to_move = self.to_move.flip(),
                }
                self.stage = Stage::Decide;
            }
            Stage::Decide => {
                let from = action.from().map_or(0, |sq| sq.0 as usize);
                let to = action.to().0 as usize;
                if self.board[to].0 == KING {
                    self.winner = Some(self.to_move);
                }
                self.board[to] = self.board[from];
                self.board[from] = (0, Color::Sente);
                if self.winner.is_none() && CENTRE.contains(&to) {
                    self.stage = Stage::Event(to as u8);
                } else {
                    self.to_move = self.to_move.flip();
                }
            }
        }
    }

    fn hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for (square, &(code, owner)) in self.board.iter().enumerate() {
            if code != 0 {
                h ^= k.piece[square][owner.index()][code as usize];
            }
        }
        if self.to_move == Color::Gote {
            h ^= k.gote;
        }
        if let Stage::Event(square) = self.stage {
            h ^= k.event[square as usize];
        }
        h
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }
}

impl ChanceGame for Skirmish {
    fn evaluate(&self, pov: Color, _evals: &LeafEvaluators) -> Value {
        let mut score = 0;
        for (square, &(code, owner)) in self.state.board.iter().enumerate() {
            if code == 0 {
                continue;
            }
            let advance = if owner == Color::Sente {
                square as i32
            } else {
                (SQUARES - 1 - square) as i32
            };
            let worth = if code == KING {
                50 * advance
            } else {
                1500 + 120 * advance
            };
            score += if owner == pov { worth } else { -worth };
        }
        let noise = (self.hash() % 41) as i32 - 20;
        Value(score + if pov == Color::Sente { noise } else { -noise })
    }

    fn is_capture(&self, action: Move) -> bool {
        matches!(self.state.stage, Stage::Decide) && self.state.board[action.to().0 as usize].0 != 0
    }
}
