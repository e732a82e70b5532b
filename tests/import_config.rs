//! `variant import` over a real configuration: Fairy-Stockfish's own `src/variants.ini`, the
//! file its users start from (about 140 sections).
//!
//! Every section either converts and then agrees with pyffish loaded with the same file (legal
//! moves, positions, check and results along seeded random games, `scripts/crosscheck_fairy.py`),
//! or is refused with its section, line and reason; none is silently dropped. The test prints a
//! summary (sections converted, sections refused with counts per reason) that
//! docs/fairy-stockfish.md quotes.
//!
//! The file is Fairy-Stockfish's, not this project's, so it is not in the repository: the test
//! reads it from `FSF_VARIANTS_INI` (a checkout's `src/variants.ini`) and says SKIPPED without
//! it. It is `#[ignore]`d: the cross-checks replay each game position by position (a few
//! minutes). Run it with
//! `FSF_VARIANTS_INI=.../src/variants.ini cargo test --test import_config -- --ignored --nocapture`.

mod common;

use common::{python_module_or_skip, run_python_script, stderr, stdout, temporary_dir, variant};
use std::collections::BTreeMap;

/// A refusal's reason, shortened to its kind for the summary: the option, piece type, Betza
/// problem or parent that stopped the section.
fn reason_kind(reason: &str) -> String {
    let quoted = |text: &str| text.split('`').nth(1).unwrap_or_default().to_string();
    if reason.starts_with("its parent `") && reason.contains("was refused") {
        "its parent was refused".into()
    } else if reason.starts_with("its parent `") {
        format!("built-in parent `{}` not restated", quoted(reason))
    } else if reason.starts_with("the option `")
        || (reason.starts_with('`') && reason.contains("has no exact equivalent"))
    {
        format!("option `{}`", quoted(reason))
    } else if reason.starts_with("the piece type `") {
        format!("piece type `{}`", quoted(reason))
    } else if reason.starts_with("`customPiece") || reason.starts_with("`king`") {
        let why = reason.split_once(": ").map_or(reason, |(_, why)| why);
        format!(
            "Betza: {}",
            why.split(['(', ':']).next().unwrap_or(why).trim()
        )
    } else if reason.contains("one square or none") {
        "castling with a king move of one square".into()
    } else {
        let line = reason.lines().next().unwrap_or(reason);
        match line.char_indices().nth(80) {
            None => line.to_string(),
            Some((end, _)) => {
                let cut = line[..end].rfind(' ').unwrap_or(end);
                format!("{}…", &line[..cut])
            }
        }
    }
}

#[test]
#[ignore = "slow: cross-checks every converted section of Fairy-Stockfish's variants.ini"]
fn fairy_stockfish_variants_ini_converts_exactly_or_says_why_not() {
    let Some(config) = std::env::var_os("FSF_VARIANTS_INI") else {
        eprintln!(
            "SKIPPED fairy_stockfish_variants_ini: set FSF_VARIANTS_INI to Fairy-Stockfish's \
             src/variants.ini; the import of the real configuration did NOT run"
        );
        return;
    };
    let config = config.to_string_lossy().into_owned();
    let text = std::fs::read_to_string(&config).expect("FSF_VARIANTS_INI is readable");
    let sections: Vec<String> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix('['))
        .filter_map(|header| header.split([']', ':']).next())
        .map(String::from)
        .collect();
    let dir = temporary_dir("import-fsf-config");
    let output = variant(&["import", &config, "--out", dir.to_str().unwrap()]);
    let (out, errors) = (stdout(&output), stderr(&output));
    assert!(!errors.contains("panicked"), "{errors}");
    let written: Vec<String> = out
        .lines()
        .filter_map(|line| line.rsplit_once("([")?.1.strip_suffix("])"))
        .map(String::from)
        .collect();
    let mut reasons: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in errors.lines().filter(|l| l.starts_with("error: ")) {
        let Some((place, reason)) = line.split_once(" not imported: ") else {
            continue;
        };
        // `error: FILE:LINE: [NAME]`: the line and the section are given.
        let name = place.rsplit_once('[').unwrap().1.trim_end_matches(']');
        let line_number = place.rsplit(':').nth(1).unwrap().trim();
        assert!(line_number.parse::<usize>().is_ok(), "{line}");
        reasons
            .entry(reason_kind(reason))
            .or_default()
            .push(name.to_string());
    }
    let refused: usize = reasons.values().map(Vec::len).sum();
    assert_eq!(
        written.len() + refused,
        sections.len(),
        "every section is written or refused\n{out}{errors}"
    );
    assert!(
        out.ends_with(&format!("{} written, {refused} refused\n", written.len())),
        "{out}"
    );
    let mut summary = format!(
        "{} sections: {} converted, {refused} refused\n",
        sections.len(),
        written.len()
    );
    let mut kinds: Vec<_> = reasons.iter().collect();
    kinds.sort_by_key(|(kind, names)| (std::cmp::Reverse(names.len()), kind.to_string()));
    for (kind, names) in kinds {
        summary += &format!("{:3}  {kind}: {}\n", names.len(), names.join(" "));
    }
    println!("{summary}");
    assert!(written.len() >= 64, "{summary}");
    if !python_module_or_skip("fairy_stockfish_variants_ini", "pyffish", "pyffish") {
        return;
    }
    for name in &written {
        let game = dir.join(format!("{name}.variant"));
        let report = run_python_script(
            "scripts/crosscheck_fairy.py",
            &[
                "--config",
                &config,
                "--variant",
                name,
                "--game",
                game.to_str().unwrap(),
                "--games",
                "2",
                "--plies",
                "40",
                "--seed",
                "7",
            ],
        );
        assert!(
            report.contains(&format!("random games agree with Fairy-Stockfish {name}")),
            "{report}"
        );
    }
    println!("{} converted sections agree with pyffish", written.len());
}
