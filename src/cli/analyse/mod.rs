//! `shishi analyse`: a person-readable analysis of one position in any of the games:
//! the board diagram, then the search.
//!
//! This module owns the command line and the dispatch: it reads the position through the
//! USI layer's [`UsiPosition`] (the one place that turns `startpos`/`sfen … moves …` into a
//! position of the chosen game) and hands it to [`deterministic`] (alpha-beta games: the
//! principal variations) or [`chance`] (Shogammon and the Central Madness: the roll table or
//! the ranked turns, as GNU Backgammon's analysis shows them). The board is drawn by
//! [`diagram`].

pub mod board_svg;
pub mod chance;
pub mod deterministic;
pub mod diagram;
pub mod plot;
pub mod review;

use super::Variant;
use crate::eval::nets::{net_game_of, BoardNets, EvalChoices};
use crate::eval::nnue::features::NetGame;
use crate::eval::shogi_choice::EvalChoice;
use crate::rules::game::Game;
use crate::rules::geometry::Color;
use crate::rules::variants::chu::ChuRules;
use crate::rules::variants::madness::{self, Phase, Token};
use crate::rules::variants::shogammon::{DiceUse, ShogammonDice};
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::ParallelMode;
use crate::usi::position::{with_position, RuleOptions, UsiPosition};
use clap::Args;
use diagram::Diagram;
use std::time::Duration;

/// Prints a line on stdout; a closed pipe (`| head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}
pub(crate) use say;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Chance games (shogammon, madness): before a roll (or a card draw) \
the analysis is a table of every outcome with its probability, the best whole turn after it \
and that turn's value, then the position's expected value (the probability-weighted mean of \
the table). After the roll it ranks whole turns (`7g7f,5i4h`) by value with the difference to \
the best; in the Madness card-or-roll choice, the card (`c:N`) and `roll` are ranked the same \
way. Values are equities from the point of view of the player to act: +1 a certain win, -1 a \
certain loss, with the win chance beside them."
)]
pub struct AnalyseArgs {
    /// The game.
    #[arg(long, value_parser = super::parse_variant, default_value = "shogi")]
    variant: Variant,
    /// The position as an SFEN.
    #[arg(
        long,
        conflicts_with_all = ["startpos", "record"],
        required_unless_present_any = ["startpos", "record"]
    )]
    sfen: Option<String>,
    /// Start from the game's start position.
    #[arg(long, conflicts_with = "record")]
    startpos: bool,
    /// Review a whole game: a KIF (UTF-8), CSA or `.usi` record (`shishi match` writes
    /// `.usi` in every game). Every position is searched (--movetime each, default 500 ms,
    /// or --depth); marks: shogi and the 12×12 games by the centipawn loss, inaccuracy ?!
    /// from 100, mistake ? from 300, blunder ?? from 800; Shogammon and the Madness by the
    /// equity loss as GNU Backgammon marks it, from 0.04, 0.08, 0.16.
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// With --record: also write the review as JSON to this file.
    #[arg(long, value_name = "FILE", requires = "record")]
    json: Option<String>,
    /// With --record: write the evaluation graph (sente's value by move, marks, chance
    /// events) as SVG to this file.
    #[arg(long, value_name = "FILE.svg", requires = "record")]
    plot: Option<String>,
    /// Write the analysed position's board as SVG to this file.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "record")]
    board_svg: Option<String>,
    /// Moves to play from the position first (USI moves; in the chance games the protocol
    /// tokens too: `r:61`, `pass`, `draw:4`, `c:7`, `roll`, `r:10`, `mad+`).
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
    /// Think for this many milliseconds (the default is 5000 unless --depth is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search to this depth (whole turns in Shogammon, moves in the Madness), 1 to 120.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=120))]
    depth: Option<u32>,
    /// Principal variations to show (deterministic games); turns ranked (chance games,
    /// default 5), 1 to 600.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=600))]
    multipv: Option<u32>,
    /// Search threads (1 to 1024).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// How threads share the search: lazysmp or rootsplit (default rootsplit).
    #[arg(long, value_parser = parse_parallel)]
    parallel: Option<ParallelMode>,
    /// Transposition table size in MiB (1..=1048576).
    #[arg(long, default_value_t = 64, value_parser = super::parse_hash_mib)]
    hash: usize,
    /// Chu Shogi: the rule set (`lishogi`, `churul` or `jcsa`).
    #[arg(long, value_parser = parse_chu_rules, default_value = "lishogi")]
    chu_rules: ChuRules,
    /// Shogammon: the die → piece table (`default`, `knight3`, `rook5`, or six groups such
    /// as `P/LN/S/G/BR/K`).
    #[arg(long, value_parser = ShogammonDice::parse, default_value = "default")]
    dice: ShogammonDice,
    /// Shogammon: the duty to use the dice, `ordered` or `maximal` (as in `perft`).
    #[arg(long, value_parser = DiceUse::parse, default_value = "ordered")]
    dice_use: DiceUse,
    /// Shogi: the entering-king rule a `bestmove win` is judged by (csa27, jsa24, try, none).
    #[arg(long, value_parser = parse_entering_king, default_value = "csa27")]
    entering_king: EnteringKingRule,
    /// Standard shogi's evaluation: the net built into the engine or the hand-written tables
    /// (as the `ShogiEval` option of docs/USI.md; the same default).
    #[arg(long, value_parser = parse_eval_choice, default_value = EvalChoice::SHOGI_DEFAULT.name())]
    shogi_eval: EvalChoice,
    /// The Central Madness's board's evaluation: its net built into the engine or the
    /// hand-written tables (as the `MadnessEval` option; the same default).
    #[arg(long, value_parser = parse_eval_choice, default_value = EvalChoice::MADNESS_DEFAULT.name())]
    madness_eval: EvalChoice,
    /// Chu Shogi's evaluation: the net built into the engine over the tables, or the
    /// hand-written tables alone (as the `ChuEval` option; the same default).
    #[arg(long, value_parser = parse_eval_choice, default_value = EvalChoice::CHU_DEFAULT.name())]
    chu_eval: EvalChoice,
    /// Chu Kagamigi's evaluation: the net built into the engine over the tables, or the
    /// hand-written tables alone (as the `KagamigiEval` option; the same default).
    #[arg(long, value_parser = parse_eval_choice, default_value = EvalChoice::KAGAMIGI_DEFAULT.name())]
    kagamigi_eval: EvalChoice,
    /// Shogammon's evaluation: the hand-written evaluation alone, or the net built into the
    /// engine inside it (as the `ShogammonEval` option; the same default).
    #[arg(long, value_parser = parse_eval_choice, default_value = EvalChoice::SHOGAMMON_DEFAULT.name())]
    shogammon_eval: EvalChoice,
    /// A net file for the game analysed, as the USI options take them: a YaneuraOu `nn.bin`
    /// (halfkp or kp) for standard shogi (whatever --shogi-eval says) and the Madness's board
    /// (with --madness-eval net), or one of Shishi's own for Chu Shogi (whatever --chu-eval
    /// says), Chu Kagamigi (whatever --kagamigi-eval says) or Shogammon (whatever
    /// --shogammon-eval says; docs/NNUE.md).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<std::path::PathBuf>,
    /// Madness: whose view is analysed (default: the player whose card the deal shows,
    /// sente when the deal is not in --moves).
    #[arg(long, value_enum)]
    view: Option<ViewPlayer>,
    /// Madness: the viewer's card when the deal is not in --moves (hidden otherwise).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=10))]
    card: Option<u8>,
}

/// Whose view `--view` analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ViewPlayer {
    Sente,
    Gote,
}

pub(crate) fn parse_parallel(text: &str) -> Result<ParallelMode, String> {
    ParallelMode::from_name(text)
        .ok_or_else(|| format!("{text:?} is neither lazysmp nor rootsplit"))
}

fn parse_chu_rules(text: &str) -> Result<ChuRules, String> {
    ChuRules::from_name(text).ok_or_else(|| format!("{text:?} is not lishogi, churul or jcsa"))
}

fn parse_eval_choice(text: &str) -> Result<EvalChoice, String> {
    EvalChoice::from_name(text).ok_or_else(|| format!("{text:?} is neither net nor hand-written"))
}

fn parse_entering_king(text: &str) -> Result<EnteringKingRule, String> {
    EnteringKingRule::from_name(text)
        .ok_or_else(|| format!("{text:?} is not csa27, jsa24, try or none"))
}

/// How long and how wide to search, and with which nets, shared by both kinds of game.
#[derive(Clone)]
pub struct SearchBudget {
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub lines: Option<usize>,
    pub threads: usize,
    pub parallel: Option<ParallelMode>,
    pub hash_mb: usize,
    pub entering_king: EnteringKingRule,
    /// Each game's net (`None`: its hand-written evaluation).
    pub nets: BoardNets,
    /// The game of the net file named (`--eval-file`), if any.
    pub file_game: Option<NetGame>,
}

impl Default for SearchBudget {
    /// No limit, one line, one thread, a 16 MiB table, the default rules and evaluation.
    fn default() -> Self {
        SearchBudget {
            movetime: None,
            depth: None,
            lines: None,
            threads: 1,
            parallel: None,
            hash_mb: 16,
            entering_king: EnteringKingRule::default(),
            nets: BoardNets::chosen(EvalChoices::default(), None),
            file_game: None,
        }
    }
}

impl SearchBudget {
    /// Whether the net file named can evaluate `variant` (with the settings that use it).
    pub fn check_file_for(&self, variant: Variant) -> Result<(), String> {
        let Some(file_game) = self.file_game else {
            return Ok(());
        };
        if net_game_of(variant) != Some(file_game) {
            return Err(format!(
                "--eval-file: the net evaluates {}, not {}",
                file_game.name(),
                variant.name()
            ));
        }
        if variant == Variant::Madness && self.nets.madness.is_none() {
            return Err(
                "--eval-file: the Madness values its board with a net under --madness-eval net only"
                    .to_string(),
            );
        }
        Ok(())
    }
}

impl AnalyseArgs {
    fn budget(&self) -> Result<SearchBudget, String> {
        let file = match &self.eval_file {
            None => None,
            Some(path) => {
                let bytes = std::fs::read(path)
                    .map_err(|e| format!("--eval-file: cannot read {}: {e}", path.display()))?;
                let net = crate::eval::nnue::file::parse(&bytes)
                    .map_err(|e| format!("--eval-file: cannot use {}: {e}", path.display()))?;
                Some(std::sync::Arc::new(net))
            }
        };
        let default_ms = if self.record.is_some() { 500 } else { 5000 };
        let movetime = match (self.movetime, self.depth) {
            (None, None) => Some(default_ms),
            (t, _) => t,
        };
        Ok(SearchBudget {
            movetime: movetime.map(Duration::from_millis),
            depth: self.depth,
            lines: self.multipv.map(|k| k as usize),
            threads: self.threads as usize,
            parallel: self.parallel,
            hash_mb: self.hash,
            entering_king: self.entering_king,
            file_game: file.as_ref().map(|net| net.features.game()),
            nets: BoardNets::chosen(
                EvalChoices {
                    shogi: self.shogi_eval,
                    madness: self.madness_eval,
                    chu: self.chu_eval,
                    kagamigi: self.kagamigi_eval,
                    shogammon: self.shogammon_eval,
                },
                file,
            ),
        })
    }

    /// The `position` arguments (`startpos|sfen …`, then `moves …`) these options name.
    fn position_words(&self) -> Vec<String> {
        let mut words = crate::record::position_setup_words(self.sfen.as_deref());
        let moves: Vec<&String> = self.moves.iter().filter(|m| !m.is_empty()).collect();
        if !moves.is_empty() {
            words.push("moves".to_string());
            words.extend(moves.into_iter().cloned());
        }
        words
    }

    /// The position to analyse, in the chosen game.
    pub fn position(&self) -> Result<UsiPosition, String> {
        let words = self.position_words();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let rules = RuleOptions {
            chu_rules: self.chu_rules,
            dice: self.dice,
        };
        if self.variant != Variant::Madness && (self.view.is_some() || self.card.is_some()) {
            return Err("--view and --card apply to --variant madness only".to_string());
        }
        let mut position = match (self.variant, self.view) {
            (Variant::Madness, Some(view)) => {
                let me = match view {
                    ViewPlayer::Sente => Color::Sente,
                    ViewPlayer::Gote => Color::Gote,
                };
                let view = madness::PlayerView::from_position_text(
                    &words.join(" "),
                    madness::ViewCards::new(me),
                )
                .map_err(|e| e.to_string())?;
                UsiPosition::Madness(Box::new(view))
            }
            (variant, _) => UsiPosition::parse(&words, variant, rules)?,
        };
        match &mut position {
            UsiPosition::Shogammon(pos) => pos.set_dice_use(self.dice_use),
            UsiPosition::Madness(view) => complete_deal(view, self.card)?,
            _ => {}
        }
        Ok(position)
    }
}

/// Writes `text` to the file `path`.
fn write_file(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
}

/// Deals the cards a Madness position still waits for: the viewer's `card` (hidden when not
/// given), the opponent's hidden, so that the analysis starts at the first decision.
fn complete_deal(view: &mut madness::PlayerView, card: Option<u8>) -> Result<(), String> {
    let me = view.cards().me;
    // Sente's card is dealt first: before it, nobody's card is dealt.
    let mine_to_come = matches!(view.phase(), Phase::Deal(c) if c == me || c == Color::Sente);
    if card.is_some() && !mine_to_come {
        return Err("--card applies only when --moves does not deal the viewer's card".into());
    }
    while let Phase::Deal(receiver) = view.phase() {
        match card {
            Some(n) if receiver == view.cards().me => view
                .play_texts([format!("draw:{}", n % 10).as_str()])
                .map_err(|e| format!("--card: {e}"))?,
            // A card nobody told us: the deal's chance outcome as the search plays it (a
            // received stream may not hide the viewer's own card, but an analysis may).
            _ => Game::play(view, Token::DrawHidden.to_move()),
        }
    }
    Ok(())
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let budget = args.budget()?;
    if let Some(path) = &args.record {
        let rules = RuleOptions {
            chu_rules: args.chu_rules,
            dice: args.dice,
        };
        let mut progress = crate::cli::progress::Progress::new("review");
        let reviewed = review::run(
            path,
            rules,
            &budget,
            args.json.as_deref(),
            &mut |done, total| progress.step(done, total),
        )?;
        progress.finish();
        if let Some(out) = &args.plot {
            let title = format!("{path} ({})", reviewed.variant.name());
            write_file(out, &plot::plot_svg(&reviewed, &title))?;
        }
        return Ok(());
    }
    budget.check_file_for(args.variant)?;
    let position = args.position()?;
    if let Some(out) = &args.board_svg {
        let board = with_position!(&position, pos => pos.board(), cpos => cpos.board());
        write_file(out, &board_svg::board_svg(&board))?;
    }
    with_position!(&position,
        pos => {
            say!("{}", pos.board().text().trim_end());
            deterministic::analyse(pos.as_ref(), &budget);
        },
        cpos => {
            say!("{}", cpos.board().text().trim_end());
            chance::analyse(cpos.as_ref(), &budget);
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: AnalyseArgs,
    }

    fn args(words: &str) -> AnalyseArgs {
        let argv = std::iter::once("analyse").chain(words.split(' '));
        Cli::try_parse_from(argv).expect("valid arguments").args
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(run(&args("--sfen x --depth 1")).is_err());
        let twice = AnalyseArgs {
            moves: vec!["7g7f".into(), "7g7f".into()],
            ..args("--startpos --depth 1")
        };
        assert!(twice.position().is_err());
        assert!(args("--variant chushogi --startpos --view sente")
            .position()
            .is_err());
        assert!(args("--variant madness --startpos --card 4 --moves draw:3")
            .position()
            .is_err());
    }

    #[test]
    fn numbers_that_mean_nothing_are_refused() {
        let parse = |words: &str| {
            let argv = std::iter::once("analyse").chain(words.split(' '));
            Cli::try_parse_from(argv).map(|cli| cli.args)
        };
        for nonsense in [
            "--threads 0",
            "--multipv 0",
            "--depth 0",
            "--movetime 0",
            "--depth 121",
            "--multipv 601",
            "--threads 1025",
        ] {
            let error = parse(&format!("--startpos {nonsense}"))
                .err()
                .unwrap_or_else(|| panic!("{nonsense} was accepted"));
            let flag = nonsense.split(' ').next().unwrap_or_default();
            assert!(error.to_string().contains(flag), "{nonsense}: {error}");
        }
        for sensible in ["--threads 2", "--multipv 1", "--depth 1", "--movetime 1"] {
            assert!(
                parse(&format!("--startpos {sensible}")).is_ok(),
                "{sensible}"
            );
        }
    }

    #[test]
    fn every_game_reads_its_start_position() {
        for &variant in Variant::ALL {
            let position = args(&format!("--variant {} --startpos", variant.name()))
                .position()
                .unwrap();
            assert_eq!(position.variant(), variant);
        }
    }

    #[test]
    fn the_madness_deal_is_completed_for_the_view() {
        let position = args("--variant madness --startpos --view gote --card 0")
            .position()
            .unwrap();
        let UsiPosition::Madness(view) = position else {
            panic!("not madness")
        };
        assert_eq!(view.phase(), Phase::Normal);
        assert_eq!(view.cards().me, Color::Gote);
        assert_eq!(view.cards().own.map(|c| c.get()), Some(10));
    }

    #[test]
    fn chu_rules_and_dice_reach_the_position() {
        let UsiPosition::Chushogi(chu) = args("--variant chushogi --startpos --chu-rules jcsa")
            .position()
            .unwrap()
        else {
            panic!("not chu")
        };
        assert_eq!(chu.rules(), ChuRules::Jcsa);
        let UsiPosition::Shogammon(pos) =
            args("--variant shogammon --startpos --dice-use maximal --moves r:61")
                .position()
                .unwrap()
        else {
            panic!("not shogammon")
        };
        assert_eq!(pos.dice_use(), DiceUse::Maximal);
    }
}
