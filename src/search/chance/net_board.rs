//! The net's accumulator of a chance game's board, kept through play and unplay: the
//! searcher wraps the game it searches in a [`NetBoard`], so that a leaf of a game evaluated
//! with a net (the Madness's shogi board with the shogi net, Shogammon with its own) runs only
//! the net's layers, as the alpha-beta search does in shogi, instead of summing the feature
//! transformer's rows of every piece again. The net is the one [`ChanceGame::kept_net`] names.
//!
//! The wrapper keeps a stack with one accumulator per board that differs from the one before
//! it on the current line (an action that leaves the board alone pushes nothing); its slots
//! outlive an unplay, so that the next action writes its accumulator straight into one. What an
//! action does comes from [`ChanceGame::board_step`]: a shogi move or drop on a shogi board
//! (the Madness) is an incremental update (`features::changes` before it, `Network::update`
//! after, as in shogi; HalfKP recomputes the view of a king that moved); a change of inputs
//! (Shogammon's actions, `nnue::shogammon::changes`) subtracts and adds those rows; any other
//! change (a madness effect: a slide, a flip, a piece sent to hand, a promotion) recomputes
//! the accumulator from scratch. A board the net cannot read (a shogi board without both
//! kings) has no accumulator, and its position is evaluated by [`ChanceGame::evaluate`] as
//! before (the tables).
//!
//! The values are those of the evaluation from scratch: the transformer's sums wrap in 16
//! bits in any order. Debug builds check the accumulator against the one from scratch after
//! every play and unplay. Without a net the wrapper only forwards.

use super::{BoardStep, ChanceGame, LeafEvaluators, Value};
use crate::eval::nnue::features;
use crate::eval::nnue::{Accumulator, Network};
use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::shogi::Position;
use std::sync::Arc;

/// A chance game with the net's accumulator of its board.
#[derive(Clone)]
pub struct NetBoard<G> {
    game: G,
    /// The net the accumulators belong to (`None`: nothing is kept).
    net: Option<Arc<Network>>,
    /// The accumulator of the board at the root, then of each later board that differs from
    /// the one before it; `None` where the net cannot read the board. Only the first `live`
    /// are the current line's: the slots after them are kept for reuse, so that an action
    /// writes its accumulator in place instead of building it elsewhere and copying it in.
    accumulators: Vec<Option<Accumulator>>,
    /// How many of `accumulators` belong to the current line.
    live: usize,
    /// Per action played since the root: whether it pushed onto `accumulators`.
    pushed: Vec<bool>,
}

impl<G: ChanceGame> NetBoard<G> {
    /// `game`, with the accumulators of the net among `evals` that it names
    /// ([`ChanceGame::kept_net`]; none kept if it names none).
    pub fn new(game: G, evals: &LeafEvaluators) -> NetBoard<G> {
        let net = game.kept_net(evals).cloned();
        let mut board = NetBoard {
            game,
            net,
            accumulators: Vec::with_capacity(64),
            live: 0,
            pushed: Vec::with_capacity(128),
        };
        if board.net.is_some() {
            let root = board.from_scratch();
            board.accumulators.push(root);
            board.live = 1;
        }
        board
    }

    /// The game wrapped.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The accumulator of the current board, if one is kept.
    pub fn accumulator(&self) -> Option<&Accumulator> {
        self.accumulators[..self.live]
            .last()
            .and_then(Option::as_ref)
    }

    /// The accumulator of the current board computed from scratch, if the net reads it.
    pub fn from_scratch(&self) -> Option<Accumulator> {
        self.game.accumulate(self.net.as_deref()?)
    }

    /// Debug builds: the kept accumulator is the one from scratch.
    #[inline]
    fn check(&self) {
        #[cfg(debug_assertions)]
        if self.net.is_some() {
            assert!(
                self.accumulator().copied() == self.from_scratch(),
                "the kept accumulator differs from the one from scratch after {} actions",
                self.pushed.len()
            );
        }
    }
}

/// Writes to `out` the accumulator of `after`, reached by the shogi move with `changes` from
/// a board whose accumulator is `before` (`None`: from scratch, if the net reads `after`).
fn step_shogi(
    net: &Network,
    after: &Position,
    changes: Option<features::Changes>,
    before: Option<&Accumulator>,
    out: &mut Option<Accumulator>,
) {
    if !Network::fits(after) {
        *out = None;
        return;
    }
    match (changes, before) {
        (Some(changes), Some(before)) => {
            net.update(
                after,
                &changes,
                before,
                out.get_or_insert_with(Default::default),
            );
        }
        _ => *out = Some(net.accumulate(after)),
    }
}

impl<G: ChanceGame> Game for NetBoard<G> {
    #[inline]
    fn node_kind(&self) -> NodeKind {
        self.game.node_kind()
    }

    #[inline]
    fn is_chance(&self) -> bool {
        self.game.is_chance()
    }

    #[inline]
    fn legal_actions(&self, out: &mut MoveList) {
        self.game.legal_actions(out)
    }

    #[inline]
    fn count_legal_actions(&self) -> u64 {
        self.game.count_legal_actions()
    }

    fn play(&mut self, action: Move) {
        let Some(net) = self.net.as_deref() else {
            self.game.play(action);
            return;
        };
        let step = self.game.board_step(action, net);
        let shogi_changes = match &step {
            BoardStep::Shogi(mv) => self
                .game
                .shogi_board()
                .filter(|board| Network::fits(board))
                .map(|board| features::changes(board, *mv)),
            _ => None,
        };
        self.game.play(action);
        if matches!(step, BoardStep::Unchanged) {
            self.pushed.push(false);
            self.check();
            return;
        }
        if self.accumulators.len() == self.live {
            self.accumulators.push(None);
        }
        let (line, free) = self.accumulators.split_at_mut(self.live);
        let before = line.last().and_then(Option::as_ref);
        let out = &mut free[0];
        match step {
            BoardStep::Unchanged => unreachable!("handled above"),
            BoardStep::Rows(rows) => match before {
                Some(before) => {
                    net.update_rows(&rows, before, out.get_or_insert_with(Default::default))
                }
                None => *out = None,
            },
            BoardStep::Shogi(_) => match self.game.shogi_board() {
                Some(board) => step_shogi(net, board, shogi_changes, before, out),
                None => *out = None,
            },
            BoardStep::Other => *out = self.game.accumulate(net),
        }
        self.live += 1;
        self.pushed.push(true);
        self.check();
    }

    fn unplay(&mut self) {
        self.game.unplay();
        if self.pushed.pop() == Some(true) {
            self.live -= 1;
        }
        self.check();
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
}

impl<G: ChanceGame> ChanceGame for NetBoard<G> {
    /// From the kept accumulator when there is one for the net `evals` names for this game,
    /// else as the game evaluates.
    fn evaluate(&self, pov: Color, evals: &LeafEvaluators) -> Value {
        let wanted = self.game.kept_net(evals);
        match (self.net.as_ref(), self.accumulator()) {
            (Some(net), Some(acc)) if wanted.is_some_and(|w| Arc::ptr_eq(w, net)) => {
                self.game.evaluate_with_accumulator(pov, evals, net, acc)
            }
            _ => self.game.evaluate(pov, evals),
        }
    }

    #[inline]
    fn is_capture(&self, action: Move) -> bool {
        self.game.is_capture(action)
    }

    #[inline]
    fn depth_cost(&self, action: Move) -> super::Depth {
        self.game.depth_cost(action)
    }

    #[inline]
    fn search_outcome(&self) -> Option<Outcome> {
        self.game.search_outcome()
    }

    fn kept_net<'a>(&self, evals: &'a LeafEvaluators) -> Option<&'a Arc<Network>> {
        self.game.kept_net(evals)
    }

    fn shogi_board(&self) -> Option<&Position> {
        self.game.shogi_board()
    }

    fn board_step(&self, action: Move, net: &Network) -> BoardStep {
        self.game.board_step(action, net)
    }

    fn accumulate(&self, net: &Network) -> Option<Accumulator> {
        self.game.accumulate(net)
    }

    fn evaluate_with_accumulator(
        &self,
        pov: Color,
        evals: &LeafEvaluators,
        net: &Network,
        acc: &Accumulator,
    ) -> Value {
        self.game.evaluate_with_accumulator(pov, evals, net, acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::FeatureSet;
    use crate::eval::random_games::pick_preferring;
    use crate::eval::shogi_choice::ShogiEvaluator;
    use crate::rules::variants::madness::{PlayerView, Token, TrueGame, CENTER};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// Sente's silver on 5e, a gote gold on 5a, gote's king on 1a, sente's king on 9i: the
    /// madness acts from the first turn.
    const CENTRE_SILVER: &str = "4g3k/9/9/9/4S4/9/9/9/K8 b - 1";

    /// How often each kind of step was met, and how many actions pushed an accumulator.
    #[derive(Default, Debug)]
    struct Seen {
        shogi: usize,
        rows: usize,
        other: usize,
        unchanged: usize,
        kept: usize,
        unreadable: usize,
        pushed: usize,
    }

    /// The kept accumulator and the evaluation from it equal the ones from scratch.
    fn assert_fresh<G: ChanceGame>(game: &NetBoard<G>, evals: &LeafEvaluators, seen: &mut Seen) {
        assert_eq!(game.accumulator().copied(), game.from_scratch());
        match game.accumulator() {
            Some(_) => seen.kept += 1,
            None => seen.unreadable += 1,
        }
        if game.search_outcome().is_some() {
            return;
        }
        for pov in Color::BOTH {
            assert_eq!(game.evaluate(pov, evals), game.game().evaluate(pov, evals));
        }
    }

    /// Madness actions and moves onto 5e: the ones preferred in random Madness games.
    fn madness_first(_: &impl ChanceGame, m: Move) -> bool {
        matches!(
            Token::from_move(m),
            Some(Token::Card(_) | Token::Roll | Token::Promote)
        ) || (Token::from_move(m).is_none() && m.to() == CENTER)
    }

    /// Plays `games` random games of up to `actions` actions from `start` (chance outcomes
    /// picked like decisions, the actions `prefer` names preferred), checking after every
    /// action and after every unplay back to the start.
    fn check_games<G: ChanceGame>(
        start: &G,
        evals: &LeafEvaluators,
        seed: u64,
        (games, actions): (usize, usize),
        prefer: impl Fn(&G, Move) -> bool,
    ) -> Seen {
        let rng = &mut StdRng::seed_from_u64(seed);
        let mut seen = Seen::default();
        for _ in 0..games {
            let mut game = NetBoard::new(start.clone(), evals);
            assert_fresh(&game, evals, &mut seen);
            let mut played = 0;
            while played < actions && game.outcome().is_none() {
                let mut legal = MoveList::new();
                game.legal_actions(&mut legal);
                let Some(action) = pick_preferring(&legal, rng, |m| prefer(game.game(), m)) else {
                    break;
                };
                let net = game.net.clone().expect("the games are played with a net");
                match game.board_step(action, &net) {
                    BoardStep::Shogi(_) => seen.shogi += 1,
                    BoardStep::Rows(_) => seen.rows += 1,
                    BoardStep::Other => seen.other += 1,
                    BoardStep::Unchanged => seen.unchanged += 1,
                }
                let depth = game.live;
                game.play(action);
                seen.pushed += game.live - depth;
                played += 1;
                assert_fresh(&game, evals, &mut seen);
            }
            for _ in 0..played {
                game.unplay();
                assert_fresh(&game, evals, &mut seen);
            }
            assert_eq!(game.game().hash(), start.hash());
            assert_eq!(
                game.live, 1,
                "back at the start, only the root's accumulator is live"
            );
        }
        seen
    }

    #[test]
    fn the_kept_accumulator_is_the_one_from_scratch_through_random_madness_games() {
        let builtin = LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net());
        let halfkp = LeafEvaluators::with_shogi(ShogiEvaluator::with_net(Some(Arc::new(
            Network::random(FeatureSet::HalfKp, 5),
        ))));
        for evals in [&builtin, &halfkp] {
            let mut centre = TrueGame::from_sfen(CENTRE_SILVER).unwrap();
            centre.play_texts(["draw:3", "draw:7"]).unwrap();
            let seen = [
                check_games(&centre, evals, 1, (30, 40), madness_first),
                check_games(&TrueGame::startpos(), evals, 2, (10, 120), madness_first),
                check_games(
                    &PlayerView::startpos(Color::Gote),
                    evals,
                    3,
                    (10, 120),
                    madness_first,
                ),
            ];
            for s in &seen {
                // Every kind of step was played, and each game kept an accumulator.
                assert!(s.shogi > 0 && s.other > 0 && s.unchanged > 0, "{s:?}");
                assert!(s.kept > 0 && s.unreadable == 0, "{s:?}");
            }
        }
    }

    #[test]
    fn a_board_without_a_king_keeps_no_accumulator_and_is_valued_by_the_tables() {
        let evals = LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net());
        let mut kingless = TrueGame::from_sfen("4g3k/9/9/9/4S4/9/9/9/9 b - 1").unwrap();
        kingless.play_texts(["draw:3", "draw:7"]).unwrap();
        let seen = check_games(&kingless, &evals, 4, (10, 30), madness_first);
        assert!(seen.unreadable > 0 && seen.kept == 0, "{seen:?}");
        let game = NetBoard::new(kingless.clone(), &evals);
        for pov in Color::BOTH {
            assert_eq!(
                game.evaluate(pov, &evals),
                kingless.evaluate(pov, LeafEvaluators::standard())
            );
        }
    }

    /// Shogammon with its own nets: through random games (captures preferred, so that points
    /// form and fall and hands fill) the accumulator kept by the rows each action changes is
    /// the one from scratch, and so is the evaluation; rolls and passes push nothing. With
    /// the king-relative features a king's move recomputes, and nothing else does.
    #[test]
    fn shogammon_keeps_its_nets_accumulator_by_the_rows_each_action_changes() {
        use crate::rules::variants::shogammon::Position;
        for features in [FeatureSet::ShogammonP, FeatureSet::ShogammonPK] {
            let evals = LeafEvaluators {
                shogammon: Some(Arc::new(Network::random(features, 9))),
                ..LeafEvaluators::standard().clone()
            };
            let captures_first = |pos: &Position, m: Move| pos.is_capture(m);
            let seen = check_games(&Position::startpos(), &evals, 5, (12, 200), captures_first);
            assert!(seen.unreadable == 0 && seen.kept > 1000, "{seen:?}");
            // Each turn is a roll and two decisions; only the decisions that move a piece push.
            assert!(seen.shogi == 0, "{seen:?}");
            assert!(
                seen.pushed == seen.rows + seen.other && seen.rows > seen.unchanged,
                "{seen:?}"
            );
            match features {
                FeatureSet::ShogammonP => assert_eq!(seen.other, 0, "{seen:?}"),
                _ => assert!(seen.other > 0 && seen.other < seen.rows, "{seen:?}"),
            }
        }
    }

    #[test]
    fn without_a_net_of_the_game_nothing_is_kept() {
        let mut game = NetBoard::new(TrueGame::startpos(), LeafEvaluators::standard());
        for text in ["draw:3", "draw:7", "7g7f"] {
            let action = game.game().parse_action(text).unwrap();
            game.play(action);
        }
        assert!(game.accumulator().is_none() && game.from_scratch().is_none());
        // The shogi net is not Shogammon's.
        let evals = LeafEvaluators::with_shogi(ShogiEvaluator::builtin_net());
        let shogammon = crate::rules::variants::shogammon::Position::startpos();
        let game = NetBoard::new(shogammon, &evals);
        assert!(game.net.is_none() && game.live == 0);
    }
}
