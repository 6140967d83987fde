//! Checks the variants' notation tests share: SFENs that read and are written back
//! unchanged, SFENs refused with a reason, SFENs refused outright, and the lenient spellings
//! of ranks, hands and move numbers that the shared grammar (`rules::notation`) refuses in
//! every game. Each takes the variant's reader (and writer) as a function, so that a game
//! with its own position type (Shogammon's points, a rule set chosen at reading) is checked
//! the same way.

use crate::rules::notation::GameText;
use std::fmt::Display;

/// Asserts that each of `sfens` reads and is written back to the same text.
pub(crate) fn assert_sfens_round_trip<P, E: Display>(
    read: impl Fn(&str) -> Result<P, E>,
    write: impl Fn(&P) -> String,
    sfens: &[&str],
) {
    for &sfen in sfens {
        let pos = read(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(write(&pos), sfen);
    }
}

/// Asserts that each `(sfen, why)` is refused with an error whose text contains `why`.
pub(crate) fn assert_refused_with_reason<P, E: Display, S: AsRef<str>>(
    read: impl Fn(&str) -> Result<P, E>,
    cases: impl IntoIterator<Item = (S, &'static str)>,
) {
    for (sfen, why) in cases {
        let sfen = sfen.as_ref();
        let Err(err) = read(sfen) else {
            panic!("{sfen}: accepted, expected an error saying {why:?}");
        };
        let err = err.to_string();
        assert!(err.contains(why), "{sfen}: {err}");
    }
}

/// Asserts that every one of `sfens` is refused.
pub(crate) fn assert_all_refused<P, E, S: AsRef<str>>(
    read: impl Fn(&str) -> Result<P, E>,
    sfens: impl IntoIterator<Item = S>,
) {
    for sfen in sfens {
        let sfen = sfen.as_ref();
        assert!(read(sfen).is_err(), "{sfen}");
    }
}

/// Move-number fields the shared grammar refuses: signed, zero-led or zero, not a whole
/// number, past 1,000,000 or past `u32`, or followed by another field.
const BAD_MOVE_NUMBERS: [&str; 8] = ["+5", "-1", "05", "0", "1.0", "1000001", "4294967295", "1 1"];

/// Hands fields the shared grammar refuses whatever the set: a stray `-` or `+`, a count of
/// one, zero or with a leading zero, a count without a letter, a letter written twice, a
/// count past `u32`.
const BAD_HAND_SPELLINGS: [&str; 10] = [
    "P-",
    "-P",
    "+P",
    "1P",
    "0P",
    "02P",
    "2",
    "PP",
    "2PP",
    "99999999999999999999P",
];

/// Asserts that `read` refuses `position` (every field before the move number) with each
/// of the move numbers the shared grammar refuses.
pub(crate) fn assert_bad_move_numbers_refused<P, E>(
    read: impl Fn(&str) -> Result<P, E>,
    position: &str,
) {
    assert_all_refused(
        read,
        BAD_MOVE_NUMBERS.map(|number| format!("{position} {number}")),
    );
}

/// Asserts that `read` refuses `board` with sente to move at move 1 and each hands field
/// the shared grammar refuses, then each field of `more` (what this game's set refuses:
/// more of a kind than it holds, however written, or a kind that is never held).
pub(crate) fn assert_bad_hands_refused<P, E>(
    read: impl Fn(&str) -> Result<P, E>,
    board: &str,
    more: &[&str],
) {
    let hands = BAD_HAND_SPELLINGS.iter().chain(more);
    assert_all_refused(read, hands.map(|hands| format!("{board} b {hands} 1")));
}

/// Asserts that `read` refuses a board `width` squares wide, written by `board_with` around
/// one rank, with sente to move, no hands, at move 1, when that rank is spelt leniently: a
/// zero-led run, a lone `0`, a zero-led run before a `piece`, runs that fall short, a run
/// past `u32`, two runs in a row.
pub(crate) fn assert_bad_ranks_refused<P, E>(
    read: impl Fn(&str) -> Result<P, E>,
    width: usize,
    piece: char,
    board_with: impl Fn(&str) -> String,
) {
    let (half, rest) = (width / 2, width - width / 2);
    let ranks = [
        format!("0{width}"),
        "0".to_string(),
        format!("0{half}{piece}{}", rest - 1),
        "1111".to_string(),
        "9".repeat(20),
        format!("{half}{rest}"),
    ];
    assert_all_refused(
        read,
        ranks.map(|rank| format!("{} b - 1", board_with(rank.as_str()))),
    );
}

/// Asserts that in `pos` the promotion `{mv}+` reads and is written back as it was, and
/// that `{mv}=` (lishogi's explicit "do not promote") reads as `mv`.
pub(crate) fn assert_promotion_suffixes(pos: &impl GameText, mv: &str) {
    let promotion = format!("{mv}+");
    assert_eq!(
        pos.move_text(pos.parse_move(&promotion).unwrap()),
        promotion
    );
    assert_eq!(
        pos.parse_move(&format!("{mv}=")).unwrap(),
        pos.parse_move(mv).unwrap()
    );
}
