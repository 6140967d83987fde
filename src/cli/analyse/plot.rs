//! The evaluation graph of a reviewed game as SVG (`shishi analyse --record FILE --plot
//! OUT.svg`): the engine's value of each position where a player decided, from sente's
//! point of view, by the record's move number; marked moves as coloured dots (yellow
//! inaccuracy, orange mistake, red blunder); chance events (rolls, draws) as ticks on the
//! axis with their tokens.

use super::board_svg::escape;
use super::review::{Mark, Review, ValueUnit};
use crate::rules::geometry::Color;

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 70.0;
/// Centipawn values are drawn clipped to ± this.
const CP_RANGE: f64 = 2000.0;
/// Equities are drawn over their whole range (± 10000 in 1/10000).
const EQUITY_RANGE: f64 = 10_000.0;

/// A value for `mover` as seen by sente.
pub fn sente_value(mover: Color, value: i32) -> i32 {
    match mover {
        Color::Sente => value,
        Color::Gote => -value,
    }
}

/// The graph as an SVG document.
pub fn plot_svg(review: &Review, title: &str) -> String {
    let range = match review.unit {
        ValueUnit::Centipawns => CP_RANGE,
        ValueUnit::Equity => EQUITY_RANGE,
    };
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let last = review.moves.last().map_or(1, |m| m.index + 1).max(1) as f64;
    let x_of = |index: usize| LEFT + plot_w * index as f64 / last;
    let y_of = |value: i32| {
        let v = (value as f64).clamp(-range, range);
        TOP + plot_h * (1.0 - (v + range) / (2.0 * range))
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\n\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
<text x=\"{:.1}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\" font-family=\"sans-serif\">{}</text>\n",
        WIDTH / 2.0,
        escape(title)
    );
    // Sente's advantage shaded above the axis, gote's below.
    out.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{:.1}\" fill=\"#f4f4f4\"/>\n\
<rect x=\"{LEFT}\" y=\"{:.1}\" width=\"{plot_w}\" height=\"{:.1}\" fill=\"#d8d8d8\"/>\n",
        plot_h / 2.0,
        TOP + plot_h / 2.0,
        plot_h / 2.0
    ));
    let label = |value: f64| match review.unit {
        ValueUnit::Centipawns => format!("{value:+.0}"),
        ValueUnit::Equity => format!("{:+.1}", value / 10_000.0),
    };
    for step in -2..=2 {
        let value = range * step as f64 / 2.0;
        let y = y_of(value as i32);
        out.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\" stroke-width=\"{}\"/>\n\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\" font-family=\"sans-serif\">{}</text>\n",
            LEFT + plot_w,
            if step == 0 { "#555" } else { "#bbb" },
            if step == 0 { 1.5 } else { 0.7 },
            LEFT - 6.0,
            y + 4.0,
            escape(&label(value))
        ));
    }
    let axis = match review.unit {
        ValueUnit::Centipawns => "sente's value (centipawns, clipped at ±2000)",
        ValueUnit::Equity => "sente's equity",
    };
    out.push_str(&format!(
        "<text x=\"16\" y=\"{:.1}\" font-size=\"12\" font-family=\"sans-serif\" transform=\"rotate(-90 16 {:.1})\" text-anchor=\"middle\">{}</text>\n\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\" font-family=\"sans-serif\">move (record index)</text>\n",
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        escape(axis),
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    ));
    // Move-number ticks.
    let tick_every = ((last / 10.0).ceil() as usize).max(1);
    for index in (0..=last as usize).step_by(tick_every) {
        let x = x_of(index);
        out.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" font-family=\"sans-serif\">{index}</text>\n",
            TOP + plot_h + 16.0
        ));
    }
    // Chance events: ticks under the axis with their tokens (thinned when crowded).
    let events: Vec<(usize, String)> = review
        .moves
        .iter()
        .filter(|m| !m.chance_before.is_empty())
        .map(|m| (m.index, m.chance_before.join(" ")))
        .collect();
    let label_every = (events.len() / 40).max(1);
    for (n, (index, tokens)) in events.iter().enumerate() {
        let x = x_of(*index);
        out.push_str(&format!(
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#2060c0\" stroke-width=\"1\"/>\n",
            TOP + plot_h,
            TOP + plot_h + 6.0
        ));
        if n % label_every == 0 {
            let short: String = tokens
                .split_whitespace()
                .map(|t| t.trim_start_matches("r:").trim_start_matches("draw:"))
                .collect::<Vec<_>>()
                .join("/");
            out.push_str(&format!(
                "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#2060c0\" text-anchor=\"end\" font-family=\"sans-serif\" transform=\"rotate(-60 {x:.1} {:.1})\">{}</text>\n",
                TOP + plot_h + 30.0,
                TOP + plot_h + 30.0,
                escape(&short)
            ));
        }
    }
    let points: Vec<String> = review
        .moves
        .iter()
        .map(|m| {
            format!(
                "{:.1},{:.1}",
                x_of(m.index),
                y_of(sente_value(m.mover, m.best_value))
            )
        })
        .collect();
    out.push_str(&format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.6\"/>\n",
        points.join(" ")
    ));
    for m in &review.moves {
        let colour = match m.mark {
            Mark::Good => continue,
            Mark::Inaccuracy => "#e0c000",
            Mark::Mistake => "#f08000",
            Mark::Blunder => "#d00000",
        };
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\"><title>{} {} ({})</title></circle>\n",
            x_of(m.index),
            y_of(sente_value(m.mover, m.best_value)),
            m.index + 1,
            escape(&m.played),
            m.mark.name()
        ));
    }
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\" font-family=\"sans-serif\">\
<tspan fill=\"#e0c000\">● inaccuracy</tspan> <tspan fill=\"#f08000\">● mistake</tspan> <tspan fill=\"#d00000\">● blunder</tspan> <tspan fill=\"#2060c0\">| chance event</tspan></text>\n",
        WIDTH - RIGHT,
        TOP - 6.0
    ));
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::analyse::review::ReviewedMove;
    use crate::rules::variants::Variant;

    fn reviewed(
        index: usize,
        mover: Color,
        value: i32,
        mark: Mark,
        chance: &[&str],
    ) -> ReviewedMove {
        ReviewedMove {
            index,
            mover,
            played: "7g7f".into(),
            best: "7g7f".into(),
            played_value: value,
            best_value: value,
            loss: 0,
            mark,
            chance_before: chance.iter().map(|c| c.to_string()).collect(),
        }
    }

    #[test]
    fn the_line_has_a_point_per_move_and_chance_events_are_ticked() {
        let review = Review {
            variant: Variant::Shogammon,
            unit: ValueUnit::Equity,
            thresholds: [400, 800, 1600],
            moves: vec![
                reviewed(1, Color::Sente, 500, Mark::Good, &["r:61"]),
                reviewed(4, Color::Gote, 500, Mark::Blunder, &["r:33"]),
            ],
            players: [None, None],
        };
        let svg = plot_svg(&review, "test <game>");
        let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(line.matches(',').count(), 2);
        // Gote's +0.05 is sente's -0.05: below the axis, sente's above.
        let ys: Vec<f64> = line
            .split('"')
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert!(ys[0] < ys[1]);
        assert_eq!(svg.matches("stroke=\"#2060c0\"").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains("test &lt;game&gt;"));
    }
}
