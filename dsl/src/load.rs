//! Loading a game: reading files, following `extends`, merging, validating.
//!
//! `extends "chess"` names the parent game: `chess.variant` beside the including file (or the
//! path itself if it ends in `.variant`), and, for a plain name that is not there, the same file
//! in each folder of [`LoadOptions::search_path`] in turn. A failed lookup names every place
//! tried. The command line passes its games folders there, so that a file in any directory can
//! extend a shipped game.
//!
//! The chain of parents is followed to its root, at most [`MAX_EXTENDS_DEPTH`] deep, with the
//! files as nodes of a `petgraph` graph so that a cycle is reported naming every file in it. The
//! files are merged at the AST level, child over parent: statements that appear once (`game`,
//! `board`, `setup`, `castling`, `end`, ...) replace the parent's; a `piece` or `side` with the
//! same name replaces the parent's declaration in place; new ones are appended; `remove piece
//! NAME` deletes the parent's piece (a removal that finds no inherited piece is kept, for
//! validation to report).
//!
//! A program may also carry game files built into it ([`LoadOptions::builtin`]): they live in a
//! folder of their own, [`BUILTIN_FOLDER`], which is looked at last for a plain name, and which
//! a path like `<built-in>/chess.variant` names directly. A built-in file's own `extends` finds
//! its siblings there first, as a file on disk finds the files beside it.
//!
//! Only regular files are read, whatever names them: a FIFO or a device would block or never
//! end, so the metadata is checked before the file is opened.

use crate::ast::{GameFile, Statement, StringLit, TextStatement};
use crate::definition::Definition;
use crate::diagnostic::{code, Diagnostic, Diagnostics};
use crate::parse;
use crate::span::{FileId, SourceMap, Span, Spanned};
use crate::validate;
use petgraph::graphmap::DiGraphMap;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

/// A game that loaded: its definition, the warnings found, and the files read.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The validated game.
    pub definition: Definition,
    /// Warnings, in source order (they never block loading).
    pub warnings: Diagnostics,
    /// Every file read, for rendering the warnings.
    pub sources: SourceMap,
}

impl Loaded {
    /// The warnings as rustc-style text (empty if there is none).
    pub fn render(&self) -> String {
        self.warnings.render(&self.sources)
    }
}

/// A game that did not load: every diagnostic, and the files read.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Errors and warnings, in source order; at least one is an error.
    pub diagnostics: Diagnostics,
    /// Every file read, for rendering.
    pub sources: SourceMap,
}

impl Failure {
    /// The diagnostics as rustc-style text.
    pub fn render(&self) -> String {
        self.diagnostics.render(&self.sources)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Failure {}

/// The deepest chain of `extends` followed from the file loaded: 64 parents above it.
pub const MAX_EXTENDS_DEPTH: usize = 64;

/// How a game is loaded: where parents named by `extends` are looked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Folders searched in order for `extends "NAME"` (a plain name, without `/`) when
    /// `NAME.variant` is not beside the extending file. Empty by default: only the extending
    /// file's own directory.
    pub search_path: Vec<PathBuf>,
    /// Game files built into the program, as (file name, text): `chess.variant`. They are the
    /// folder [`BUILTIN_FOLDER`], searched after `search_path`. Empty by default.
    pub builtin: Vec<(String, String)>,
}

/// The name of the folder of built-in game files in paths and diagnostics
/// (`<built-in>/chess.variant`); it names no folder on disk.
pub const BUILTIN_FOLDER: &str = "<built-in>";

impl LoadOptions {
    /// Options that look for parents in `folders` after the extending file's directory.
    pub fn with_search_path(folders: impl IntoIterator<Item = PathBuf>) -> Self {
        LoadOptions {
            search_path: folders.into_iter().collect(),
            builtin: Vec::new(),
        }
    }

    /// These options with `files` (file name, text) built in.
    pub fn with_builtin(mut self, files: impl IntoIterator<Item = (String, String)>) -> Self {
        self.builtin = files.into_iter().collect();
        self
    }

    /// The path of a built-in file (`<built-in>/chess.variant`), if there is one of that name.
    pub fn builtin_path(&self, file_name: &str) -> Option<PathBuf> {
        self.builtin
            .iter()
            .any(|(name, _)| name == file_name)
            .then(|| Path::new(BUILTIN_FOLDER).join(file_name))
    }

    /// The text of the built-in file a path names, if it names one.
    pub fn builtin_text(&self, path: &Path) -> Option<&str> {
        if path.parent() != Some(Path::new(BUILTIN_FOLDER)) {
            return None;
        }
        let file_name = path.file_name()?;
        self.builtin
            .iter()
            .find(|(name, _)| file_name == name.as_str())
            .map(|(_, text)| text.as_str())
    }
}

/// Loads the game file at `path`, following its `extends` chain; parents are looked for beside
/// the extending file only.
pub fn load_file(path: &Path) -> Result<Loaded, Failure> {
    load_file_with(path, &LoadOptions::default())
}

/// Loads the game file at `path`, following its `extends` chain with `options`.
pub fn load_file_with(path: &Path, options: &LoadOptions) -> Result<Loaded, Failure> {
    let mut loader = Loader::new(options);
    let root = loader.read(path, None);
    loader.finish(root)
}

/// Loads a game from text; `name` is shown in diagnostics, and `extends` resolves relative to
/// the current directory.
pub fn load_source(name: &str, text: &str) -> Result<Loaded, Failure> {
    load_source_with(name, text, &LoadOptions::default())
}

/// Loads a game from text with `options`; `name` is shown in diagnostics, and `extends`
/// resolves relative to the current directory first.
pub fn load_source_with(name: &str, text: &str, options: &LoadOptions) -> Result<Loaded, Failure> {
    let mut loader = Loader::new(options);
    let (text, problem) = parse::decode(FileId(0), text.as_bytes());
    let file = loader.sources.add(name, text);
    let root = loader.parse_added(file, problem, PathBuf::from(name), Path::new(""));
    loader.finish(root)
}

/// A parsed file and where it lives.
struct LoadedFile {
    game: GameFile,
    /// The directory its `extends` resolve against.
    directory: PathBuf,
    /// The graph node of the file.
    node: usize,
}

struct Loader {
    /// The folders searched for parents after the extending file's directory, and the built-in
    /// files.
    options: LoadOptions,
    sources: SourceMap,
    diagnostics: Diagnostics,
    /// The files of the extends chain, as nodes of `graph`: identity (canonical path) and the
    /// `extends` string that led to each (none for the top-level file).
    nodes: Vec<(PathBuf, Option<Spanned<StringLit>>)>,
    /// `child -> parent` edges.
    graph: DiGraphMap<usize, ()>,
    /// For each parent file read, the `extends` string that named it (in its child).
    extended_by: HashMap<FileId, Span>,
}

impl Loader {
    fn new(options: &LoadOptions) -> Self {
        Loader {
            options: options.clone(),
            sources: SourceMap::new(),
            diagnostics: Diagnostics::new(),
            nodes: Vec::new(),
            graph: DiGraphMap::new(),
            extended_by: HashMap::new(),
        }
    }

    fn finish(mut self, root: Option<LoadedFile>) -> Result<Loaded, Failure> {
        let merged = root.and_then(|root| self.follow_extends(root));
        let Some(game) = merged else {
            return Err(self.failure());
        };
        match validate::validate(&game, &self.sources) {
            Ok((definition, warnings)) if !self.diagnostics.has_errors() => Ok(Loaded {
                definition,
                warnings: self.point_at_extends(warnings),
                sources: self.sources,
            }),
            Ok(_) => Err(self.failure()),
            Err(diagnostics) => {
                self.diagnostics.append(diagnostics);
                Err(self.failure())
            }
        }
    }

    fn failure(mut self) -> Failure {
        self.diagnostics.sort();
        let diagnostics = std::mem::take(&mut self.diagnostics);
        Failure {
            diagnostics: self.point_at_extends(diagnostics),
            sources: self.sources,
        }
    }

    /// Labels every diagnostic inside an extended file with the `extends` that brought the file
    /// in, and so on up to the file loaded: an error in `chess.variant` caused by a file that
    /// extends it (a `castling` block it no longer replaces) points back at that file.
    fn point_at_extends(&self, diagnostics: Diagnostics) -> Diagnostics {
        diagnostics
            .into_iter()
            .map(|mut diagnostic| {
                let mut file = diagnostic.primary.span.file;
                let mut hops = 0;
                while let Some(&via) = self.extended_by.get(&file) {
                    let already = diagnostic.primary.span == via
                        || diagnostic.secondary.iter().any(|label| label.span == via);
                    if !already {
                        let label = if hops == 0 {
                            "the problem is in the file extended here".to_string()
                        } else {
                            format!("`{}` is extended here", self.sources.name(file))
                        };
                        diagnostic = diagnostic.with_secondary(via, label);
                    }
                    file = via.file;
                    hops += 1;
                    if hops > MAX_EXTENDS_DEPTH {
                        break;
                    }
                }
                diagnostic
            })
            .collect()
    }

    /// Reads and parses one file; `via` is the `extends` string that named it.
    fn read(&mut self, path: &Path, via: Option<&Spanned<StringLit>>) -> Option<LoadedFile> {
        let read = match self.options.builtin_text(path) {
            Some(text) => Ok(text.as_bytes().to_vec()),
            None => read_bounded(path),
        };
        let bytes = match read {
            Ok(bytes) => bytes,
            Err(problem) => {
                let name = path.display().to_string();
                let message = format!("cannot read `{name}`: {problem}");
                self.cannot_read(&name, message, via, None);
                return None;
            }
        };
        let file = FileId(self.sources.files().count() as u32);
        let (text, problem) = parse::decode(file, &bytes);
        let file = self.sources.add(path.display().to_string(), text);
        if let Some(via) = via {
            self.extended_by.insert(file, via.span);
        }
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.parse_added(file, problem, path.to_path_buf(), &directory)
    }

    /// Parses a file already added to the source map, and makes it a node of the graph.
    fn parse_added(
        &mut self,
        file: FileId,
        problem: Option<Diagnostic>,
        path: PathBuf,
        directory: &Path,
    ) -> Option<LoadedFile> {
        if let Some(problem) = problem {
            self.diagnostics.push(problem);
            return None;
        }
        let game = match parse::parse(file, self.sources.text(file)) {
            Ok(game) => game,
            Err(diagnostics) => {
                self.diagnostics.append(diagnostics);
                return None;
            }
        };
        let node = self.node_for(&path);
        Some(LoadedFile {
            game,
            directory: directory.to_path_buf(),
            node,
        })
    }

    fn node_for(&mut self, path: &Path) -> usize {
        let identity = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if let Some(node) = self.nodes.iter().position(|(known, _)| *known == identity) {
            return node;
        }
        self.nodes.push((identity, None));
        let node = self.nodes.len() - 1;
        self.graph.add_node(node);
        node
    }

    /// Reports a file that cannot be read: at the `extends` string that named it, or at the
    /// file itself (shown by name) when it is the file loaded.
    fn cannot_read(
        &mut self,
        name: &str,
        message: String,
        via: Option<&Spanned<StringLit>>,
        help: Option<String>,
    ) {
        let span = match via {
            Some(string) => string.span,
            None => Span::point(self.sources.add(name, ""), 0),
        };
        let label = if via.is_some() {
            "the file named here"
        } else {
            ""
        };
        self.diagnostics.push(
            Diagnostic::error(code::CANNOT_READ, message, span, label).with_optional_help(help),
        );
    }

    /// The file `extends` names: the first candidate that exists (see [`candidates`]), or
    /// `None` after reporting every place looked at.
    fn locate(&mut self, directory: &Path, extends: &Spanned<StringLit>) -> Option<PathBuf> {
        let candidates = candidates(directory, &extends.node.value, &self.options);
        // Anything there, even unreadable, is the file meant: reading it says what is wrong.
        let exists = |candidate: &&PathBuf| {
            self.options.builtin_text(candidate).is_some()
                || match std::fs::metadata(candidate) {
                    Ok(_) => true,
                    Err(error) => error.kind() != io::ErrorKind::NotFound,
                }
        };
        if let Some(found) = candidates.iter().find(exists) {
            return Some(found.clone());
        }
        let shown: Vec<String> = candidates
            .iter()
            .map(|candidate| format!("`{}`", candidate.display()))
            .collect();
        let file_name = with_extension(&extends.node.value);
        let (message, help) = match shown.as_slice() {
            [only] => (format!("cannot read {only}: no such file"), None),
            _ => (
                format!(
                    "cannot find `{file_name}`: it is in none of the {} places looked at",
                    shown.len()
                ),
                Some(format!("looked for {}", join_with_and(&shown))),
            ),
        };
        self.cannot_read(&file_name, message, Some(extends), help);
        None
    }

    /// Follows the chain of parents from `child` and merges it; `None` after an error.
    fn follow_extends(&mut self, child: LoadedFile) -> Option<GameFile> {
        let mut chain = vec![child];
        loop {
            let current = chain.last()?;
            let Some(extends) = self.single_extends(&current.game) else {
                break;
            };
            if chain.len() > MAX_EXTENDS_DEPTH {
                self.report_too_deep(&extends);
                return None;
            }
            let path = self.locate(&current.directory, &extends)?;
            let identity = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            let from = current.node;
            if let Some(node) = self.nodes.iter().position(|(known, _)| *known == identity) {
                self.graph.add_edge(from, node, ());
                self.report_cycle(from, &extends);
                return None;
            }
            let parent = self.read(&path, Some(&extends))?;
            self.nodes[parent.node].1 = Some(extends);
            self.graph.add_edge(from, parent.node, ());
            chain.push(parent);
        }
        let mut files = chain.into_iter().rev().map(|file| file.game);
        let ancestor = files.next()?;
        Some(files.fold(ancestor, merge))
    }

    /// The `extends` string of a file; a second one is reported.
    fn single_extends(&mut self, game: &GameFile) -> Option<Spanned<StringLit>> {
        let mut found: Option<&TextStatement> = None;
        for statement in &game.statements {
            if let Statement::Extends(extends) = &statement.node {
                match found {
                    Some(first) => self.diagnostics.push(
                        Diagnostic::error(
                            code::DUPLICATE_STATEMENT,
                            "`extends` is given twice",
                            extends.keyword,
                            "given again here",
                        )
                        .with_secondary(first.keyword, "first given here")
                        .with_help("a game extends at most one parent"),
                    ),
                    None => found = Some(extends),
                }
            }
        }
        found.map(|extends| extends.text.clone())
    }

    /// Reports the `extends` that would follow the chain one file deeper than the limit.
    fn report_too_deep(&mut self, extends: &Spanned<StringLit>) {
        let here = self.sources.name(extends.span.file).to_string();
        let parent = with_extension(&extends.node.value);
        self.diagnostics.push(
            Diagnostic::error(
                code::EXTENDS_TOO_DEEP,
                format!(
                    "`extends` is nested more than {MAX_EXTENDS_DEPTH} deep: `{here}` extends `{parent}`"
                ),
                extends.span,
                format!("this would be parent number {}", MAX_EXTENDS_DEPTH + 1),
            )
            .with_help(format!(
                "a game may have at most {MAX_EXTENDS_DEPTH} ancestors: merge some of the files"
            )),
        );
    }

    /// Reports the cycle that the edge from `from` (written at `closing`) just closed.
    fn report_cycle(&mut self, from: usize, closing: &Spanned<StringLit>) {
        let cycle = petgraph::algo::tarjan_scc(&self.graph)
            .into_iter()
            .find(|component| component.contains(&from))
            .unwrap_or_else(|| vec![from]);
        let mut members: Vec<usize> = cycle;
        members.sort_unstable();
        let names: Vec<String> = members.iter().map(|node| self.node_name(*node)).collect();
        let mut path = names.clone();
        path.push(names[0].clone());
        let message = if members.len() == 1 {
            format!("`{}` extends itself", names[0])
        } else {
            format!("`extends` forms a cycle: {}", path.join(" -> "))
        };
        let mut diagnostic = Diagnostic::error(
            code::EXTENDS_CYCLE,
            message,
            closing.span,
            "this `extends` closes the cycle",
        );
        for node in members {
            if let Some((_, Some(via))) = self.nodes.get(node) {
                if via.span.file != closing.span.file || via.span != closing.span {
                    let label = format!("`{}` is extended here", self.node_name(node));
                    diagnostic = diagnostic.with_secondary(via.span, label);
                }
            }
        }
        self.diagnostics
            .push(diagnostic.with_help("remove one `extends` of the cycle"));
    }

    /// The name a file of the graph is shown under.
    fn node_name(&self, node: usize) -> String {
        match self.nodes.get(node) {
            Some((_, Some(via))) => resolve_display(&self.sources, via),
            Some((identity, None)) => self.sources.files().next().map_or_else(
                || identity.display().to_string(),
                |(_, file)| file.name.clone(),
            ),
            None => String::new(),
        }
    }
}

/// The name of the file an `extends` string led to: the name it was added to the sources under.
fn resolve_display(sources: &SourceMap, via: &Spanned<StringLit>) -> String {
    let wanted = with_extension(&via.node.value);
    sources
        .files()
        .map(|(_, file)| file.name.clone())
        .find(|name| Path::new(name).ends_with(&wanted))
        .unwrap_or(wanted)
}

fn with_extension(name: &str) -> String {
    if name.ends_with(".variant") {
        name.to_string()
    } else {
        format!("{name}.variant")
    }
}

/// Where `extends "NAME"` may be: `<directory>/NAME.variant` (or `<directory>/NAME` if it
/// already ends in `.variant`), then, for a plain name (no folder in it), the same file name in
/// each search folder, then among the built-in files. Folders that are the same directory are
/// tried once.
fn candidates(directory: &Path, name: &str, options: &LoadOptions) -> Vec<PathBuf> {
    let file_name = with_extension(name);
    let mut candidates = vec![directory.join(&file_name)];
    let plain = !name.contains(['/', '\\']) && !Path::new(name).is_absolute();
    if plain {
        let mut seen = vec![folder_identity(directory)];
        for folder in &options.search_path {
            let identity = folder_identity(folder);
            if !seen.contains(&identity) {
                seen.push(identity);
                candidates.push(folder.join(&file_name));
            }
        }
        if let Some(builtin) = options.builtin_path(&file_name) {
            if !candidates.contains(&builtin) {
                candidates.push(builtin);
            }
        }
    }
    candidates
}

/// A folder's canonical path, so that `games` and `/repo/games` count once; the path itself
/// if it cannot be resolved. The empty path is the current directory.
fn folder_identity(folder: &Path) -> PathBuf {
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf())
}

/// "`a`, `b` and `c`".
fn join_with_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Reads a file, refusing anything but a regular file (checked before opening it: opening a
/// FIFO blocks) and refusing to read more than the size limit (the parser reports it).
/// The error is in plain words.
fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let metadata = std::fs::metadata(path).map_err(|error| plain_io_error(&error))?;
    if !metadata.is_file() {
        return Err(not_a_regular_file(&metadata.file_type()));
    }
    let file = std::fs::File::open(path).map_err(|error| plain_io_error(&error))?;
    // The path may have been replaced between the check and the opening.
    let opened = file.metadata().map_err(|error| plain_io_error(&error))?;
    if !opened.is_file() {
        return Err(not_a_regular_file(&opened.file_type()));
    }
    let mut bytes = Vec::new();
    file.take(parse::MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| plain_io_error(&error))?;
    Ok(bytes)
}

/// What a file that is not a regular file is, in plain words.
fn not_a_regular_file(kind: &std::fs::FileType) -> String {
    if kind.is_dir() {
        return "it is a directory".to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let what = if kind.is_fifo() {
            Some("a named pipe (FIFO)")
        } else if kind.is_socket() {
            Some("a socket")
        } else if kind.is_char_device() {
            Some("a character device")
        } else if kind.is_block_device() {
            Some("a block device")
        } else {
            None
        };
        if let Some(what) = what {
            return format!("it is {what}, not a regular file");
        }
    }
    "it is not a regular file".to_string()
}

fn plain_io_error(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::IsADirectory => "it is a directory".to_string(),
        _ => error.to_string(),
    }
}

/// What a statement replaces in the parent: statements that appear once by keyword, pieces and
/// sides by name; `None` for statements that are always appended.
fn merge_key(statement: &Statement) -> Option<String> {
    match statement {
        Statement::Piece(piece) => Some(format!("piece {}", piece.name.node)),
        Statement::Side(side) => Some(format!("side {}", side.name.node)),
        Statement::Zone(zone) => Some(format!("zone {}", zone.name.node)),
        Statement::Counter(counter) => Some(format!("counter {}", counter.name.node)),
        Statement::Future(_)
        | Statement::Extends(_)
        | Statement::Remove(_)
        | Statement::Team(_) => None,
        other => Some(other.keyword_text().to_string()),
    }
}

/// The child's statements over the parent's; `extends` statements are dropped.
///
/// The parent's statements are indexed by key once, so that merging takes time in proportion to
/// the number of statements: each parent statement can be replaced or removed once (a second
/// child statement with the same key is appended, and validation reports the duplicate).
fn merge(parent: GameFile, child: GameFile) -> GameFile {
    let is_extends =
        |statement: &Spanned<Statement>| matches!(statement.node, Statement::Extends(_));
    let mut merged: Vec<Option<Spanned<Statement>>> = parent
        .statements
        .into_iter()
        .filter(|s| !is_extends(s))
        .map(Some)
        .collect();
    let mut replaceable: HashMap<String, usize> = HashMap::new();
    for (index, statement) in merged.iter().enumerate() {
        if let Some(key) = statement.as_ref().and_then(|s| merge_key(&s.node)) {
            replaceable.entry(key).or_insert(index);
        }
    }
    for statement in child.statements.into_iter().filter(|s| !is_extends(s)) {
        if let Statement::Remove(remove) = &statement.node {
            match replaceable.remove(&format!("piece {}", remove.piece.node)) {
                Some(index) => merged[index] = None,
                None => merged.push(Some(statement)),
            }
            continue;
        }
        let replaced = merge_key(&statement.node).and_then(|key| replaceable.remove(&key));
        match replaced {
            Some(index) => merged[index] = Some(statement),
            None => merged.push(Some(statement)),
        }
    }
    GameFile {
        file: child.file,
        statements: merged.into_iter().flatten().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const CHESS: &str = include_str!("../../games/chess.variant");

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("variant-dsl-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn chess_loads() {
        let loaded = load_source("chess.variant", CHESS)
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        assert_eq!(loaded.definition.pieces.len(), 6);
        assert!(loaded.warnings.is_empty(), "{}", loaded.render());
    }

    #[test]
    fn built_in_files_are_found_by_path_and_by_extends_from_any_directory() {
        let dir = temp_dir("builtin");
        let child = "extends \"chess\"\ngame \"Mine\"\n";
        fs::write(dir.join("mine.variant"), child).unwrap();
        let builtin = vec![
            ("chess.variant".to_string(), CHESS.to_string()),
            ("sub.variant".to_string(), child.replace("Mine", "Sub")),
        ];
        let without = load_file(&dir.join("mine.variant"));
        assert!(without.is_err(), "no chess beside it and nothing built in");
        let options = LoadOptions::default().with_builtin(builtin);
        let mine = load_file_with(&dir.join("mine.variant"), &options)
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        assert_eq!(mine.definition.name, "Mine");
        assert_eq!(mine.definition.pieces.len(), 6);
        let path = options.builtin_path("sub.variant").expect("built in");
        assert_eq!(path, Path::new("<built-in>/sub.variant"));
        let sub = load_file_with(&path, &options)
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        assert_eq!(sub.definition.name, "Sub");
        assert!(options.builtin_path("nothing.variant").is_none());
    }

    #[test]
    fn a_child_overrides_its_parent() {
        let dir = temp_dir("override");
        fs::write(dir.join("chess.variant"), CHESS).unwrap();
        let child = "extends \"chess\"\ngame \"Knightmate\"\npiece Knight { letter N; value 3; moves \"K\" }\npiece Camel { letter C; moves \"C\" }\n";
        fs::write(dir.join("child.variant"), child).unwrap();
        let loaded = load_file(&dir.join("child.variant"))
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        let definition = loaded.definition;
        assert_eq!(definition.name, "Knightmate");
        assert_eq!(definition.pieces.len(), 7);
        assert_eq!(definition.pieces[4].name, "Knight");
        assert_eq!(definition.pieces[4].betza, "K");
        assert_eq!(definition.pieces[6].name, "Camel");
        assert_eq!(loaded.warnings.len(), 1, "the camel is never used");
        assert_eq!(loaded.sources.files().count(), 2);
    }

    #[test]
    fn a_cycle_names_every_file() {
        let dir = temp_dir("cycle");
        fs::write(dir.join("a.variant"), "extends \"b\"\ngame \"A\"\n").unwrap();
        fs::write(dir.join("b.variant"), "extends \"c.variant\"\n").unwrap();
        fs::write(dir.join("c.variant"), "extends \"a\"\n").unwrap();
        let failure = load_file(&dir.join("a.variant")).unwrap_err();
        let text = failure.render();
        assert_eq!(failure.diagnostics.len(), 1, "{text}");
        assert!(
            text.contains("a.variant -> ")
                && text.contains("b.variant")
                && text.contains("c.variant"),
            "{text}"
        );
    }

    #[test]
    fn a_file_extending_itself() {
        let dir = temp_dir("self");
        fs::write(dir.join("a.variant"), "extends \"a\"\n").unwrap();
        let text = load_file(&dir.join("a.variant")).unwrap_err().render();
        assert!(text.contains("extends itself"), "{text}");
    }

    #[test]
    fn a_missing_parent_points_at_the_extends() {
        let failure = load_source("x.variant", "extends \"no/such/file\"\n").unwrap_err();
        let text = failure.render();
        assert!(
            text.contains("cannot read `no/such/file.variant`: no such file"),
            "{text}"
        );
        assert!(text.contains("x.variant:1:9"), "{text}");
    }

    #[test]
    fn a_missing_file() {
        let failure = load_file(Path::new("/no/such/game.variant")).unwrap_err();
        assert_eq!(failure.render(), "error[E0007]: cannot read `/no/such/game.variant`: no such file\n--> /no/such/game.variant\n");
    }
}
