//! The chance search's side of the transposition table: keys (per ply under
//! [`TableReuse::Exact`]), which entries are usable at a depth, and bounds turned to and from
//! the table's form (from the stored colour's view, win scores relative to the node).

use super::super::tt::TableEntry;
use super::super::TableReuse;
use super::{ChanceSearcher, LOSS, WIN};
use crate::rules::geometry::Color;
use crate::search::chance::Value;

/// Win scores: at least this far from 0 (a terminal within `MAX_PLY` actions).
const WIN_BAND: i32 = WIN - Value::MAX_PLY;

impl ChanceSearcher {
    #[inline]
    pub(super) fn table_key(&self, hash: u64, ply: usize) -> u64 {
        match self.settings.table {
            TableReuse::Exact => hash ^ self.ply_keys[ply],
            _ => hash,
        }
    }

    #[inline]
    pub(super) fn usable(&self, entry: &TableEntry, depth: i32) -> bool {
        match self.settings.table {
            TableReuse::Off => false,
            TableReuse::Exact | TableReuse::SameDepth => entry.depth as i32 == depth,
            TableReuse::DeepEnough => entry.depth as i32 >= depth,
        }
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<TableEntry> {
        if self.settings.table == TableReuse::Off {
            None
        } else {
            self.table.probe(key)
        }
    }

    /// Stores bounds `(lower, upper)` (from `viewer`'s point of view, `ply` below the root)
    /// in the table's form: from `stored_as`'s view, win scores relative to the node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        key: u64,
        depth: i32,
        (lower, upper): (i32, i32),
        viewer: Color,
        stored_as: Color,
        ply: usize,
        best_index: Option<usize>,
        chance: bool,
    ) {
        if self.settings.table == TableReuse::Off || self.aborted {
            return;
        }
        let (lower, upper) = if viewer == stored_as {
            (lower, upper)
        } else {
            (-upper, -lower)
        };
        self.table.store(
            key,
            depth.max(0) as u32,
            to_table(lower, ply),
            to_table(upper, ply),
            best_index,
            chance,
        );
    }

    /// An entry's bounds from `viewer`'s point of view at `ply`.
    pub(super) fn entry_bounds(
        entry: &TableEntry,
        stored_as: Color,
        viewer: Color,
        ply: usize,
    ) -> (i32, i32) {
        let (lower, upper) = (from_table(entry.lower, ply), from_table(entry.upper, ply));
        if viewer == stored_as {
            (lower, upper)
        } else {
            (-upper, -lower)
        }
    }
}

/// A value in the table's node-relative form (win scores count from the node).
#[inline]
fn to_table(value: i32, ply: usize) -> i32 {
    if value == WIN || value == LOSS {
        value
    } else if value >= WIN_BAND {
        value + ply as i32
    } else if value <= -WIN_BAND {
        value - ply as i32
    } else {
        value
    }
}

/// A stored value back in root-relative form at `ply`.
#[inline]
fn from_table(value: i32, ply: usize) -> i32 {
    if value == WIN || value == LOSS {
        value
    } else if value >= WIN_BAND {
        (value - ply as i32).clamp(WIN_BAND, WIN - 1)
    } else if value <= -WIN_BAND {
        (value + ply as i32).clamp(LOSS + 1, -WIN_BAND)
    } else {
        value
    }
}
