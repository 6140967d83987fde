//! The mate solver's transposition table: proof and disproof numbers per position, bounded in
//! memory.
//!
//! Positions are keyed by their board (pieces on squares and side to move, the zobrist hash
//! with the hand terms taken out); the attacker's hand is stored beside the key. Since the
//! pieces in play never change during a search, the attacker's hand determines the defender's,
//! and hand dominance applies: a proof with some attacker hand proves the same board whenever
//! the attacker holds at least as much, and a disproof proves no mate with at most as much.
//!
//! Storage is a flat `Vec<u64>`, four words per entry, four entries per cluster; a cluster
//! is chosen by the board key, so every hand of one board meets in the same cluster. The
//! table starts small (easy problems stay in cache) and doubles whenever it is a quarter full,
//! up to its memory bound (while doubling, the old table lives on until its entries are
//! moved: a brief peak of 1.5 times the final size); from then on, when a cluster is full,
//! the entry with the least search work behind it is replaced.

use crate::rules::dropshogi::DropPiece;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Kind, Piece, Position};

/// A proof or disproof number; [`INFINITY`] means solved the other way.
pub(super) type Number = u32;

/// The proof (disproof) number of a disproven (proven) node.
pub(super) const INFINITY: Number = u32::MAX / 2;

/// The largest number an unsolved node may carry.
pub(super) const UNSOLVED_MAX: Number = INFINITY - 1;

/// The attacker's pieces in hand, one byte per hand kind (`Kind::HAND` order), packed into a
/// `u64` so that dominance is one subtraction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AttackerHand(u64);

const GUARDS: u64 = 0x0080_8080_8080_8080;

impl AttackerHand {
    pub(super) fn of(position: &Position, attacker: Color) -> AttackerHand {
        let hand = position.hand(attacker);
        let mut packed = 0u64;
        for kind in Kind::HAND {
            packed |= (hand.count(kind) as u64) << (8 * kind.index());
        }
        AttackerHand(packed)
    }

    pub(super) fn added(self, kind: Kind) -> AttackerHand {
        AttackerHand(self.0 + (1 << (8 * kind.index())))
    }

    pub(super) fn removed(self, kind: Kind) -> AttackerHand {
        AttackerHand(self.0 - (1 << (8 * kind.index())))
    }

    /// True if this hand holds at least as many pieces of every kind as `other`.
    pub(super) fn dominates(self, other: AttackerHand) -> bool {
        ((self.0 | GUARDS) - other.0) & GUARDS == GUARDS
    }
}

/// The zobrist hash of the board and side to move, without the hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardKey(pub(super) u64);

impl BoardKey {
    pub(super) fn of(position: &Position) -> BoardKey {
        let t = position.tables();
        let mut key = position.hash();
        for color in Color::BOTH {
            let hand = position.hand(color);
            for kind in Kind::HAND {
                key ^= t.board.hand_keys[color.index()][kind.index()][hand.count(kind) as usize];
            }
        }
        BoardKey(key)
    }
}

/// A position as the solver identifies it: its board and the attacker's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId {
    pub(super) board: BoardKey,
    pub(super) hand: AttackerHand,
}

impl NodeId {
    pub(super) fn of(position: &Position, attacker: Color) -> NodeId {
        NodeId {
            board: BoardKey::of(position),
            hand: AttackerHand::of(position, attacker),
        }
    }

    /// The id of the position after the legal move `mv`, computed without playing it.
    pub(super) fn after(self, position: &Position, attacker: Color, mv: Move) -> NodeId {
        let t = position.tables();
        let us = position.side_to_move();
        let mut key = self.board.0 ^ t.board.side_key;
        let mut hand = self.hand;
        let to = mv.to();
        match mv.from() {
            None => {
                let kind = mv
                    .dropped_kind()
                    .and_then(|id| Kind::from_index(id.0))
                    .expect("a drop names its kind");
                key ^= t.board.board_keys[Piece::new(us, kind).index()][to.index()];
                if us == attacker {
                    hand = hand.removed(kind);
                }
            }
            Some(from) => {
                let piece = position.piece_at(from).expect("a piece to move");
                let landed = piece.landing(mv);
                key ^= t.board.board_keys[piece.index()][from.index()]
                    ^ t.board.board_keys[landed.index()][to.index()];
                if let Some(victim) = position.piece_at(to) {
                    key ^= t.board.board_keys[victim.index()][to.index()];
                    if us == attacker {
                        hand = hand.added(victim.kind().in_hand().expect("kings are not taken"));
                    }
                }
            }
        }
        NodeId {
            board: BoardKey(key),
            hand,
        }
    }
}

/// What the table knows about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stored {
    pub(super) pn: Number,
    pub(super) dn: Number,
    /// For a proven node: the length in plies of the mate found (an upper bound). For a
    /// disproven node: up to how many plies there is no mate (`u16::MAX`: none at all).
    pub(super) distance: u16,
}

const WORDS_PER_ENTRY: usize = 4;
const ENTRIES_PER_CLUSTER: usize = 4;
const WORDS_PER_CLUSTER: usize = WORDS_PER_ENTRY * ENTRIES_PER_CLUSTER;
const FILLED: u64 = 1 << 56;

/// The size a table starts with (bytes).
const INITIAL_BYTES: usize = 1 << 19;

/// The bounded table.
pub(super) struct Table {
    words: Vec<u64>,
    cluster_mask: usize,
    /// Entries in use.
    filled: usize,
    /// The most clusters the memory bound allows (a power of two).
    max_clusters: usize,
}

impl Table {
    /// A table using at most `mib` MiB (at least one cluster).
    pub(super) fn new(mib: usize) -> Table {
        let bytes = mib.max(1) << 20;
        let max_clusters = Self::clusters_in(bytes);
        let clusters = Self::clusters_in(INITIAL_BYTES).min(max_clusters);
        Table {
            words: vec![0; clusters * WORDS_PER_CLUSTER],
            cluster_mask: clusters - 1,
            filled: 0,
            max_clusters,
        }
    }

    /// The largest power-of-two number of clusters that fits in `bytes`.
    fn clusters_in(bytes: usize) -> usize {
        let clusters = (bytes / (WORDS_PER_CLUSTER * 8)).max(1);
        if clusters.is_power_of_two() {
            clusters
        } else {
            clusters.next_power_of_two() / 2
        }
    }

    /// Doubles the table and re-inserts every entry.
    fn grow(&mut self) {
        let clusters = (self.cluster_mask + 1) * 2;
        let old = std::mem::replace(&mut self.words, vec![0; clusters * WORDS_PER_CLUSTER]);
        self.cluster_mask = clusters - 1;
        self.filled = 0;
        for e in old.chunks_exact(WORDS_PER_ENTRY) {
            if e[2] & FILLED != 0 {
                let base = self.cluster(BoardKey(e[0]));
                let slot = (0..ENTRIES_PER_CLUSTER)
                    .map(|slot| base + slot * WORDS_PER_ENTRY)
                    .find(|&at| self.words[at + 2] & FILLED == 0);
                if let Some(at) = slot {
                    self.words[at..at + WORDS_PER_ENTRY].copy_from_slice(e);
                    self.filled += 1;
                }
            }
        }
    }

    #[inline]
    fn cluster(&self, board: BoardKey) -> usize {
        ((board.0 >> 20) as usize & self.cluster_mask) * WORDS_PER_CLUSTER
    }

    /// What is known about `id` when mates of at most `remaining` plies count: an exact
    /// entry, or a proof (disproof) by hand dominance. Proofs longer than `remaining` and
    /// disproofs for fewer plies than `remaining` are not reported.
    pub(super) fn probe(&self, id: NodeId, remaining: u16) -> Option<Stored> {
        let base = self.cluster(id.board);
        let mut exact = None;
        let mut best_proof: Option<Stored> = None;
        for slot in 0..ENTRIES_PER_CLUSTER {
            let e = &self.words[base + slot * WORDS_PER_ENTRY..][..WORDS_PER_ENTRY];
            if e[2] & FILLED == 0 || e[0] != id.board.0 {
                continue;
            }
            let hand = AttackerHand(e[2] & !(0xff << 56));
            let stored = Stored {
                pn: e[1] as u32,
                dn: (e[1] >> 32) as u32,
                distance: e[3] as u16,
            };
            if stored.pn == 0 {
                if stored.distance <= remaining
                    && id.hand.dominates(hand)
                    && best_proof.is_none_or(|b| stored.distance < b.distance)
                {
                    best_proof = Some(stored);
                }
            } else if stored.dn == 0 {
                if stored.distance >= remaining && hand.dominates(id.hand) {
                    return Some(stored);
                }
            } else if hand == id.hand {
                exact = Some(stored);
            }
        }
        best_proof.or(exact)
    }

    /// Records `stored` for `id`; `work` (nodes searched for it) decides what survives when
    /// the cluster is full.
    pub(super) fn store(&mut self, id: NodeId, stored: Stored, work: u64) {
        if self.filled * 4 > (self.cluster_mask + 1) * ENTRIES_PER_CLUSTER
            && self.cluster_mask + 1 < self.max_clusters
        {
            self.grow();
        }
        let base = self.cluster(id.board);
        let work = work.min(u32::MAX as u64 / 2) as u32;
        let solved = stored.pn == 0 || stored.dn == 0;
        let mut victim = 0;
        let mut victim_work = u64::MAX;
        for slot in 0..ENTRIES_PER_CLUSTER {
            let e = &self.words[base + slot * WORDS_PER_ENTRY..][..WORDS_PER_ENTRY];
            if e[2] & FILLED == 0 {
                if victim_work > 0 {
                    victim = slot;
                    victim_work = 0;
                }
                continue;
            }
            let hand = AttackerHand(e[2] & !(0xff << 56));
            if e[0] == id.board.0 && hand == id.hand {
                victim = slot;
                break;
            }
            // An unsolved entry the new proof or disproof implies is worth nothing now.
            let pn = e[1] as u32;
            let dn = (e[1] >> 32) as u32;
            let implied = e[0] == id.board.0
                && pn != 0
                && dn != 0
                && ((stored.pn == 0 && hand.dominates(id.hand))
                    || (stored.dn == 0 && id.hand.dominates(hand)));
            let old_work = if implied { 0 } else { (e[3] >> 16) + 1 };
            if old_work < victim_work {
                victim = slot;
                victim_work = old_work;
            }
        }
        let bonus = if solved { 1 << 20 } else { 0 };
        let e = &mut self.words[base + victim * WORDS_PER_ENTRY..][..WORDS_PER_ENTRY];
        if e[2] & FILLED == 0 {
            self.filled += 1;
        }
        let kept_work = if e[0] == id.board.0 && e[2] & FILLED != 0 {
            (e[3] >> 16) as u32
        } else {
            0
        };
        let work = (work.saturating_add(bonus)).max(kept_work) as u64;
        e[0] = id.board.0;
        e[1] = stored.pn as u64 | (stored.dn as u64) << 32;
        e[2] = id.hand.0 | FILLED;
        e[3] = stored.distance as u64 | work << 16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_dominance_is_per_kind() {
        let small = AttackerHand::default().added(Kind::Gold);
        let big = small.added(Kind::Pawn).added(Kind::Gold);
        assert!(big.dominates(small));
        assert!(!small.dominates(big));
        let other = AttackerHand::default().added(Kind::Silver);
        assert!(!other.dominates(small) && !small.dominates(other));
        assert!(small.dominates(small));
    }

    #[test]
    fn proofs_carry_to_bigger_hands_and_disproofs_to_smaller() {
        let mut table = Table::new(1);
        let board = BoardKey(0x1234_5678_9abc_def0);
        let gold = AttackerHand::default().added(Kind::Gold);
        let two = gold.added(Kind::Gold);
        let none = AttackerHand::default();
        let proof = Stored {
            pn: 0,
            dn: INFINITY,
            distance: 3,
        };
        table.store(NodeId { board, hand: gold }, proof, 10);
        assert_eq!(table.probe(NodeId { board, hand: two }, 100), Some(proof));
        assert_eq!(table.probe(NodeId { board, hand: none }, 100), None);
        let disproof = Stored {
            pn: INFINITY,
            dn: 0,
            distance: u16::MAX,
        };
        let other = BoardKey(0x1111);
        table.store(
            NodeId {
                board: other,
                hand: gold,
            },
            disproof,
            10,
        );
        assert_eq!(
            table.probe(
                NodeId {
                    board: other,
                    hand: none
                },
                100
            ),
            Some(disproof)
        );
        assert_eq!(
            table.probe(
                NodeId {
                    board: other,
                    hand: two
                },
                100
            ),
            None
        );
    }

    #[test]
    fn proofs_and_disproofs_respect_the_length_cap() {
        let mut table = Table::new(1);
        let hand = AttackerHand::default();
        let mated = NodeId {
            board: BoardKey(0xabc0_0000),
            hand,
        };
        let proof = Stored {
            pn: 0,
            dn: INFINITY,
            distance: 7,
        };
        table.store(mated, proof, 1);
        assert_eq!(table.probe(mated, 7), Some(proof));
        assert_eq!(table.probe(mated, 5), None);
        let safe = NodeId {
            board: BoardKey(0xdef0_0000),
            hand,
        };
        let within_five = Stored {
            pn: INFINITY,
            dn: 0,
            distance: 5,
        };
        table.store(safe, within_five, 1);
        assert_eq!(table.probe(safe, 3), Some(within_five));
        assert_eq!(table.probe(safe, 5), Some(within_five));
        assert_eq!(table.probe(safe, 7), None);
    }

    #[test]
    fn the_table_grows_and_keeps_its_entries() {
        let mut table = Table::new(4);
        let start_clusters = table.cluster_mask + 1;
        let hand = AttackerHand::default();
        let id = |i: u64| NodeId {
            board: BoardKey(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            hand,
        };
        let stored = |i: u64| Stored {
            pn: i as u32 + 1,
            dn: 7,
            distance: 0,
        };
        for i in 0..20_000 {
            table.store(id(i), stored(i), 1);
        }
        assert!(table.cluster_mask + 1 > start_clusters);
        assert!(table.cluster_mask < table.max_clusters);
        // A few may have been replaced in clusters that overflowed before a doubling.
        let kept = (0..20_000)
            .filter(|&i| table.probe(id(i), 100) == Some(stored(i)))
            .count();
        assert!(kept > 19_500, "only {kept} entries kept");
        assert!(table.filled >= kept);
    }

    #[test]
    fn incremental_ids_match_played_positions() {
        let mut pos = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        )
        .unwrap();
        let attacker = pos.side_to_move();
        let mut moves = crate::rules::moves::MoveList::new();
        pos.generate_legal(&mut moves);
        assert!(moves.len() > 10);
        let id = NodeId::of(&pos, attacker);
        for mv in moves {
            let predicted = id.after(&pos, attacker, mv);
            pos.play(mv);
            assert_eq!(predicted, NodeId::of(&pos, attacker));
            let mut replies = crate::rules::moves::MoveList::new();
            pos.generate_legal(&mut replies);
            for reply in replies {
                let predicted2 = predicted.after(&pos, attacker, reply);
                pos.play(reply);
                assert_eq!(predicted2, NodeId::of(&pos, attacker));
                pos.unplay();
            }
            pos.unplay();
        }
    }
}
