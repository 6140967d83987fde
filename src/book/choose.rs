//! Which book move to play, as YaneuraOu chooses: `BookMoves` and `BookIgnoreRate` decide
//! whether to look at all; illegal moves are dropped (and reported); `BookDepthLimit`
//! rejects a position whose first move was searched too shallowly; `BookEvalDiff` and the
//! side's `BookEvalBlackLimit`/`BookEvalWhiteLimit` drop moves scored too low; then a move
//! is drawn among the rest, uniformly or (`ConsiderBookMoveCount`) weighted by count. Also
//! the book walk of `shishi match --book` (moves drawn by count for a number of plies).

use super::format::{ply_of, BookMove};
use super::source::BookSource;
use rand::Rng;

/// A position a book is looked up for (a deterministic game's).
pub trait BookPosition: Clone {
    /// The SFEN, move number included.
    fn book_sfen(&self) -> String;
    /// Plays a move given in USI notation; `false` (and nothing changes) if it is illegal.
    fn play_text(&mut self, mv: &str) -> bool;
    /// Whether sente (black, the first player) is to move.
    fn sente_to_move(&self) -> bool;
}

/// The book options, with YaneuraOu's names (`BookFile` and `BookDir` name the file and
/// are kept by the USI layer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// `USI_OwnBook`: use the book at all.
    pub own_book: bool,
    /// `BookMoves`: the last move number played from the book.
    pub max_ply: u32,
    /// `BookIgnoreRate`: the percentage of lookups skipped at random.
    pub ignore_rate: u32,
    /// `BookEvalDiff`: how much worse than the first move a move may be.
    pub eval_diff: i32,
    /// `BookEvalBlackLimit`, `BookEvalWhiteLimit`: the lowest value played by each side.
    pub eval_limit: [i32; 2],
    /// `BookDepthLimit`: the least depth of the first move (0: any).
    pub depth_limit: i32,
    /// `ConsiderBookMoveCount`: draw weighted by count rather than uniformly.
    pub weigh_by_count: bool,
    /// `BookPvMoves`: how many moves the `info` lines show.
    pub pv_moves: u32,
}

impl Default for BookSettings {
    /// YaneuraOu's defaults.
    fn default() -> Self {
        BookSettings {
            own_book: true,
            max_ply: 16,
            ignore_rate: 0,
            eval_diff: 30,
            eval_limit: [0, -140],
            depth_limit: 16,
            weigh_by_count: false,
            pv_moves: 8,
        }
    }
}

/// The move chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookChoice {
    pub mv: String,
    /// The reply: the book's, else the first book move of the position after the move.
    pub ponder: Option<String>,
    pub value: i32,
}

/// What a lookup printed and chose.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// `info …` lines: one per legal book move, then why moves were dropped.
    pub info: Vec<String>,
    pub choice: Option<BookChoice>,
}

/// The legal moves among a position's book moves; the others are reported.
fn legal_moves<P: BookPosition>(
    pos: &P,
    moves: Vec<BookMove>,
    info: &mut Vec<String>,
) -> Vec<BookMove> {
    moves
        .into_iter()
        .filter(|m| {
            let legal = pos.clone().play_text(&m.mv);
            if !legal {
                info.push(format!(
                    "info string error illegal move {} in the book at sfen {}",
                    m.mv,
                    pos.book_sfen()
                ));
            }
            legal
        })
        .collect()
}

/// The book's line from `mv`: each next move the first legal book move, up to `length`.
fn book_pv<P: BookPosition>(
    pos: &P,
    mv: &BookMove,
    source: &mut BookSource,
    length: u32,
) -> String {
    let mut pos = pos.clone();
    let mut pv = vec![mv.mv.clone()];
    pos.play_text(&mv.mv);
    let mut ponder = mv.ponder.clone();
    while (pv.len() as u32) < length {
        let (moves, _) = source.lookup(&pos.book_sfen());
        let next = moves
            .iter()
            .map(|m| m.mv.clone())
            .find(|m| pos.clone().play_text(m))
            .or_else(|| ponder.take().filter(|p| pos.clone().play_text(p)));
        let Some(next) = next else { break };
        ponder = moves
            .iter()
            .find(|m| m.mv == next)
            .and_then(|m| m.ponder.clone());
        pos.play_text(&next);
        pv.push(next);
    }
    pv.join(" ")
}

/// Draws one move: uniformly, or weighted by count (all counts 0: uniformly).
fn draw(moves: &[BookMove], by_count: bool, rng: &mut impl Rng) -> usize {
    let total: u64 = moves.iter().map(|m| m.count).sum();
    if !by_count || total == 0 {
        return rng.gen_range(0..moves.len());
    }
    let mut pick = rng.gen_range(0..total);
    for (i, m) in moves.iter().enumerate() {
        if pick < m.count {
            return i;
        }
        pick -= m.count;
    }
    moves.len() - 1
}

/// Looks `pos` up and chooses a move, as `go` does before searching.
pub fn probe<P: BookPosition>(
    pos: &P,
    source: &mut BookSource,
    settings: &BookSettings,
    rng: &mut impl Rng,
) -> Probe {
    let mut probe = Probe::default();
    if !settings.own_book || settings.ignore_rate > rng.gen_range(0..100) {
        return probe;
    }
    let sfen = pos.book_sfen();
    if ply_of(&sfen) > settings.max_ply {
        return probe;
    }
    let (moves, problems) = source.lookup(&sfen);
    for p in problems {
        probe.info.push(format!(
            "info string error malformed book line skipped: {}",
            p.message
        ));
    }
    let mut moves = legal_moves(pos, moves, &mut probe.info);
    if moves.is_empty() {
        return probe;
    }
    let total: u64 = moves.iter().map(|m| m.count).sum();
    for (i, m) in moves.iter().enumerate() {
        let share = if total > 0 {
            format!(
                " ({:.2}% of {total})",
                100.0 * m.count as f64 / total as f64
            )
        } else {
            String::new()
        };
        probe.info.push(format!(
            "info string book move {} {}{share} value {} depth {}",
            i + 1,
            m.mv,
            m.value,
            m.depth
        ));
        probe.info.push(format!(
            "info multipv {} depth {} score cp {} nodes 0 time 0 pv {}",
            i + 1,
            m.depth,
            m.value,
            book_pv(pos, m, source, settings.pv_moves.max(1))
        ));
    }
    if settings.depth_limit != 0 && moves[0].depth < settings.depth_limit {
        probe.info.push(format!(
            "info string book: BookDepthLimit {} is more than the first move's depth {}",
            settings.depth_limit, moves[0].depth
        ));
        return probe;
    }
    let side = if pos.sente_to_move() { 0 } else { 1 };
    let limit = (moves[0].value.saturating_sub(settings.eval_diff)).max(settings.eval_limit[side]);
    let before = moves.len();
    moves.retain(|m| m.value >= limit);
    if moves.len() != before {
        probe.info.push(format!(
            "info string book: BookEvalDiff {} and {} {} leave {} of {before} moves",
            settings.eval_diff,
            ["BookEvalBlackLimit", "BookEvalWhiteLimit"][side],
            settings.eval_limit[side],
            moves.len()
        ));
    }
    if moves.is_empty() {
        return probe;
    }
    let chosen = moves[draw(&moves, settings.weigh_by_count, rng)].clone();
    let mut after = pos.clone();
    after.play_text(&chosen.mv);
    let ponder = chosen
        .ponder
        .clone()
        .filter(|p| after.clone().play_text(p))
        .or_else(|| {
            legal_moves(&after, source.lookup(&after.book_sfen()).0, &mut Vec::new())
                .first()
                .map(|m| m.mv.clone())
        });
    probe.choice = Some(BookChoice {
        mv: chosen.mv,
        ponder,
        value: chosen.value,
    });
    probe
}

/// Walks the book from `start` for up to `plies` moves, each drawn among the position's
/// legal book moves weighted by count; stops early where the book ends.
pub fn walk<P: BookPosition>(
    start: &P,
    source: &mut BookSource,
    plies: usize,
    rng: &mut impl Rng,
) -> Vec<String> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    while line.len() < plies {
        let moves = legal_moves(&pos, source.lookup(&pos.book_sfen()).0, &mut Vec::new());
        if moves.is_empty() {
            break;
        }
        let mv = moves[draw(&moves, true, rng)].mv.clone();
        pos.play_text(&mv);
        line.push(mv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::format::Book;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// A made-up game: the SFEN is the moves played so far and the move number; a move
    /// is legal unless it starts with `x`.
    #[derive(Clone)]
    struct Line(Vec<String>);

    impl BookPosition for Line {
        fn book_sfen(&self) -> String {
            format!("p{} b - {}", self.0.join("-"), self.0.len() + 1)
        }
        fn play_text(&mut self, mv: &str) -> bool {
            let legal = !mv.starts_with('x');
            if legal {
                self.0.push(mv.to_string());
            }
            legal
        }
        fn sente_to_move(&self) -> bool {
            self.0.len().is_multiple_of(2)
        }
    }

    fn book(lines: &str) -> BookSource {
        let (book, problems) = Book::read(lines);
        assert!(problems.is_empty(), "{problems:?}");
        BookSource::from_book(&book, false)
    }

    fn settings() -> BookSettings {
        BookSettings {
            depth_limit: 0,
            ..BookSettings::default()
        }
    }

    #[test]
    fn illegal_moves_are_reported_and_never_chosen() {
        let mut source = book("sfen p b - 1\nxa none 900 0 50\nb c 10 0 1\n");
        let probe = probe(
            &Line(vec![]),
            &mut source,
            &settings(),
            &mut StdRng::seed_from_u64(1),
        );
        assert_eq!(probe.choice.as_ref().unwrap().mv, "b");
        assert_eq!(probe.choice.unwrap().ponder.as_deref(), Some("c"));
        assert!(
            probe.info[0].contains("illegal move xa"),
            "{:?}",
            probe.info
        );
    }

    #[test]
    fn depth_and_value_limits_filter_as_yaneuraou_does() {
        let text = "sfen p b - 1\na none 100 10 1\nb none 75 30 1\nc none 60 30 1\n";
        let mut rng = StdRng::seed_from_u64(2);
        let deep_enough = BookSettings {
            depth_limit: 10,
            ..settings()
        };
        for _ in 0..50 {
            let chosen = probe(&Line(vec![]), &mut book(text), &deep_enough, &mut rng).choice;
            assert_ne!(chosen.unwrap().mv, "c", "60 is more than 30 below 100");
        }
        // No move: every move too shallow, one under the floor, past the last ply, or the
        // book ignored.
        let refusals: [fn(&mut BookSettings); 4] = [
            |s| s.depth_limit = 11,
            |s| s.eval_limit = [101, -140],
            |s| s.max_ply = 0,
            |s| s.ignore_rate = 100,
        ];
        for refuse in refusals {
            let mut refusing = settings();
            refuse(&mut refusing);
            assert_eq!(
                probe(&Line(vec![]), &mut book(text), &refusing, &mut rng).choice,
                None,
                "{refusing:?}"
            );
        }
    }

    /// Weighted by count, a move played 9 times in 10 is chosen about 9 times in 10; the
    /// same seed chooses the same moves.
    #[test]
    fn choice_by_count_follows_the_counts_and_the_seed() {
        let text = "sfen p b - 1\na none 0 0 9\nb none 0 0 1\n";
        let by_count = BookSettings {
            weigh_by_count: true,
            ..settings()
        };
        let run = |seed: u64, settings: &BookSettings| -> Vec<String> {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut source = book(text);
            (0..1000)
                .map(|_| {
                    probe(&Line(vec![]), &mut source, settings, &mut rng)
                        .choice
                        .unwrap()
                        .mv
                })
                .collect()
        };
        let a = run(7, &by_count).iter().filter(|m| *m == "a").count();
        assert!((850..=950).contains(&a), "{a}");
        assert_eq!(run(7, &by_count), run(7, &by_count));
        let uniform = run(7, &settings()).iter().filter(|m| *m == "a").count();
        assert!((420..=580).contains(&uniform), "{uniform}");
    }

    #[test]
    fn walks_follow_the_book_until_it_ends() {
        let text = "sfen p b - 1\na none 0 0 1\nsfen pa b - 2\nxb none 0 0 5\nc none 0 0 1\n\
                    sfen pa-c b - 3\nd none\n";
        let mut source = book(text);
        let mut rng = StdRng::seed_from_u64(3);
        assert_eq!(
            walk(&Line(vec![]), &mut source, 10, &mut rng),
            ["a", "c", "d"]
        );
        assert_eq!(walk(&Line(vec![]), &mut source, 2, &mut rng), ["a", "c"]);
    }
}
