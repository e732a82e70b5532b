//! Where things are in the source text.
//!
//! Every AST node and every diagnostic carries a [`Span`]: a byte range in one file of a
//! [`SourceMap`]. Line and column numbers are computed only when a diagnostic is rendered, from
//! an index of line starts built once per file: a file with thousands of diagnostics must not
//! be scanned from its start for each of them.

use std::fmt;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` in `file`.
    pub const fn new(file: FileId, start: usize, end: usize) -> Self {
        Span { file, start, end }
    }

    /// An empty span at `offset`.
    pub const fn point(file: FileId, offset: usize) -> Self {
        Span::new(file, offset, offset)
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span::new(
            self.file,
            self.start.min(other.start),
            self.end.max(other.end),
        )
    }

    /// The number of bytes covered.
    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// A value together with the span of the text it was read from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Wraps `node` with `span`.
    pub const fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)
    }
}

/// One source file: the name it is shown under and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The name shown in diagnostics (usually the path as given).
    pub name: String,
    /// The text; empty when the file could not be read.
    pub text: String,
}

/// All the files read while loading a game, so that diagnostics can quote them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// For each file, the byte offset where each of its lines starts (the first is 0).
    line_starts: Vec<Vec<usize>>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).unwrap_or(u32::MAX));
        let text = text.into();
        self.line_starts.push(line_starts(&text));
        self.files.push(SourceFile {
            name: name.into(),
            text,
        });
        id
    }

    /// The file with this id, if any.
    pub fn get(&self, file: FileId) -> Option<&SourceFile> {
        self.files.get(file.0 as usize)
    }

    /// The name of a file (empty for an unknown id).
    pub fn name(&self, file: FileId) -> &str {
        self.get(file).map_or("", |source| source.name.as_str())
    }

    /// The text of a file (empty for an unknown id).
    pub fn text(&self, file: FileId) -> &str {
        self.get(file).map_or("", |source| source.text.as_str())
    }

    /// The text a span covers, or `""` if the span is not inside its file.
    pub fn snippet(&self, span: Span) -> &str {
        self.text(span.file).get(span.start..span.end).unwrap_or("")
    }

    /// All files, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(index, file)| (FileId(index as u32), file))
    }

    /// The 1-based line and column (in characters) of a byte offset; offsets past the end or
    /// inside a character count as the nearest character boundary before them.
    ///
    /// Takes time proportional to the log of the number of lines plus the length of the line.
    pub fn line_col(&self, file: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(file);
        let offset = floor_char_boundary(text, offset);
        let line = self.line_of(file, offset);
        let start = self.line_range(file, line).start.min(offset);
        (line, text[start..offset].chars().count() + 1)
    }

    /// The 1-based number of the line that contains byte `offset` (the last line for offsets
    /// past the end).
    pub fn line_of(&self, file: FileId, offset: usize) -> usize {
        match self.line_starts.get(file.0 as usize) {
            Some(starts) => starts.partition_point(|&start| start <= offset).max(1),
            None => 1,
        }
    }

    /// The byte range of 1-based line `line`, its newline included; empty for a line that does
    /// not exist.
    pub fn line_range(&self, file: FileId, line: usize) -> std::ops::Range<usize> {
        let text_len = self.text(file).len();
        let Some(starts) = self.line_starts.get(file.0 as usize) else {
            return 0..0;
        };
        match line.checked_sub(1).and_then(|index| starts.get(index)) {
            Some(&start) => start..starts.get(line).copied().unwrap_or(text_len),
            None => text_len..text_len,
        }
    }
}

/// The byte offsets where the lines of `text` start.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(newline, _)| newline + 1))
        .collect()
}

/// `offset`, clamped to `text` and moved back to a character boundary.
fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The 1-based line and column (in characters) of `offset` in `text`; offsets past the end or
/// inside a character count as the nearest character boundary before them.
///
/// Scans `text` from its start: for one lookup. [`SourceMap::line_col`] uses an index instead.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let text = "game \"x\"\nboard 8x8\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 9), (2, 1));
        assert_eq!(line_col(text, 15), (2, 7));
        assert_eq!(line_col(text, 1000), (3, 1));
    }

    #[test]
    fn line_col_counts_characters_not_bytes() {
        assert_eq!(line_col("é x", 3), (1, 3));
        assert_eq!(line_col("é x", 1), (1, 1));
    }

    #[test]
    fn the_indexed_lookup_agrees_with_the_scan() {
        let text = "game \"x\"\nboard 8x8\n\né x\n";
        let mut sources = SourceMap::new();
        let file = sources.add("x.variant", text);
        for offset in 0..text.len() + 3 {
            assert_eq!(
                sources.line_col(file, offset),
                line_col(text, offset),
                "offset {offset}"
            );
        }
        assert_eq!(sources.line_range(file, 2), 9..19);
        assert_eq!(sources.line_range(file, 5), text.len()..text.len());
        assert_eq!(sources.line_range(file, 6), text.len()..text.len());
        assert_eq!(sources.line_of(FileId(7), 3), 1);
    }

    #[test]
    fn source_map_names_files() {
        let mut sources = SourceMap::new();
        let first = sources.add("a.variant", "board 8x8");
        let second = sources.add("b.variant", "");
        assert_eq!(sources.name(first), "a.variant");
        assert_eq!(sources.name(second), "b.variant");
        assert_eq!(sources.snippet(Span::new(first, 6, 9)), "8x8");
        assert_eq!(sources.snippet(Span::new(first, 6, 90)), "");
    }
}
