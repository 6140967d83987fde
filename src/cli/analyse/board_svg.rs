//! The board of any game as an SVG picture (`shishi analyse --board-svg FILE`), drawn from
//! the same [`Board`] as the text diagram: file numbers over the columns and rank letters
//! on the right, pieces as shogi pentagons with their SFEN letters (gote's turned to face
//! down), a Shogammon point as two pieces, the lower one behind, and the hands, cards and
//! notes as text.

use super::diagram::{color_name, Board, DrawnPiece};
use crate::rules::geometry::Color;

/// One square's side in pixels.
const CELL: f64 = 44.0;
/// The margin around the grid (room for file numbers, rank letters and the hands).
const MARGIN: f64 = 40.0;
/// The height of one text line.
const LINE: f64 = 20.0;

/// Text made safe for SVG.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A pentagon piece with its letter(s), centred at (`x`, `y`), `scale` of a full piece.
fn piece(out: &mut String, p: &DrawnPiece, x: f64, y: f64, scale: f64) {
    let w = CELL * 0.78 * scale;
    let h = CELL * 0.86 * scale;
    let rotation = match p.color {
        Color::Sente => 0.0,
        Color::Gote => 180.0,
    };
    let promoted = p.text.starts_with('+');
    let points = [
        (0.0, -h / 2.0),
        (w * 0.40, -h * 0.30),
        (w / 2.0, h / 2.0),
        (-w / 2.0, h / 2.0),
        (-w * 0.40, -h * 0.30),
    ]
    .iter()
    .map(|(px, py)| format!("{:.1},{:.1}", px, py))
    .collect::<Vec<_>>()
    .join(" ");
    out.push_str(&format!(
        "<g transform=\"translate({x:.1},{y:.1}) rotate({rotation})\">\
<polygon points=\"{points}\" fill=\"#f7e3b5\" stroke=\"#5a4020\" stroke-width=\"1\"/>\
<text x=\"0\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"{}\" \
font-family=\"sans-serif\" font-weight=\"bold\">{}</text></g>\n",
        h * 0.22,
        CELL * 0.40 * scale,
        if promoted { "#b00000" } else { "#000000" },
        escape(&p.text)
    ));
}

/// The board as an SVG document.
pub fn board_svg(board: &Board) -> String {
    let files = board.files();
    let ranks = board.squares.len();
    let gote_lines = usize::from(board.hand_text(Color::Gote).is_some());
    let top = MARGIN + LINE * gote_lines as f64;
    let bottom_lines = 2 + board.notes.len();
    let width = 2.0 * MARGIN + CELL * files as f64;
    let height = top + CELL * ranks as f64 + MARGIN / 2.0 + LINE * bottom_lines as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
viewBox=\"0 0 {width:.0} {height:.0}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let text = |out: &mut String, x: f64, y: f64, size: f64, anchor: &str, body: &str| {
        out.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.0}\" text-anchor=\"{anchor}\" \
font-family=\"sans-serif\">{}</text>\n",
            escape(body)
        ));
    };
    if let Some(hand) = board.hand_text(Color::Gote) {
        text(
            &mut out,
            MARGIN,
            MARGIN - 6.0,
            15.0,
            "start",
            &format!("Gote in hand: {hand}"),
        );
    }
    out.push_str(&format!(
        "<rect x=\"{MARGIN}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#e8c07a\" stroke=\"#3a2a10\" stroke-width=\"2\"/>\n",
        CELL * files as f64,
        CELL * ranks as f64
    ));
    for i in 1..files {
        let x = MARGIN + CELL * i as f64;
        out.push_str(&format!(
            "<line x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#3a2a10\"/>\n",
            top + CELL * ranks as f64
        ));
    }
    for i in 1..ranks {
        let y = top + CELL * i as f64;
        out.push_str(&format!(
            "<line x1=\"{MARGIN}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#3a2a10\"/>\n",
            MARGIN + CELL * files as f64
        ));
    }
    for column in 0..files {
        let x = MARGIN + CELL * (column as f64 + 0.5);
        text(
            &mut out,
            x,
            top - 6.0,
            13.0,
            "middle",
            &(files - column).to_string(),
        );
    }
    for (rank, row) in board.squares.iter().enumerate() {
        let y = top + CELL * (rank as f64 + 0.5);
        text(
            &mut out,
            MARGIN + CELL * files as f64 + 8.0,
            y + 5.0,
            13.0,
            "start",
            &((b'a' + rank as u8) as char).to_string(),
        );
        for (column, stack) in row.iter().enumerate() {
            let x = MARGIN + CELL * (column as f64 + 0.5);
            match stack.as_slice() {
                [] => {}
                [single] => piece(&mut out, single, x, y, 1.0),
                [lower, upper, ..] => {
                    piece(&mut out, lower, x - 9.0, y + 7.0, 0.58);
                    piece(&mut out, upper, x + 9.0, y - 7.0, 0.58);
                }
            }
        }
    }
    let mut y = top + CELL * ranks as f64 + MARGIN / 2.0 + 4.0;
    if let Some(hand) = board.hand_text(Color::Sente) {
        text(
            &mut out,
            MARGIN,
            y,
            15.0,
            "start",
            &format!("Sente in hand: {hand}"),
        );
        y += LINE;
    }
    text(
        &mut out,
        MARGIN,
        y,
        13.0,
        "start",
        &format!("{} to move", color_name(board.side_to_move)),
    );
    for note in &board.notes {
        y += LINE;
        text(&mut out, MARGIN, y, 11.0, "start", note);
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::analyse::diagram::Diagram;
    use crate::rules::variants::{chu, shogammon};

    #[test]
    fn every_square_with_a_piece_is_drawn() {
        let board = chu::Position::startpos().board();
        let svg = board_svg(&board);
        let pieces: usize = board.squares.iter().flatten().map(Vec::len).sum();
        assert_eq!(svg.matches("<polygon").count(), pieces);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains(">12</text>"));
    }

    #[test]
    fn a_point_is_two_pieces_and_text_is_escaped() {
        let pos = shogammon::Position::from_sfen("4k4/9/9/9/9/9/9/9/4(K+P)4 b - 1").unwrap();
        let svg = board_svg(&pos.board());
        assert_eq!(svg.matches("<polygon").count(), 3);
        assert_eq!(escape("a<b&\"c\""), "a&lt;b&amp;&quot;c&quot;");
    }
}
