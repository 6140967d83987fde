//! A sixth drop variant defined outside the crate from a piece table and a start position:
//! minishogi on 5×5 (king, gold, silver, bishop, rook and pawn; one-rank promotion zones).
//! Everything else (board and hands, make/unmake with the hash, SFEN and USI text, legal
//! moves with drops, nifu, dead drops and uchifuzume, forced promotion, the game end) is the
//! drop-shogi family's (`shishi::rules::dropshogi`), with its default hooks and tables.
//!
//! The perft counts in `positions/perft/minishogi.perft` come from shogiops
//! (`scripts/shogiops_minishogi_perft.mjs`).

use shishi::rules::bitboard::{Bb128, Bitboard};
use shishi::rules::dropshogi::{
    AtomTables, ColoredPiece, DropKind, DropPosition, DropVariant, Hand,
};
use shishi::rules::game::{Game, Outcome};
use shishi::rules::geometry::{Color, Geometry};
use shishi::rules::piece::atoms::{step, BISHOP, DRAGON, GOLD, HORSE, KING, ROOK, SILVER};
use shishi::rules::piece::{KindId, PieceRules};
use std::sync::OnceLock;

#[path = "common/perft_file.rs"]
mod perft_file;
use perft_file::{assert_perft_line, read_suite};

// ---- The board: 5×5, promotion zone one rank deep. ----

#[derive(Clone, Copy, Debug)]
struct Board5x5;

impl Geometry for Board5x5 {
    const FILES: u8 = 5;
    const RANKS: u8 = 5;
    const ZONE_DEPTH: u8 = 1;
    type Bb = Bb128;
}

// ---- The piece table. Hand kinds first (index = hand slot). ----

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Pawn,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    Tokin,
    ProSilver,
    Horse,
    Dragon,
}

/// Kinds by index: 0-5 the unpromoted (hand kinds first), 6-9 the promoted forms.
static PIECES: [PieceRules; 10] = [
    PieceRules::new("pawn", 'P', &[step(1, 0)])
        .promoting_to(KindId(6))
        .held_as(KindId(0), true)
        .forced_on_last(1),
    PieceRules::new("silver", 'S', &SILVER)
        .promoting_to(KindId(7))
        .held_as(KindId(1), true),
    PieceRules::new("gold", 'G', &GOLD).held_as(KindId(2), true),
    PieceRules::new("bishop", 'B', &BISHOP)
        .promoting_to(KindId(8))
        .held_as(KindId(3), true),
    PieceRules::new("rook", 'R', &ROOK)
        .promoting_to(KindId(9))
        .held_as(KindId(4), true),
    PieceRules::new("king", 'K', &KING).royal(),
    PieceRules::new("tokin", 'P', &GOLD)
        .promoted()
        .held_as(KindId(0), false),
    PieceRules::new("promoted silver", 'S', &GOLD)
        .promoted()
        .held_as(KindId(1), false),
    PieceRules::new("horse", 'B', &HORSE)
        .promoted()
        .held_as(KindId(3), false),
    PieceRules::new("dragon", 'R', &DRAGON)
        .promoted()
        .held_as(KindId(4), false),
];

use Kind::*;
const ALL: [Kind; 10] = [
    Pawn, Silver, Gold, Bishop, Rook, King, Tokin, ProSilver, Horse, Dragon,
];

impl DropKind for Kind {
    const KING: Kind = King;
    const PAWN: Kind = Pawn;
    const KINDS: &'static [Kind] = &ALL;
    const HAND_KINDS: &'static [Kind] = &[Pawn, Silver, Gold, Bishop, Rook];
    const HAND_PRINT_ORDER: &'static [Kind] = &[Rook, Bishop, Gold, Silver, Pawn];

    fn index(self) -> usize {
        self as usize
    }
    fn rules(self) -> &'static PieceRules {
        &PIECES[self as usize]
    }
    fn can_promote(self) -> bool {
        PIECES[self as usize].promotes_to.is_some()
    }
    fn promoted(self) -> Kind {
        ALL[PIECES[self as usize].promotes_to.expect("promotes").0 as usize]
    }
    fn in_hand(self) -> Option<Kind> {
        PIECES[self as usize].demotes_to.map(|k| ALL[k.0 as usize])
    }
    fn set_count(self) -> u8 {
        2
    }
}

// ---- The variant: the table, the start position, and storage of the right sizes. ----

struct Minishogi;

type Piece = ColoredPiece<Kind>;

impl DropVariant for Minishogi {
    type Geo = Board5x5;
    type Kind = Kind;
    type Piece = Piece;
    type Tables = AtomTables<Minishogi>;
    type Mailbox = [Option<Piece>; 25];
    type KindSets = [Bb128; 10];
    type Hand = Hand<Kind, 5>;
    type Choices = ();

    const EMPTY_MAILBOX: Self::Mailbox = [None; 25];
    const EMPTY_KIND_SETS: Self::KindSets = [Bb128::EMPTY; 10];
    const START_SFEN: &'static str = "rbsgk/4p/5/P4/KGSBR b - 1";

    fn tables() -> &'static AtomTables<Minishogi> {
        static TABLES: OnceLock<AtomTables<Minishogi>> = OnceLock::new();
        TABLES.get_or_init(|| AtomTables::build(0x4D49_4E49))
    }
}

type Position = DropPosition<Minishogi>;

// ---- The tests. ----

#[test]
fn piece_table_is_consistent() {
    for kind in ALL {
        if kind.can_promote() {
            assert_eq!(kind.promoted().in_hand(), Some(kind), "{kind:?}");
            assert!(kind.promoted().rules().is_promoted, "{kind:?}");
        }
        assert_eq!(
            kind.rules().droppable,
            Kind::HAND_KINDS.contains(&kind),
            "{kind:?}"
        );
    }
}

#[test]
fn perft_agrees_with_shogiops() {
    let lines = read_suite("minishogi.perft");
    assert!(lines.len() >= 40, "the suite should hold many lines");
    for line in &lines {
        let mut pos = Position::from_sfen(&line.sfen)
            .unwrap_or_else(|e| panic!("line {}: {e}", line.line_number));
        let before = pos.to_sfen();
        assert_eq!(
            before, line.sfen,
            "line {}: SFEN round trip",
            line.line_number
        );
        assert_perft_line(&mut pos, line, Position::to_sfen);
    }
}

#[test]
fn drop_rules_and_game_end_are_the_familys() {
    let legal = |sfen: &str| {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut moves = shishi::rules::moves::MoveList::new();
        pos.legal_actions(&mut moves);
        moves
            .iter()
            .map(|m| pos.move_to_usi(*m))
            .collect::<Vec<_>>()
    };
    // Pawn-drop mate is refused; the same check without the gold's guard is allowed.
    assert!(!legal("kr3/5/1G3/5/4K b P 1").contains(&"P*5b".to_string()));
    assert!(legal("kr3/5/5/5/4K b P 1").contains(&"P*5b".to_string()));
    // Nifu, and no pawn drop on the last rank.
    let moves = legal("4k/5/5/4P/K4 b P 1");
    assert!(!moves.iter().any(|m| m.starts_with("P*1")));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("P*") && m.ends_with('a')));
    // A pawn reaching the last rank must promote; a silver may choose.
    let moves = legal("2k2/P3S/5/5/K4 b - 1");
    assert!(moves.contains(&"5b5a+".to_string()) && !moves.contains(&"5b5a".to_string()));
    assert!(moves.contains(&"1b1a+".to_string()) && moves.contains(&"1b1a".to_string()));
    // Bad positions are refused; a checkmated side has lost.
    assert!(Position::from_sfen("P3k/5/5/5/K4 b - 1").is_err());
    assert!(Position::from_sfen("rbsgk/4p/5/P4/KGSBR b 3P 1").is_err());
    let mate = Position::from_sfen("4k/4G/4P/5/K4 w - 1").unwrap();
    assert_eq!(mate.outcome(), Some(Outcome::Win(Color::Sente)));
}
