//! The USI engine's opening book: opening the file `BookFile` names (at `isready`, again
//! when a book option that decides what is read changes), reporting its malformed lines,
//! and, at `go`, choosing a book move before any search. Books serve the deterministic
//! games (shogi, Chu Shogi, Chu Kagamigi); the dice and card games never play from one.

use super::options::{BookOptions, Variant};
use super::output::Output;
use super::position::{with_position, UsiPosition};
use crate::book::choose::{self, BookChoice, BookPosition};
use crate::book::BookSource;
use crate::rules::geometry::Color;
use crate::rules::notation::GameText;
use crate::rules::variants::Search;
use crate::search::game::SearchGame;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::PathBuf;

impl BookPosition for UsiPosition {
    fn book_sfen(&self) -> String {
        with_position!(self, pos => pos.sfen(), _cpos => String::new())
    }

    fn play_text(&mut self, mv: &str) -> bool {
        with_position!(self,
            pos => match pos.parse_move(mv) {
                Ok(mv) => {
                    SearchGame::play(pos.as_mut(), mv);
                    true
                }
                Err(_) => false,
            },
            _cpos => false)
    }

    fn sente_to_move(&self) -> bool {
        self.side_to_move() == Color::Sente
    }
}

/// Whether a game can play from a book: the alpha-beta games can.
pub fn has_books(variant: Variant) -> bool {
    variant.spec().search == Search::AlphaBeta
}

/// What was read, and from where.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Opened {
    path: PathBuf,
    on_the_fly: bool,
    ignore_ply: bool,
}

/// The engine's book: the open source and its random numbers.
#[derive(Default)]
pub struct EngineBook {
    opened: Option<Opened>,
    source: Option<BookSource>,
    rng: Option<(u64, StdRng)>,
}

impl EngineBook {
    /// Opens the book the options name if it is not the one open (reporting malformed lines
    /// and errors as `info string` and in the log); closes it with `no_book`.
    pub fn prepare(&mut self, options: &BookOptions, out: &Output) {
        let Some(path) = options.path() else {
            self.opened = None;
            self.source = None;
            return;
        };
        let wanted = Opened {
            path: path.clone(),
            on_the_fly: options.on_the_fly,
            ignore_ply: options.ignore_ply,
        };
        if self.opened.as_ref() == Some(&wanted) {
            return;
        }
        self.opened = Some(wanted);
        self.source = None;
        match BookSource::open(&path, options.on_the_fly, options.ignore_ply) {
            Ok(loaded) => {
                let name = path.display();
                for problem in &loaded.problems {
                    log::warn!("book {name}: {problem}, skipped");
                    out.line(&format!(
                        "info string error book {name}: {problem}, skipped"
                    ));
                }
                match loaded.positions {
                    Some(n) => out.line(&format!("info string book {name}: {n} positions")),
                    None => out.line(&format!("info string book {name}: read on the fly")),
                }
                self.source = Some(loaded.source);
            }
            Err(e) => {
                log::error!("{e}");
                out.error(&e);
            }
        }
    }

    /// The book move for `position`, after printing the lookup's `info` lines; `None` when
    /// the engine must search.
    pub fn choose(
        &mut self,
        position: &UsiPosition,
        options: &BookOptions,
        out: &Output,
    ) -> Option<BookChoice> {
        if !has_books(position.variant()) {
            return None;
        }
        self.prepare(options, out);
        let source = self.source.as_mut()?;
        let rng = match &mut self.rng {
            Some((seed, rng)) if *seed == options.seed => rng,
            slot => {
                let rng = match options.seed {
                    0 => StdRng::from_entropy(),
                    seed => StdRng::seed_from_u64(seed),
                };
                &mut slot.insert((options.seed, rng)).1
            }
        };
        let probe = choose::probe(position, source, &options.choice, rng);
        for line in &probe.info {
            out.line(line);
        }
        probe.choice
    }
}
