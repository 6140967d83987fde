use crate::rules::geometry::Color;
use crate::search::chance::{ChanceGame, Value};
impl ChanceGame for crate::rules::variants::madness::PlayerView {
    fn evaluate(&self, _pov: Color) -> Value {
        Value::DRAW
    }
}
