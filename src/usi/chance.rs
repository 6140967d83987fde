//! USI for the games with dice and cards (docs/USI.md, "Games with dice and cards"): every
//! action is a token, `go` at a decision answers the player's decisions up to the next chance
//! event joined by `,` (`bestmove 7g7f,5i4h`: a whole Shogammon turn, `pass` included), and
//! `go` at a chance event reports the expectation and the per-outcome table in `info string`
//! lines, then answers `bestmove (none)` (there is nothing to play: the referee rolls).
//!
//! The search is `search::chance` (expectiminimax with Star1/Star2); its bounded value is
//! printed as `score cp` (10000 = a certain win) with `info string ev … win …%` beside it.

use super::output::Output;
use crate::rules::game::{walk_legal_prefix, Game, NodeKind};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::shogi::impasse::EnteringKingRule;
use crate::rules::variants::{madness, shogammon};
use crate::search::chance::{
    ChanceGame, ChanceLimits, ChanceResult, ChanceSearcher, ChanceSettings, Depth, Value,
};
use crate::search::time;
use crate::search::{Config, Control, Limits};
use std::time::Duration;

/// The protocol text of a chance game's actions, and whose turn it is.
pub trait ChanceText: Game {
    /// The protocol text of an action (decision or chance outcome) legal here.
    fn action_text(&self, action: Move) -> String;
    /// Reads a token legal here.
    fn parse_action_text(&self, text: &str) -> Result<Move, String>;
    /// The colour whose turn it is (the roller at a chance event).
    fn player_to_act(&self) -> Color;
    /// The number of turns or moves played, for time management.
    fn game_ply(&self) -> u32;
    /// Chooses the entering-king rule (USI `EnteringKingRule`), where the game has one.
    fn set_declaration_rule(&mut self, _rule: EnteringKingRule) {}
    /// Whether the player to act may declare a win now (`bestmove win`): only the Madness's
    /// entering-king rule allows it.
    fn can_declare_win(&self) -> bool {
        false
    }
}

/// A chance game the USI engine can search.
pub trait UsiChanceGame: ChanceGame + ChanceText {}

impl<G: ChanceGame + ChanceText> UsiChanceGame for G {}

impl ChanceText for shogammon::Position {
    fn action_text(&self, action: Move) -> String {
        self.action_to_usi(action)
    }
    fn parse_action_text(&self, text: &str) -> Result<Move, String> {
        self.parse_action(text).map_err(|e| e.to_string())
    }
    fn player_to_act(&self) -> Color {
        self.side_to_move()
    }
    fn game_ply(&self) -> u32 {
        // Two decisions per turn.
        2 * self.turn_number().saturating_sub(1)
    }
}

impl ChanceText for madness::PlayerView {
    fn action_text(&self, action: Move) -> String {
        madness::PlayerView::action_text(self, action)
    }
    fn parse_action_text(&self, text: &str) -> Result<Move, String> {
        self.parse_action(text).map_err(|e| e.to_string())
    }
    fn player_to_act(&self) -> Color {
        self.side_to_move()
    }
    fn game_ply(&self) -> u32 {
        self.position().move_number().saturating_sub(1)
    }
    fn set_declaration_rule(&mut self, rule: EnteringKingRule) {
        madness::PlayerView::set_declaration_rule(self, rule);
    }
    fn can_declare_win(&self) -> bool {
        madness::PlayerView::can_declare_win(self)
    }
}

/// The value as USI's `score` (a win found in the tree becomes `mate`).
fn score_text(value: Value) -> String {
    let margin = Value::WIN.0 - value.0.abs();
    if margin <= Value::MAX_PLY {
        let plies = if value.0 > 0 { margin } else { -margin };
        format!("score mate {plies}")
    } else {
        format!("score cp {}", value.0)
    }
}

/// The `info` line of one completed iteration (`hashfull` where it is known: the table is
/// read only once the search has let go of it).
pub(crate) fn info_line<G: UsiChanceGame>(
    game: &G,
    result: &ChanceResult,
    hashfull: Option<u32>,
) -> String {
    let ms = result.elapsed.as_millis() as u64;
    let mut line = format!(
        "info depth {} {} nodes {} nps {} time {}",
        result.depth.0.max(1),
        score_text(result.value),
        result.nodes,
        result.nodes.saturating_mul(1000) / ms.max(1),
        ms,
    );
    if let Some(permille) = hashfull {
        line.push_str(&format!(" hashfull {}", permille.min(1000)));
    }
    let pv = legal_texts(game, &result.pv);
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// The longest legal prefix of `line` as protocol text.
pub(crate) fn legal_texts<G: UsiChanceGame>(game: &G, line: &[Move]) -> Vec<String> {
    let mut out = Vec::new();
    walk_legal_prefix(game, line, G::legal_actions, G::play, |g, action| {
        out.push(g.action_text(action))
    });
    out
}

/// Searches `game` under `limits` (on `pool`'s threads if given) and returns the `bestmove`
/// line, writing `info` lines on the way.
pub fn search<G: UsiChanceGame>(
    searcher: &mut ChanceSearcher,
    pool: Option<&rayon::ThreadPool>,
    game: &G,
    limits: &Limits,
    config: &Config,
    control: &Control,
    out: &Output,
) -> String {
    let mut game = game.clone();
    let us = game.player_to_act();
    let mut legal = MoveList::new();
    game.legal_actions(&mut legal);
    let at_chance = matches!(game.node_kind(), NodeKind::Chance(_));
    if game.outcome().is_some() || (!at_chance && legal.is_empty()) {
        return "bestmove resign".to_string();
    }
    if !at_chance {
        if let Some(line) = declaration(&mut game, &legal) {
            return line;
        }
    }
    let untimed = limits.infinite || control.is_pondering();
    let budget = time::budget(limits, config, us, game.game_ply());
    let time = if untimed {
        None
    } else {
        match (budget.soft, budget.hard) {
            (Some(soft), Some(hard)) => Some(soft.min(hard)),
            (soft, hard) => soft.or(hard),
        }
    };
    if searcher.settings().algorithm != config.chance_algorithm {
        searcher.set_settings(ChanceSettings {
            algorithm: config.chance_algorithm,
            ..searcher.settings()
        });
    }
    let chance_limits = ChanceLimits {
        depth: config.capped_depth(limits.depth).map(Depth),
        nodes: limits.nodes,
        time: time.map(|t| t.max(Duration::from_millis(1))),
    };
    let stop = control.stop_flag();
    // The search holds `game`; progress lines read their PV against this copy.
    let root = game.clone();
    let mut last_reported = None;
    let mut report = |r: &ChanceResult| {
        out.line(&info_line(&root, r, None));
        last_reported = Some((r.depth, r.nodes));
    };
    let result = searcher.search_reporting(pool, &mut game, us, &chance_limits, &stop, &mut report);
    // The last iteration's line again only if the search went on past it.
    let hashfull = searcher.hashfull();
    if last_reported != Some((result.depth, result.nodes)) {
        out.line(&info_line(&game, &result, Some(hashfull)));
    }
    report_final(&game, &result, out);
    if at_chance {
        return "bestmove (none)".to_string();
    }
    // The whole turn, cut where it stops being legal; the first legal action otherwise.
    let turn = legal_texts(&game, &result.best);
    if turn.is_empty() {
        match legal.first() {
            Some(&first) => format!("bestmove {}", game.action_text(first)),
            None => "bestmove resign".to_string(),
        }
    } else {
        format!("bestmove {}", turn.join(","))
    }
}

/// The `bestmove` that declares a win, or leads to it: `win` when the player may declare now;
/// when one of its decisions keeps the turn and makes the declaration valid (the madness
/// promotion choice before the normal move), that decision alone, so the next `go` declares.
fn declaration<G: UsiChanceGame>(game: &mut G, legal: &MoveList) -> Option<String> {
    if game.can_declare_win() {
        return Some("bestmove win".to_string());
    }
    let us = game.player_to_act();
    legal.iter().find_map(|&action| {
        game.play(action);
        let leads = game.node_kind() == NodeKind::Decision(us) && game.can_declare_win();
        game.unplay();
        leads.then(|| format!("bestmove {}", game.action_text(action)))
    })
}

/// The expectation as a win percentage, and at a chance root the table of outcomes
/// (probability, value, best reply where there is one).
fn report_final<G: UsiChanceGame>(game: &G, result: &ChanceResult, out: &Output) {
    let permille = result.value.win_permille();
    out.line(&format!(
        "info string ev {:+.4} win {}.{}%",
        result.value.0 as f64 / Value::WIN.0 as f64,
        permille / 10,
        permille % 10
    ));
    if result.outcomes.is_empty() {
        return;
    }
    let total: u32 = result.outcomes.iter().map(|o| o.weight.0).sum();
    for line in &result.outcomes {
        let mut after = game.clone();
        let text = after.action_text(line.outcome);
        after.play(line.outcome);
        let reply = legal_texts(&after, &line.pv);
        let mut row = format!(
            "info string outcome {text} p {}/{total} {}",
            line.weight.0,
            score_text(line.value),
        );
        if !reply.is_empty() {
            row.push_str(&format!(" pv {}", reply.join(" ")));
        }
        out.line(&row);
    }
}
