//! Chu Kagamigi as an engine-defined XBoard variant: the `setup` command (piece letters,
//! 12×12 board with holdings, parent variant, start position) and one `piece` command per
//! kind with its moves in Betza notation, sent in answer to `variant chukagamigi`.
//!
//! XBoard's piece-to-char table lists one letter per XBoard piece type, white's then
//! black's, the king last in each half. Only the first types can sit in the holdings, so
//! the 24 kinds that can be dropped come first (as their SFEN letters), then the 21
//! promoted kinds written `^X` ("the promoted form of X", shown as `+X` like in SFEN), then
//! the King. XBoard keeps the holdings as a column of one square per kind beside the board,
//! so it has no more holdings slots than board ranks; taller holdings stretch the board
//! with unplayable ranks, up to its compile-time `BOARD_RANKS` (17 in XBoard 4.9.1: 16
//! ranks, one hidden). How many slots to ask for is [`HoldingSlots`]: all 24 kinds need an
//! XBoard built with a larger `BOARD_RANKS`; a stock XBoard takes 16, the kinds that stand
//! nearest the front at the start ([`HAND_ORDER`]), as those are captured first, and a
//! captured piece of the other 8 kinds (the dogs, the lance, the flying horse, the kirin,
//! the silver, the burning chariot and the phoenix) shows up in its holdings as a pawn and
//! cannot be dropped there, though the drop is legal. The Betza strings are the ones the
//! rules are built from (`kagamigi::Kind::betza`) without their spaces: XBoard reads the
//! description up to the first space.

use crate::rules::variants::kagamigi::{self, Kind};

/// How many holdings slots XBoard is told about (the engine option `XBoardHoldings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldingSlots(usize);

impl HoldingSlots {
    /// What a stock XBoard 4.9.1 or WinBoard draws: 16 ranks; more stops it with
    /// "Recompile to support this BOARD_RANKS or BOARD_FILES!".
    pub const STOCK_XBOARD: HoldingSlots = HoldingSlots(16);
    /// One slot for every kind that can be dropped.
    pub const EVERY_KIND: HoldingSlots = HoldingSlots(Kind::HAND_COUNT);
    /// The engine option that sets it.
    pub const OPTION: &'static str = "XBoardHoldings";

    /// The option's value, `None` outside [`Self::STOCK_XBOARD`]..=[`Self::EVERY_KIND`].
    pub fn parse(text: &str) -> Option<HoldingSlots> {
        let slots: usize = text.trim().parse().ok()?;
        (Self::STOCK_XBOARD.0..=Self::EVERY_KIND.0)
            .contains(&slots)
            .then_some(HoldingSlots(slots))
    }

    /// The option's CECP declaration (`feature option="…"`).
    pub fn declaration() -> String {
        format!(
            "{} -spin {} {} {}",
            Self::OPTION,
            Self::STOCK_XBOARD.0,
            Self::STOCK_XBOARD.0,
            Self::EVERY_KIND.0
        )
    }
}

/// The parent variant XBoard takes the rules it does not get from the engine from: shogi
/// (drops of captured pieces, promotion with `+`).
const PARENT: &str = "shogi";

/// The piece-to-char table: white's half then black's.
pub fn piece_to_char() -> String {
    let white = half();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// The kinds that can be dropped, in XBoard's slot order: the first [`HoldingSlots`] get
/// holdings slots. The pawn, then the kinds of the third rank, the second, the first.
const HAND_ORDER: [Kind; Kind::HAND_COUNT] = {
    use Kind::*;
    [
        Pawn,
        Knight,
        Yaksha,
        BlueGecko,
        PurpleFinch,
        LeftQuail,
        RightQuail,
        LeftChariot,
        RightChariot,
        Bishop,
        Rook,
        LeftGeneral,
        RightGeneral,
        Deva,
        DarkSpirit,
        Gold,
        LeftDog,
        RightDog,
        Lance,
        FlyingHorse,
        Kirin,
        Silver,
        BurningChariot,
        Phoenix,
    ]
};

fn half() -> String {
    let mut text: String = HAND_ORDER.iter().map(|k| k.rules().letter).collect();
    for kind in Kind::ALL.iter().filter(|k| k.is_promoted()) {
        text.push('^');
        text.push(kind.rules().letter);
    }
    text.push(Kind::King.rules().letter);
    text
}

/// The `setup` command: letters, `12x12+SLOTS_shogi`, the start position in XBoard's FEN.
pub fn setup_line(holdings: HoldingSlots) -> String {
    let fen = super::xboard_text::xboard_fen_of_sfen(kagamigi::notation::START_SFEN, true)
        .expect("the start SFEN converts");
    format!(
        "setup ({}) 12x12+{}_{PARENT} {fen}",
        piece_to_char(),
        holdings.0
    )
}

/// The `piece` commands, one per kind (`+X` for promoted kinds), valid for both colours.
pub fn piece_lines() -> Vec<String> {
    Kind::ALL
        .iter()
        .map(|kind| {
            let rules = kind.rules();
            let id = if kind.is_promoted() {
                format!("+{}", rules.letter)
            } else {
                rules.letter.to_string()
            };
            let betza: String = kind.betza().split_whitespace().collect();
            format!("piece {id}& {betza}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_entry_per_kind_and_the_king_last() {
        let table = piece_to_char();
        // Entries are letters, `^` marks a promoted kind and is not an entry of its own.
        let entries = table.chars().filter(|&c| c != '^').count();
        assert_eq!(entries, 2 * Kind::COUNT);
        let (white, black) = table.split_at(table.len() / 2);
        assert!(white.ends_with('K') && black.ends_with('k'));
        assert!(white.starts_with("PNYUVQT"));
        // Every kind that can be dropped has its slot, once.
        let mut slots: Vec<Kind> = HAND_ORDER.to_vec();
        slots.sort();
        assert_eq!(slots, Kind::hand_kinds().collect::<Vec<_>>());
        assert_eq!(white.matches('^').count(), 21);
        // Every promoted kind points at a letter of the holdings part.
        let holdings: String = white.chars().take(Kind::HAND_COUNT).collect();
        for pair in white.split('^').skip(1) {
            assert!(holdings.contains(&pair[..1]), "{pair}");
        }
    }

    #[test]
    fn the_holdings_option_takes_16_to_24_slots() {
        assert_eq!(HoldingSlots::parse("16"), Some(HoldingSlots::STOCK_XBOARD));
        assert_eq!(HoldingSlots::parse("24"), Some(HoldingSlots::EVERY_KIND));
        assert_eq!(HoldingSlots::parse(" 20 "), Some(HoldingSlots(20)));
        assert_eq!(HoldingSlots::parse("15"), None);
        assert_eq!(HoldingSlots::parse("25"), None);
        assert_eq!(HoldingSlots::parse("many"), None);
        assert_eq!(HoldingSlots::declaration(), "XBoardHoldings -spin 16 16 24");
    }

    #[test]
    fn setup_and_pieces_are_single_words_where_xboard_needs_them() {
        let setup = setup_line(HoldingSlots::STOCK_XBOARD);
        let words: Vec<&str> = setup.split(' ').collect();
        assert_eq!(words[0], "setup");
        assert!(words[1].starts_with('(') && words[1].ends_with(')'));
        assert_eq!(words[2], "12x12+16_shogi");
        let every_kind = setup_line(HoldingSlots::EVERY_KIND);
        assert_eq!(every_kind.split(' ').nth(2), Some("12x12+24_shogi"));
        assert!(words[3].ends_with("[-]"), "{setup}");
        let pieces = piece_lines();
        assert_eq!(pieces.len(), Kind::COUNT);
        assert!(pieces.contains(&"piece P& fW".to_string()));
        assert!(pieces.contains(&"piece +P& WfF".to_string()));
        assert!(pieces.contains(&"piece Y& sW4bWfF".to_string()));
        for line in &pieces {
            assert_eq!(line.split(' ').count(), 3, "{line}");
        }
    }
}
