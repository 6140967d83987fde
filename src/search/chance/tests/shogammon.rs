//! The chance search on the real game, Shogammon: Star1 and Star2 return exactly the plain
//! expectimax value on seeded positions from random play (one and two whole turns deep), and
//! the node table of the bench positions (`positions/bench/shogammon.sfen`).

use super::*;
use crate::rules::bitboard::Bitboard;
use crate::rules::variants::shogammon::Position;
use crate::search::chance::static_value;

/// 200 positions from seeded random play of up to 160 actions (about 50 turns): roots
/// before a roll and at either decision of a turn.
fn shogammon_positions() -> Vec<(Position, Color)> {
    random_positions_within(&Position::startpos(), 200, 21, 160)
}

/// Positions whose two-turn tree is small enough for plain expectimax in a debug build: a
/// decision root with one die left.
fn at_the_second_decision(positions: &[(Position, Color)]) -> Vec<(Position, Color)> {
    positions
        .iter()
        .filter(|(p, _)| {
            !p.is_chance() && p.dice_left().dice().count() == 1 && p.pending_capture().is_none()
        })
        .cloned()
        .collect()
}

fn exact_configurations() -> [ChanceSettings; 3] {
    [
        settings(ChanceAlgorithm::Star1, TableReuse::Exact),
        settings(ChanceAlgorithm::Star2, TableReuse::Exact),
        settings(ChanceAlgorithm::Star2, TableReuse::Off),
    ]
}

#[test]
fn star1_and_star2_equal_expectimax_on_shogammon() {
    let positions = shogammon_positions();
    let chance_roots = positions.iter().filter(|(p, _)| p.is_chance()).count();
    let second = at_the_second_decision(&positions);
    assert!((30..=150).contains(&chance_roots), "{chance_roots}");
    assert!(second.len() >= 30, "{}", second.len());
    let deeper = &second[..30];
    for settings in exact_configurations() {
        let name = label(&settings);
        let one_turn = compare_to_depth(&positions, settings, 1);
        let two_turns = compare_to_depth(deeper, settings, 2);
        for totals in [&one_turn, &two_turns] {
            assert_eq!((totals.differences, totals.worse_choices), (0, 0), "{name}");
        }
        println!(
            "{name}: 200 positions at 1 turn, expectimax {} / search {} nodes; \
             {} positions at 2 turns, expectimax {} / search {} nodes",
            one_turn.reference,
            one_turn.searched,
            deeper.len(),
            two_turns.reference,
            two_turns.searched
        );
    }
}

/// With a net correcting the evaluation (random weights: its values differ from the
/// hand-written ones), Star1 and Star2 still return exactly expectimax's value with the same
/// net, at one turn on the 200 positions and at two on 30 second decisions: the net's output
/// is clamped into the evaluation's bounds, so the chance nodes' bounds stay valid. Both
/// feature sets (the king-relative one recomputes its accumulator when a king moves).
#[test]
fn with_a_net_star1_and_star2_still_equal_expectimax() {
    use crate::eval::nnue::features::FeatureSet;
    for features in [FeatureSet::ShogammonP, FeatureSet::ShogammonPK] {
        star1_and_star2_equal_expectimax_with(features);
    }
}

fn star1_and_star2_equal_expectimax_with(features: crate::eval::nnue::features::FeatureSet) {
    use crate::eval::nnue::Network;
    let positions = shogammon_positions();
    let evals = LeafEvaluators {
        shogammon: Some(Arc::new(Network::random(features, 12))),
        ..LeafEvaluators::standard().clone()
    };
    let changed = positions
        .iter()
        .filter(|(p, pov)| {
            p.outcome().is_none()
                && static_value(p, *pov, &evals)
                    != static_value(p, *pov, LeafEvaluators::standard())
        })
        .count();
    assert!(changed > 150, "the net changes {changed} of 200 values");
    let deeper = &at_the_second_decision(&positions)[..30];
    for settings in exact_configurations() {
        let name = label(&settings);
        let one_turn = compare_with(&positions, settings, 1, &evals);
        let two_turns = compare_with(deeper, settings, 2, &evals);
        for totals in [&one_turn, &two_turns] {
            assert_eq!((totals.differences, totals.worse_choices), (0, 0), "{name}");
        }
    }
}

/// Every decision root with one die left among the 200 positions, at two turns, and the
/// first 40 positions of any kind whose one-turn tree has at most 100 nodes (decision roots
/// at their first decision) at two turns. Minutes in release:
/// `cargo test --release --lib shogammon_exactness_deeper -- --ignored --nocapture`.
#[test]
#[ignore]
fn shogammon_exactness_deeper() {
    let positions = shogammon_positions();
    let second = at_the_second_decision(&positions);
    let first: Vec<(Position, Color)> = positions
        .iter()
        .filter(|(p, _)| !p.is_chance() && p.dice_left().dice().count() == 2)
        .take(40)
        .cloned()
        .collect();
    for settings in exact_configurations() {
        let name = label(&settings);
        for (label, set) in [("second decision", &second), ("first decision", &first)] {
            let totals = compare_to_depth(set, settings, 2);
            println!(
                "{name:20} {label:16} {:3} positions at 2 turns: expectimax {} / search {} \
                 = {:.2}x, {} values differ, {} worse choices",
                set.len(),
                totals.reference,
                totals.searched,
                totals.reference as f64 / totals.searched as f64,
                totals.differences,
                totals.worse_choices
            );
            assert_eq!((totals.differences, totals.worse_choices), (0, 0), "{name}");
        }
    }
}

/// One bench line: depth, SFEN, tokens (see the file's header).
use crate::cli::bench::shogammon_line as read_bench_line;

fn bench_positions() -> Vec<(String, Depth, Position)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/bench/shogammon.sfen"
    );
    let text = std::fs::read_to_string(path).expect("the bench file");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (depth, pos) = read_bench_line(l).unwrap_or_else(|e| panic!("{e}"));
            (l.to_string(), depth, pos)
        })
        .collect()
}

#[test]
fn the_bench_file_reads() {
    let positions = bench_positions();
    assert!((8..=10).contains(&positions.len()));
    assert!(positions.iter().any(|(_, _, p)| p.is_chance()));
    assert!(positions.iter().any(|(_, _, p)| !p.points().is_empty()));
    assert!(read_bench_line("2 9/9/9 b - 1").is_err());
    assert!(read_bench_line("x 4k4/9/9/9/9/9/9/9/4K4 b - 1").is_err());
    assert!(read_bench_line("1 4k4/9/9/9/9/9/9/9/4K4 b - 1 r:61 1a1b").is_err());
}

/// The node table of the bar: per bench position, plain expectimax, Star1 and Star2 (each
/// a fresh searcher with the default settings but the algorithm, iterative deepening from
/// depth 1 counted in full) to the line's depth, and whether the values are equal.
/// `scripts/shogammon_star2_nodes.sh`.
#[test]
#[ignore]
fn shogammon_star2_nodes() {
    println!(
        "{:>2} {:>5} {:>12} {:>10} {:>10} {:>8} {:>8} {:>6}  position",
        "#", "depth", "expectimax", "star1", "star2", "ex/s1", "ex/s2", "equal"
    );
    let mut ratios = Vec::new();
    let (mut sum_reference, mut sum_star2) = (0u64, 0u64);
    for (n, (line, depth, position)) in bench_positions().into_iter().enumerate() {
        let pov = position.side_to_move();
        let mut game = position.clone();
        let (expected, reference) = expectimax(&mut game, depth, pov);
        let mut run = |algorithm| {
            let mut searcher = ChanceSearcher::new(ChanceSettings {
                algorithm,
                ..ChanceSettings::default()
            });
            let limits = ChanceLimits {
                depth: Some(depth),
                ..ChanceLimits::default()
            };
            searcher.search(&mut game, pov, &limits, &no_stop())
        };
        let star1 = run(ChanceAlgorithm::Star1);
        let star2 = run(ChanceAlgorithm::Star2);
        let equal = star1.value == expected && star2.value == expected;
        let ratio = reference as f64 / star2.nodes as f64;
        ratios.push(ratio);
        sum_reference += reference;
        sum_star2 += star2.nodes;
        println!(
            "{n:>2} {:>5} {reference:>12} {:>10} {:>10} {:>8.2} {ratio:>8.2} {:>6}  {}",
            depth.0,
            star1.nodes,
            star2.nodes,
            reference as f64 / star1.nodes as f64,
            if equal { "yes" } else { "NO" },
            line
        );
        assert!(
            equal,
            "{line}: {expected:?} {:?} {:?}",
            star1.value, star2.value
        );
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    println!(
        "mean of the ratios expectimax/star2 {mean:.2}; ratio of the totals {:.2}",
        sum_reference as f64 / sum_star2 as f64
    );
}

/// What depth a turn's search reaches in time: on every bench position at a decision,
/// Star2 with the default settings searched by iterative deepening for up to 2 s, printing
/// when each depth completed. `scripts/shogammon_star2_nodes.sh --timing`.
#[test]
#[ignore]
fn shogammon_time_per_depth() {
    for (line, _, position) in bench_positions() {
        if position.is_chance() {
            continue;
        }
        let mut game = position.clone();
        let pov = position.side_to_move();
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        let limits = ChanceLimits {
            time: Some(std::time::Duration::from_secs(2)),
            ..ChanceLimits::default()
        };
        let mut done = Vec::new();
        searcher.search_reporting(None, &mut game, pov, &limits, &no_stop(), &mut |r| {
            done.push(format!(
                "d{} {:.0} ms {} nodes",
                r.depth.0,
                r.elapsed.as_secs_f64() * 1000.0,
                r.nodes
            ))
        });
        println!("{} | {line}", done.join(", "));
    }
}
