//! Board pictures as PNG: `show --png` and `replay --png` rasterise the SVG of [`crate::svg`].
//!
//! Why resvg: it is the maintained pure-Rust SVG renderer (usvg parses, tiny-skia paints), so
//! the binary stays one file that needs no system library, and its output is the same picture
//! the SVG is, drawn by the same renderer, never a second drawing of the board to keep in step.
//! Text (coordinates, letters, the chess glyphs) is drawn with the system's fonts, which are
//! read once per [`Rasteriser`].

use crate::Failure;
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg::{Options, Tree};
use std::path::Path;

/// What rasterising needs besides the picture: the fonts, read once.
pub struct Rasteriser {
    options: Options<'static>,
}

impl Rasteriser {
    /// A rasteriser with the system's fonts.
    pub fn new() -> Rasteriser {
        let mut options = Options::default();
        options.fontdb_mut().load_system_fonts();
        Rasteriser { options }
    }

    /// The SVG `picture` as PNG bytes, one pixel per SVG unit, on white.
    pub fn png(&self, picture: &str) -> Result<Vec<u8>, Failure> {
        let failed = |what: String| Failure::Message(format!("cannot draw the PNG: {what}"));
        let tree = Tree::from_str(picture, &self.options).map_err(|e| failed(e.to_string()))?;
        let size = tree.size().to_int_size();
        let mut pixmap = Pixmap::new(size.width(), size.height())
            .ok_or_else(|| failed(format!("{}x{} pixels", size.width(), size.height())))?;
        pixmap.fill(Color::WHITE);
        resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
        pixmap.encode_png().map_err(|e| failed(e.to_string()))
    }

    /// Writes the SVG `picture` as a PNG file, saying which file could not be written.
    pub fn write(&self, file: &Path, picture: &str) -> Result<(), Failure> {
        let bytes = self.png(picture)?;
        std::fs::write(file, bytes).map_err(|error| {
            Failure::Message(format!("cannot write `{}`: {error}", file.display()))
        })
    }
}
