//! The `Game` trait: what search, perft and the referee know about any variant.
//!
//! A game state offers its legal actions, plays and takes back actions, hashes itself and
//! says whether the game is over. Each node is either a decision of one side or a chance
//! event with integer-weighted outcomes; the deterministic variants only ever report
//! decisions. Search and perft are generic over this trait, so each variant's hot loop is
//! compiled on its own.

use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};

/// The relative likelihood of one chance outcome (e.g. 1 for a double, 2 for a mixed roll).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight(pub u32);

/// Who acts next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// `Color` chooses one of the legal actions.
    Decision(Color),
    /// Nature chooses one of these outcomes with the given weights.
    Chance(Vec<(Move, Weight)>),
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The given side won.
    Win(Color),
    Draw,
}

/// A game state that search, perft and the referee can drive.
pub trait Game: Clone + Send + Sync {
    /// Whose turn it is, or the chance event that comes next.
    fn node_kind(&self) -> NodeKind;
    /// True if the next action is a chance event (override when cheaper than `node_kind`).
    fn is_chance(&self) -> bool {
        matches!(self.node_kind(), NodeKind::Chance(_))
    }
    /// Appends every legal action of the side to act (or every chance outcome) to `out`.
    fn legal_actions(&self, out: &mut MoveList);
    /// How many actions `legal_actions` would produce (override when counting is cheaper).
    fn count_legal_actions(&self) -> u64 {
        let mut out = MoveList::new();
        self.legal_actions(&mut out);
        out.len() as u64
    }
    /// Plays an action that `legal_actions` produced.
    fn play(&mut self, action: Move);
    /// Takes back the most recent action.
    fn unplay(&mut self);
    /// A hash of everything that decides the future of the game.
    fn hash(&self) -> u64;
    /// The result, if the game has ended by the rules alone (no resignation or clock).
    fn outcome(&self) -> Option<Outcome>;
}

/// Plays `line` on a copy of `start` for as long as each move is among `legal_moves` there,
/// showing `visit` the position before each legal move: how a principal variation is cut
/// where it stops being legal. Returns the position and the move where it stopped, if a
/// move was illegal.
pub fn walk_legal_prefix<P: Clone>(
    start: &P,
    line: &[Move],
    legal_moves: impl Fn(&P, &mut MoveList),
    play: impl Fn(&mut P, Move),
    mut visit: impl FnMut(&P, Move),
) -> Option<(P, Move)> {
    let mut pos = start.clone();
    for &mv in line {
        let mut legal = MoveList::new();
        legal_moves(&pos, &mut legal);
        if !legal.contains(&mv) {
            return Some((pos, mv));
        }
        visit(&pos, mv);
        play(&mut pos, mv);
    }
    None
}

/// Plays `games` games of at most `plies` moves from `start`. At every position `visit` gets
/// the position, its legal moves and the random generator (seeded with `seed`), and names
/// the move to play (`None` ends the game); it may play and unplay moves itself.
#[cfg(test)]
pub(crate) fn random_games<P: Game + Clone>(
    start: &P,
    seed: u64,
    (games, plies): (usize, usize),
    mut visit: impl FnMut(&mut P, &MoveList, &mut rand::rngs::StdRng) -> Option<Move>,
) {
    use rand::SeedableRng;
    let rng = &mut rand::rngs::StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            let mut legal = MoveList::new();
            pos.legal_actions(&mut legal);
            let Some(mv) = visit(&mut pos, &legal, rng) else {
                break;
            };
            pos.play(mv);
        }
    }
}

/// Every legal action of `game` as `text` writes it, sorted: what the rules tests compare.
#[cfg(test)]
pub fn sorted_action_texts<G: Game>(game: &G, text: impl Fn(Move) -> String) -> Vec<String> {
    let mut list = MoveList::new();
    game.legal_actions(&mut list);
    let mut texts: Vec<String> = list.iter().map(|m| text(*m)).collect();
    texts.sort();
    texts
}

/// Writes, inside an `impl Game for $ty` block, the trait methods that only forward to the
/// type's inherent methods of the same meaning: `legal_actions` (to `generate_legal`),
/// `play`, `unplay` and `hash`; with `decisions`, `node_kind` as a decision of
/// `side_to_move` at every node; with `counts`, `count_legal_actions` (to `count_legal`).
/// Everything stays inlined and monomorphised.
macro_rules! inherent_game_methods {
    ($ty:ty $(, $extra:ident)*) => {
        $($crate::rules::game::inherent_game_methods!(@ $extra);)*

        #[inline]
        fn legal_actions(&self, out: &mut $crate::rules::moves::MoveList) {
            self.generate_legal(out);
        }

        #[inline]
        fn play(&mut self, action: $crate::rules::moves::Move) {
            <$ty>::play(self, action);
        }

        #[inline]
        fn unplay(&mut self) {
            <$ty>::unplay(self);
        }

        #[inline]
        fn hash(&self) -> u64 {
            <$ty>::hash(self)
        }
    };
    (@ decisions) => {
        #[inline]
        fn node_kind(&self) -> $crate::rules::game::NodeKind {
            $crate::rules::game::NodeKind::Decision(self.side_to_move())
        }
    };
    (@ counts) => {
        #[inline]
        fn count_legal_actions(&self) -> u64 {
            self.count_legal()
        }
    };
}
pub(crate) use inherent_game_methods;
