//! Behaviour tests of the search through its public interface: mates, material, limits,
//! stopping, legality over random positions, repetition and perpetual check.

use super::*;
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::MoveList;
use crate::rules::variants::shogi::Position;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Instant;

/// `pos` after the USI moves `moves`.
fn played(mut pos: Position, moves: &[&str]) -> Position {
    for m in moves {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.play(mv);
    }
    pos
}

fn run(sfen: &str, moves: &[&str], limits: &Limits, config: &Config) -> (Decision, Vec<Info>) {
    let pos = played(Position::from_sfen(sfen).unwrap(), moves);
    let mut searcher = Searcher::new(8);
    let mut infos = Vec::new();
    let decision = searcher.search(&pos, limits, config, &Control::new(false), &mut |i| {
        infos.push(i.clone())
    });
    (decision, infos)
}

/// `searcher`'s decision on `pos` within `limits`, with the default settings, never
/// stopped, its reports dropped.
pub(crate) fn quiet_search<G: SearchGame>(
    searcher: &mut Searcher,
    pos: &G,
    limits: &Limits,
) -> Decision {
    searcher.search(
        pos,
        limits,
        &Config::default(),
        &Control::new(false),
        &mut |_| {},
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn best_usi(sfen: &str, decision: &Decision) -> String {
    let pos = Position::from_sfen(sfen).unwrap();
    match decision {
        Decision::Move { best, .. } => pos.move_to_usi(*best),
        other => format!("{other:?}"),
    }
}

fn last_exact(infos: &[Info]) -> &Info {
    infos
        .iter()
        .rev()
        .find(|i| i.bound == Bound::Exact && i.multipv == 1)
        .expect("a completed iteration")
}

#[test]
fn the_searcher_keeps_the_value_of_the_move_it_chose() {
    let mut searcher = Searcher::new(8);
    assert_eq!(searcher.last_score(), None);
    let mate = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    quiet_search(&mut searcher, &mate, &depth(3));
    assert_eq!(searcher.last_score(), Some(Score::Mate(1)));
    let mut infos = Vec::new();
    let start = Position::startpos();
    searcher.search(
        &start,
        &depth(4),
        &Config::default(),
        &Control::new(false),
        &mut |i| infos.push(i.clone()),
    );
    assert_eq!(searcher.last_score(), Some(last_exact(&infos).score));
    // No legal move: no value.
    let mated = Position::from_sfen("8k/8G/8L/9/9/9/9/9/K8 w - 1").unwrap();
    quiet_search(&mut searcher, &mated, &depth(2));
    assert_eq!(searcher.last_score(), None);
}

#[test]
fn finds_mate_in_one() {
    let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let (decision, infos) = run(sfen, &[], &depth(3), &Config::default());
    assert_eq!(best_usi(sfen, &decision), "G*5b");
    assert_eq!(last_exact(&infos).score, Score::Mate(1));
}

#[test]
fn finds_mate_in_three() {
    let sfen = MATE_IN_THREE;
    let (decision, infos) = run(sfen, &[], &depth(5), &Config::default());
    let info = last_exact(&infos);
    assert_eq!(
        info.score,
        Score::Mate(3),
        "{:?}",
        best_usi(sfen, &decision)
    );
    assert_eq!(info.pv.len(), 3);
    // The PV ends in mate.
    let mut pos = Position::from_sfen(sfen).unwrap();
    for mv in &info.pv {
        pos.play(*mv);
    }
    assert!(!pos.has_legal_move());
}

#[test]
fn root_split_finds_the_same_mate_as_one_thread() {
    let sfen = MATE_IN_THREE;
    let (one, one_infos) = run(sfen, &[], &depth(6), &Config::default());
    for threads in [2, 3] {
        let config = Config {
            threads,
            parallel: ParallelMode::RootSplit,
            ..Config::default()
        };
        let (split, infos) = run(sfen, &[], &depth(6), &config);
        let pos = Position::from_sfen(sfen).unwrap();
        let Decision::Move { best, .. } = split else {
            panic!("{split:?}");
        };
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        assert!(legal.contains(&best));
        assert_eq!(last_exact(&infos).score, last_exact(&one_infos).score);
        assert_eq!(last_exact(&infos).score, Score::Mate(3));
        assert_eq!(best_usi(sfen, &split), best_usi(sfen, &one));
        // The iterations that were split (depth 4 on) completed.
        assert!(infos
            .iter()
            .any(|i| i.depth >= 5 && i.bound == Bound::Exact));
    }
}

#[test]
fn root_split_keeps_time_and_plays_legal_moves() {
    let mut rng = StdRng::seed_from_u64(77);
    let mut searcher = Searcher::new(8);
    let config = Config {
        threads: 2,
        parallel: ParallelMode::RootSplit,
        network_delay: Duration::ZERO,
        ..Config::default()
    };
    let limits = Limits {
        movetime: Some(Duration::from_millis(150)),
        ..Limits::default()
    };
    let mut pos = Position::startpos();
    for _ in 0..6 {
        let start = Instant::now();
        let decision = searcher.search(&pos, &limits, &config, &Control::new(false), &mut |_| {});
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_millis(450), "{elapsed:?}");
        let Decision::Move { best, .. } = decision else {
            panic!("{decision:?}");
        };
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        assert!(legal.contains(&best), "{}", pos.to_sfen());
        // Wander off the best line so that positions differ.
        let moves = legal.to_vec();
        pos.play(*moves.choose(&mut rng).unwrap());
        if !pos.has_legal_move() {
            break;
        }
    }
}

/// Sente mates in three plies (pawn takes knight and promotes, king to 2a, gold drop).
const MATE_IN_THREE: &str = "8k/9/8n/8P/9/8L/9/9/K8 b 2GP 1";

#[test]
fn resigns_without_legal_moves() {
    // Gote is mated (gold on 5b backed by a pawn), gote to move.
    let (decision, infos) = run(
        "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
        &[],
        &depth(3),
        &Config::default(),
    );
    assert_eq!(decision, Decision::Resign);
    assert!(infos.is_empty());
}

#[test]
fn keeps_an_attacked_rook() {
    // The rook on 5e is attacked by a pawn that a gold defends: taking it loses the rook.
    let sfen = "4k4/9/4g4/4p4/4R4/9/9/9/4K4 b - 1";
    let (decision, infos) = run(sfen, &[], &depth(5), &Config::default());
    let best = best_usi(sfen, &decision);
    assert!(
        best.starts_with("5e") && best != "5e5d" && best != "5e5d+",
        "{best}"
    );
    match last_exact(&infos).score {
        Score::Cp(cp) => assert!(cp > 300, "{cp}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn obeys_the_depth_limit() {
    let (_, infos) = run(START, &[], &depth(4), &Config::default());
    assert!(infos.iter().all(|i| i.depth <= 4));
    assert_eq!(last_exact(&infos).depth, 4);
}

const START: &str = crate::rules::variants::shogi::notation::START_SFEN;

#[test]
fn obeys_the_node_limit() {
    let pos = Position::startpos();
    let mut searcher = Searcher::new(8);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let decision = quiet_search(&mut searcher, &pos, &limits);
    assert!(matches!(decision, Decision::Move { .. }));
    let nodes = searcher.last_nodes();
    assert!((20_000..20_200).contains(&nodes), "{nodes}");
}

/// Searches `pos` while another thread waits `delay`, then gives `control` a `signal` (a stop
/// or a ponderhit): the decision, when the search returned and when the signal was given.
fn search_signalled(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    config: &Config,
    control: &Control,
    delay: Duration,
    signal: fn(&Control),
) -> (Decision, Instant, Instant) {
    let signaller = control.clone();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(delay);
        signal(&signaller);
        Instant::now()
    });
    let decision = searcher.search(pos, limits, config, control, &mut |_| {});
    let returned = Instant::now();
    (decision, returned, handle.join().unwrap())
}

#[test]
fn stops_promptly_during_an_infinite_search() {
    use ParallelMode::{LazySmp, RootSplit};
    for (threads, parallel, sfen) in [
        (1, LazySmp, START),
        (2, LazySmp, START),
        (2, RootSplit, START),
        (3, RootSplit, START),
        // Every piece in gote's hand: hundreds of drops at every node.
        (1, LazySmp, "4k4/9/4P4/9/9/9/9/9/4K4 w rbgsnlp 1"),
        (2, RootSplit, "4k4/9/4P4/9/9/9/9/9/4K4 w rbgsnlp 1"),
    ] {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut searcher = Searcher::new(8);
        let control = Control::new(false);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let config = Config {
            threads,
            parallel,
            ..Config::default()
        };
        let start = Instant::now();
        let (decision, returned, stopped_at) = search_signalled(
            &mut searcher,
            &pos,
            &limits,
            &config,
            &control,
            Duration::from_millis(300),
            Control::stop,
        );
        assert!(start.elapsed() >= Duration::from_millis(300));
        let lag = returned.saturating_duration_since(stopped_at);
        assert!(
            lag < Duration::from_millis(100),
            "{threads} threads {parallel:?}: {lag:?}"
        );
        assert!(matches!(decision, Decision::Move { .. }));
    }
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_time() {
    let pos = Position::startpos();
    let mut searcher = Searcher::new(8);
    let control = Control::new(true);
    let limits = Limits {
        movetime: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let config = Config {
        network_delay: Duration::ZERO,
        ..Config::default()
    };
    let (decision, returned, hit_at) = search_signalled(
        &mut searcher,
        &pos,
        &limits,
        &config,
        &control,
        Duration::from_millis(400),
        Control::ponderhit,
    );
    let after_hit = returned.saturating_duration_since(hit_at);
    assert!(returned > hit_at, "returned before ponderhit");
    assert!(
        after_hit >= Duration::from_millis(150) && after_hit < Duration::from_millis(1000),
        "{after_hit:?}"
    );
    assert!(matches!(decision, Decision::Move { .. }));
}

#[test]
fn never_returns_an_illegal_move_in_random_positions() {
    legal_decisions_in_random_positions(params::SearchParams::default(), 300);
}

/// The techniques that are off by default, all on at once (singular extensions from depth 2
/// and ProbCut from depth 3, so that small searches use them).
fn every_switch_on() -> params::SearchParams {
    params::SearchParams {
        singular_depth: 2,
        quiet_see_margin: 25,
        capture_history: 1,
        probcut_depth: 3,
        continuation_history: 1,
        iir_depth: 4,
        table_eval: 1,
        inner_drop_mates: 1,
        quiescence_table_move: 1,
        threat_reduction: 1,
        history_pruning: 3000,
        futility_at_reduced_depth: 1,
        aspiration_two_iterations: 1,
        tt_pv: 1,
        quiescence_drop_mates: 1,
        net_profile: 1,
        ..params::SearchParams::default()
    }
}

#[test]
fn every_switch_on_still_returns_legal_moves_and_finds_the_mate() {
    legal_decisions_in_random_positions(every_switch_on(), 150);
    let config = Config {
        params: every_switch_on(),
        ..Config::default()
    };
    let (_, infos) = run(MATE_IN_THREE, &[], &depth(5), &config);
    assert_eq!(last_exact(&infos).score, Score::Mate(3));
}

/// Parameters whose effect the shallow searches of `every_search_parameter_changes_the_tree`
/// do not reach; each has a test of its own at a greater depth.
const TESTED_DEEPER: &[&str] = &["Search_QuiescenceTableMove"];

#[test]
fn the_table_move_first_in_quiescence_changes_the_tree() {
    // With the staged picker's capture order the table's capture is nearly always the one
    // ordered first anyway: a tactical middlegame (pieces hanging on both sides) at depth 9
    // is a tree where it is not.
    let pos = Position::from_sfen(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    )
    .unwrap();
    let nodes = |on: i32| {
        let mut params = params::SearchParams::default();
        params.set("Search_QuiescenceTableMove", on).unwrap();
        let config = Config {
            params,
            ..Config::default()
        };
        let mut searcher = Searcher::new(8);
        searcher.search(&pos, &depth(9), &config, &Control::new(false), &mut |_| {});
        searcher.last_nodes()
    };
    assert_ne!(nodes(0), nodes(1));
}

#[test]
fn every_search_parameter_changes_the_tree() {
    // Three positions searched to a fixed depth one after the other by one searcher (so that the
    // later searches see what the earlier kept), their node counts and best lines together:
    // a quiet middlegame after a common opening, one where both bishops and a rook can
    // capture (so that the parameters about captures have captures to order and cut), and
    // an endgame race with pieces in hand (drop mates and checks in quiescence).
    let positions = [
        played(
            Position::startpos(),
            &[
                "7g7f", "3c3d", "2g2f", "4c4d", "3i4h", "8b4b", "5i6h", "5a6b", "6h7h",
            ],
        ),
        played(
            Position::startpos(),
            &[
                "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
                "2h2d",
            ],
        ),
        Position::from_sfen(
            "l4k2l/4g4/p1n1pp1p1/2ps2p1p/1P5P1/P1P1PPP1P/3PS1N2/1+r2G1K2/L1S2G2L w BGNrbsn2p 60",
        )
        .unwrap(),
    ];
    // The endgame's tree is large: it is searched 2 plies shallower.
    let depths = [8, 8, 6];
    let tree = |params: params::SearchParams| {
        let config = Config {
            params,
            ..Config::default()
        };
        let mut searcher = Searcher::new(8);
        let mut trees = Vec::new();
        for (pos, &d) in positions.iter().zip(&depths) {
            let mut infos = Vec::new();
            searcher.search(pos, &depth(d), &config, &Control::new(false), &mut |i| {
                infos.push(i.clone())
            });
            trees.push((searcher.last_nodes(), last_exact(&infos).pv.clone()));
        }
        trees
    };
    // A parameter that acts only where a switch is on is tried with the switch on, in both
    // searches compared.
    let enabling = |name: &str| -> Option<(&str, i32)> {
        match name {
            "Search_QuietSeeMaxDepth" => Some(("Search_QuietSeeMargin", 25)),
            "Search_CorrectionMax" => Some(("Search_CorrectionHistory", 1)),
            "Search_LmrTtPv" => Some(("Search_TtPv", 1)),
            "Search_SingularMargin" | "Search_SingularTableDepth" => {
                Some(("Search_SingularDepth", 4))
            }
            _ => None,
        }
    };
    let with = |base: Option<(&str, i32)>, name: &str, value: i32| {
        let mut params = params::SearchParams::default();
        if let Some((switch, on)) = base {
            params.set(switch, on).unwrap();
        }
        params.set(name, value).unwrap();
        params
    };
    let plain = tree(params::SearchParams::default());
    let mut unchanged = Vec::new();
    for spec in params::SearchParams::SPECS
        .iter()
        .filter(|s| !s.governs_time() && !TESTED_DEEPER.contains(&s.name))
    {
        let base = enabling(spec.name);
        let reference = match base {
            Some(_) => tree(with(base, spec.name, spec.default)),
            None => plain.clone(),
        };
        let changes = spec
            .trial_values()
            .into_iter()
            .any(|v| tree(with(base, spec.name, v)) != reference);
        if !changes {
            unchanged.push(spec.name);
        }
    }
    assert!(
        unchanged.is_empty(),
        "these parameters searched the same trees at every value tried: {unchanged:?}"
    );
}

fn legal_decisions_in_random_positions(params: params::SearchParams, count: usize) {
    let mut rng = StdRng::seed_from_u64(2024);
    let mut searcher = Searcher::new(4);
    let mut searched = 0;
    while searched < count {
        let mut pos = Position::startpos();
        let plies = 20 + searched % 100;
        for _ in 0..plies {
            let mut legal = MoveList::new();
            pos.generate_legal(&mut legal);
            match legal.choose(&mut rng) {
                Some(mv) => pos.play(*mv),
                None => break,
            }
        }
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        let limits = Limits {
            depth: Some(1 + (searched % 4) as u32),
            nodes: Some(3000),
            ..Limits::default()
        };
        let config = Config {
            threads: 1 + searched % 2,
            multipv: 1 + searched % 3,
            params,
            ..Config::default()
        };
        let mut infos = Vec::new();
        let decision = searcher.search(&pos, &limits, &config, &Control::new(false), &mut |i| {
            infos.push(i.clone())
        });
        match decision {
            Decision::Resign => assert!(legal.is_empty()),
            Decision::DeclareWin => panic!("no entering-king declarations yet"),
            Decision::Move { best, ponder } => {
                assert!(legal.contains(&best), "{} {:?}", pos.to_sfen(), best);
                if let Some(p) = ponder {
                    let mut after = pos.clone();
                    after.play(best);
                    let mut replies = MoveList::new();
                    after.generate_legal(&mut replies);
                    assert!(replies.contains(&p));
                }
            }
        }
        for info in &infos {
            let mut replay = pos.clone();
            for mv in &info.pv {
                let mut moves = MoveList::new();
                replay.generate_legal(&mut moves);
                assert!(moves.contains(mv), "illegal PV move in {}", pos.to_sfen());
                replay.play(*mv);
            }
        }
        searched += 1;
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let config = Config {
        multipv: 3,
        ..Config::default()
    };
    let (_, infos) = run(START, &[], &depth(4), &config);
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 4).collect();
    let lines: Vec<&Info> = (1..=3)
        .map(|k| *last.iter().rev().find(|i| i.multipv == k).unwrap())
        .collect();
    assert_ne!(lines[0].pv[0], lines[1].pv[0]);
    assert_ne!(lines[1].pv[0], lines[2].pv[0]);
    let cp = |i: &Info| match i.score {
        Score::Cp(c) => c,
        Score::Mate(_) => panic!(),
    };
    assert!(cp(lines[0]) >= cp(lines[1]) && cp(lines[1]) >= cp(lines[2]));
}

/// Gote king in the corner and a pawn (no stalemate), sente rook on 9b.
const ROOK_AND_KING: &str = "8k/R8/p8/9/9/9/9/9/4K4 b - 1";

/// The exact score of `mv`, searched alone to depth 3 from [`ROOK_AND_KING`] after `history`.
fn score_of_only(mv: &str, history: &[&str]) -> Score {
    let pos = played(Position::from_sfen(ROOK_AND_KING).unwrap(), history);
    let limits = Limits {
        depth: Some(3),
        root_moves: vec![pos.parse_usi_move(mv).unwrap()],
        ..Limits::default()
    };
    let (_, infos) = run(ROOK_AND_KING, history, &limits, &Config::default());
    last_exact(&infos).score
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Sente checked on both of its moves of the cycle; repeating with another check loses.
    let history = ["9b9a", "1a1b", "9a9b", "1b1a"];
    assert_eq!(
        score_of_only("9b9a", &history),
        Score::Cp(-(alphabeta::PERPETUAL_WIN - 1))
    );
}

#[test]
fn quiet_repetition_is_a_draw() {
    let history = ["9b8b", "1a2a", "8b9b", "2a1a"];
    assert_eq!(score_of_only("9b8b", &history), Score::Cp(0));
    // Without the history the same move is worth the extra rook.
    assert!(matches!(score_of_only("9b8b", &[]), Score::Cp(cp) if cp > 500));
}

#[test]
fn max_moves_to_draw_scores_a_draw() {
    let config = Config {
        max_moves_to_draw: 2,
        ..Config::default()
    };
    let (_, infos) = run(ROOK_AND_KING, &[], &depth(3), &config);
    assert_eq!(last_exact(&infos).score, Score::Cp(0));
}

#[test]
fn hash_size_is_respected() {
    let mut searcher = Searcher::new(3);
    assert!(searcher.hash_bytes() <= 3 << 20);
    searcher.set_hash_size(17);
    assert!(searcher.hash_bytes() <= 17 << 20 && searcher.hash_bytes() > 16 << 20);
}

#[test]
fn the_searcher_can_move_to_a_search_thread() {
    fn assert_send<T: Send + 'static>() {}
    assert_send::<Searcher>();
    assert_send::<Control>();
}

#[test]
fn drop_mates_in_one_are_seen() {
    for (sfen, mate) in [
        ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", true),
        // The drop square is not defended: the king takes.
        ("4k4/9/9/9/9/9/9/9/4K4 b G 1", false),
        // A pawn drop would mate, but that is illegal.
        ("4k4/9/4P4/9/9/9/9/9/4K4 b P 1", false),
        // Rook drop on 5b defended by the pawn, king boxed in by its own pieces.
        ("3nkn3/9/4P4/9/9/9/9/9/4K4 b R 1", true),
        // Rook drop on 5c: the king's step back to 5a is covered through its own square.
        ("3g1g3/3lkl3/9/4P4/9/9/9/9/4K4 b R 1", true),
        // A lance there covers 5a the same way, but not 4c and 6c; a gold not 5a.
        ("3g1g3/3lkl3/9/4P4/9/9/9/9/4K4 b L 1", false),
        ("3g1g3/3lkl3/9/4P4/9/9/9/9/4K4 b G 1", false),
    ] {
        let mut pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(SearchGame::quiet_mate_in_one(&mut pos), mate, "{sfen}");
        assert_eq!(quiet_drop_mate_by_trial(&mut pos), mate, "{sfen}");
    }
}

/// `quiet_mate_in_one` as its definition reads, by trial: some legal drop (not a pawn, not a
/// knight) on a square next to the enemy king that a piece of ours already attacks gives
/// check and leaves no legal reply; never when we are in check.
fn quiet_drop_mate_by_trial(pos: &mut Position) -> bool {
    use crate::rules::variants::shogi::Kind;
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(us.flip()) else {
        return false;
    };
    if pos.in_check() {
        return false;
    }
    let occupied = pos.occupied();
    let next_to_king = pos.tables().step_attacks(us, Kind::King, king);
    let mut legal = MoveList::new();
    pos.generate_legal(&mut legal);
    legal.iter().any(|&mv| {
        if mv.from().is_some()
            || matches!(pos.landing_piece(mv).kind(), Kind::Pawn | Kind::Knight)
            || !next_to_king.contains(mv.to())
            || !pos.attackers_to(mv.to(), us, occupied).any()
        {
            return false;
        }
        pos.play(mv);
        let mated = pos.in_check() && !pos.has_legal_move();
        pos.unplay();
        mated
    })
}

#[test]
fn drop_mates_in_one_agree_with_trying_every_drop() {
    let (mut positions, mut mates) = (0, 0);
    crate::rules::game::random_games(&Position::startpos(), 11, (300, 160), |pos, legal, rng| {
        let expected = quiet_drop_mate_by_trial(pos);
        assert_eq!(
            SearchGame::quiet_mate_in_one(pos),
            expected,
            "{}",
            pos.to_sfen()
        );
        positions += 1;
        mates += usize::from(expected);
        legal.choose(rng).copied()
    });
    // The comparison saw mates, not only their absence.
    assert!(
        positions > 10_000 && mates >= 20,
        "{positions} positions, {mates} mates"
    );
}

#[test]
fn byoyomi_is_used_but_not_overrun() {
    let pos = Position::startpos();
    let mut searcher = Searcher::new(8);
    let limits = Limits {
        clock: Clock {
            time_left: [Some(Duration::ZERO), Some(Duration::ZERO)],
            increment: [None, None],
            byoyomi: Some(Duration::from_millis(600)),
            moves_to_go: None,
        },
        ..Limits::default()
    };
    let config = Config {
        network_delay: Duration::from_millis(50),
        network_delay2: Duration::from_millis(200),
        ..Config::default()
    };
    let start = Instant::now();
    let decision = searcher.search(&pos, &limits, &config, &Control::new(false), &mut |_| {});
    let elapsed = start.elapsed();
    assert!(matches!(decision, Decision::Move { .. }));
    assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(600), "{elapsed:?}");
}

#[test]
fn kept_history_carries_to_the_next_search_until_cleared() {
    let pos = Position::startpos();
    let nodes_of_three_searches = |keep: i32| {
        let mut config = Config::default();
        config.params.keep_history = keep;
        let mut searcher = Searcher::new(8);
        let mut counts = Vec::new();
        for clear_first in [false, false, true] {
            if clear_first {
                searcher.clear();
            }
            searcher.search(&pos, &depth(7), &config, &Control::new(false), &mut |_| {});
            counts.push(searcher.last_nodes());
        }
        counts
    };
    let fresh = nodes_of_three_searches(0);
    let kept = nodes_of_three_searches(1);
    // The first search starts from nothing either way, and so does one after a clear.
    assert_eq!(fresh[0], kept[0]);
    assert_eq!(fresh[2], kept[2]);
    assert_eq!(fresh[0], fresh[2]);
    // The second search starts from the first one's histories only when they are kept.
    assert_ne!(fresh[1], kept[1]);
}

#[test]
fn a_table_whose_fill_was_stopped_is_made_again_at_the_next_resize() {
    let mut searcher = super::table_memory::interruptible(|| true, || Searcher::new(4));
    assert!(searcher.table_interrupted());
    assert_eq!(searcher.tt.allocated_bytes(), 64);
    // The same size again, with nothing to interrupt it: the table is made whole.
    searcher.set_hash_size(4);
    assert!(!searcher.table_interrupted());
    assert_eq!(searcher.tt.allocated_bytes(), 4 << 20);
    // A search on a stopped table still answers.
    let mut searcher = super::table_memory::interruptible(|| true, || Searcher::new(4));
    let pos = Position::from_sfen(START).unwrap();
    let control = Control::new(false);
    let decision = searcher.search(&pos, &depth(2), &Config::default(), &control, &mut |_| {});
    assert!(matches!(decision, Decision::Move { .. }), "{decision:?}");
}

#[test]
fn a_new_net_forgets_what_the_other_evaluation_stored() {
    let pos = Position::startpos();
    let net = crate::eval::shogi_choice::ShogiEvaluator::builtin_net().net;
    let mut fresh = Searcher::new(8);
    quiet_search(&mut fresh, &pos, &depth(6));
    let tables_alone = fresh.last_nodes();

    let mut switched = Searcher::new(8);
    switched.set_network(net.clone());
    quiet_search(&mut switched, &pos, &depth(6));
    let net_first = switched.last_nodes();
    // The same net again keeps what it stored: the repeated search is smaller.
    switched.set_network(net);
    quiet_search(&mut switched, &pos, &depth(6));
    assert!(switched.last_nodes() < net_first);
    // Back to the tables: the search is the one a fresh searcher makes.
    switched.set_network(None);
    quiet_search(&mut switched, &pos, &depth(6));
    assert_eq!(switched.last_nodes(), tables_alone);
}

/// A 12×12 game searched with a net of its own: the search keeps the accumulator move by
/// move (checked against a recount at every evaluation in debug builds), the net changes
/// the tree, and setting the other 12×12 game's net or none changes back.
#[test]
fn the_12x12_games_search_with_their_own_nets() {
    use crate::eval::nnue::features::{FeatureSet, NetGame};
    use crate::rules::variants::{chu, kagamigi};
    fn searched<P: SearchGame>(searcher: &mut Searcher, pos: &P) -> u64 {
        searcher.clear();
        let decision = searcher.search(
            pos,
            &depth(3),
            &Config::default(),
            &Control::new(false),
            &mut |_| {},
        );
        assert!(matches!(decision, Decision::Move { .. }), "{decision:?}");
        searcher.last_nodes()
    }
    let chu_start = chu::Position::startpos();
    let kagamigi_start = kagamigi::Position::startpos();
    let mut searcher = Searcher::new(8);
    let chu_tables = searched(&mut searcher, &chu_start);
    let kagamigi_tables = searched(&mut searcher, &kagamigi_start);
    let chu_net = Arc::new(Network::random(FeatureSet::ChuP, 2));
    searcher.set_game_network(NetGame::Chu, Some(chu_net));
    assert_ne!(searched(&mut searcher, &chu_start), chu_tables);
    assert_eq!(searched(&mut searcher, &kagamigi_start), kagamigi_tables);
    let kagamigi_net = Arc::new(Network::random(FeatureSet::KagamigiP, 2));
    searcher.set_game_network(NetGame::Kagamigi, Some(kagamigi_net));
    assert_ne!(searched(&mut searcher, &kagamigi_start), kagamigi_tables);
    searcher.set_game_network(NetGame::Chu, None);
    assert_eq!(searched(&mut searcher, &chu_start), chu_tables);
}
