//! `shishi analyse`: a person-readable analysis of one position: board diagram and the
//! principal variations.
//!
//! The diagram shows files 9–1 left to right and ranks a–i top to bottom, as a shogi board is
//! printed from sente's side; gote's pieces carry a `v` mark. Progress lines follow the USI
//! `info` fields, then the final best move.

/// Prints a line on stdout; a closed pipe (`| head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

use crate::rules::geometry::{Color, File, Rank, Square};
use crate::rules::variants::shogi::notation::piece_text;
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};
use crate::search::{
    Bound, Config, Control, Decision, Info, Limits, ParallelMode, Score, Searcher,
};
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The position as an SFEN.
    #[arg(
        long,
        conflicts_with = "startpos",
        required_unless_present = "startpos"
    )]
    sfen: Option<String>,
    /// Start from the start position.
    #[arg(long)]
    startpos: bool,
    /// USI moves to play from the position first.
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
    /// Think for this many milliseconds (the default is 5000 unless --depth is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Principal variations to show.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// How threads share the search: lazysmp or rootsplit (default rootsplit).
    #[arg(long, value_parser = parse_parallel)]
    parallel: Option<ParallelMode>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

fn parse_parallel(text: &str) -> Result<ParallelMode, String> {
    ParallelMode::from_name(text)
        .ok_or_else(|| format!("{text:?} is neither lazysmp nor rootsplit"))
}

/// The board as text: a framed 9×9 grid with rank letters, and both hands.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "Gote (v) in hand: {}\n",
        hand_text(pos, Color::Gote)
    ));
    out.push_str("   9  8  7  6  5  4  3  2  1\n");
    out.push_str(" +---------------------------+\n");
    for rank in 0..9u8 {
        out.push_str(" |");
        for file in (0..9u8).rev() {
            let sq = Square::new::<Geo>(File(file), Rank(rank));
            out.push_str(&cell(pos.piece_at(sq)));
        }
        out.push_str(&format!("| {}\n", (b'a' + rank) as char));
    }
    out.push_str(" +---------------------------+\n");
    out.push_str(&format!(
        "Sente in hand: {}\n",
        hand_text(pos, Color::Sente)
    ));
    let side = match pos.side_to_move() {
        Color::Sente => "sente",
        Color::Gote => "gote",
    };
    out.push_str(&format!("{side} to move; sfen {}\n", pos.to_sfen()));
    out
}

fn cell(piece: Option<Piece>) -> String {
    match piece {
        None => "  .".to_string(),
        Some(p) => {
            let text = piece_text(Piece::new(Color::Sente, p.kind()));
            let mark = if p.color() == Color::Gote { "v" } else { "" };
            format!("{:>3}", format!("{mark}{text}"))
        }
    }
}

fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ]
    .iter()
    .filter(|k| hand.count(**k) > 0)
    .map(|k| {
        let letter = k.rules().letter;
        match hand.count(*k) {
            1 => letter.to_string(),
            n => format!("{letter}x{n}"),
        }
    })
    .collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
}

/// One progress line.
pub fn info_text(pos: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let millis = info.elapsed.as_millis().max(1);
    let nps = info.nodes as u128 * 1000 / millis;
    let mut replay = pos.clone();
    let mut pv = Vec::new();
    for mv in &info.pv {
        pv.push(replay.move_to_usi(*mv));
        replay.play(*mv);
    }
    format!(
        "depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        millis,
        info.hashfull,
        pv.join(" ")
    )
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let mut pos = match &args.sfen {
        Some(sfen) => Position::from_sfen(sfen).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    for text in args.moves.iter().filter(|m| !m.is_empty()) {
        let mv = pos
            .parse_usi_move(text)
            .map_err(|e| format!("move {text:?}: {e}"))?;
        pos.play(mv);
    }
    say!("{}", diagram(&pos).trim_end());
    let movetime = match (args.movetime, args.depth) {
        (None, None) => Some(5000),
        (t, _) => t,
    };
    let limits = Limits {
        movetime: movetime.map(Duration::from_millis),
        depth: args.depth,
        ..Limits::default()
    };
    let config = Config {
        threads: args.threads.max(1),
        parallel: args.parallel.unwrap_or_default(),
        multipv: args.multipv.max(1),
        network_delay: Duration::ZERO,
        network_delay2: Duration::ZERO,
        ..Config::default()
    };
    let mut searcher = Searcher::new(args.hash);
    let mut last_depth = 0;
    let start = std::time::Instant::now();
    let decision = searcher.search(&pos, &limits, &config, &Control::new(false), &mut |info| {
        say!("{}", info_text(&pos, info));
        last_depth = last_depth.max(info.depth);
    });
    let millis = start.elapsed().as_millis().max(1);
    let nodes = searcher.last_nodes();
    say!(
        "nodes {nodes} time {millis} nps {} depth {last_depth}",
        nodes as u128 * 1000 / millis
    );
    match decision {
        Decision::Move { best, ponder } => match ponder {
            Some(p) => {
                let mut after = pos.clone();
                after.play(best);
                say!(
                    "bestmove {} ponder {}",
                    pos.move_to_usi(best),
                    after.move_to_usi(p)
                );
            }
            None => say!("bestmove {}", pos.move_to_usi(best)),
        },
        Decision::Resign => say!("bestmove resign"),
        Decision::DeclareWin => say!("bestmove win"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(sfen: Option<&str>, moves: &[&str]) -> AnalyseArgs {
        AnalyseArgs {
            sfen: sfen.map(str::to_string),
            startpos: sfen.is_none(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            movetime: None,
            depth: Some(2),
            multipv: 1,
            threads: 1,
            parallel: None,
            hash: 1,
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(run(&args(Some("not a position"), &[])).is_err());
        assert!(run(&args(None, &["7g7f", "7g7f"])).is_err());
        assert!(run(&args(None, &["7g7f", "3c3d"])).is_ok());
    }

    #[test]
    fn diagram_shows_both_sides_and_hands() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K2+R1 w 2Pb 1").unwrap();
        let text = diagram(&pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Gote (v) in hand: B");
        assert_eq!(lines[1], "   9  8  7  6  5  4  3  2  1");
        assert_eq!(lines[3], " |  .  .  .  . vK  .  .  .  .| a");
        assert_eq!(lines[11], " |  .  .  .  .  K  .  . +R  .| i");
        assert_eq!(lines[13], "Sente in hand: Px2");
        assert!(lines[14].starts_with("gote to move"));
    }
}
