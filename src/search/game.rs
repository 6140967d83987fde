//! What the alpha-beta search asks of a deterministic game: [`SearchGame`].
//!
//! The search (`alphabeta`, `ordering`, the `Searcher` in `search/mod.rs`) is written once
//! against this trait and compiled once per variant; each variant's implementation lives in
//! `search/variants/`. The trait covers the position (moves, make/unmake, hash history),
//! the facts move ordering and pruning need (captures, exchange values, checks), and the
//! variant's incremental evaluation.

use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::sink::MovePart;

/// A position the alpha-beta search can drive. Scores are centipawns for the side to move.
pub trait SearchGame: Clone + Send + Sync + 'static {
    /// The compiled evaluation tables (or, for shogi, the tables or a net).
    type Evaluator: Sync + 'static;
    /// The evaluation state carried from ply to ply.
    type Totals: Copy + Default + Send + PartialEq + std::fmt::Debug;
    /// What a move changes in the evaluation state, found before the move is played and
    /// applied after it ([`SearchGame::eval_change`], [`SearchGame::eval_apply`]).
    type EvalChange;
    /// What a node computes once to answer "does this move check?" cheaply.
    type Checks;

    /// How many distinct (colour, kind) indices [`SearchGame::moved_slot`] returns.
    const PIECE_SLOTS: usize;
    /// Whether the search parameters left at their game default take issue 38's tree
    /// setting ([`SearchParams::for_game`](super::params::SearchParams::for_game)).
    const TREE_SETTING: bool = false;
    /// How many squares the board has (destinations index the history tables).
    const SQUARES: usize;

    /// The standard evaluation of this variant.
    fn default_evaluator() -> &'static Self::Evaluator;
    /// Whether `evaluator` values positions with a net (the search parameters tuned with a
    /// net apply: [`SearchParams::for_game`](super::params::SearchParams::for_game)).
    fn evaluates_by_net(_evaluator: &Self::Evaluator) -> bool {
        false
    }
    /// Evaluation totals computed from scratch.
    fn eval_totals(&self, evaluator: &Self::Evaluator) -> Self::Totals;
    /// What `mv` (not yet played) changes in the totals `before` of this position.
    fn eval_change(
        &self,
        evaluator: &Self::Evaluator,
        mv: Move,
        before: &Self::Totals,
    ) -> Self::EvalChange;
    /// Writes into `after` the totals of this position, reached by a move whose `change`
    /// was found from the position before it, whose totals are `before`.
    fn eval_apply(
        &self,
        evaluator: &Self::Evaluator,
        change: Self::EvalChange,
        before: &Self::Totals,
        after: &mut Self::Totals,
    );
    /// The score of totals for `side_to_move`.
    fn eval_score(evaluator: &Self::Evaluator, totals: &Self::Totals, side_to_move: Color) -> i32;

    fn side_to_move(&self) -> Color;
    fn hash(&self) -> u64;
    /// The hash of the position `back` plies ago, if the game is that long.
    fn hash_before(&self, back: usize) -> Option<u64>;
    /// Moves played since the position was set up (the history the search may look at).
    fn moves_played(&self) -> usize;
    /// The game's move number (1 at the start), for the move-limit draw.
    fn move_number(&self) -> u32;
    /// Whether the side to move is in check (checks extend, change pruning and quiescence,
    /// and decide perpetual-check repetitions). Variants without an obligation to answer
    /// checks may report `false`.
    fn in_check(&self) -> bool;
    /// Whether the repetition rules call the move that led here "forcing" (the side that made
    /// only forcing moves in a repetition cycle loses it): checks in shogi (perpetual check),
    /// attacking moves in Chu (lishogi's rule R1). Shogi-like games keep the default and
    /// [`SearchGame::FORCING_IS_CHECK`], which lets the search reuse its check flag.
    fn last_move_was_forcing(&self) -> bool {
        self.in_check()
    }
    /// Whether [`SearchGame::last_move_was_forcing`] is exactly [`SearchGame::in_check`].
    const FORCING_IS_CHECK: bool = true;
    /// Whether the side to move has already lost by a rule of the variant (a captured last
    /// royal, a bared king); positions without legal moves are judged by the search. By
    /// default never (the games where a king cannot be taken).
    #[inline]
    fn has_lost(&self) -> bool {
        false
    }
    /// Whether the side that just moved left its last royal where the side to move can take
    /// it, so that it has lost unless the move itself won. By default never (the games whose
    /// legal moves never leave the king attacked).
    #[inline]
    fn left_royal_en_prise(&self) -> bool {
        false
    }

    fn generate_legal(&self, out: &mut MoveList);
    /// Captures (and capturing promotions) for quiescence; never called when in check. By
    /// default [`SearchGame::generate_part`]'s captures (the legal moves that capture, in
    /// their order); a variant with a faster generator overrides it.
    fn generate_captures(&self, out: &mut MoveList) {
        self.generate_part(MovePart::Captures, out);
    }
    /// Whether [`SearchGame::generate_part`] costs less than generating every move and
    /// [`SearchGame::is_legal`] less than looking among them: the move picker then generates
    /// a node's quiet moves only when it reaches them. By default not.
    const GENERATES_BY_PART: bool = false;
    /// Appends the legal moves of one `part` (every capture, promotion choices included, or
    /// every other move). By default the legal moves, filtered.
    fn generate_part(&self, part: MovePart, out: &mut MoveList) {
        let mut all = MoveList::new();
        self.generate_legal(&mut all);
        let captures = part == MovePart::Captures;
        out.extend(
            all.iter()
                .copied()
                .filter(|&mv| self.is_capture(mv) == captures),
        );
    }
    /// Whether `mv`, any move code (a table's move or a killer may come from another
    /// position), is legal here. By default looked up among the legal moves.
    fn is_legal(&self, mv: Move) -> bool {
        let mut all = MoveList::new();
        self.generate_legal(&mut all);
        all.contains(&mv)
    }
    fn has_legal_move(&self) -> bool;
    fn play(&mut self, mv: Move);
    fn unplay(&mut self);
    /// Passes the turn (null-move pruning).
    fn play_null(&mut self);
    fn unplay_null(&mut self);

    /// Whether the legal move `mv` gives check (reference form, used at the root).
    fn gives_check(&self, mv: Move) -> bool;
    /// Per-node data for [`SearchGame::checks_gives_check`].
    fn checks(&self) -> Self::Checks;
    /// Whether `mv` gives check, using the node's precomputed `checks`. By default the
    /// reference form, for games that precompute nothing.
    #[inline]
    fn checks_gives_check(&self, _checks: &Self::Checks, mv: Move) -> bool {
        self.gives_check(mv)
    }

    /// The (colour, kind) index of the piece that makes `mv`, below `PIECE_SLOTS`.
    fn moved_slot(&self, mv: Move) -> usize;
    /// The (colour, kind) index of the piece `mv` leaves on its destination.
    fn landed_slot(&self, mv: Move) -> usize;
    /// Whether `mv` captures anything.
    fn is_capture(&self, mv: Move) -> bool;
    /// The exchange value of what `mv` captures (0 when nothing).
    fn victim_value(&self, mv: Move) -> i32;
    /// The (colour, kind) index of the piece the capture `mv` takes, below `PIECE_SLOTS`,
    /// for the capture history. By default 0: the games whose moves may capture several
    /// pieces (Chu Shogi's lion) keep one history per mover and destination.
    #[inline]
    fn victim_slot(&self, _mv: Move) -> usize {
        0
    }
    /// The exchange value of the piece that makes `mv`.
    fn mover_value(&self, mv: Move) -> i32;
    /// The value a promotion adds (0 for other moves).
    fn promotion_gain(&self, mv: Move) -> i32;
    /// The static exchange evaluation of `mv` on its destination square.
    fn see(&self, mv: Move) -> i32;
    /// Whether a quiet promotion deserves to be tried early. By default every promotion.
    #[inline]
    fn promotion_first(&self, mv: Move) -> bool {
        mv.is_promotion()
    }
    /// Whether the quiet move `mv` makes a threat the search should not reduce away: from its
    /// destination, which it holds by SEE, it attacks an enemy piece worth more than itself
    /// or one no enemy piece defends (the king aside: that is check). By default never (the
    /// games that do not implement it).
    fn threatens(&self, _mv: Move) -> bool {
        false
    }
    /// True if the side to move mates at once with a move quiescence would not look at
    /// (in shogi: a drop next to the enemy king). Variants without such a probe say false.
    fn quiet_mate_in_one(&mut self) -> bool {
        false
    }
}
