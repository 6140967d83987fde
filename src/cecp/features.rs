//! What Shishi announces in answer to `protover 2`: the `feature` lines (protocol features,
//! the games, and the engine options, generated from the one option table
//! `usi::options::OPTIONS` as the USI declarations are, plus the CECP-only
//! `XBoardHoldings`), and reading `option NAME=VALUE` back into a USI `setoption`.

use super::kagamigi::HoldingSlots;
use super::xboard_text::variants_feature;
use crate::usi::options::{find_option, OptionKind, OptionSpec, OPTIONS};
use crate::usi::ENGINE_NAME;

/// The `feature` lines, the last one `done=1`.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{ENGINE_NAME}\" variants=\"{}\" setboard=1 usermove=1 san=0 \
         sigint=0 sigterm=0 ping=1 playother=1 time=1 draw=0 reuse=1 analyze=1 colors=0 \
         name=0 nps=0 memory=1 smp=1 highlight=1 exclude=0 debug=1",
        variants_feature()
    )];
    for option in OPTIONS.iter().filter_map(OptionSpec::cecp_line) {
        lines.push(format!("feature option=\"{option}\""));
    }
    lines.push(format!(
        "feature option=\"{}\"",
        HoldingSlots::declaration()
    ));
    lines.push("feature done=1".to_string());
    lines
}

/// Reads the argument of `option NAME=VALUE` (or `option NAME` for a button) as the USI
/// option name and value; check boxes arrive as `1`/`0`.
pub fn parse_option(argument: &str) -> (String, Option<String>) {
    match argument.split_once('=') {
        Some((name, value)) => {
            let name = name.trim().to_string();
            let value = value.trim();
            let is_check =
                find_option(&name).is_some_and(|spec| matches!(spec.kind, OptionKind::Check(_)));
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
