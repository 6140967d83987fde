//! The documentation the code cites is in the repository: every "RULES.md §x" and every
//! "ruling #n" (or "ambiguity #n", "§6 row n") in the sources, tests, scripts and docs names
//! a section or a row of `docs/RULES.md` that exists, and nothing points at the design notes
//! that live outside the repository.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every text file under the places that cite the docs, this file excepted.
fn citing_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if ["rs", "md", "sh", "py", "mjs"]
                .iter()
                .any(|ext| path.extension().is_some_and(|e| e == *ext))
            {
                out.push(path);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    for dir in ["src", "engine-tests", "scripts", "docs"] {
        walk(&root().join(dir), &mut files);
    }
    files.retain(|p| !p.ends_with("doc_references.rs"));
    files
}

/// The section numbers of `docs/RULES.md` (`2.5.1` from `#### 2.5.1 …`) and the row numbers
/// of its ruling table in §6 (`| 18 | …`).
fn rules_sections_and_rows() -> (BTreeSet<String>, BTreeSet<u32>) {
    let text = std::fs::read_to_string(root().join("docs/RULES.md")).expect("docs/RULES.md");
    let mut sections = BTreeSet::new();
    let mut rows = BTreeSet::new();
    let mut in_register = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix('#') {
            let title = rest.trim_start_matches('#').trim_start();
            let number = title.split([' ', '.']).collect::<Vec<_>>();
            // "2. Chu Shogi" or "2.5.1 Modern …": the leading numeric parts.
            let parts: Vec<&str> = number
                .iter()
                .take_while(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                .copied()
                .collect();
            if !parts.is_empty() {
                in_register = parts == ["6"];
                sections.insert(parts.join("."));
            }
        }
        if let Some(rest) = line.strip_prefix("| ").filter(|_| in_register) {
            if let Some(n) = rest.split(' ').next().and_then(|n| n.parse().ok()) {
                rows.insert(n);
            }
        }
    }
    (sections, rows)
}

/// Reads a section number (`4`, `2.5.1`) at the start of `text`; a final `.` that ends a
/// sentence is not part of it.
fn section_number(text: &str) -> Option<(String, &str)> {
    let mut end = 0;
    let bytes = text.as_bytes();
    while end < bytes.len()
        && (bytes[end].is_ascii_digit()
            || (bytes[end] == b'.' && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)))
    {
        end += 1;
    }
    (end > 0).then(|| (text[..end].to_string(), &text[end..]))
}

/// The sections cited right after each "RULES.md": `§1.5`, `§1.3–1.5`, `§0.2, §0.4`.
fn cited_sections(text: &str) -> Vec<String> {
    let mut cited = Vec::new();
    for (at, _) in text.match_indices("RULES.md") {
        let mut rest = text[at + "RULES.md".len()..].trim_start_matches('`');
        loop {
            rest = rest.trim_start_matches([' ', ',', ';']);
            rest = rest.strip_prefix("and ").unwrap_or(rest);
            let Some(after) = rest.strip_prefix('§') else {
                break;
            };
            let Some((number, after)) = section_number(after) else {
                break;
            };
            cited.push(number);
            rest = after;
            if let Some(range_end) = rest.strip_prefix('–').or_else(|| rest.strip_prefix('-')) {
                if let Some((number, after)) = section_number(range_end) {
                    cited.push(number);
                    rest = after;
                }
            }
        }
    }
    cited
}

/// The ruling rows cited: `ruling #18`, `rulings #26, #28–#31`, `ambiguity #14`,
/// `§6 row 5`, `§6 rows 2–7`.
fn cited_rows(text: &str) -> Vec<u32> {
    let mut cited = Vec::new();
    for key in [
        "ruling #",
        "rulings #",
        "ambiguity #",
        "§6 row ",
        "§6 rows ",
    ] {
        for (at, _) in text.match_indices(key) {
            let rest = &text[at + key.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                cited.push(n);
            }
        }
    }
    cited
}

#[test]
fn every_cited_rules_section_and_ruling_exists() {
    let (sections, rows) = rules_sections_and_rows();
    // The page keeps the numbering the code was written against.
    for expected in ["0.4", "1.7", "2.5.1", "3.5", "4.6", "5.4", "6", "7", "8.3"] {
        assert!(
            sections.contains(expected),
            "§{expected} missing: {sections:?}"
        );
    }
    assert_eq!(rows, (1..=34).collect(), "the ruling table's rows");
    let mut missing = Vec::new();
    let mut citations = 0;
    for path in citing_files() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for section in cited_sections(&text) {
            citations += 1;
            if !sections.contains(&section) {
                missing.push(format!("{}: RULES.md §{section}", path.display()));
            }
        }
        for row in cited_rows(&text) {
            citations += 1;
            if !rows.contains(&row) {
                missing.push(format!("{}: ruling #{row}", path.display()));
            }
        }
    }
    assert!(
        citations > 100,
        "only {citations} citations found: the scan is broken"
    );
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn nothing_points_outside_the_repository() {
    let outside = [
        "protocol.md",
        "chance-search.md",
        "usi-reference.md",
        "../shared",
        "shared/rules",
        "shared/design",
        "shared/tools",
    ];
    let mut found = Vec::new();
    for path in citing_files() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for name in outside {
            if text.contains(name) {
                found.push(format!("{}: {name}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_scanners_read_what_they_should() {
    assert_eq!(
        cited_sections("(RULES.md §1.3–1.5), RULES.md §0.2, §0.4 and §3.2. RULES.md ruling"),
        ["1.3", "1.5", "0.2", "0.4", "3.2"]
    );
    assert_eq!(cited_sections("`docs/RULES.md` §4.5: the draw"), ["4.5"]);
    assert_eq!(
        cited_rows("ruling #18; rulings #26, ambiguity #14 and RULES.md §6 rows 2–7"),
        [18, 26, 14, 2]
    );
}
