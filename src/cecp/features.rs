//! What Shishi announces in answer to `protover 2`: the `feature` lines (protocol features,
//! the games, and the engine options, translated from the USI option declarations so that
//! each option is declared once, plus the CECP-only `XBoardHoldings`), and reading
//! `option NAME=VALUE` back into a USI `setoption`.

use super::kagamigi::HoldingSlots;
use super::xboard_text::variants_feature;
use crate::usi::options::{declarations, is_book_option};
use crate::usi::ENGINE_NAME;

/// USI options that CECP sets with commands of its own (`memory`, `cores`, `variant`,
/// `hard`/`easy`) or that mean nothing here.
const NOT_OFFERED: &[&str] = &[
    "USI_Hash",
    "Threads",
    "USI_Variant",
    "USI_Ponder",
    "ShogammonDice",
    "ChanceAlgorithm",
];

/// The `feature` lines, the last one `done=1`.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{ENGINE_NAME}\" variants=\"{}\" setboard=1 usermove=1 san=0 \
         sigint=0 sigterm=0 ping=1 playother=1 time=1 draw=0 reuse=1 analyze=1 colors=0 \
         name=0 nps=0 memory=1 smp=1 highlight=1 exclude=0 debug=1",
        variants_feature()
    )];
    for declaration in declarations() {
        if let Some(option) = cecp_option(declaration) {
            lines.push(format!("feature option=\"{option}\""));
        }
    }
    lines.push(format!(
        "feature option=\"{}\"",
        HoldingSlots::declaration()
    ));
    lines.push("feature done=1".to_string());
    lines
}

/// The CECP form of one USI option declaration (`NAME -spin DEF MIN MAX`, `NAME -check
/// 0|1`, `NAME -combo *DEF /// OTHER`, `NAME -button`, `NAME -path DEF` for a folder and
/// `NAME -file DEF` for a file), or `None` when not offered.
fn cecp_option(declaration: &str) -> Option<String> {
    let words: Vec<&str> = declaration.split_whitespace().collect();
    let name = *words.get(2)?;
    if NOT_OFFERED.contains(&name) || is_book_option(name) {
        return None;
    }
    let value_after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1).copied())
    };
    let default = value_after("default");
    Some(match value_after("type")? {
        "spin" => format!(
            "{name} -spin {} {} {}",
            default?,
            value_after("min")?,
            value_after("max")?
        ),
        "check" => format!("{name} -check {}", if default? == "true" { 1 } else { 0 }),
        "combo" => {
            let choices: Vec<String> = words
                .windows(2)
                .filter(|pair| pair[0] == "var")
                .map(|pair| {
                    if Some(pair[1]) == default {
                        format!("*{}", pair[1])
                    } else {
                        pair[1].to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
        "button" => format!("{name} -button"),
        // A folder or a file: XBoard offers a chooser for `-path` and `-file`.
        "string" => {
            let default = default.filter(|d| *d != "<empty>").unwrap_or("");
            let kind = if name.ends_with("Dir") {
                "path"
            } else {
                "file"
            };
            format!("{name} -{kind} {default}")
        }
        _ => return None,
    })
}

/// Reads the argument of `option NAME=VALUE` (or `option NAME` for a button) as the USI
/// option name and value; check boxes arrive as `1`/`0`.
pub fn parse_option(argument: &str) -> (String, Option<String>) {
    match argument.split_once('=') {
        Some((name, value)) => {
            let name = name.trim().to_string();
            let value = value.trim();
            let is_check = declarations()
                .iter()
                .any(|d| d.contains(&format!(" name {name} type check")));
            let value = match (is_check, value) {
                (true, "1") => "true",
                (true, "0") => "false",
                _ => value,
            };
            (name, Some(value.to_string()))
        }
        None => (argument.trim().to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_translated_from_the_usi_declarations() {
        let lines = feature_lines();
        assert!(lines[0].contains("variants=\"shogi,chu,chukagamigi,minishogi\""));
        assert_eq!(lines.last().unwrap(), "feature done=1");
        let all = lines.join("\n");
        assert!(
            all.contains("feature option=\"MultiPV -spin 1 1 600\""),
            "{all}"
        );
        assert!(all.contains("option=\"ChuRules -combo *lishogi /// churul /// jcsa\""));
        assert!(all.contains("option=\"Clear_Hash -button\""));
        assert!(all.contains("option=\"EvalDir -path <builtin>\""), "{all}");
        assert!(all.contains("option=\"EvalFile -file \""), "{all}");
        assert!(!all.contains("USI_Hash"));
        assert!(all.contains("feature option=\"XBoardHoldings -spin 16 16 24\""));
    }

    #[test]
    fn option_commands_read_back() {
        assert_eq!(
            parse_option("MultiPV=3"),
            ("MultiPV".to_string(), Some("3".to_string()))
        );
        assert_eq!(parse_option("Clear_Hash"), ("Clear_Hash".to_string(), None));
    }
}
