//! Board pictures as PNG through the real binary: `show --png` and `replay --png` rasterise the
//! SVG picture, so the image has the SVG's size and its squares their colours.

mod common;

use common::{stderr, stdout, variant};
use std::path::Path;

/// The light and dark squares' colours of src/svg.rs.
const LIGHT: [u8; 3] = [0xf0, 0xd9, 0xb5];
const DARK: [u8; 3] = [0xb5, 0x88, 0x63];

/// A fresh folder for one test.
fn scratch(name: &str) -> common::TemporaryDir {
    common::temporary_dir(&format!("png-{name}"))
}

/// A decoded image: width, height and RGBA pixels.
struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Image {
    fn read(file: &Path) -> Image {
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(file).expect("the PNG file"),
        ));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut rgba = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut rgba).expect("a frame");
        assert_eq!(info.color_type, png::ColorType::Rgba, "RGBA pixels");
        Image {
            width: info.width,
            height: info.height,
            rgba,
        }
    }

    /// The colour at (x, y), without its alpha.
    fn rgb(&self, x: u32, y: u32) -> [u8; 3] {
        let at = ((y * self.width + x) * 4) as usize;
        [self.rgba[at], self.rgba[at + 1], self.rgba[at + 2]]
    }
}

/// `show ARGS... --svg` and `--png` of the same position: the SVG's text and the image.
fn both(name: &str, args: &[&str]) -> (String, Image) {
    let dir = scratch(name);
    let (svg, png) = (dir.join("board.svg"), dir.join("board.png"));
    for (flag, file) in [("--svg", &svg), ("--png", &png)] {
        let mut all = vec!["show"];
        all.extend_from_slice(args);
        all.extend_from_slice(&[flag, file.to_str().expect("utf-8")]);
        let output = variant(&all);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    (
        std::fs::read_to_string(&svg).expect("the SVG"),
        Image::read(&png),
    )
}

/// The centre of a square in the SVG (its `rect`'s x, y and size).
fn centre(svg: &str, square: &str) -> (u32, u32) {
    let document = roxmltree::Document::parse(svg).expect("XML");
    let group = document
        .descendants()
        .find(|n| n.attribute("data-square") == Some(square))
        .unwrap_or_else(|| panic!("no {square}"));
    let rect = group
        .children()
        .find(|n| n.has_tag_name("rect"))
        .expect("a rect");
    let number = |name: &str| -> f64 { rect.attribute(name).expect(name).parse().expect(name) };
    (
        (number("x") + number("width") / 2.0) as u32,
        (number("y") + number("height") / 2.0) as u32,
    )
}

#[test]
fn show_png_has_the_svgs_size_and_its_square_colours() {
    let (svg, image) = both("chess", &["chess", "--play", "e4"]);
    let document = roxmltree::Document::parse(&svg).expect("XML");
    let size = |name: &str| -> u32 {
        let root = document.root_element();
        root.attribute(name).expect(name).parse().expect(name)
    };
    assert_eq!((image.width, image.height), (size("width"), size("height")));
    // Empty squares: d5 light, d4 dark; e2 was emptied by the move (the last move's colour).
    let (x, y) = centre(&svg, "d5");
    assert_eq!(image.rgb(x, y), LIGHT, "d5 at ({x}, {y})");
    let (x, y) = centre(&svg, "d4");
    assert_eq!(image.rgb(x, y), DARK, "d4 at ({x}, {y})");
    let (x, y) = centre(&svg, "e2");
    assert_ne!(
        image.rgb(x, y),
        LIGHT,
        "e2 is marked as the last move's start"
    );
    assert_ne!(
        image.rgb(x, y),
        DARK,
        "e2 is marked as the last move's start"
    );
}

#[test]
fn flipped_png_puts_a1_at_the_top() {
    let (svg, image) = both(
        "flipped",
        &["chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--flip"],
    );
    let (x, y) = centre(&svg, "a1");
    assert!(y < image.height / 2, "a1 is drawn at the top when flipped");
    assert_eq!(image.rgb(x, y), DARK);
}

#[test]
fn replay_png_writes_one_image_per_position() {
    let dir = scratch("replay");
    let record = dir.join("game.pgn");
    let output = common::run_in(
        &dir,
        &[
            "play", "chess", "--white", "human", "--black", "human", "--record", "game.pgn",
        ],
        "e4\ne5\nNf3\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let pictures = dir.join("pictures");
    let output = variant(&[
        "replay",
        record.to_str().expect("utf-8"),
        "--png",
        pictures.to_str().expect("utf-8"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("Pictures: 4 PNG files"),
        "{}",
        stdout(&output)
    );
    for ply in 0..4 {
        let image = Image::read(&pictures.join(format!("{ply:03}.png")));
        assert!(image.width > 400 && image.height > 400);
    }
}

#[test]
fn an_unwritable_png_file_is_a_clear_error() {
    let output = variant(&["show", "chess", "--png", "/nonexistent-dir/board.png"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("cannot write `/nonexistent-dir/board.png`"),
        "{}",
        stderr(&output)
    );
    let output = variant(&["show", "chess", "--png", "a.png", "--svg", "a.svg"]);
    assert!(!output.status.success(), "one picture at a time");
}
