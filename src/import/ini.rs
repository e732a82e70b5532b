//! Reading a Fairy-Stockfish variant configuration (its `variants.ini` format) into sections of
//! `key = value` options, each with the line it is written on, so that every refusal can point
//! at `file:line`.
//!
//! The format is Fairy-Stockfish's own reader's: text before the first `[` is ignored; a section
//! opens with `[name]` or `[name:parent]`; a line starting with `#` or `;` is a comment; an
//! option is `key = value` (spaces around the key and before the value are dropped). Unlike
//! Fairy-Stockfish, which skips what it cannot read, a line that is neither is an error here.

use std::fmt;

/// Files larger than this are refused before they are read: real configurations are a few
/// hundred kilobytes at most (Fairy-Stockfish's own variants.ini is about 40 kB).
pub const MAX_BYTES: u64 = 1 << 20;

/// One `key = value` line of a section.
#[derive(Debug, Clone)]
pub struct Setting {
    pub key: String,
    pub value: String,
    pub line: usize,
}

/// One `[name]` or `[name:parent]` section with its settings in file order.
#[derive(Debug, Clone)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    pub line: usize,
    pub settings: Vec<Setting>,
}

/// A line the reader cannot make sense of.
#[derive(Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// Reads every section of `text`.
pub fn parse(text: &str) -> Result<Vec<Section>, SyntaxError> {
    let mut sections: Vec<Section> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim_start_matches('\u{feff}').trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if let Some(header) = trimmed.strip_prefix('[') {
            sections.push(section_header(header, line)?);
            continue;
        }
        let Some(section) = sections.last_mut() else {
            // Fairy-Stockfish skips everything before the first section.
            continue;
        };
        let Some((key, value)) = trimmed.split_once('=') else {
            return Err(SyntaxError {
                line,
                reason: format!(
                    "expected `key = value` or `[section]`, found `{}`",
                    shorten(trimmed)
                ),
            });
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(SyntaxError {
                line,
                reason: "an option without a name before `=`".into(),
            });
        }
        section.settings.push(Setting {
            key: key.to_string(),
            value: value.trim().to_string(),
            line,
        });
    }
    Ok(sections)
}

/// `name]` or `name:parent]` (the text after `[`).
fn section_header(header: &str, line: usize) -> Result<Section, SyntaxError> {
    let Some(inside) = header.strip_suffix(']') else {
        return Err(SyntaxError {
            line,
            reason: "a section header without its closing `]`".into(),
        });
    };
    let (name, parent) = match inside.split_once(':') {
        Some((name, parent)) => (name.trim(), Some(parent.trim().to_string())),
        None => (inside.trim(), None),
    };
    let valid = |text: &str| {
        !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    if !valid(name) || parent.as_deref().is_some_and(|p| !valid(p)) {
        return Err(SyntaxError {
            line,
            reason: format!(
                "`[{}` is not a section name: letters, digits, `-` and `_` only",
                shorten(header)
            ),
        });
    }
    Ok(Section {
        name: name.to_string(),
        parent,
        line,
        settings: Vec::new(),
    })
}

/// At most 40 characters of `text`, for messages.
fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_options_and_comments() {
        let text = "intro\n[a]\n# c\nmaxRank = 6\n; c\n[b:a]\npawn=p\n";
        let sections = parse(text).unwrap();
        assert_eq!(sections.len(), 2);
        assert_eq!(sections[0].settings[0].key, "maxRank");
        assert_eq!(sections[0].settings[0].value, "6");
        assert_eq!(sections[0].settings[0].line, 4);
        assert_eq!(sections[1].parent.as_deref(), Some("a"));
    }

    #[test]
    fn garbage_is_an_error_with_its_line() {
        assert_eq!(parse("[a]\nnonsense\n").unwrap_err().line, 2);
        assert_eq!(parse("[a\n").unwrap_err().line, 1);
    }
}
