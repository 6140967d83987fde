//! Chu Kagamigi for the alpha-beta search: a drop game with check and mate like shogi, on
//! the 12×12 board. Checks are detected for the moving piece only (a discovered check is not
//! seen, so it is not extended); the exchange estimate is one recapture deep.

use super::super::game::SearchGame;
use crate::eval::kagamigi::value;
use crate::rules::variants::kagamigi::{Geo, Kind, Position};

impl SearchGame for Position {
    forward_search_game!(kinds: Kind, board: Geo, tables and net);

    drop_game_exchange!(value);
    generation_by_part!();

    drop_game_direct_checks!(value);
}
