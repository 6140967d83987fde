use crate::rules::geometry::Color;
use crate::search::chance::{ChanceGame, Value};
impl ChanceGame for crate::rules::variants::shogammon::Position {
    fn evaluate(&self, _pov: Color) -> Value {
        Value::DRAW
    }
}
