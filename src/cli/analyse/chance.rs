//! `shishi analyse` for the chance games (Shogammon, the Central Madness), laid out as a
//! backgammon player knows it from GNU Backgammon:
//!
//! * before a roll or a card draw ([`roll_table`]): every outcome with its probability, the
//!   best whole turn after it and that turn's value, then the position's expected value
//!   (the probability-weighted mean of the rows, as the search combines them);
//! * at a decision ([`rank_turns`]): the whole turns (the player's actions up to the next
//!   chance event or the other player's turn: `7g7f,5i4h`; `c:7` or `roll` in the Madness
//!   card-or-roll choice) ranked by value with the difference to the best. Every turn is
//!   first valued statically; the most promising are then searched, all to the same depth,
//!   deepening while time lasts, up to the depth the main search reached.
//!
//! Values are [`Value`]s from the point of view of the player to act, shown as equities
//! (value / 10000: +1 a certain win) with the win chance beside them.

use super::{say, SearchBudget};
use crate::rules::game::{Game, NodeKind};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::search::chance::{
    static_value, terminal_value, ChanceLimits, ChanceResult, ChanceSearcher, ChanceSettings,
    Depth, Value,
};
use crate::search::threads::SearchPool;
use crate::usi::chance::{info_line, legal_texts, UsiChanceGame};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// At most this many distinct whole turns are listed (a guard against a pathological
/// position; a Shogammon turn has a few hundred).
const MAX_TURNS: usize = 20_000;

/// Turns searched beyond the static ranking, at least (more when more lines are shown).
const MIN_SEARCHED_TURNS: usize = 8;

/// Turns shown when `--multipv` is not given.
const DEFAULT_LINES: usize = 5;

/// A value as an equity with four decimals and the win chance: `+0.1234 (56.2%)`.
pub fn value_text(value: Value) -> String {
    let permille = value.win_permille();
    format!(
        "{:+.4} ({}.{}%)",
        value.0 as f64 / Value::WIN.0 as f64,
        permille / 10,
        permille % 10
    )
}

/// A difference of values as an equity: `-0.0123`.
pub fn difference_text(difference: i32) -> String {
    format!("{:+.4}", difference as f64 / Value::WIN.0 as f64)
}

/// The chance searcher and, with more than one thread, its pool.
pub struct ChanceEngine {
    pub searcher: ChanceSearcher,
    threads: usize,
    pool: SearchPool,
}

impl ChanceEngine {
    /// A searcher with `budget`'s table, threads and nets (the Madness's board's, Shogammon's).
    pub fn new(budget: &SearchBudget) -> ChanceEngine {
        let mut searcher = ChanceSearcher::new(ChanceSettings {
            hash_mb: budget.hash_mb,
            ..ChanceSettings::default()
        });
        budget.nets.give_to_chance(&mut searcher);
        ChanceEngine {
            searcher,
            threads: budget.threads,
            pool: SearchPool::default(),
        }
    }

    /// Searches `game` from `pov`'s point of view, reporting each completed iteration.
    pub fn search<G: UsiChanceGame>(
        &mut self,
        game: &G,
        pov: Color,
        limits: &ChanceLimits,
        report: &mut dyn FnMut(&ChanceResult),
    ) -> ChanceResult {
        let mut game = game.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let pool = self.pool.get(self.threads);
        self.searcher
            .search_reporting(pool, &mut game, pov, limits, &stop, report)
    }
}

/// The first decisions of `line` made by the player deciding at `game`: that player's turn.
pub fn turn_of<G: Game>(game: &G, line: &[Move]) -> Vec<Move> {
    let NodeKind::Decision(mover) = game.node_kind() else {
        return Vec::new();
    };
    let mut game = game.clone();
    let mut turn = Vec::new();
    for &action in line {
        let mut legal = MoveList::new();
        game.legal_actions(&mut legal);
        let ours = game.outcome().is_none() && game.node_kind() == NodeKind::Decision(mover);
        if !ours || !legal.contains(&action) {
            break;
        }
        turn.push(action);
        game.play(action);
    }
    turn
}

/// A turn as text: its actions joined by `,` (as `bestmove` writes it).
pub fn turn_text<G: UsiChanceGame>(game: &G, turn: &[Move]) -> String {
    legal_texts(game, turn).join(",")
}

/// One row of a roll table.
#[derive(Clone, Debug)]
pub struct OutcomeRow {
    /// The outcome's token (`r:61`, `r:10`, `draw:7`).
    pub outcome: String,
    pub weight: u32,
    /// The value after the outcome with the best turn, for the player to act at the root.
    pub value: Value,
    /// The best whole turn after the outcome (empty when nobody decides before the next
    /// chance event).
    pub best_turn: String,
}

/// Every outcome of a chance node with its best turn, and the expectation.
#[derive(Clone, Debug)]
pub struct RollTable {
    pub rows: Vec<OutcomeRow>,
    pub total_weight: u32,
    /// The expected value, for the player to act at the root.
    pub expected: Value,
    pub depth: Depth,
    pub pov: Color,
}

/// Searches the chance node `game` and tabulates its outcomes.
pub fn roll_table<G: UsiChanceGame>(
    engine: &mut ChanceEngine,
    game: &G,
    limits: &ChanceLimits,
    report: &mut dyn FnMut(&ChanceResult),
) -> RollTable {
    let pov = game.player_to_act();
    let result = engine.search(game, pov, limits, report);
    let rows: Vec<OutcomeRow> = result
        .outcomes
        .iter()
        .map(|line| {
            let mut after = game.clone();
            let outcome = after.action_text(line.outcome);
            after.play(line.outcome);
            let turn = turn_of(&after, &line.pv);
            OutcomeRow {
                outcome,
                weight: line.weight.0,
                value: line.value,
                best_turn: turn_text(&after, &turn),
            }
        })
        .collect();
    RollTable {
        total_weight: rows.iter().map(|r| r.weight).sum(),
        rows,
        expected: result.value,
        depth: result.depth,
        pov,
    }
}

/// One whole turn with its value.
#[derive(Clone, Debug)]
pub struct RankedTurn {
    pub actions: Vec<Move>,
    pub text: String,
    pub value: Value,
}

/// The whole turns of a decision, best first.
#[derive(Clone, Debug)]
pub struct TurnRanking {
    /// The main search's result (its best turn is the answer).
    pub main: ChanceResult,
    /// The turns searched to `depth`, best first (the main search's turn among them).
    pub turns: Vec<RankedTurn>,
    /// The depth every ranked turn was searched to, counted as the main search counts it
    /// (0: static values only).
    pub depth: Depth,
    /// How many distinct turns the position has.
    pub distinct_turns: usize,
    pub pov: Color,
}

/// Every distinct whole turn of the player deciding at `game` (turns that reach the same
/// state are listed once, by the first found), at most [`MAX_TURNS`].
pub fn whole_turns<G: Game>(game: &G) -> Vec<Vec<Move>> {
    fn walk<G: Game>(
        game: &mut G,
        mover: Color,
        path: &mut Vec<Move>,
        seen: &mut HashSet<u64>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if out.len() >= MAX_TURNS {
            return;
        }
        let ours = game.outcome().is_none() && game.node_kind() == NodeKind::Decision(mover);
        let mut legal = MoveList::new();
        if ours {
            game.legal_actions(&mut legal);
        }
        if legal.is_empty() {
            if !path.is_empty() && seen.insert(game.hash()) {
                out.push(path.clone());
            }
            return;
        }
        for &action in legal.iter() {
            game.play(action);
            path.push(action);
            walk(game, mover, path, seen, out);
            path.pop();
            game.unplay();
        }
    }
    let NodeKind::Decision(mover) = game.node_kind() else {
        return Vec::new();
    };
    let mut game = game.clone();
    let mut out = Vec::new();
    walk(
        &mut game,
        mover,
        &mut Vec::new(),
        &mut HashSet::new(),
        &mut out,
    );
    out
}

/// The depth units a turn uses.
pub fn turn_cost<G: UsiChanceGame>(game: &G, turn: &[Move]) -> u32 {
    let mut game = game.clone();
    let mut cost = 0;
    for &action in turn {
        cost += game.depth_cost(action).0;
        game.play(action);
    }
    cost
}

/// The value for `pov` of the state after `turn`, searched with `depth` units left
/// (statically with none); `None` if the deadline cut the search short.
pub fn value_after<G: UsiChanceGame>(
    engine: &mut ChanceEngine,
    game: &G,
    turn: &[Move],
    pov: Color,
    depth: u32,
    deadline: Option<Instant>,
) -> Option<Value> {
    let mut after = game.clone();
    for &action in turn {
        after.play(action);
    }
    if let Some(outcome) = after.outcome() {
        return Some(terminal_value(outcome, pov, turn.len()));
    }
    if depth == 0 {
        return Some(static_value(&after, pov, engine.searcher.evaluators()));
    }
    let time = match deadline {
        Some(at) => Some(at.checked_duration_since(Instant::now())?),
        None => None,
    };
    let limits = ChanceLimits {
        depth: Some(Depth(depth)),
        nodes: None,
        time,
    };
    let result = engine.search(&after, pov, &limits, &mut |_| {});
    (result.depth.0 >= depth).then_some(result.value)
}

/// Searches the decision `game` under `limits` (its time shared: half for the main search,
/// half for the ranking) and ranks its whole turns.
pub fn rank_turns<G: UsiChanceGame>(
    engine: &mut ChanceEngine,
    game: &G,
    limits: &ChanceLimits,
    lines: usize,
    report: &mut dyn FnMut(&ChanceResult),
) -> TurnRanking {
    let start = Instant::now();
    let pov = game.player_to_act();
    let main_limits = ChanceLimits {
        time: limits.time.map(|t| t / 2),
        ..*limits
    };
    let main = engine.search(game, pov, &main_limits, report);
    let deadline = limits.time.map(|t| start + t);
    let all = whole_turns(game);
    let distinct_turns = all.len();
    let mut scored: Vec<RankedTurn> = all
        .into_iter()
        .map(|actions| RankedTurn {
            value: value_after(engine, game, &actions, pov, 0, None).unwrap_or(Value::DRAW),
            text: turn_text(game, &actions),
            actions,
        })
        .collect();
    scored.sort_by_key(|t| std::cmp::Reverse(t.value));
    let searched = MIN_SEARCHED_TURNS.max(2 * lines);
    let main_turn = main.best.clone();
    let mut candidates: Vec<RankedTurn> = scored.iter().take(searched).cloned().collect();
    if !main_turn.is_empty() && !candidates.iter().any(|t| t.actions == main_turn) {
        if let Some(turn) = scored.iter().find(|t| t.actions == main_turn) {
            candidates.push(turn.clone());
        }
    }
    let mut depth = Depth(0);
    if candidates.len() > 1 {
        for level in 1..=main.depth.0 {
            let mut values = Vec::with_capacity(candidates.len());
            for turn in &candidates {
                let left = level.saturating_sub(turn_cost(game, &turn.actions));
                match value_after(engine, game, &turn.actions, pov, left, deadline) {
                    Some(value) => values.push(value),
                    None => break,
                }
            }
            if values.len() < candidates.len() {
                break;
            }
            for (turn, value) in candidates.iter_mut().zip(values) {
                turn.value = value;
            }
            depth = Depth(level);
        }
    }
    candidates.sort_by_key(|t| std::cmp::Reverse(t.value));
    TurnRanking {
        main,
        turns: candidates,
        depth,
        distinct_turns,
        pov,
    }
}

/// Prints the analysis of a chance game's position.
pub fn analyse<G: UsiChanceGame>(game: &G, budget: &SearchBudget) {
    let mut engine = ChanceEngine::new(budget);
    let limits = ChanceLimits {
        depth: budget.depth.map(Depth),
        nodes: None,
        time: budget.movetime,
    };
    if let Some(outcome) = game.outcome() {
        say!("game over: {outcome:?}");
        say!("bestmove resign");
        return;
    }
    let start = Instant::now();
    let mut print = |result: &ChanceResult| say!("{}", info_line(game, result, None));
    match game.node_kind() {
        NodeKind::Chance(_) => {
            let table = roll_table(&mut engine, game, &limits, &mut print);
            print_roll_table(&table);
            say!("bestmove (none)");
        }
        NodeKind::Decision(_) => {
            let lines = budget.lines.unwrap_or(DEFAULT_LINES).max(1);
            let ranking = rank_turns(&mut engine, game, &limits, lines, &mut print);
            print_ranking(&ranking, lines);
            let best = turn_text(game, &ranking.main.best);
            if best.is_empty() {
                say!("bestmove resign");
            } else {
                say!("bestmove {best}");
            }
        }
    }
    say!("time {}", start.elapsed().as_millis().max(1));
}

/// The roll table as text.
pub fn print_roll_table(table: &RollTable) {
    say!(
        "{:<9} {:>6} {:>7}  {:<18} best turn (depth {}, values for {})",
        "outcome",
        "p",
        "",
        "value",
        table.depth.0,
        super::diagram::color_name(table.pov)
    );
    for row in &table.rows {
        say!(
            "{:<9} {:>6} {:>7.4}  {:<18} {}",
            row.outcome,
            format!("{}/{}", row.weight, table.total_weight),
            row.weight as f64 / table.total_weight.max(1) as f64,
            value_text(row.value),
            if row.best_turn.is_empty() {
                "-"
            } else {
                &row.best_turn
            }
        );
    }
    say!(
        "expected value {} over {} outcomes",
        value_text(table.expected),
        table.rows.len()
    );
}

/// The ranked turns as text, with the card-or-roll comparison in the Madness.
pub fn print_ranking(ranking: &TurnRanking, lines: usize) {
    say!(
        "{} distinct turns; the best {} searched to depth {} (values for {})",
        ranking.distinct_turns,
        ranking.turns.len(),
        ranking.depth.0,
        super::diagram::color_name(ranking.pov)
    );
    let Some(best) = ranking.turns.first() else {
        return;
    };
    for (rank, turn) in ranking.turns.iter().take(lines).enumerate() {
        let difference = if rank == 0 {
            String::new()
        } else {
            difference_text(turn.value.0 - best.value.0)
        };
        say!(
            "{:>3}. {:<28} {:<18} {}",
            rank + 1,
            turn.text,
            value_text(turn.value),
            difference
        );
    }
    // The turns are sorted best first.
    let best_of = |wanted: &dyn Fn(&str) -> bool| {
        ranking
            .turns
            .iter()
            .find(|t| wanted(&t.text))
            .map(|t| (t.text.clone(), t.value))
    };
    let card = best_of(&|text| text.starts_with("c:"));
    let roll = best_of(&|text| text == "roll");
    if let (Some((card, card_value)), Some((_, roll_value))) = (card, roll) {
        say!(
            "card or roll: card {card} {}, roll {} (expected over the d10)",
            value_text(card_value),
            value_text(roll_value)
        );
    }
    say!(
        "main search: depth {} value {}",
        ranking.main.depth.0,
        value_text(ranking.main.value)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::madness::PlayerView;
    use crate::rules::variants::shogammon;

    fn depth_limits(depth: u32) -> ChanceLimits {
        ChanceLimits {
            depth: Some(Depth(depth)),
            ..ChanceLimits::default()
        }
    }

    fn engine() -> ChanceEngine {
        ChanceEngine::new(&SearchBudget {
            hash_mb: 4,
            ..SearchBudget::default()
        })
    }

    #[test]
    fn the_roll_table_has_every_roll_and_averages_to_the_expectation() {
        let game = shogammon::Position::startpos();
        let table = roll_table(&mut engine(), &game, &depth_limits(1), &mut |_| {});
        assert_eq!(table.rows.len(), 21);
        assert_eq!(table.total_weight, 36);
        let sum: i64 = table
            .rows
            .iter()
            .map(|r| r.weight as i64 * r.value.0 as i64)
            .sum();
        let mean = sum as f64 / 36.0;
        assert!(
            (mean - table.expected.0 as f64).abs() <= 0.5,
            "{mean} {table:?}"
        );
        assert!(table.rows.iter().all(|r| !r.best_turn.is_empty()));
    }

    #[test]
    fn whole_turns_use_both_dice_and_are_distinct() {
        let mut game = shogammon::Position::startpos();
        game.play(game.parse_action("r:61").unwrap());
        let turns = whole_turns(&game);
        assert!(turns.len() > 1);
        assert!(turns.iter().all(|t| t.len() == 2), "{turns:?}");
        let mut seen = HashSet::new();
        for turn in &turns {
            let mut after = game.clone();
            for &a in turn {
                after.play(a);
            }
            assert!(matches!(after.node_kind(), NodeKind::Chance(_)));
            assert!(seen.insert(after.hash()));
        }
    }

    #[test]
    fn the_ranked_best_turn_matches_the_main_search() {
        let mut game = shogammon::Position::startpos();
        game.play(game.parse_action("r:61").unwrap());
        let ranking = rank_turns(&mut engine(), &game, &depth_limits(1), 3, &mut |_| {});
        assert_eq!(ranking.depth, Depth(1));
        let best = &ranking.turns[0];
        assert_eq!(best.value, ranking.main.value);
        assert!(ranking.turns.windows(2).all(|w| w[0].value >= w[1].value));
    }

    #[test]
    fn madness_ranks_the_card_against_the_roll() {
        // Sente's silver on 5e, sente holds a 3 (which takes the gold on 5a).
        let mut game =
            PlayerView::from_sfen("4g3k/9/9/9/4S4/9/9/9/K8 b - 1", Color::Sente).unwrap();
        game.play_texts(["draw:3", "draw:?"]).unwrap();
        let ranking = rank_turns(&mut engine(), &game, &depth_limits(1), 5, &mut |_| {});
        let texts: Vec<&str> = ranking.turns.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.contains(&"roll"), "{texts:?}");
        assert!(texts.iter().any(|t| t.starts_with("c:3")), "{texts:?}");
        assert!(ranking.turns[0].text.starts_with("c:3"), "{texts:?}");
    }
}
