//! Depth-first proof-number search (Nagai's df-pn) for tsume: the attacker (OR nodes) may only
//! give check, the defender (AND nodes) plays any legal move, and a defender in check with no
//! legal move is mated.
//!
//! Children keep their proof and disproof numbers in a per-visit array, refreshed from the
//! recursive calls, so a child refuted by a repetition stays refuted while its parent is being
//! searched. Repetition on the current path (perpetual check, which loses for the checking
//! side) counts as a disproof, but such path-dependent disproofs are never stored in the
//! table (the graph-history-interaction problem is handled conservatively: proofs are always
//! path-independent, path-dependent disproofs are re-derived). A length cap (for the search
//! for shorter mates) also refutes; those disproofs are stored with the number of plies they
//! hold for. A new check starts with the defender's reply count as its proof number (zero
//! replies: mate). Thresholds use the 1+ε trick. Proven nodes carry the length of the mate
//! found, which guides the extraction of the principal line.

use super::game::MateGame;
use super::table::{NodeId, Number, Stored, Table, INFINITY, UNSOLVED_MAX};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::search::Control;
use std::time::Instant;

/// The longest mate looked for (plies): deeper positions count as not mated.
pub(super) const MAX_PLY: usize = 400;

/// The disproof depth stored for a refutation that holds at any length.
const UNLIMITED: u16 = u16::MAX;

/// How many nodes pass between looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 2048;

/// The result of searching one node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    pub(super) pn: Number,
    pub(super) dn: Number,
    /// Mate length in plies for a proven node.
    pub(super) distance: u16,
    /// The disproof relies on a repetition on the current path.
    pub(super) path_dependent: bool,
    /// The disproof relies on the length cap (no mate within the remaining plies).
    pub(super) depth_limited: bool,
    /// For a proven attacker node: the check leading to the shortest mate found.
    pub(super) best: Option<Move>,
}

impl Outcome {
    fn unknown() -> Outcome {
        Outcome {
            pn: 1,
            dn: 1,
            distance: 0,
            path_dependent: false,
            depth_limited: false,
            best: None,
        }
    }

    fn cap_disproof() -> Outcome {
        Outcome {
            pn: INFINITY,
            dn: 0,
            depth_limited: true,
            ..Outcome::unknown()
        }
    }

    pub(super) fn is_proven(&self) -> bool {
        self.pn == 0
    }

    pub(super) fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

/// One move of a node under search with what is known about the position it leads to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub(super) mv: Move,
    pub(super) id: NodeId,
    /// What is known of the position `mv` leads to.
    pub(super) outcome: Outcome,
    /// The numbers are a first estimate from a look at the position, not yet in the table.
    pub(super) estimated: bool,
}

/// The solver's state for one `go mate`.
pub(super) struct Solver<'a> {
    table: Table,
    attacker: Color,
    /// Ids of the positions from the root to the current node (inclusive).
    path: Vec<NodeId>,
    nodes: u64,
    deadline: Option<Instant>,
    control: &'a Control,
    aborted: bool,
    /// The search stops (as if aborted) once `nodes` reaches this.
    node_limit: u64,
    /// Mates longer than this many plies from the root are not looked for.
    cap: usize,
    /// The deepest ply visited.
    max_ply: usize,
}

#[inline]
fn clamp_sum(sum: u64) -> Number {
    sum.min(UNSOLVED_MAX as u64) as Number
}

impl<'a> Solver<'a> {
    pub(super) fn new(
        attacker: Color,
        table_mib: usize,
        deadline: Option<Instant>,
        control: &'a Control,
    ) -> Solver<'a> {
        Solver {
            table: Table::new(table_mib),
            attacker,
            path: Vec::new(),
            nodes: 0,
            deadline,
            control,
            aborted: false,
            node_limit: u64::MAX,
            cap: MAX_PLY,
            max_ply: 0,
        }
    }

    /// The deepest ply below the root the search visited.
    pub(super) fn max_ply(&self) -> usize {
        self.max_ply
    }

    /// Only mates of at most `cap` plies from the root count from now on. Proofs in the
    /// table stay usable where they fit; disproofs due to the cap are stored with the plies
    /// they hold for.
    pub(super) fn set_cap(&mut self, cap: usize) {
        self.cap = cap.min(MAX_PLY);
    }

    /// Stops the search once `limit` nodes have been searched in total.
    pub(super) fn set_node_limit(&mut self, limit: u64) {
        self.node_limit = limit;
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    pub(super) fn aborted(&self) -> bool {
        self.aborted
    }

    pub(super) fn attacker(&self) -> Color {
        self.attacker
    }

    /// Replaces the current path (the positions from the root to, inclusive, the next node
    /// to be searched).
    pub(super) fn set_path(&mut self, path: &[NodeId]) {
        self.path.clear();
        self.path.extend_from_slice(path);
    }

    /// Searches `position` (whose id ends the current path) until it is proven, disproven,
    /// or the search is stopped.
    pub(super) fn search<G: MateGame>(&mut self, position: &mut G, id: NodeId) -> Outcome {
        loop {
            let outcome = self.mid(position, id, INFINITY, INFINITY);
            if self.aborted || outcome.is_proven() || outcome.is_disproven() {
                return outcome;
            }
        }
    }

    /// The moves of the node: checks for the attacker, every legal move for the defender,
    /// with what the table and the current path say about each.
    // Not inlined: its move lists must not sit in every frame of the recursive `mid`.
    #[inline(never)]
    pub(super) fn expand<G: MateGame>(&self, position: &mut G, id: NodeId) -> Vec<Child> {
        let mut moves = MoveList::new();
        position.generate_legal(&mut moves);
        let attacking = position.side_to_move() == self.attacker;
        let checks = if attacking {
            match position.check_filter() {
                Some(info) => Some(info),
                None => return Vec::new(),
            }
        } else {
            None
        };
        let mut children = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            if let Some(info) = &checks {
                if !position.filter_gives_check(info, mv) {
                    continue;
                }
            }
            let child_id = position.node_id_after(id, self.attacker, mv);
            let (mut child, known) = self.child(mv, child_id);
            if attacking && !known {
                // A new check: the defender's number of replies estimates how hard it is to
                // prove, and none at all is mate.
                position.play(mv);
                let mut replies = MoveList::new();
                position.generate_legal(&mut replies);
                position.unplay();
                if replies.is_empty() {
                    child.outcome.pn = 0;
                    child.outcome.dn = INFINITY;
                } else {
                    child.outcome.pn = replies.len() as Number;
                }
                child.estimated = true;
            }
            children.push(child);
        }
        children
    }

    /// The child reached by `mv`, and whether anything was known about it (a repetition or
    /// a table entry).
    fn child(&self, mv: Move, id: NodeId) -> (Child, bool) {
        let mut child = Child {
            mv,
            id,
            outcome: Outcome::unknown(),
            estimated: false,
        };
        // Same side to move on the path: even distance back (the child is one ply below the
        // last path entry, so odd indices from the end of the path).
        let repeated = self.path.iter().rev().skip(1).step_by(2).any(|p| *p == id);
        if repeated {
            child.outcome.pn = INFINITY;
            child.outcome.dn = 0;
            child.outcome.path_dependent = true;
        } else if let Some(stored) = self.table.probe(id, self.remaining(self.path.len())) {
            child.outcome.pn = stored.pn;
            child.outcome.dn = stored.dn;
            child.outcome.distance = stored.distance;
        } else {
            return (child, false);
        }
        (child, true)
    }

    /// The plies left under the cap at `ply` from the root.
    fn remaining(&self, ply: usize) -> u16 {
        self.cap.saturating_sub(ply).min(u16::MAX as usize - 1) as u16
    }

    /// Looks at the clock and the stop flag; sets `aborted` when either says to finish.
    pub(super) fn poll(&mut self) {
        if self.control.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
    }

    /// Multiple iterative deepening: searches the node until its proof number reaches
    /// `th_pn` or its disproof number reaches `th_dn`.
    fn mid<G: MateGame>(
        &mut self,
        position: &mut G,
        id: NodeId,
        th_pn: Number,
        th_dn: Number,
    ) -> Outcome {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        if self.aborted {
            return Outcome::unknown();
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return Outcome::unknown();
        }
        let ply = self.path.len() - 1;
        self.max_ply = self.max_ply.max(ply);
        let attacking = position.side_to_move() == self.attacker;
        if ply >= self.cap {
            // No ply left: only a defender already mated counts.
            return if attacking || position.has_legal_move() {
                Outcome::cap_disproof()
            } else {
                Self::combine(false, &[])
            };
        }
        let start_nodes = self.nodes;
        let mut children = self.expand(position, id);
        if attacking && ply + 1 >= self.cap {
            // One ply left: a check mates at once (the first look found no reply) or fails.
            for c in children
                .iter_mut()
                .filter(|c| c.outcome.pn != 0 && c.outcome.dn != 0)
            {
                c.outcome.pn = INFINITY;
                c.outcome.dn = 0;
                c.outcome.depth_limited = true;
            }
        }
        // Keep the estimates so that the next visit need not look again.
        for c in children.iter().filter(|c| c.estimated) {
            let stored = Stored {
                pn: c.outcome.pn,
                dn: c.outcome.dn,
                distance: c.outcome.distance,
            };
            self.table.store(c.id, stored, 0);
        }
        loop {
            let outcome = Self::combine(attacking, &children);
            if outcome.pn == 0 || outcome.dn == 0 || outcome.pn >= th_pn || outcome.dn >= th_dn {
                if !outcome.path_dependent {
                    let distance = if !outcome.is_disproven() {
                        outcome.distance
                    } else if outcome.depth_limited {
                        self.remaining(ply)
                    } else {
                        UNLIMITED
                    };
                    self.table.store(
                        id,
                        Stored {
                            pn: outcome.pn,
                            dn: outcome.dn,
                            distance,
                        },
                        self.nodes - start_nodes,
                    );
                }
                return outcome;
            }
            let (best, second) = Self::select(attacking, &children);
            let child = children[best];
            let (child_th_pn, child_th_dn) = if attacking {
                let eps = second as u64 + second as u64 / 4 + 1;
                (
                    (th_pn as u64).min(eps).min(INFINITY as u64) as Number,
                    (th_dn as u64 - outcome.dn as u64 + child.outcome.dn as u64)
                        .min(INFINITY as u64) as Number,
                )
            } else {
                let eps = second as u64 + second as u64 / 4 + 1;
                (
                    (th_pn as u64 - outcome.pn as u64 + child.outcome.pn as u64)
                        .min(INFINITY as u64) as Number,
                    (th_dn as u64).min(eps).min(INFINITY as u64) as Number,
                )
            };
            position.play(child.mv);
            self.path.push(child.id);
            let result = self.mid(position, child.id, child_th_pn, child_th_dn);
            self.path.pop();
            position.unplay();
            if self.aborted {
                return Outcome::unknown();
            }
            children[best].outcome = result;
        }
    }

    /// The node's numbers from its children's.
    fn combine(attacking: bool, children: &[Child]) -> Outcome {
        let solved = |pn: Number, distance: u16, best: Option<Move>| Outcome {
            pn,
            dn: if pn == 0 { INFINITY } else { 0 },
            distance,
            path_dependent: false,
            depth_limited: false,
            best,
        };
        if children.is_empty() {
            // No check to give: no mate. No move while in check: mate.
            return if attacking {
                solved(INFINITY, 0, None)
            } else {
                solved(0, 0, None)
            };
        }
        if attacking {
            let mut pn = INFINITY;
            let mut dn_sum = 0u64;
            let mut best: Option<&Child> = None;
            let mut path_dependent = false;
            let mut depth_limited = false;
            for c in children {
                pn = pn.min(c.outcome.pn);
                dn_sum += c.outcome.dn as u64;
                path_dependent |= c.outcome.path_dependent;
                depth_limited |= c.outcome.depth_limited;
                if c.outcome.pn == 0 && best.is_none_or(|b| c.outcome.distance < b.outcome.distance)
                {
                    best = Some(c);
                }
            }
            if let Some(b) = best {
                return solved(0, b.outcome.distance.saturating_add(1), Some(b.mv));
            }
            if dn_sum == 0 {
                // Every check is refuted; the refutation is only as general as its parts.
                return Outcome {
                    path_dependent,
                    depth_limited,
                    ..solved(INFINITY, 0, None)
                };
            }
            Outcome {
                pn,
                dn: clamp_sum(dn_sum),
                ..Outcome::unknown()
            }
        } else {
            let mut dn = INFINITY;
            let mut pn_sum = 0u64;
            let mut longest = 0u16;
            // The most general refutation among the disproven replies:
            // 0 = unconditional, 1 = within the cap, 2 = on this path only.
            let mut refutation = 3;
            for c in children {
                dn = dn.min(c.outcome.dn);
                pn_sum += c.outcome.pn as u64;
                longest = longest.max(c.outcome.distance);
                if c.outcome.dn == 0 {
                    let kind = if c.outcome.path_dependent {
                        2
                    } else {
                        u8::from(c.outcome.depth_limited)
                    };
                    refutation = refutation.min(kind);
                }
            }
            if dn == 0 {
                return Outcome {
                    path_dependent: refutation == 2,
                    depth_limited: refutation == 1,
                    ..solved(INFINITY, 0, None)
                };
            }
            if pn_sum == 0 {
                return solved(0, longest.saturating_add(1), None);
            }
            Outcome {
                pn: clamp_sum(pn_sum),
                dn,
                ..Outcome::unknown()
            }
        }
    }

    /// The child to search next and the second-best number (for the 1+ε threshold).
    fn select(attacking: bool, children: &[Child]) -> (usize, Number) {
        let key = |c: &Child| {
            if attacking {
                c.outcome.pn
            } else {
                c.outcome.dn
            }
        };
        let mut best = 0;
        let mut second = INFINITY;
        for (i, c) in children.iter().enumerate().skip(1) {
            let k = key(c);
            let b = key(&children[best]);
            if k < b {
                second = b;
                best = i;
            } else if k < second {
                second = k;
            }
        }
        (best, second)
    }
}
