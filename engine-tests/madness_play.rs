//! Central Madness played through the referee's arbiter with in-process players: the chance
//! search on each player's view ([`SearchPlayer`]: card-aware, or always rolling), and a
//! random player. The arbiter holds the true game, deals and rolls with the seeded RNG, sends
//! each seat only its player's stream and checks every decision against the true state.
//!
//! Always run: a handful of games in which every stream a seat receives is checked against
//! the true game (no opponent card before it is played; the view rebuilt from the stream
//! agrees with the truth on everything public). `#[ignore]`d, run by
//! `scripts/madness_strength.sh`: 1000 Shishi-vs-Shishi games at depth 1 with no illegal
//! decision or leak, and card-aware against always-roll over duplicate pairs with W/D/L and
//! Elo. Both searchers step aside from a drawn fourfold repetition when another move is
//! nearly as good ([`CONTEMPT_FLOOR`]), so that level games go on to be decided.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::referee::arbiter::{play_game, Adjudication, GameRecord, GameSetup};
use shishi::referee::openings::Opening;
use shishi::referee::player::{Answer, Player, PlayerResult, Reply, Turn};
use shishi::referee::process::EngineError;
use shishi::referee::result::Reason;
use shishi::referee::runner::pair_seed;
use shishi::referee::stats::{Pentanomial, Score1, Wdl};
use shishi::referee::tc::{Millis, TimeControl};
use shishi::rules::game::{Game, NodeKind, Outcome};
use shishi::rules::geometry::Color;
use shishi::rules::moves::{Move, MoveList};
use shishi::rules::variants::madness::{view, Phase, PlayerView, TrueGame, ViewCards};
use shishi::rules::variants::shogi::Position;
use shishi::rules::variants::{GameChoice, Variant};
use shishi::search::chance::variants::madness::RollOnly;
use shishi::search::chance::{
    static_value, terminal_value, ChanceGame, ChanceLimits, ChanceSearcher, ChanceSettings, Depth,
    Value,
};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How a seat chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Chance search at this depth, playing its card when that is worth more than a roll.
    CardAware(u32),
    /// Chance search at this depth that never plays its card.
    AlwaysRoll(u32),
    /// A uniformly random legal decision of its view.
    Random(u64),
}

/// One stream a seat was sent: its colour and the tokens of the `position` it was given.
type Received = (Color, Vec<String>);

struct SearchPlayer {
    name: String,
    style: Style,
    searcher: ChanceSearcher,
    rng: StdRng,
    /// Every stream received, for the information checks.
    received: Arc<Mutex<Vec<Received>>>,
}

impl SearchPlayer {
    fn new(style: Style) -> SearchPlayer {
        let seed = match style {
            Style::Random(seed) => seed,
            _ => 0,
        };
        SearchPlayer {
            name: format!("{style:?}"),
            style,
            searcher: ChanceSearcher::new(ChanceSettings {
                hash_mb: 4,
                ..ChanceSettings::default()
            }),
            rng: StdRng::seed_from_u64(seed),
            received: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn decide(&mut self, view: PlayerView, side: Color) -> Result<String, String> {
        let action = match self.style {
            Style::CardAware(depth) => {
                search_decision(&mut self.searcher, view.clone(), side, depth)?
            }
            Style::AlwaysRoll(depth) => {
                let game = RollOnly {
                    game: view.clone(),
                    roller: side,
                };
                search_decision(&mut self.searcher, game, side, depth)?
            }
            Style::Random(_) => {
                let mut legal = MoveList::new();
                view.legal_actions(&mut legal);
                if legal.is_empty() {
                    return Err("no legal decision".into());
                }
                legal[self.rng.gen_range(0..legal.len())]
            }
        };
        Ok(view.action_text(action))
    }
}

/// The least value (for the mover) of the best other move for which a searcher steps
/// aside from a fourfold repetition: a small contempt, the same for every searcher, so that
/// deterministic searchers do not draw by shuffling in level positions.
const CONTEMPT_FLOOR: Value = Value(-500);

fn limits(depth: u32) -> ChanceLimits {
    ChanceLimits {
        depth: Some(Depth(depth)),
        ..ChanceLimits::default()
    }
}

/// Whether playing `action` ends the game in a drawn repetition.
fn repeats<G: Game>(game: &mut G, action: Move) -> bool {
    game.play(action);
    let drawn = game.outcome() == Some(Outcome::Draw);
    game.unplay();
    drawn
}

/// The searcher's decision at depth `depth`; when it would draw by repetition, the best
/// other decision (each searched one unit shallower) if that scores at least
/// [`CONTEMPT_FLOOR`].
fn search_decision<G: ChanceGame>(
    searcher: &mut ChanceSearcher,
    mut game: G,
    side: Color,
    depth: u32,
) -> Result<Move, String> {
    let stop = Arc::new(AtomicBool::new(false));
    let result = searcher.search(&mut game, side, &limits(depth), &stop);
    let best = *result.best.first().ok_or("the search found no decision")?;
    if !repeats(&mut game, best) {
        return Ok(best);
    }
    let mut legal = MoveList::new();
    game.legal_actions(&mut legal);
    let mut choice: Option<(Value, Move)> = None;
    for &action in legal.iter().filter(|a| **a != best) {
        game.play(action);
        let value = match game.outcome() {
            Some(Outcome::Draw) => None,
            Some(outcome) => Some(terminal_value(outcome, side, 1)),
            None if depth <= 1 => Some(static_value(&game, side, searcher.evaluators())),
            None => Some(
                searcher
                    .search(&mut game, side, &limits(depth - 1), &stop)
                    .value,
            ),
        };
        game.unplay();
        if let Some(value) = value {
            if choice.is_none_or(|(v, _)| value > v) {
                choice = Some((value, action));
            }
        }
    }
    Ok(match choice {
        Some((value, action)) if value >= CONTEMPT_FLOOR => action,
        _ => best,
    })
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self, _: &str, _: TimeControl) -> Result<(), EngineError> {
        self.searcher.clear();
        Ok(())
    }
    fn play(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        self.received
            .lock()
            .unwrap()
            .push((turn.side, turn.moves.to_vec()));
        let text = if turn.moves.is_empty() {
            turn.base.to_string()
        } else {
            format!("{} moves {}", turn.base, turn.moves.join(" "))
        };
        let protocol = |e: String| EngineError::Protocol(e);
        let view = PlayerView::from_position_text(&text, ViewCards::new(turn.side))
            .map_err(|e| protocol(format!("{text}: {e}")))?;
        if view.node_kind() != NodeKind::Decision(turn.side) {
            return Err(protocol(format!(
                "asked to move at {:?} of {text}",
                view.phase()
            )));
        }
        let mv = self.decide(view, turn.side).map_err(protocol)?;
        Ok(Answer {
            reply: Reply::Move(mv),
            elapsed: Millis(0),
            score: None,
        })
    }
    fn game_over(&mut self, _: PlayerResult) {}
}

/// Plays one referee game of the Madness from `opening`.
fn referee_game(
    opening: &Opening,
    seed: u64,
    max_plies: usize,
    seats: [&mut SearchPlayer; 2],
) -> GameRecord {
    let adjudication = Adjudication {
        max_plies,
        ..Adjudication::default()
    };
    let setup = GameSetup {
        variant: GameChoice::from(Variant::Madness),
        opening,
        time_controls: ["movetime=100000".parse().unwrap(); 2],
        adjudication: &adjudication,
        chance_seed: seed,
    };
    let [a, b] = seats;
    play_game(&setup, [a, b])
}

/// The true game of a record before its deal.
fn start_of(record: &GameRecord) -> TrueGame {
    match &record.opening.sfen {
        Some(sfen) => TrueGame::from_sfen(sfen).unwrap(),
        None => TrueGame::startpos(),
    }
}

/// The true game of a record, replayed by the rules (every token must be legal).
fn replay_truth(record: &GameRecord) -> TrueGame {
    let mut truth = start_of(record);
    for m in &record.moves {
        truth
            .play_texts([m.usi.as_str()])
            .unwrap_or_else(|e| panic!("{}: {e}", m.usi));
    }
    truth
}

/// Fails unless `received` is exactly what its player may see of the true game `record`:
/// the true tokens, except that the opponent's draws read `draw:?` (judged from the true
/// state's phase), and its view rebuilt from them agrees with the truth (`check_view`).
fn check_received(record: &GameRecord, (me, sent): &Received) {
    assert!(sent.len() <= record.moves.len(), "{me:?}: {sent:?}");
    let mut truth = start_of(record);
    let mut seen = PlayerView::from_sfen(truth.start_sfen(), *me).unwrap();
    for (got, true_move) in sent.iter().zip(&record.moves) {
        let drawer = match truth.phase() {
            Phase::Deal(c) => Some(c),
            Phase::Draw => Some(truth.side_to_move()),
            _ => None,
        };
        match drawer {
            Some(d) if d != *me => assert_eq!(got, "draw:?", "{me:?} saw the opponent's card"),
            _ => assert_eq!(
                got, &true_move.usi,
                "{me:?}'s stream differs from the truth"
            ),
        }
        truth.play_texts([true_move.usi.as_str()]).unwrap();
        seen.play_texts([got.as_str()])
            .unwrap_or_else(|e| panic!("{me:?} could not follow {got}: {e}"));
        // Before the opponent plays its card, no view of ours holds it.
        if let Err(e) = view::check_view(&seen, &truth) {
            panic!("{e} after {sent:?}");
        }
    }
    // The referee's own filter agrees.
    let start = start_of(record);
    let true_actions: Vec<_> = {
        let mut replay = start.clone();
        record.moves[..sent.len()]
            .iter()
            .map(|m| {
                let a = replay.parse_action(&m.usi).unwrap();
                replay.play(a);
                a
            })
            .collect()
    };
    let streams = view::filter_stream(&start, &true_actions).unwrap();
    let filtered: Vec<String> = {
        let mut replay = start.clone();
        streams[me.index()]
            .iter()
            .zip(&true_actions)
            .map(|(shown, actual)| {
                let text = replay.action_text(*shown);
                replay.play(*actual);
                text
            })
            .collect()
    };
    assert_eq!(&filtered, sent);
}

/// Reasons the rules did not decide.
fn refereed_failure(reason: Reason) -> bool {
    matches!(
        reason,
        Reason::IllegalMove | Reason::EngineFailure | Reason::TimeForfeit
    )
}

#[test]
fn every_seat_is_sent_only_what_its_player_may_see() {
    let mut games = 0;
    let mut cards_played = 0;
    for (i, styles) in [
        [Style::Random(1), Style::Random(2)],
        [Style::Random(3), Style::CardAware(1)],
        [Style::AlwaysRoll(1), Style::Random(4)],
        [Style::Random(5), Style::Random(6)],
        [Style::CardAware(1), Style::Random(7)],
        [Style::Random(8), Style::Random(9)],
    ]
    .into_iter()
    .enumerate()
    {
        let (mut a, mut b) = (SearchPlayer::new(styles[0]), SearchPlayer::new(styles[1]));
        let record = referee_game(
            &Opening::startpos(),
            pair_seed(11, i),
            300,
            [&mut a, &mut b],
        );
        assert!(
            !refereed_failure(record.result.reason),
            "{:?}: {}",
            record.result.reason,
            record.result.detail
        );
        let truth = replay_truth(&record);
        // The game ended by the rules exactly when it did not reach the move limit.
        assert_eq!(
            truth.outcome().is_none(),
            record.result.reason == Reason::MoveLimit
        );
        for seat in [&a, &b] {
            let received = seat.received.lock().unwrap();
            assert!(!received.is_empty());
            for r in received.iter() {
                check_received(&record, r);
            }
        }
        cards_played += record
            .moves
            .iter()
            .filter(|m| m.usi.starts_with("c:"))
            .count();
        games += 1;
    }
    assert_eq!(games, 6);
    assert!(cards_played > 0, "no card was played in any game");
}

/// Plies of random standard-shogi play before the deal, so that the games of a long run
/// differ (the searchers are deterministic) and the centre is contested.
const OPENING_PLIES: usize = 10;

/// A start position reached by `plies` uniformly random legal shogi moves from the start
/// (seeded; retried while the position is over or in check).
fn random_opening(seed: u64, plies: usize) -> Opening {
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        let mut pos = Position::startpos();
        let mut alive = true;
        for _ in 0..plies {
            let mut legal = MoveList::new();
            pos.generate_legal(&mut legal);
            if legal.is_empty() {
                alive = false;
                break;
            }
            pos.play(legal[rng.gen_range(0..legal.len())]);
        }
        if alive && !pos.in_check() {
            return Opening {
                sfen: Some(pos.to_sfen()),
                moves: Vec::new(),
            };
        }
    }
}

/// Runs `games` games on two threads (a pair shares its opening and chance seed), checking
/// every stream each seat received with [`check_received`]; `seats(i)` gives game `i`'s players, sente first.
fn run_games(
    games: usize,
    max_plies: usize,
    seed: u64,
    seats: impl Fn(usize) -> [Style; 2] + Sync,
) -> Vec<GameRecord> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let records = Mutex::new(vec![None; games]);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let [s, g] = seats(i);
                let (mut a, mut b) = (SearchPlayer::new(s), SearchPlayer::new(g));
                let pair = pair_seed(seed, i / 2);
                let opening = random_opening(pair, OPENING_PLIES);
                let record = referee_game(&opening, pair, max_plies, [&mut a, &mut b]);
                if !refereed_failure(record.result.reason) {
                    for seat in [&a, &b] {
                        for received in seat.received.lock().unwrap().iter() {
                            check_received(&record, received);
                        }
                    }
                }
                records.lock().unwrap()[i] = Some(record);
            });
        }
    });
    records
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every game was played"))
        .collect()
}

fn reasons(records: &[GameRecord]) -> std::collections::BTreeMap<&'static str, usize> {
    let mut out = std::collections::BTreeMap::new();
    for r in records {
        *out.entry(r.result.reason.tag()).or_insert(0) += 1;
    }
    out
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "1000 games; run by scripts/madness_strength.sh"]
fn shishi_against_shishi_makes_no_illegal_decision() {
    let games = env_or("MADNESS_SELFPLAY_GAMES", 1000);
    let depth = env_or("MADNESS_SELFPLAY_DEPTH", 1) as u32;
    let started = Instant::now();
    let records = run_games(games, 400, 2026, |_| {
        [Style::CardAware(depth), Style::CardAware(depth)]
    });
    let mut failures = Vec::new();
    let mut tokens = 0;
    let mut cards = 0;
    for (i, record) in records.iter().enumerate() {
        if refereed_failure(record.result.reason) {
            failures.push(format!("game {i}: {}", record.result.detail));
        }
        replay_truth(record);
        tokens += record.moves.len();
        cards += record
            .moves
            .iter()
            .filter(|m| m.usi.starts_with("c:"))
            .count();
    }
    println!(
        "{games} games at depth {depth} in {:.1} s: {tokens} tokens, {cards} cards played; \
         endings {:?}",
        started.elapsed().as_secs_f64(),
        reasons(&records)
    );
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
#[ignore = "400+ games; run by scripts/madness_strength.sh"]
fn card_aware_search_against_always_roll() {
    let games = env_or("MADNESS_STRENGTH_GAMES", 400) & !1;
    let depth = env_or("MADNESS_STRENGTH_DEPTH", 1) as u32;
    let started = Instant::now();
    // Game 2k: card-aware has sente; game 2k+1: the same seed, colours swapped.
    let max_tokens = env_or("MADNESS_MAX_TOKENS", 600);
    let records = run_games(games, max_tokens, 8, |i| {
        if i % 2 == 0 {
            [Style::CardAware(depth), Style::AlwaysRoll(depth)]
        } else {
            [Style::AlwaysRoll(depth), Style::CardAware(depth)]
        }
    });
    let mut wdl = Wdl::default();
    let mut penta = Pentanomial::default();
    let mut scores = Vec::new();
    for (i, record) in records.iter().enumerate() {
        assert!(
            !refereed_failure(record.result.reason),
            "game {i}: {}",
            record.result.detail
        );
        let aware = if i % 2 == 0 {
            Color::Sente
        } else {
            Color::Gote
        };
        let score = match record.result.winner {
            None => Score1::Draw,
            Some(w) if w == aware => Score1::Win,
            Some(_) => Score1::Loss,
        };
        wdl.add(score);
        scores.push(score);
    }
    for pair in scores.chunks(2) {
        penta.add_pair(pair[0], pair[1]);
    }
    let cards = records
        .iter()
        .flat_map(|r| &r.moves)
        .filter(|m| m.usi.starts_with("c:"))
        .count();
    let elo = wdl.elo().expect("games were played");
    println!(
        "card-aware vs always-roll, depth {depth}, {games} games ({} pairs, duplicate deals \
         and rolls, colours swapped, draw at {max_tokens} tokens) in {:.1} s",
        games / 2,
        started.elapsed().as_secs_f64()
    );
    println!(
        "W {} D {} L {}  score {:.1}%  Elo {:+.1} ± {:.1} (95%)  LOS {:.3}",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.score().unwrap(),
        elo.elo,
        elo.error95,
        wdl.los().unwrap_or(0.5)
    );
    println!(
        "pentanomial {:?}; cards played {cards}; endings {:?}",
        penta.0,
        reasons(&records)
    );
}
