//! Opening files: one opening per line, checked with the rules core when loaded.
//!
//! Accepted line forms (`#` starts a comment; blank lines are skipped; a leading
//! `position ` is ignored):
//! * `startpos [moves M1 M2 …]`
//! * `sfen BOARD SIDE HANDS [N] [moves M1 M2 …]`
//! * a bare SFEN (`BOARD SIDE HANDS [N]`)
//! * a bare list of USI moves from the start position (`7g7f 3c3d 2g2f`)

use crate::rules::game::Game;
use crate::rules::variants::shogi::notation::START_SFEN;
use crate::rules::variants::shogi::Position;
use std::path::Path;

/// A start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `None` for the standard start position, else its SFEN.
    pub sfen: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            sfen: None,
            moves: Vec::new(),
        }
    }

    /// The base position (before the opening moves).
    pub fn base_position(&self) -> Position {
        match &self.sfen {
            None => Position::startpos(),
            Some(s) => Position::from_sfen(s).expect("validated when parsed"),
        }
    }

    /// The USI `position` argument of the base: `startpos` or `sfen …`.
    pub fn usi_base(&self) -> String {
        match &self.sfen {
            None => "startpos".into(),
            Some(s) => format!("sfen {s}"),
        }
    }

    /// Whether the base is the standard start position (written either way).
    pub fn starts_from_startpos(&self) -> bool {
        match &self.sfen {
            None => true,
            Some(s) => Position::from_sfen(s)
                .map(|p| p.to_sfen() == START_SFEN)
                .unwrap_or(false),
        }
    }

    /// Parses one line; `Ok(None)` for blank and comment lines.
    pub fn parse_line(line: &str) -> Result<Option<Opening>, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return Ok(None);
        }
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (sfen, rest): (Option<String>, &[&str]) = match tokens[0] {
            "startpos" => (None, &tokens[1..]),
            "sfen" => {
                let end = tokens
                    .iter()
                    .position(|t| *t == "moves")
                    .unwrap_or(tokens.len());
                (Some(tokens[1..end].join(" ")), &tokens[end..])
            }
            first if first.contains('/') => {
                let end = tokens
                    .iter()
                    .position(|t| *t == "moves")
                    .unwrap_or(tokens.len());
                (Some(tokens[..end].join(" ")), &tokens[end..])
            }
            _ => (None, &tokens[..]),
        };
        let moves: Vec<String> = match rest.first() {
            Some(&"moves") => rest[1..].iter().map(|s| s.to_string()).collect(),
            _ if tokens[0] == "startpos" || tokens[0] == "sfen" || tokens[0].contains('/') => {
                if let Some(extra) = rest.first() {
                    return Err(format!("unexpected {extra:?} (expected `moves`)"));
                }
                Vec::new()
            }
            _ => rest.iter().map(|s| s.to_string()).collect(),
        };
        let mut pos = match &sfen {
            None => Position::startpos(),
            Some(s) => Position::from_sfen(s).map_err(|e| e.to_string())?,
        };
        for (i, text) in moves.iter().enumerate() {
            let mv = pos
                .parse_usi_move(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            pos.play(mv);
            if pos.outcome().is_some() {
                return Err(format!("the game is over after move {} ({text})", i + 1));
            }
        }
        if pos.outcome().is_some() {
            return Err("the game is already over in this position".into());
        }
        Ok(Some(Opening { sfen, moves }))
    }
}

/// Reads an opening file; errors name the line.
pub fn load(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match Opening::parse_line(line) {
            Ok(Some(o)) => out.push(o),
            Ok(None) => {}
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), n + 1)),
        }
    }
    if out.is_empty() {
        return Err(format!("{} holds no openings", path.display()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_form() {
        let p = |s: &str| Opening::parse_line(s).unwrap().unwrap();
        assert_eq!(p("7g7f 3c3d").moves, vec!["7g7f", "3c3d"]);
        assert_eq!(p("7g7f 3c3d").sfen, None);
        assert_eq!(p("position startpos moves 2g2f").moves, vec!["2g2f"]);
        assert_eq!(p("startpos").moves.len(), 0);
        let s = p(&format!("sfen {START_SFEN} moves 7g7f"));
        assert_eq!(s.sfen.as_deref(), Some(START_SFEN));
        assert!(s.starts_from_startpos());
        let bare = p("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
        assert!(bare.moves.is_empty() && !bare.starts_from_startpos());
        assert_eq!(
            bare.usi_base(),
            format!("sfen {}", bare.sfen.as_ref().unwrap())
        );
        assert_eq!(Opening::parse_line("  # comment").unwrap(), None);
        assert_eq!(Opening::parse_line("").unwrap(), None);
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        let e = Opening::parse_line("7g7f 7g7f").unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        assert!(Opening::parse_line("sfen garbage b -").is_err());
        assert!(Opening::parse_line("startpos 7g7f").is_err());
        assert!(Opening::parse_line("7g7x").is_err());
    }

    #[test]
    fn the_shipped_opening_file_loads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/openings/shogi.txt");
        let openings = load(&path).unwrap();
        assert!(openings.len() >= 40, "{}", openings.len());
        let distinct: std::collections::HashSet<_> = openings.iter().map(|o| &o.moves).collect();
        assert_eq!(distinct.len(), openings.len(), "duplicate openings");
    }
}
