//! Tests of the chance search on two small chance games written here: Star1 and Star2 (with
//! no table and with the exact-reuse table) must return exactly the plain expectimax value on
//! hundreds of seeded positions at depths 1–3, the debug oracle must accept every chance
//! node, and the default settings must keep expectimax's best decision.

mod madness;
mod race;
mod shogammon;
mod skirmish;
mod snapshots;

use super::reference::{expectimax, expectimax_at_ply};
use super::{
    ChanceAlgorithm, ChanceGame, ChanceLimits, ChanceResult, ChanceSearcher, ChanceSettings, Depth,
    LeafEvaluators, ProbeWindow, TableReuse, Value,
};
use crate::rules::game::{Game, NodeKind};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use race::Race;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use skirmish::Skirmish;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use ChanceAlgorithm::{Expectimax, Star1, Star2};

/// `count` non-terminal positions reached by random play from `start` (chance outcomes drawn
/// by weight), with a point of view for each.
fn random_positions<G: ChanceGame>(start: &G, count: usize, seed: u64) -> Vec<(G, Color)> {
    random_positions_within(start, count, seed, 40)
}

/// [`random_positions`] after up to `max_actions` random actions.
fn random_positions_within<G: ChanceGame>(
    start: &G,
    count: usize,
    seed: u64,
    max_actions: usize,
) -> Vec<(G, Color)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut game = start.clone();
        let length = rng.gen_range(0..max_actions);
        for _ in 0..length {
            if game.outcome().is_some() {
                break;
            }
            match game.node_kind() {
                NodeKind::Chance(outcomes) => {
                    let total: u32 = outcomes.iter().map(|(_, w)| w.0).sum();
                    let mut pick = rng.gen_range(0..total);
                    for (outcome, weight) in outcomes {
                        if pick < weight.0 {
                            game.play(outcome);
                            break;
                        }
                        pick -= weight.0;
                    }
                }
                NodeKind::Decision(_) => {
                    let mut actions = MoveList::new();
                    game.legal_actions(&mut actions);
                    game.play(actions[rng.gen_range(0..actions.len())]);
                }
            }
        }
        if game.outcome().is_none() {
            let pov = match game.node_kind() {
                NodeKind::Decision(mover) if rng.gen_bool(0.8) => mover,
                NodeKind::Decision(mover) => mover.flip(),
                NodeKind::Chance(_) => Color::BOTH[rng.gen_range(0..2)],
            };
            positions.push((game, pov));
        }
    }
    positions
}

fn settings(algorithm: ChanceAlgorithm, table: TableReuse) -> ChanceSettings {
    ChanceSettings {
        algorithm,
        table,
        hash_mb: 1,
        ..ChanceSettings::default()
    }
}

/// Each algorithm (Star2 with either probe window) with `table` reuse.
fn every_algorithm(table: TableReuse) -> [ChanceSettings; 4] {
    [
        settings(Expectimax, table),
        settings(Star1, table),
        ChanceSettings {
            probe: ProbeWindow::Threshold,
            ..settings(Star2, table)
        },
        settings(Star2, table),
    ]
}

/// What a configuration sets, for the printed tables and failure messages.
fn label(settings: &ChanceSettings) -> String {
    let algorithm = match (settings.algorithm, settings.probe) {
        (Expectimax, _) => "expectimax-alphabeta",
        (Star1, _) => "star1",
        (Star2, ProbeWindow::Threshold) => "star2 threshold",
        (Star2, ProbeWindow::Harvest) => "star2 harvest",
    };
    let table = match settings.table {
        TableReuse::Off => "no table",
        TableReuse::Exact => "exact table",
        TableReuse::SameDepth => "same-depth table",
        TableReuse::DeepEnough => "deep-enough table",
    };
    let prepass = if settings.outcome_prepass {
        ""
    } else {
        ", no pre-pass"
    };
    format!("{algorithm}, {table}{prepass}")
}

fn depth_limit(depth: u32) -> ChanceLimits {
    ChanceLimits {
        depth: Some(Depth(depth)),
        ..ChanceLimits::default()
    }
}

fn no_stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// Searches to `depth` and returns every iteration's result.
fn iterations<G: ChanceGame>(
    searcher: &mut ChanceSearcher,
    game: &mut G,
    pov: Color,
    depth: u32,
) -> Vec<ChanceResult> {
    let hash = game.hash();
    let mut results = Vec::new();
    let last =
        searcher.search_reporting(None, game, pov, &depth_limit(depth), &no_stop(), &mut |r| {
            results.push(r.clone())
        });
    assert_eq!(game.hash(), hash, "the search left the game changed");
    let summary = |r: &ChanceResult| (r.value, r.depth, r.best.clone(), r.outcomes.clone());
    assert_eq!(results.last().map(summary), Some(summary(&last)));
    results
}

const MAX_DEPTH: u32 = 3;

/// The node totals of one configuration over a set of positions, and how many of its
/// values differed from expectimax.
#[derive(Default, Debug)]
struct Comparison {
    /// Expectimax nodes at `MAX_DEPTH`.
    reference: u64,
    /// Search nodes, all iterations to `MAX_DEPTH`.
    searched: u64,
    /// Iterations (or root outcomes) whose value differed from expectimax.
    differences: usize,
    /// Decision roots whose chosen first action is worse than expectimax's best at MAX_DEPTH.
    worse_choices: usize,
    /// Time spent searching (not in the reference).
    seconds: f64,
}

/// Searches every position to depths 1..=MAX_DEPTH with `settings` and compares every
/// iteration's value (and at a chance root every outcome's value, and at a decision root the
/// expectimax value of the chosen first action) with plain expectimax.
fn compare<G: ChanceGame>(positions: &[(G, Color)], settings: ChanceSettings) -> Comparison {
    compare_to_depth(positions, settings, MAX_DEPTH)
}

/// [`compare`] to depths 1..=max_depth.
fn compare_to_depth<G: ChanceGame>(
    positions: &[(G, Color)],
    settings: ChanceSettings,
    max_depth: u32,
) -> Comparison {
    compare_with(positions, settings, max_depth, LeafEvaluators::standard())
}

/// [`compare_to_depth`] with the leaves valued by `evals` (the Madness's board by its net,
/// Shogammon corrected by its net), in the search and in expectimax alike.
fn compare_with<G: ChanceGame>(
    positions: &[(G, Color)],
    settings: ChanceSettings,
    max_depth: u32,
    evals: &LeafEvaluators,
) -> Comparison {
    let mut totals = Comparison::default();
    for (position, pov) in positions {
        let mut game = position.clone();
        let mut searcher = ChanceSearcher::new(settings);
        searcher.set_network(evals.shogi.net.clone());
        searcher.set_shogammon_network(evals.shogammon.clone());
        let start = std::time::Instant::now();
        let results = iterations(&mut searcher, &mut game, *pov, max_depth);
        totals.seconds += start.elapsed().as_secs_f64();
        assert_eq!(results.len(), max_depth as usize);
        for result in &results {
            let (expected, nodes) = expectimax_at_ply(&mut game, result.depth, *pov, 0, evals);
            totals.differences += usize::from(result.value != expected);
            if result.depth.0 == max_depth {
                totals.reference += nodes;
            }
        }
        let last = results.last().expect("an iteration");
        totals.searched += last.nodes;
        for line in &last.outcomes {
            game.play(line.outcome);
            let (expected, _) = expectimax_at_ply(&mut game, Depth(max_depth), *pov, 1, evals);
            game.unplay();
            totals.differences += usize::from(line.value != expected);
        }
        if let Some(&first) = last.best.first() {
            let (root, _) = expectimax_at_ply(&mut game, Depth(max_depth), *pov, 0, evals);
            let chosen = value_after(&mut game, first, Depth(max_depth), *pov, evals);
            totals.worse_choices += usize::from(chosen != root);
        }
    }
    totals
}

/// [`compare`], asserting that every value equals expectimax.
fn assert_exact<G: ChanceGame>(positions: &[(G, Color)], settings: ChanceSettings) -> Comparison {
    let comparison = compare(positions, settings);
    assert_eq!(comparison.differences, 0, "with {settings:?}");
    assert_eq!(comparison.worse_choices, 0, "with {settings:?}");
    comparison
}

fn race_positions() -> Vec<(Race, Color)> {
    random_positions(&Race::new(), 120, 7)
}

fn skirmish_positions() -> Vec<(Skirmish, Color)> {
    random_positions(&Skirmish::new(), 120, 8)
}

#[test]
fn positions_cover_chance_and_decision_roots() {
    let race = race_positions();
    let skirmish = skirmish_positions();
    let chance_roots = |kinds: Vec<NodeKind>| {
        kinds
            .iter()
            .filter(|k| matches!(k, NodeKind::Chance(_)))
            .count()
    };
    let race_chance = chance_roots(race.iter().map(|(g, _)| g.node_kind()).collect());
    let skirmish_chance = chance_roots(skirmish.iter().map(|(g, _)| g.node_kind()).collect());
    println!("chance roots: race {race_chance}, skirmish {skirmish_chance}");
    assert!((10..=110).contains(&race_chance), "{race_chance}");
    assert!((10..=110).contains(&skirmish_chance), "{skirmish_chance}");
}

#[test]
fn star1_and_star2_equal_expectimax_without_a_table() {
    let race = race_positions();
    let skirmish = skirmish_positions();
    for algorithm in [
        ChanceAlgorithm::Star1,
        ChanceAlgorithm::Star2,
        ChanceAlgorithm::Expectimax,
    ] {
        assert_exact(&race, settings(algorithm, TableReuse::Off));
        assert_exact(&skirmish, settings(algorithm, TableReuse::Off));
    }
}

#[test]
fn star1_and_star2_equal_expectimax_with_the_exact_table() {
    let race = race_positions();
    let skirmish = skirmish_positions();
    for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
        assert_exact(&race, settings(algorithm, TableReuse::Exact));
        assert_exact(&skirmish, settings(algorithm, TableReuse::Exact));
    }
}

#[test]
fn the_oracle_accepts_every_chance_node() {
    let race = random_positions(&Race::new(), 12, 21);
    let skirmish = random_positions(&Skirmish::new(), 30, 22);
    for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
        for table in [TableReuse::Off, TableReuse::Exact] {
            let settings = ChanceSettings {
                verify_chance_nodes: true,
                ..settings(algorithm, table)
            };
            assert_exact(&race, settings);
            assert_exact(&skirmish, settings);
        }
    }
}

/// Node counts over the exactness positions at depth 3 (run with `--nocapture` to see them):
/// plain expectimax against each search configuration (iterative deepening included).
#[test]
fn star2_searches_fewer_nodes_than_expectimax() {
    let race = race_positions();
    let skirmish = skirmish_positions();
    let configurations = every_algorithm(TableReuse::Off)
        .into_iter()
        .chain(every_algorithm(TableReuse::Exact))
        .chain([TableReuse::SameDepth, TableReuse::DeepEnough].map(|t| settings(Star2, t)));
    let mut star2_ratio = Vec::new();
    for settings in configurations {
        let name = label(&settings);
        let race_totals = compare(&race, settings);
        let skirmish_totals = compare(&skirmish, settings);
        if settings.table != TableReuse::DeepEnough {
            for totals in [&race_totals, &skirmish_totals] {
                assert_eq!((totals.differences, totals.worse_choices), (0, 0), "{name}");
            }
        }
        let ratio = |t: &Comparison| t.reference as f64 / t.searched as f64;
        println!(
            "depth {MAX_DEPTH}, {name:36}: race {} / {} = {:.2}x ({} differ), \
             skirmish {} / {} = {:.2}x ({} differ)",
            race_totals.reference,
            race_totals.searched,
            ratio(&race_totals),
            race_totals.differences,
            skirmish_totals.reference,
            skirmish_totals.searched,
            ratio(&skirmish_totals),
            skirmish_totals.differences,
        );
        if settings
            == (ChanceSettings {
                hash_mb: 1,
                ..ChanceSettings::default()
            })
        {
            star2_ratio.push((ratio(&race_totals), ratio(&skirmish_totals)));
        }
    }
    // The default search beats the reference on both games, by 3x (the bar for
    // Shogammon) on the race, whose every turn is a roll; the skirmish rolls rarely and is
    // mostly plain alpha-beta at this depth (its ratio grows with depth: the ignored
    // `chance_node_counts_deeper`).
    for (race, skirmish) in star2_ratio {
        assert!(race > 3.0 && skirmish > 1.0, "{race} {skirmish}");
    }
}

/// The default settings (Star2, exact table, 16 MiB) on the exactness positions: the
/// same value as expectimax at every depth and a best decision that expectimax rates best.
#[test]
fn default_settings_keep_the_expectimax_value_and_best_decision() {
    let settings = ChanceSettings::default();
    assert_exact(&race_positions(), settings);
    assert_exact(&skirmish_positions(), settings);
}

/// At a decision root the result's `best` is the mover's whole turn (both dice in the race)
/// and `pv` is legal up to the first chance node; at a chance root every outcome's line is
/// legal after its outcome.
#[test]
fn best_is_the_whole_turn_and_lines_are_legal() {
    fn assert_legal_line<G: ChanceGame>(game: &mut G, line: &[crate::rules::moves::Move]) {
        for &action in line {
            assert!(matches!(game.node_kind(), NodeKind::Decision(_)));
            let mut legal = MoveList::new();
            game.legal_actions(&mut legal);
            assert!(legal.contains(&action), "{action:?} is not legal");
            game.play(action);
        }
        for _ in line {
            game.unplay();
        }
    }
    let mut whole_turns = 0;
    for (position, pov) in race_positions() {
        let mut game = position.clone();
        let mut searcher =
            ChanceSearcher::new(settings(ChanceAlgorithm::Star2, TableReuse::SameDepth));
        let result = searcher.search(&mut game, pov, &depth_limit(2), &no_stop());
        assert_eq!(result.depth, Depth(2));
        assert!(!result.interrupted);
        match game.node_kind() {
            NodeKind::Chance(outcomes) => {
                assert!(result.best.is_empty() && result.pv.is_empty());
                assert_eq!(result.outcomes.len(), outcomes.len());
                for line in &result.outcomes {
                    game.play(line.outcome);
                    assert!(!line.pv.is_empty() || game.outcome().is_some());
                    assert_legal_line(&mut game, &line.pv);
                    game.unplay();
                }
            }
            NodeKind::Decision(mover) => {
                assert!(result.outcomes.is_empty());
                assert!(!result.best.is_empty());
                assert!(result.pv.starts_with(&result.best));
                assert_legal_line(&mut game, &result.pv);
                // The turn ends after `best`: the next node is the other side's roll.
                for &action in &result.best {
                    game.play(action);
                }
                if game.outcome().is_none() {
                    assert!(matches!(game.node_kind(), NodeKind::Chance(_)));
                }
                for _ in &result.best {
                    game.unplay();
                }
                whole_turns += usize::from(result.best.len() == 2);
                let _ = mover;
            }
        }
    }
    assert!(whole_turns >= 10, "{whole_turns}");
}

/// A race position with its point of view, and limits that stop its search at `nodes`
/// nodes long before the depth limit (20).
fn deep_race_search_of(nodes: u64) -> (Race, Color, ChanceLimits) {
    let (position, pov) = race_positions().swap_remove(3);
    let limits = ChanceLimits {
        depth: Some(Depth(20)),
        nodes: Some(nodes),
        time: None,
    };
    (position, pov, limits)
}

#[test]
fn limits_and_the_stop_flag_end_the_search() {
    // A node limit interrupts a deep search and keeps the last completed iteration.
    let (mut game, pov, limits) = deep_race_search_of(20_000);
    let position = game.clone();
    let mut searcher = ChanceSearcher::new(ChanceSettings::default());
    let result = searcher.search(&mut game, pov, &limits, &no_stop());
    assert!(result.interrupted);
    assert!(
        result.depth.0 >= 1 && result.depth.0 < 20,
        "{:?}",
        result.depth
    );
    assert!(result.nodes <= 20_000, "{}", result.nodes);
    let (expected, _) = expectimax(&mut game, result.depth, pov);
    assert_eq!(result.value, expected);
    // A time limit.
    let limits = ChanceLimits {
        depth: None,
        nodes: None,
        time: Some(std::time::Duration::from_millis(50)),
    };
    let result = searcher.search(&mut game, pov, &limits, &no_stop());
    assert!(result.interrupted);
    assert!(
        result.elapsed < std::time::Duration::from_millis(1000),
        "{:?}",
        result.elapsed
    );
    // A stop flag raised before the search: no iteration completes, yet a move is offered
    // at a decision root.
    let stop = Arc::new(AtomicBool::new(true));
    let result = searcher.search(&mut game, pov, &depth_limit(5), &stop);
    assert_eq!(result.depth, Depth(0));
    if let NodeKind::Decision(_) = game.node_kind() {
        assert_eq!(result.best.len(), 1);
    }
    assert_eq!(game.hash(), position.hash());
}

/// The value to `pov` of playing `action` at the decision root `game`, by expectimax to
/// `depth` units from the root with the leaves valued by `evals`.
fn value_after<G: ChanceGame>(
    game: &mut G,
    action: Move,
    depth: Depth,
    pov: Color,
    evals: &LeafEvaluators,
) -> Value {
    let cost = game.depth_cost(action);
    game.play(action);
    let (value, _) = expectimax_at_ply(game, Depth(depth.0 - cost.0), pov, 1, evals);
    game.unplay();
    value
}

/// A search stopped by a node limit inside an iteration plays the best of the root actions
/// that iteration finished, when it finished any: by the deeper iteration's expectimax
/// values (the mover's view) it is better than the last completed iteration's choice where it
/// differs, and over a sweep of limits it sometimes does.
#[test]
fn an_interrupted_iteration_offers_the_best_action_it_finished() {
    /// How many searches took a partial iteration's action, and how many of those changed
    /// the choice, at the decision roots of `positions`.
    fn sweep<G: ChanceGame>(positions: &[(G, Color)]) -> (usize, usize) {
        let (mut partial, mut changed) = (0, 0);
        for (n, (position, pov)) in positions.iter().enumerate() {
            let NodeKind::Decision(mover) = position.node_kind() else {
                continue;
            };
            for nodes in (100..4_000).step_by(300) {
                let mut game = position.clone();
                let limits = ChanceLimits {
                    depth: Some(Depth(20)),
                    nodes: Some(nodes),
                    time: None,
                };
                let mut searcher = ChanceSearcher::new(ChanceSettings::default());
                let mut completed: Option<ChanceResult> = None;
                let result = searcher.search_reporting(
                    None,
                    &mut game,
                    *pov,
                    &limits,
                    &no_stop(),
                    &mut |r| completed = Some(r.clone()),
                );
                assert_eq!(game.hash(), position.hash());
                let Some(completed) = completed.filter(|_| result.partial) else {
                    continue;
                };
                assert!(result.interrupted);
                assert_eq!(
                    (result.depth, result.value),
                    (completed.depth, completed.value)
                );
                let (Some(&chosen), Some(&before)) = (result.best.first(), completed.best.first())
                else {
                    panic!("position {n}: no move at a decision root");
                };
                partial += 1;
                if chosen != before {
                    changed += 1;
                    let deeper = Depth(completed.depth.0 + 1);
                    let (chosen_value, before_value) = (
                        value_after(&mut game, chosen, deeper, mover, LeafEvaluators::standard()),
                        value_after(&mut game, before, deeper, mover, LeafEvaluators::standard()),
                    );
                    assert!(
                        chosen_value > before_value,
                        "position {n}, {nodes} nodes: {chosen:?} ({chosen_value:?}) replaced \
                         {before:?} ({before_value:?}) at {deeper:?}"
                    );
                }
            }
        }
        (partial, changed)
    }
    let (race, skirmish) = (sweep(&race_positions()), sweep(&skirmish_positions()));
    let (partial, changed) = (race.0 + skirmish.0, race.1 + skirmish.1);
    assert!(
        partial > 0 && changed > 0,
        "race {race:?}, skirmish {skirmish:?} (partial, changed)"
    );
}

/// The node-count table at larger depths (race to depth 4, skirmish to depth 6), with
/// search speed; every value is still compared with expectimax. About a minute in release:
/// `scripts/chance-node-counts.sh`.
#[test]
#[ignore]
fn chance_node_counts_deeper() {
    let race = random_positions(&Race::new(), 60, 7);
    let skirmish = random_positions(&Skirmish::new(), 60, 8);
    let no_prepass = ChanceSettings {
        outcome_prepass: false,
        ..settings(Star2, TableReuse::Exact)
    };
    let configurations = every_algorithm(TableReuse::Exact).into_iter().chain([
        no_prepass,
        settings(Star2, TableReuse::SameDepth),
        settings(Star2, TableReuse::DeepEnough),
    ]);
    for settings in configurations {
        let name = label(&settings);
        for (game, totals) in [
            ("race, depth 4", compare_to_depth(&race, settings, 4)),
            (
                "skirmish, depth 6",
                compare_to_depth(&skirmish, settings, 6),
            ),
        ] {
            println!(
                "{game:18} {name:40}: expectimax {:>11} / search {:>9} = {:6.2}x, {} values differ, \
                 {} worse choices, {:.0} k nodes/s",
                totals.reference,
                totals.searched,
                totals.reference as f64 / totals.searched as f64,
                totals.differences,
                totals.worse_choices,
                totals.searched as f64 / totals.seconds / 1000.0,
            );
        }
    }
}

/// One searcher with the default settings kept across all positions, as a game would use it:
/// the table's entries from earlier searches (other roots, other plies) leave every value
/// equal to expectimax.
#[test]
fn a_searcher_reused_across_positions_stays_exact() {
    fn run<G: ChanceGame>(positions: &[(G, Color)]) -> usize {
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        let mut differences = 0;
        for (position, pov) in positions {
            let mut game = position.clone();
            for result in iterations(&mut searcher, &mut game, *pov, MAX_DEPTH) {
                let (expected, _) = expectimax(&mut game, result.depth, *pov);
                differences += usize::from(result.value != expected);
            }
        }
        differences
    }
    assert_eq!(run(&race_positions()), 0);
    assert_eq!(run(&skirmish_positions()), 0);
}

/// The parallel mode (root split over a two-thread pool, one shared table) returns the same
/// exact values as expectimax at every depth, at chance and decision roots, and stops on a
/// node limit.
#[test]
fn the_parallel_search_stays_exact() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    fn run<G: ChanceGame>(pool: &rayon::ThreadPool, positions: &[(G, Color)]) {
        let mut searcher = ChanceSearcher::new(ChanceSettings {
            hash_mb: 4,
            ..ChanceSettings::default()
        });
        for (n, (position, pov)) in positions.iter().enumerate() {
            let mut game = position.clone();
            let mut results = Vec::new();
            let last = searcher.search_reporting(
                Some(pool),
                &mut game,
                *pov,
                &depth_limit(MAX_DEPTH),
                &no_stop(),
                &mut |r| results.push(r.clone()),
            );
            assert_eq!(game.hash(), position.hash());
            assert_eq!(results.len(), MAX_DEPTH as usize);
            for result in &results {
                let (expected, _) = expectimax(&mut game, result.depth, *pov);
                assert_eq!(result.value, expected, "position {n} at {:?}", result.depth);
            }
            for line in &last.outcomes {
                game.play(line.outcome);
                let (expected, _) = expectimax_at_ply(
                    &mut game,
                    Depth(MAX_DEPTH),
                    *pov,
                    1,
                    LeafEvaluators::standard(),
                );
                game.unplay();
                assert_eq!(
                    line.value, expected,
                    "position {n} outcome {:?}",
                    line.outcome
                );
            }
            if let Some(&first) = last.best.first() {
                let chosen = value_after(
                    &mut game,
                    first,
                    Depth(MAX_DEPTH),
                    *pov,
                    LeafEvaluators::standard(),
                );
                assert_eq!(chosen, last.value, "position {n}: {first:?} is not best");
            }
        }
    }
    run(&pool, &race_positions()[..60]);
    run(&pool, &skirmish_positions()[..60]);

    let (mut game, pov, limits) = deep_race_search_of(50_000);
    let mut searcher = ChanceSearcher::new(ChanceSettings::default());
    let result = searcher.search_reporting(
        Some(&pool),
        &mut game,
        pov,
        &limits,
        &no_stop(),
        &mut |_| {},
    );
    assert!(result.interrupted);
    assert!(result.depth.0 >= 1 && result.depth.0 < 20);
    // Each of the three searchers may overrun by less than one poll interval.
    assert!(result.nodes < 50_000 + 3 * 1024, "{}", result.nodes);
}

/// Speed of one deeper search (race, depth 7) on one thread and on two (root split), on
/// the first 8 race positions; both must agree on every value. Run by
/// `scripts/chance-node-counts.sh`.
#[test]
#[ignore]
fn chance_search_speed() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    let positions = race_positions();
    let depth = 7;
    let (mut serial_time, mut parallel_time) = (0.0, 0.0);
    let (mut serial_nodes, mut parallel_nodes) = (0, 0);
    for (position, pov) in &positions[..8] {
        let mut game = position.clone();
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        let start = std::time::Instant::now();
        let serial = searcher.search(&mut game, *pov, &depth_limit(depth), &no_stop());
        serial_time += start.elapsed().as_secs_f64();
        serial_nodes += serial.nodes;
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        let start = std::time::Instant::now();
        let parallel = searcher.search_reporting(
            Some(&pool),
            &mut game,
            *pov,
            &depth_limit(depth),
            &no_stop(),
            &mut |_| {},
        );
        parallel_time += start.elapsed().as_secs_f64();
        parallel_nodes += parallel.nodes;
        assert_eq!(serial.value, parallel.value);
        assert_eq!(serial.depth, parallel.depth);
    }
    println!(
        "speed, race depth {depth}, 8 positions: 1 thread {serial_nodes} nodes in {serial_time:.2} s \
         ({:.0} k nodes/s); 2 threads (root split) {parallel_nodes} nodes in {parallel_time:.2} s \
         ({:.0} k nodes/s)",
        serial_nodes as f64 / serial_time / 1000.0,
        parallel_nodes as f64 / parallel_time / 1000.0
    );
}
