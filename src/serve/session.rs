//! One game the server holds: its set-up, the referee's true state, every token played with
//! what each side was shown of it, the seeded dice and cards, and the game's flow: nature's
//! events drawn as soon as they come (each fixed by the seed and its place in the game, so
//! a take-back never re-rolls), a person's moves checked against the rules core,
//! the engine asked to move whenever a side it plays is to decide, take-back, resignation
//! and the end of the game.
//!
//! The engine only ever gets the position its side was shown (`game::seen_position`), so
//! in the Madness it never searches with the opponent's hidden card, as under the referee.

use super::engine::{Progress, SearchRequest};
use super::truth::{seen_position, GameRules, Next, TrueState};
use crate::referee::arbiter::draw_chance_at;
use crate::rules::game::Weight;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::search::Control;
use std::time::{Duration, Instant};

/// The most tokens (moves, rolls, cards) a game may reach; then it is drawn.
pub const MAX_TOKENS: usize = 3000;

/// An engine-against-engine game nobody has looked at for this long stops asking the
/// engine for moves (so a closed page does not keep a search slot busy); any request for
/// it, or an open event stream, lets it go on.
pub const WATCH_PAUSE: Duration = Duration::from_secs(60);

/// The engine's time per move, in milliseconds, as the page chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime(pub Duration);

impl MoveTime {
    pub const MIN_MS: u64 = 50;
    pub const MAX_MS: u64 = 60_000;

    pub fn from_millis(ms: u64) -> Result<MoveTime, String> {
        if (Self::MIN_MS..=Self::MAX_MS).contains(&ms) {
            Ok(MoveTime(Duration::from_millis(ms)))
        } else {
            Err(format!(
                "the time per move must be {}–{} ms, not {ms}",
                Self::MIN_MS,
                Self::MAX_MS
            ))
        }
    }
}

/// Who plays: a person against the engine, or the engine against itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The person plays this side; the engine the other.
    Play { person: Color },
    /// The engine plays both sides; the page is shown this side's view (in the Madness,
    /// this side's card and never the other's).
    Watch { view: Color },
}

impl Mode {
    /// Whose view the page is shown.
    pub fn viewer(self) -> Color {
        match self {
            Mode::Play { person } => person,
            Mode::Watch { view } => view,
        }
    }

    pub fn engine_plays(self, side: Color) -> bool {
        match self {
            Mode::Play { person } => person != side,
            Mode::Watch { .. } => true,
        }
    }
}

/// Everything a game is created with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub rules: GameRules,
    pub mode: Mode,
    pub movetime: MoveTime,
    /// The seed of the dice and cards.
    pub seed: u64,
}

/// One token of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What each side was shown of it, indexed by colour (a hidden draw is `draw:?`).
    pub shown: [String; 2],
    /// The side that decided it, or `None` for nature's roll or card.
    pub actor: Option<Color>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    pub winner: Option<Color>,
    pub reason: String,
    /// Set when the game was ended by a failure of the server (the engine's search
    /// panicked or did not stop), not by the rules or a player: what went wrong.
    pub error: Option<String>,
}

/// The engine's latest report on the search under way or just finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The side the engine searched for.
    pub side: Color,
    pub progress: Progress,
}

/// A search the session is waiting for.
struct Pending {
    generation: u64,
    side: Color,
    control: Control,
}

/// One game.
pub struct Session {
    setup: Setup,
    truth: TrueState,
    tokens: Vec<Token>,
    finish: Option<Finish>,
    pending: Option<Pending>,
    /// Bumped whenever a pending search stops mattering, so its late answer is dropped.
    generation: u64,
    analysis: Option<Analysis>,
    /// Bumped on every change the page should see.
    version: u64,
    touched: Instant,
}

/// A search the session needs, with the number its answer must carry.
pub struct SearchNeed {
    pub generation: u64,
    pub request: SearchRequest,
}

impl Session {
    /// A new game; nature's first events (the Madness's deal) are drawn at once.
    pub fn new(setup: Setup) -> Result<Session, String> {
        let truth = TrueState::new(&setup.rules)?;
        Ok(Session {
            setup,
            truth,
            tokens: Vec::new(),
            finish: None,
            pending: None,
            generation: 0,
            analysis: None,
            version: 0,
            touched: Instant::now(),
        })
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    pub fn truth(&self) -> &TrueState {
        &self.truth
    }
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }
    pub fn finish(&self) -> Option<&Finish> {
        self.finish.as_ref()
    }
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }
    pub fn version(&self) -> u64 {
        self.version
    }
    /// The side the engine is thinking for, if a search is under way.
    pub fn thinking(&self) -> Option<Color> {
        self.pending.as_ref().map(|p| p.side)
    }
    pub fn idle_for(&self) -> Duration {
        self.touched.elapsed()
    }
    pub fn touch(&mut self) {
        self.touched = Instant::now();
    }

    fn changed(&mut self) {
        self.version += 1;
    }

    fn end(&mut self, winner: Option<Color>, reason: impl Into<String>) {
        self.finish = Some(Finish {
            winner,
            reason: reason.into(),
            error: None,
        });
        self.cancel_search();
    }

    /// Ends the game by a failure of the server, with no winner.
    fn fail(&mut self, error: String) {
        self.finish = Some(Finish {
            winner: None,
            reason: format!("ended by an error of the engine: {error}"),
            error: Some(error),
        });
        self.cancel_search();
    }

    /// Stops the pending search, if any; its answer will be dropped.
    pub fn cancel_search(&mut self) {
        if let Some(pending) = self.pending.take() {
            pending.control.stop();
        }
        self.generation += 1;
    }

    fn record(&mut self, mv: Move, actor: Option<Color>) {
        let (_, shown) = self.truth.texts(mv);
        self.truth.play(mv);
        self.tokens.push(Token { shown, actor });
    }

    /// Nature's outcome at the next place of the game: fixed by the seed and the number of
    /// tokens before it, so the same place always draws the same roll or card.
    fn draw(&self, outcomes: &[(Move, Weight)]) -> Option<Move> {
        draw_chance_at(self.setup.seed, self.tokens.len() as u64, outcomes)
    }

    /// Draws nature's events until someone must decide or the game is over; returns the
    /// search the engine must run when it is to decide and is not searching yet.
    pub fn advance(&mut self) -> Option<SearchNeed> {
        loop {
            if self.finish.is_some() {
                return None;
            }
            match self.truth.next() {
                Next::Over(end) => {
                    let reason = end.detail.clone();
                    self.end(end.winner, reason);
                    self.changed();
                    return None;
                }
                Next::Chance(outcomes) => match self.draw(&outcomes) {
                    Some(mv) => {
                        self.record(mv, None);
                        self.changed();
                    }
                    None => {
                        self.end(None, "the rules offered no roll or card to draw");
                        self.changed();
                        return None;
                    }
                },
                Next::Decision(side) => {
                    if self.tokens.len() >= MAX_TOKENS {
                        self.end(None, format!("drawn after {MAX_TOKENS} tokens"));
                        self.changed();
                        return None;
                    }
                    if !self.setup.mode.engine_plays(side) || self.pending.is_some() {
                        return None;
                    }
                    let unwatched = matches!(self.setup.mode, Mode::Watch { .. })
                        && self.idle_for() >= WATCH_PAUSE;
                    if unwatched {
                        return None;
                    }
                    return self.search_need(side);
                }
            }
        }
    }

    fn search_need(&mut self, side: Color) -> Option<SearchNeed> {
        let shown = self.tokens.iter().map(|t| t.shown[side.index()].clone());
        let position = match seen_position(&self.setup.rules, shown) {
            Ok(position) => position,
            Err(e) => {
                // The tokens were all played by the rules core: this is a bug, not input.
                log::error!("the engine's view of the game cannot be read: {e}");
                self.fail(format!("the engine's view of the game cannot be read: {e}"));
                self.changed();
                return None;
            }
        };
        let control = Control::default();
        self.generation += 1;
        self.pending = Some(Pending {
            generation: self.generation,
            side,
            control: control.clone(),
        });
        self.analysis = None;
        self.changed();
        Some(SearchNeed {
            generation: self.generation,
            request: SearchRequest {
                position,
                movetime: self.setup.movetime.0,
                control,
                game_seed: self.setup.seed,
            },
        })
    }

    /// Whether a search answer numbered `generation` is still awaited.
    fn awaits(&self, generation: u64) -> Option<Color> {
        self.pending
            .as_ref()
            .filter(|p| p.generation == generation)
            .map(|p| p.side)
    }

    /// The engine's progress on the search numbered `generation`.
    pub fn engine_progress(&mut self, generation: u64, progress: Progress) {
        if let Some(side) = self.awaits(generation) {
            self.analysis = Some(Analysis { side, progress });
            self.changed();
        }
    }

    /// The engine's decision (the text after `bestmove`) on the search numbered
    /// `generation`: each decision of a whole turn is checked against the rules and
    /// played; `resign` resigns; `win` declares an entering-king win, judged by the rules.
    pub fn engine_decision(&mut self, generation: u64, text: &str) {
        let Some(side) = self.awaits(generation) else {
            return;
        };
        self.pending = None;
        self.changed();
        match text {
            "resign" => return self.end(Some(side.flip()), "the engine resigned"),
            "win" => {
                return match self.truth.judge_declaration() {
                    Some(Ok(())) => self.end(Some(side), "entering-king declaration"),
                    Some(Err(why)) => {
                        self.end(Some(side.flip()), format!("invalid declaration: {why}"))
                    }
                    None => self.end(Some(side.flip()), "a declaration this game does not have"),
                }
            }
            _ => {}
        }
        let mut played = 0;
        for part in text.split(',') {
            if self.truth.next() != Next::Decision(side) {
                break;
            }
            match self.truth.parse_decision(part) {
                Ok(mv) => {
                    self.record(mv, Some(side));
                    played += 1;
                }
                Err(e) => {
                    log::error!("the engine's {part:?} was refused: {e}");
                    break;
                }
            }
        }
        if played == 0 {
            // The USI layer answers only legal moves; should that ever fail, the game
            // goes on with the first legal decision rather than stalling.
            match self.truth.legal_decisions().first() {
                Some(first) => {
                    if let Ok(mv) = self.truth.parse_decision(first) {
                        self.record(mv, Some(side));
                    }
                }
                None => self.end(Some(side.flip()), "the engine had no legal move"),
            }
        }
    }

    /// The search numbered `generation` (or the handling of its answer) failed: unless it
    /// was cancelled since, or the game is over, the game ends with the error and no
    /// winner, rather than waiting for ever; the server and the other games go on.
    pub fn engine_failed(&mut self, generation: u64, error: &str) {
        if generation != self.generation || self.finish.is_some() {
            return;
        }
        self.pending = None;
        self.fail(error.to_string());
        self.changed();
    }

    /// Plays a person's decision, checked against the rules; the game is unchanged when
    /// it is refused.
    pub fn play_person(&mut self, text: &str) -> Result<(), String> {
        let person = self.person("there is nothing to play")?;
        if let Some(finish) = &self.finish {
            return Err(format!("the game is over ({})", finish.reason));
        }
        if self.truth.next() != Next::Decision(person) {
            return Err("it is not your turn".to_string());
        }
        let mv = self.truth.parse_decision(text)?;
        self.record(mv, Some(person));
        self.analysis = None;
        self.changed();
        Ok(())
    }

    /// The side the person plays, or why `refusal` (the person's action) cannot be done in
    /// an engine-against-engine game.
    fn person(&self, refusal: &str) -> Result<Color, String> {
        match self.setup.mode {
            Mode::Play { person } => Ok(person),
            _ => Err(format!("this game is engine against engine: {refusal}")),
        }
    }

    /// Takes back to the person's last decision: that decision and everything after it
    /// (the engine's replies, rolls and cards) are undone, and the game, if it had ended,
    /// goes on. Nature's events before that decision stay, and those after it come again as
    /// they were drawn: each is fixed by the seed and its place in the game.
    pub fn undo(&mut self) -> Result<(), String> {
        let person = self.person("there is nothing to take back")?;
        let Some(last) = self.tokens.iter().rposition(|t| t.actor == Some(person)) else {
            return Err("you have made no move to take back".to_string());
        };
        self.cancel_search();
        while self.tokens.len() > last {
            self.tokens.pop();
            self.truth.unplay();
        }
        self.finish = None;
        self.analysis = None;
        self.changed();
        Ok(())
    }

    /// The person resigns.
    pub fn resign(&mut self) -> Result<(), String> {
        let person = self.person("nobody can resign")?;
        if self.finish.is_some() {
            return Err("the game is already over".to_string());
        }
        self.end(Some(person.flip()), "resignation");
        self.changed();
        Ok(())
    }

    /// The texts `viewer` was shown, oldest first.
    pub fn shown_to(&self, viewer: Color) -> impl Iterator<Item = &str> {
        self.tokens
            .iter()
            .map(move |t| t.shown[viewer.index()].as_str())
    }
}
