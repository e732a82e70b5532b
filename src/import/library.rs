//! Children of Fairy-Stockfish's built-in variants whose game ships in the library (`games/`).
//!
//! Most of Fairy-Stockfish's built-in variants are not restated as options ([`super::builtin`]):
//! their rules use options import does not write (racing kings' `flagMove`, placement's
//! `mustDrop`, xiangqi's palaces and chasing). Their games are in the library, written by hand
//! and checked against Fairy-Stockfish (`tests/library.rs`, on the data in `tests/fsf/`). A
//! section `[name:racingkings]` is therefore written as `extends "racingkings"`, the library game,
//! with the child's options stated on top of it; an option whose effect on the parent's rules
//! import cannot state exactly is refused, as everywhere else. Only the few options that add to
//! a library game without reading its rules are stated: `mustCapture` (one more line in the
//! parent's `moves` block) and `startFen` (`setup`).

use super::ini::{Section, Setting};
use super::rules::{is_cosmetic, Refusal};
use std::fmt::Write;
use variant_dsl::ast::{DropsItem, Statement};

/// The library games that agree with Fairy-Stockfish's built-in variant of the same name on
/// every test of `tests/library.rs`, with no ruling that differs by design (shogi's and
/// minishogi's mating pawn drop does: they are left out). Those import restates as options
/// (`crazyhouse`, `atomic`, ...) are taken from [`super::builtin`] first.
const LIBRARY_PARENTS: [&str; 22] = [
    "knightmate",
    "gothic",
    "amazon",
    "berolina",
    "courier",
    "chaturanga",
    "newzealand",
    "hoppelpoppel",
    "torpedo",
    "horde",
    "racingkings",
    "seirawan",
    "placement",
    "ataxx",
    "spartan",
    "duck",
    "grasshopper",
    "xiangqi",
    "minixiangqi",
    "janggi",
    "dobutsu",
    "sittuyin",
];

/// The options stated on top of a library game.
const STATED: &str = "mustCapture, startFen and display options";

/// The library games a section may name as its parent, for messages.
pub fn parents() -> Vec<&'static str> {
    LIBRARY_PARENTS
        .iter()
        .copied()
        .filter(|name| parent_text(name).is_some())
        .collect()
}

/// The shipped text of the library game `name`, when it is a library parent.
pub fn parent_text(name: &str) -> Option<&'static str> {
    if !LIBRARY_PARENTS.contains(&name) {
        return None;
    }
    let file = format!("{name}.variant");
    crate::catalog::BUILTIN_GAMES
        .iter()
        .find(|(file_name, _)| *file_name == file)
        .map(|(_, text)| *text)
}

/// The text of the `.variant` file for the last section of `chain`, whose first section's parent
/// is the library game `parent`: `extends` it, then each section's options in turn.
pub fn variant_text(parent: &str, chain: &[&Section], source: &str) -> Result<String, Refusal> {
    let library = parent_text(parent).ok_or_else(|| Refusal {
        line: chain.first().map_or(0, |s| s.line),
        reason: format!("`{parent}` is not a library game"),
    })?;
    let mut must_capture = None;
    let mut start_fen = None;
    for section in chain {
        for setting in &section.settings {
            match setting.key.as_str() {
                key if is_cosmetic(key) => {}
                "mustCapture" => must_capture = Some(boolean(setting)?),
                "startFen" => start_fen = Some(setting.value.clone()),
                key => {
                    return Err(Refusal {
                        line: setting.line,
                        reason: format!(
                            "the option `{key}` on the built-in parent `{parent}` (restated from the library's games/{parent}.variant): import states only {STATED} on top of a library game, not their effect on its rules"
                        ),
                    })
                }
            }
        }
    }
    let Some(last) = chain.last() else {
        return Err(Refusal {
            line: 0,
            reason: "no section".into(),
        });
    };
    let refuse = |reason: String| Refusal {
        line: last.line,
        reason,
    };
    let file = variant_dsl::parse::parse(variant_dsl::FileId(0), library)
        .map_err(|_| refuse(format!("the library's {parent}.variant does not parse")))?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Imported by `variant import` from section [{}] of {source}.",
        last.name
    );
    let _ = writeln!(
        out,
        "// Fairy-Stockfish's built-in `{parent}` is the library's games/{parent}.variant, which agrees\n// with it (tests/library.rs); docs/fairy-stockfish.md says how each option maps."
    );
    let _ = writeln!(out, "extends \"{parent}\"");
    let _ = writeln!(out, "game \"{}\"", last.name);
    if let Some(fen) = start_fen {
        let _ = writeln!(out, "setup \"{}\"", setup_fen(&fen, library));
    }
    let parent_rules = move_rules(&file, library);
    let has_must_capture = file.statements.iter().any(|s| {
        matches!(&s.node, Statement::MoveRules(block)
            if block.items.iter().any(|item| matches!(item.node, DropsItem::Obligation(_))))
    });
    match must_capture {
        Some(true) if !has_must_capture => {
            let mut lines = parent_rules;
            lines.push("must capture when a capture is possible".into());
            out.push_str("moves {\n");
            for line in lines {
                let _ = writeln!(out, "    {line}");
            }
            out.push_str("}\n");
        }
        Some(false) if has_must_capture => {
            return Err(refuse(format!(
                "`mustCapture = false` on `{parent}`, whose captures are compulsory: not mapped"
            )))
        }
        _ => {}
    }
    Ok(out)
}

/// The items of the library game's `moves` block, as written.
fn move_rules(file: &variant_dsl::GameFile, text: &str) -> Vec<String> {
    file.statements
        .iter()
        .filter_map(|statement| match &statement.node {
            Statement::MoveRules(block) => Some(block),
            _ => None,
        })
        .flat_map(|block| &block.items)
        .filter_map(|item| text.get(item.span.start..item.span.end))
        .map(|item| item.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|item| item.replace(" \\ ", " "))
        .collect()
}

/// The start FEN, with `[]` where the library game has hands and the FEN none.
fn setup_fen(fen: &str, library: &str) -> String {
    let hands = library
        .lines()
        .any(|line| line.trim_start().starts_with("setup \"") && line.contains('['));
    // Completed as Fairy-Stockfish reads a short FEN.
    let mut words = super::write::complete_fen(fen);
    if let Some(board) = words.first_mut() {
        if hands && !board.contains('[') {
            board.push_str("[]");
        }
    }
    words.join(" ").replace('"', "")
}

fn boolean(setting: &Setting) -> Result<bool, Refusal> {
    match setting.value.as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Refusal {
            line: setting.line,
            reason: format!("`{other}` is not `true` or `false`"),
        }),
    }
}
