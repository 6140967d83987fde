//! Reading USI command lines: splitting into tokens, `position`, `go` (with its many shapes
//! and malformed values), `setoption` (value to the end of the line) and the optional time
//! tokens of `ponderhit`. Pure functions, no I/O: the caller reports the errors.

use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::search::time_text::{parse_time, TimeUnit};
use crate::search::{Clock, Limits};
use std::time::Duration;

/// The tokens of a line with the byte offset where each starts (for "rest of line" values).
pub fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// What `go mate` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    Time(Duration),
    Infinite,
}

/// A parsed `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub limits: Limits,
    pub ponder: bool,
    /// `go mate …`: solve for mate instead of searching.
    pub mate: Option<MateLimit>,
}

/// The keywords of `go` (a value never takes their place).
pub const GO_KEYWORDS: &[&str] = &[
    "ponder",
    "infinite",
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "nodes",
    "depth",
    "mate",
    "searchmoves",
];

/// Reads a time in milliseconds leniently, as every protocol time is read
/// ([`crate::search::time_text`]): negative values count as 0, decimals (`0.9`, seen from
/// bots) are rounded, and values beyond the longest time are clamped to it.
fn parse_millis(text: &str) -> Option<Duration> {
    parse_time(text, TimeUnit::Millis)
}

/// Reads the clock tokens (`btime wtime binc winc byoyomi`) at `tokens[*i]`, if it is one;
/// advances `*i` past its value. Returns `None` if the token is not a clock token.
fn clock_token(
    clock: &mut Clock,
    tokens: &[&str],
    i: &mut usize,
    warnings: &mut Vec<String>,
) -> Option<()> {
    let key = tokens[*i];
    let slot = match key {
        "btime" => &mut clock.time_left[Color::Sente.index()],
        "wtime" => &mut clock.time_left[Color::Gote.index()],
        "binc" => &mut clock.increment[Color::Sente.index()],
        "winc" => &mut clock.increment[Color::Gote.index()],
        "byoyomi" => &mut clock.byoyomi,
        _ => return None,
    };
    if let Some(ms) = value_after(tokens, i, key, warnings).and_then(|v| {
        let parsed = parse_millis(v);
        if parsed.is_none() {
            warnings.push(format!("{key}: {v:?} is not a time in ms"));
        }
        parsed
    }) {
        *slot = Some(ms);
    }
    Some(())
}

/// The value token after the keyword at `tokens[*i]`, consuming it; `None` (with a warning)
/// if the line ends or the next token is another keyword.
fn value_after<'a>(
    tokens: &[&'a str],
    i: &mut usize,
    key: &str,
    warnings: &mut Vec<String>,
) -> Option<&'a str> {
    match tokens.get(*i + 1) {
        Some(v) if !GO_KEYWORDS.contains(v) => {
            *i += 1;
            Some(v)
        }
        _ => {
            warnings.push(format!("{key} without a value"));
            None
        }
    }
}

/// Parses the arguments of `go`; `parse_move` reads the moves of `searchmoves` in the current
/// position. Malformed tokens are skipped with a warning (the refused `searchmoves` moves
/// and the unknown tokens one warning each, and never more than [`MAX_WARNINGS`] lines);
/// the rest of the line still counts.
pub fn parse_go(
    args: &[&str],
    parse_move: &dyn Fn(&str) -> Result<Move, String>,
) -> (Go, Vec<String>) {
    let mut go = Go::default();
    let mut warnings = Vec::new();
    let mut unknown = Refused::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        if clock_token(&mut go.limits.clock, args, &mut i, &mut warnings).is_some() {
            i += 1;
            continue;
        }
        match key {
            "ponder" => go.ponder = true,
            "infinite" => go.limits.infinite = true,
            "movetime" => {
                if let Some(v) = value_after(args, &mut i, key, &mut warnings) {
                    match parse_millis(v) {
                        Some(ms) => go.limits.movetime = Some(ms),
                        None => warnings.push(format!("movetime: {v:?} is not a time in ms")),
                    }
                }
            }
            "nodes" => {
                if let Some(v) = value_after(args, &mut i, key, &mut warnings) {
                    match v.parse::<u64>() {
                        Ok(n) => go.limits.nodes = Some(n),
                        Err(_) => warnings.push(format!("nodes: {v:?} is not a count")),
                    }
                }
            }
            "depth" => {
                if let Some(v) = value_after(args, &mut i, key, &mut warnings) {
                    match v.parse::<u32>() {
                        Ok(n) => go.limits.depth = Some(n),
                        Err(_) => warnings.push(format!("depth: {v:?} is not a depth")),
                    }
                }
            }
            "mate" => {
                go.mate = Some(MateLimit::Infinite);
                match args.get(i + 1) {
                    Some(&"infinite") => i += 1,
                    Some(v) if !GO_KEYWORDS.contains(v) => {
                        i += 1;
                        match parse_millis(v) {
                            Some(ms) => go.mate = Some(MateLimit::Time(ms)),
                            None => warnings.push(format!(
                                "mate: {v:?} is neither a time in ms nor infinite; searching \
                                 without a limit"
                            )),
                        }
                    }
                    _ => {}
                }
            }
            "searchmoves" => {
                // `searchmoves` takes the rest of the line; the refused moves make one
                // warning however many there are.
                let mut refused = Refused::default();
                for text in &args[i + 1..] {
                    match parse_move(text) {
                        Ok(mv) if go.limits.root_moves.contains(&mv) => {}
                        Ok(mv) => go.limits.root_moves.push(mv),
                        Err(e) => refused.add(text, || e),
                    }
                }
                warnings.extend(refused.warning("searchmoves", "moves"));
                i = args.len();
            }
            other => unknown.add(other, || "not a go keyword".to_string()),
        }
        i += 1;
    }
    warnings.extend(unknown.warning("go", "unknown tokens"));
    (go, bounded(warnings))
}

/// The most warnings one command line answers with.
pub const MAX_WARNINGS: usize = 8;

/// The first [`MAX_WARNINGS`] warnings, the last of them replaced by a count of the rest
/// when there are more.
fn bounded(mut warnings: Vec<String>) -> Vec<String> {
    if warnings.len() > MAX_WARNINGS {
        let dropped = warnings.len() - (MAX_WARNINGS - 1);
        warnings.truncate(MAX_WARNINGS - 1);
        warnings.push(format!("... and {dropped} more warnings like these"));
    }
    warnings
}

/// How many refused tokens one warning names before it gives only their number.
const NAMED_REFUSED: usize = 3;

/// Tokens refused for one reason or another, reported as one warning: a line with thousands
/// of bad tokens must not answer with thousands of lines.
#[derive(Default)]
struct Refused {
    count: usize,
    named: Vec<String>,
    first_reason: Option<String>,
}

impl Refused {
    fn add(&mut self, token: &str, reason: impl FnOnce() -> String) {
        self.count += 1;
        if self.named.len() < NAMED_REFUSED {
            self.named.push(format!("{token:?}"));
        }
        if self.first_reason.is_none() {
            self.first_reason = Some(reason());
        }
    }

    /// `searchmoves: 2 moves ignored ("x", "y"); the first: <reason>`, or nothing.
    fn warning(self, context: &str, what: &str) -> Option<String> {
        let reason = self.first_reason?;
        let more = if self.count > self.named.len() {
            ", ..."
        } else {
            ""
        };
        Some(format!(
            "{context}: {} {what} ignored ({}{more}); the first: {reason}",
            self.count,
            self.named.join(", ")
        ))
    }
}

/// Parses the optional time tokens of `ponderhit` (YaneuraOu's extension). `None` when the
/// line carries no clock token.
pub fn parse_ponderhit(args: &[&str]) -> (Option<Clock>, Vec<String>) {
    let mut clock = Clock::default();
    let mut any = false;
    let mut warnings = Vec::new();
    let mut unknown = Refused::default();
    let mut i = 0;
    while i < args.len() {
        if clock_token(&mut clock, args, &mut i, &mut warnings).is_some() {
            any = true;
        } else {
            unknown.add(args[i], || "not a clock keyword".to_string());
        }
        i += 1;
    }
    warnings.extend(unknown.warning("ponderhit", "unknown tokens"));
    (any.then_some(clock), bounded(warnings))
}

/// Splits `setoption name <id> [value <x>]` (the part of the line after `setoption`) into
/// the name (its tokens joined by single spaces) and the value (everything after `value` to
/// the end of the line, trimmed; `<empty>` or nothing means the empty string).
pub fn parse_setoption(rest: &str) -> Result<(String, Option<String>), String> {
    let toks = tokens(rest);
    match toks.first() {
        Some((_, "name")) => {}
        _ => return Err("setoption needs `name <id>`".to_string()),
    }
    let value_at = toks.iter().skip(2).position(|(_, t)| *t == "value");
    let name_end = value_at.map_or(toks.len(), |p| p + 2);
    let name: Vec<&str> = toks[1..name_end].iter().map(|(_, t)| *t).collect();
    if name.is_empty() {
        return Err("setoption without an option name".to_string());
    }
    let value = value_at.map(|p| {
        let (offset, word) = toks[p + 2];
        let v = rest[offset + word.len()..].trim();
        if v == "<empty>" {
            String::new()
        } else {
            v.to_string()
        }
    });
    Ok((name.join(" "), value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Position;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    fn go(line: &str) -> (Go, Vec<String>) {
        let start = Position::startpos();
        parse_go(&words(line), &|t| {
            start.parse_usi_move(t).map_err(|e| e.to_string())
        })
    }

    /// The moves of the start position with these texts.
    fn start_moves(texts: &[&str]) -> Vec<Move> {
        let start = Position::startpos();
        texts
            .iter()
            .map(|t| start.parse_usi_move(t).unwrap())
            .collect()
    }

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn tokens_keep_offsets_and_skip_any_whitespace() {
        assert_eq!(
            tokens("  go\tbtime  10 \r"),
            vec![(2, "go"), (5, "btime"), (12, "10")]
        );
        assert!(tokens("   ").is_empty());
    }

    #[test]
    fn go_reads_every_clock_shape() {
        let (g, w) = go("btime 30000 wtime 20000 binc 1000 winc 2000 byoyomi 500");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(g.limits.clock.time_left, [ms(30000), ms(20000)]);
        assert_eq!(g.limits.clock.increment, [ms(1000), ms(2000)]);
        assert_eq!(g.limits.clock.byoyomi, ms(500));
        let (g, _) = go("btime 0 byoyomi 1000");
        assert_eq!(g.limits.clock.time_left, [ms(0), None]);
        let (g, w) = go("movetime 50 depth 5 nodes 10000 infinite ponder");
        assert!(w.is_empty());
        assert_eq!(
            (g.limits.movetime, g.limits.depth, g.limits.nodes),
            (ms(50), Some(5), Some(10000))
        );
        assert!(g.limits.infinite && g.ponder && g.mate.is_none());
        assert_eq!(go("").0, Go::default());
    }

    #[test]
    fn malformed_go_values_are_skipped_with_a_warning() {
        let (g, w) = go("movetime 0.9 btime -500 wtime abc depth -1 nodes x byoyomi");
        assert_eq!(g.limits.movetime, ms(1));
        assert_eq!(g.limits.clock.time_left, [ms(0), None]);
        assert_eq!((g.limits.depth, g.limits.nodes), (None, None));
        assert_eq!(g.limits.clock.byoyomi, None);
        assert_eq!(w.len(), 4, "{w:?}");
        // A missing value does not swallow the next keyword.
        let (g, w) = go("btime infinite");
        assert!(g.limits.infinite);
        assert_eq!(w.len(), 1);
        let (g, w) = go("frobnicate 3 byoyomi 100");
        assert_eq!(g.limits.clock.byoyomi, ms(100));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("2 unknown tokens ignored (\"frobnicate\", \"3\")"),
            "{w:?}"
        );
    }

    #[test]
    fn go_mate_takes_a_time_or_infinite() {
        assert_eq!(
            go("mate 1000").0.mate,
            Some(MateLimit::Time(Duration::from_secs(1)))
        );
        assert_eq!(go("mate infinite").0.mate, Some(MateLimit::Infinite));
        assert_eq!(go("mate").0.mate, Some(MateLimit::Infinite));
        let (g, w) = go("mate soon");
        assert_eq!((g.mate, w.len()), (Some(MateLimit::Infinite), 1));
    }

    #[test]
    fn searchmoves_keeps_the_legal_ones() {
        let (g, w) = go("byoyomi 100 searchmoves 7g7f 2g2f 5a4b");
        assert_eq!(g.limits.root_moves, start_moves(&["7g7f", "2g2f"]));
        assert_eq!(w.len(), 1);
    }

    /// Issue 12: 12,500 bad `searchmoves` tokens answered with 12,500 lines; now one line
    /// names the first three and the count. Repeated good moves are kept once.
    #[test]
    fn many_bad_searchmoves_make_one_warning() {
        let mut line = String::from("searchmoves 7g7f 7g7f");
        for i in 0..12_500 {
            line.push_str(&format!(" bad{i}"));
        }
        line.push_str(" 2g2f");
        let (g, w) = go(&line);
        assert_eq!(w.len(), 1, "{:?}", &w[..w.len().min(3)]);
        assert!(
            w[0].starts_with(
                "searchmoves: 12500 moves ignored (\"bad0\", \"bad1\", \"bad2\", ...); \
                 the first: bad move: malformed move \"bad0\""
            ),
            "{}",
            w[0]
        );
        assert_eq!(g.limits.root_moves, start_moves(&["7g7f", "2g2f"]));
    }

    /// Unknown tokens make one warning, and repeated bad values at most `MAX_WARNINGS` lines.
    #[test]
    fn warnings_are_bounded_per_line() {
        let (_, w) = go(&"frobnicate ".repeat(10_000));
        assert_eq!(w.len(), 1, "{:?}", &w[..w.len().min(3)]);
        assert!(w[0].contains("10000 unknown tokens"), "{}", w[0]);
        let (g, w) = go(&format!("{}byoyomi 100", "btime x ".repeat(10_000)));
        assert_eq!(w.len(), MAX_WARNINGS);
        assert!(w[MAX_WARNINGS - 1].contains("9993 more warnings"), "{w:?}");
        assert_eq!(g.limits.clock.byoyomi, ms(100));
        let (clock, w) = parse_ponderhit(&words(&"x ".repeat(5_000)));
        assert_eq!((clock, w.len()), (None, 1));
    }

    /// Numbers beyond the integer types never panic: times are clamped, counts and depths
    /// that do not fit are refused with a warning.
    #[test]
    fn numbers_beyond_the_integer_types() {
        let huge = "99999999999999999999";
        let (g, w) = go(&format!(
            "btime {huge} wtime -{huge} byoyomi 1e400 movetime {huge} binc NaN winc inf"
        ));
        // Infinity is a huge number like any other; NaN is not a time.
        assert!(w.len() == 1 && w[0].contains("binc"), "{w:?}");
        assert_eq!(g.limits.clock.time_left[0], ms(1_000_000_000_000_000));
        assert_eq!(g.limits.clock.time_left[1], ms(0));
        assert_eq!(g.limits.clock.byoyomi, ms(1_000_000_000_000_000));
        assert_eq!(g.limits.clock.increment, [None, ms(1_000_000_000_000_000)]);
        assert_eq!(g.limits.movetime, ms(1_000_000_000_000_000));
        let (g, w) = go(&format!("nodes {huge} depth {huge} mate {huge}"));
        assert_eq!((g.limits.nodes, g.limits.depth), (None, None));
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(
            g.mate,
            Some(MateLimit::Time(Duration::from_millis(
                1_000_000_000_000_000
            )))
        );
    }

    #[test]
    fn ponderhit_clock_is_optional() {
        assert_eq!(parse_ponderhit(&[]), (None, vec![]));
        let (clock, w) = parse_ponderhit(&words("btime 1000 wtime 2000 byoyomi 300"));
        assert!(w.is_empty());
        let clock = clock.unwrap();
        assert_eq!(clock.time_left, [ms(1000), ms(2000)]);
        assert_eq!(clock.byoyomi, ms(300));
    }

    #[test]
    fn setoption_values_run_to_the_end_of_the_line() {
        assert_eq!(
            parse_setoption("name USI_Hash value 256"),
            Ok(("USI_Hash".to_string(), Some("256".to_string())))
        );
        assert_eq!(
            parse_setoption("name BookFile value  C:\\my books\\a b.db \r"),
            Ok((
                "BookFile".to_string(),
                Some("C:\\my books\\a b.db".to_string())
            ))
        );
        assert_eq!(
            parse_setoption("name Clear Hash"),
            Ok(("Clear Hash".to_string(), None))
        );
        assert_eq!(
            parse_setoption("name EvalDir value <empty>"),
            Ok(("EvalDir".to_string(), Some(String::new())))
        );
        assert_eq!(
            parse_setoption("name EvalDir value"),
            Ok(("EvalDir".to_string(), Some(String::new())))
        );
        // An option literally called `value` is still a name when it comes first.
        assert_eq!(
            parse_setoption("name value value 3"),
            Ok(("value".to_string(), Some("3".to_string())))
        );
        assert!(parse_setoption("").is_err());
        assert!(parse_setoption("name").is_err());
        assert!(parse_setoption("USI_Hash value 3").is_err());
    }
}
