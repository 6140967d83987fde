//! Opening files: one opening per line, checked with the rules core of the match's variant
//! when loaded (every move legal, the game not over).
//!
//! Accepted line forms (`#` starts a comment; blank lines are skipped; a leading
//! `position ` is ignored):
//! * `startpos [moves M1 M2 …]`
//! * `sfen BOARD SIDE HANDS [N] [moves M1 M2 …]`
//! * a bare SFEN (`BOARD SIDE HANDS [N]`)
//! * a bare list of USI moves from the start position (`7g7f 3c3d 2g2f`, Chu `6i5h4g`)

use super::variant::{with_referee_game, RefereeGame};
use crate::rules::variants::GameChoice;
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

    /// The base position (before the opening moves) under `variant`'s rules.
    pub fn base_position<G: RefereeGame>(&self, variant: GameChoice) -> Result<G, String> {
        match &self.sfen {
            None => Ok(G::start(variant)),
            Some(s) => G::from_sfen(s, variant),
        }
    }

    /// The USI `position` argument of the base: `startpos` or `sfen …`.
    pub fn usi_base(&self) -> String {
        match &self.sfen {
            None => "startpos".into(),
            Some(s) => format!("sfen {s}"),
        }
    }

    /// Whether the base is `variant`'s start position (written either way).
    pub fn starts_from_startpos(&self, variant: GameChoice) -> bool {
        fn sfen_of<G: RefereeGame>(text: &str, variant: GameChoice) -> Option<String> {
            G::from_sfen(text, variant).ok().map(|p| p.sfen())
        }
        match &self.sfen {
            None => true,
            Some(s) => {
                let written = with_referee_game!(variant.variant, G => sfen_of::<G>(s, variant));
                written.as_deref() == Some(variant.start_sfen())
            }
        }
    }

    /// Checks the opening with `G`'s rules: every move legal, the game not over.
    fn check<G: RefereeGame>(&self, variant: GameChoice) -> Result<(), String> {
        let mut pos: G = self.base_position(variant)?;
        for (i, text) in self.moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            pos.play(mv);
            if pos.outcome().is_some() {
                return Err(format!("the game is over after move {} ({text})", i + 1));
            }
        }
        if pos.outcome().is_some() {
            return Err("the game is already over in this position".into());
        }
        Ok(())
    }

    /// Parses one line of a `variant` opening file; `Ok(None)` for blank and comment lines.
    pub fn parse_line(line: &str, variant: GameChoice) -> Result<Option<Opening>, String> {
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
        let opening = Opening { sfen, moves };
        with_referee_game!(variant.variant, G => opening.check::<G>(variant))?;
        Ok(Some(opening))
    }
}

/// Reads a `variant` opening file; errors name the line.
pub fn load(path: &Path, variant: GameChoice) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match Opening::parse_line(line, variant) {
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
    use crate::rules::variants::chu::ChuRules;
    use crate::rules::variants::shogi::notation::START_SFEN;
    use crate::rules::variants::Variant;

    fn shogi() -> GameChoice {
        Variant::Shogi.into()
    }
    fn chu() -> GameChoice {
        GameChoice::chu(ChuRules::Lishogi)
    }

    #[test]
    fn every_line_form() {
        let p = |s: &str| Opening::parse_line(s, shogi()).unwrap().unwrap();
        assert_eq!(p("7g7f 3c3d").moves, vec!["7g7f", "3c3d"]);
        assert_eq!(p("7g7f 3c3d").sfen, None);
        assert_eq!(p("position startpos moves 2g2f").moves, vec!["2g2f"]);
        assert_eq!(p("startpos").moves.len(), 0);
        let s = p(&format!("sfen {START_SFEN} moves 7g7f"));
        assert_eq!(s.sfen.as_deref(), Some(START_SFEN));
        assert!(s.starts_from_startpos(shogi()));
        let bare = p("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
        assert!(bare.moves.is_empty() && !bare.starts_from_startpos(shogi()));
        assert_eq!(
            bare.usi_base(),
            format!("sfen {}", bare.sfen.as_ref().unwrap())
        );
        assert_eq!(Opening::parse_line("  # comment", shogi()).unwrap(), None);
        assert_eq!(Opening::parse_line("", shogi()).unwrap(), None);
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        let e = Opening::parse_line("7g7f 7g7f", shogi()).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        assert!(Opening::parse_line("sfen garbage b -", shogi()).is_err());
        assert!(Opening::parse_line("startpos 7g7f", shogi()).is_err());
        assert!(Opening::parse_line("7g7x", shogi()).is_err());
    }

    #[test]
    fn chu_openings_are_checked_with_the_chu_rules() {
        let o = Opening::parse_line("5i5h 8d8e 7j7h", chu())
            .unwrap()
            .unwrap();
        assert_eq!(o.moves.len(), 3);
        assert!(o.starts_from_startpos(chu()));
        let e = Opening::parse_line("5i5h 5i5h", chu()).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        // A shogi move list is not a Chu opening, and a Chu SFEN is not a shogi one.
        assert!(Opening::parse_line("7g7f", chu()).is_err());
        let chu_start = format!("sfen {}", chu().start_sfen());
        assert!(Opening::parse_line(&chu_start, shogi()).is_err());
        assert!(Opening::parse_line(&chu_start, chu())
            .unwrap()
            .unwrap()
            .starts_from_startpos(chu()));
    }

    /// Every opening file the repository ships loads for its game (named by the file's
    /// first word: `chushogi…`, `chukagamigi…`, else standard shogi): every move legal, no
    /// line twice.
    #[test]
    fn every_shipped_opening_file_loads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/openings");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let variant = if name.starts_with("chushogi") {
                chu()
            } else if name.starts_with("chukagamigi") {
                Variant::Chukagamigi.into()
            } else {
                shogi()
            };
            let openings = load(&path, variant).unwrap();
            assert!(openings.len() >= 40, "{name}: {}", openings.len());
            let distinct: std::collections::HashSet<_> =
                openings.iter().map(|o| (&o.sfen, &o.moves)).collect();
            assert_eq!(distinct.len(), openings.len(), "{name}: duplicate openings");
            files += 1;
        }
        assert!(files >= 6, "{files}");
    }
}
