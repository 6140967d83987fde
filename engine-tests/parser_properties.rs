//! Property tests of every text reader the engine has (issue 12): SFEN and move text of the
//! five games, the chance tokens, USI command lines, `setoption` values, opening-file lines,
//! the perft chance script, and what the referee reads from other engines (USI and CECP
//! lines, XBoard moves, engine command lines). Each property feeds random text, or a valid text mutated (bytes
//! flipped, text inserted or deleted, fields and ranks duplicated, dropped or swapped, huge
//! numbers), and asserts that the reader does not panic and answers either with a value or
//! with an error that says something. Where a printer exists, valid input must also survive
//! a round trip: parse → print → parse gives the same position or move.
//!
//! The default number of cases (proptest's 256 per property) is the short pass that
//! `cargo test` runs; `PROPTEST_CASES=20000 cargo test --test parser_properties` is a long
//! one.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::referee::cecp_client::{self, Notation};
use shishi::referee::openings::Opening;
use shishi::referee::process::split_command;
use shishi::referee::usi_client;
use shishi::referee::variant::RefereeGame;
use shishi::rules::game::NodeKind;
use shishi::rules::moves::{Move, MoveList};
use shishi::rules::notation::NotationError;
use shishi::rules::variants::chu::{self, ChuRules};
use shishi::rules::variants::madness::perft::ChanceScript;
use shishi::rules::variants::madness::{self, Token};
use shishi::rules::variants::shogammon::{self, DiceUse, Roll, ShogammonDice};
use shishi::rules::variants::GameChoice;
use shishi::rules::variants::{kagamigi, minishogi, shogi};
use shishi::rules::xboard_moves::{self, BoardSize};
use shishi::search::time_text::{parse_minutes_seconds, parse_time, TimeUnit, LONGEST_TIME};
use shishi::usi::command::{self, GO_KEYWORDS, MAX_WARNINGS};
use shishi::usi::options::{declarations, Options, Variant};
use shishi::usi::output::Output;
use shishi::usi::position::{RuleOptions, UsiPosition};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// proptest's defaults (256 cases, or `PROPTEST_CASES`), with failing cases kept in
/// `engine-tests/parser_properties.proptest-regressions` (committed) to be replayed first.
fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------
// Text generators
// ---------------------------------------------------------------------------------------

/// Characters the readers give meaning to, and some they must refuse.
const NOTATION_CHARS: &str = "0123456789/+-*()=:?, \tbwkKpPrRgGlLnNsSxXcCaAeEqQdD|é五\u{0}";

/// Random text: notation characters, printable ASCII, or anything at all.
fn random_text() -> impl Strategy<Value = String> {
    let notation: Vec<char> = NOTATION_CHARS.chars().collect();
    prop_oneof![
        proptest::collection::vec(proptest::sample::select(notation), 0..90)
            .prop_map(|chars| chars.into_iter().collect()),
        "[ -~]{0,90}",
        any::<String>(),
    ]
}

/// Text inserted by a mutation: digits, huge numbers, notation characters, any character.
fn inserted_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,3}",
        "[0-9]{10,30}",
        Just("4294967296".to_string()),
        Just("18446744073709551616".to_string()),
        Just("-1".to_string()),
        Just("+5".to_string()),
        "[-+/()*:?= a-zA-Z0-9]{1,4}",
        any::<char>().prop_map(String::from),
    ]
}

/// One edit of a valid text. Positions are taken modulo the text's length.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit {
        at: usize,
        bit: u8,
    },
    Insert {
        at: usize,
        text: String,
    },
    Delete {
        at: usize,
        len: usize,
    },
    /// Repeat a `separator`-separated part (a field with ' ', a rank with '/').
    Duplicate {
        part: usize,
        separator: char,
    },
    Drop {
        part: usize,
        separator: char,
    },
    Swap {
        a: usize,
        b: usize,
        separator: char,
    },
    /// Repeat one character many times (`p` → 19 `p`s).
    Repeat {
        at: usize,
        times: usize,
    },
}

fn separator() -> impl Strategy<Value = char> {
    prop_oneof![Just(' '), Just('/')]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        (any::<usize>(), inserted_text()).prop_map(|(at, text)| Mutation::Insert { at, text }),
        (any::<usize>(), 1usize..8).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), separator())
            .prop_map(|(part, separator)| Mutation::Duplicate { part, separator }),
        (any::<usize>(), separator())
            .prop_map(|(part, separator)| Mutation::Drop { part, separator }),
        (any::<usize>(), any::<usize>(), separator())
            .prop_map(|(a, b, separator)| Mutation::Swap { a, b, separator }),
        (any::<usize>(), 2usize..25).prop_map(|(at, times)| Mutation::Repeat { at, times }),
    ]
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    proptest::collection::vec(mutation(), 1..4)
}

/// The nearest char boundary at or before `at` (mod the length + 1).
fn boundary(text: &str, at: usize) -> usize {
    let mut i = at % (text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, edits: &[Mutation]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        text = match edit {
            Mutation::FlipBit { at, bit } => {
                let mut bytes = text.into_bytes();
                if !bytes.is_empty() {
                    let i = at % bytes.len();
                    bytes[i] ^= 1 << bit;
                }
                String::from_utf8_lossy(&bytes).into_owned()
            }
            Mutation::Insert { at, text: piece } => {
                let i = boundary(&text, *at);
                format!("{}{piece}{}", &text[..i], &text[i..])
            }
            Mutation::Delete { at, len } => {
                let start = boundary(&text, *at);
                let end = boundary(&text, start + len);
                let end = end.max(start);
                format!("{}{}", &text[..start], &text[end..])
            }
            Mutation::Duplicate { part, separator } => {
                let mut parts: Vec<&str> = text.split(*separator).collect();
                let i = part % parts.len();
                parts.insert(i, parts[i]);
                parts.join(&separator.to_string())
            }
            Mutation::Drop { part, separator } => {
                let mut parts: Vec<&str> = text.split(*separator).collect();
                parts.remove(part % parts.len());
                parts.join(&separator.to_string())
            }
            Mutation::Swap { a, b, separator } => {
                let mut parts: Vec<&str> = text.split(*separator).collect();
                let n = parts.len();
                parts.swap(a % n, b % n);
                parts.join(&separator.to_string())
            }
            Mutation::Repeat { at, times } => match text[boundary(&text, *at)..].chars().next() {
                Some(c) => {
                    let i = boundary(&text, *at);
                    format!(
                        "{}{}{}",
                        &text[..i],
                        c.to_string().repeat(*times),
                        &text[i..]
                    )
                }
                None => text,
            },
        };
    }
    text
}

// ---------------------------------------------------------------------------------------
// What every answer must be
// ---------------------------------------------------------------------------------------

fn says_something(error: &str) -> bool {
    !error.trim().is_empty()
}

fn notation_error_says_something(error: &NotationError) -> bool {
    match error {
        NotationError::Sfen(why) | NotationError::Move(why) => says_something(why),
    }
}

// ---------------------------------------------------------------------------------------
// The five games, through the referee's view of them
// ---------------------------------------------------------------------------------------

/// A game under its default rule options (Chu: lishogi's).
fn choice(variant: Variant) -> GameChoice {
    GameChoice::from(variant)
}

/// SFENs of each game beyond the start position: hands, promoted pieces, points, the Chu
/// lion-capture square, large move numbers.
fn sample_sfens(variant: GameChoice) -> Vec<&'static str> {
    match variant.variant {
        Variant::Shogi | Variant::Madness => vec![
            shogi::notation::START_SFEN,
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "4k4/9/4+P4/9/9/9/9/9/4K4 w RB2G2S2N2L16Prb2g2s2n2l 17",
            "8k/9/9/9/9/9/1gn6/9/K8 b - 1000000",
        ],
        Variant::Chushogi => vec![
            chu::notation::START_SFEN,
            "11k/12/12/9g2/6+o2n2/6R1N3/12/9R2/12/12/12/K11 b 6e 1",
            "12/6k1+e3/6nP4/12/6N5/12/12/12/12/12/12/K4G5+E w - 12",
        ],
        Variant::Chukagamigi => vec![
            kagamigi::notation::START_SFEN,
            "5k6/12/12/12/12/12/12/12/12/12/12/5K6 b ADCTQJHWMVUOXRBIEYFGSNLPad 1",
            "5k6/12/+P11/12/4+u7/12/12/12/12/12/12/5K6 w 10Pr3p 12",
        ],
        Variant::Minishogi => vec![
            minishogi::START_SFEN,
            "1B2k/3gp/3p1/GsKB1/2S1R b R 15",
            "R1g1k/3bs/2+B1S/P4/2K1g b RP 31",
        ],
        Variant::Shogammon => vec![
            shogammon::notation::START_SFEN,
            "(lk)8/9/9/9/9/9/9/9/(P+B)3K4 b RG2p 12",
            "4k4/9/9/9/9/9/9/9/(G+R)(SK)(+L+N)6 b - 1",
        ],
    }
}

/// How each game's reader is asked for any action, chance outcomes included (the referee's
/// `parse_move` reads only the player's decisions).
trait AnyActionText: RefereeGame {
    fn parse_any(&self, text: &str) -> Result<Move, String> {
        self.parse_move(text)
    }
}

impl AnyActionText for shogi::Position {}
impl AnyActionText for chu::Position {}
impl AnyActionText for kagamigi::Position {}

impl AnyActionText for shogammon::Position {
    fn parse_any(&self, text: &str) -> Result<Move, String> {
        self.parse_action(text).map_err(|e| e.to_string())
    }
}

impl AnyActionText for madness::TrueGame {
    fn parse_any(&self, text: &str) -> Result<Move, String> {
        self.parse_action(text).map_err(|e| e.to_string())
    }
}

/// Plays `plies` random actions (chance outcomes included) from the start, calling `visit`
/// at the start of each player's turn (where the SFEN describes the whole state) and
/// returning the final game.
fn playout<G: RefereeGame>(
    variant: GameChoice,
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&G),
) -> G {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = G::start(variant);
    let mut legal = MoveList::new();
    let mut last_mover = None;
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let mover = match game.node_kind() {
            NodeKind::Decision(color) => Some(color),
            NodeKind::Chance(_) => None,
        };
        let turn_start = mover.is_some() && last_mover.is_some_and(|c| Some(c) != mover);
        if turn_start || last_mover.is_none() {
            visit(&game);
        }
        legal.clear();
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            break;
        }
        last_mover = mover.or(last_mover);
        game.play(legal[rng.gen_range(0..legal.len())]);
    }
    game
}

/// An SFEN that the game reads back to itself.
fn assert_sfen_round_trips<G: RefereeGame>(game: &G, variant: GameChoice) {
    let sfen = game.sfen();
    let reread = G::from_sfen(&sfen, variant).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(reread.sfen(), sfen);
}

/// Any text given to the SFEN reader: a value or a reason; a value prints an SFEN that
/// reads back to the same value.
fn check_sfen_text<G: RefereeGame>(text: &str, variant: GameChoice) -> Result<(), TestCaseError> {
    match G::from_sfen(text, variant) {
        Ok(pos) => {
            let printed = pos.sfen();
            let reread = G::from_sfen(&printed, variant);
            prop_assert!(
                reread.is_ok(),
                "{text:?} read, but its print {printed:?} not"
            );
            prop_assert_eq!(reread.unwrap().sfen(), printed);
        }
        Err(e) => prop_assert!(says_something(&e), "{text:?}: empty error"),
    }
    Ok(())
}

/// Any text given to the move reader: a reason, or a legal move whose text reads back to it.
fn check_move_text<G: AnyActionText>(game: &G, text: &str) -> Result<(), TestCaseError> {
    match game.parse_any(text) {
        Ok(mv) => {
            let mut legal = MoveList::new();
            game.legal_actions(&mut legal);
            prop_assert!(legal.contains(&mv), "{text:?} read as an illegal action");
            let printed = game.move_text(mv);
            prop_assert_eq!(game.parse_any(&printed), Ok(mv), "{} → {}", text, printed);
        }
        Err(e) => prop_assert!(says_something(&e), "{text:?}: empty error"),
    }
    Ok(())
}

/// Every legal action of `game` reads back from its text.
fn assert_actions_round_trip<G: AnyActionText>(game: &G) {
    let mut legal = MoveList::new();
    game.legal_actions(&mut legal);
    for &mv in legal.iter() {
        let text = game.move_text(mv);
        assert_eq!(game.parse_any(&text), Ok(mv), "{text} in {}", game.sfen());
    }
}

/// The properties of one game: random and mutated SFENs and moves, and round trips along a
/// random game.
fn game_properties<G: AnyActionText>(
    variant: GameChoice,
    input: &GameInput,
) -> Result<(), TestCaseError> {
    check_sfen_text::<G>(&input.random, variant)?;
    let samples = sample_sfens(variant);
    let sample = samples[input.pick % samples.len()];
    check_sfen_text::<G>(&apply(sample, &input.edits), variant)?;
    let mut seen_texts = Vec::new();
    let end = playout::<G>(variant, input.seed, input.plies, |game| {
        assert_sfen_round_trips(game, variant);
        seen_texts.push(game.sfen());
    });
    if let Some(sfen) = seen_texts.last() {
        check_sfen_text::<G>(&apply(sfen, &input.edits), variant)?;
    }
    assert_actions_round_trip(&end);
    check_move_text(&end, &input.random)?;
    let mut legal = MoveList::new();
    end.legal_actions(&mut legal);
    if !legal.is_empty() {
        let text = end.move_text(legal[input.pick % legal.len()]);
        check_move_text(&end, &apply(&text, &input.edits))?;
    }
    Ok(())
}

/// One case of the game properties.
#[derive(Clone, Debug)]
struct GameInput {
    random: String,
    edits: Vec<Mutation>,
    pick: usize,
    seed: u64,
    plies: usize,
}

fn game_input() -> impl Strategy<Value = GameInput> {
    (
        random_text(),
        mutations(),
        any::<usize>(),
        any::<u64>(),
        0usize..70,
    )
        .prop_map(|(random, edits, pick, seed, plies)| GameInput {
            random,
            edits,
            pick,
            seed,
            plies,
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn shogi_text(input in game_input()) {
        game_properties::<shogi::Position>(choice(Variant::Shogi), &input)?;
    }

    #[test]
    fn chu_text(input in game_input()) {
        game_properties::<chu::Position>(GameChoice::chu(ChuRules::Lishogi), &input)?;
    }

    #[test]
    fn kagamigi_text(input in game_input()) {
        game_properties::<kagamigi::Position>(choice(Variant::Chukagamigi), &input)?;
    }

    #[test]
    fn shogammon_text(input in game_input()) {
        game_properties::<shogammon::Position>(choice(Variant::Shogammon), &input)?;
    }

    #[test]
    fn madness_text(input in game_input()) {
        game_properties::<madness::TrueGame>(choice(Variant::Madness), &input)?;
    }
}

// ---------------------------------------------------------------------------------------
// Chance tokens
// ---------------------------------------------------------------------------------------

/// Text shaped like a chance token, with random values.
fn token_like() -> impl Strategy<Value = String> {
    let prefix = prop_oneof![
        Just("r:"),
        Just("c:"),
        Just("draw:"),
        Just("mad"),
        Just("roll"),
        Just("pass"),
        Just(""),
    ];
    let value = prop_oneof![
        "[0-9]{0,3}",
        "[0-9]{4,25}",
        "[-+?=a-z ]{0,3}",
        any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        (prefix, value).prop_map(|(p, v)| format!("{p}{v}")),
        random_text(),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn madness_tokens(text in token_like()) {
        match Token::parse(&text) {
            Ok(Some(token)) => prop_assert_eq!(Token::parse(&token.text()), Ok(Some(token))),
            Ok(None) => prop_assert!(
                !["r:", "c:", "draw:", "mad"].iter().any(|p| text.starts_with(p)),
                "{:?} looks like a token but was not read as one", text
            ),
            Err(e) => prop_assert!(notation_error_says_something(&e), "{text:?}"),
        }
        match ChanceScript::parse(&text) {
            Ok(script) => {
                prop_assert!(script.rolls.len() + script.draws.len() <= text.len());
            }
            Err(e) => prop_assert!(notation_error_says_something(&e), "{text:?}"),
        }
    }

    #[test]
    fn shogammon_rolls(text in token_like()) {
        if let Some(roll) = Roll::parse_token(&text) {
            prop_assert_eq!(Roll::parse_token(&roll.token()), Some(roll));
            prop_assert_eq!(Roll::from_move(roll.to_move()), Some(roll));
        }
        let mut pos = shogammon::Position::startpos();
        for _ in 0..2 {
            match pos.parse_action(&text) {
                Ok(action) => {
                    prop_assert_eq!(pos.parse_action(&pos.action_to_usi(action)), Ok(action));
                    pos.play(action);
                }
                Err(e) => {
                    prop_assert!(notation_error_says_something(&e), "{text:?}");
                    let mut legal = MoveList::new();
                    pos.generate_legal(&mut legal);
                    pos.play(legal[0]);
                }
            }
        }
    }

    /// A whole Madness `position` argument, tokens random or mutated from a real game's.
    #[test]
    fn madness_position_text(
        seed in any::<u64>(),
        plies in 0usize..40,
        edits in mutations(),
        extra in proptest::collection::vec(token_like(), 0..6),
    ) {
        let game = playout::<madness::TrueGame>(choice(Variant::Madness), seed, plies, |_| {});
        let text = game.position_text();
        let reread = madness::TrueGame::from_position_text(&text, madness::TrueCards::default());
        prop_assert!(reread.is_ok(), "{text}");
        prop_assert_eq!(reread.unwrap().position_text(), text.clone());
        let mangled = format!("{} {}", apply(&text, &edits), extra.join(" "));
        match madness::TrueGame::from_position_text(&mangled, madness::TrueCards::default()) {
            Ok(game) => {
                let again = game.position_text();
                let reread =
                    madness::TrueGame::from_position_text(&again, madness::TrueCards::default());
                prop_assert!(reread.is_ok(), "{mangled:?} → {again:?}");
            }
            Err(e) => prop_assert!(notation_error_says_something(&e), "{mangled:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// USI command lines
// ---------------------------------------------------------------------------------------

/// A token of a command line: a keyword, a number of any size or shape, a move, or junk.
fn usi_token() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(GO_KEYWORDS).prop_map(str::to_string),
        proptest::sample::select(&["startpos", "sfen", "moves", "name", "value", "<empty>"][..])
            .prop_map(str::to_string),
        "-?[0-9]{1,25}",
        "[0-9]{1,5}\\.[0-9]{1,3}",
        proptest::sample::select(&["1e400", "NaN", "inf", "-0", "+7", "0x10"][..])
            .prop_map(str::to_string),
        proptest::sample::select(&["7g7f", "2g2f", "P*5e", "8h2b+", "r:61", "draw:3"][..])
            .prop_map(str::to_string),
        "[!-~]{1,8}",
        "\\PC{1,3}",
    ]
}

fn usi_tokens() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(usi_token(), 0..30)
}

fn option_names() -> Vec<String> {
    let mut names: Vec<String> = declarations()
        .iter()
        .filter_map(|line| line.split_whitespace().nth(2).map(str::to_string))
        .collect();
    names.extend(["Clear Hash", "hash", "UCI_Variant", "NoSuchOption"].map(str::to_string));
    names
}

/// A shared sink that the engine writes to and the test reads.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The commands that answer with more than errors (`e` prints the evaluation), search or allocate the hash.
const LOUD_COMMANDS: &[&str] = &["usi", "isready", "go", "quit", "e"];

/// Commands that answer only with errors (no search, no hash allocation, no `usiok`).
fn quiet_line() -> impl Strategy<Value = String> {
    let command = proptest::sample::select(
        &[
            "position",
            "setoption",
            "usinewgame",
            "gameover",
            "stop",
            "ponderhit",
            "debug",
            "register",
            "junk",
            "",
        ][..],
    );
    // A command word later in the line would be run (unknown leading tokens are skipped),
    // so none may appear among the random tokens.
    let tokens = usi_tokens().prop_map(|tokens| {
        tokens
            .into_iter()
            .map(|t| {
                if LOUD_COMMANDS.contains(&t.as_str()) {
                    "x".to_string()
                } else {
                    t
                }
            })
            .collect::<Vec<_>>()
    });
    (command, tokens).prop_map(|(c, t)| format!("{c} {}", t.join(" ")))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn usi_tokens_keep_offsets(line in random_text()) {
        for (offset, token) in command::tokens(&line) {
            prop_assert!(!token.is_empty() && !token.contains(char::is_whitespace));
            prop_assert_eq!(&line[offset..offset + token.len()], token);
        }
    }

    #[test]
    fn go_and_ponderhit_lines(tokens in usi_tokens()) {
        let args: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let start = shogi::Position::startpos();
        let (go, warnings) =
            command::parse_go(&args, &|t| start.parse_usi_move(t).map_err(|e| e.to_string()));
        prop_assert!(warnings.len() <= MAX_WARNINGS, "{warnings:?}");
        prop_assert!(warnings.iter().all(|w| says_something(w)));
        let mut distinct = go.limits.root_moves.clone();
        distinct.dedup();
        prop_assert_eq!(distinct.len(), go.limits.root_moves.len());
        let (_, warnings) = command::parse_ponderhit(&args);
        prop_assert!(warnings.len() <= MAX_WARNINGS, "{warnings:?}");
        prop_assert!(warnings.iter().all(|w| says_something(w)));
    }

    #[test]
    fn setoption_lines_and_values(
        rest in random_text(),
        name in proptest::sample::select(option_names()),
        value in prop_oneof![usi_token(), random_text()],
    ) {
        match command::parse_setoption(&rest) {
            Ok((name, _)) => prop_assert!(!name.is_empty()),
            Err(e) => prop_assert!(says_something(&e)),
        }
        let line = format!("name {name} value {value}");
        let (parsed_name, parsed_value) = command::parse_setoption(&line).unwrap();
        let mut options = Options::default();
        let before = options.clone();
        match options.set(&parsed_name, parsed_value.as_deref()) {
            Ok(_) => {}
            Err(e) => {
                prop_assert!(says_something(&e));
                prop_assert_eq!(options, before, "{} changed options", line);
            }
        }
        if let Ok(dice) = ShogammonDice::parse(&value) {
            prop_assert_eq!(ShogammonDice::parse(&dice.spec()), Ok(dice));
            prop_assert_eq!(ShogammonDice::parse(&dice.to_string()), Ok(dice));
        }
        if let Err(e) = DiceUse::parse(&value) {
            prop_assert!(says_something(&e));
        }
    }

    #[test]
    fn usi_position_arguments(
        variant in proptest::sample::select(Variant::ALL),
        pick in any::<usize>(),
        edits in mutations(),
        tokens in usi_tokens(),
    ) {
        let match_variant = choice(variant);
        let samples = sample_sfens(match_variant);
        let sfen = apply(samples[pick % samples.len()], &edits);
        let text = format!("sfen {sfen} moves {}", tokens.join(" "));
        for line in [text, tokens.join(" ")] {
            let args: Vec<&str> = line.split_whitespace().collect();
            if let Err(e) = UsiPosition::parse(&args, variant, RuleOptions::default()) {
                prop_assert!(says_something(&e), "{line:?}");
            }
        }
    }

    /// Whole lines through the protocol loop: it never panics and answers these commands
    /// only with `info string error …` lines.
    #[test]
    fn whole_usi_lines(lines in proptest::collection::vec(quiet_line(), 1..6)) {
        let sink = Sink::default();
        let input = std::io::Cursor::new(lines.join("\n").into_bytes());
        let code = shishi::usi::run_with(input, Output::new(Box::new(sink.clone())));
        prop_assert_eq!(code, 0);
        let written = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        for answer in written.lines() {
            let message = answer.strip_prefix("info string error ");
            prop_assert!(message.is_some_and(says_something), "{lines:?} → {answer:?}");
        }
    }

    #[test]
    fn opening_file_lines(
        line in random_text(),
        variant_at in 0..Variant::ALL.len(),
        edits in mutations(),
        seed in any::<u64>(),
        plies in 0usize..12,
    ) {
        let variant = choice(Variant::ALL[variant_at]);
        check_opening_line(&line, variant)?;
        let moves = opening_moves(variant, seed, plies);
        let from_start = format!("startpos moves {}", moves.join(" "));
        check_opening_line(&from_start, variant)?;
        check_opening_line(&apply(&from_start, &edits), variant)?;
        let samples = sample_sfens(variant);
        let sfen_line = format!("sfen {}", samples[seed as usize % samples.len()]);
        check_opening_line(&apply(&sfen_line, &edits), variant)?;
    }
}

/// The decisions of a random game from the start, as an opening file writes them (the chance
/// games' openings hold decisions only, so they stop at the first chance node).
fn opening_moves(variant: GameChoice, seed: u64, plies: usize) -> Vec<String> {
    fn moves_of<G: RefereeGame>(variant: GameChoice, seed: u64, plies: usize) -> Vec<String> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = G::start(variant);
        let mut out = Vec::new();
        let mut legal = MoveList::new();
        for _ in 0..plies {
            legal.clear();
            game.legal_actions(&mut legal);
            if game.is_chance() || legal.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = legal[rng.gen_range(0..legal.len())];
            out.push(game.move_text(mv));
            game.play(mv);
            if game.outcome().is_some() {
                out.pop();
                break;
            }
        }
        out
    }
    match variant.variant {
        Variant::Shogi => moves_of::<shogi::Position>(variant, seed, plies),
        Variant::Chushogi => moves_of::<chu::Position>(variant, seed, plies),
        Variant::Chukagamigi => moves_of::<kagamigi::Position>(variant, seed, plies),
        Variant::Shogammon => moves_of::<shogammon::Position>(variant, seed, plies),
        Variant::Madness => moves_of::<madness::TrueGame>(variant, seed, plies),
        Variant::Minishogi => moves_of::<minishogi::Position>(variant, seed, plies),
    }
}

/// An opening line: blank, a reason, or an opening whose canonical line reads back to it.
fn check_opening_line(line: &str, variant: GameChoice) -> Result<(), TestCaseError> {
    match Opening::parse_line(line, variant) {
        Ok(None) => prop_assert!(
            line.split('#').next().unwrap_or("").trim().is_empty(),
            "{line:?} skipped as blank"
        ),
        Ok(Some(opening)) => {
            let canonical = format!("{} moves {}", opening.usi_base(), opening.moves.join(" "));
            let reread = Opening::parse_line(&canonical, variant);
            prop_assert_eq!(reread, Ok(Some(opening)), "{} → {}", line, canonical);
        }
        Err(e) => prop_assert!(says_something(&e), "{line:?}"),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// What other engines send the referee
// ---------------------------------------------------------------------------------------

/// A line as a USI or CECP engine might write it: keywords, numbers of any size, moves in
/// either notation, or junk.
fn engine_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        proptest::sample::select(
            &[
                "option",
                "name",
                "type",
                "combo",
                "var",
                "USI_Variant",
                "UCI_Variant",
                "info",
                "score",
                "cp",
                "mate",
                "lowerbound",
                "move",
                "resign",
                "feature",
                "=",
                "\"",
                "1.",
                "...",
                "1-0",
                "mates!",
                "Illegal",
                "@@@@",
                "P@e5",
                "c3c4",
                "f6,f5",
            ][..]
        )
        .prop_map(str::to_string),
        "-?[0-9]{1,25}",
        "[a-l][0-9]{1,2}[a-l]?[0-9]{0,2}[,+=]?",
        "[!-~]{1,8}",
    ];
    prop_oneof![
        proptest::collection::vec(word, 0..12).prop_map(|w| w.join(" ")),
        random_text(),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// The readers of engine output and of engine command lines never panic, and a move the
    /// referee converts to XBoard notation converts back.
    #[test]
    fn engine_output_readers(line in engine_line(), seed in any::<u64>(), plies in 0usize..40) {
        let _ = cecp_client::classify(&line);
        let _ = cecp_client::parse_features(&line);
        let _ = usi_client::combo_values(&line, "USI_Variant");
        let _ = usi_client::parse_info_score(&line);
        match split_command(&line) {
            Ok(words) => prop_assert!(!words.is_empty()),
            Err(e) => prop_assert!(says_something(&e)),
        }
        for board in [BoardSize::SHOGI, BoardSize::CHU] {
            let _ = xboard_moves::xboard_to_usi(&line, board);
        }
        fn xboard_round_trip<G: RefereeGame>(
            variant: GameChoice,
            board: BoardSize,
            seed: u64,
            plies: usize,
        ) -> Result<(), TestCaseError> {
            let game = playout::<G>(variant, seed, plies, |_| {});
            let mut legal = MoveList::new();
            game.legal_actions(&mut legal);
            for &mv in legal.iter().filter(|&&mv| !game.is_pass(mv)) {
                let usi = game.move_text(mv);
                let xboard = cecp_client::usi_to_engine(&usi, Notation::XBoard, board, false);
                let back = xboard_moves::xboard_to_usi(&xboard, board);
                prop_assert_eq!(game.parse_move(&back), Ok(mv), "{} → {} → {}", usi, xboard, back);
            }
            Ok(())
        }
        xboard_round_trip::<shogi::Position>(choice(Variant::Shogi), BoardSize::SHOGI, seed, plies)?;
        xboard_round_trip::<chu::Position>(
            GameChoice::chu(ChuRules::Lishogi),
            BoardSize::CHU,
            seed,
            plies,
        )?;
    }
}

// ---------------------------------------------------------------------------------------
// CECP: the time values and whole command lines through the protocol loop
// ---------------------------------------------------------------------------------------

/// A number as a GUI, a script or an attacker might write a time: any size, sign, fraction
/// or exponent, the names of the non-numbers, `MIN:SEC`, or junk.
fn time_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[+-]?[0-9]{1,40}",
        "[+-]?[0-9]{0,20}\\.[0-9]{0,8}([eE][+-]?[0-9]{1,3})?",
        proptest::sample::select(
            &["inf", "-inf", "infinity", "NaN", "nan", "-0", "1e300", "1e400", "", " ", ":"][..]
        )
        .prop_map(str::to_string),
        "[0-9]{1,25}:[0-9.e]{1,25}",
        random_text(),
    ]
}

const TIME_UNITS: [TimeUnit; 4] = [
    TimeUnit::Millis,
    TimeUnit::Centis,
    TimeUnit::Seconds,
    TimeUnit::Minutes,
];

/// The words of CECP lines: command words, numbers of every shape, the three games' moves
/// and FEN pieces, or junk.
fn cecp_token() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(CECP_COMMANDS).prop_map(str::to_string),
        time_text(),
        proptest::sample::select(
            &[
                "shogi",
                "chu",
                "chukagamigi",
                "c3c4",
                "g7g6",
                "h4h5",
                "e9e8",
                "a4a5",
                "a9a8",
                "@@@@",
                "P@e5",
                "Y@e5",
                "g4h5,h5i6",
                "g4h5,",
                "b2h8+",
                "e5e6=",
                "w",
                "b",
                "[-]",
                "[PPp]",
                "5k6/12/12/12/12/12/5N6/12/12/12/12/5K6",
                "4k4/9/9/9/9/9/9/9/4K4",
                "MultiPV=2",
                "ChuRules=churul",
                "XBoardHoldings=24",
                "Clear_Hash",
                "{x}",
                "1-0",
            ][..]
        )
        .prop_map(str::to_string),
        "[!-~]{1,8}",
        "\\PC{1,3}",
    ]
}

/// The command words of the CECP loop, and a few it does not know; `quit` is left out
/// (it would end the loop before the other lines).
const CECP_COMMANDS: &[&str] = &[
    "xboard",
    "accepted",
    "rejected",
    "computer",
    "name",
    "rating",
    "ics",
    "random",
    "easy",
    "hard",
    "draw",
    "hint",
    "bk",
    ".",
    "put",
    "hover",
    "protover",
    "ping",
    "new",
    "variant",
    "force",
    "result",
    "go",
    "playother",
    "white",
    "black",
    "level",
    "st",
    "sd",
    "time",
    "otim",
    "post",
    "nopost",
    "usermove",
    "?",
    "setboard",
    "undo",
    "remove",
    "analyze",
    "exit",
    "memory",
    "cores",
    "option",
    "lift",
    "edit",
    "junk",
    "",
];

/// A CECP line: a command word and random words, with the values of `memory`, `cores` and
/// the hash and thread options kept small (allocating is not what this tests).
fn cecp_line() -> impl Strategy<Value = String> {
    let small = prop_oneof!["[0-9]{1,2}", "-[0-9]{1,20}", "[0-9]{20,25}", "[a-z.]{0,4}"];
    prop_oneof![
        (
            proptest::sample::select(CECP_COMMANDS),
            proptest::collection::vec(cecp_token(), 0..8),
        )
            .prop_map(|(c, t)| format!("{c} {}", t.join(" "))),
        (
            proptest::sample::select(
                &["memory", "cores", "option USI_Hash=", "option Threads="][..]
            ),
            small,
        )
            .prop_map(|(c, v)| {
                if c.ends_with('=') {
                    format!("{c}{v}")
                } else {
                    format!("{c} {v}")
                }
            }),
        random_text(),
    ]
    .prop_filter("no large tables or thread pools", |line| !allocates(line))
}

/// Whether a line might set a hash table above 64 MiB or more than 64 threads (a number
/// of 65 to 10^18 in a line that names a size), or is `quit`.
fn allocates(line: &str) -> bool {
    let low = line.to_ascii_lowercase();
    let sizes = ["memory", "cores", "hash", "thread"]
        .iter()
        .any(|word| low.contains(word));
    let big = line
        .split(|c: char| !c.is_ascii_digit())
        .any(|d| d.parse::<u64>().is_ok_and(|n| n > 64));
    (sizes && big) || low.trim_start().starts_with("quit")
}

/// Whether the search or reader thread of the CECP loop panicked since the hook was set (a
/// panic there would not fail the test by itself).
static CECP_THREAD_PANICKED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

fn watch_cecp_threads() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_string();
            if name.starts_with("cecp") || name.starts_with("usi-reader") {
                CECP_THREAD_PANICKED.store(true, std::sync::atomic::Ordering::SeqCst);
            }
            default(info);
        }));
    });
}

/// The CECP command word and the rest of a line, as the loop splits them.
fn cecp_command(line: &str) -> (&str, &str) {
    let line = line.trim();
    let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    (command, rest.trim())
}

/// Whether an answer is a CECP line the engine may print.
fn is_cecp_answer(line: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "move ",
        "pong",
        "Error (",
        "Illegal move: ",
        "tellusererror ",
        "feature ",
        "setup ",
        "piece ",
        "highlight ",
    ];
    let words: Vec<&str> = line.split_whitespace().collect();
    let thinking = words.len() >= 4
        && words[0].parse::<u32>().is_ok()
        && words[1].parse::<i64>().is_ok()
        && words[2].parse::<u64>().is_ok()
        && words[3].parse::<u64>().is_ok();
    line == "resign" || thinking || PREFIXES.iter().any(|p| line.starts_with(p))
}

proptest! {
    #![proptest_config(config())]

    /// Every time a protocol writes is read by one clamped reader: never above the longest
    /// time, `None` exactly for what is not a number, exact for whole milliseconds.
    #[test]
    fn time_values_of_every_unit(text in time_text(), ms in 0u64..=1_000_000_000_000_000) {
        let number = text.trim().parse::<f64>().ok().filter(|v| !v.is_nan());
        for unit in TIME_UNITS {
            let time = parse_time(&text, unit);
            prop_assert_eq!(time.is_some(), number.is_some(), "{:?} {:?}", text, unit);
            if let Some(t) = time {
                prop_assert!(t <= LONGEST_TIME, "{:?} {:?}: {:?}", text, unit, t);
                if number.unwrap() <= 0.0 {
                    prop_assert_eq!(t, Duration::ZERO);
                }
            }
        }
        prop_assert_eq!(
            parse_time(&ms.to_string(), TimeUnit::Millis),
            Some(Duration::from_millis(ms))
        );
        if let Some(t) = parse_minutes_seconds(&text) {
            prop_assert!(t <= LONGEST_TIME, "{:?}: {:?}", text, t);
        }
        let (minutes, seconds) = (ms % 100_000, ms % 60);
        prop_assert_eq!(
            parse_minutes_seconds(&format!("{minutes}:{seconds:02}")),
            Some(Duration::from_secs(minutes * 60 + seconds))
        );
    }

    /// Random and mutated CECP lines through the protocol loop: it never panics (nor does
    /// its search thread), ends at the end of the input, prints only protocol lines, at
    /// most one error per line and no more moves than lines that can start a search, and
    /// answers every `ping` that no search can hold back with its `pong`.
    #[test]
    fn whole_cecp_lines(
        lines in proptest::collection::vec(
            prop_oneof![
                4 => cecp_line(),
                1 => (proptest::sample::select(&["shogi", "chu", "chukagamigi"][..]), any::<u64>())
                    .prop_map(|(game, pick)| {
                        let start = ["new", "go", "force", "st 1e300", "level 40 1e18 0",
                            "time 99999999999999999999", "sd 1", "ping 1", "analyze",
                            "usermove c3c4", "h4h5", "a4a5", "undo"];
                        let extra = start[(pick % start.len() as u64) as usize];
                        format!("variant {game}\n{extra}")
                    }),
            ],
            1..8,
        ),
        edits in mutations(),
    ) {
        watch_cecp_threads();
        let mut text = lines.join("\n");
        // One line mutated as a whole (bytes flipped, text inserted, fields swapped…).
        if let Some(last) = text.rsplit('\n').next().map(str::to_string) {
            let mutated = apply(&last, &edits).replace('\n', " ");
            if !allocates(&mutated) {
                text.truncate(text.len() - last.len());
                text.push_str(&mutated);
            }
        }
        let sent: Vec<&str> = text.lines().collect();
        let sink = Sink::default();
        let input = std::io::Cursor::new(format!("protover 2\n{text}\n").into_bytes());
        let code = shishi::cecp::run_with(input, Output::new(Box::new(sink.clone())));
        prop_assert_eq!(code, 0);
        prop_assert!(!CECP_THREAD_PANICKED.load(std::sync::atomic::Ordering::SeqCst));
        let written = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let answers: Vec<&str> = written.lines().collect();
        for answer in &answers {
            prop_assert!(is_cecp_answer(answer), "{:?} → {:?}", sent, answer);
        }
        let errors = answers
            .iter()
            .filter(|a| a.starts_with("Error") || a.starts_with("Illegal") || a.starts_with("tell"))
            .count();
        prop_assert!(errors <= sent.len(), "{:?} → {:?}", sent, answers);
        let searches = sent
            .iter()
            .filter(|l| {
                let (command, _) = cecp_command(l);
                command == "go" || command == "usermove" || !CECP_COMMANDS.contains(&command)
            })
            .count();
        let moves = answers.iter().filter(|a| a.starts_with("move ") || **a == "resign").count();
        prop_assert!(moves <= searches, "{:?} → {:?}", sent, answers);
        for line in &sent {
            let (command, rest) = cecp_command(line);
            if command == "go" || command == "usermove" || !CECP_COMMANDS.contains(&command) {
                break;
            }
            if command == "ping" {
                let pong = format!("pong {rest}");
                prop_assert!(answers.contains(&pong.as_str()), "{:?} → {:?}", sent, answers);
            }
        }
    }
}
