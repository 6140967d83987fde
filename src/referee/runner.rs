//! A whole match of one variant: which game uses which opening and colours (and so which
//! engine's time control and margin go with which colour),
//! `--concurrency` worker threads each with its own pair of engine processes, writing every
//! finished game to disk at once (`games.jsonl`, one `.usi` record, and for standard shogi
//! one KIF and one CSA file), `--resume`, the running tally with its progress line on
//! stderr, the SPRT stop, and the summary printed at the end.

use super::arbiter::{play_game, Adjudication, GameRecord, GameSetup};
use super::cecp_client::CecpPlayer;
use super::game_files::{csa, kif, usi_line, usi_record, GameLine};
use super::openings::Opening;
use super::player::Player;
use super::result::Reason;
use super::stats::{Pentanomial, Score1, Sprt, SprtState, Wdl};
use super::tc::{describe_pair, Millis, TimeControl};
use super::usi_client::UsiPlayer;
use crate::rules::geometry::Color;
use crate::rules::variants::{GameChoice, Search, Variant};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Usi,
    Cecp,
}

/// One of the two engines of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub protocol: Protocol,
    pub options: Vec<(String, String)>,
    /// How far past its clock this engine's move may arrive.
    pub time_margin: Millis,
    /// This engine's own time control (`--tc`, or its `--tc1`/`--tc2`), whichever colour
    /// it plays.
    pub time_control: TimeControl,
}

impl EngineSpec {
    /// A USI engine's options in a `variant` match: the variant's own (`USI_Variant`,
    /// `ChuRules`) first, so that the user's come last.
    fn usi_options(&self, variant: GameChoice) -> Vec<(String, String)> {
        let mut options = super::variant::usi_options(variant);
        options.extend(self.options.iter().cloned());
        options
    }

    /// The seat for a `variant` match.
    fn player(&self, variant: GameChoice) -> Box<dyn Player> {
        match self.protocol {
            Protocol::Usi => Box::new(UsiPlayer::new(
                &self.name,
                &self.command,
                &self.usi_options(variant),
            )),
            Protocol::Cecp => Box::new(CecpPlayer::new(
                &self.name,
                &self.command,
                &self.options,
                variant,
            )),
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: GameChoice,
    pub engines: [EngineSpec; 2],
    pub games: usize,
    pub concurrency: usize,
    pub openings: Vec<Opening>,
    /// Where the openings came from (for the summary).
    pub openings_name: String,
    pub out: PathBuf,
    pub resume: bool,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    /// The seed of the referee's draws in chance variants.
    pub seed: u64,
}

impl MatchConfig {
    /// Each engine's time control, engine 1's first.
    pub fn time_controls(&self) -> [TimeControl; 2] {
        self.engines.each_ref().map(|e| e.time_control)
    }
}

/// The chance seed of pair `pair` (games `2·pair` and `2·pair + 1`): both games of a pair
/// get the same draws, the pairs different ones.
pub fn pair_seed(seed: u64, pair: usize) -> u64 {
    // SplitMix64's finaliser over the two numbers, so that neighbouring pairs get unrelated
    // seeds.
    let mut z = seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Which opening and colours game `index` (0-based) uses: pairs share an opening, and
/// engine 1 has sente in the first game of each pair.
pub fn schedule(index: usize, openings: usize) -> (usize, Color) {
    let engine1 = if index.is_multiple_of(2) {
        Color::Sente
    } else {
        Color::Gote
    };
    ((index / 2) % openings, engine1)
}

/// A pair of per-engine values (engine 1's first) in the colour order of a game (sente's
/// first) in which engine 1 plays `engine1`.
pub fn by_colour<T>(per_engine: [T; 2], engine1: Color) -> [T; 2] {
    let [first, second] = per_engine;
    match engine1 {
        Color::Sente => [first, second],
        Color::Gote => [second, first],
    }
}

/// A finished game as the tally needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    pub index: usize,
    pub engine1: Color,
    pub score: Score1,
    pub reason: Reason,
}

/// The running result of a match, from engine 1's point of view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: BTreeMap<usize, Finished>,
}

impl Tally {
    pub fn add(&mut self, f: Finished) {
        self.games.insert(f.index, f);
    }

    pub fn wdl(&self) -> Wdl {
        self.wdl_where(|_| true)
    }

    pub fn wdl_as(&self, color: Color) -> Wdl {
        self.wdl_where(|f| f.engine1 == color)
    }

    fn wdl_where(&self, keep: impl Fn(&Finished) -> bool) -> Wdl {
        let mut w = Wdl::default();
        for f in self.games.values().filter(|f| keep(f)) {
            w.add(f.score);
        }
        w
    }

    /// Pentanomial counts over the pairs whose two games are both finished.
    pub fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for (i, f) in &self.games {
            if i.is_multiple_of(2) {
                if let Some(g) = self.games.get(&(i + 1)) {
                    p.add_pair(f.score, g.score);
                }
            }
        }
        p
    }

    pub fn reasons(&self) -> BTreeMap<&'static str, u32> {
        let mut m = BTreeMap::new();
        for f in self.games.values() {
            *m.entry(f.reason.tag()).or_insert(0) += 1;
        }
        m
    }
}

/// What `run_match` reports.
pub struct MatchOutcome {
    pub tally: Tally,
    /// The SPRT, the LLR over every finished game and the state that LLR gives.
    pub sprt: Option<(Sprt, f64, SprtState)>,
    /// The SPRT's decision, if it was taken during this run: it stands whatever `sprt`'s
    /// state after the games then in progress.
    pub decided: Option<SprtDecision>,
}

/// An SPRT decision as taken when the LLR crossed a bound. The games still in progress finish
/// afterwards and can move the final LLR back inside the bounds; the decision stands.
#[derive(Clone, Copy, Debug)]
pub struct SprtDecision {
    pub state: SprtState,
    /// Games finished when it was taken.
    pub games: usize,
    /// The LLR that crossed the bound.
    pub llr: f64,
}

fn finished_of(index: usize, engine1: Color, game: &GameRecord) -> Finished {
    let score = match game.result.winner {
        None => Score1::Draw,
        Some(w) if w == engine1 => Score1::Win,
        Some(_) => Score1::Loss,
    };
    Finished {
        index,
        engine1,
        score,
        reason: game.result.reason,
    }
}

fn json_line(index: usize, opening: usize, engine1: Color, game: &GameRecord) -> String {
    let f = finished_of(index, engine1, game);
    GameLine {
        game: index + 1,
        variant: game.variant.variant.name().to_string(),
        opening: opening + 1,
        sente: game.names[0].clone(),
        gote: game.names[1].clone(),
        engine1: engine1.name().to_string(),
        result: game.result.score_text().to_string(),
        engine1_result: f.score.name().to_string(),
        reason: game.result.reason.tag().to_string(),
        detail: game.result.detail.clone(),
        plies: game.moves.len(),
        started: game.started,
        usi: usi_line(game),
    }
    .text()
}

/// Reads one `games.jsonl` line back.
pub fn parse_json_line(line: &str) -> Option<Finished> {
    let line = GameLine::read(line)?;
    let engine1 = Color::BOTH.into_iter().find(|c| c.name() == line.engine1)?;
    let score = Score1::ALL
        .into_iter()
        .find(|s| s.name() == line.engine1_result)?;
    Some(Finished {
        index: line.game.checked_sub(1)?,
        engine1,
        score,
        reason: Reason::from_tag(&line.reason)?,
    })
}

/// The part of the configuration a resumed match must share with the original.
fn fingerprint(cfg: &MatchConfig) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "variant: {}", cfg.variant);
    let _ = writeln!(s, "seed: {}", cfg.seed);
    for (i, e) in cfg.engines.iter().enumerate() {
        let _ = writeln!(
            s,
            "engine{}: {:?} {:?} {:?} options {:?} margin {} ms",
            i + 1,
            e.name,
            e.protocol,
            e.command,
            e.options,
            e.time_margin.0
        );
    }
    let _ = writeln!(
        s,
        "tc: {}",
        describe_pair(cfg.time_controls(), ["engine1", "engine2"])
    );
    let _ = writeln!(
        s,
        "openings: {} ({} lines)",
        cfg.openings_name,
        cfg.openings.len()
    );
    s
}

fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Prepares the output directory and returns the games already finished there.
fn prepare_out(cfg: &MatchConfig) -> Result<Tally, String> {
    let out = &cfg.out;
    fs::create_dir_all(out.join("games"))
        .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let jsonl = out.join("games.jsonl");
    let about = out.join("match.txt");
    let mut tally = Tally::default();
    let existing = fs::read_to_string(&jsonl).unwrap_or_default();
    if !cfg.resume {
        if existing.lines().any(|l| !l.trim().is_empty()) {
            return Err(format!(
                "{} already holds games; use --resume to continue that match or another --out",
                jsonl.display()
            ));
        }
    } else if let Ok(previous) = fs::read_to_string(&about) {
        if previous != fingerprint(cfg) {
            return Err(format!(
                "{} describes a different match:\n{previous}this one is:\n{}",
                about.display(),
                fingerprint(cfg)
            ));
        }
    }
    // Keep only complete, readable lines (a crash can leave half a line).
    let mut kept = String::new();
    for line in existing.lines() {
        match parse_json_line(line) {
            Some(f) if !tally.games.contains_key(&f.index) => {
                kept.push_str(line);
                kept.push('\n');
                tally.add(f);
            }
            _ if line.trim().is_empty() => {}
            _ => log::warn!(
                "ignoring an unreadable or duplicate line in {}: {line:?}",
                jsonl.display()
            ),
        }
    }
    write_atomically(&jsonl, &kept)?;
    write_atomically(&about, &fingerprint(cfg))?;
    Ok(tally)
}

fn save_game(
    cfg: &MatchConfig,
    index: usize,
    opening: usize,
    engine1: Color,
    game: &GameRecord,
) -> Result<(), String> {
    let stem = cfg.out.join("games").join(format!("{:04}", index + 1));
    let mut written = fs::write(stem.with_extension("usi"), usi_record(game));
    if game.variant.variant == Variant::Shogi {
        written = written
            .and_then(|_| fs::write(stem.with_extension("kifu"), kif(game)))
            .and_then(|_| fs::write(stem.with_extension("csa"), csa(game)));
    }
    written.map_err(|e| format!("cannot write the records of game {}: {e}", index + 1))?;
    let path = cfg.out.join("games.jsonl");
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    writeln!(file, "{}", json_line(index, opening, engine1, game))
        .and_then(|_| file.sync_data())
        .map_err(|e| format!("cannot append to {}: {e}", path.display()))
}

fn elo_text(w: &Wdl) -> String {
    match w.elo() {
        // `+ 0.0` turns -0.0 into 0.0.
        Some(e) if e.elo.is_finite() => format!("{:+.1} ± {:.1}", e.elo + 0.0, e.error95),
        Some(e) => format!("{}inf", if e.elo > 0.0 { "+" } else { "-" }),
        None => "n/a".into(),
    }
}

fn progress(cfg: &MatchConfig, tally: &Tally, last: &GameRecord, index: usize) -> String {
    let w = tally.wdl();
    let llr = match cfg.sprt {
        Some(s) => format!("  {}", s.progress_text(&tally.pentanomial())),
        None => String::new(),
    };
    format!(
        "[{}/{}] {} vs {}: +{} ={} -{}  score {:.1}%  Elo {}{llr}  (game {}: {} {})",
        w.games(),
        cfg.games,
        cfg.engines[0].name,
        cfg.engines[1].name,
        w.wins,
        w.draws,
        w.losses,
        100.0 * w.score().unwrap_or(0.5),
        elo_text(&w),
        index + 1,
        last.result.score_text(),
        last.result.reason.tag()
    )
}

/// Writes a progress note to stderr, ignoring a closed stderr (`… 2>&1 | head` must not
/// stop the match).
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// When both engines play a node limit, deterministic engines replay a game for each repeat
/// of an opening and colour: how many games can differ, when that is fewer than the match's.
/// Not when either engine is on a clock (its timing varies), nor in the dice and card games,
/// whose every pair of games draws its own chance ([`pair_seed`]).
fn distinct_games_under_node_limit(
    variant: GameChoice,
    time_controls: [TimeControl; 2],
    games: usize,
    openings: usize,
) -> Option<usize> {
    let distinct = 2 * openings;
    let replays = time_controls
        .iter()
        .all(|tc| matches!(tc, TimeControl::Nodes(_)))
        && variant.variant.spec().search != Search::Chance;
    (replays && games > distinct).then_some(distinct)
}

/// Checks that both engine commands can be started (a typo should stop the match at once,
/// not lose every game), that each engine offers the variant, and that it takes its
/// options: each `--optionN` against the engine's declarations (type, range, combo values),
/// then the engine's own complaints while they are set. Options the engine does not list
/// but took without a complaint are named on stderr.
fn preflight(cfg: &MatchConfig) -> Result<(), String> {
    for (index, e) in cfg.engines.iter().enumerate() {
        let who = format!("engine {} ({})", index + 1, e.name);
        let warnings = match e.protocol {
            Protocol::Usi => UsiPlayer::new(&e.name, &e.command, &e.usi_options(cfg.variant))
                .probe()
                .map_err(|err| format!("{who}: {err}"))?,
            Protocol::Cecp => CecpPlayer::new(&e.name, &e.command, &e.options, cfg.variant)
                .probe()
                .map_err(|err| format!("{who}: {err}"))?,
        };
        for warning in warnings {
            note(&format!("warning: {who}: {warning}"));
        }
    }
    Ok(())
}

/// Plays the match and returns the tally (finished games from an earlier run included).
pub fn run_match(cfg: &MatchConfig) -> Result<MatchOutcome, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    preflight(cfg)?;
    if let Some(distinct) = distinct_games_under_node_limit(
        cfg.variant,
        cfg.time_controls(),
        cfg.games,
        cfg.openings.len(),
    ) {
        note(&format!(
            "warning: under a node limit an engine plays the same game again for the same \
             opening and colour, so only the first {distinct} of {} games can differ; \
             give at least one opening line per two games for independent results",
            cfg.games
        ));
    }
    let mut tally = prepare_out(cfg)?;
    let pending: Vec<usize> = (0..cfg.games)
        .filter(|i| !tally.games.contains_key(i))
        .collect();
    if !tally.games.is_empty() {
        note(&format!(
            "resuming: {} games already finished, {} to play",
            tally.games.len(),
            pending.len()
        ));
    }
    let sprt_state = |tally: &Tally| {
        cfg.sprt.map(|s| {
            let llr = tally.pentanomial().llr(s.elo0, s.elo1);
            (s, llr, s.state_after(llr, tally.pentanomial().pairs()))
        })
    };
    let already_decided =
        matches!(sprt_state(&tally), Some((_, _, st)) if st != SprtState::Continue);
    // The main thread hands out one game per free worker, so that at most `workers` games
    // are in flight when the SPRT decides or a write fails.
    let mut next = if already_decided {
        Vec::new().into_iter()
    } else {
        pending.clone().into_iter()
    };
    let workers = cfg.concurrency.clamp(1, pending.len().max(1));
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<usize>();
    for index in next.by_ref().take(workers) {
        job_tx.send(index).expect("receiver alive");
    }
    let mut job_tx = Some(job_tx);
    if pending.is_empty() || already_decided {
        job_tx = None;
    }
    let (res_tx, res_rx) = crossbeam_channel::unbounded::<(usize, GameRecord)>();
    let mut write_error = None;
    let mut decided: Option<SprtDecision> = None;
    std::thread::scope(|scope| {
        // Owned by this closure, so that the workers see the end of the queue even if
        // the result loop below unwinds.
        let mut job_tx = job_tx;
        for _ in 0..workers {
            let job_rx = job_rx.clone();
            let res_tx = res_tx.clone();
            scope.spawn(move || {
                let mut seats = [
                    cfg.engines[0].player(cfg.variant),
                    cfg.engines[1].player(cfg.variant),
                ];
                for index in job_rx.iter() {
                    let (opening, engine1) = schedule(index, cfg.openings.len());
                    let [e1, e2] = &mut seats;
                    let players: [&mut dyn Player; 2] =
                        by_colour([e1.as_mut(), e2.as_mut()], engine1);
                    let mut adjudication = cfg.adjudication;
                    adjudication.margins =
                        by_colour(cfg.engines.each_ref().map(|e| e.time_margin), engine1);
                    let setup = GameSetup {
                        variant: cfg.variant,
                        opening: &cfg.openings[opening],
                        time_controls: by_colour(cfg.time_controls(), engine1),
                        adjudication: &adjudication,
                        chance_seed: pair_seed(cfg.seed, index / 2),
                    };
                    let game = play_game(&setup, players);
                    if res_tx.send((index, game)).is_err() {
                        break;
                    }
                }
                for seat in &mut seats {
                    seat.quit();
                }
            });
        }
        drop(res_tx);
        drop(job_rx);
        for (index, game) in res_rx.iter() {
            let (opening, engine1) = schedule(index, cfg.openings.len());
            if let Err(e) = save_game(cfg, index, opening, engine1, &game) {
                write_error.get_or_insert(e);
                job_tx = None;
            }
            tally.add(finished_of(index, engine1, &game));
            note(&progress(cfg, &tally, &game, index));
            if let Some((_, llr, state)) = sprt_state(&tally) {
                if state != SprtState::Continue && decided.is_none() {
                    decided = Some(SprtDecision {
                        state,
                        games: tally.games.len(),
                        llr,
                    });
                    if job_tx.take().is_some() {
                        note(&format!(
                            "SPRT decided (LLR {llr:.2}); finishing the games in progress"
                        ));
                    }
                }
            }
            if let Some(tx) = &job_tx {
                match next.next() {
                    Some(i) => tx.send(i).expect("workers alive"),
                    None => job_tx = None,
                }
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(MatchOutcome {
        sprt: sprt_state(&tally),
        decided,
        tally,
    })
}

/// The end-of-match summary (stdout).
pub fn summary(cfg: &MatchConfig, outcome: &MatchOutcome) -> String {
    let t = &outcome.tally;
    let w = t.wdl();
    let (a, b) = (&cfg.engines[0].name, &cfg.engines[1].name);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Match {a} vs {b}, {}, tc {}, openings {} ({} lines)",
        cfg.variant,
        describe_pair(cfg.time_controls(), [a, b]),
        cfg.openings_name,
        cfg.openings.len()
    );
    let _ = writeln!(s, "Games {} of {}", w.games(), cfg.games);
    let line = |label: &str, w: Wdl| {
        format!(
            "{label:<14} W {:>4}  D {:>4}  L {:>4}  score {}",
            w.wins,
            w.draws,
            w.losses,
            w.score()
                .map_or("n/a".into(), |s| format!("{:.1}%", 100.0 * s))
        )
    };
    let _ = writeln!(s, "{}", line(a, w));
    let _ = writeln!(s, "{}", line("  as sente", t.wdl_as(Color::Sente)));
    let _ = writeln!(s, "{}", line("  as gote", t.wdl_as(Color::Gote)));
    let _ = writeln!(s, "Elo difference {} (95%, logistic)", elo_text(&w));
    let _ = writeln!(
        s,
        "LOS {}",
        w.los()
            .map_or("n/a".into(), |l| format!("{:.1}%", 100.0 * l))
    );
    let p = t.pentanomial();
    let _ = writeln!(
        s,
        "Pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for {a}): {:?} over {} pairs",
        p.0,
        p.pairs()
    );
    let reasons: Vec<String> = t
        .reasons()
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    let _ = writeln!(s, "Endings: {}", reasons.join(", "));
    if let Some((sprt, llr, state)) = outcome.sprt {
        let (lo, hi) = sprt.bounds();
        let mut verdict = match outcome.decided.map_or(state, |decision| decision.state) {
            SprtState::Continue => "no decision yet",
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
        }
        .to_string();
        if let Some(decision) = outcome.decided {
            let _ = write!(
                verdict,
                " at game {} (LLR {:.3})",
                decision.games, decision.llr
            );
        }
        let _ = writeln!(
            s,
            "SPRT elo0 {} elo1 {} alpha {} beta {} (logistic Elo, pentanomial): LLR {llr:.3} in [{lo:.3}, {hi:.3}]: {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
    let _ = writeln!(s, "Records in {}", cfg.out.display());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_share_an_opening_with_colours_swapped() {
        assert_eq!(schedule(0, 3), (0, Color::Sente));
        assert_eq!(schedule(1, 3), (0, Color::Gote));
        assert_eq!(schedule(2, 3), (1, Color::Sente));
        assert_eq!(schedule(7, 3), (0, Color::Gote));
    }

    #[test]
    fn only_deterministic_games_repeat_under_a_node_limit() {
        use crate::rules::variants::RuleOptions;
        let game = |v| GameChoice::new(v, RuleOptions::default());
        let nodes = [TimeControl::Nodes(1000); 2];
        let shogi = game(Variant::Shogi);
        assert_eq!(
            distinct_games_under_node_limit(shogi, nodes, 400, 1),
            Some(2)
        );
        assert_eq!(distinct_games_under_node_limit(shogi, nodes, 2, 1), None);
        // Node odds replay as well; one engine on the clock does not.
        let odds = [TimeControl::Nodes(4000), TimeControl::Nodes(1000)];
        assert_eq!(
            distinct_games_under_node_limit(shogi, odds, 400, 1),
            Some(2)
        );
        let clock = TimeControl::MoveTime(Millis(100));
        for mixed in [[nodes[0], clock], [clock, nodes[0]]] {
            assert_eq!(distinct_games_under_node_limit(shogi, mixed, 400, 1), None);
        }
        for chance in [Variant::Madness, Variant::Shogammon] {
            assert_eq!(
                distinct_games_under_node_limit(game(chance), nodes, 400, 1),
                None
            );
        }
    }

    /// Engine 1's time control and margin go with engine 1 in both games of a pair.
    #[test]
    fn per_engine_settings_follow_the_engine_to_its_colour() {
        let nodes = TimeControl::Nodes(1000);
        let fischer = TimeControl::Fischer {
            base: Millis(10_000),
            inc: Millis(100),
        };
        for index in 0..4 {
            let (_, engine1) = schedule(index, 1);
            let sente_first = by_colour([nodes, fischer], engine1);
            assert_eq!(sente_first[engine1.index()], nodes, "game {index}");
            assert_eq!(sente_first[engine1.flip().index()], fischer, "game {index}");
        }
        assert_eq!(by_colour([1, 2], Color::Sente), [1, 2]);
        assert_eq!(by_colour([1, 2], Color::Gote), [2, 1]);
    }

    #[test]
    fn both_games_of_a_pair_share_a_chance_seed() {
        let (a, b) = (schedule(4, 3), schedule(5, 3));
        assert_eq!(a.0, b.0);
        assert_eq!(pair_seed(1, 4 / 2), pair_seed(1, 5 / 2));
        assert_ne!(pair_seed(1, 2), pair_seed(1, 3));
        assert_ne!(pair_seed(1, 2), pair_seed(2, 2));
    }

    #[test]
    fn tally_by_colour_and_pairs() {
        let mut t = Tally::default();
        let f = |index, score| Finished {
            index,
            engine1: schedule(index, 1).1,
            score,
            reason: Reason::Resign,
        };
        t.add(f(0, Score1::Win));
        t.add(f(1, Score1::Draw));
        t.add(f(2, Score1::Loss));
        t.add(f(5, Score1::Win));
        assert_eq!((t.wdl().wins, t.wdl().draws, t.wdl().losses), (2, 1, 1));
        assert_eq!(t.wdl_as(Color::Sente).games(), 2);
        assert_eq!(t.wdl_as(Color::Gote).wins, 1);
        // Only pair 0 is complete: a win and a draw = 1.5 points.
        assert_eq!(t.pentanomial().0, [0, 0, 0, 1, 0]);
        assert_eq!(t.reasons()["resign"], 4);
    }

    #[test]
    fn json_lines_read_back() {
        use crate::referee::arbiter::PlayedMove;
        use crate::referee::result::GameResult;
        let game = GameRecord {
            variant: GameChoice::from(Variant::Shogi),
            opening: Opening::startpos(),
            moves: vec![PlayedMove {
                usi: "7g7f".into(),
                millis: Some(3),
                score: None,
            }],
            names: ["a \"x\"".into(), "b".into()],
            result: GameResult {
                winner: Some(Color::Gote),
                reason: Reason::IllegalMove,
                detail: "played \"7g7x\"".into(),
            },
            time_controls: [TimeControl::MoveTime(super::super::tc::Millis(10)); 2],
            started: 1,
        };
        let line = json_line(3, 1, Color::Gote, &game);
        let f = parse_json_line(&line).unwrap();
        assert_eq!(
            f,
            Finished {
                index: 3,
                engine1: Color::Gote,
                score: Score1::Win,
                reason: Reason::IllegalMove
            }
        );
        let read = GameLine::read(&line).unwrap();
        assert_eq!(read.usi, "position startpos moves 7g7f");
        assert_eq!(read.sente, "a \"x\"");
        assert_eq!(parse_json_line(&line[..line.len() - 3]), None);
    }
}
