//! Evaluation: how good a position is for the side to move, per variant.
