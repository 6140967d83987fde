//! YaneuraOu's training-data formats for standard shogi, which `shishi gensfen` writes and
//! the usual trainers read (YaneuraOu's learner, cshogi's `PackedSfenValue`): the packed
//! position ([`PackedSfen`], 32 bytes) and the training record ([`TrainingRecord`], 40
//! bytes), with the 16-bit move ([`Move16`]) the record holds.
//!
//! # The packed position
//! A stream of exactly 256 bits; bit `i` is bit `i % 8` (least significant first) of byte
//! `i / 8`, and a code of several bits is written from its least significant bit on:
//! 1. the side to move, 1 bit (0 sente, 1 gote);
//! 2. sente's king square, then gote's, 7 bits each: `file × 9 + rank` with file 0 = USI
//!    file 1 and rank 0 = rank `a` (Shishi's own square index), 81 for a missing king;
//! 3. every other square in that index order: an empty square is the single bit 0; a piece
//!    is the code of its unpromoted kind (table below), then a promotion bit (not for
//!    gold), then its colour bit (0 sente, 1 gote);
//! 4. the pieces in hand, sente's then gote's, kind by kind in the order pawn, lance,
//!    knight, silver, gold, bishop, rook: each piece is its board code without the first
//!    bit (always 1 there), a promotion bit 0 (not for gold) and its colour bit;
//! 5. the pieces of the set that are nowhere (a problem position without the full set),
//!    in the same kind order, written as a piece in hand with the promotion bit 1 and colour
//!    0 (gold, which has no promotion bit, as gote's promoted silver). A reader skips them.
//!
//! | kind | board code, bits first to last | in hand |
//! |---|---|---|
//! | empty | 0 | — |
//! | pawn | 1 0 | 0 |
//! | lance | 1 1 0 0 | 1 0 0 |
//! | knight | 1 1 0 1 | 1 0 1 |
//! | silver | 1 1 1 0 | 1 1 0 |
//! | gold | 1 1 1 1 0 | 1 1 1 0 |
//! | bishop | 1 1 1 1 1 0 | 1 1 1 1 0 |
//! | rook | 1 1 1 1 1 1 | 1 1 1 1 1 |
//!
//! Moving a piece from the board to a hand frees one bit on its square and saves one bit on
//! its code, so every position with the 40 pieces of the set takes exactly 256 bits.
//!
//! # The training record
//! Little-endian, 40 bytes: the packed position (32), the score (`i16`, centipawns from the
//! side to move's view), the move ([`Move16`]), the game ply (`u16`: YaneuraOu's `gensfen`
//! writes the number of plies played before the position, 0 at the start position), the
//! game's result from the side to move's view (`i8`: 1 win, 0 draw, -1 loss) and a padding
//! byte (zero in YaneuraOu's files; the mover's card in Shishi's Central Madness data).

use super::shogi_sfen;
use crate::rules::dropshogi::notation::SfenRules;
use crate::rules::geometry::{Board9x9, Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::position::Hand;
use crate::rules::variants::shogi::{Kind, Piece, Position};

/// Bytes of a packed position.
pub const PACKED_SFEN_BYTES: usize = 32;
/// Bytes of a training record.
pub const RECORD_BYTES: usize = 40;
/// Bits of a packed position.
const PACKED_BITS: usize = PACKED_SFEN_BYTES * 8;
/// The king square written for a missing king.
const NO_SQUARE: u8 = 81;

/// The kinds that can be in hand, in the order the hands and the piece box are written.
const HAND_ORDER: [Kind; 7] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::Silver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
];

/// A prefix code: `bits` long, first bit in the least significant place of `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Code {
    value: u32,
    bits: u32,
}

/// The board code of an unpromoted hand kind (the table of the module header).
fn board_code(kind: Kind) -> Code {
    let (value, bits) = match kind {
        Kind::Pawn => (0b01, 2),
        Kind::Lance => (0b0011, 4),
        Kind::Knight => (0b1011, 4),
        Kind::Silver => (0b0111, 4),
        Kind::Gold => (0b01111, 5),
        Kind::Bishop => (0b011111, 6),
        Kind::Rook => (0b111111, 6),
        other => unreachable!("{other:?} has no code of its own"),
    };
    Code { value, bits }
}

/// The code of a piece in hand: the board code without its first bit.
fn hand_code(kind: Kind) -> Code {
    let board = board_code(kind);
    Code {
        value: board.value >> 1,
        bits: board.bits - 1,
    }
}

/// The unpromoted kind of `kind` (the king is itself).
fn base_kind(kind: Kind) -> Kind {
    if kind.is_promoted() {
        Kind::ALL[kind.index() - Kind::PROMOTION_OFFSET as usize]
    } else {
        kind
    }
}

/// The 32 bytes of a packed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedSfen(pub [u8; PACKED_SFEN_BYTES]);

/// Why 32 bytes are not a packed position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpackError(pub String);

impl std::fmt::Display for UnpackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a packed position: {}", self.0)
    }
}

/// Writes bits into the 256-bit stream.
struct BitWriter {
    bytes: [u8; PACKED_SFEN_BYTES],
    cursor: usize,
}

impl BitWriter {
    fn bit(&mut self, on: bool) {
        assert!(
            self.cursor < PACKED_BITS,
            "a position of at most the 40 pieces of a set fits in 256 bits"
        );
        if on {
            self.bytes[self.cursor / 8] |= 1 << (self.cursor % 8);
        }
        self.cursor += 1;
    }

    fn code(&mut self, code: Code) {
        for i in 0..code.bits {
            self.bit(code.value >> i & 1 == 1);
        }
    }
}

/// Reads bits from the 256-bit stream.
struct BitReader<'a> {
    bytes: &'a [u8; PACKED_SFEN_BYTES],
    cursor: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<bool, UnpackError> {
        if self.cursor >= PACKED_BITS {
            return Err(UnpackError("the codes run past 256 bits".into()));
        }
        let on = self.bytes[self.cursor / 8] >> (self.cursor % 8) & 1 == 1;
        self.cursor += 1;
        Ok(on)
    }

    fn number(&mut self, bits: u32) -> Result<u32, UnpackError> {
        let mut value = 0;
        for i in 0..bits {
            value |= u32::from(self.bit()?) << i;
        }
        Ok(value)
    }

    /// Reads one code of `table` (`None` stands for the empty square's code).
    fn code(
        &mut self,
        table: &[(Option<Kind>, Code)],
        what: &str,
    ) -> Result<Option<Kind>, UnpackError> {
        let (mut value, mut bits) = (0, 0);
        while bits < 6 {
            value |= u32::from(self.bit()?) << bits;
            bits += 1;
            if let Some((kind, _)) = table
                .iter()
                .find(|(_, c)| c.value == value && c.bits == bits)
            {
                return Ok(*kind);
            }
        }
        Err(UnpackError(format!(
            "no {what} code matches the bits at {}",
            self.cursor - 6
        )))
    }

    fn color(&mut self) -> Result<Color, UnpackError> {
        Ok(if self.bit()? {
            Color::Gote
        } else {
            Color::Sente
        })
    }
}

/// A position as the packed form holds it: squares, hands and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpackedPosition {
    /// By Shishi's square index.
    pub squares: [Option<Piece>; 81],
    pub hands: [Hand; 2],
    pub side_to_move: Color,
}

impl UnpackedPosition {
    /// The SFEN of the position with `move_number` as its fourth field.
    pub fn to_sfen(&self, move_number: u32) -> String {
        let mut grid: [[Option<String>; 9]; 9] = Default::default();
        for (index, piece) in self.squares.iter().enumerate() {
            if let Some(piece) = piece {
                let sq = Square(index as u8);
                let (file, rank) = (sq.file::<Board9x9>(), sq.rank::<Board9x9>());
                grid[rank.0 as usize][file.0 as usize] =
                    Some(crate::rules::dropshogi::notation::piece_text(*piece));
            }
        }
        let hands = crate::rules::dropshogi::notation::hands_text::<Piece, Hand>(self.hands);
        let hands = if hands == "-" { String::new() } else { hands };
        let sfen = shogi_sfen(&grid, self.side_to_move == Color::Sente, &hands);
        let without_number = sfen.rsplit_once(' ').map_or(sfen.as_str(), |(s, _)| s);
        format!("{without_number} {move_number}")
    }
}

impl PackedSfen {
    /// Packs a standard-shogi position.
    pub fn pack(pos: &Position) -> PackedSfen {
        let mut out = BitWriter {
            bytes: [0; PACKED_SFEN_BYTES],
            cursor: 0,
        };
        out.bit(pos.side_to_move() == Color::Gote);
        for color in Color::BOTH {
            let king = pos.king_square(color).map_or(NO_SQUARE, |sq| sq.0);
            out.code(Code {
                value: u32::from(king),
                bits: 7,
            });
        }
        // Pieces of each hand kind not yet seen on the board or in a hand.
        let mut unseen = Kind::SET_COUNT;
        for sq in Square::all::<Board9x9>() {
            match pos.piece_at(sq) {
                None => out.bit(false),
                Some(piece) if piece.kind() == Kind::King => {}
                Some(piece) => {
                    let base = base_kind(piece.kind());
                    out.code(board_code(base));
                    if base != Kind::Gold {
                        out.bit(piece.kind().is_promoted());
                    }
                    out.bit(piece.color() == Color::Gote);
                    unseen[base.index()] -= 1;
                }
            }
        }
        for color in Color::BOTH {
            for kind in HAND_ORDER {
                for _ in 0..pos.hand(color).count(kind) {
                    out.code(hand_code(kind));
                    if kind != Kind::Gold {
                        out.bit(false);
                    }
                    out.bit(color == Color::Gote);
                    unseen[kind.index()] -= 1;
                }
            }
        }
        for kind in HAND_ORDER {
            for _ in 0..unseen[kind.index()] {
                // The promotion bit 1 marks the piece box. Gold has no promotion bit: it is
                // written as gote's silver in the box, which a reader skips the same way.
                if kind == Kind::Gold {
                    out.code(hand_code(Kind::Silver));
                    out.bit(true);
                    out.bit(true);
                } else {
                    out.code(hand_code(kind));
                    out.bit(true);
                    out.bit(false);
                }
            }
        }
        debug_assert_eq!(out.cursor, PACKED_BITS);
        PackedSfen(out.bytes)
    }

    /// Reads the squares, hands and side to move back. Checks the code structure only: the
    /// position's legality is the SFEN parser's to judge ([`PackedSfen::to_position`]).
    pub fn unpack(&self) -> Result<UnpackedPosition, UnpackError> {
        let board_table: Vec<(Option<Kind>, Code)> =
            std::iter::once((None, Code { value: 0, bits: 1 }))
                .chain(HAND_ORDER.iter().map(|&k| (Some(k), board_code(k))))
                .collect();
        let hand_table: Vec<(Option<Kind>, Code)> = HAND_ORDER
            .iter()
            .map(|&k| (Some(k), hand_code(k)))
            .collect();
        let mut input = BitReader {
            bytes: &self.0,
            cursor: 0,
        };
        let side_to_move = input.color()?;
        let mut squares = [None; 81];
        for color in Color::BOTH {
            let sq = input.number(7)? as u8;
            if sq == NO_SQUARE {
                continue;
            }
            let slot = squares
                .get_mut(sq as usize)
                .ok_or_else(|| UnpackError(format!("king square {sq} is off the board")))?;
            if slot.is_some() {
                return Err(UnpackError(format!("both kings on square {sq}")));
            }
            *slot = Some(Piece::new(color, Kind::King));
        }
        for slot in squares.iter_mut() {
            if slot.is_some() {
                continue;
            }
            let Some(kind) = input.code(&board_table, "board")? else {
                continue;
            };
            let promoted = kind != Kind::Gold && input.bit()?;
            let color = input.color()?;
            *slot = Some(Piece::new(
                color,
                if promoted { kind.promoted() } else { kind },
            ));
        }
        let mut hands = [Hand::default(); 2];
        while input.cursor < PACKED_BITS {
            let kind = input
                .code(&hand_table, "hand")?
                .expect("hand codes name a kind");
            let in_box = kind != Kind::Gold && input.bit()?;
            let color = input.color()?;
            if !in_box {
                hands[color.index()].add(kind);
            }
        }
        Ok(UnpackedPosition {
            squares,
            hands,
            side_to_move,
        })
    }

    /// The SFEN of the packed position with `move_number` as its fourth field.
    pub fn to_sfen(&self, move_number: u32) -> Result<String, UnpackError> {
        Ok(self.unpack()?.to_sfen(move_number))
    }

    /// The packed position as a checked standard-shogi position.
    pub fn to_position(&self, move_number: u32) -> Result<Position, UnpackError> {
        self.to_position_with(move_number, SfenRules::Shogi)
    }

    /// The packed position checked by `rules` (the Central Madness's boards may hold two
    /// pawns of a side on a file).
    pub fn to_position_with(
        &self,
        move_number: u32,
        rules: SfenRules,
    ) -> Result<Position, UnpackError> {
        let sfen = self.to_sfen(move_number)?;
        Position::from_sfen_with(&sfen, rules)
            .map_err(|e| UnpackError(format!("{sfen:?} is not a legal position: {e}")))
    }
}

/// A move in 16 bits, YaneuraOu's `Move16`: bits 0–6 the destination square, bits 7–13 the
/// origin square (or for a drop the kind dropped: pawn 1, lance 2, knight 3, silver 4,
/// bishop 5, rook 6, gold 7), bit 14 drop, bit 15 promotion. Squares as in [`PackedSfen`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move16(pub u16);

const MOVE16_DROP: u16 = 1 << 14;
const MOVE16_PROMOTE: u16 = 1 << 15;

/// YaneuraOu's number of a kind that can be dropped.
fn drop_number(kind: Kind) -> u16 {
    match kind {
        Kind::Pawn => 1,
        Kind::Lance => 2,
        Kind::Knight => 3,
        Kind::Silver => 4,
        Kind::Bishop => 5,
        Kind::Rook => 6,
        Kind::Gold => 7,
        other => unreachable!("{other:?} is never dropped"),
    }
}

impl Move16 {
    /// The 16-bit form of a standard-shogi move.
    pub fn from_move(mv: Move) -> Move16 {
        let to = u16::from(mv.to().0);
        match (mv.from(), mv.dropped_kind()) {
            (Some(from), _) => Move16(
                to | u16::from(from.0) << 7 | if mv.is_promotion() { MOVE16_PROMOTE } else { 0 },
            ),
            (None, Some(kind)) => {
                let kind = Kind::from_index(kind.0).expect("a shogi drop names a shogi kind");
                Move16(to | drop_number(kind) << 7 | MOVE16_DROP)
            }
            (None, None) => unreachable!("a shogi move is a board move or a drop"),
        }
    }

    /// The move these 16 bits name, if they name one on the board at all; whether it is
    /// legal in a position is for the caller to check.
    pub fn to_move(self) -> Option<Move> {
        let to = self.0 & 0x7f;
        let from = self.0 >> 7 & 0x7f;
        if to >= 81 {
            return None;
        }
        let to = Square(to as u8);
        if self.0 & MOVE16_DROP != 0 {
            let kind = Kind::HAND.into_iter().find(|&k| drop_number(k) == from)?;
            (self.0 & MOVE16_PROMOTE == 0).then(|| Move::drop(kind.id(), to))
        } else {
            (from < 81 && from != to.0 as u16)
                .then(|| Move::normal(Square(from as u8), to, self.0 & MOVE16_PROMOTE != 0))
        }
    }
}

/// A game's result from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Loss = -1,
    Draw = 0,
    Win = 1,
}

impl GameResult {
    /// The result for the other side.
    pub fn flip(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }

    fn from_byte(byte: i8) -> Option<GameResult> {
        match byte {
            -1 => Some(GameResult::Loss),
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// One training record: YaneuraOu's `PackedSfenValue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrainingRecord {
    pub position: PackedSfen,
    /// Centipawns from the side to move's view.
    pub score: i16,
    pub best_move: Move16,
    /// The plies played before the position in its game (0 at the start position).
    pub game_ply: u16,
    /// The game's result for the side to move.
    pub result: GameResult,
    /// The last byte, padding in YaneuraOu's format (0 there; YaneuraOu and cshogi ignore
    /// it). Shishi's Central Madness data keeps the side to move's card in it (1 to 10; 0
    /// before the deal): docs/TRAINING_DATA.md.
    pub padding: u8,
}

impl TrainingRecord {
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0; RECORD_BYTES];
        out[..32].copy_from_slice(&self.position.0);
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34..36].copy_from_slice(&self.best_move.0.to_le_bytes());
        out[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        out[38] = (self.result as i8) as u8;
        out[39] = self.padding;
        out
    }

    /// Reads a record (the padding byte as it stands); a result other than -1, 0 or 1 is
    /// refused.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<TrainingRecord, UnpackError> {
        let mut position = [0; PACKED_SFEN_BYTES];
        position.copy_from_slice(&bytes[..32]);
        let word = |at: usize| [bytes[at], bytes[at + 1]];
        let result = GameResult::from_byte(bytes[38] as i8)
            .ok_or_else(|| UnpackError(format!("game result {}", bytes[38] as i8)))?;
        Ok(TrainingRecord {
            position: PackedSfen(position),
            score: i16::from_le_bytes(word(32)),
            best_move: Move16(u16::from_le_bytes(word(34))),
            game_ply: u16::from_le_bytes(word(36)),
            result,
            padding: bytes[39],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::random_games;
    use rand::seq::SliceRandom;

    fn bytes_of(hex: &str) -> [u8; PACKED_SFEN_BYTES] {
        let mut out = [0; PACKED_SFEN_BYTES];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    }

    /// A position and a move with the bytes cshogi wrote for them.
    struct CshogiCase {
        sfen: &'static str,
        packed_hex: &'static str,
        /// A legal move and `move16_to_psv(move16(move))`.
        mv: Option<(&'static str, u16)>,
    }

    /// Positions and moves with the bytes cshogi 1.1.0 wrote for them (`Board.to_psfen`,
    /// `move16_to_psv(move16(move))`): random games played by cshogi (one with five kinds in
    /// sente's hand and four in gote's), the start position, and a problem position whose missing pieces go to the piece box.
    const CSHOGI: [CshogiCase; 8] = [
        CshogiCase {
            sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            packed_hex: "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c",
            mv: None,
        },
        CshogiCase {
            sfen: "1nr2g3/n3k2bl/lpGp1s2n/ps1Ppp2p/2p2nppP/P3KS2L/1PP1G1PP1/L1SB3G1/7+r1 w 2p 82",
            packed_hex: "5325e39a31c027299e7f48c1ebccf500e9810c7cf8f5487158e549601d531890",
            mv: Some(("4e3g+", 36760)),
        },
        CshogiCase {
            sfen: "1nbr2+Ln1/3Pg4/3sl2bG/pk2psg2/1p1G1Pp1P/2p4PL/PP2P1PR1/LSKp1S3/1N5N1 w 4P 120",
            packed_hex: "7b421e3160f549fc5826de14e00c0ede31097ee3f4903e215949712c48620000",
            mv: Some(("6h6i+", 39477)),
        },
        CshogiCase {
            sfen: "l4g1n1/3rks3/+Bpsp1g2l/2P1p2pp/p4pPn1/b8/P1nPP1p1P/+r1GSG3L/4K1SN1 b l4p 77",
            packed_hex: "5825c624062bb96281908ef77c2590c4e3371107ce607d90c0e84b7ec63f928c",
            mv: Some(("7d7c+", 40120)),
        },
        CshogiCase {
            sfen: "l2sn1g2/+P4b2l/L3G3n/1pkSps2P/2p1PpppN/2PP2PP1/BP1R1PG1+p/3p3SR/1NG3K1L b P 119",
            packed_hex: "3439e31a8bfe1920c3e145c6c3a73305ab27034e0ef19390c183242c630df800",
            mv: Some(("P*9d", 16587)),
        },
        CshogiCase {
            sfen: "1r5n1/l3gsgbp/1sp1p1+P2/pp2Pp1pl/1n1k4P/P1P4R1/2SG1P3/3B1Sp2/LN1KG2NL b 2P2p 95",
            packed_hex: "6a31690c0ceba7f4c3e22d484e491cbc19f080e783240e7e9db962314ac10090",
            mv: Some(("P*3f", 16535)),
        },
        CshogiCase {
            sfen: "G8/5g3/2L1n1n2/4r4/K3k1p1p/1p5p1/1P4+s2/3RP4/7gs w GSN3L2P2bsn10p 212",
            packed_hex: "9928489c207959a51b2f80f59700f8c100800c1e00104228e390244992753e9f",
            mv: Some(("B*3i", 17050)),
        },
        CshogiCase {
            sfen: "4k4/9/4P4/9/9/9/9/9/4K4 b G2r 1",
            packed_hex: "582400000000100000000000cef72b4992244992a494526aadb5b5d6da7bbf5e",
            mv: None,
        },
    ];

    #[test]
    fn positions_pack_to_cshogis_bytes_and_back() {
        for CshogiCase {
            sfen,
            packed_hex: hex,
            mv,
        } in CSHOGI
        {
            let pos = Position::from_sfen(sfen).unwrap();
            let packed = PackedSfen::pack(&pos);
            assert_eq!(packed.0, bytes_of(hex), "{sfen}");
            let number: u32 = sfen.rsplit(' ').next().unwrap().parse().unwrap();
            assert_eq!(packed.to_sfen(number).unwrap(), sfen);
            if let Some((text, bits)) = mv {
                let mv = pos.parse_usi_move(text).unwrap();
                assert_eq!(Move16::from_move(mv), Move16(bits), "{text}");
                assert_eq!(Move16(bits).to_move(), Some(mv), "{text}");
            }
        }
    }

    #[test]
    fn random_positions_round_trip() {
        let (mut promoted, mut in_hand, mut checked) = (0, 0, 0);
        random_games(&Position::startpos(), 35, (60, 200), |pos, legal, rng| {
            let mv = *legal.choose(rng)?;
            let record = TrainingRecord {
                position: PackedSfen::pack(pos),
                score: -1234,
                best_move: Move16::from_move(mv),
                game_ply: pos.move_number() as u16,
                result: GameResult::Loss,
                padding: (pos.move_number() % 11) as u8,
            };
            let back = TrainingRecord::from_bytes(&record.to_bytes()).unwrap();
            assert_eq!(back, record);
            let unpacked = back.position.to_position(pos.move_number()).unwrap();
            assert_eq!(unpacked.to_sfen(), pos.to_sfen());
            assert_eq!(back.best_move.to_move(), Some(mv));
            let sfen = pos.to_sfen();
            promoted += usize::from(sfen.split(' ').next().unwrap().contains('+'));
            in_hand += usize::from(sfen.split(' ').nth(2) != Some("-"));
            checked += 1;
            Some(mv)
        });
        assert!(
            promoted > 1000 && in_hand > 1000,
            "{promoted} {in_hand} of {checked}"
        );
    }

    #[test]
    fn malformed_bytes_are_refused() {
        // Both kings on square 5.
        let mut bytes = [0u8; PACKED_SFEN_BYTES];
        bytes[0] = 5 << 1;
        bytes[1] = 5;
        assert!(PackedSfen(bytes).unpack().is_err());
        // All ones: rooks everywhere run past the 256 bits.
        assert!(PackedSfen([0xff; PACKED_SFEN_BYTES]).unpack().is_err());
        // Kings on 1a and 1b, an empty board, and the remaining bits read as 54 pawns in
        // sente's hand: well-formed codes, but no legal position.
        let mut bytes = [0u8; PACKED_SFEN_BYTES];
        bytes[1] = 1;
        let unpacked = PackedSfen(bytes).unpack().unwrap();
        assert_eq!(unpacked.hands[0].count(Kind::Pawn), 54);
        assert!(PackedSfen(bytes).to_position(1).is_err());
        let mut record = TrainingRecord {
            position: PackedSfen::pack(&Position::startpos()),
            score: 0,
            best_move: Move16(0),
            game_ply: 1,
            result: GameResult::Draw,
            padding: 0,
        }
        .to_bytes();
        record[38] = 2;
        assert!(TrainingRecord::from_bytes(&record).is_err());
        assert_eq!(Move16(81).to_move(), None);
        assert_eq!(Move16(MOVE16_DROP | 8 << 7 | 40).to_move(), None);
    }
}
