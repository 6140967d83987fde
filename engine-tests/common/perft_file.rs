//! Reading the perft suites in `positions/perft/` (`<sfen> ; <depth> ; <nodes>` lines, `#`
//! comments; games with dice add `; <rolls>`, comma-separated, e.g. `61,33`), shared by the
//! per-variant perft tests.

use shishi::rules::game::Game;
use shishi::rules::perft::perft;
use std::fmt::Debug;
use std::path::PathBuf;

/// One line of a perft suite.
pub struct PerftLine {
    pub line_number: usize,
    pub sfen: String,
    pub depth: u32,
    pub nodes: u64,
    /// The rolls of the turns reached, in order (empty for games without dice).
    #[allow(dead_code)]
    pub rolls: Vec<String>,
}

/// Every line of `positions/perft/<name>`.
pub fn read_suite(name: &str) -> Vec<PerftLine> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("positions/perft")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            assert!(
                (3..=4).contains(&fields.len()),
                "{name} line {}: expected `sfen ; depth ; nodes [; rolls]`",
                i + 1
            );
            PerftLine {
                line_number: i + 1,
                sfen: fields[0].to_string(),
                depth: fields[1].parse().expect("depth"),
                nodes: fields[2].parse().expect("nodes"),
                rolls: fields
                    .get(3)
                    .map(|r| r.split(',').map(|x| x.trim().to_string()).collect())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// Checks one suite line on `pos`, the position read from `line.sfen`: perft at the line's
/// depth gives its count, and leaves the position as it found it (`fingerprint`: the
/// position's SFEN or hash).
#[allow(dead_code)]
pub fn assert_perft_line<G: Game, F: PartialEq + Debug>(
    pos: &mut G,
    line: &PerftLine,
    fingerprint: impl Fn(&G) -> F,
) {
    let before = fingerprint(pos);
    assert_eq!(
        perft(pos, line.depth),
        line.nodes,
        "line {}: perft {} of {}",
        line.line_number,
        line.depth,
        line.sfen
    );
    assert_eq!(fingerprint(pos), before, "perft left the position changed");
}
