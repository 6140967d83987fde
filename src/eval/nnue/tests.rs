//! Tests of the net: the values YaneuraOu's NNUE edition gives on a test net, the
//! accumulator kept move by move against one computed from scratch, and the files refused.

use super::features;
use super::file::{self, LoadError};
use super::{Accumulator, Network};
use crate::eval::random_games::{pick_preferring, random_games};
use crate::rules::game::Game;
use crate::rules::variants::shogi::Position;
use std::sync::OnceLock;

/// The test net: `shishi testnet --seed 1`.
fn test_net() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| Network::random(1))
}

/// The test net's file.
fn test_file() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| file::write(test_net()))
}

/// Positions and the value YaneuraOu's NNUE edition (source 33ccf1f9, built with
/// `make normal TARGET_CPU=AVX2 YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE COMPILER=g++`)
/// answers `e` with, with the test net as its `EvalDir/nn.bin`; printed by
/// `scripts/nnue_crosscheck.py --print --count 40 --seed 3`.
const YANEURAOU_VALUES: &[(&str, i32)] = &[];

#[test]
fn values_are_yaneuraous() {
    assert!(YANEURAOU_VALUES.len() >= 40);
    let net = test_net();
    for &(sfen, expected) in YANEURAOU_VALUES {
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(net.evaluate(&pos), expected, "{sfen}");
    }
}

#[test]
fn the_file_round_trips() {
    let net = file::parse(test_file()).expect("the test net reads");
    let pos = Position::startpos();
    assert_eq!(net.evaluate(&pos), test_net().evaluate(&pos));
    assert_eq!(file::write(&net), test_file());
}

#[test]
fn other_files_are_refused_with_the_reason() {
    let good = test_file();
    let truncated = &good[..good.len() - 1];
    assert!(matches!(
        file::parse(truncated),
        Err(LoadError::Truncated { .. })
    ));
    assert!(matches!(
        file::parse(&good[..100]),
        Err(LoadError::Truncated { .. })
    ));
    let mut longer = good.to_vec();
    longer.push(0);
    assert_eq!(
        file::parse(&longer).unwrap_err(),
        LoadError::TrailingBytes(1)
    );
    let mut version = good.to_vec();
    version[0] ^= 1;
    assert!(matches!(file::parse(&version), Err(LoadError::Version(_))));
    // Another architecture: the whole-net hash differs.
    let mut other = good.to_vec();
    other[4] ^= 0x80;
    let err = file::parse(&other).unwrap_err();
    assert!(matches!(err, LoadError::Hash { what: "file", .. }), "{err}");
    assert!(err.to_string().contains("halfkp_256x2-32-32"), "{err}");
    // A layer's own hash.
    let transformer_hash_at = 12 + file::ARCHITECTURE.len();
    let mut layer = good.to_vec();
    layer[transformer_hash_at] ^= 1;
    let err = file::parse(&layer).unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::Hash {
                what: "feature transformer",
                ..
            }
        ),
        "{err}"
    );
    assert!(matches!(file::parse(&[]), Err(LoadError::Truncated { .. })));
}

#[test]
fn hashes_are_those_of_the_format() {
    // The words at the head of YaneuraOu's halfkp_256x2-32-32 files.
    assert_eq!(file::TRANSFORMER_HASH, 0x5D69_D7B8);
    assert_eq!(file::FILE_HASH, 0x3E5A_A6EE);
}

/// Along random games (captures, promotions and drops preferred, so hands fill and empty),
/// the accumulator carried move by move equals the one computed from scratch after every
/// move, king moves included.
#[test]
fn the_accumulator_kept_move_by_move_equals_a_refresh() {
    let net = test_net();
    let mut compared = 0;
    let mut king_moves = 0;
    let mut acc: Option<Accumulator> = None;
    random_games(&Position::startpos(), 5, (12, 200), |pos, legal, rng| {
        let start_of_game = pos.moves_played() == 0;
        let before = match acc.filter(|_| !start_of_game) {
            Some(a) => a,
            None => net.accumulate(pos),
        };
        let mv = pick_preferring(legal, rng, |m| {
            m.is_drop() || m.is_promotion() || pos.piece_at(m.to()).is_some()
        })?;
        let changes = features::changes(pos, mv);
        king_moves += usize::from(changes.king_moved.is_some());
        pos.play(mv);
        let mut after = Accumulator::default();
        net.update(pos, &changes, &before, &mut after);
        assert_eq!(after, net.accumulate(pos), "{}", pos.to_sfen());
        compared += 1;
        acc = Some(after);
        if pos.outcome().is_some() {
            acc = None;
            pos.unplay();
            return None;
        }
        pos.unplay();
        Some(mv)
    });
    assert!(compared > 1500, "{compared}");
    assert!(king_moves > 50, "{king_moves}");
}

/// The side to move's half comes first: the same position with the other side to move
/// is evaluated from the other half.
#[test]
fn each_side_reads_its_own_half_first() {
    let net = test_net();
    let black = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
    let white = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w g 1").unwrap();
    // Colours swapped and the board turned round: each side sees the same thing.
    assert_eq!(net.evaluate(&black), net.evaluate(&white));
}
