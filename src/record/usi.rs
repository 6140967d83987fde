//! The `.usi` reader: the records `shishi match` writes for every game (`# variant: …`
//! among the `#` comment lines, the players as `# sente: …`/`# gote: …`, then the
//! `position startpos|sfen … moves …` line). A file without a `# variant:` line is read
//! as standard shogi.

use super::RecordedGame;
use crate::rules::variants::chu::ChuRules;
use crate::rules::variants::Variant;

/// Reads one `.usi` record.
pub fn read(text: &str) -> Result<RecordedGame, String> {
    if text.trim().is_empty() {
        return Err("USI record: the file is empty, not a game record".to_string());
    }
    let mut variant = Variant::Shogi;
    let mut players: [Option<String>; 2] = [None, None];
    let mut chu_rules = None;
    let mut position: Option<(usize, &str)> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim();
            if let Some(name) = comment.strip_prefix("variant:") {
                // `# variant: chushogi (rules jcsa)`: the first word names the game.
                let mut words = name.split_whitespace();
                let name = words.next().unwrap_or("");
                // `chushogi (ChuRules jcsa)`
                if let Some(rule) = words.nth(1).map(|w| w.trim_end_matches(')')) {
                    chu_rules = Some(ChuRules::from_name(rule).ok_or_else(|| {
                        format!("USI record line {}: unknown ChuRules {rule:?}", index + 1)
                    })?);
                }
                variant = Variant::from_name(name).ok_or_else(|| {
                    format!("USI record line {}: unknown variant {name:?}", index + 1)
                })?;
            } else if let Some(name) = comment.strip_prefix("sente:") {
                players[0] = Some(name.trim().to_string());
            } else if let Some(name) = comment.strip_prefix("gote:") {
                players[1] = Some(name.trim().to_string());
            }
        } else if line.starts_with("position") {
            position = Some((index + 1, line));
        } else if !line.is_empty() {
            return Err(format!(
                "USI record line {}: expected a # comment or a position line: not a game \
                 record",
                index + 1
            ));
        }
    }
    let (line, text) = position.ok_or("USI record: no `position` line: not a game record")?;
    let words: Vec<&str> = text.split_whitespace().skip(1).collect();
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let start_sfen = match setup {
        ["startpos"] => None,
        ["sfen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        _ => {
            return Err(format!(
                "USI record line {line}: expected `position startpos` or `position sfen …`"
            ))
        }
    };
    Ok(RecordedGame {
        variant,
        start_sfen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
        players,
        chu_rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_record() {
        let text = "# written by shishi match\n# variant: shogammon\n# sente: a\n# gote: b\n#    1. r:61 5 ms\nposition startpos moves r:61 7g7f 5i4h\n";
        let game = read(text).unwrap();
        assert_eq!(game.variant, Variant::Shogammon);
        assert_eq!(game.moves, ["r:61", "7g7f", "5i4h"]);
        assert_eq!(game.players[0].as_deref(), Some("a"));
        let chu = read("# variant: chushogi (ChuRules jcsa)\nposition startpos\n").unwrap();
        assert_eq!(chu.chu_rules, Some(ChuRules::Jcsa));
    }

    #[test]
    fn malformed_records_are_errors() {
        assert!(read("").is_err());
        assert!(read("# variant: go\nposition startpos\n").is_err());
        assert!(read("position fen x\n").is_err());
        assert!(read("hello\nposition startpos\n").is_err());
    }
}
