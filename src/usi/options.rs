//! The engine's option values ([`Options`]) and `setoption` (names case-insensitive,
//! aliases, range and combo checks), through the one table of options in
//! `usi::option_table`, from which the USI and CECP declarations are generated.
//!
//! Option names contain no spaces (USI rule). The "Clear Hash" button is therefore
//! declared as `Clear_Hash`; `setoption name Clear Hash` is accepted as well. `USI_MultiPV`
//! is an alias of `MultiPV`, `UCI_Variant` of `USI_Variant`, `Hash` of `USI_Hash`, and
//! `USI_Threads`/`NumberOfThreads` of `Threads`, because GUIs and bots send these spellings.
//!
//! The search's tunable numbers (`Search_…`, `search::params`) are accepted by `setoption`
//! but not declared: they are for tuning and gating, not for players.

pub use super::option_table::{
    declarations, find_option, Offered, OptionKind, OptionSpec, TextKind, OPTIONS,
};
use super::position::RuleOptions;
pub use crate::eval::nets::BoardNets;
use crate::eval::nets::EvalChoices;
use crate::eval::nnue::features::NetGame;
use crate::eval::nnue::Network;
pub use crate::eval::shogi_choice::EvalChoice;
use crate::rules::variants::chu::ChuRules;
use crate::rules::variants::shogammon::ShogammonDice;
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::search::params::SearchParams;
use crate::search::Config;

/// A transposition-table size in MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashMb(pub usize);

pub use crate::rules::variants::Variant;

/// What the protocol layer must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond storing the value.
    None,
    /// Forget the search state now (`Clear_Hash`).
    ClearHash,
    /// The game changed: treat as `usinewgame`.
    NewGame,
    /// `EvalDir` or `EvalFile` changed (USI reads the net at `isready`).
    Net,
}

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash: HashMb,
    pub ponder: bool,
    /// The settings the search keeps between searches (threads, MultiPV, delays, limits).
    pub search: Config,
    pub variant: Variant,
    pub entering_king: EnteringKingRule,
    pub chu_rules: ChuRules,
    /// Shogammon's die → piece table.
    pub dice: ShogammonDice,
    /// The opening book's options (`BookFile` and the others, YaneuraOu's names).
    pub book: BookOptions,
    /// Where standard shogi's net comes from (`EvalDir`, `EvalFile`).
    pub net: NetSource,
}

/// The `ShogiEval`, `EvalDir`, `EvalFile` and `MadnessEval` options: which evaluation
/// standard shogi uses, read at `isready`: the net `EvalFile` names, else `EvalDir/nn.bin`,
/// as in YaneuraOu; when both name nothing (empty, `<builtin>` or `<empty>`), or the file
/// named cannot be used, what `ShogiEval` chooses: the net built into the engine (the
/// default) or the hand-written tables. The Madness's board has its own choice
/// (`MadnessEval`, [`EvalChoice::madness_net`]); so do the games whose nets are Shishi's own
/// (`ChuEval`/`ChuEvalFile`, `KagamigiEval`/`KagamigiEvalFile`, `ShogammonEval`/`ShogammonEvalFile`,
/// [`NetSource::game_origin`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetSource {
    /// A folder holding `nn.bin` (YaneuraOu's option of the same name).
    pub dir: Option<String>,
    /// The net's file itself; it wins over `dir`.
    pub file: Option<String>,
    /// What evaluates when no file is named: standard shogi (`ShogiEval`), the Madness's
    /// board (`MadnessEval`), Chu Shogi (`ChuEval`), Chu Kagamigi (`KagamigiEval`), Shogammon
    /// (`ShogammonEval`).
    pub choices: EvalChoices,
    /// Chu Shogi's net file (`ChuEvalFile`; `None`: as `choices.chu` says).
    pub chu_file: Option<String>,
    /// Chu Kagamigi's net file (`KagamigiEvalFile`; `None`: as `choices.kagamigi` says).
    pub kagamigi_file: Option<String>,
    /// Shogammon's net file (`ShogammonEvalFile`; `None`: as `choices.shogammon` says).
    pub shogammon_file: Option<String>,
}

/// The file name of a net inside `EvalDir`, as in YaneuraOu.
pub const NET_FILE_NAME: &str = "nn.bin";

/// Where a net file named `named` is read: a relative path from the working directory, else
/// next to the executable.
fn located(named: std::path::PathBuf) -> std::path::PathBuf {
    if named.is_absolute() || named.exists() {
        return named;
    }
    let beside_executable = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|folder| folder.join(&named)))
        .filter(|p| p.exists());
    beside_executable.unwrap_or(named)
}

/// Where the net in use comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetOrigin {
    /// The net built into the engine (`eval::nnue::builtin`).
    BuiltIn,
    /// A file.
    File(std::path::PathBuf),
}

impl std::fmt::Display for NetOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetOrigin::BuiltIn => f.write_str(crate::eval::nnue::builtin::NAME),
            NetOrigin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl NetSource {
    /// The net the options name (`None`: the hand-written evaluation). A relative path is
    /// read from the working directory, else next to the executable.
    pub fn wanted(&self) -> Option<NetOrigin> {
        let named = match (&self.file, &self.dir) {
            (Some(file), _) => std::path::PathBuf::from(file),
            (None, Some(dir)) => std::path::Path::new(dir).join(NET_FILE_NAME),
            (None, None) => return self.unnamed(),
        };
        Some(NetOrigin::File(located(named)))
    }

    /// The net wanted for a game whose nets are Shishi's own: the file named, else the
    /// game's built-in net where its choice is `net` (`None`: the game's hand-written
    /// evaluation; standard shogi's is [`NetSource::wanted`]).
    pub fn game_origin(&self, game: NetGame) -> Option<NetOrigin> {
        let named = match game {
            NetGame::Shogi => None,
            NetGame::Chu => self.chu_file.as_ref(),
            NetGame::Kagamigi => self.kagamigi_file.as_ref(),
            NetGame::Shogammon => self.shogammon_file.as_ref(),
        };
        match named {
            Some(file) => Some(NetOrigin::File(located(std::path::PathBuf::from(file)))),
            None => self.game_unnamed(game),
        }
    }

    /// What evaluates a game whose nets are Shishi's own when no file is named or the one
    /// named cannot be used: the game's built-in net where its choice (`ChuEval`,
    /// `KagamigiEval`, `ShogammonEval`) is `net`, else (`None`) the hand-written evaluation.
    fn game_unnamed(&self, game: NetGame) -> Option<NetOrigin> {
        let choice = match game {
            NetGame::Chu => self.choices.chu,
            NetGame::Kagamigi => self.choices.kagamigi,
            NetGame::Shogammon => self.choices.shogammon,
            NetGame::Shogi => EvalChoice::HandWritten,
        };
        (choice == EvalChoice::Net).then_some(NetOrigin::BuiltIn)
    }

    /// What evaluates when no file is named or the one named cannot be used: the built-in
    /// net or (`None`) the hand-written evaluation, as `ShogiEval` chooses.
    pub fn unnamed(&self) -> Option<NetOrigin> {
        (self.choices.shogi == EvalChoice::Net).then_some(NetOrigin::BuiltIn)
    }

    /// [`NetSource::unnamed`] with its net.
    pub fn unnamed_net(&self) -> Option<(NetOrigin, std::sync::Arc<Network>)> {
        self.unnamed()
            .map(|origin| (origin, crate::eval::nnue::builtin::network()))
    }

    /// The nets of the games, given `shogi`, the one standard shogi evaluates with and where
    /// it came from (a file named for it values the Madness's board too), and `own`, the nets
    /// of Shishi's own format as loaded.
    pub fn board_nets(
        &self,
        shogi: Option<&(NetOrigin, std::sync::Arc<Network>)>,
        own: &GameFileNets,
    ) -> BoardNets {
        let named_file = shogi
            .filter(|(origin, _)| matches!(origin, NetOrigin::File(_)))
            .map(|(_, net)| net);
        BoardNets {
            shogi: shogi.map(|(_, net)| net.clone()),
            madness: self.choices.madness.madness_net(named_file),
            chu: own.net(NetGame::Chu),
            kagamigi: own.net(NetGame::Kagamigi),
            shogammon: own.net(NetGame::Shogammon),
        }
    }
}

/// A net of Shishi's own format, where it came from and the net.
type LoadedFile = Option<(NetOrigin, std::sync::Arc<Network>)>;

/// The nets of Shishi's own format as loaded (the 12×12 games', Shogammon's): where each came
/// from (a file, or the game's built-in net), and the net.
#[derive(Clone, Default)]
pub struct GameFileNets {
    /// Per game of [`GameFileNets::GAMES`], in that order.
    loaded: [LoadedFile; 3],
}

impl GameFileNets {
    /// The games whose nets are files of Shishi's own.
    const GAMES: [NetGame; 3] = [NetGame::Chu, NetGame::Kagamigi, NetGame::Shogammon];

    /// `game`'s net (`None`: its hand-written evaluation).
    pub fn net(&self, game: NetGame) -> Option<std::sync::Arc<Network>> {
        let i = Self::GAMES.iter().position(|&g| g == game)?;
        self.loaded[i].as_ref().map(|(_, net)| net.clone())
    }

    /// Reads the nets `source` wants that are not the ones loaded. A file that cannot be
    /// used leaves its game on what evaluates without one (the game's built-in net where its
    /// choice, `ChuEval`, `KagamigiEval` or `ShogammonEval`, is `net`, else the hand-written
    /// evaluation). Returns a line per net read:
    /// what was loaded, or (`Err`) which file cannot be used and why.
    pub fn reload(&mut self, source: &NetSource) -> Vec<Result<String, String>> {
        let mut reports = Vec::new();
        for (game, slot) in Self::GAMES.into_iter().zip(self.loaded.iter_mut()) {
            let wanted = source.game_origin(game);
            if wanted.as_ref() == slot.as_ref().map(|(origin, _)| origin) {
                continue;
            }
            // What plays without a file: the game's built-in net under its choice, else none.
            let unnamed = || {
                let origin = source.game_unnamed(game)?;
                Some((origin, crate::eval::nnue::builtin::network_of(game)))
            };
            let read = match wanted {
                None => Ok(None),
                Some(NetOrigin::BuiltIn) => Ok(unnamed()),
                Some(NetOrigin::File(path)) => crate::eval::nnue::file::load_for(&path, game)
                    .map(|net| Some((NetOrigin::File(path.clone()), std::sync::Arc::new(net))))
                    .map_err(|e| format!("cannot use the net {}: {e}", path.display())),
            };
            *slot = match read {
                Ok(loaded) => {
                    if let Some((origin, net)) = &loaded {
                        reports.push(Ok(format!(
                            "loaded the net {origin} ({})",
                            crate::eval::nnue::file::architecture_name(net.features)
                        )));
                    }
                    loaded
                }
                Err(message) => {
                    let fallback = unnamed();
                    reports.push(Err(format!(
                        "{message}; {} uses {}",
                        game.name(),
                        match fallback {
                            Some(_) => "its built-in net",
                            None => "its hand-written evaluation",
                        }
                    )));
                    fallback
                }
            };
        }
        reports
    }
}

/// What [`NetSource::reload`] did.
pub enum NetLoad {
    /// The net named is the one loaded (or the hand-written evaluation is wanted and used).
    Unchanged,
    /// The net named was read.
    Loaded(NetOrigin, std::sync::Arc<Network>),
    /// No net is wanted any more: the hand-written evaluation.
    Unloaded,
    /// The file named cannot be used (the message says which file and why).
    Failed(String),
}

impl NetSource {
    /// Reads the net these options name, unless it is `loaded` (the origin of the net in
    /// use, if any).
    pub fn reload(&self, loaded: Option<&NetOrigin>) -> NetLoad {
        let wanted = self.wanted();
        if wanted.as_ref() == loaded {
            return NetLoad::Unchanged;
        }
        match wanted {
            None => NetLoad::Unloaded,
            Some(NetOrigin::BuiltIn) => {
                NetLoad::Loaded(NetOrigin::BuiltIn, crate::eval::nnue::builtin::network())
            }
            Some(NetOrigin::File(path)) => {
                match crate::eval::nnue::file::load_for(&path, NetGame::Shogi) {
                    Ok(net) => NetLoad::Loaded(NetOrigin::File(path), std::sync::Arc::new(net)),
                    Err(e) => NetLoad::Failed(format!(
                        "cannot use the net {}: {e}; using {}",
                        path.display(),
                        match self.unnamed() {
                            Some(_) => "the built-in net",
                            None => "the hand-written evaluation",
                        }
                    )),
                }
            }
        }
    }
}

/// A string option's value, `None` for the values that mean "nothing".
pub(super) fn path_value(text: &str) -> Option<String> {
    let text = text.trim();
    let nothing = text.is_empty()
        || text.eq_ignore_ascii_case(crate::eval::nnue::builtin::NAME)
        || text.eq_ignore_ascii_case("<empty>");
    (!nothing).then(|| text.to_string())
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash: HashMb(HASH_DEFAULT as usize),
            ponder: false,
            search: Config::default(),
            variant: Variant::Shogi,
            entering_king: EnteringKingRule::Csa27,
            chu_rules: ChuRules::default(),
            dice: ShogammonDice::default(),
            book: BookOptions::default(),
            net: NetSource::default(),
        }
    }
}

const HASH_DEFAULT: i64 = 256;
/// The largest table size (MiB) any command accepts: USI_Hash's declared maximum.
pub const HASH_MAX: i64 = 1 << 20;

fn value_of<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
    value.ok_or_else(|| format!("option {name} needs a value"))
}

fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let text = value_of(name, value)?;
    let trimmed = text.trim();
    let out_of_range = || format!("option {name}: {trimmed} is outside {min}..={max}");
    match trimmed.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(_) => Err(out_of_range()),
        // An integer too long for i64 is out of range too, not "not an integer".
        Err(_) if is_integer_text(trimmed) => Err(out_of_range()),
        Err(_) => Err(format!("option {name}: {text:?} is not an integer")),
    }
}

/// An optional sign and one or more ASCII digits, whatever their number.
fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    let text = value_of(name, value)?;
    match text.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {name}: {text:?} is neither true nor false")),
    }
}

impl Options {
    /// Applies `setoption name <name> [value <value>]`: a declared option, or one of the
    /// hidden search parameters (`Search_…`, read as spins). On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        if let Some(spec) = SearchParams::spec(name.trim()) {
            let n = spin(spec.name, value, spec.min.into(), spec.max.into())?;
            self.search.params.set(spec.name, n as i32)?;
            return Ok(Effect::None);
        }
        let Some(spec) = find_option(name) else {
            return Err(format!("unknown option {name:?} ignored"));
        };
        let name = spec.name;
        match spec.kind {
            OptionKind::Spin { min, max, set } => set(self, spin(name, value, min, max)?),
            OptionKind::Check(set) => set(self, check(name, value)?),
            OptionKind::Combo { set, .. } => {
                set(self, value_of(name, value)?).map_err(|e| format!("option {name}: {e}"))?
            }
            OptionKind::Text(_, set) => set(self, value.unwrap_or("")),
            OptionKind::Button => {}
        }
        Ok(spec.effect)
    }

    /// The rule options that decide how positions are read.
    pub fn rules(&self) -> RuleOptions {
        RuleOptions {
            chu_rules: self.chu_rules,
            dice: self.dice,
        }
    }
}

// ---- The opening book's options (YaneuraOu's names and meanings; docs/USI.md) ----

/// The `BookFile` value that turns the book off.
pub const NO_BOOK: &str = "no_book";

/// The book options' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookOptions {
    /// `BookFile`: the file's name, joined to `BookDir` unless absolute; `no_book`: none.
    pub file: String,
    /// `BookDir`: the folder of `BookFile` (relative to the working directory).
    pub dir: String,
    /// `BookOnTheFly`: look moves up in the file instead of reading it whole.
    pub on_the_fly: bool,
    /// `IgnoreBookPly`: positions match whatever their move number.
    pub ignore_ply: bool,
    /// `BookSeed`: the seed of the book's random choices (0: a new one each run).
    pub seed: u64,
    /// How a book move is chosen.
    pub choice: crate::book::choose::BookSettings,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions {
            file: NO_BOOK.to_string(),
            dir: ".".to_string(),
            on_the_fly: false,
            ignore_ply: false,
            seed: 0,
            choice: crate::book::choose::BookSettings::default(),
        }
    }
}

impl BookOptions {
    /// The book file's path, `None` with `no_book` (or an empty name).
    pub fn path(&self) -> Option<std::path::PathBuf> {
        let file = self.file.trim();
        if file.is_empty() || file == NO_BOOK {
            return None;
        }
        let path = std::path::Path::new(file);
        Some(if path.is_absolute() || self.dir.trim().is_empty() {
            path.to_path_buf()
        } else {
            std::path::Path::new(self.dir.trim()).join(path)
        })
    }
}

/// Whether `name` is one of the book's options (only the USI engine plays from a book).
pub fn is_book_option(name: &str) -> bool {
    find_option(name).is_some_and(|spec| spec.offered == Offered::Book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ParallelMode;
    use std::time::Duration;

    #[test]
    fn declarations_have_no_spaces_in_names_defaults_or_vars() {
        for line in declarations() {
            let tokens: Vec<&str> = line.split(' ').collect();
            assert_eq!(tokens[0], "option");
            assert_eq!(tokens[1], "name");
            assert_eq!(tokens[3], "type", "{line}: the name must be one token");
            assert!(!line.contains("  ") && !line.ends_with(' '), "{line}");
            let known = find_option(tokens[2]).map(|spec| spec.name);
            assert!(known == Some(tokens[2]), "{line}");
        }
    }

    #[test]
    fn declared_defaults_match_the_values() {
        let mut options = Options::default();
        for line in declarations() {
            let tokens: Vec<&str> = line.split(' ').collect();
            if let Some(i) = tokens.iter().position(|t| *t == "default") {
                let before = options.clone();
                assert_eq!(
                    options.set(tokens[2], Some(tokens[i + 1])),
                    if ["USI_Variant", "ChuRules", "ShogammonDice"].contains(&tokens[2]) {
                        Ok(Effect::NewGame)
                    } else if [
                        "ShogiEval",
                        "MadnessEval",
                        "EvalDir",
                        "EvalFile",
                        "ChuEval",
                        "KagamigiEval",
                        "ShogammonEval",
                        "ChuEvalFile",
                        "KagamigiEvalFile",
                        "ShogammonEvalFile",
                    ]
                    .contains(&tokens[2])
                    {
                        Ok(Effect::Net)
                    } else {
                        Ok(Effect::None)
                    }
                );
                assert_eq!(
                    options, before,
                    "{line}: default differs from the initial value"
                );
            }
        }
    }

    #[test]
    fn names_are_case_insensitive_and_aliases_work() {
        let mut o = Options::default();
        assert_eq!(o.set("usi_hash", Some("64")), Ok(Effect::None));
        assert_eq!(o.hash, HashMb(64));
        o.set("USI_MultiPV", Some("3")).unwrap();
        assert_eq!(o.search.multipv, 3);
        o.set("multipv", Some("2")).unwrap();
        assert_eq!(o.search.multipv, 2);
        assert_eq!(o.set("UCI_Variant", Some("standard")), Ok(Effect::NewGame));
        assert_eq!(o.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(o.set("clear_hash", Some("ignored")), Ok(Effect::ClearHash));
        o.set("EnteringKingRule", Some("NONE")).unwrap();
        assert_eq!(o.entering_king, EnteringKingRule::None);
        o.set("USI_Ponder", Some("TRUE")).unwrap();
        assert!(o.ponder);
        assert_eq!(o.search.multipv, 2);
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = Options::default();
        let before = o.clone();
        assert!(o.set("USI_Hash", Some("0")).is_err());
        assert!(o.set("USI_Hash", Some("lots")).is_err());
        assert!(o.set("USI_Hash", None).is_err());
        assert!(o.set("Threads", Some("")).is_err());
        assert!(o.set("MultiPV", Some("601")).is_err());
        assert!(o.set("USI_Ponder", Some("yes")).is_err());
        assert!(o.set("USI_Variant", Some("chess")).is_err());
        assert!(o.set("EnteringKingRule", Some("csa28")).is_err());
        assert!(o.set("NoSuchOption", Some("1")).is_err());
        assert_eq!(o, before);
    }

    /// A spin value beyond i64 is reported as out of range, like any other too large value,
    /// and changes nothing.
    #[test]
    fn spin_values_beyond_i64_are_out_of_range() {
        let mut o = Options::default();
        let before = o.clone();
        for value in [
            "99999999999999999999",
            "-99999999999999999999",
            "+9223372036854775808",
        ] {
            let err = o.set("USI_Hash", Some(value)).unwrap_err();
            assert!(err.contains("outside 1..=1048576"), "{value}: {err}");
        }
        let err = o.set("Threads", Some("1e99")).unwrap_err();
        assert!(err.contains("not an integer"), "{err}");
        assert_eq!(o, before);
    }

    #[test]
    fn parallel_mode_is_a_combo_with_the_search_default() {
        let default = ParallelMode::default().name();
        let line = declarations()
            .into_iter()
            .find(|l| l.starts_with("option name ParallelMode "))
            .expect("declared");
        assert!(line.contains(&format!(" default {default} ")), "{line}");
        let mut o = Options::default();
        assert_eq!(o.search.parallel, ParallelMode::default());
        assert_eq!(o.set("parallelmode", Some("RootSplit")), Ok(Effect::None));
        assert_eq!(o.search.parallel, ParallelMode::RootSplit);
        assert_eq!(o.set("ParallelMode", Some("lazysmp")), Ok(Effect::None));
        assert_eq!(o.search.parallel, ParallelMode::LazySmp);
        let before = o.clone();
        assert!(o.set("ParallelMode", Some("ybwc")).is_err());
        assert!(o.set("ParallelMode", None).is_err());
        assert_eq!(o, before);
    }

    #[test]
    fn edge_values_are_accepted() {
        let mut o = Options::default();
        for (name, value) in [
            ("USI_Hash", "1"),
            ("USI_Hash", "1048576"),
            ("Threads", "1024"),
            ("MultiPV", "600"),
            ("NetworkDelay", "0"),
            ("NetworkDelay2", "60000"),
            ("MaxMovesToDraw", "100000"),
        ] {
            assert_eq!(o.set(name, Some(value)), Ok(Effect::None), "{name} {value}");
        }
        assert_eq!(o.search.max_moves_to_draw, 100_000);
        assert_eq!(o.search.network_delay2, Duration::from_millis(60_000));
    }

    #[test]
    fn search_parameters_are_set_but_not_declared() {
        let mut o = Options::default();
        assert_eq!(o.set("search_iirdepth", Some("4")), Ok(Effect::None));
        assert_eq!(o.search.params.iir_depth, 4);
        let before = o.clone();
        assert!(o.set("Search_IirDepth", Some("99")).is_err());
        assert!(o.set("Search_IirDepth", Some("four")).is_err());
        assert_eq!(o, before);
        assert!(declarations().iter().all(|line| !line.contains("Search_")));
    }

    #[test]
    fn book_options_read_yaneuraou_names_and_refuse_bad_values() {
        let mut o = Options::default();
        assert_eq!(o.book.path(), None, "no_book by default");
        o.set("BookFile", Some("user_book1.db")).unwrap();
        o.set("bookdir", Some("/books")).unwrap();
        assert_eq!(
            o.book.path(),
            Some(std::path::PathBuf::from("/books/user_book1.db"))
        );
        o.set("BookFile", Some("/elsewhere/b.db")).unwrap();
        assert_eq!(
            o.book.path(),
            Some(std::path::PathBuf::from("/elsewhere/b.db"))
        );
        o.set("BookEvalWhiteLimit", Some("-300")).unwrap();
        o.set("ConsiderBookMoveCount", Some("true")).unwrap();
        o.set("BookMoves", Some("40")).unwrap();
        assert_eq!(o.book.choice.eval_limit, [0, -300]);
        assert!(o.book.choice.weigh_by_count);
        assert_eq!(o.book.choice.max_ply, 40);
        let before = o.clone();
        assert!(o.set("BookIgnoreRate", Some("101")).is_err());
        assert!(o.set("BookOnTheFly", Some("maybe")).is_err());
        assert_eq!(o, before);
        o.set("BookFile", Some("no_book")).unwrap();
        assert_eq!(o.book.path(), None);
    }
}
