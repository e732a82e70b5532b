//! `variant import`: Fairy-Stockfish variant configurations (`variants.ini`) turned into
//! `.variant` files.
//!
//! Each section becomes one file named as the section, stated whole (no `extends`), written only
//! when every option of the section and of its parents has an exact equivalent in the language;
//! otherwise the section is refused with `file:line` and the reason, and nothing is written for
//! it: an imported game plays as Fairy-Stockfish plays it, or is not imported. Every file is
//! loaded and compiled as `variant check` would before it is written, so a written file is a
//! valid game. The flow: [`ini`] reads sections, [`rules`] applies each inheritance chain to
//! Fairy-Stockfish's template or a built-in variant ([`builtin`]) or a library game ([`library`]), [`betza`] converts piece movements, [`royal`] says which pieces are royal and what a capture blows up, [`promotion`] writes shogi's promotion, [`write`] states the rules in
//! the language.

mod betza;
mod builtin;
mod ini;
mod library;
mod promotion;
mod royal;
mod rules;
mod write;

use crate::Failure;
use rules::{Refusal, Rules};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One section's outcome.
enum Outcome {
    Written(PathBuf),
    Refused { line: usize, reason: String },
}

/// Imports every section of `config` into `out` (created if needed). Exit 1 when a section was
/// refused.
pub fn run(config: &Path, out: &Path, force: bool) -> Result<ExitCode, Failure> {
    let text = read_config(config)?;
    let sections = ini::parse(&text)
        .map_err(|e| Failure::Message(format!("{}:{}: {}", config.display(), e.line, e.reason)))?;
    if sections.is_empty() {
        return Err(Failure::Message(format!(
            "{}: no `[section]`: not a Fairy-Stockfish variant configuration",
            config.display()
        )));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| Failure::Message(format!("cannot create {}: {e}", out.display())))?;
    let source = config.file_name().map_or_else(
        || config.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut resolved: BTreeMap<String, Option<Base>> = BTreeMap::new();
    let (mut written, mut refused) = (0, 0);
    for section in &sections {
        let outcome = import_section(section, &resolved, &source, out, force);
        let rules = resolve(section, &resolved);
        resolved.entry(section.name.clone()).or_insert(rules.ok());
        match outcome {
            Outcome::Written(path) => {
                written += 1;
                println!("wrote {} ([{}])", path.display(), section.name);
            }
            Outcome::Refused { line, reason } => {
                refused += 1;
                eprintln!(
                    "error: {}:{line}: [{}] not imported: {reason}",
                    config.display(),
                    section.name
                );
            }
        }
    }
    println!("{written} written, {refused} refused");
    Ok(if refused == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The configuration's text; a missing file, a directory, a file too large or not UTF-8 is an
/// error that says so.
fn read_config(path: &Path) -> Result<String, Failure> {
    let shown = path.display();
    let metadata = std::fs::metadata(path)
        .map_err(|e| Failure::Message(format!("cannot read {shown}: {e}")))?;
    if !metadata.is_file() {
        return Err(Failure::Message(format!("{shown} is not a regular file")));
    }
    if metadata.len() > ini::MAX_BYTES {
        return Err(Failure::Message(format!(
            "{shown} is {} bytes: a variant configuration is at most {} bytes",
            metadata.len(),
            ini::MAX_BYTES
        )));
    }
    let bytes =
        std::fs::read(path).map_err(|e| Failure::Message(format!("cannot read {shown}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::Message(format!(
            "{shown} is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A section's rules as import states them (`None` in the map of sections read: refused): options applied to Fairy-Stockfish's template or a
/// restated built-in ([`Rules`]), or a library game with the chain of sections on top of it.
enum Base {
    Rules(Box<Rules>),
    Library {
        parent: String,
        chain: Vec<ini::Section>,
    },
}

/// The rules of a section: its parent's (a section above it, a built-in variant import
/// restates, or a library game), then its own options.
fn resolve(section: &ini::Section, done: &BTreeMap<String, Option<Base>>) -> Result<Base, Refusal> {
    let refuse = |reason: String| Refusal {
        line: section.line,
        reason,
    };
    if done.contains_key(&section.name) {
        return Err(refuse(format!(
            "a second section `{}`: Fairy-Stockfish keeps the first and ignores this one",
            section.name
        )));
    }
    if builtin::is_builtin(&section.name) {
        return Err(refuse(format!(
            "`{}` is a built-in Fairy-Stockfish variant: it refuses to redefine it",
            section.name
        )));
    }
    let mut rules = match section.parent.as_deref() {
        None => Rules::template(),
        Some(parent) if parent == section.name => {
            return Err(refuse(format!("`{parent}` inherits from itself")));
        }
        Some(parent) => match (done.get(parent), builtin::rules(parent)) {
            (Some(Some(Base::Rules(rules))), _) => (**rules).clone(),
            (Some(Some(Base::Library { parent, chain })), _) => {
                let mut chain = chain.clone();
                chain.push(section.clone());
                return Ok(Base::Library {
                    parent: parent.clone(),
                    chain,
                });
            }
            (Some(None), _) => {
                return Err(refuse(format!("its parent `{parent}` was refused")))
            }
            (None, Some(rules)) => rules,
            (None, None) if library::parent_text(parent).is_some() => {
                return Ok(Base::Library {
                    parent: parent.to_string(),
                    chain: vec![section.clone()],
                })
            }
            (None, None) if builtin::is_builtin(parent) => return Err(refuse(format!(
                "its parent `{parent}` is a built-in Fairy-Stockfish variant import does not restate (it restates {}, and extends the library games {}): its rules need options import refuses",
                builtin::restated().join(", "),
                library::parents().join(", ")
            ))),
            (None, None) => return Err(refuse(format!(
                "unknown parent `{parent}`: not a section above this one, nor a built-in Fairy-Stockfish variant"
            ))),
        },
    };
    rules.apply(section)?;
    Ok(Base::Rules(Box::new(rules)))
}

fn import_section(
    section: &ini::Section,
    done: &BTreeMap<String, Option<Base>>,
    source: &str,
    out: &Path,
    force: bool,
) -> Outcome {
    let refused = |r: Refusal| Outcome::Refused {
        line: r.line,
        reason: r.reason,
    };
    let text = match resolve(section, done) {
        Ok(Base::Rules(rules)) => write::variant_text(&section.name, source, &rules, section.line),
        Ok(Base::Library { parent, chain }) => {
            let chain: Vec<&ini::Section> = chain.iter().collect();
            library::variant_text(&parent, &chain, source)
        }
        Err(refusal) => Err(refusal),
    };
    let text = match text {
        Ok(text) => text,
        Err(refusal) => return refused(refusal),
    };
    if let Err(reason) = validate(&section.name, &text) {
        return refused(Refusal {
            line: section.line,
            reason,
        });
    }
    let path = out.join(format!("{}.variant", section.name));
    if !force && std::fs::symlink_metadata(&path).is_ok() {
        return refused(Refusal {
            line: section.line,
            reason: format!(
                "{} exists: it is replaced only with --force",
                path.display()
            ),
        });
    }
    match std::fs::write(&path, text) {
        Ok(()) => Outcome::Written(path),
        Err(e) => refused(Refusal {
            line: section.line,
            reason: format!("cannot write {}: {e}", path.display()),
        }),
    }
}

/// Loads and compiles the text as `variant check` does.
fn validate(name: &str, text: &str) -> Result<(), String> {
    // A library parent (`extends "racingkings"`) is the shipped game, as import read it.
    let options = variant_dsl::LoadOptions::default().with_builtin(
        crate::catalog::BUILTIN_GAMES
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string())),
    );
    let loaded = variant_dsl::load_source_with(&format!("{name}.variant"), text, &options)
        .map_err(|failure| {
            format!(
                "the language refuses the translation:\n{}",
                failure.render()
            )
        })?;
    variant_interpreter::open(&loaded.definition, None)
        .map(|_| ())
        .map_err(|e| format!("the translation does not compile: {e}"))
}
