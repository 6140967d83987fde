//! One game under the referee, for any variant ([`RefereeGame`]): the true position is
//! kept with the project's own rules, and every way a game can end is judged here (the
//! variant's own ends: no legal move, repetition and perpetual check, royal capture, bare
//! king; resignation, entering-king declaration, illegal or unreadable moves, time
//! forfeits, dead or hung engines, the move limit, and optional adjudication by the
//! engines' own scores).

use super::openings::Opening;
use super::player::{Player, Reply, Turn};
use super::process::EngineError;
use super::result::{GameResult, Reason};
use super::tc::{Clocks, Millis, TimeControl};
use super::variant::{with_referee_game, RefereeGame};
use crate::rules::game::{NodeKind, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::GameChoice;
use rand::distributions::{Distribution, WeightedIndex};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::time::Instant;

/// One move of the record, with its time and score.
pub use crate::record::finished_game::PlayedMove;

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub variant: GameChoice,
    pub opening: Opening,
    /// Every move from the base position, opening moves first.
    pub moves: Vec<PlayedMove>,
    /// Player names, sente first.
    pub names: [String; 2],
    pub result: GameResult,
    /// Each player's time control, sente's first.
    pub time_controls: [TimeControl; 2],
    /// Seconds since the Unix epoch when the game began.
    pub started: u64,
}

/// Adjudication settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Plies after which the game is a draw (0: no limit).
    pub max_plies: usize,
    /// The clock margins, sente's then gote's: how far past its allowance a move may
    /// arrive (per engine, as engines and their hosts differ).
    pub margins: [Millis; 2],
    /// `(cp, moves)`: a side loses once both engines' scores have been at least `cp`
    /// against it for `moves` moves each.
    pub resign: Option<(i32, usize)>,
    /// `(cp, moves, after)`: a draw once both scores have been within ±`cp` for `moves`
    /// moves each, from ply `after` on.
    pub draw: Option<(i32, usize, usize)>,
}

pub(crate) fn end(winner: Option<Color>, reason: Reason, detail: impl Into<String>) -> GameResult {
    GameResult {
        winner,
        reason,
        detail: detail.into(),
    }
}

/// How one game is set up: the variant, the opening, the clocks, the adjudication rules, and
/// the seed of the referee's draws at chance nodes (both games of a pair get the same seed,
/// so that they see the same dice and cards with colours swapped).
pub struct GameSetup<'a> {
    pub variant: GameChoice,
    pub opening: &'a Opening,
    /// Each player's time control, sente's first (as the players of [`play_game`]).
    pub time_controls: [TimeControl; 2],
    pub adjudication: &'a Adjudication,
    pub chance_seed: u64,
}

/// Plays one game; `players[0]` has sente. Engines that fail are reset so that they
/// restart for the next game.
pub fn play_game(setup: &GameSetup, players: [&mut dyn Player; 2]) -> GameRecord {
    with_referee_game!(setup.variant.variant, G => play_game_of::<G>(setup, players))
}

/// Nature's choice at a chance node, drawn with the outcomes' weights; `None` if the rules
/// offered no outcome with a positive weight.
pub fn draw_chance(rng: &mut StdRng, outcomes: &[(Move, Weight)]) -> Option<Move> {
    let index = WeightedIndex::new(outcomes.iter().map(|(_, w)| w.0)).ok()?;
    Some(outcomes[index.sample(rng)].0)
}

/// Nature's choice at the chance node at `place` (the number of tokens played before it) of
/// a game seeded `seed`: drawn as [`draw_chance`] does, with a generator of its own keyed by
/// the seed and the place alone. So the draw at a place never depends on the draws before
/// it: a game taken back and replayed to the same place meets the same outcome.
pub fn draw_chance_at(seed: u64, place: u64, outcomes: &[(Move, Weight)]) -> Option<Move> {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&place.to_le_bytes());
    draw_chance(&mut StdRng::from_seed(key), outcomes)
}

fn play_game_of<G: RefereeGame>(setup: &GameSetup, players: [&mut dyn Player; 2]) -> GameRecord {
    let GameSetup {
        variant,
        opening,
        time_controls,
        adjudication: adj,
        chance_seed,
    } = *setup;
    let mut rng = StdRng::seed_from_u64(chance_seed);
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut players = players;
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut pos: G = opening
        .base_position(variant)
        .expect("openings are validated when loaded");
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut passes: Vec<bool> = Vec::new();
    for text in &opening.moves {
        let mv = pos.parse_move(text).expect("openings are validated");
        passes.push(pos.is_pass(mv));
        moves.push(PlayedMove {
            usi: pos.move_text(mv),
            millis: None,
            score: None,
        });
        pos.play(mv);
    }
    let base = opening.usi_base();
    let mut clocks = Clocks::new(time_controls);
    let mut result = None;
    for color in Color::BOTH {
        let player = &mut players[color.index()];
        if let Err(e) = player.new_game(&base, clocks.control(color)) {
            player.reset();
            result = Some(end(
                Some(color.flip()),
                Reason::EngineFailure,
                format!("{} could not start the game: {e}", names[color.index()]),
            ));
            break;
        }
    }
    // What each engine has been sent, indexed by colour: the true tokens except where its
    // player may not see them (the Madness's hidden draws).
    let opening_texts: Vec<String> = moves.iter().map(|m| m.usi.clone()).collect();
    let mut sent: [Vec<String>; 2] = [opening_texts.clone(), opening_texts];
    let result = match result {
        Some(r) => r,
        None => loop {
            if let Some(r) = pos.rules_end() {
                break r;
            }
            if adj.max_plies > 0 && moves.len() >= adj.max_plies {
                break end(
                    None,
                    Reason::MoveLimit,
                    format!("{} plies played", moves.len()),
                );
            }
            let side = match pos.node_kind() {
                NodeKind::Decision(side) => side,
                // The referee acts for nature: its draw is a token of the game that every
                // engine is sent with the other moves (`r:61`).
                NodeKind::Chance(outcomes) => {
                    let Some(mv) = draw_chance(&mut rng, &outcomes) else {
                        break end(
                            None,
                            Reason::MoveLimit,
                            "the rules offered no chance outcome to draw",
                        );
                    };
                    let token = pos.move_text(mv);
                    for color in Color::BOTH {
                        sent[color.index()].push(pos.visible_text(mv, color));
                    }
                    passes.push(false);
                    pos.play(mv);
                    moves.push(PlayedMove {
                        usi: token,
                        millis: None,
                        score: None,
                    });
                    continue;
                }
            };
            let me = &names[side.index()];
            let allowed = clocks.allowance(side);
            let margin = adj.margins[side.index()];
            let wait = clocks.deadline(side, margin);
            let turn = Turn {
                base: &base,
                moves: &sent[side.index()],
                passes: &passes,
                side,
                clocks: &clocks,
                deadline: Instant::now() + wait,
            };
            let player = &mut players[side.index()];
            let answer = match player.play(&turn) {
                Ok(a) => a,
                Err(EngineError::Timeout(_)) => {
                    player.reset();
                    let why = match allowed {
                        Some(a) => format!(
                            "{me} sent no move within {} ms ({} ms allowed + {} ms margin)",
                            wait.as_millis(),
                            a.0,
                            margin.0
                        ),
                        None => format!("{me} hung: no move within {} ms", wait.as_millis()),
                    };
                    break end(Some(side.flip()), Reason::TimeForfeit, why);
                }
                Err(e) => {
                    player.reset();
                    break end(
                        Some(side.flip()),
                        Reason::EngineFailure,
                        format!("{me}: {e}"),
                    );
                }
            };
            if let Err(f) = clocks.charge(side, answer.elapsed, margin) {
                break end(
                    Some(side.flip()),
                    Reason::TimeForfeit,
                    format!(
                        "{me} used {} ms with {} ms allowed (+{} ms margin)",
                        f.used.0, f.allowed.0, margin.0
                    ),
                );
            }
            match answer.reply {
                Reply::Move(text) => {
                    // Several decisions may come joined by `,` (docs/USI.md, "Games with dice
                    // and cards"): each must be a decision of this side, played in order.
                    let mut illegal = None;
                    for (i, leg) in text.split(',').enumerate() {
                        let parsed = if i > 0 && pos.node_kind() != NodeKind::Decision(side) {
                            Err("the player has no further decision to make".to_string())
                        } else {
                            pos.parse_move(leg)
                        };
                        match parsed {
                            Ok(mv) => {
                                let usi = pos.move_text(mv);
                                passes.push(pos.is_pass(mv));
                                pos.play(mv);
                                for seen in sent.iter_mut() {
                                    seen.push(usi.clone());
                                }
                                moves.push(PlayedMove {
                                    usi,
                                    millis: (i == 0).then_some(answer.elapsed.0),
                                    score: answer.score,
                                });
                            }
                            Err(e) => {
                                illegal = Some(end(
                                    Some(side.flip()),
                                    Reason::IllegalMove,
                                    format!("{me} played {text:?}: {e}"),
                                ));
                                break;
                            }
                        }
                        if pos.rules_end().is_some() {
                            break;
                        }
                    }
                    if let Some(r) = illegal {
                        break r;
                    }
                }
                Reply::Resign => {
                    break end(Some(side.flip()), Reason::Resign, format!("{me} resigned"))
                }
                Reply::Win => match pos.judge_declaration() {
                    Some(Ok(())) => {
                        break end(
                            Some(side),
                            Reason::Declaration,
                            format!("{me} declared a win by entering king (CSA 27-point rule)"),
                        )
                    }
                    Some(Err(why)) => {
                        break end(
                            Some(side.flip()),
                            Reason::FalseDeclaration,
                            format!("{me} declared a win, but {why}"),
                        )
                    }
                    None => {
                        break end(
                            Some(side.flip()),
                            Reason::FalseDeclaration,
                            format!("{me} declared a win, but {variant} has no declaration"),
                        )
                    }
                },
                Reply::Claim(claim) => {
                    break end(
                        Some(side.flip()),
                        Reason::FalseClaim,
                        format!("{me} claimed {claim:?} instead of moving"),
                    )
                }
            }
            if let Some(r) = score_adjudication(&moves, opening.moves.len(), &pos, adj) {
                break r;
            }
        },
    };
    for color in Color::BOTH {
        players[color.index()].game_over(result.for_player(color));
    }
    log::info!(
        "{} vs {}: {} ({}: {})",
        names[0],
        names[1],
        result.score_text(),
        result.reason.tag(),
        result.detail
    );
    GameRecord {
        variant,
        opening: opening.clone(),
        moves,
        names,
        result,
        time_controls,
        started,
    }
}

/// Resign or draw adjudication from the scores of the last moves (both engines must agree).
fn score_adjudication<G: RefereeGame>(
    moves: &[PlayedMove],
    opening_plies: usize,
    pos: &G,
    adj: &Adjudication,
) -> Option<GameResult> {
    // Scores from sente's point of view for the plies played by the engines, newest last.
    // The last move was made by the side not to move now.
    let last_mover = pos.to_move().flip();
    let played = &moves[opening_plies.min(moves.len())..];
    let sente_view = |back: usize| -> Option<i32> {
        let m = played.get(played.len().checked_sub(back + 1)?)?;
        let mover = if back.is_multiple_of(2) {
            last_mover
        } else {
            last_mover.flip()
        };
        let cp = m.score?.as_cp();
        Some(if mover == Color::Sente { cp } else { -cp })
    };
    let window = |n: usize| -> Option<Vec<i32>> { (0..2 * n).map(sente_view).collect() };
    if let Some((cp, n)) = adj.resign {
        if n > 0 {
            if let Some(scores) = window(n) {
                for (winner, sign) in [(Color::Sente, 1), (Color::Gote, -1)] {
                    if scores.iter().all(|s| s * sign >= cp) {
                        return Some(end(
                            Some(winner),
                            Reason::AdjudicatedWin,
                            format!("both engines scored {cp} cp or more for the winner for {n} moves each"),
                        ));
                    }
                }
            }
        }
    }
    if let Some((cp, n, after)) = adj.draw {
        if n > 0 && moves.len() >= after {
            if let Some(scores) = window(n) {
                if scores.iter().all(|s| s.abs() <= cp) {
                    return Some(end(
                        None,
                        Reason::AdjudicatedDraw,
                        format!("both engines scored within ±{cp} cp for {n} moves each"),
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::player::{PlayerResult, Score};
    use crate::rules::variants::shogi::Position;
    use crate::rules::variants::{madness, GameStart, RuleOptions, Variant};

    fn mv(usi: &str, cp: Option<i32>) -> PlayedMove {
        PlayedMove {
            usi: usi.into(),
            millis: Some(1),
            score: cp.map(Score::Cp),
        }
    }

    #[test]
    fn a_draw_at_a_place_depends_on_the_seed_and_the_place_only() {
        let d10: Vec<(Move, Weight)> = madness::CardValue::ALL
            .into_iter()
            .map(|v| (madness::Token::Die(v).to_move(), Weight(1)))
            .collect();
        let draws = |seed: u64| -> Vec<Move> {
            (0..60)
                .map(|place| draw_chance_at(seed, place, &d10).unwrap())
                .collect()
        };
        // Drawn in any order, the draws at each place are the same.
        let forward = draws(42);
        for place in (0..60u64).rev() {
            assert_eq!(
                draw_chance_at(42, place, &d10),
                Some(forward[place as usize])
            );
        }
        let distinct: std::collections::HashSet<Move> = forward.iter().copied().collect();
        assert!(
            distinct.len() >= 8,
            "60 places drew {} values",
            distinct.len()
        );
        assert_ne!(draws(43), forward, "another seed, other draws");
        assert_eq!(draw_chance_at(42, 0, &[]), None);
    }

    #[test]
    fn reason_tags_round_trip() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_tag(r.tag()), Some(r));
        }
        assert_eq!(Reason::from_tag("nonsense"), None);
    }

    #[test]
    fn resign_adjudication_needs_both_engines_to_agree() {
        let adj = Adjudication {
            resign: Some((500, 2)),
            ..Adjudication::default()
        };
        let mut pos = Position::startpos();
        let texts = ["7g7f", "3c3d", "2g2f", "8c8d"];
        for t in texts {
            let m = pos.parse_usi_move(t).unwrap();
            pos.play(m);
        }
        // Sente says +600 each time, gote says -700 (i.e. +700 for sente): sente wins.
        let agreed: Vec<_> = texts
            .iter()
            .zip([600, -700, 600, -700])
            .map(|(t, s)| mv(t, Some(s)))
            .collect();
        let r = score_adjudication(&agreed, 0, &pos, &adj).unwrap();
        assert_eq!(
            (r.winner, r.reason),
            (Some(Color::Sente), Reason::AdjudicatedWin)
        );
        // Gote disagrees once: no adjudication.
        let mut disputed = agreed.clone();
        disputed[3] = mv("8c8d", Some(100));
        assert_eq!(score_adjudication(&disputed, 0, &pos, &adj), None);
        // A missing score breaks the window; so does counting opening moves.
        disputed[3] = mv("8c8d", None);
        assert_eq!(score_adjudication(&disputed, 0, &pos, &adj), None);
        assert_eq!(score_adjudication(&agreed, 1, &pos, &adj), None);
    }

    #[test]
    fn draw_adjudication_waits_for_the_start_ply() {
        let mut pos = Position::startpos();
        let texts = ["7g7f", "3c3d"];
        for t in texts {
            let m = pos.parse_usi_move(t).unwrap();
            pos.play(m);
        }
        let moves: Vec<_> = texts.iter().map(|t| mv(t, Some(5))).collect();
        let early = Adjudication {
            draw: Some((10, 1, 3)),
            ..Adjudication::default()
        };
        assert_eq!(score_adjudication(&moves, 0, &pos, &early), None);
        let ready = Adjudication {
            draw: Some((10, 1, 2)),
            ..Adjudication::default()
        };
        let r = score_adjudication(&moves, 0, &pos, &ready).unwrap();
        assert_eq!((r.winner, r.reason), (None, Reason::AdjudicatedDraw));
    }

    #[test]
    fn rules_end_names_mate_and_repetition() {
        let mate = Position::from_sfen("8k/8G/8L/9/9/9/9/9/K8 w - 1").unwrap();
        let r = mate.rules_end().unwrap();
        assert_eq!(
            (r.winner, r.reason),
            (Some(Color::Sente), Reason::Checkmate)
        );
        assert_eq!(Position::startpos().rules_end(), None);
        let mut pos = Position::from_sfen("8k/4R4/9/9/9/9/9/9/K8 b - 1").unwrap();
        for t in ["5b5a", "1a1b", "5a5b", "1b1a"].iter().cycle().take(12) {
            let m = pos.parse_usi_move(t).unwrap();
            pos.play(m);
        }
        let r = pos.rules_end().unwrap();
        assert_eq!(
            (r.winner, r.reason),
            (Some(Color::Gote), Reason::PerpetualCheck)
        );
    }

    /// A seat that plays moves from a list by ply number, then the fallback reply, and
    /// remembers the move lists it was shown and the results it was told.
    struct Scripted {
        moves: Vec<&'static str>,
        fallback: Reply,
        seen: Vec<Vec<String>>,
        results: Vec<PlayerResult>,
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn new_game(&mut self, _: &str, _: TimeControl) -> Result<(), EngineError> {
            Ok(())
        }
        fn play(&mut self, turn: &Turn) -> Result<super::super::player::Answer, EngineError> {
            self.seen.push(turn.moves.to_vec());
            let reply = match self.moves.get(turn.moves.len()) {
                Some(m) => Reply::Move(m.to_string()),
                None => self.fallback.clone(),
            };
            Ok(super::super::player::Answer {
                reply,
                elapsed: Millis(0),
                score: None,
            })
        }
        fn game_over(&mut self, result: PlayerResult) {
            self.results.push(result);
        }
    }

    fn scripted(moves: &[&'static str], fallback: Reply) -> Scripted {
        Scripted {
            moves: moves.to_vec(),
            fallback,
            seen: Vec::new(),
            results: Vec::new(),
        }
    }

    fn play_from(sfen: &str, sente: &mut Scripted, gote: &mut Scripted) -> GameRecord {
        let opening = Opening {
            sfen: Some(sfen.into()),
            moves: Vec::new(),
        };
        play_scripted(
            GameChoice::from(Variant::Shogi),
            &opening,
            "movetime=1000",
            100,
            [sente, gote],
        )
    }

    /// A scripted game from `opening` at time control `tc`, drawn after `max_plies`.
    fn play_scripted(
        variant: GameChoice,
        opening: &Opening,
        tc: &str,
        max_plies: usize,
        [sente, gote]: [&mut Scripted; 2],
    ) -> GameRecord {
        let adj = Adjudication {
            max_plies,
            ..Adjudication::default()
        };
        play_game(
            &GameSetup {
                variant,
                opening,
                time_controls: [tc.parse().unwrap(); 2],
                adjudication: &adj,
                chance_seed: 0,
            },
            [sente, gote],
        )
    }

    #[test]
    fn a_scripted_mate_ends_the_game_and_both_engines_hear_it() {
        let (mut a, mut b) = (
            scripted(&["G*1b"], Reply::Resign),
            scripted(&[], Reply::Resign),
        );
        let g = play_from("8k/9/8P/9/9/9/9/9/K8 b G 1", &mut a, &mut b);
        assert_eq!(
            (g.result.winner, g.result.reason),
            (Some(Color::Sente), Reason::Checkmate)
        );
        assert_eq!(g.moves.len(), 1);
        assert_eq!(
            (a.results.as_slice(), b.results.as_slice()),
            (&[PlayerResult::Win][..], &[PlayerResult::Loss][..])
        );
    }

    #[test]
    fn perpetual_check_loses_and_a_valid_declaration_wins() {
        let cycle: Vec<&'static str> = ["5b5a", "1a1b", "5a5b", "1b1a"]
            .iter()
            .cycle()
            .take(16)
            .copied()
            .collect();
        let (mut a, mut b) = (
            scripted(&cycle, Reply::Resign),
            scripted(&cycle, Reply::Resign),
        );
        let g = play_from("8k/4R4/9/9/9/9/9/9/K8 b - 1", &mut a, &mut b);
        assert_eq!(
            (g.result.winner, g.result.reason),
            (Some(Color::Gote), Reason::PerpetualCheck)
        );
        assert_eq!(g.moves.len(), 12);

        let (mut a, mut b) = (scripted(&[], Reply::Win), scripted(&[], Reply::Resign));
        let g = play_from("+R+BGGSS+P+P1/6GGK/9/9/9/9/9/9/4k4 b RB 1", &mut a, &mut b);
        assert_eq!(
            (g.result.winner, g.result.reason),
            (Some(Color::Sente), Reason::Declaration)
        );
        let (mut a, mut b) = (scripted(&[], Reply::Win), scripted(&[], Reply::Resign));
        let g = play_from("+R+BGGSS+P+P1/6GGK/9/9/9/9/9/9/4k4 b RP 1", &mut a, &mut b);
        assert_eq!(
            (g.result.winner, g.result.reason),
            (Some(Color::Gote), Reason::FalseDeclaration)
        );
        assert!(g.result.detail.contains("24 points"), "{}", g.result.detail);
    }

    #[test]
    fn a_chu_game_ends_when_the_last_royal_is_taken() {
        use crate::rules::variants::chu::ChuRules;
        // Sente's Lion on 6g jumps onto gote's king on 6e: there is no mate in Chu, the
        // capture itself ends the game.
        let (mut a, mut b) = (
            scripted(&["6g6e"], Reply::Resign),
            scripted(&[], Reply::Resign),
        );
        let opening = Opening {
            sfen: Some("11g/12/12/12/6k5/12/6N5/12/12/12/12/K10G b - 1".into()),
            moves: Vec::new(),
        };
        let variant = GameChoice::chu(ChuRules::Lishogi);
        let g = play_scripted(variant, &opening, "movetime=1000", 100, [&mut a, &mut b]);
        assert_eq!(
            (g.result.winner, g.result.reason),
            (Some(Color::Sente), Reason::RoyalCapture),
            "{}",
            g.result.detail
        );
        assert_eq!(g.moves.len(), 1);
        assert_eq!(g.variant, variant);
        assert_eq!(
            (a.results.as_slice(), b.results.as_slice()),
            (&[PlayerResult::Win][..], &[PlayerResult::Loss][..])
        );
    }

    /// A toy chance game for the referee's draws: each turn nature rolls a die (`r:N`), then
    /// the player to move banks the roll (`take`); the first to 12 points wins.
    #[derive(Clone)]
    struct DiceRace {
        points: [u32; 2],
        to_move: Color,
        roll: Option<u32>,
        history: Vec<Move>,
    }

    const TAKE_FROM: crate::rules::geometry::Square = crate::rules::geometry::Square(0);

    fn roll_move(n: u32) -> Move {
        Move::drop(crate::rules::piece::KindId(n as u8), TAKE_FROM)
    }

    fn take_move() -> Move {
        Move::normal(TAKE_FROM, crate::rules::geometry::Square(1), false)
    }

    impl crate::rules::game::Game for DiceRace {
        fn node_kind(&self) -> NodeKind {
            match self.roll {
                None => NodeKind::Chance((1..=6).map(|n| (roll_move(n), Weight(1))).collect()),
                Some(_) => NodeKind::Decision(self.to_move),
            }
        }
        fn legal_actions(&self, out: &mut crate::rules::moves::MoveList) {
            match self.node_kind() {
                NodeKind::Chance(outcomes) => out.extend(outcomes.into_iter().map(|(m, _)| m)),
                NodeKind::Decision(_) => out.push(take_move()),
            }
        }
        fn play(&mut self, action: Move) {
            match action.dropped_kind() {
                Some(kind) => self.roll = Some(u32::from(kind.0)),
                None => {
                    self.points[self.to_move.index()] += self.roll.take().unwrap_or(0);
                    self.to_move = self.to_move.flip();
                }
            }
            self.history.push(action);
        }
        fn unplay(&mut self) {
            unreachable!("the referee never takes a move back")
        }
        fn hash(&self) -> u64 {
            0
        }
        fn outcome(&self) -> Option<crate::rules::game::Outcome> {
            Color::BOTH
                .into_iter()
                .find(|c| self.points[c.index()] >= 12)
                .map(crate::rules::game::Outcome::Win)
        }
    }

    impl GameStart for DiceRace {
        fn set_up(
            sfen: Option<&str>,
            _: &RuleOptions,
        ) -> Result<Self, crate::rules::notation::NotationError> {
            match sfen {
                None => Ok(DiceRace {
                    points: [0, 0],
                    to_move: Color::Sente,
                    roll: None,
                    history: Vec::new(),
                }),
                Some(_) => Err(crate::rules::notation::NotationError::Sfen(
                    "no SFEN".into(),
                )),
            }
        }
    }

    impl RefereeGame for DiceRace {
        fn sfen(&self) -> String {
            format!("{:?}", self.points)
        }
        fn parse_move(&self, text: &str) -> Result<Move, String> {
            match (text, self.roll) {
                ("take", Some(_)) => Ok(take_move()),
                _ => Err(format!("{text} is not legal here")),
            }
        }
        fn move_text(&self, mv: Move) -> String {
            match mv.dropped_kind() {
                Some(kind) => format!("r:{}", kind.0),
                None => "take".into(),
            }
        }
        fn to_move(&self) -> Color {
            self.to_move
        }
        fn rules_end(&self) -> Option<GameResult> {
            use crate::rules::game::Game;
            match self.outcome()? {
                crate::rules::game::Outcome::Win(w) => {
                    Some(end(Some(w), Reason::AdjudicatedWin, "12 points"))
                }
                crate::rules::game::Outcome::Draw => Some(end(None, Reason::MoveLimit, "")),
            }
        }
    }

    /// A seat that banks every roll.
    fn banker() -> Scripted {
        scripted(&[], Reply::Move("take".into()))
    }

    fn dice_race(seed: u64) -> (GameRecord, Scripted) {
        let (mut a, mut b) = (banker(), banker());
        let adj = Adjudication::default();
        let opening = Opening::startpos();
        let setup = GameSetup {
            variant: GameChoice::from(Variant::Shogi),
            opening: &opening,
            time_controls: ["movetime=1000".parse().unwrap(); 2],
            adjudication: &adj,
            chance_seed: seed,
        };
        let g = play_game_of::<DiceRace>(&setup, [&mut a, &mut b]);
        (g, a)
    }

    #[test]
    fn the_referee_rolls_for_nature_and_every_engine_sees_the_roll() {
        let (g, sente) = dice_race(7);
        let texts: Vec<&str> = g.moves.iter().map(|m| m.usi.as_str()).collect();
        // Rolls and decisions alternate, every roll is a die face, and the game ends when a
        // side has banked 12 points.
        for (i, t) in texts.iter().enumerate() {
            if i % 2 == 0 {
                let face: u32 = t.strip_prefix("r:").unwrap().parse().unwrap();
                assert!((1..=6).contains(&face), "{t}");
            } else {
                assert_eq!(*t, "take");
            }
        }
        let banked = |side: usize| -> u32 {
            texts
                .chunks(2)
                .skip(side)
                .step_by(2)
                .map(|c| c[0][2..].parse::<u32>().unwrap())
                .sum()
        };
        let winner = g.result.winner.unwrap();
        assert!(banked(winner.index()) >= 12, "{texts:?}");
        assert!(banked(winner.flip().index()) < 12, "{texts:?}");
        assert_eq!(g.moves[0].millis, None);
        // Sente was asked to move right after each of its rolls, with the roll in the list.
        for seen in &sente.seen {
            assert!(seen.last().unwrap().starts_with("r:"), "{seen:?}");
        }
        // The same seed replays the same rolls; seeds differ in their rolls.
        assert_eq!(dice_race(7).0.moves, g.moves);
        let others: Vec<_> = (8..16).map(|s| dice_race(s).0.moves).collect();
        assert!(others.iter().any(|m| *m != g.moves));
    }

    #[test]
    fn the_move_limit_counts_opening_moves() {
        let moves: Vec<&'static str> = ["2h3h", "8b7b", "3h2h", "7b8b"].to_vec();
        let (mut a, mut b) = (
            scripted(&moves, Reply::Resign),
            scripted(&moves, Reply::Resign),
        );
        let opening = Opening {
            sfen: None,
            moves: vec!["2h3h".into(), "8b7b".into()],
        };
        let g = play_scripted(
            GameChoice::from(Variant::Shogi),
            &opening,
            "byo1",
            3,
            [&mut a, &mut b],
        );
        assert_eq!(
            (g.result.winner, g.result.reason),
            (None, Reason::MoveLimit)
        );
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0].millis, None);
        assert_eq!(g.moves[2].millis, Some(0));
    }
}
