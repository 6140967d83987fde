//! Opening books in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`), in every game whose
//! positions have an SFEN and no chance: the file's text (`format`), where moves are looked
//! up (`source`: in memory or in the file on the fly), and which book move is played
//! (`choose`: YaneuraOu's filters and random choice, with a seed).

pub mod choose;
pub mod format;
pub mod source;

pub use format::{Book, BookMove, LineProblem, HEADER};
pub use source::BookSource;
