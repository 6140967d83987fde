//! The bookkeeping the small test games share: a game whose whole position is one copyable
//! state keeps the state before each action, so that taking an action back restores the
//! copy. A test game writes only its rules ([`StateRules`]); [`Snapshots`] makes it a
//! [`Game`].

use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::moves::{Move, MoveList};

/// The rules of a test game whose whole position is one copyable state (the [`Game`]
/// questions, asked of the state, and how an action changes it).
pub trait StateRules: Copy + Send + Sync {
    fn node_kind(&self) -> NodeKind;
    fn legal_actions(&self, out: &mut MoveList);
    /// Plays `action` on this state.
    fn apply(&mut self, action: Move);
    fn hash(&self) -> u64;
    fn outcome(&self) -> Option<Outcome>;
}

/// A game under the rules of state `S`: the current state and the states before each action
/// played.
#[derive(Clone, Debug)]
pub struct Snapshots<S> {
    pub state: S,
    history: Vec<S>,
}

impl<S> Snapshots<S> {
    /// The game starting at `start`, no action played.
    pub fn starting_at(start: S) -> Self {
        Snapshots {
            state: start,
            history: Vec::new(),
        }
    }
}

impl<S: StateRules> Game for Snapshots<S> {
    fn node_kind(&self) -> NodeKind {
        self.state.node_kind()
    }

    fn legal_actions(&self, out: &mut MoveList) {
        self.state.legal_actions(out);
    }

    fn play(&mut self, action: Move) {
        self.history.push(self.state);
        self.state.apply(action);
    }

    fn unplay(&mut self) {
        self.state = self.history.pop().expect("an action to take back");
    }

    fn hash(&self) -> u64 {
        self.state.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }
}
