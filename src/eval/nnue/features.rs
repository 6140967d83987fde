//! The feature sets of the nets Shishi reads, numbered as YaneuraOu numbers them: which
//! inputs of the feature transformer a position sets for each side's view, and which ones a
//! move changes.
//!
//! Each side (a *perspective*) numbers every piece as it sees the board: a "BonaPiece".
//! Sente sees the board as it is; gote sees it turned round (square `s` becomes `80 − s`)
//! with the colours swapped ("friend" pieces are its own). Squares are numbered file-major
//! from 1a (0), 1b, … 1i, 2a, … 9i (80), as Shishi numbers them. Two feature sets
//! ([`FeatureSet`]) turn these numbers into inputs:
//!
//! * HalfKP (`halfkp_256x2-32-32`): input `king × 1548 + piece`, where `king` is the view's
//!   own king's square and `piece` the BonaPiece (0–1547) of a non-king piece; 81 × 1548
//!   inputs. A king move changes every input of its side's view (that view is recomputed).
//! * K+P (`kp_256x2-32-32`): the BonaPiece itself (feature P, 0–1547), and the two kings
//!   (feature K): `1548 + square` for the view's own king, `1629 + square` for the other
//!   king; 1710 inputs. A king move changes one input of each view.
//!
//! * Pieces in hand: the `n`-th piece of a kind held (from 0) is `base + n`, with the bases
//!   friend pawn 1, enemy pawn 20, friend lance 39, enemy lance 44, knights 49/54, silvers
//!   59/64, golds 69/74, bishops 79/82, rooks 85/88.
//! * Pieces on the board: `base + square`, with the friend bases pawn 90, lance 252, knight
//!   414, silver 576, gold 738, bishop 900, horse 1062, rook 1224, dragon 1386, and each enemy
//!   base 81 above its friend's. The promoted pawn, lance, knight and silver are numbered as
//!   golds.
//! * The net always reads 38 pieces (every non-king piece of a full set): each piece missing
//!   from a position (handicap or composed positions) counts as number 0.

use super::board12::Layout;
use super::HALF;
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Kind, Position};
use arrayvec::ArrayVec;

/// BonaPiece numbers of the non-king pieces, per perspective.
pub const PIECE_INPUTS: usize = 1548;
/// Squares of the board (a king's possible squares).
const SQUARES: usize = 81;
/// Inputs of HalfKP: a block of [`PIECE_INPUTS`] per king square.
pub const HALFKP_INPUTS: usize = SQUARES * PIECE_INPUTS;
/// The K input of a view's own king on square 0; the other king's are [`SQUARES`] on.
const KING_INPUT: usize = PIECE_INPUTS;
/// Inputs of K+P: the BonaPieces, then each king's squares.
pub const KP_INPUTS: usize = PIECE_INPUTS + 2 * SQUARES;
/// The most non-king pieces [`active`] lists (a full set has [`PIECES`]; a composed position
/// may have more, and the incremental updates count them the same way).
const MAX_PIECES: usize = 64;
/// The most inputs a view sets (K+P: the pieces and two kings).
pub const MAX_ACTIVE: usize = MAX_PIECES + 2;

/// The feature set of a net: how a position's pieces become transformer inputs. The two
/// of standard shogi are YaneuraOu's; the 12×12 games' are Shishi's own (`board12`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// HalfKP (friend king): `king × 1548 + piece`.
    HalfKp,
    /// K+P: the piece, and each king's square.
    Kp,
    /// Chu Shogi's P features (`board12::Layout::CHU`); the net corrects the tables.
    ChuP,
    /// Chu Shogi's P features and the pieces near each royal by their place from it
    /// (`board12::Layout::CHU_PK`); the net corrects the tables.
    ChuPK,
    /// Chu Kagamigi's P features, hands included (`board12::Layout::KAGAMIGI`); the net
    /// corrects the tables.
    KagamigiP,
    /// Shogammon's P features, each piece with its place in its stack, hands included
    /// (`nnue::shogammon`); the net corrects the hand-written evaluation.
    ShogammonP,
    /// Shogammon's P features and each piece on the board by its place from each king
    /// (`nnue::shogammon`); the net corrects the hand-written evaluation.
    ShogammonPK,
}

/// The game a feature set's nets evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetGame {
    Shogi,
    Chu,
    Kagamigi,
    Shogammon,
}

impl NetGame {
    /// The game's name, as `USI_Variant` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            NetGame::Shogi => "shogi",
            NetGame::Chu => "chushogi",
            NetGame::Kagamigi => "chukagamigi",
            NetGame::Shogammon => "shogammon",
        }
    }
}

impl FeatureSet {
    pub const ALL: [FeatureSet; 7] = [
        FeatureSet::HalfKp,
        FeatureSet::Kp,
        FeatureSet::ChuP,
        FeatureSet::ChuPK,
        FeatureSet::KagamigiP,
        FeatureSet::ShogammonP,
        FeatureSet::ShogammonPK,
    ];

    /// The feature sets of standard shogi's nets (YaneuraOu's).
    pub const SHOGI: [FeatureSet; 2] = [FeatureSet::HalfKp, FeatureSet::Kp];

    /// The game the set's nets evaluate.
    pub const fn game(self) -> NetGame {
        match self {
            FeatureSet::HalfKp | FeatureSet::Kp => NetGame::Shogi,
            FeatureSet::ChuP | FeatureSet::ChuPK => NetGame::Chu,
            FeatureSet::KagamigiP => NetGame::Kagamigi,
            FeatureSet::ShogammonP | FeatureSet::ShogammonPK => NetGame::Shogammon,
        }
    }

    /// The numbering of a 12×12 game's set (`None` for the others).
    pub const fn layout(self) -> Option<Layout> {
        match self {
            FeatureSet::HalfKp
            | FeatureSet::Kp
            | FeatureSet::ShogammonP
            | FeatureSet::ShogammonPK => None,
            FeatureSet::ChuP => Some(Layout::CHU),
            FeatureSet::ChuPK => Some(Layout::CHU_PK),
            FeatureSet::KagamigiP => Some(Layout::KAGAMIGI),
        }
    }

    /// Rows of the feature transformer.
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::HalfKp => HALFKP_INPUTS,
            FeatureSet::Kp => KP_INPUTS,
            FeatureSet::ChuP => Layout::CHU.inputs(),
            FeatureSet::ChuPK => Layout::CHU_PK.inputs(),
            FeatureSet::KagamigiP => Layout::KAGAMIGI.inputs(),
            FeatureSet::ShogammonP => super::shogammon::INPUTS,
            FeatureSet::ShogammonPK => super::shogammon::PK_INPUTS,
        }
    }

    /// The hash word of the feature set, as the format defines it: HalfKP (friend) is
    /// `0x5D69D5B9 ^ 1`; a set of two features (K then P) is the first's hash xor the
    /// second's rotated left by one bit.
    pub const fn hash(self) -> u32 {
        match self {
            FeatureSet::HalfKp => 0x5D69_D5B9 ^ 1,
            FeatureSet::Kp => {
                const K: u32 = 0xD3CE_E169;
                const P: u32 = 0x764C_FB4B;
                K ^ P.rotate_left(1)
            }
            // Shishi's own sets: the FNV-1a hash of their name.
            FeatureSet::ChuP
            | FeatureSet::ChuPK
            | FeatureSet::KagamigiP
            | FeatureSet::ShogammonP
            | FeatureSet::ShogammonPK => fnv1a(self.name()),
        }
    }

    /// The name the architecture text gives the features.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKp => "HalfKP(Friend)",
            FeatureSet::Kp => "K+P",
            // The 12×12 nets' output corrects the game's hand-written tables
            // (`board12_choice`): a net trained on its own is not one of these.
            FeatureSet::ChuP => "ChuP(OverTables)",
            FeatureSet::ChuPK => "ChuPK(OverTables)",
            FeatureSet::KagamigiP => "KagamigiP(OverTables)",
            // Shogammon's corrects its hand-written evaluation (`eval::shogammon`).
            FeatureSet::ShogammonP => "ShogammonP(InsideMaterial)",
            FeatureSet::ShogammonPK => "ShogammonPK(InsideMaterial)",
        }
    }

    /// The transformer inputs `perspective` reads in `pos` (none for HalfKP without that
    /// side's king; K+P counts the kings on the board; none for the other games' sets,
    /// which read no shogi position).
    pub fn inputs_of(self, pos: &Position, perspective: Color) -> ArrayVec<usize, MAX_ACTIVE> {
        let mut out = ArrayVec::new();
        let pieces = active(pos, perspective);
        match self {
            FeatureSet::HalfKp => {
                if let Some(king) = pos.king_square(perspective) {
                    let offset = king_offset(perspective, king);
                    out.extend(pieces.iter().map(|p| offset + usize::from(p.0)));
                }
            }
            FeatureSet::Kp => {
                out.extend(pieces.iter().map(|p| usize::from(p.0)));
                for owner in Color::BOTH {
                    if let Some(sq) = pos.king_square(owner) {
                        out.push(usize::from(king(perspective, owner, sq).0));
                    }
                }
            }
            FeatureSet::ChuP
            | FeatureSet::ChuPK
            | FeatureSet::KagamigiP
            | FeatureSet::ShogammonP
            | FeatureSet::ShogammonPK => {}
        }
        out
    }
}

/// The 32-bit FNV-1a hash of `text`.
const fn fnv1a(text: &str) -> u32 {
    let bytes = text.as_bytes();
    let mut hash = 0x811C_9DC5u32;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}
/// Non-king pieces of a full set, which the net always counts.
pub const PIECES: usize = 38;

/// The first BonaPiece of the friend's pieces in hand, per hand kind (`Kind::HAND` order:
/// pawn, lance, knight, silver, bishop, rook, gold).
const HAND_FRIEND: [u16; 7] = [1, 39, 49, 59, 79, 85, 69];
/// The same for the enemy's pieces in hand.
const HAND_ENEMY: [u16; 7] = [20, 44, 54, 64, 82, 88, 74];
/// The first BonaPiece of a friend piece on the board, per kind (`Kind as usize`); the enemy's
/// is 81 more. The king's entry is unused.
const BOARD_FRIEND: [u16; Kind::COUNT] = [
    90, 252, 414, 576, 900, 1224, 738, 0, 738, 738, 738, 738, 1062, 1386,
];

// The features never reach past the 1548 numbers.
const _: () = assert!(BOARD_FRIEND[Kind::Dragon as usize] as usize + 81 + 81 == PIECE_INPUTS);

/// A BonaPiece number (one perspective's number of a piece: 0–1547 for the non-king
/// pieces, the K inputs of K+P for the kings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BonaPiece(pub u16);

/// A square as `perspective` sees the board.
#[inline]
fn seen(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Sente => sq.index(),
        Color::Gote => 80 - sq.index(),
    }
}

/// The number of a piece of `owner` and `kind` on `sq`, as `perspective` sees it.
#[inline]
pub fn on_board(perspective: Color, owner: Color, kind: Kind, sq: Square) -> BonaPiece {
    let enemy = if owner == perspective { 0 } else { 81 };
    BonaPiece(BOARD_FRIEND[kind.index()] + enemy + seen(perspective, sq) as u16)
}

/// The number of the `nth` (from 0) piece of the hand kind `kind` held by `owner`, as
/// `perspective` sees it.
#[inline]
pub fn in_hand(perspective: Color, owner: Color, kind: Kind, nth: u8) -> BonaPiece {
    let base = if owner == perspective {
        HAND_FRIEND
    } else {
        HAND_ENEMY
    };
    BonaPiece(base[kind.index()] + u16::from(nth))
}

/// The K+P input of the king of `owner` on `sq`, as `perspective` sees it.
#[inline]
pub fn king(perspective: Color, owner: Color, sq: Square) -> BonaPiece {
    let enemy = if owner == perspective { 0 } else { SQUARES };
    BonaPiece((KING_INPUT + enemy + seen(perspective, sq)) as u16)
}

/// The first row of the HalfKP transformer's weights that `perspective` reads: its king's square
/// as it sees the board, times the BonaPiece count.
#[inline]
pub fn king_offset(perspective: Color, king: Square) -> usize {
    seen(perspective, king) * PIECE_INPUTS
}

/// The BonaPieces of every non-king piece of `pos` as `perspective` sees them (those of
/// missing pieces included, as number 0).
pub fn active(pos: &Position, perspective: Color) -> ArrayVec<BonaPiece, MAX_PIECES> {
    let mut out = ArrayVec::new();
    for owner in Color::BOTH {
        let ours = pos.pieces_of(owner);
        for kind in Kind::ALL {
            if kind == Kind::King {
                continue;
            }
            for sq in (ours & pos.pieces_of_kind(kind)).squares() {
                if out
                    .try_push(on_board(perspective, owner, kind, sq))
                    .is_err()
                {
                    return out;
                }
            }
        }
        let hand = pos.hand(owner);
        for kind in Kind::HAND {
            for nth in 0..hand.count(kind) {
                if out
                    .try_push(in_hand(perspective, owner, kind, nth))
                    .is_err()
                {
                    return out;
                }
            }
        }
    }
    while out.len() < PIECES {
        out.push(BonaPiece(0));
    }
    out
}

/// What a move changes: at most two non-king pieces change BonaPiece (the mover, and a
/// captured piece that goes to hand), given for both perspectives, and whose king moved
/// (HalfKP recomputes that side's view from scratch; K+P changes the king's input of both
/// views).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Changes {
    /// Per change, the old and new BonaPiece for each perspective (`Color::index`); the
    /// first `count` are used.
    pieces: [[[BonaPiece; 2]; 2]; 2],
    count: u8,
    pub king_moved: Option<Color>,
    /// When a king moved: its old and new K+P input for each perspective.
    king: [[BonaPiece; 2]; 2],
}

impl Changes {
    fn push(&mut self, change: [[BonaPiece; 2]; 2]) {
        self.pieces[usize::from(self.count)] = change;
        self.count += 1;
    }

    /// The changed pieces: old and new BonaPiece, per perspective.
    #[inline]
    pub fn pieces(&self) -> &[[[BonaPiece; 2]; 2]] {
        &self.pieces[..usize::from(self.count)]
    }

    /// The moved king's old and new K+P input, per perspective (meaningful when
    /// `king_moved` is some).
    #[inline]
    pub fn king(&self) -> &[[BonaPiece; 2]; 2] {
        &self.king
    }
}

/// The numbers of one piece for both perspectives.
#[inline]
fn both(f: impl Fn(Color) -> BonaPiece) -> [BonaPiece; 2] {
    [f(Color::Sente), f(Color::Gote)]
}

/// The changes the legal move `mv` (not yet played) makes in `pos`.
#[inline]
pub fn changes(pos: &Position, mv: Move) -> Changes {
    let us = pos.side_to_move();
    let them = us.flip();
    let mut out = Changes::default();
    let to = mv.to();
    match mv.from() {
        None => {
            let Some(kind) = mv.dropped_kind().and_then(|k| Kind::from_index(k.0)) else {
                return out;
            };
            let nth = pos.hand(us).count(kind).saturating_sub(1);
            out.push([
                both(|p| in_hand(p, us, kind, nth)),
                both(|p| on_board(p, us, kind, to)),
            ]);
        }
        Some(from) => {
            let Some(kind) = pos.piece_at(from).map(|p| p.kind()) else {
                return out;
            };
            if kind == Kind::King {
                out.king_moved = Some(us);
                out.king = [both(|p| king(p, us, from)), both(|p| king(p, us, to))];
            } else {
                let landed = if mv.is_promotion() {
                    kind.promoted()
                } else {
                    kind
                };
                out.push([
                    both(|p| on_board(p, us, kind, from)),
                    both(|p| on_board(p, us, landed, to)),
                ]);
            }
            if let Some(victim) = pos.piece_at(to) {
                if let Some(held) = victim.kind().in_hand() {
                    let nth = pos.hand(us).count(held);
                    out.push([
                        both(|p| on_board(p, them, victim.kind(), to)),
                        both(|p| in_hand(p, us, held, nth)),
                    ]);
                }
            }
        }
    }
    out
}

// A row of the transformer is one accumulator half wide.
const _: () = assert!(HALF == 256);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Geo;

    fn sq(usi: &str) -> Square {
        Square::from_usi::<Geo>(usi).unwrap()
    }

    #[test]
    fn numbers_follow_the_bona_piece_table() {
        // Sente's pawn on 7g (file 7, rank g: square 6 × 9 + 6 = 60).
        assert_eq!(
            on_board(Color::Sente, Color::Sente, Kind::Pawn, sq("7g")),
            BonaPiece(90 + 60)
        );
        // Gote sees it as an enemy pawn on the turned board (square 20).
        assert_eq!(
            on_board(Color::Gote, Color::Sente, Kind::Pawn, sq("7g")),
            BonaPiece(171 + 20)
        );
        assert_eq!(
            on_board(Color::Sente, Color::Gote, Kind::ProSilver, sq("1a")),
            on_board(Color::Sente, Color::Gote, Kind::Gold, sq("1a"))
        );
        assert_eq!(
            in_hand(Color::Gote, Color::Gote, Kind::Gold, 2),
            BonaPiece(71)
        );
        assert_eq!(
            in_hand(Color::Sente, Color::Gote, Kind::Rook, 1),
            BonaPiece(89)
        );
        assert_eq!(king_offset(Color::Gote, sq("5a")), (80 - 36) * PIECE_INPUTS);
        // K+P: sente's king on 5i (square 44) is gote's enemy king on its square 36.
        assert_eq!(
            king(Color::Sente, Color::Sente, sq("5i")),
            BonaPiece(1548 + 44)
        );
        assert_eq!(
            king(Color::Gote, Color::Sente, sq("5i")),
            BonaPiece(1629 + 36)
        );
        assert_eq!(
            king(Color::Gote, Color::Gote, sq("5a")),
            BonaPiece(1548 + 44)
        );
    }

    #[test]
    fn hashes_are_those_of_the_features() {
        // YaneuraOu's HalfKP(Friend) and K+P feature sets.
        assert_eq!(FeatureSet::HalfKp.hash(), 0x5D69_D5B8);
        assert_eq!(FeatureSet::Kp.hash(), 0x3F57_17FF);
    }

    #[test]
    fn each_view_reads_its_pieces_and_the_kings() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
        let kp = FeatureSet::Kp.inputs_of(&pos, Color::Sente);
        assert_eq!(kp.len(), PIECES + 2);
        assert_eq!(&kp[..2], &[1, 2]);
        assert_eq!(&kp[PIECES..], &[1548 + 44, 1629 + 36]);
        let halfkp = FeatureSet::HalfKp.inputs_of(&pos, Color::Sente);
        assert_eq!(halfkp.len(), PIECES);
        assert_eq!(&halfkp[..2], &[44 * 1548 + 1, 44 * 1548 + 2]);
        assert!(kp.iter().all(|&i| i < KP_INPUTS));
    }

    #[test]
    fn missing_pieces_count_as_number_zero() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
        let list = active(&pos, Color::Sente);
        assert_eq!(list.len(), PIECES);
        assert_eq!(&list[..2], &[BonaPiece(1), BonaPiece(2)]);
        assert!(list[2..].iter().all(|&b| b == BonaPiece(0)));
    }
}
