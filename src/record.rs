//! Game records: a PGN-style text for every game, standard PGN for chess.
//!
//! Why PGN: chess software reads it, people can read it, and its tag pairs carry what a record
//! of any game needs. The tags say which game file the record belongs to (`GameFile`, and a
//! hash of its validated definition, `DefinitionHash`, so that a record made for another
//! version of the file is refused rather than replayed into nonsense), the start FEN when it is
//! not the setup, the seed, each side's player (a tag named after the side: `White`, `Black`),
//! the result and how the game ended. The moves are written in short algebraic notation (for
//! placement games, `N@c3`); reading accepts SAN or the game's own notation.
//!
//! A record is written to a temporary file beside its destination and renamed over it, so a
//! crash or a full disk never leaves a half-written record.

pub mod ranks;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use variant_dsl::Definition;
use variant_interpreter::Session;

/// The largest record read (a record is text of a few kilobytes; this refuses a wrong file).
const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// The tag naming the game file.
pub const GAME_FILE_TAG: &str = "GameFile";
/// The tag holding the definition's hash.
pub const HASH_TAG: &str = "DefinitionHash";

/// A stable hash of a validated definition: FNV-1a (64 bits) of its RON dump, which lists every
/// rule the interpreter uses and nothing else (not comments, not layout).
pub fn definition_hash(definition: &Definition) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in definition.to_ron().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}

/// The tag name for a side's player: its name with a capital (`white` → `White`).
pub fn side_tag(side: &str) -> String {
    let mut chars = side.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// How a game ended, or that it goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Not over.
    Unfinished,
    /// Over by the rules: the winners (none for a draw) and the description.
    Rules {
        winners: Vec<String>,
        description: String,
    },
    /// A side resigned: the others win.
    Resigned { side: String },
}

impl Ending {
    /// The ending of a session that ended by its rules or goes on.
    pub fn of(session: &dyn Session) -> Ending {
        match session.outcome() {
            Some(outcome) => Ending::Rules {
                winners: outcome.winners.clone(),
                description: outcome.description(),
            },
            None => Ending::Unfinished,
        }
    }

    /// The winners by name.
    pub fn winners(&self, definition: &Definition) -> Vec<String> {
        match self {
            Ending::Unfinished => Vec::new(),
            Ending::Rules { winners, .. } => winners.clone(),
            // A resignation is its team's: the winners are the sides not allied with it.
            Ending::Resigned { side } => {
                let resigner = definition.sides.iter().position(|s| s.name == *side);
                definition
                    .sides
                    .iter()
                    .enumerate()
                    .filter(|&(index, _)| {
                        resigner.is_none_or(|r| {
                            !definition.allied(
                                variant_dsl::SideId(r as u8),
                                variant_dsl::SideId(index as u8),
                            )
                        })
                    })
                    .map(|(_, s)| s.name.clone())
                    .filter(|name| name != side)
                    .collect()
            }
        }
    }

    /// In words.
    pub fn description(&self, definition: &Definition) -> String {
        match self {
            Ending::Unfinished => "unfinished".into(),
            Ending::Rules { description, .. } => description.clone(),
            Ending::Resigned { side } => {
                let winners = self.winners(definition);
                let verb = if winners.len() == 1 { "wins" } else { "win" };
                format!("{side} resigns: {} {verb}", winners.join(" and "))
            }
        }
    }

    /// PGN's result token: `1-0`, `0-1`, `1/2-1/2`, or `*` (unfinished, or more than two sides).
    pub fn result_token(&self, definition: &Definition) -> &'static str {
        if *self == Ending::Unfinished || definition.sides.len() != 2 {
            return "*";
        }
        let winners = self.winners(definition);
        match winners.as_slice() {
            [] => "1/2-1/2",
            [one] if *one == definition.sides[0].name => "1-0",
            [one] if *one == definition.sides[1].name => "0-1",
            _ => "*",
        }
    }
}

/// What a record says besides the moves.
pub struct Meta<'a> {
    /// The game file: its name for a game by name (`chess.variant`), else its path as given
    /// (see [`game_file_tag`]).
    pub game_file: &'a str,
    /// Each side's player, in side order.
    pub players: &'a [String],
    /// The seed of the players' random generators.
    pub seed: u64,
    /// How the game ended.
    pub ending: &'a Ending,
    /// The moves played, in SAN (kept by the caller: recomputing them costs a move generation
    /// per move).
    pub sans: &'a [String],
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date as PGN writes it (`2026.11.22`), from the system clock (UTC).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The record of a session.
pub fn write(session: &dyn Session, meta: &Meta) -> String {
    let definition = session.definition();
    let result = meta.ending.result_token(definition);
    let mut tags: Vec<(String, String)> = vec![
        (
            "Event".into(),
            format!("{} (variant play)", definition.name),
        ),
        ("Site".into(), "?".into()),
        ("Date".into(), today()),
        ("Round".into(), "-".into()),
    ];
    for (side, player) in definition.sides.iter().zip(meta.players) {
        tags.push((side_tag(&side.name), player.clone()));
    }
    tags.push(("Result".into(), result.into()));
    let setup_fen = variant_dsl::fen::write_fen(definition, &definition.setup);
    let start = session.start_fen();
    if start != setup_fen {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), start.clone()));
    }
    tags.push((GAME_FILE_TAG.into(), meta.game_file.into()));
    tags.push(("GameName".into(), definition.name.clone()));
    tags.push((HASH_TAG.into(), definition_hash(definition)));
    tags.push(("Seed".into(), meta.seed.to_string()));
    if *meta.ending != Ending::Unfinished {
        tags.push(("Termination".into(), meta.ending.description(definition)));
    }
    let mut out = String::new();
    for (name, value) in &tags {
        let _ = writeln!(out, "[{name} \"{}\"]", quote(value));
    }
    out.push('\n');
    out.push_str(&movetext(definition, &session.plies(), meta.sans, result));
    out
}

/// The moves with move numbers, wrapped at 80 columns, then the result token. A number starts
/// each turn of the first side of the turn order (`12.`), and the record when it starts with
/// another side (`12...`); the actions of a turn of several actions follow one another.
fn movetext(
    definition: &Definition,
    plies: &[(usize, u32)],
    sans: &[String],
    result: &str,
) -> String {
    let first_side = definition
        .turn_order
        .first()
        .map_or(0, |side| side.0 as usize);
    let mut tokens = Vec::new();
    let mut previous: Option<(usize, u32)> = None;
    for (ply, (&(side, number), san)) in plies.iter().zip(sans.iter().cloned()).enumerate() {
        let new_turn = previous != Some((side, number));
        if new_turn && side == first_side {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san);
        previous = Some((side, number));
    }
    tokens.push(result.to_string());
    let mut out = String::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename.
pub fn save(path: &Path, text: &str) -> Result<(), String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| format!("cannot save to `{}`: not a file name", path.display()))?;
    let temporary = folder.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        file.sync_all()
    });
    let renamed = written.and_then(|()| std::fs::rename(&temporary, path));
    renamed.map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot save the game to `{}`: {error}", path.display())
    })
}

/// A record read back: its tags and its moves as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The moves, as written (SAN or the game's notation).
    pub moves: Vec<String>,
    /// The result token at the end of the moves, if any.
    pub result: Option<String>,
}

impl Record {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads a record file: at most [`MAX_RECORD_BYTES`] of it, whatever it is (a device or a pipe
/// has no size to check beforehand, so the bound is on the reading).
pub fn read(path: &Path) -> Result<Record, String> {
    use std::io::Read as _;
    let shown = path.display();
    let cannot = |e: std::io::Error| format!("cannot read the record `{shown}`: {e}");
    if std::fs::metadata(path).map_err(cannot)?.is_dir() {
        return Err(format!("`{shown}` is a directory, not a game record"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "`{shown}` is larger than {} MiB: too large to be a game record",
            MAX_RECORD_BYTES >> 20
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("`{shown}` is not a game record: it is not UTF-8 text"))?;
    parse(&text).map_err(|e| format!("`{shown}` is not a valid game record: {e}"))
}

/// The game a record names in its `GameFile` tag, as `GAME` for the catalog. A plain file name
/// (`chess.variant`) is a game by name, as `play chess` records it; a path (`./my.variant`,
/// `variants/atomic.variant`) is looked for beside the record, then from the current
/// directory, as given.
pub fn game_of(record: &Record, record_path: &Path) -> Option<String> {
    let file = record.tag(GAME_FILE_TAG)?;
    let stored = Path::new(file);
    let has_folder = stored
        .parent()
        .is_some_and(|folder| !folder.as_os_str().is_empty());
    if !has_folder {
        return Some(file.strip_suffix(".variant").unwrap_or(file).to_string());
    }
    let beside = record_path.parent().map(|folder| folder.join(stored));
    let found = beside.filter(|path| path.is_file());
    Some(found.map_or_else(|| file.to_string(), |path| path.display().to_string()))
}

/// What a record's `GameFile` tag holds for a game given as `game` that resolved to `path`: the
/// file name for a game by name (`chess.variant`), the path as given for a file (with `./`
/// when it names no folder, so that it reads back as a path and not as a name).
pub fn game_file_tag(game: &str, path: &Path) -> String {
    if Path::new(game) != path {
        return path
            .file_name()
            .map_or_else(|| game.to_string(), |f| f.to_string_lossy().into_owned());
    }
    let has_folder = path
        .parent()
        .is_some_and(|folder| !folder.as_os_str().is_empty());
    if has_folder || path.is_absolute() {
        game.to_string()
    } else {
        format!("./{game}")
    }
}

/// Whether the game may be recorded in `target`: never over a file the game was loaded from
/// (`game_files`: the game file, then the files it extends), nor over what is not a regular
/// file; over an existing file only if it is empty or a record of the same game (`GameName`),
/// unless `force`.
pub fn may_write(
    target: &Path,
    game_files: &[PathBuf],
    definition: &Definition,
    force: bool,
) -> Result<(), String> {
    let shown = target.display();
    let Ok(metadata) = std::fs::metadata(target) else {
        return Ok(());
    };
    let identity = std::fs::canonicalize(target).ok();
    let read_from = game_files
        .iter()
        .position(|file| identity.is_some() && std::fs::canonicalize(file).ok() == identity);
    match read_from {
        Some(0) => {
            return Err(format!(
                "`{shown}` is the game file being played: a record never replaces it; choose another file"
            ))
        }
        Some(_) => {
            return Err(format!(
                "`{shown}` is a game file that the game being played extends: a record never \
                 replaces it; choose another file"
            ))
        }
        None => {}
    }
    if !metadata.is_file() {
        return Err(format!(
            "`{shown}` is not a regular file: a record cannot replace it; choose another file"
        ));
    }
    if force || metadata.len() == 0 {
        return Ok(());
    }
    let what = match read(target) {
        Ok(record) if record.tag("GameName") == Some(definition.name.as_str()) => return Ok(()),
        Ok(record) => match record.tag("GameName") {
            Some(name) => format!("a record of another game ({name})"),
            None => "a record of an unknown game".to_string(),
        },
        Err(_) => "not a game record".to_string(),
    };
    Err(format!(
        "`{shown}` exists and is {what}: it is replaced only by --force (or `save --force FILE` at the prompt)"
    ))
}

/// Parses a record's text.
pub fn parse(text: &str) -> Result<Record, String> {
    // A byte-order mark, as some editors write, is not part of the first tag.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if !in_moves && trimmed.starts_with('[') {
            tags.push(parse_tag(trimmed).map_err(|e| format!("line {}: {e}", index + 1))?);
        } else if !in_moves && trimmed.is_empty() {
            continue;
        } else {
            in_moves = true;
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if tags.is_empty() {
        return Err("it has no tags (a record starts with tag pairs like [Event \"...\"])".into());
    }
    let (moves, result) = parse_movetext(&movetext)?;
    Ok(Record {
        tags,
        moves,
        result,
    })
}

/// `[Name "value"]`, with `\"` and `\\` escapes.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("a tag pair must end with `]`: the record may be truncated")?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or("a tag pair needs a name and a quoted value")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a tag name"));
    }
    let rest = rest.trim();
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("the value of tag `{name}` must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ ('"' | '\\')) => value.push(escaped),
                _ => return Err(format!("bad escape in the value of tag `{name}`")),
            },
            '"' => return Err(format!("unescaped quote in the value of tag `{name}`")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The moves and the result token; comments, variations, annotations and move numbers skipped.
fn parse_movetext(text: &str) -> Result<(Vec<String>, Option<String>), String> {
    let mut moves = Vec::new();
    let mut result = None;
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut depth = 0usize;
    let flush = |token: &mut String,
                 moves: &mut Vec<String>,
                 result: &mut Option<String>|
     -> Result<(), String> {
        let word = std::mem::take(token);
        if word.is_empty() {
            return Ok(());
        }
        if result.is_some() {
            return Err(format!("`{word}` comes after the result"));
        }
        if RESULTS.contains(&word.as_str()) {
            *result = Some(word);
            return Ok(());
        }
        if word.starts_with('$') {
            return Ok(());
        }
        // Move numbers: `12.`, `12...`, or glued to the move: `12.e4`.
        let unnumbered = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let unnumbered = if unnumbered.len() < word.len() && unnumbered.starts_with('.') {
            unnumbered.trim_start_matches('.')
        } else {
            word.as_str()
        };
        if !unnumbered.is_empty() {
            moves.push(unnumbered.to_string());
        }
        Ok(())
    };
    while let Some(c) = chars.next() {
        match c {
            '{' if depth == 0 => {
                flush(&mut token, &mut moves, &mut result)?;
                if !chars.by_ref().any(|c| c == '}') {
                    return Err("a comment `{` is never closed: the record may be truncated".into());
                }
            }
            ';' if depth == 0 => {
                flush(&mut token, &mut moves, &mut result)?;
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut moves, &mut result)?;
                depth += 1;
            }
            ')' => {
                token.clear();
                depth = depth.checked_sub(1).ok_or("a `)` closes no variation")?;
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    flush(&mut token, &mut moves, &mut result)?;
                } else {
                    token.clear();
                }
            }
            c if depth == 0 => token.push(c),
            _ => {}
        }
    }
    if depth > 0 {
        return Err("a variation `(` is never closed: the record may be truncated".into());
    }
    flush(&mut token, &mut moves, &mut result)?;
    Ok((moves, result))
}

#[cfg(test)]
mod tests {
    use super::{parse, parse_tag, side_tag};

    #[test]
    fn tags_and_moves_are_read() {
        let record = parse("[Event \"a \\\"b\\\"\"]\n[White \"human\"]\n\n1. e4 {best} e5 2.Nf3 (2. f4) $1 Nc6 1-0\n")
            .expect("parses");
        assert_eq!(record.tag("Event"), Some("a \"b\""));
        assert_eq!(record.moves, ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(record.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn broken_records_are_errors() {
        for broken in [
            "",
            "1. e4 e5",
            "[Event \"x\"",
            "[Event x]",
            "[Event \"x\"]\n1. e4 {unclosed",
            "[Event \"x\"]\n1. e4 (e5",
            "[Event \"x\"]\n1. e4 1-0 e5",
        ] {
            assert!(parse(broken).is_err(), "{broken:?}");
        }
        assert!(parse_tag("[Na-me \"x\"]").is_err());
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let record = parse("\u{feff}[Event \"x\"]\n\n1. e4 *\n").expect("parses");
        assert_eq!(record.tag("Event"), Some("x"));
        assert_eq!(record.moves, ["e4"]);
    }

    #[test]
    fn side_tags_are_capitalised() {
        assert_eq!(side_tag("white"), "White");
        assert_eq!(side_tag("red"), "Red");
    }
}
