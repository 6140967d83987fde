//! The options an engine offers and whether the `NAME=VALUE` pairs of a match fit them: the
//! USI declarations (`option name USI_Hash type spin default 16 min 1 max 1024`), the CECP
//! ones (`feature option="Allow repeats -check 0"`), the check of each `--optionN` against
//! them (a name the engine lists, a number in its range, a combo value it offers), and
//! which lines an engine prints while it is set up are complaints the user must see
//! (`info string error …`, `No such option: …`, CECP's `Error (…): …`).
//!
//! The referee sends options it cannot check too (an engine may take options it does not
//! list, as Shishi's hidden `Search_…` parameters), and then relies on the engine's own
//! complaint.

use std::fmt;

/// The type and range of one offered option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number from `min` to `max` (either bound may be missing).
    Spin { min: Option<i64>, max: Option<i64> },
    /// USI `true`/`false`, CECP `1`/`0`.
    Check,
    /// One of these values.
    Combo(Vec<String>),
    /// No value (USI `button`, CECP `-button` and `-save`).
    Button,
    /// Any text (USI `string` and `filename`, CECP `-string`, `-file`, `-path`).
    Text,
}

/// The protocol whose spellings an option follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Usi,
    Cecp,
}

/// One option an engine declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferedOption {
    pub name: String,
    pub kind: OptionKind,
    pub dialect: Dialect,
}

impl fmt::Display for OfferedOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bound = |b: Option<i64>| b.map_or_else(|| "?".to_string(), |n| n.to_string());
        match (&self.kind, self.dialect) {
            (OptionKind::Spin { min, max }, _) => {
                write!(f, "a number from {} to {}", bound(*min), bound(*max))
            }
            (OptionKind::Check, Dialect::Usi) => write!(f, "true or false"),
            (OptionKind::Check, Dialect::Cecp) => write!(f, "1 or 0"),
            (OptionKind::Combo(values), _) => write!(f, "one of {}", values.join(", ")),
            (OptionKind::Button, _) => write!(f, "a button"),
            (OptionKind::Text, _) => write!(f, "text"),
        }
    }
}

/// Reads a USI `option name NAME type TYPE [default D] [min A] [max B] [var V]…` line.
pub fn parse_usi_option(line: &str) -> Option<OfferedOption> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let type_at = words.iter().position(|w| *w == "type")?;
    if type_at < 3 {
        return None;
    }
    let name = words[2..type_at].join(" ");
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|n| n.parse::<i64>().ok())
    };
    let kind = match *words.get(type_at + 1)? {
        "spin" => OptionKind::Spin {
            min: after("min"),
            max: after("max"),
        },
        "check" => OptionKind::Check,
        "combo" => OptionKind::Combo(
            words
                .windows(2)
                .filter(|pair| pair[0] == "var")
                .map(|pair| pair[1].to_string())
                .collect(),
        ),
        "button" => OptionKind::Button,
        _ => OptionKind::Text,
    };
    Some(OfferedOption {
        name,
        kind,
        dialect: Dialect::Usi,
    })
}

/// Reads the value of a CECP `feature option="NAME -TYPE …"`: `-spin DEF MIN MAX` (and
/// `-slider`), `-check 0|1`, `-combo *A /// B`, `-button`, `-save`, `-string`, `-file`,
/// `-path`. The name may hold spaces (`Allow repeats -check 0`).
pub fn parse_cecp_option(value: &str) -> Option<OfferedOption> {
    const TYPES: [&str; 9] = [
        "-spin", "-slider", "-check", "-combo", "-button", "-save", "-string", "-file", "-path",
    ];
    let words: Vec<&str> = value.split_whitespace().collect();
    let type_at = words.iter().position(|w| TYPES.contains(w))?;
    if type_at == 0 {
        return None;
    }
    let name = words[..type_at].join(" ");
    let rest = &words[type_at + 1..];
    let number = |i: usize| rest.get(i).and_then(|n| n.parse::<i64>().ok());
    let kind = match words[type_at] {
        "-spin" | "-slider" => OptionKind::Spin {
            min: number(1),
            max: number(2),
        },
        "-check" => OptionKind::Check,
        "-combo" => OptionKind::Combo(
            rest.join(" ")
                .split("///")
                .map(|v| v.trim().trim_start_matches('*').to_string())
                .filter(|v| !v.is_empty())
                .collect(),
        ),
        "-button" | "-save" => OptionKind::Button,
        _ => OptionKind::Text,
    };
    Some(OfferedOption {
        name,
        kind,
        dialect: Dialect::Cecp,
    })
}

/// What the check found for one requested option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The engine lists it and the value fits.
    Listed,
    /// The engine does not list it: it is sent, and only the engine can say whether it
    /// took it.
    Unlisted,
}

/// Options a USI GUI sends whether the engine lists them or not (the USI protocol's own).
const USI_STANDARD: [&str; 2] = ["USI_Hash", "USI_Ponder"];

/// Checks `NAME=VALUE` against the options `offered`: an error says what the engine
/// offers instead.
pub fn check(offered: &[OfferedOption], name: &str, value: &str) -> Result<Fit, String> {
    let option = offered
        .iter()
        .find(|o| o.name == name)
        .or_else(|| offered.iter().find(|o| o.name.eq_ignore_ascii_case(name)));
    let Some(option) = option else {
        return Ok(Fit::Unlisted);
    };
    let value = value.trim();
    let fits = match &option.kind {
        OptionKind::Spin { min, max } => value
            .parse::<i64>()
            .is_ok_and(|n| min.is_none_or(|lo| n >= lo) && max.is_none_or(|hi| n <= hi)),
        OptionKind::Check => match option.dialect {
            Dialect::Usi => {
                value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false")
            }
            Dialect::Cecp => value == "0" || value == "1",
        },
        OptionKind::Combo(values) => values.iter().any(|v| v.eq_ignore_ascii_case(value)),
        OptionKind::Button | OptionKind::Text => true,
    };
    if fits {
        Ok(Fit::Listed)
    } else {
        Err(format!(
            "option {}={value:?} does not fit: the engine's {} is {option}",
            option.name, option.name
        ))
    }
}

/// Checks every requested option; returns the names the engine does not list (and which
/// are not USI's own `USI_Hash`/`USI_Ponder`), or the first misfit.
pub fn check_all(
    offered: &[OfferedOption],
    requested: &[(String, String)],
    dialect: Dialect,
) -> Result<Vec<String>, String> {
    let mut unlisted = Vec::new();
    for (name, value) in requested {
        if check(offered, name, value)? == Fit::Unlisted
            && !(dialect == Dialect::Usi && USI_STANDARD.contains(&name.as_str()))
        {
            unlisted.push(name.clone());
        }
    }
    Ok(unlisted)
}

/// The requested options as `NAME=VALUE` words, separated by spaces (as messages quote them).
pub fn requested_text(requested: &[(String, String)]) -> String {
    let words: Vec<String> = requested
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    words.join(" ")
}

/// The warning for options an engine does not list but took without a complaint.
pub fn unlisted_warning(unlisted: &[String], offered: &[OfferedOption]) -> Option<String> {
    if unlisted.is_empty() {
        return None;
    }
    let listed: Vec<&str> = offered.iter().map(|o| o.name.as_str()).collect();
    Some(format!(
        "the engine does not list the option{} {} (it lists {}); sent anyway, and the engine \
         reported no error",
        if unlisted.len() == 1 { "" } else { "s" },
        unlisted.join(", "),
        if listed.is_empty() {
            "none".to_string()
        } else {
            listed.join(", ")
        }
    ))
}

/// Whether a line an engine printed while being set up (its options, `isready`) is a
/// complaint: USI `info string` lines that say "error", CECP `Error (…)` lines, and the
/// plain `No such option: …` some engines print.
pub fn is_complaint(line: &str) -> bool {
    let t = line.trim();
    let lower = t.to_ascii_lowercase();
    if let Some(text) = lower.strip_prefix("info string") {
        return text.contains("error") || text.contains("no such option");
    }
    if lower.starts_with("info") {
        return false;
    }
    lower.starts_with("error")
        || lower.contains("no such option")
        || lower.contains("unknown option")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usi(lines: &[&str]) -> Vec<OfferedOption> {
        lines.iter().filter_map(|l| parse_usi_option(l)).collect()
    }

    #[test]
    fn usi_declarations_are_read() {
        let offered = usi(&[
            "option name USI_Hash type spin default 16 min 1 max 1048576",
            "option name USI_Ponder type check default false",
            "option name ChuRules type combo default lishogi var lishogi var churul var jcsa",
            "option name Clear Hash type button",
            "option name EvalDir type string default eval",
            "id name x",
        ]);
        assert_eq!(offered.len(), 5);
        assert_eq!(offered[3].name, "Clear Hash");
        assert_eq!(
            offered[0].kind,
            OptionKind::Spin {
                min: Some(1),
                max: Some(1_048_576)
            }
        );
        assert_eq!(check(&offered, "USI_Hash", "256"), Ok(Fit::Listed));
        assert_eq!(check(&offered, "usi_hash", "256"), Ok(Fit::Listed));
        let error = check(&offered, "USI_Hash", "99999999").unwrap_err();
        assert!(error.contains("from 1 to 1048576"), "{error}");
        assert!(check(&offered, "USI_Hash", "lots").is_err());
        assert!(check(&offered, "USI_Ponder", "maybe").is_err());
        assert_eq!(check(&offered, "USI_Ponder", "true"), Ok(Fit::Listed));
        let error = check(&offered, "ChuRules", "edo").unwrap_err();
        assert!(error.contains("one of lishogi, churul, jcsa"), "{error}");
        assert_eq!(
            check(&offered, "EvalDir", "anything at all"),
            Ok(Fit::Listed)
        );
        assert_eq!(check(&offered, "Bogus", "1"), Ok(Fit::Unlisted));
    }

    #[test]
    fn unlisted_names_are_collected_except_the_protocols_own() {
        let offered = usi(&["option name Threads type spin default 1 min 1 max 64"]);
        let requested = [
            ("Threads".to_string(), "2".to_string()),
            ("USI_Hash".to_string(), "64".to_string()),
            ("Bogus".to_string(), "1".to_string()),
        ];
        assert_eq!(
            check_all(&offered, &requested, Dialect::Usi),
            Ok(vec!["Bogus".to_string()])
        );
        assert_eq!(
            check_all(&offered, &requested, Dialect::Cecp),
            Ok(vec!["USI_Hash".to_string(), "Bogus".to_string()])
        );
        let warning = unlisted_warning(&["Bogus".to_string()], &offered).unwrap();
        assert!(
            warning.contains("Bogus") && warning.contains("lists Threads"),
            "{warning}"
        );
    }

    #[test]
    fn cecp_declarations_are_read() {
        let offered: Vec<OfferedOption> = [
            "Allow repeats -check 0",
            "MultiPV -spin 1 1 600",
            "ChuRules -combo *lishogi /// churul /// jcsa",
            "Clear_Hash -button",
            "Book -file book.bin",
            "no type here",
        ]
        .iter()
        .filter_map(|v| parse_cecp_option(v))
        .collect();
        assert_eq!(offered.len(), 5);
        assert_eq!(offered[0].name, "Allow repeats");
        assert_eq!(check(&offered, "Allow repeats", "1"), Ok(Fit::Listed));
        assert!(check(&offered, "Allow repeats", "true").is_err());
        assert!(check(&offered, "MultiPV", "601").is_err());
        assert_eq!(check(&offered, "ChuRules", "churul"), Ok(Fit::Listed));
        assert!(check(&offered, "ChuRules", "*lishogi").is_err());
    }

    #[test]
    fn complaints_are_told_from_chatter() {
        for complaint in [
            "info string error unknown option \"Bogus\" ignored",
            "info string Error! : No such option: Bogus",
            "No such option: Bogus",
            "Error (unknown option): option Bogus=1",
        ] {
            assert!(is_complaint(complaint), "{complaint}");
        }
        for chatter in [
            "readyok",
            "info string hash 16 MiB",
            "info depth 1 score cp 0 pv 7g7f",
            "id name error-prone engine",
        ] {
            assert!(!is_complaint(chatter), "{chatter}");
        }
    }
}
