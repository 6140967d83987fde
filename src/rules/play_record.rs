//! The record of play a position keeps beside its board: the SFEN move number, the
//! incremental zobrist hash, and the stack of undo entries that takes moves back and judges
//! repetition. Written once for every position whose move number counts moves (the drop-shogi
//! family and Chu Shogi); each position keeps its own undo entry type.

use crate::rules::moves::Move;

/// What a position's undo entry must tell the record.
pub trait UndoEntry {
    /// The move the entry takes back, and the hash of the position before that move.
    fn move_and_hash_before(&self) -> (Move, u64);
}

/// Move number, hash and undo stack of a position (see the module header).
#[derive(Clone, Debug)]
pub struct PlayRecord<U> {
    move_number: u32,
    hash: u64,
    undos: Vec<U>,
}

impl<U> Default for PlayRecord<U> {
    /// Move 1, hash 0 (set it with [`PlayRecord::set_up`] once the board is filled), no moves.
    fn default() -> Self {
        PlayRecord {
            move_number: 1,
            hash: 0,
            undos: Vec::new(),
        }
    }
}

impl<U: UndoEntry> PlayRecord<U> {
    /// Starts the record of a freshly set-up position.
    pub fn set_up(&mut self, move_number: u32, hash: u64) {
        self.move_number = move_number;
        self.hash = hash;
    }

    /// The SFEN move number: 1 at the start, +1 per move played.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Flips `key` in the hash (a zobrist key entering or leaving the position).
    #[inline]
    pub fn toggle(&mut self, key: u64) {
        self.hash ^= key;
    }

    /// Panics unless the incremental hash equals `recomputed` (the hash computed from scratch).
    pub fn assert_hash(&self, recomputed: u64) {
        assert_eq!(recomputed, self.hash, "incremental hash out of step");
    }

    /// How many moves have been played since the position was set up.
    #[inline]
    pub fn moves_played(&self) -> usize {
        self.undos.len()
    }

    /// The undo entries, oldest first.
    #[inline]
    pub fn undos(&self) -> &[U] {
        &self.undos
    }

    /// The moves played since set-up, oldest first.
    pub fn played_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.undos.iter().map(|undo| undo.move_and_hash_before().0)
    }

    /// The hash of the position `back` moves ago (0 = now).
    pub fn hash_before(&self, back: usize) -> Option<u64> {
        match back {
            0 => Some(self.hash),
            n => self
                .undos
                .len()
                .checked_sub(n)
                .map(|i| self.undos[i].move_and_hash_before().1),
        }
    }

    /// Records a move played (or a null move): pushes its undo entry and counts it.
    #[inline]
    pub fn push(&mut self, undo: U) {
        self.move_number += 1;
        self.undos.push(undo);
    }

    /// The undo entry of the last move played, if any.
    #[inline]
    pub fn last(&self) -> Option<&U> {
        self.undos.last()
    }

    /// Takes the last move back out of the record: uncounts it, restores the hash from
    /// before it, and returns its undo entry (`None`, and no change, if nothing was played).
    #[inline]
    pub fn pop(&mut self) -> Option<U> {
        let undo = self.undos.pop()?;
        self.move_number -= 1;
        self.hash = undo.move_and_hash_before().1;
        Some(undo)
    }
}

/// The record's questions as inherent methods of a position whose [`PlayRecord`] is its field
/// `record` (expanded inside the position's `impl` block, so that callers and the game traits
/// forward to one body).
macro_rules! play_record_accessors {
    () => {
        /// The SFEN move number: 1 at the start, +1 per move played.
        #[inline]
        pub fn move_number(&self) -> u32 {
            self.record.move_number()
        }

        #[inline]
        pub fn hash(&self) -> u64 {
            self.record.hash()
        }

        /// How many moves have been played since the position was set up.
        #[inline]
        pub fn moves_played(&self) -> usize {
            self.record.moves_played()
        }

        /// The moves played since set-up, oldest first.
        pub fn played_moves(&self) -> impl Iterator<Item = $crate::rules::moves::Move> + '_ {
            self.record.played_moves()
        }

        /// The hash of the position `back` moves ago (0 = now).
        pub fn hash_before(&self, back: usize) -> Option<u64> {
            self.record.hash_before(back)
        }
    };
}

pub(crate) use play_record_accessors;
