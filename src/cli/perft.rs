//! `shishi perft`: counts the legal-move tree of a position to a depth and reports nodes,
//! time and nodes per second, optionally split by first move (`--divide`). For Shogammon
//! the count is over decisions (die actions and `pass`) with the rolls given by `--rolls`.

use super::Variant;
use crate::record;
use crate::rules::game::Game;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::notation::GameText;
use crate::rules::perft::{divide, divide_given_outcomes, perft, perft_given_outcomes};
use crate::rules::variants::chu;
use crate::rules::variants::madness;
use crate::rules::variants::shogammon;
use crate::usi::position::{with_position, RuleOptions, UsiPosition};
use clap::Args;
use std::io::Write;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "Shogammon: plies are decisions (one die action or `pass` each, two per \
turn); rolls are not plies. Along every path the first turn that starts takes the first roll \
of --rolls, the second turn the second roll, and so on, so every path sees the same dice \
(e.g. --startpos --rolls 61,33 --depth 3 counts sente's two actions with 6-1 and gote's \
first action with 3-3). Too few rolls for the depth is an error. --moves takes tokens \
(r:61, pass, 7g7f)."
)]
pub struct PerftArgs {
    /// The game: shogi, chushogi, chukagamigi, shogammon, madness or minishogi.
    #[arg(long, value_parser = super::parse_variant, default_value = "shogi")]
    variant: Variant,
    /// The position as an SFEN.
    #[arg(
        long,
        conflicts_with = "startpos",
        required_unless_present = "startpos"
    )]
    sfen: Option<String>,
    /// Start from the variant's start position.
    #[arg(long)]
    startpos: bool,
    /// USI moves to play from the position before counting. For madness these are the
    /// protocol tokens, starting with the deal (`draw:4 draw:9 7g7f ...`).
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
    /// Plies to count.
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Shogammon: the roll of each turn reached, in order, comma-separated (`61,33` or
    /// `r:61,r:33`).
    #[arg(long, value_delimiter = ',')]
    rolls: Vec<String>,
    /// Shogammon: the die → piece table (`default`, `knight3`, `rook5`, or six groups such
    /// as `P/LN/S/G/BR/K`).
    #[arg(long, default_value = "default")]
    dice: String,
    /// Shogammon: the duty to use the dice, `ordered` (RULES.md §4.3: in the order the
    /// player picks, each die must be used if it can be) or `maximal` (backgammon: as many
    /// dice as possible, else the larger).
    #[arg(long, default_value = "ordered")]
    dice_use: String,
    /// Madness only: chance outcomes, e.g. `draw:3,draw:7,r:5,r:10`. Depth counts decisions
    /// only. Two queues are read in order along every path: die rolls (`r:N`) and card
    /// draws (`draw:N`, also used where a hidden card is revealed). A scripted outcome that
    /// is impossible at its node makes that path count 0; once a queue is used up, its
    /// chance nodes expand every outcome. The game starts before the deal, so the first two
    /// draws are sente's and gote's cards.
    #[arg(long, default_value = "")]
    chance: String,
    /// Madness only: count the tree of this player's view instead of the referee's true
    /// state (`--moves` is then what the player was sent, `draw:?` for the opponent's
    /// cards; hidden cards are revealed at chance nodes just before they are used).
    #[arg(long, value_enum)]
    view: Option<ViewPlayer>,
}

/// Whose view `--view` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ViewPlayer {
    Sente,
    Gote,
}

impl ViewPlayer {
    fn color(self) -> Color {
        match self {
            ViewPlayer::Sente => Color::Sente,
            ViewPlayer::Gote => Color::Gote,
        }
    }
}

pub fn run(args: &PerftArgs) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    if args.variant != Variant::Shogammon && !args.rolls.is_empty() {
        return Err("--rolls applies to --variant shogammon only".to_string());
    }
    match args.variant {
        Variant::Shogammon => run_shogammon(args, &mut stdout)?,
        Variant::Madness => {
            let mut text = match &args.sfen {
                Some(sfen) => format!("sfen {sfen} moves"),
                None => "startpos moves".to_string(),
            };
            for token in args.moves.iter().filter(|m| !m.is_empty()) {
                text.push(' ');
                text.push_str(token);
            }
            let script =
                madness::perft::ChanceScript::parse(&args.chance).map_err(|e| e.to_string())?;
            match args.view {
                None => {
                    let cards = madness::TrueCards::default();
                    let mut game = madness::MadnessGame::from_position_text(&text, cards)
                        .map_err(|e| e.to_string())?;
                    madness_perft(&mut game, args, &script, &mut stdout).map_err(output_error)?;
                }
                Some(player) => {
                    let cards = madness::ViewCards::new(player.color());
                    let mut game = madness::MadnessGame::from_position_text(&text, cards)
                        .map_err(|e| e.to_string())?;
                    madness_perft(&mut game, args, &script, &mut stdout).map_err(output_error)?;
                }
            }
        }
        variant => {
            let mut position = position_from_args(args, variant)?;
            with_position!(&mut position,
                pos => count_and_report(pos.as_mut(), args, GameText::move_text, &mut stdout),
                _cpos => unreachable!("the chance games are counted over their scripts above")
            )
            .map_err(output_error)?;
            // `nodes` counts each distinct action once; `usi-strings` counts every USI
            // spelling, as lishogi/shogiops do (a jump also spelt through an empty square
            // counts twice).
            if let (UsiPosition::Chushogi(pos), false) = (&mut position, args.divide) {
                let spellings = chu::movegen::perft_usi_spellings(pos, args.depth);
                writeln!(stdout, "usi-strings {spellings}").map_err(output_error)?;
            }
        }
    }
    Ok(())
}

/// Shogammon perft over decisions for the given rolls.
fn run_shogammon(args: &PerftArgs, out: &mut impl Write) -> Result<(), String> {
    let dice = shogammon::ShogammonDice::parse(&args.dice)?;
    let mut pos = shogammon::Position::from_sfen_with(
        args.sfen
            .as_deref()
            .unwrap_or(shogammon::notation::START_SFEN),
        dice,
    )
    .map_err(|e| e.to_string())?;
    pos.set_dice_use(shogammon::DiceUse::parse(&args.dice_use)?);
    for text in args.moves.iter().filter(|m| !m.is_empty()) {
        let action = pos.parse_action(text).map_err(|e| e.to_string())?;
        pos.play(action);
    }
    let rolls = args
        .rolls
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| {
            let token = if r.starts_with("r:") {
                r.clone()
            } else {
                format!("r:{r}")
            };
            shogammon::Roll::parse_token(&token)
                .map(shogammon::Roll::to_move)
                .ok_or_else(|| format!("bad roll {r:?} (expected two digits 1-6, e.g. 61)"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let start = Instant::now();
    let nodes = if args.divide {
        let (_, rows) =
            divide_given_outcomes(&mut pos, &rolls, args.depth).map_err(|e| e.to_string())?;
        let rows = rows
            .into_iter()
            .map(|(mv, n)| (pos.action_to_usi(mv), n))
            .collect();
        print_divide(rows, out).map_err(output_error)?
    } else {
        perft_given_outcomes(&mut pos, &rolls, args.depth).map_err(|e| e.to_string())?
    };
    report(out, nodes, start).map_err(output_error)
}

/// Central Madness: perft over decisions with scripted chance outcomes, optionally divided.
fn madness_perft<C: madness::cards::CardModel>(
    game: &mut madness::MadnessGame<C>,
    args: &PerftArgs,
    script: &madness::perft::ChanceScript,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = madness::perft::divide_decisions(game, args.depth, script)
            .into_iter()
            .map(|(mv, n)| (game.action_text(mv), n))
            .collect();
        print_divide(rows, out)?
    } else {
        madness::perft::perft_decisions(game, args.depth, script)
    };
    report(out, nodes, start)
}

/// Counts (and with `--divide` splits) the tree below `pos` and prints the result.
/// Prints `--divide`'s rows (a first move's text and the count below it) sorted by move,
/// and returns their total.
fn print_divide(mut rows: Vec<(String, u64)>, out: &mut impl Write) -> std::io::Result<u64> {
    rows.sort();
    for (mv, n) in &rows {
        writeln!(out, "{mv}: {n}")?;
    }
    Ok(rows.iter().map(|(_, n)| n).sum())
}

/// The position `--sfen` (or `--startpos`) names in `variant`, with `--moves` played on it.
fn position_from_args(args: &PerftArgs, variant: Variant) -> Result<UsiPosition, String> {
    let mut words = record::position_setup_words(args.sfen.as_deref());
    words.push("moves".to_string());
    words.extend(args.moves.iter().filter(|m| !m.is_empty()).cloned());
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    UsiPosition::parse(&words, variant, RuleOptions::default())
}

fn count_and_report<G: Game>(
    pos: &mut G,
    args: &PerftArgs,
    move_to_usi: impl Fn(&G, Move) -> String,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = divide(pos, args.depth)
            .into_iter()
            .map(|(mv, n)| (move_to_usi(pos, mv), n))
            .collect();
        print_divide(rows, out)?
    } else {
        perft(pos, args.depth)
    };
    report(out, nodes, start)
}

fn report(out: &mut impl Write, nodes: u64, start: Instant) -> std::io::Result<()> {
    let seconds = start.elapsed().as_secs_f64();
    writeln!(out, "nodes {nodes}")?;
    writeln!(out, "time {seconds:.3}")?;
    writeln!(out, "nps {:.0}", nodes as f64 / seconds.max(1e-9))
}

/// A write to stdout failed (for example, the reader closed the pipe).
fn output_error(err: std::io::Error) -> String {
    format!("cannot write the result: {err}")
}
