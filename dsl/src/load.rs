//! Loading a game: reading files, following `extends`, merging, validating.
//!
//! `extends "chess"` names the parent game: `<directory of the including file>/chess.variant`
//! (or the path itself if it ends in `.variant`). The chain of parents is followed to its root,
//! with the files as nodes of a `petgraph` graph so that a cycle is reported naming every file
//! in it. The files are merged at the AST level, child over parent: statements that appear once
//! (`game`, `board`, `setup`, `castling`, `end`, ...) replace the parent's; a `piece` or `side`
//! with the same name replaces the parent's declaration in place; new ones are appended.

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

/// Loads the game file at `path`, following its `extends` chain.
pub fn load_file(path: &Path) -> Result<Loaded, Failure> {
    let mut loader = Loader::default();
    let root = loader.read(path, None);
    loader.finish(root)
}

/// Loads a game from text; `name` is shown in diagnostics, and `extends` resolves relative to
/// the current directory.
pub fn load_source(name: &str, text: &str) -> Result<Loaded, Failure> {
    let mut loader = Loader::default();
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

#[derive(Default)]
struct Loader {
    sources: SourceMap,
    diagnostics: Diagnostics,
    /// The files of the extends chain, as nodes of `graph`: identity (canonical path) and the
    /// `extends` string that led to each (none for the top-level file).
    nodes: Vec<(PathBuf, Option<Spanned<StringLit>>)>,
    /// `child -> parent` edges.
    graph: DiGraphMap<usize, ()>,
}

impl Loader {
    fn finish(mut self, root: Option<LoadedFile>) -> Result<Loaded, Failure> {
        let merged = root.and_then(|root| self.follow_extends(root));
        let Some(game) = merged else {
            return Err(self.failure());
        };
        match validate::validate(&game, &self.sources) {
            Ok((definition, warnings)) if !self.diagnostics.has_errors() => Ok(Loaded {
                definition,
                warnings,
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
        Failure {
            diagnostics: self.diagnostics,
            sources: self.sources,
        }
    }

    /// Reads and parses one file; `via` is the `extends` string that named it.
    fn read(&mut self, path: &Path, via: Option<&Spanned<StringLit>>) -> Option<LoadedFile> {
        let bytes = match read_bounded(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                let name = path.display().to_string();
                let span = match via {
                    Some(string) => string.span,
                    None => Span::point(self.sources.add(name.clone(), ""), 0),
                };
                self.diagnostics.push(Diagnostic::error(
                    code::CANNOT_READ,
                    format!("cannot read `{name}`: {}", plain_io_error(&error)),
                    span,
                    if via.is_some() {
                        "the file named here"
                    } else {
                        ""
                    },
                ));
                return None;
            }
        };
        let file = FileId(self.sources.files().count() as u32);
        let (text, problem) = parse::decode(file, &bytes);
        let file = self.sources.add(path.display().to_string(), text);
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

    /// Follows the chain of parents from `child` and merges it; `None` after an error.
    fn follow_extends(&mut self, child: LoadedFile) -> Option<GameFile> {
        let mut chain = vec![child];
        loop {
            let current = chain.last()?;
            let Some(extends) = self.single_extends(&current.game) else {
                break;
            };
            let path = resolve(&current.directory, &extends.node.value);
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

/// `<directory>/name.variant`, or `<directory>/name` if it already ends in `.variant`.
fn resolve(directory: &Path, name: &str) -> PathBuf {
    directory.join(with_extension(name))
}

/// Reads a file, refusing to read more than the size limit (the parser reports it).
fn read_bounded(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    let mut bytes = Vec::new();
    file.take(parse::MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
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
        Statement::Future(_) | Statement::Extends(_) => None,
        other => Some(other.keyword_text().to_string()),
    }
}

/// The child's statements over the parent's; `extends` statements are dropped.
///
/// The parent's statements are indexed by key once, so that merging takes time in proportion to
/// the number of statements: each parent statement can be replaced once (a second child
/// statement with the same key is appended, and validation reports the duplicate).
fn merge(parent: GameFile, child: GameFile) -> GameFile {
    let is_extends =
        |statement: &Spanned<Statement>| matches!(statement.node, Statement::Extends(_));
    let mut merged: Vec<Spanned<Statement>> = parent
        .statements
        .into_iter()
        .filter(|s| !is_extends(s))
        .collect();
    let mut replaceable: HashMap<String, usize> = HashMap::new();
    for (index, statement) in merged.iter().enumerate() {
        if let Some(key) = merge_key(&statement.node) {
            replaceable.entry(key).or_insert(index);
        }
    }
    for statement in child.statements.into_iter().filter(|s| !is_extends(s)) {
        let replaced = merge_key(&statement.node).and_then(|key| replaceable.remove(&key));
        match replaced {
            Some(index) => merged[index] = statement,
            None => merged.push(statement),
        }
    }
    GameFile {
        file: child.file,
        statements: merged,
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
