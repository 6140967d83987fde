//! The KIF and CSA readers (`shishi::record`) on damaged input: whatever is inserted,
//! deleted or replaced in a valid record, reading returns a game or an error that names
//! the format, and never panics. Valid records read back with every move.

use proptest::prelude::*;
use shishi::record::read_text;

const KIF: &str = "# KIF\n開始日時：2026/01/01\n手合割：平手\n先手：Shishi\n後手：Other\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n**評価値=30\n   3 ２二角成(88)   ( 0:01/00:00:02)\n   4 同　銀(31)   ( 0:01/00:00:02)\n   5 ４五角打   ( 0:01/00:00:03)\n   6 投了   ( 0:01/00:00:03)\nまで5手で先手の勝ち\n";

const KIF_BOARD: &str = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金　歩二\n後手番\n手数----指手---------消費時間--\n   1 ４一玉(51)\n   2 ５二金打\n";

const CSA: &str =
    "V2.2\nN+Shishi\nN-Other\nPI\n+\n+7776FU\nT1\n-3334FU\n+8822UM,T0\n-3122GI\n+0045KA\n%TORYO\n";

const CSA_BOARD: &str = "P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\n+\n+0042KI\n";

/// One edit of a text, at a character index taken modulo its length.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    /// Cut the text at this point.
    Truncate(usize),
    /// Swap two lines.
    SwapLines(usize, usize),
}

/// Characters that matter to the readers, and some that do not.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('同'),
        Just('成'),
        Just('打'),
        Just('('),
        Just(')'),
        Just('|'),
        Just('：'),
        Just('+'),
        Just('-'),
        Just(','),
        Just('%'),
        Just('\n'),
        Just(' '),
        Just('　'),
        Just('0'),
        Just('9'),
        Just('v'),
        Just('P'),
        Just('*'),
        any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let n = chars.len().max(1);
        match *edit {
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::Delete(i) if !chars.is_empty() => {
                chars.remove(i % n);
            }
            Edit::Replace(i, c) if !chars.is_empty() => chars[i % n] = c,
            Edit::Truncate(i) => chars.truncate(i % n),
            Edit::SwapLines(a, b) => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let len = lines.len();
                lines.swap(a % len, b % len);
                chars = lines.join("\n").chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Reads `text` as `name` and checks the answer's shape.
fn read_checked(name: &str, text: &str, prefix: &str) -> Result<(), TestCaseError> {
    match read_text(name, text) {
        Ok(game) => {
            prop_assert!(game.moves.iter().all(|m| !m.is_empty()));
        }
        Err(message) => {
            prop_assert!(message.starts_with(prefix), "{message}");
            prop_assert!(!message.contains('\n'), "{message}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn damaged_kif_never_panics(edits in proptest::collection::vec(edit(), 1..6), board in any::<bool>()) {
        let base = if board { KIF_BOARD } else { KIF };
        read_checked("game.kifu", &apply(base, &edits), "KIF")?;
    }

    #[test]
    fn damaged_csa_never_panics(edits in proptest::collection::vec(edit(), 1..6), board in any::<bool>()) {
        let base = if board { CSA_BOARD } else { CSA };
        read_checked("game.csa", &apply(base, &edits), "CSA")?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        read_checked("x.kifu", &text, "KIF")?;
        read_checked("x.csa", &text, "CSA")?;
    }
}

#[test]
fn the_undamaged_records_read_every_move() {
    for (name, text, moves) in [
        ("a.kifu", KIF, 5),
        ("b.kifu", KIF_BOARD, 2),
        ("a.csa", CSA, 5),
        ("b.csa", CSA_BOARD, 1),
    ] {
        let game = read_text(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.moves.len(), moves, "{name}");
    }
}

/// A game of `shishi match` exported by cshogi's KIF and CSA exporters (`cshogi.KIF.Exporter`,
/// `cshogi.CSA.Exporter`; the KIF converted from Shift_JIS to UTF-8): both read back with the
/// same 65 moves as the match's own `.usi` record.
#[test]
fn cshogi_exports_read_back_as_the_match_record() {
    let fixture = |name: &str| {
        let path = format!(
            "{}/engine-tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        shishi::record::read_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let usi = fixture("match_game.usi");
    assert_eq!(usi.moves.len(), 65);
    for name in ["cshogi_export.kifu", "cshogi_export.csa"] {
        let game = fixture(name);
        assert_eq!(game.moves, usi.moves, "{name}");
        assert_eq!(game.start_sfen, None, "{name}");
    }
}
