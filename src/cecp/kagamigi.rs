//! Chu Kagamigi as an engine-defined XBoard variant: the `setup` command (piece letters,
//! 12×12 board with holdings, parent variant, start position) and one `piece` command per
//! kind with its moves in Betza notation, sent in answer to `variant chukagamigi`.
//!
//! XBoard's piece-to-char table lists one letter per XBoard piece type, white's then
//! black's, the king last in each half. Only the first types can sit in the holdings, so
//! the 24 kinds that can be dropped come first (as their SFEN letters), then the 21
//! promoted kinds written `^X` ("the promoted form of X", shown as `+X` like in SFEN), then
//! the King. XBoard 4.9.1 draws at most 16 ranks and its holdings are a column beside the
//! board, so it holds at most 16 kinds ([`XBOARD_HOLDINGS`]): the 16 of the 24 that can be
//! dropped which stand nearest the front at the start ([`HAND_ORDER`]), as those are
//! captured first. A captured piece of the other 8 kinds (the dogs, the lance, the flying
//! horse, the kirin, the silver, the burning chariot and the phoenix) shows up in XBoard's
//! holdings as a pawn, and XBoard refuses a drop of it ("invalid move"), though it is legal. The Betza strings are the ones the rules are built from
//! (`kagamigi::Kind::betza`) without their spaces: XBoard reads the description up to the
//! first space.

use crate::rules::variants::kagamigi::{self, Kind};

/// The holdings slots XBoard is told about: its board has at most 16 ranks
/// (`BOARD_RANKS` 17 in XBoard 4.9.1, one of them hidden), and holdings taller than the
/// board stretch it ("Recompile to support this BOARD_RANKS" otherwise).
pub const XBOARD_HOLDINGS: usize = 16;

/// The parent variant XBoard takes the rules it does not get from the engine from: shogi
/// (drops of captured pieces, promotion with `+`).
const PARENT: &str = "shogi";

/// The piece-to-char table: white's half then black's.
pub fn piece_to_char() -> String {
    let white = half();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// The kinds that can be dropped, in XBoard's slot order: the first [`XBOARD_HOLDINGS`] get
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

/// The `setup` command: letters, `12x12+16_shogi`, the start position in XBoard's FEN.
pub fn setup_line() -> String {
    let fen = super::game::xboard_fen_of_sfen(kagamigi::notation::START_SFEN, true)
        .expect("the start SFEN converts");
    format!(
        "setup ({}) 12x12+{XBOARD_HOLDINGS}_{PARENT} {fen}",
        piece_to_char()
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
    fn setup_and_pieces_are_single_words_where_xboard_needs_them() {
        let setup = setup_line();
        let words: Vec<&str> = setup.split(' ').collect();
        assert_eq!(words[0], "setup");
        assert!(words[1].starts_with('(') && words[1].ends_with(')'));
        assert_eq!(words[2], "12x12+16_shogi");
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
