//! The one table of the engine's options, [`OPTIONS`]: each option declared once with its
//! name, aliases, kind (with range or choices, and the setter that stores a value), default,
//! effect, the protocols that offer it and a line of help. The USI `option name … type …`
//! lines and the CECP `feature option=` texts are both generated from it, and `setoption`
//! (in `usi::options`) goes through it. A combo's choices are its enum's own list of names.

use super::options::{path_value, Effect, EvalChoice, HashMb, Options, HASH_MAX};
use crate::rules::variants::chu::ChuRules;
use crate::rules::variants::shogammon::ShogammonDice;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::rules::variants::Variant;
use crate::search::chance::ChanceAlgorithm;
use crate::search::ParallelMode;
use std::time::Duration;
/// What an option's value is, with the setter that stores it.
#[derive(Clone, Copy)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        min: i64,
        max: i64,
        set: fn(&mut Options, i64),
    },
    /// `true` or `false`.
    Check(fn(&mut Options, bool)),
    /// One of the names `names` lists (an enum's own list); `set` reads the value and
    /// refuses what it cannot read (it may accept other spellings too).
    Combo {
        names: fn() -> Vec<&'static str>,
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
    /// Free text, or the name of a file or of a folder (USI declares all three `string`;
    /// CECP offers a chooser for a file or a folder).
    Text(TextKind, fn(&mut Options, &str)),
    /// No value: the option is an action.
    Button,
}

/// What a text option names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    File,
    Folder,
}

/// Which engines offer an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// USI and CECP.
    Both,
    /// USI only (CECP sets these with commands of its own, or they mean nothing there).
    UsiOnly,
    /// USI only, one of the opening book's options.
    Book,
}

/// One option, declared once: both protocols' declarations and `setoption` come from here.
pub struct OptionSpec {
    /// The declared name (no spaces: the USI rule).
    pub name: &'static str,
    /// Other names `setoption` accepts (compared case-insensitively, spaces as `_`).
    pub aliases: &'static [&'static str],
    pub kind: OptionKind,
    /// The default value as declared (the initial [`Options`] hold it; a test checks).
    pub default: &'static str,
    /// What the protocol layer must do after the option is set.
    pub effect: Effect,
    pub offered: Offered,
    /// One line on what the option does (docs/USI.md says more).
    pub help: &'static str,
}

/// The names of an enum's values, in its own order.
fn names_of<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|&value| name(value)).collect()
}

/// `what` read from `text` by `read`, or the error that lists the names `names` gives.
fn chosen<T>(
    text: &str,
    read: impl Fn(&str) -> Option<T>,
    names: fn() -> Vec<&'static str>,
) -> Result<T, String> {
    read(text.trim()).ok_or_else(|| format!("{text:?} is not one of {}", names().join(", ")))
}

/// The combo of an enum's names (`ALL`, `name`, `from_name`), setting the value read into
/// the options' field `$field` (of the options `$o`).
macro_rules! enum_combo {
    ($enum:ident, |$o:ident| $field:expr) => {
        OptionKind::Combo {
            names: || names_of(&$enum::ALL, $enum::name),
            set: |$o, text| {
                $field = chosen(text, $enum::from_name, || {
                    names_of(&$enum::ALL, $enum::name)
                })?;
                Ok(())
            },
        }
    };
}

/// Every declared option, in the order `usi` lists them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "USI_Hash",
        aliases: &["hash"],
        kind: OptionKind::Spin {
            min: 1,
            max: HASH_MAX,
            set: |o, n| o.hash = HashMb(n as usize),
        },
        default: "256",
        effect: Effect::None,
        offered: Offered::UsiOnly,
        help: "Size of the search table in MiB, allocated at isready.",
    },
    OptionSpec {
        name: "USI_Ponder",
        aliases: &["ponder"],
        kind: OptionKind::Check(|o, b| o.ponder = b),
        default: "false",
        effect: Effect::None,
        offered: Offered::UsiOnly,
        help: "Whether the GUI may send go ponder.",
    },
    OptionSpec {
        name: "Threads",
        aliases: &["usi_threads", "numberofthreads"],
        kind: OptionKind::Spin {
            min: 1,
            max: 1024,
            set: |o, n| o.search.threads = n as usize,
        },
        default: "1",
        effect: Effect::None,
        offered: Offered::UsiOnly,
        help: "Search threads.",
    },
    OptionSpec {
        name: "ParallelMode",
        aliases: &[],
        kind: enum_combo!(ParallelMode, |o| o.search.parallel),
        default: "lazysmp",
        effect: Effect::None,
        offered: Offered::Both,
        help: "How threads beyond the first share a search.",
    },
    OptionSpec {
        name: "MultiPV",
        aliases: &["usi_multipv"],
        // More than the most legal moves a shogi position can have (593).
        kind: OptionKind::Spin {
            min: 1,
            max: 600,
            set: |o, n| o.search.multipv = n as usize,
        },
        default: "1",
        effect: Effect::None,
        offered: Offered::Both,
        help: "Principal variations searched and printed.",
    },
    OptionSpec {
        name: "NetworkDelay",
        aliases: &[],
        kind: OptionKind::Spin {
            min: 0,
            max: 60_000,
            set: |o, n| o.search.network_delay = Duration::from_millis(n as u64),
        },
        default: "120",
        effect: Effect::None,
        offered: Offered::Both,
        help: "Average latency in ms subtracted from planned times.",
    },
    OptionSpec {
        name: "NetworkDelay2",
        aliases: &[],
        kind: OptionKind::Spin {
            min: 0,
            max: 60_000,
            set: |o, n| o.search.network_delay2 = Duration::from_millis(n as u64),
        },
        default: "1120",
        effect: Effect::None,
        offered: Offered::Both,
        help: "Worst-case latency in ms taken off the hard time limit.",
    },
    OptionSpec {
        name: "MaxMovesToDraw",
        aliases: &[],
        kind: OptionKind::Spin {
            min: 0,
            max: 100_000,
            set: |o, n| o.search.max_moves_to_draw = n as u32,
        },
        default: "0",
        effect: Effect::None,
        offered: Offered::Both,
        help: "Plies after which the search scores the game a draw (0: no limit).",
    },
    OptionSpec {
        name: "DepthLimit",
        aliases: &[],
        kind: OptionKind::Spin {
            min: 0,
            max: 120,
            set: |o, n| o.search.depth_limit = n as u32,
        },
        default: "0",
        effect: Effect::None,
        offered: Offered::Both,
        help: "Caps the depth of every search (0: no cap).",
    },
    OptionSpec {
        name: "ChanceAlgorithm",
        aliases: &[],
        kind: enum_combo!(ChanceAlgorithm, |o| o.search.chance_algorithm),
        default: "star2",
        effect: Effect::None,
        offered: Offered::UsiOnly,
        help: "How the dice and card games search chance events.",
    },
    OptionSpec {
        name: "USI_Variant",
        aliases: &["uci_variant"],
        kind: enum_combo!(Variant, |o| o.variant),
        default: "shogi",
        effect: Effect::NewGame,
        offered: Offered::UsiOnly,
        help: "The game.",
    },
    OptionSpec {
        name: "EnteringKingRule",
        aliases: &[],
        kind: enum_combo!(EnteringKingRule, |o| o.entering_king),
        default: "csa27",
        effect: Effect::None,
        offered: Offered::Both,
        help: "When an entering-king win is declared.",
    },
    OptionSpec {
        name: "ChuRules",
        aliases: &[],
        kind: enum_combo!(ChuRules, |o| o.chu_rules),
        default: "lishogi",
        effect: Effect::NewGame,
        offered: Offered::Both,
        help: "The Chu Shogi rule set.",
    },
    OptionSpec {
        name: "ShogammonDice",
        aliases: &[],
        kind: OptionKind::Combo {
            names: || ShogammonDice::NAMED.map(|(name, _)| name).to_vec(),
            set: |o, text| {
                o.dice = ShogammonDice::parse(text.trim())?;
                Ok(())
            },
        },
        default: "default",
        effect: Effect::NewGame,
        offered: Offered::UsiOnly,
        help: "Shogammon's die to piece table.",
    },
    OptionSpec {
        name: "ShogiEval",
        aliases: &[],
        kind: enum_combo!(EvalChoice, |o| o.net.choices.shogi),
        default: EvalChoice::SHOGI_DEFAULT.name(),
        effect: Effect::Net,
        offered: Offered::Both,
        help: "Standard shogi's evaluation when EvalFile and EvalDir name no net (or one that cannot be used): the net built into the engine or the hand-written tables.",
    },
    OptionSpec {
        name: "MadnessEval",
        aliases: &[],
        kind: enum_combo!(EvalChoice, |o| o.net.choices.madness),
        default: EvalChoice::MADNESS_DEFAULT.name(),
        effect: Effect::Net,
        offered: Offered::UsiOnly,
        help: "The Central Madness's board's evaluation: a net (the one EvalFile or EvalDir names, else the Madness's built-in net) or the hand-written tables.",
    },
    OptionSpec {
        name: "EvalDir",
        aliases: &[],
        kind: OptionKind::Text(TextKind::Folder, |o, text| o.net.dir = path_value(text)),
        default: crate::eval::nnue::builtin::NAME,
        effect: Effect::Net,
        offered: Offered::Both,
        help: "A folder holding the net nn.bin for standard shogi (and the Madness's board under MadnessEval net); <builtin>: none, ShogiEval decides.",
    },
    OptionSpec {
        name: "EvalFile",
        aliases: &[],
        kind: OptionKind::Text(TextKind::File, |o, text| o.net.file = path_value(text)),
        default: "<empty>",
        effect: Effect::Net,
        offered: Offered::Both,
        help: "The net file for standard shogi (and the Madness's board under MadnessEval net); wins over EvalDir.",
    },
    OptionSpec {
        name: "ChuEvalFile",
        aliases: &[],
        kind: OptionKind::Text(TextKind::File, |o, text| o.net.chu_file = path_value(text)),
        default: "<empty>",
        effect: Effect::Net,
        offered: Offered::Both,
        help: "A net file for Chu Shogi (Shishi's chu-p_256x2-32-32, docs/NNUE.md); <empty>: ChuEval decides.",
    },
    OptionSpec {
        name: "ChuEval",
        aliases: &[],
        kind: enum_combo!(EvalChoice, |o| o.net.choices.chu),
        default: EvalChoice::CHU_DEFAULT.name(),
        effect: Effect::Net,
        offered: Offered::Both,
        help: "Chu Shogi's evaluation when ChuEvalFile names no net (or one that cannot be used): the net built into the engine over the tables, or the hand-written tables alone.",
    },
    OptionSpec {
        name: "KagamigiEval",
        aliases: &[],
        kind: enum_combo!(EvalChoice, |o| o.net.choices.kagamigi),
        default: EvalChoice::KAGAMIGI_DEFAULT.name(),
        effect: Effect::Net,
        offered: Offered::Both,
        help: "Chu Kagamigi's evaluation when KagamigiEvalFile names no net (or one that cannot be used): the net built into the engine over the tables, or the hand-written tables alone.",
    },
    OptionSpec {
        name: "KagamigiEvalFile",
        aliases: &[],
        kind: OptionKind::Text(TextKind::File, |o, text| o.net.kagamigi_file = path_value(text)),
        default: "<empty>",
        effect: Effect::Net,
        offered: Offered::Both,
        help: "A net file for Chu Kagamigi (Shishi's kagamigi-p_256x2-32-32, docs/NNUE.md); <empty>: KagamigiEval decides.",
    },
    OptionSpec {
        name: "ShogammonEval",
        aliases: &[],
        kind: enum_combo!(EvalChoice, |o| o.net.choices.shogammon),
        default: EvalChoice::SHOGAMMON_DEFAULT.name(),
        effect: Effect::Net,
        offered: Offered::UsiOnly,
        help: "Shogammon's evaluation when ShogammonEvalFile names no net (or one that cannot be used): the hand-written evaluation alone, or the net built into the engine inside it (stronger at small node counts only).",
    },
    OptionSpec {
        name: "ShogammonEvalFile",
        aliases: &[],
        kind: OptionKind::Text(TextKind::File, |o, text| o.net.shogammon_file = path_value(text)),
        default: "<empty>",
        effect: Effect::Net,
        offered: Offered::UsiOnly,
        help: "A net file for Shogammon (Shishi's shogammon-p_256x2-32-32 or shogammon-pk_256x2-32-32, docs/NNUE.md); <empty>: ShogammonEval decides.",
    },
    OptionSpec {
        name: "Clear_Hash",
        aliases: &[],
        kind: OptionKind::Button,
        default: "",
        effect: Effect::ClearHash,
        offered: Offered::Both,
        help: "Forgets the search state.",
    },
    book_option(
        "USI_OwnBook",
        OptionKind::Check(|o, b| o.book.choice.own_book = b),
        "true",
        "Use the book at all.",
    ),
    book_option(
        "BookFile",
        OptionKind::Text(TextKind::File, |o, text| {
            o.book.file = text.trim().to_string()
        }),
        "no_book",
        "The book file; no_book turns the book off.",
    ),
    book_option(
        "BookDir",
        OptionKind::Text(TextKind::Folder, |o, text| {
            o.book.dir = text.trim().to_string()
        }),
        ".",
        "The folder BookFile is in.",
    ),
    book_spin(
        "BookMoves",
        "16",
        0,
        10_000,
        "The last move number played from the book.",
        |o, n| o.book.choice.max_ply = n as u32,
    ),
    book_spin(
        "BookIgnoreRate",
        "0",
        0,
        100,
        "Per cent of lookups skipped at random.",
        |o, n| o.book.choice.ignore_rate = n as u32,
    ),
    book_spin(
        "BookEvalDiff",
        "30",
        0,
        99_999,
        "How far below the best a book move may score.",
        |o, n| o.book.choice.eval_diff = n as i32,
    ),
    book_spin(
        "BookEvalBlackLimit",
        "0",
        -99_999,
        99_999,
        "The lowest score sente plays a book move at.",
        |o, n| o.book.choice.eval_limit[0] = n as i32,
    ),
    book_spin(
        "BookEvalWhiteLimit",
        "-140",
        -99_999,
        99_999,
        "The lowest score gote plays a book move at.",
        |o, n| o.book.choice.eval_limit[1] = n as i32,
    ),
    book_spin(
        "BookDepthLimit",
        "16",
        0,
        99_999,
        "The least depth a book move's score must come from.",
        |o, n| o.book.choice.depth_limit = n as i32,
    ),
    book_option(
        "BookOnTheFly",
        OptionKind::Check(|o, b| o.book.on_the_fly = b),
        "false",
        "Look moves up in the file instead of reading it whole.",
    ),
    book_option(
        "ConsiderBookMoveCount",
        OptionKind::Check(|o, b| o.book.choice.weigh_by_count = b),
        "false",
        "Choose book moves by how often they were played.",
    ),
    book_option(
        "IgnoreBookPly",
        OptionKind::Check(|o, b| o.book.ignore_ply = b),
        "false",
        "Positions match whatever their move number.",
    ),
    book_spin(
        "BookPvMoves",
        "8",
        1,
        246,
        "Book moves printed as the principal variation.",
        |o, n| o.book.choice.pv_moves = n as u32,
    ),
    book_spin(
        "BookSeed",
        "0",
        0,
        i32::MAX as i64,
        "The seed of the book's random choices (0: new each run).",
        |o, n| o.book.seed = n as u64,
    ),
];

/// An option of the opening book: USI offers it, and it takes effect at the next lookup.
const fn book_option(
    name: &'static str,
    kind: OptionKind,
    default: &'static str,
    help: &'static str,
) -> OptionSpec {
    OptionSpec {
        name,
        aliases: &[],
        kind,
        default,
        effect: Effect::None,
        offered: Offered::Book,
        help,
    }
}

/// A spin option of the opening book.
const fn book_spin(
    name: &'static str,
    default: &'static str,
    min: i64,
    max: i64,
    help: &'static str,
    set: fn(&mut Options, i64),
) -> OptionSpec {
    book_option(name, OptionKind::Spin { min, max, set }, default, help)
}
impl OptionSpec {
    /// The USI declaration: `option name NAME type KIND …`.
    pub fn usi_line(&self) -> String {
        let name = self.name;
        let default = self.default;
        match self.kind {
            OptionKind::Spin { min, max, .. } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check(_) => format!("option name {name} type check default {default}"),
            OptionKind::Combo { names, .. } => {
                let vars: String = names().iter().map(|n| format!(" var {n}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Text(..) => format!("option name {name} type string default {default}"),
            OptionKind::Button => format!("option name {name} type button"),
        }
    }

    /// The CECP declaration (the text of `feature option="…"`): `NAME -spin DEF MIN MAX`,
    /// `NAME -check 0|1`, `NAME -combo *DEF /// OTHER`, `NAME -button`, `NAME -path DEF`
    /// for a folder and `NAME -file DEF` for a file; `None` when CECP does not offer it.
    pub fn cecp_line(&self) -> Option<String> {
        if self.offered != Offered::Both {
            return None;
        }
        let name = self.name;
        let default = self.default;
        Some(match self.kind {
            OptionKind::Spin { min, max, .. } => format!("{name} -spin {default} {min} {max}"),
            OptionKind::Check(_) => {
                format!("{name} -check {}", u8::from(default == "true"))
            }
            OptionKind::Combo { names, .. } => {
                let choices: Vec<String> = names()
                    .iter()
                    .map(|n| {
                        if *n == default {
                            format!("*{n}")
                        } else {
                            n.to_string()
                        }
                    })
                    .collect();
                format!("{name} -combo {}", choices.join(" /// "))
            }
            OptionKind::Button => format!("{name} -button"),
            OptionKind::Text(what, _) => {
                let default = if default == "<empty>" { "" } else { default };
                let chooser = match what {
                    TextKind::File => "file",
                    TextKind::Folder => "path",
                };
                format!("{name} -{chooser} {default}")
            }
        })
    }

    /// Whether `name`, as sent (any case, spaces for `_`), names this option.
    fn is_called(&self, name: &str) -> bool {
        let key: String = name
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("_")
            .to_ascii_lowercase();
        key == self.name.to_ascii_lowercase() || self.aliases.contains(&key.as_str())
    }
}

/// The option lines sent in answer to `usi`.
pub fn declarations() -> Vec<String> {
    OPTIONS.iter().map(OptionSpec::usi_line).collect()
}

/// The declared option `name` (as sent) names, if any.
pub fn find_option(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|spec| spec.is_called(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combo's default is one of its choices, and every choice is accepted by its
    /// setter: the lists come from the enums, the setters read the same names.
    #[test]
    fn combo_choices_are_read_back_by_their_setters() {
        let mut combos = 0;
        for spec in OPTIONS {
            if let OptionKind::Combo { names, set } = spec.kind {
                let names = names();
                assert!(names.contains(&spec.default), "{}", spec.name);
                for name in names {
                    let mut options = Options::default();
                    assert_eq!(set(&mut options, name), Ok(()), "{} {name}", spec.name);
                }
                let mut options = Options::default();
                assert!(
                    set(&mut options, "no-such-choice").is_err(),
                    "{}",
                    spec.name
                );
                combos += 1;
            }
        }
        assert_eq!(combos, 11);
    }

    /// Names and aliases are unique across the table, so a name sent finds one option.
    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<String> = OPTIONS
            .iter()
            .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().copied()))
            .map(str::to_ascii_lowercase)
            .collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count);
    }
}
