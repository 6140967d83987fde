//! The games the server holds, each under an unguessable id (128 random bits as 32 hex
//! digits), with a bound on how many are open: when the bound is reached, games idle for
//! longer than the idle limit are closed to make room, else a new game is refused. Each
//! game is a [`Session`] behind its own lock, with a condition variable that wakes the
//! event streams watching it; the engine's searches go to the shared [`EnginePool`].

use super::engine::{EngineEvent, EnginePool};
use super::session::{Session, Setup};
use rand::RngCore;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::Duration;

/// A game's id: 32 lower-case hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameId(String);

impl GameId {
    fn random() -> GameId {
        let mut bytes = [0u8; 16];
        rand::thread_rng().fill_bytes(&mut bytes);
        GameId(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Reads an id from a URL; anything but 32 lower-case hex digits is no id.
    pub fn parse(text: &str) -> Option<GameId> {
        let valid =
            text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        valid.then(|| GameId(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One game and the signal that it changed.
pub struct GameCell {
    session: Mutex<Session>,
    changed: Condvar,
    /// Set when the game is closed, so its event streams end.
    closed: std::sync::atomic::AtomicBool,
}

impl GameCell {
    pub fn lock(&self) -> MutexGuard<'_, Session> {
        self.session
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits until the game's version differs from `seen`, the game is closed, or
    /// `timeout` passes; returns the guard either way.
    pub fn wait_change(&self, seen: u64, timeout: Duration) -> MutexGuard<'_, Session> {
        let guard = self.lock();
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |s| s.version() == seen && !self.is_closed())
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        guard
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Why a game could not be created.
#[derive(Debug, PartialEq, Eq)]
pub enum CreateError {
    /// The set-up is refused (a bad SFEN, for instance).
    Invalid(String),
    /// Too many games are open.
    Full(usize),
}

/// How many games may be open, and when an idle one may be closed to make room.
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    pub max_games: usize,
    pub idle: Duration,
}

/// Every open game.
pub struct Registry {
    games: Mutex<HashMap<GameId, Arc<GameCell>>>,
    pool: EnginePool,
    limits: GameLimits,
}

impl Registry {
    pub fn new(pool: EnginePool, limits: GameLimits) -> Arc<Registry> {
        Arc::new(Registry {
            games: Mutex::new(HashMap::new()),
            pool,
            limits,
        })
    }

    fn games(&self) -> MutexGuard<'_, HashMap<GameId, Arc<GameCell>>> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Opens a game and starts it (the deal, and the engine's first move if it has sente).
    pub fn create(&self, setup: Setup) -> Result<(GameId, Arc<GameCell>), CreateError> {
        let session = Session::new(setup).map_err(CreateError::Invalid)?;
        let mut games = self.games();
        if games.len() >= self.limits.max_games {
            let idle: Vec<GameId> = games
                .iter()
                .filter(|(_, cell)| cell.lock().idle_for() >= self.limits.idle)
                .map(|(id, _)| id.clone())
                .collect();
            for id in idle {
                if let Some(cell) = games.remove(&id) {
                    close(&cell);
                }
            }
            if games.len() >= self.limits.max_games {
                return Err(CreateError::Full(self.limits.max_games));
            }
        }
        let id = GameId::random();
        let cell = Arc::new(GameCell {
            session: Mutex::new(session),
            changed: Condvar::new(),
            closed: std::sync::atomic::AtomicBool::new(false),
        });
        games.insert(id.clone(), Arc::clone(&cell));
        drop(games);
        self.update(&cell, |_| Ok(()))
            .map_err(CreateError::Invalid)?;
        Ok((id, cell))
    }

    pub fn get(&self, id: &GameId) -> Option<Arc<GameCell>> {
        let cell = self.games().get(id).cloned()?;
        cell.lock().touch();
        Some(cell)
    }

    /// Closes a game; false if there was none.
    pub fn remove(&self, id: &GameId) -> bool {
        match self.games().remove(id) {
            Some(cell) => {
                close(&cell);
                true
            }
            None => false,
        }
    }

    pub fn open_games(&self) -> usize {
        self.games().len()
    }

    /// Applies `change` to the game; if it succeeds, lets the game go on (nature's events,
    /// the engine's search) and wakes the game's watchers.
    pub fn update<T>(
        &self,
        cell: &Arc<GameCell>,
        change: impl FnOnce(&mut Session) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut session = cell.lock();
        session.touch();
        let value = change(&mut session)?;
        drive(&self.pool, cell, &mut session);
        cell.changed.notify_all();
        Ok(value)
    }
}

fn close(cell: &GameCell) {
    cell.lock().cancel_search();
    cell.closed.store(true, std::sync::atomic::Ordering::SeqCst);
    cell.changed.notify_all();
}

/// Lets the game go on and sends the engine's search, if one is needed, to the pool; its
/// answer comes back here, so engine-against-engine games play themselves out.
fn drive(pool: &EnginePool, cell: &Arc<GameCell>, session: &mut Session) {
    let Some(need) = session.advance() else {
        return;
    };
    let weak: Weak<GameCell> = Arc::downgrade(cell);
    let generation = need.generation;
    let answer_pool = pool.clone();
    pool.submit(
        need.request,
        Box::new(move |event| {
            let Some(cell) = weak.upgrade() else {
                return;
            };
            let mut session = cell.lock();
            match event {
                EngineEvent::Progress(progress) => session.engine_progress(generation, progress),
                EngineEvent::Decision(text) => {
                    session.engine_decision(generation, &text);
                    drive(&answer_pool, &cell, &mut session);
                }
                EngineEvent::Failed(error) => session.engine_failed(generation, &error),
            }
            cell.changed.notify_all();
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_digits_and_differ() {
        let a = GameId::random();
        let b = GameId::random();
        assert_ne!(a, b);
        assert_eq!(GameId::parse(a.as_str()), Some(a.clone()));
        for bad in [
            "",
            "xyz",
            &a.as_str()[1..],
            &a.as_str().to_uppercase(),
            "../../etc/passwd",
        ] {
            if bad != a.as_str() {
                assert_eq!(GameId::parse(bad), None, "{bad}");
            }
        }
    }
}
