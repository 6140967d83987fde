//! Macros that implement the family's traits for a member whose kind, piece and tables
//! types already have inherent methods and fields of the same names (standard shogi and Chu
//! Kagamigi), so each such member states only what differs: its hand kinds and their print
//! order.

/// Implements [`super::DropKind`] for `$kind` from its inherent `index`, `rules`,
/// `can_promote`, `promoted`, `in_hand`, its `ALL` and `SET_COUNT` constants, and the given
/// hand kinds and hand print order.
macro_rules! drop_kind_from_inherent {
    ($kind:ty, hand: $hand:expr, print: $print:expr) => {
        impl $crate::rules::dropshogi::DropKind for $kind {
            const KING: $kind = <$kind>::King;
            const PAWN: $kind = <$kind>::Pawn;
            const KINDS: &'static [$kind] = &<$kind>::ALL;
            const HAND_KINDS: &'static [$kind] = $hand;
            const HAND_PRINT_ORDER: &'static [$kind] = $print;

            #[inline]
            fn index(self) -> usize {
                <$kind>::index(self)
            }
            #[inline]
            fn rules(self) -> &'static $crate::rules::piece::PieceRules {
                <$kind>::rules(self)
            }
            #[inline]
            fn can_promote(self) -> bool {
                <$kind>::can_promote(self)
            }
            #[inline]
            fn promoted(self) -> $kind {
                <$kind>::promoted(self)
            }
            #[inline]
            fn in_hand(self) -> Option<$kind> {
                <$kind>::in_hand(self)
            }
            fn set_count(self) -> u8 {
                <$kind>::SET_COUNT[<$kind>::index(self)]
            }
        }
    };
}
pub(crate) use drop_kind_from_inherent;

/// Implements [`super::DropPiece`] for `$piece` (of kind `$kind`) from its inherent `new`,
/// `kind`, `color` and `index`.
macro_rules! drop_piece_from_inherent {
    ($piece:ty, $kind:ty) => {
        impl $crate::rules::dropshogi::DropPiece for $piece {
            type Kind = $kind;
            #[inline]
            fn new(color: $crate::rules::geometry::Color, kind: $kind) -> $piece {
                <$piece>::new(color, kind)
            }
            #[inline]
            fn kind(self) -> $kind {
                <$piece>::kind(self)
            }
            #[inline]
            fn color(self) -> $crate::rules::geometry::Color {
                <$piece>::color(self)
            }
            #[inline]
            fn index(self) -> usize {
                <$piece>::index(self)
            }
        }
    };
}
pub(crate) use drop_piece_from_inherent;

/// Implements [`super::DropTables`] of member `$variant` for `$tables`, whose field `board`
/// (a [`super::tables::BoardTables`]) and methods `step_attacks`, `attacks`, `square_ahead`
/// answer each question.
macro_rules! drop_tables_from_fields {
    ($tables:ty, $variant:ty) => {
        impl $crate::rules::dropshogi::DropTables<$variant> for $tables {
            #[inline]
            fn all(&self) -> Bb {
                self.board.all
            }
            #[inline]
            fn zone(&self, color: Color) -> Bb {
                self.board.zone[color.index()]
            }
            #[inline]
            fn in_zone(&self, color: Color, sq: Square) -> bool {
                self.board.in_zone[color.index()][sq.index()]
            }
            #[inline]
            fn alive(&self, color: Color, kind: Kind) -> Bb {
                self.board.alive[color.index()][kind.index()]
            }
            #[inline]
            fn file(&self, file: usize) -> Bb {
                self.board.file[file]
            }
            #[inline]
            fn step_attacks(&self, color: Color, kind: Kind, sq: Square) -> Bb {
                <$tables>::step_attacks(self, color, kind, sq)
            }
            // Always inlined, as the inherent `attacks` is: Chu Kagamigi's 24-byte board
            // then stays in registers (a call measured 22 % slower in its perft).
            #[inline(always)]
            fn attacks(&self, piece: Piece, sq: Square, occupied: Bb) -> Bb {
                <$tables>::attacks(self, piece, sq, occupied)
            }
            #[inline]
            fn square_ahead(&self, color: Color, sq: Square) -> Option<Square> {
                <$tables>::square_ahead(self, color, sq)
            }
            #[inline]
            fn board_key(&self, piece: Piece, sq: Square) -> u64 {
                self.board.board_keys[piece.index()][sq.index()]
            }
            #[inline]
            fn hand_key(&self, color: Color, kind: Kind, count: usize) -> u64 {
                self.board.hand_keys[color.index()][kind.index()][count]
            }
            #[inline]
            fn side_key(&self) -> u64 {
                self.board.side_key
            }
        }
    };
}
pub(crate) use drop_tables_from_fields;

/// Writes, inside `impl DropVariant for ...`, the associated types, constants and `tables`
/// of a member stored the usual way: board `$geo`, kinds `$kind` (with a `COUNT`), pieces
/// `$piece`, hands `$hand`, tables `$tables` returned by `$get`, start position `$start`.
/// The mailbox holds one `Option<$piece>` per square and the kind sets one bitboard per kind.
macro_rules! drop_variant_storage {
    (
        geo: $geo:ty,
        kind: $kind:ty,
        piece: $piece:ty,
        hand: $hand:ty,
        tables: $tables:ty = $get:path,
        start: $start:expr $(,)?
    ) => {
        type Geo = $geo;
        type Kind = $kind;
        type Piece = $piece;
        type Tables = $tables;
        type Mailbox = [Option<$piece>; <$geo as $crate::rules::geometry::Geometry>::SQUARES];
        type KindSets = [<$geo as $crate::rules::geometry::Geometry>::Bb; <$kind>::COUNT];
        type Hand = $hand;

        const EMPTY_MAILBOX: Self::Mailbox =
            [None; <$geo as $crate::rules::geometry::Geometry>::SQUARES];
        const EMPTY_KIND_SETS: Self::KindSets = [<<$geo as $crate::rules::geometry::Geometry>::Bb as $crate::rules::bitboard::Bitboard>::EMPTY; <$kind>::COUNT];
        const START_SFEN: &'static str = $start;

        #[inline]
        fn tables() -> &'static $tables {
            $get()
        }
    };
}
pub(crate) use drop_variant_storage;
