//! The mate suite: every problem of `positions/mate/shogi.mate` must be solved by
//! `search::mate::solve` with a line that replays as a forced mate, and no position of
//! `positions/mate/nomate.mate` may be reported as a mate. The ignored `mate_suite_timing`
//! test prints per-problem solve times (run it with `cargo test --release --test mate_suite
//! -- --ignored --nocapture`).

use shishi::rules::variants::shogi::Position;
use shishi::search::mate::{
    line_to_usi, solve, solve_with_stats, verify_mate_line, MateAnswer, DEFAULT_TABLE_MIB,
};
use shishi::search::Control;
use std::time::{Duration, Instant};

/// The time each problem may take in the suite.
const LIMIT: Duration = Duration::from_secs(10);

/// How much longer than the file's shortest mate a returned line may be (plies).
const SLACK: usize = 10;

struct Problem {
    line: usize,
    sfen: String,
    /// The shortest mate length from the file, if given.
    plies: Option<usize>,
    solution: String,
}

fn read(name: &str) -> Vec<Problem> {
    let path = format!("{}/positions/mate/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut problems = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(fields.len() >= 2, "{name}:{}: malformed line", index + 1);
        problems.push(Problem {
            line: index + 1,
            sfen: fields[0].to_string(),
            plies: fields[1].parse().ok(),
            solution: fields.get(2).map_or(String::new(), |s| s.to_string()),
        });
    }
    problems
}

fn position(problem: &Problem) -> Position {
    Position::from_sfen(&problem.sfen)
        .unwrap_or_else(|e| panic!("line {}: bad sfen {}: {e:?}", problem.line, problem.sfen))
}

#[test]
fn the_files_solutions_verify_with_our_rules() {
    let problems = read("shogi.mate");
    assert!(problems.len() >= 45, "only {} problems", problems.len());
    for p in &problems {
        let pos = position(p);
        let mut replay = pos.clone();
        let mut line = Vec::new();
        for text in p.solution.split_whitespace() {
            let mv = replay
                .parse_usi_move(text)
                .unwrap_or_else(|e| panic!("line {}: {text}: {e:?}", p.line));
            replay.play(mv);
            line.push(mv);
        }
        verify_mate_line(&pos, &line).unwrap_or_else(|e| panic!("line {}: {e}", p.line));
        assert_eq!(Some(line.len()), p.plies, "line {}: length field", p.line);
    }
}

#[test]
fn every_problem_is_solved_with_a_verified_line() {
    let problems = read("shogi.mate");
    let mut failures = Vec::new();
    let start = Instant::now();
    for p in &problems {
        let pos = position(p);
        let began = Instant::now();
        let answer = solve(&pos, Some(LIMIT), &Control::new(false));
        let took = began.elapsed();
        match answer {
            MateAnswer::Mate(line) => {
                if let Err(e) = verify_mate_line(&pos, &line) {
                    failures.push(format!("line {}: line does not verify: {e}", p.line));
                    continue;
                }
                let text = line_to_usi(&pos, &line);
                if let Some(plies) = p.plies {
                    if line.len() > plies + SLACK {
                        failures.push(format!(
                            "line {}: {} plies found, {} in the file: {text}",
                            p.line,
                            line.len(),
                            plies
                        ));
                    }
                    if line.len() < plies {
                        eprintln!(
                            "line {}: shorter than the file's solution ({} < {plies}): {text}",
                            p.line,
                            line.len()
                        );
                    }
                }
            }
            other => failures.push(format!(
                "line {}: {other:?} after {took:?} for {}",
                p.line, p.sfen
            )),
        }
    }
    eprintln!("{} problems in {:?}", problems.len(), start.elapsed());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_mate_positions_are_not_reported_as_mate() {
    let problems = read("nomate.mate");
    assert!(!problems.is_empty());
    for p in &problems {
        let pos = position(p);
        let answer = solve(&pos, Some(LIMIT), &Control::new(false));
        match &answer {
            MateAnswer::Mate(line) => panic!(
                "line {}: reported mate {} for {}",
                p.line,
                line_to_usi(&pos, line),
                p.sfen
            ),
            MateAnswer::Timeout => eprintln!("line {}: timeout (not proven)", p.line),
            MateAnswer::NoMate => {}
        }
        assert_eq!(answer, MateAnswer::NoMate, "line {}", p.line);
    }
}

/// Per-problem solve times; meaningful in a release build.
#[test]
#[ignore]
fn mate_suite_timing() {
    let problems = read("shogi.mate");
    let mut by_length: std::collections::BTreeMap<usize, Vec<Duration>> = Default::default();
    let total = Instant::now();
    let mut total_nodes = 0;
    for p in &problems {
        let pos = position(p);
        let (answer, stats) =
            solve_with_stats(&pos, Some(LIMIT), &Control::new(false), DEFAULT_TABLE_MIB);
        let took = stats.elapsed;
        total_nodes += stats.nodes;
        let found = match &answer {
            MateAnswer::Mate(line) => format!("mate {} plies", line.len()),
            other => format!("{other:?}"),
        };
        println!(
            "line {:4} {:>3} plies: {:>10.3} ms {:>9} nodes  {found}",
            p.line,
            p.plies.map_or("?".to_string(), |n| n.to_string()),
            took.as_secs_f64() * 1e3,
            stats.nodes
        );
        by_length
            .entry(p.plies.unwrap_or(0))
            .or_default()
            .push(took);
    }
    for (plies, times) in &mut by_length {
        times.sort();
        println!(
            "{plies:>3} plies: {} problems, median {:.3} ms, max {:.3} ms",
            times.len(),
            times[times.len() / 2].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3
        );
    }
    println!(
        "total {:.3} ms, {total_nodes} nodes",
        total.elapsed().as_secs_f64() * 1e3
    );
    // The speed bar: every mate in 7 plies or fewer within 100 ms (release builds only).
    if !cfg!(debug_assertions) {
        for (plies, times) in &by_length {
            let slowest = times[times.len() - 1];
            if *plies <= 7 {
                assert!(
                    slowest < Duration::from_millis(100),
                    "{plies} plies: {slowest:?}"
                );
            }
        }
    }
}

/// Solves the position in the `MATE_SFEN` environment variable with logging (`RUST_LOG`).
#[test]
#[ignore]
fn solve_one_from_env() {
    let _ = env_logger::builder().is_test(true).try_init();
    let Ok(sfen) = std::env::var("MATE_SFEN") else {
        return;
    };
    let pos = Position::from_sfen(&sfen).expect("a valid MATE_SFEN");
    let began = Instant::now();
    let answer = solve(&pos, Some(LIMIT), &Control::new(false));
    let text = match &answer {
        MateAnswer::Mate(line) => format!("mate {} plies: {}", line.len(), line_to_usi(&pos, line)),
        other => format!("{other:?}"),
    };
    println!("{text} ({:?})", began.elapsed());
}

/// Every Chu Kagamigi problem of `positions/mate/chukagamigi.mate` (proven a forced mate by
/// `engine-tests/kagamigi_reference.rs`) is solved by the same df-pn solver, with a line that
/// replays as a mate under the engine's rules and is no longer than the file's.
#[test]
fn every_kagamigi_problem_is_solved_with_a_verified_line() {
    use shishi::rules::variants::kagamigi;
    let problems = read("chukagamigi.mate");
    assert!(problems.len() >= 20, "only {} problems", problems.len());
    let mut failures = Vec::new();
    for p in &problems {
        let pos = kagamigi::Position::from_sfen(&p.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e:?}", p.line));
        match solve(&pos, Some(LIMIT), &Control::new(false)) {
            MateAnswer::Mate(line) => {
                if let Err(e) = verify_mate_line(&pos, &line) {
                    failures.push(format!("line {}: {e}", p.line));
                } else if p.plies.is_some_and(|plies| line.len() > plies) {
                    failures.push(format!(
                        "line {}: {} plies, the file has {:?}: {}",
                        p.line,
                        line.len(),
                        p.plies,
                        line_to_usi(&pos, &line)
                    ));
                }
            }
            other => failures.push(format!("line {}: {other:?}", p.line)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
