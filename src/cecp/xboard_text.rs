//! How XBoard writes the games Shishi plays over CECP: the `variant` names (the registry's
//! CECP names), moves in XBoard coordinates (through [`crate::rules::xboard_moves`],
//! with Chu's jitto as the null move `@@@@`), and XBoard's FEN (holdings in brackets, `w`
//! for sente, the first mover) read into and written from the SFEN the positions speak.
//!
//! Piece letters are the SFEN letters of each game. For shogi and Chu Kagamigi XBoard uses
//! the same ones (shogi's are XBoard's own; Chu Kagamigi's are the ones Shishi announces in
//! its `setup` command); XBoard's Chu letters differ from Shishi's Chu SFEN, so a Chu
//! `setboard` must use Shishi's letters (XBoard sends `setboard` only for set-up positions).

use crate::referee::variant::RefereeGame;
use crate::rules::game::Game;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::notation::GameText;
use crate::rules::variants::Variant;
use crate::rules::xboard_moves::{usi_to_xboard, xboard_to_usi};
use crate::search::game::SearchGame;
use crate::usi::chance::ChanceText;
use crate::usi::position::{with_position, RuleOptions, UsiPosition};

/// The game a CECP `variant` name stands for (`None` for games Shishi does not play here).
pub fn variant_of(name: &str) -> Option<Variant> {
    Variant::from_cecp_name(name)
}

/// The `variants="…"` value of the feature line: the registry's games with a CECP name,
/// standard shogi (the default) first.
pub fn variants_feature() -> String {
    let names: Vec<&str> = Variant::cecp_games()
        .filter_map(|v| v.spec().cecp_name)
        .collect();
    names.join(",")
}

/// Reads a move in XBoard coordinates (or USI text) and checks that it is legal; the null
/// move `@@@@` is a pass where the game has one (Chu's jitto).
pub fn parse_xboard_move(position: &UsiPosition, text: &str) -> Result<Move, String> {
    let usi = xboard_to_usi(text, position.variant().spec().board());
    with_position!(position,
        pos => RefereeGame::parse_move(pos.as_ref(), &usi),
        cpos => cpos.parse_action_text(&usi))
}

/// The XBoard text of a legal move of `position`.
pub fn xboard_move_text(position: &UsiPosition, mv: Move) -> String {
    let board = position.variant().spec().board();
    with_position!(position,
        pos => usi_to_xboard(&GameText::move_text(pos.as_ref(), mv), board, RefereeGame::is_pass(pos.as_ref(), mv)),
        _cpos => format!("{mv:?}"))
}

/// Plays a legal move on a position of any of the games.
pub fn play_move(position: &mut UsiPosition, mv: Move) {
    with_position!(position,
        pos => SearchGame::play(pos.as_mut(), mv),
        cpos => Game::play(cpos.as_mut(), mv)
    );
}

/// The SFEN of an XBoard FEN (`BOARD[HOLDINGS] w|b …`): holdings are repeated letters, `w`
/// (white) is sente. A text that already is an SFEN (side `b`/`w` then hands) is read the
/// same way, since the board fields agree.
pub fn sfen_of_xboard_fen(fen: &str) -> Result<String, String> {
    let mut fields = fen.split_whitespace();
    let first = fields.next().ok_or("empty FEN")?;
    let side_field = fields.next().ok_or("the FEN has no side to move")?;
    let (board, holdings) = match first.split_once('[') {
        Some((board, rest)) => {
            let inside = rest
                .strip_suffix(']')
                .ok_or("the holdings lack their closing ]")?;
            (board, Some(inside))
        }
        None => (first, None),
    };
    let side = match side_field {
        "w" => 'b',
        "b" => 'w',
        other => return Err(format!("side to move {other:?} is neither w nor b")),
    };
    // An SFEN's third field is its hands (or Chu's lion record); keep it when the text had
    // no XBoard holdings.
    let third = match holdings {
        Some(inside) => hands_of_holdings(inside)?,
        None => match fields.next() {
            Some(field) if !field.chars().all(|c| c.is_ascii_digit()) => field.to_string(),
            _ => "-".to_string(),
        },
    };
    Ok(format!("{board} {side} {third} 1"))
}

/// SFEN hands (`2Pn`) from XBoard holdings (`PPn`, or `-` when empty).
fn hands_of_holdings(holdings: &str) -> Result<String, String> {
    let mut counts: Vec<(char, u32)> = Vec::new();
    for c in holdings.chars().filter(|&c| c != '-') {
        if !c.is_ascii_alphabetic() {
            return Err(format!(
                "holdings {holdings:?}: {c:?} is not a piece letter"
            ));
        }
        match counts.iter_mut().find(|(letter, _)| *letter == c) {
            Some((_, n)) => *n += 1,
            None => counts.push((c, 1)),
        }
    }
    if counts.is_empty() {
        return Ok("-".to_string());
    }
    // Sente's pieces (upper case) first, as SFEN writes them.
    counts.sort_by_key(|(c, _)| c.is_ascii_lowercase());
    Ok(counts
        .iter()
        .map(|&(c, n)| {
            if n > 1 {
                format!("{n}{c}")
            } else {
                c.to_string()
            }
        })
        .collect())
}

/// XBoard's FEN of a position given as SFEN (`board side hands move`): `with_holdings`
/// writes the hands in brackets (games with drops).
pub fn xboard_fen_of_sfen(sfen: &str, with_holdings: bool) -> Result<String, String> {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let [board, side, hands, ..] = fields[..] else {
        return Err(format!("SFEN {sfen:?} has fewer than three fields"));
    };
    let side = match side {
        "b" => 'w',
        "w" => 'b',
        other => return Err(format!("SFEN side {other:?} is neither b nor w")),
    };
    if !with_holdings {
        return Ok(format!("{board} {side} 0 1"));
    }
    let mut holdings = String::new();
    let mut count = 0u32;
    for c in hands.chars().filter(|&c| c != '-') {
        if let Some(digit) = c.to_digit(10) {
            count = count * 10 + digit;
        } else {
            holdings.extend(std::iter::repeat_n(c, count.max(1) as usize));
            count = 0;
        }
    }
    if holdings.is_empty() {
        holdings.push('-');
    }
    Ok(format!("{board}[{holdings}] {side} 0 1"))
}

/// The position an XBoard FEN describes in `variant`.
pub fn position_of_xboard_fen(
    fen: &str,
    variant: Variant,
    rules: RuleOptions,
) -> Result<UsiPosition, String> {
    let sfen = sfen_of_xboard_fen(fen)?;
    let words: Vec<&str> = std::iter::once("sfen")
        .chain(sfen.split_whitespace())
        .collect();
    UsiPosition::parse(&words, variant, rules)
}

/// XBoard's FEN of `position` (holdings for the games with drops).
pub fn xboard_fen(position: &UsiPosition) -> String {
    let sfen = with_position!(position, pos => GameText::sfen(pos.as_ref()), _cpos => return String::new());
    xboard_fen_of_sfen(&sfen, position.variant().spec().drops).unwrap_or_default()
}

/// XBoard's name for a side: sente moves first and is "white".
pub fn xboard_color(color: Color) -> &'static str {
    match color {
        Color::Sente => "white",
        Color::Gote => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::{chu, kagamigi, shogi};

    #[test]
    fn start_positions_round_trip_through_xboard_fen() {
        for (variant, sfen, drops) in [
            (Variant::Shogi, shogi::notation::START_SFEN, true),
            (Variant::Chushogi, chu::notation::START_SFEN, false),
            (Variant::Chukagamigi, kagamigi::notation::START_SFEN, true),
        ] {
            let fen = xboard_fen_of_sfen(sfen, drops).unwrap();
            assert!(fen.contains(" w 0 1"), "{fen}");
            assert_eq!(sfen_of_xboard_fen(&fen).unwrap(), sfen);
            let position = position_of_xboard_fen(&fen, variant, RuleOptions::default()).unwrap();
            assert_eq!(xboard_fen(&position), fen);
        }
    }

    #[test]
    fn holdings_become_hands_and_back() {
        let fen = "4k4/9/9/9/9/9/9/9/4K4[PPPRbpp] b 0 1";
        let sfen = sfen_of_xboard_fen(fen).unwrap();
        assert_eq!(sfen, "4k4/9/9/9/9/9/9/9/4K4 w 3PRb2p 1");
        assert_eq!(xboard_fen_of_sfen(&sfen, true).unwrap(), fen);
        let position = position_of_xboard_fen(fen, Variant::Shogi, RuleOptions::default()).unwrap();
        assert_eq!(position.side_to_move(), Color::Gote);
        // Malformed FENs are refused with a reason.
        for bad in ["", "4k4/9/9/9/9/9/9/9/4K4", "x y", "4k4[P b", "4k4[P1] w"] {
            assert!(sfen_of_xboard_fen(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn moves_in_xboard_coordinates() {
        let shogi = UsiPosition::startpos(Variant::Shogi, RuleOptions::default());
        let mv = parse_xboard_move(&shogi, "c3c4").unwrap();
        assert_eq!(xboard_move_text(&shogi, mv), "c3c4");
        assert!(parse_xboard_move(&shogi, "c3c5").is_err());
        assert!(parse_xboard_move(&shogi, "@@@@").is_err());
        let chu = UsiPosition::startpos(Variant::Chushogi, RuleOptions::default());
        let mv = parse_xboard_move(&chu, "h4h5").unwrap();
        assert_eq!(xboard_move_text(&chu, mv), "h4h5");
        assert_eq!(variant_of("CHU"), Some(Variant::Chushogi));
        assert_eq!(variant_of("normal"), None);
        assert_eq!(variants_feature(), "shogi,chu,chukagamigi,minishogi");
    }
}
