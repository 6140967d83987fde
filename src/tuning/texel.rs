//! Texel-style fitting of standard shogi's evaluation weights: the data half. Positions are
//! read from recorded games (the `games.jsonl` of `shishi match`), each labelled with its
//! game's result, and written out as the evaluation's features, so that
//! `scripts/texel.py` can fit every weight of [`Weights`] by logistic regression.
//!
//! The evaluation is linear in its weights once the per-cent knobs are 100, so a feature is
//! the score of the position under a [`Weights`] with that one weight set to 1 and every other
//! weight 0: the features are read from the evaluator itself, never re-derived. Run by
//! `scripts/texel.sh` (an ignored test: `TEXEL_GAMES` lists the record files, `TEXEL_OUT` is
//! the output prefix).
//!
//! A position is kept when it is at least [`MIN_PLY`] plies into the game, the side to move
//! is not in check, and the move played from it is not a capture or promotion (a rough
//! stand-in for "quiet": its static score is not about to change by an exchange).

use crate::eval::shogi::{Evaluator, Weights, SHAPE_CELLS};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Kind, Position};

/// Plies from the start before positions are kept (the openings are shorter than this).
pub const MIN_PLY: usize = 16;

/// Where one weight lives in [`Weights`].
type Slot = Box<dyn for<'a> Fn(&'a mut Weights) -> &'a mut i32>;

/// One weight of [`Weights`]: its name as `scripts/texel.py` prints it, its place, and the
/// per-cent knob that scales it (none: 100).
pub struct Parameter {
    pub name: String,
    slot: Slot,
    percent: fn(&Weights) -> i32,
}

impl Parameter {
    fn new(
        name: String,
        slot: impl for<'a> Fn(&'a mut Weights) -> &'a mut i32 + 'static,
        percent: fn(&Weights) -> i32,
    ) -> Parameter {
        Parameter {
            name,
            slot: Box::new(slot),
            percent,
        }
    }

    /// The value of this parameter in `weights` as the evaluator applies it (scaled by its
    /// per-cent knob).
    pub fn effective(&self, weights: &Weights) -> f64 {
        let mut copy = weights.clone();
        *(self.slot)(&mut copy) as f64 * (self.percent)(weights) as f64 / 100.0
    }
}

/// A weight's name as `scripts/texel.py` prints it: the field and its indices (`rank[3][4]`).
fn weight_name(field: &str, indices: &[usize]) -> String {
    indices
        .iter()
        .fold(field.to_string(), |name, i| format!("{name}[{i}]"))
}

/// Adds the weight `w.field[i]…` to `out`, named as it is written, scaled by `percent`.
macro_rules! add_weight {
    ($out:ident, $percent:expr, $field:ident $([$index:ident])*) => {
        $out.push(Parameter::new(
            weight_name(stringify!($field), &[$($index),*]),
            move |w| &mut w.$field $([$index])*,
            $percent,
        ))
    };
}

/// Every weight of standard shogi's evaluation, in the order the features are written.
pub fn parameters() -> Vec<Parameter> {
    let whole: fn(&Weights) -> i32 = |_| 100;
    let pst: fn(&Weights) -> i32 = |w| w.pst_percent;
    let attack: fn(&Weights) -> i32 = |w| w.attack_percent;
    let defend: fn(&Weights) -> i32 = |w| w.defend_percent;
    let not_king = || Kind::ALL.into_iter().filter(|&k| k != Kind::King);
    let mut out = Vec::new();
    for k in not_king().map(Kind::index) {
        add_weight!(out, whole, board[k]);
    }
    for h in 0..7 {
        add_weight!(out, whole, hand[h]);
    }
    for (h, &set_count) in Kind::SET_COUNT.iter().enumerate() {
        for n in 1..usize::from(set_count) {
            add_weight!(out, whole, hand_count[h][n]);
        }
    }
    for k in Kind::ALL.map(Kind::index) {
        for r in 0..9 {
            add_weight!(out, pst, rank[k][r]);
        }
    }
    for f in 0..9 {
        add_weight!(out, pst, king_file[f]);
    }
    for k in Kind::ALL.map(Kind::index) {
        for d in 0..3 {
            add_weight!(out, attack, attack[k][d]);
            add_weight!(out, defend, defend[k][d]);
        }
    }
    for k in not_king().map(Kind::index) {
        for c in 1..SHAPE_CELLS {
            add_weight!(out, whole, attack_shape[k][c]);
            add_weight!(out, whole, defend_shape[k][c]);
        }
    }
    add_weight!(out, whole, tempo);
    out
}

/// Weights that are all zero, with the per-cent knobs at 100 (so the score is linear).
fn zero_weights() -> Weights {
    Weights {
        board: [0; Kind::COUNT],
        hand: [0; 7],
        hand_count: [[0; 18]; 7],
        rank: [[0; 9]; Kind::COUNT],
        king_file: [0; 9],
        pst_percent: 100,
        attack: [[0; 3]; Kind::COUNT],
        attack_percent: 100,
        defend: [[0; 3]; Kind::COUNT],
        defend_percent: 100,
        attack_shape: [[0; SHAPE_CELLS]; Kind::COUNT],
        defend_shape: [[0; SHAPE_CELLS]; Kind::COUNT],
        tempo: 0,
    }
}

/// One evaluator per parameter, each scoring that parameter's feature.
pub fn feature_evaluators(parameters: &[Parameter]) -> Vec<Evaluator> {
    parameters
        .iter()
        .map(|p| {
            let mut w = zero_weights();
            *(p.slot)(&mut w) = 1;
            Evaluator::new(&w)
        })
        .collect()
}

/// A recorded game: the start, the moves, and the result for sente (1, ½ or 0).
pub struct Record {
    pub start: Position,
    pub moves: Vec<Move>,
    pub sente_score: f64,
}

/// Reads a `position … moves …` line and a result ("1-0", "0-1", "1/2-1/2").
pub fn read_record(position: &str, result: &str) -> Result<Record, String> {
    let sente_score = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => return Err(format!("unknown result {other}")),
    };
    let game = crate::record::usi::read(position)?;
    let start = match &game.start_sfen {
        None => Position::startpos(),
        Some(sfen) => Position::from_sfen(sfen).map_err(|e| e.to_string())?,
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in &game.moves {
        let mv = pos
            .parse_usi_move(text)
            .map_err(|e| format!("{text}: {e}"))?;
        pos.play(mv);
        moves.push(mv);
    }
    Ok(Record {
        start,
        moves,
        sente_score,
    })
}

/// The kept positions of `record` with the result for their side to move.
pub fn quiet_positions(record: &Record) -> Vec<(Position, f64)> {
    let mut out = Vec::new();
    let mut pos = record.start.clone();
    for (ply, &mv) in record.moves.iter().enumerate() {
        let capture = pos.piece_at(mv.to()).is_some();
        if ply >= MIN_PLY && !pos.in_check() && !capture && !mv.is_promotion() {
            let score = match pos.side_to_move() {
                Color::Sente => record.sente_score,
                Color::Gote => 1.0 - record.sente_score,
            };
            out.push((pos.clone(), score));
        }
        pos.play(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game_files::GameLine;
    use std::io::{BufRead, Write};

    /// The default evaluation is the features times the default weights (up to the per-cent
    /// rounding of the tables), so the features are what the evaluator scores.
    #[test]
    fn features_times_default_weights_give_the_default_score() {
        let params = parameters();
        let evaluators = feature_evaluators(&params);
        let weights = Weights::default();
        let line = "position startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b \
                    6h7h 6b7b 5g5f 7b8b 4i5h 9c9d 9g9f 3a3b 2e2d 2c2d 2h2d P*2c 2d2h 7a7b";
        let record = read_record(line, "1-0").unwrap();
        let positions = quiet_positions(&record);
        assert!(positions.len() >= 5, "{}", positions.len());
        for (pos, _) in &positions {
            let linear: f64 = params
                .iter()
                .zip(&evaluators)
                .map(|(p, e)| p.effective(&weights) * e.evaluate(pos) as f64)
                .sum();
            let actual = Evaluator::standard().evaluate(pos) as f64;
            // Each table entry halved by pst_percent 50 rounds toward zero: at most ½ cp per
            // piece.
            assert!((linear - actual).abs() <= 20.0, "{linear} against {actual}");
            assert!(linear != 0.0 || actual == 0.0);
        }
    }

    #[test]
    fn a_bad_record_is_an_error() {
        assert!(read_record("position startpos moves 7g7f 7g7f", "1-0").is_err());
        assert!(read_record("position startpos moves 7g7f", "2-0").is_err());
    }

    /// Writes the features of every kept position of the records in `TEXEL_GAMES`
    /// (whitespace-separated `games.jsonl` paths) to `TEXEL_OUT.bin` (rows of i32: game,
    /// result ×2 for the side to move, the default score, then one value per parameter) and
    /// the parameter names and default values to `TEXEL_OUT.json`.
    #[test]
    #[ignore]
    fn texel_features() {
        let games = std::env::var("TEXEL_GAMES").expect("TEXEL_GAMES");
        let out = std::env::var("TEXEL_OUT").expect("TEXEL_OUT");
        let params = parameters();
        let evaluators = feature_evaluators(&params);
        let mut bin = std::io::BufWriter::new(std::fs::File::create(format!("{out}.bin")).unwrap());
        let mut seen = std::collections::HashSet::new();
        let (mut rows, mut game_count) = (0usize, 0i32);
        for path in games.split_whitespace() {
            let file = std::fs::File::open(path).unwrap();
            for line in std::io::BufReader::new(file).lines() {
                let Some(GameLine {
                    variant,
                    usi,
                    result,
                    ..
                }) = GameLine::read(&line.unwrap())
                else {
                    continue;
                };
                if variant != "shogi" {
                    continue;
                }
                if !seen.insert(usi.clone()) {
                    continue;
                }
                let Ok(record) = read_record(&usi, &result) else {
                    eprintln!("skipped a record of {path}");
                    continue;
                };
                game_count += 1;
                for (pos, score) in quiet_positions(&record) {
                    let mut row = vec![
                        game_count,
                        (score * 2.0) as i32,
                        Evaluator::standard().evaluate(&pos),
                    ];
                    row.extend(evaluators.iter().map(|e| e.evaluate(&pos)));
                    for v in row {
                        bin.write_all(&v.to_le_bytes()).unwrap();
                    }
                    rows += 1;
                }
            }
        }
        bin.flush().unwrap();
        let weights = Weights::default();
        let names: Vec<String> = params.iter().map(|p| format!("\"{}\"", p.name)).collect();
        let defaults: Vec<String> = params
            .iter()
            .map(|p| p.effective(&weights).to_string())
            .collect();
        let json = format!(
            "{{\"rows\": {rows}, \"games\": {game_count}, \"names\": [{}], \"defaults\": [{}]}}\n",
            names.join(", "),
            defaults.join(", ")
        );
        std::fs::write(format!("{out}.json"), json).unwrap();
        eprintln!(
            "{game_count} games, {rows} positions, {} parameters",
            params.len()
        );
    }
}
