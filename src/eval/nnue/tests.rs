//! Tests of the nets of both architectures: the values YaneuraOu's NNUE editions give on a
//! test net, the accumulator kept move by move against one computed from scratch, and the
//! files refused.

use super::features::{self, FeatureSet};
use super::file::{self, LoadError};
use super::{Accumulator, Network};
use crate::eval::random_games::{pick_preferring, random_games};
use crate::rules::game::Game;
use crate::rules::variants::shogi::Position;
use std::sync::OnceLock;

/// The test net of `features`: `shishi testnet --seed 1 --arch halfkp|kp` (made from the
/// seed, not stored: the repository stays light).
fn test_net(features: FeatureSet) -> &'static Network {
    static NETS: [OnceLock<Network>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = FeatureSet::SHOGI
        .iter()
        .position(|&f| f == features)
        .unwrap();
    NETS[slot].get_or_init(|| Network::random(features, 1))
}

/// The test net's file.
fn test_file(features: FeatureSet) -> &'static [u8] {
    static BYTES: [OnceLock<Vec<u8>>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = FeatureSet::SHOGI
        .iter()
        .position(|&f| f == features)
        .unwrap();
    BYTES[slot].get_or_init(|| file::write(test_net(features)))
}

/// Positions and the value YaneuraOu's NNUE edition (source 33ccf1f9, built with
/// `make normal TARGET_CPU=AVX2 YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE COMPILER=g++`)
/// answers `e` with, with the test net as its `EvalDir/nn.bin`; printed by
/// `scripts/nnue_crosscheck.py --print --count 40 --net-seed 1 --seed 3` (40 positions: 22
/// with pieces in hand, 12 with promoted pieces, 8 with pieces missing, 15 with gote to move).
const YANEURAOU_VALUES: &[(&str, i32)] = &[
    (
        "lnsg1g1nl/1r2k1sb1/pppp3p1/4ppp1p/4B4/2P4PP/PP1PPPP2/3S1S1R1/LN1GKG1NL b - 13",
        1184,
    ),
    (
        "ln1gkgsnl/3sr4/pppp1p2p/4p1pR1/9/2P6/PP1PPPP1P/1+b6L/LNSGKGSN1 b Pbp 13",
        856,
    ),
    (
        "lns2gsnl/2g1k2r1/p1pppp1pp/6p2/1p1B3P1/2P6/PPGPPPP1P/3K1S1R1/LNS2G1NL w b 18",
        963,
    ),
    (
        "lns1kgsnl/2g4r1/pppppp1pp/6b2/3B2pP1/2P6/PP1PPPP1P/4G2R1/LNSGK1SNL b - 13",
        1550,
    ),
    (
        "ln1gk3l/1rs3gs1/p1ppppnpp/1p4p2/9/2b4P1/PP1PPPP1P/3K2SR1/LNSG1G1NL b Bp 17",
        1135,
    ),
    (
        "lnsg2snl/1r2k1g2/p1pppp1pp/6p2/7P1/1PP6/P2PPPP1P/1SG1GS1R1/LN2K2NL w BPb 16",
        1050,
    ),
    (
        "ln1gkgb1l/1r1s1s3/p1pp1pnpp/4p1p2/1p1P5/2P1P4/PP3PPPP/1BG2S1R1/LNSKG2NL b - 17",
        297,
    ),
    (
        "ln1gk2nl/1r3sgb1/p2psp1p1/1pp1p1p1p/9/2PPP4/PPS2PPPP/1BG1GS1R1/LN1K3NL b - 19",
        160,
    ),
    (
        "lnsgk1snl/1r4g2/p1pppp1pp/1p7/2P3p2/5B3/PPNPPPPPP/1R7/L1SGKGSNL w b 12",
        985,
    ),
    (
        "ln1gkg2l/1r1s1s1b1/p1ppppnpp/1p7/6p2/2PP5/PP2PPPPP/1BR1GK3/LNS2GSNL b - 13",
        1244,
    ),
    (
        "ln1g1g1nl/2rs1ksb1/ppppp2pp/5pp2/9/2P2P1P1/PP1PP1PRP/1B1K1S3/LNSG1G1NL b - 13",
        616,
    ),
    (
        "ln1gkg1nl/3s3s1/p1pppp1pp/6p2/9/1rP6/P2PPPPPP/2K2G1R1/LNSG2SNL b BPbp 15",
        1074,
    ),
    (
        "ln1g1gsnl/1r1sk2b1/2pppp1pp/p5p2/1p7/P1P4P1/1PBPPPP1P/4KR3/LNSG1GSNL b - 13",
        756,
    ),
    (
        "ln3g1nl/2gsks3/pp1p1p3/2p1p1ppp/9/P2P5/1PP1PPPPP/3SK1S1R/LNBG2GNL b - 18",
        996,
    ),
    (
        "ln3g1n1/2gsks3/pp1p1p2l/2p1p1ppp/9/P2PP4/1PP2PPPP/3SK1SGR/LNBG3NL w - 21",
        934,
    ),
    (
        "ln3g1n1/2gsks3/pp3p2l/2ppp1ppp/3P5/P3P4/1PP2PPPP/3SK1SGR/LNBG3NL w - 23",
        979,
    ),
    (
        "lns1kg3/2g2s3/pp6l/2p2pp1p/3ppn1p1/P7S/1PP1SPP1P/4K1G1R/LNBG3NL b 3p 38",
        826,
    ),
    (
        "lns1kg3/2g2s3/pp6l/2p2pp1p/3pp2p1/P7S/LPP1SPG1P/4K3R/1NBG3NL w N4p 41",
        1484,
    ),
    (
        "lns1kg3/2g6/pp2s3l/2p2pS1p/3pp4/P8/LPP1SPG+pP/2N1K3R/1NBG3NL w P4p 47",
        1751,
    ),
    (
        "lns1kg3/2g6/pp2s3l/2p2pS1p/3pp4/P8/LPP1SPG1P/2N1K3+p/1NBG3NL b Pr4p 48",
        883,
    ),
    (
        "lns1k4/2g2g3/pp5Pl/5p2p/2ppp2p1/P8/LPP1SPP1P/2+r2K2G/1NBG3NL b 2sn3p 66",
        1011,
    ),
    (
        "lnsgkgsnl/1r5b1/pp1pp1ppp/2p2p3/9/P6P1/1PPPPPP1P/1BG4R1/LNS1KGSNL w - 6",
        906,
    ),
    (
        "ln1gk1snl/1r1s1g1b1/pp1pp1ppp/2p2p3/9/P6P1/1PPPPPP1P/1B1G3R1/LNS1KGSNL b - 9",
        1239,
    ),
    (
        "lngk2snl/1r1s1g1b1/pp1pp1ppp/2p2p3/9/P6P1/1PPPPPPRP/1BSG5/LN2KGSNL b - 13",
        1112,
    ),
    (
        "lngk2snl/1r3g1b1/ppspp1ppp/2p2p3/9/P1P4P1/1P1PPPPRP/1BSGK4/LN3GSNL w - 16",
        774,
    ),
    (
        "lngk1gs1l/1r5b1/ppspp1ppn/2p2B2p/9/P1P1P2P1/1P1P1PPRP/2SGK4/LN3GSNL b P 21",
        717,
    ),
    (
        "lngkg1s1l/1r5b1/pp1p1ppp1/2psp3p/9/PPPPP2P1/N1S2P2P/3GK1S+n1/L4G2L b Prbn 37",
        1349,
    ),
    (
        "lnsgkgsn1/4r2bl/pppppppp1/8p/9/9/PPPPPPPPP/1BSK2SR1/LN1GG2NL w - 8",
        945,
    ),
    (
        "1nsg1ksn1/l3r1gbl/pppp1ppp1/4p3p/9/4P3P/PPPP1PPP1/LBSK2SR1/1N1G1G1NL w - 16",
        886,
    ),
    (
        "1ns2ks2/l1g1r1gbl/ppp3p1n/3ppp1pp/P8/4P3P/1PPP1PPP1/LBSKGGSR1/1N5NL b - 25",
        710,
    ),
    (
        "1ns1k1s2/l2gr1gbl/2p3p1n/pp1ppp1pp/P8/4PG1PP/1PPP1PPR1/LBSKG1S2/1N5NL b - 33",
        537,
    ),
    (
        "1n2k1s2/l1g2rgbl/1+Pp3p1n/1p1Spp1pp/3p5/4PG1PP/LPPP1PPR1/1BS1G1S2/1N1K3NL w P 44",
        1135,
    ),
    (
        "1n2k1s2/l1g2rgbl/1+Pp+S2p1n/4pp1pp/1p1p5/4PG1PP/LPPP1PPR1/1BS1G1S2/1N1K3NL w P 46",
        1036,
    ),
    (
        "1n2k1s2/2g2rgbl/1+Pp+S2p1n/4pp1pp/1p1p5/l3PG1PP/LPPP1PPR1/1BS1G1S2/1N1K3NL b P 47",
        785,
    ),
    (
        "4k1s2/1Gr3gbl/n1p3p1n/4pp2p/1p1p3p1/4PG1PP/BPPP1PPR1/2S1G1S2/1N1K3NL b LPslp 55",
        699,
    ),
    (
        "4k1s2/2L1r1gbl/nGpl2p1n/4pp1sp/1p1p3p1/P3PG1PP/BPPP1PPR1/2S1G1S2/1N1K3NL b p 61",
        934,
    ),
    (
        "2+L1k1s2/4r1gbl/1Gpl2p1n/4pp1sp/1n1p3P1/Pp2PG2P/BPPP1PPRN/2S1G1S2/1N1K4L w Pp 66",
        1445,
    ),
    (
        "1+L2k1s2/r5gbl/1Gp3p1n/3lpp1sp/1n1p3P1/Pp2PG2P/BPPP1PPRN/2S1G1S2/1N1K4L b Pp 69",
        382,
    ),
    (
        "1+L2k1s2/r5gbl/1Gp3p1n/3lpp1sp/1n1p3P1/PB2PG2P/1PPP1PPRN/2S1G1S2/1N1K4L w 2Pp 70",
        1662,
    ),
    (
        "1+L2k1s2/r5gbl/1Gp3p1n/3lpp2p/1n1p3s1/PB2PG2P/1PPP1PPRN/2S1G1S2/1N1K4L b 2P2p 71",
        575,
    ),
];

/// Asserts that the test net of `features` values each of (at least 40) positions as
/// YaneuraOu does.
fn assert_values_are_yaneuraous(features: FeatureSet, values: &[(&str, i32)]) {
    assert!(values.len() >= 40);
    let net = test_net(features);
    for &(sfen, expected) in values {
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(net.evaluate(&pos), expected, "{sfen}");
    }
}

#[test]
fn values_are_yaneuraous() {
    assert_values_are_yaneuraous(FeatureSet::HalfKp, YANEURAOU_VALUES);
}

#[test]
fn kp_values_are_yaneuraous() {
    assert_values_are_yaneuraous(FeatureSet::Kp, KP_YANEURAOU_VALUES);
}

#[test]
fn the_file_round_trips() {
    for features in FeatureSet::SHOGI {
        let net = file::parse(test_file(features)).expect("the test net reads");
        assert_eq!(net.features, features);
        let pos = Position::startpos();
        assert_eq!(net.evaluate(&pos), test_net(features).evaluate(&pos));
        assert_eq!(file::write(&net), test_file(features));
    }
    // A K+P net is small: 1 710 rows of 256 weights.
    assert_eq!(test_file(FeatureSet::Kp).len(), 893_917);
}

#[test]
fn other_files_are_refused_with_the_reason() {
    for features in FeatureSet::SHOGI {
        let good = test_file(features);
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
        assert!(matches!(err, LoadError::Architecture { .. }), "{err}");
        // The message names every architecture Shishi reads.
        for known in FeatureSet::ALL {
            let name = file::architecture_name(known);
            assert!(err.to_string().contains(name), "{err}");
        }
        // A layer's own hash.
        let transformer_hash_at = 12 + file::architecture_text(features).len();
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
}

#[test]
fn hashes_are_those_of_the_format() {
    // The words at the head of YaneuraOu's halfkp_256x2-32-32 files.
    assert_eq!(file::transformer_hash(FeatureSet::HalfKp), 0x5D69_D7B8);
    assert_eq!(file::file_hash(FeatureSet::HalfKp), 0x3E5A_A6EE);
    // And of its kp_256x2-32-32 files.
    assert_eq!(file::transformer_hash(FeatureSet::Kp), 0x3F57_15FF);
    assert_eq!(file::file_hash(FeatureSet::Kp), 0x5C64_64A9);
    assert_eq!(
        file::architecture_text(FeatureSet::HalfKp),
        "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](\
AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))"
    );
    assert!(file::architecture_text(FeatureSet::Kp).starts_with("Features=K+P[1710->256x2],"));
}

/// Along random games (captures, promotions and drops preferred, so hands fill and empty),
/// the accumulator carried move by move equals the one computed from scratch after every
/// move, king moves included, for both feature sets.
#[test]
fn the_accumulator_kept_move_by_move_equals_a_refresh() {
    for features in FeatureSet::SHOGI {
        let net = test_net(features);
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
}

/// The side to move's half comes first: the same position with the other side to move
/// is evaluated from the other half.
#[test]
fn each_side_reads_its_own_half_first() {
    for features in FeatureSet::SHOGI {
        let net = test_net(features);
        let black = Position::from_sfen("3k5/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        let white = Position::from_sfen("4k4/9/9/9/9/9/9/9/5K3 w g 1").unwrap();
        // Colours swapped and the board turned round: each side sees the same thing.
        assert_eq!(net.evaluate(&black), net.evaluate(&white), "{features:?}");
    }
}

/// A search with the net: the search checks (debug assertions, on in tests) the accumulator
/// it keeps move by move against one computed from scratch at every static evaluation, over
/// the tree's captures, drops, promotions, king moves and null moves.
#[test]
fn the_search_keeps_the_accumulator_exact() {
    use crate::search::{Decision, Limits, Searcher};
    for features in FeatureSet::SHOGI {
        let mut searcher = Searcher::new(16);
        searcher.set_network(Some(std::sync::Arc::new(test_net(features).clone())));
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        for sfen in [
            "ln1g1g1nl/1r2k1sb1/p1sppp1pp/2p3p2/1p5P1/2P6/PPBPPPP1P/2S2K1R1/LN1G1GSNL b - 1",
            "1+L2k1s2/r5gbl/1Gp3p1n/3lpp1sp/1n1p3P1/PB2PG2P/1PPP1PPRN/2S1G1S2/1N1K4L w 2Pp 70",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let decision = crate::search::tests::quiet_search(&mut searcher, &pos, &limits);
            assert!(
                matches!(decision, Decision::Move { .. }),
                "{sfen}: {decision:?}"
            );
            assert!(searcher.last_nodes() > 300, "{}", searcher.last_nodes());
        }
    }
}

/// The positions of `YANEURAOU_VALUES` and the value YaneuraOu's KP edition (built from the
/// same source tree, whose halfkp edition prints `YANEURAOU_VALUES`, with `make normal
/// TARGET_CPU=AVX2 YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE_KP256 COMPILER=g++`) answers `e`
/// with, with the
/// K+P test net (`shishi testnet --arch kp --seed 1`) as its `EvalDir/nn.bin`; printed by
/// `scripts/nnue_crosscheck.py --arch kp --print --count 40 --net-seed 1 --seed 3`.
const KP_YANEURAOU_VALUES: &[(&str, i32)] = &[
    (
        "lnsg1g1nl/1r2k1sb1/pppp3p1/4ppp1p/4B4/2P4PP/PP1PPPP2/3S1S1R1/LN1GKG1NL b - 13",
        -1519,
    ),
    (
        "ln1gkgsnl/3sr4/pppp1p2p/4p1pR1/9/2P6/PP1PPPP1P/1+b6L/LNSGKGSN1 b Pbp 13",
        -1341,
    ),
    (
        "lns2gsnl/2g1k2r1/p1pppp1pp/6p2/1p1B3P1/2P6/PPGPPPP1P/3K1S1R1/LNS2G1NL w b 18",
        -926,
    ),
    (
        "lns1kgsnl/2g4r1/pppppp1pp/6b2/3B2pP1/2P6/PP1PPPP1P/4G2R1/LNSGK1SNL b - 13",
        -1079,
    ),
    (
        "ln1gk3l/1rs3gs1/p1ppppnpp/1p4p2/9/2b4P1/PP1PPPP1P/3K2SR1/LNSG1G1NL b Bp 17",
        -728,
    ),
    (
        "lnsg2snl/1r2k1g2/p1pppp1pp/6p2/7P1/1PP6/P2PPPP1P/1SG1GS1R1/LN2K2NL w BPb 16",
        -833,
    ),
    (
        "ln1gkgb1l/1r1s1s3/p1pp1pnpp/4p1p2/1p1P5/2P1P4/PP3PPPP/1BG2S1R1/LNSKG2NL b - 17",
        -874,
    ),
    (
        "ln1gk2nl/1r3sgb1/p2psp1p1/1pp1p1p1p/9/2PPP4/PPS2PPPP/1BG1GS1R1/LN1K3NL b - 19",
        -958,
    ),
    (
        "lnsgk1snl/1r4g2/p1pppp1pp/1p7/2P3p2/5B3/PPNPPPPPP/1R7/L1SGKGSNL w b 12",
        -776,
    ),
    (
        "ln1gkg2l/1r1s1s1b1/p1ppppnpp/1p7/6p2/2PP5/PP2PPPPP/1BR1GK3/LNS2GSNL b - 13",
        -1302,
    ),
    (
        "ln1g1g1nl/2rs1ksb1/ppppp2pp/5pp2/9/2P2P1P1/PP1PP1PRP/1B1K1S3/LNSG1G1NL b - 13",
        -491,
    ),
    (
        "ln1gkg1nl/3s3s1/p1pppp1pp/6p2/9/1rP6/P2PPPPPP/2K2G1R1/LNSG2SNL b BPbp 15",
        -937,
    ),
    (
        "ln1g1gsnl/1r1sk2b1/2pppp1pp/p5p2/1p7/P1P4P1/1PBPPPP1P/4KR3/LNSG1GSNL b - 13",
        -867,
    ),
    (
        "ln3g1nl/2gsks3/pp1p1p3/2p1p1ppp/9/P2P5/1PP1PPPPP/3SK1S1R/LNBG2GNL b - 18",
        -1091,
    ),
    (
        "ln3g1n1/2gsks3/pp1p1p2l/2p1p1ppp/9/P2PP4/1PP2PPPP/3SK1SGR/LNBG3NL w - 21",
        -1448,
    ),
    (
        "ln3g1n1/2gsks3/pp3p2l/2ppp1ppp/3P5/P3P4/1PP2PPPP/3SK1SGR/LNBG3NL w - 23",
        -1385,
    ),
    (
        "lns1kg3/2g2s3/pp6l/2p2pp1p/3ppn1p1/P7S/1PP1SPP1P/4K1G1R/LNBG3NL b 3p 38",
        -1202,
    ),
    (
        "lns1kg3/2g2s3/pp6l/2p2pp1p/3pp2p1/P7S/LPP1SPG1P/4K3R/1NBG3NL w N4p 41",
        -994,
    ),
    (
        "lns1kg3/2g6/pp2s3l/2p2pS1p/3pp4/P8/LPP1SPG+pP/2N1K3R/1NBG3NL w P4p 47",
        -1179,
    ),
    (
        "lns1kg3/2g6/pp2s3l/2p2pS1p/3pp4/P8/LPP1SPG1P/2N1K3+p/1NBG3NL b Pr4p 48",
        -720,
    ),
    (
        "lns1k4/2g2g3/pp5Pl/5p2p/2ppp2p1/P8/LPP1SPP1P/2+r2K2G/1NBG3NL b 2sn3p 66",
        -1756,
    ),
    (
        "lnsgkgsnl/1r5b1/pp1pp1ppp/2p2p3/9/P6P1/1PPPPPP1P/1BG4R1/LNS1KGSNL w - 6",
        -683,
    ),
    (
        "ln1gk1snl/1r1s1g1b1/pp1pp1ppp/2p2p3/9/P6P1/1PPPPPP1P/1B1G3R1/LNS1KGSNL b - 9",
        -1147,
    ),
    (
        "lngk2snl/1r1s1g1b1/pp1pp1ppp/2p2p3/9/P6P1/1PPPPPPRP/1BSG5/LN2KGSNL b - 13",
        -1447,
    ),
    (
        "lngk2snl/1r3g1b1/ppspp1ppp/2p2p3/9/P1P4P1/1P1PPPPRP/1BSGK4/LN3GSNL w - 16",
        -267,
    ),
    (
        "lngk1gs1l/1r5b1/ppspp1ppn/2p2B2p/9/P1P1P2P1/1P1P1PPRP/2SGK4/LN3GSNL b P 21",
        -719,
    ),
    (
        "lngkg1s1l/1r5b1/pp1p1ppp1/2psp3p/9/PPPPP2P1/N1S2P2P/3GK1S+n1/L4G2L b Prbn 37",
        -1138,
    ),
    (
        "lnsgkgsn1/4r2bl/pppppppp1/8p/9/9/PPPPPPPPP/1BSK2SR1/LN1GG2NL w - 8",
        -1025,
    ),
    (
        "1nsg1ksn1/l3r1gbl/pppp1ppp1/4p3p/9/4P3P/PPPP1PPP1/LBSK2SR1/1N1G1G1NL w - 16",
        -1188,
    ),
    (
        "1ns2ks2/l1g1r1gbl/ppp3p1n/3ppp1pp/P8/4P3P/1PPP1PPP1/LBSKGGSR1/1N5NL b - 25",
        -1467,
    ),
    (
        "1ns1k1s2/l2gr1gbl/2p3p1n/pp1ppp1pp/P8/4PG1PP/1PPP1PPR1/LBSKG1S2/1N5NL b - 33",
        -1158,
    ),
    (
        "1n2k1s2/l1g2rgbl/1+Pp3p1n/1p1Spp1pp/3p5/4PG1PP/LPPP1PPR1/1BS1G1S2/1N1K3NL w P 44",
        -897,
    ),
    (
        "1n2k1s2/l1g2rgbl/1+Pp+S2p1n/4pp1pp/1p1p5/4PG1PP/LPPP1PPR1/1BS1G1S2/1N1K3NL w P 46",
        -194,
    ),
    (
        "1n2k1s2/2g2rgbl/1+Pp+S2p1n/4pp1pp/1p1p5/l3PG1PP/LPPP1PPR1/1BS1G1S2/1N1K3NL b P 47",
        -948,
    ),
    (
        "4k1s2/1Gr3gbl/n1p3p1n/4pp2p/1p1p3p1/4PG1PP/BPPP1PPR1/2S1G1S2/1N1K3NL b LPslp 55",
        -1108,
    ),
    (
        "4k1s2/2L1r1gbl/nGpl2p1n/4pp1sp/1p1p3p1/P3PG1PP/BPPP1PPR1/2S1G1S2/1N1K3NL b p 61",
        -1102,
    ),
    (
        "2+L1k1s2/4r1gbl/1Gpl2p1n/4pp1sp/1n1p3P1/Pp2PG2P/BPPP1PPRN/2S1G1S2/1N1K4L w Pp 66",
        -933,
    ),
    (
        "1+L2k1s2/r5gbl/1Gp3p1n/3lpp1sp/1n1p3P1/Pp2PG2P/BPPP1PPRN/2S1G1S2/1N1K4L b Pp 69",
        -1024,
    ),
    (
        "1+L2k1s2/r5gbl/1Gp3p1n/3lpp1sp/1n1p3P1/PB2PG2P/1PPP1PPRN/2S1G1S2/1N1K4L w 2Pp 70",
        -583,
    ),
    (
        "1+L2k1s2/r5gbl/1Gp3p1n/3lpp2p/1n1p3s1/PB2PG2P/1PPP1PPRN/2S1G1S2/1N1K4L b 2P2p 71",
        -848,
    ),
];

#[test]
fn a_change_in_one_pass_equals_the_rows_added_and_subtracted_one_by_one() {
    use super::Row;
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    // Values across the whole 16-bit range, so that the sums wrap.
    let mut random_row = || Row(std::array::from_fn(|_| rng.gen::<i16>()));
    let before = random_row();
    let rows: Vec<Row> = (0..12).map(|_| random_row()).collect();
    // Every count of rows out and in up to six each (a Lion's double capture removes three
    // pieces; the plain forms in one pass take one or two each, the rest row by row), both by
    // the vector form where the processor has one and by the plain form.
    for out_count in 0..=6 {
        for in_count in 0..=6 {
            let removed: Vec<&Row> = rows[..out_count].iter().collect();
            let added: Vec<&Row> = rows[6..6 + in_count].iter().collect();
            let mut expected = before;
            for row in &removed {
                expected.sub(row);
            }
            for row in &added {
                expected.add(row);
            }
            let mut got = Row::default();
            got.set_changed(&before, &removed, &added);
            assert_eq!(got, expected, "{out_count} rows out, {in_count} in");
            let mut plain = Row::default();
            plain.set_changed_plain(&before, &removed, &added);
            assert_eq!(
                plain, expected,
                "{out_count} rows out, {in_count} in, plain"
            );
            if out_count + in_count > 0 {
                assert_ne!(
                    got, before,
                    "{out_count} out, {in_count} in changed nothing"
                );
            }
        }
    }
}

#[test]
fn the_clamp_of_a_half_equals_the_plain_one() {
    use super::{clamp_half, clamp_half_plain, Row, HALF};
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    // Each lane's place matters (the vector form reorders after packing), so every lane is
    // distinct in some rounds; the rest cover the 16-bit range and the clamp's edges.
    let edges = [
        i16::MIN,
        -129,
        -128,
        -1,
        0,
        1,
        126,
        127,
        128,
        255,
        256,
        i16::MAX,
    ];
    for round in 0..50 {
        let half = Row(std::array::from_fn(|i| match round % 3 {
            0 => i as i16 - 64,
            1 => edges[rng.gen_range(0..edges.len())],
            _ => rng.gen::<i16>(),
        }));
        let (mut got, mut expected) = ([0u8; HALF], [0u8; HALF]);
        clamp_half(&half, &mut got);
        clamp_half_plain(&half, &mut expected);
        assert_eq!(got, expected, "round {round}");
        assert!(expected.iter().all(|&b| b <= 127));
    }
}
