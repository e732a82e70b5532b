//! Board pictures as SVG: `show --svg`, `replay --svg` and the web board draw from here.
//!
//! Why hand-written SVG: a board is rectangles, text and one arrow, so a few format strings
//! give a picture every browser and converter reads, without a drawing crate to build. The
//! picture is drawn from what the session reports (the [`BoardView`], hands, prisons, control,
//! scores, result), so every game file gets one: any size up to 16x16, holes left out.
//!
//! Every square is a `<g data-square="e4">` and every piece a `<g data-piece="K"
//! data-side="white">` inside its square's group (or inside a pocket, with `data-pocket`):
//! tests, the web page's clicks and assistive tools read those attributes.

use crate::Failure;
use std::fmt::Write;
use std::path::Path;
use variant_dsl::{Definition, PieceId, SideId};
use variant_interpreter::{BoardView, Cell, Session};

/// Side of one square, in SVG units.
const SQUARE: usize = 48;
/// Room around the board for the coordinates.
const MARGIN: usize = 24;
/// Height of one line of text under the board (pockets, scores, result).
const LINE: usize = 30;

const LIGHT_SQUARE: &str = "#f0d9b5";
const DARK_SQUARE: &str = "#b58863";
const LAST_MOVE: &str = "#cdd26a";
const CHECK: &str = "#e0544e";

/// How to draw: which way up, and whether to mark each side's controlled squares.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Draw the board from the second side's point of view (top rank at the bottom).
    pub flipped: bool,
    /// Mark each side's controlled squares (games that keep a score).
    pub control: bool,
}

/// A side's colours: its fill, and the outline and text drawn on that fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Palette {
    fill: &'static str,
    ink: &'static str,
}

/// Colours by side: a side named after a colour gets it; the others get the next unused colour
/// of white, black, red, blue, so that two to four sides are always told apart.
fn palettes(definition: &Definition) -> Vec<Palette> {
    const NAMED: [(&str, Palette); 6] = [
        (
            "white",
            Palette {
                fill: "#ffffff",
                ink: "#000000",
            },
        ),
        (
            "black",
            Palette {
                fill: "#202020",
                ink: "#f0f0f0",
            },
        ),
        (
            "red",
            Palette {
                fill: "#d22b2b",
                ink: "#ffffff",
            },
        ),
        (
            "blue",
            Palette {
                fill: "#2b5fd2",
                ink: "#ffffff",
            },
        ),
        (
            "green",
            Palette {
                fill: "#2e8b3a",
                ink: "#ffffff",
            },
        ),
        (
            "yellow",
            Palette {
                fill: "#f2c318",
                ink: "#000000",
            },
        ),
    ];
    let named = |name: &str| {
        NAMED
            .iter()
            .find(|(colour, _)| name.eq_ignore_ascii_case(colour))
            .map(|(_, palette)| *palette)
    };
    let mut chosen: Vec<Option<Palette>> = definition
        .sides
        .iter()
        .map(|side| named(&side.name))
        .collect();
    for index in 0..chosen.len() {
        if chosen[index].is_none() {
            let free = NAMED
                .iter()
                .map(|(_, palette)| *palette)
                .find(|palette| !chosen.contains(&Some(*palette)));
            chosen[index] = Some(free.unwrap_or(NAMED[0].1));
        }
    }
    chosen
        .into_iter()
        .map(|p| p.unwrap_or(NAMED[0].1))
        .collect()
}

/// The standard glyph of a chess piece, by the piece's name (the filled form: it is coloured
/// with its side's fill).
fn chess_glyph(name: &str) -> Option<char> {
    let glyph = match name.to_ascii_lowercase().as_str() {
        "king" => '\u{265A}',
        "queen" => '\u{265B}',
        "rook" => '\u{265C}',
        "bishop" => '\u{265D}',
        "knight" => '\u{265E}',
        "pawn" => '\u{265F}',
        _ => return None,
    };
    Some(glyph)
}

/// The piece type a side's letter stands for: the side's own letter, else the piece's letter.
fn piece_of(definition: &Definition, side: usize, letter: char, promoted: bool) -> Option<usize> {
    let pieces = (0..definition.pieces.len())
        .filter(|&piece| definition.pieces[piece].promoted_form == promoted);
    pieces
        .clone()
        .find(|&piece| definition.piece_letter(SideId(side as u8), PieceId(piece as u8)) == letter)
        .or_else(|| {
            pieces.clone().find(|&piece| {
                definition.pieces[piece]
                    .letter
                    .eq_ignore_ascii_case(&letter)
            })
        })
}

/// `e4`: file letter and rank number of a grid index.
pub fn square_name(board: &BoardView, index: usize) -> String {
    let file = index % board.files;
    let rank = index / board.files;
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Escapes text for an SVG text node or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture of the session's position.
pub fn render(session: &dyn Session, options: Options) -> String {
    let definition = session.definition();
    let board = session.board();
    let colours = palettes(definition);
    let notes = notes(session);
    let pockets = pockets(session, &colours);
    let board_width = board.files * SQUARE;
    let board_height = board.ranks * SQUARE;
    let pockets_width = pockets.iter().map(|(_, width)| MARGIN * 2 + width).max();
    let width = (2 * MARGIN + board_width)
        .max(320)
        .max(pockets_width.unwrap_or(0));
    let below = MARGIN + LINE * (pockets.len() + notes.len());
    let height = MARGIN + board_height + below;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" data-game="{}" data-files="{}" data-ranks="{}">"#,
        escape(&definition.name),
        board.files,
        board.ranks
    );
    let _ = writeln!(
        out,
        r##"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#15781b" fill-opacity="0.8"/></marker></defs>"##
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa"/>"##
    );
    let geometry = Geometry {
        files: board.files,
        ranks: board.ranks,
        flipped: options.flipped,
    };
    out.push_str(&coordinates(&geometry));
    let control = if options.control && session.scores().is_some() {
        control_marks(session, &board, &geometry, &colours)
    } else {
        String::new()
    };
    let checked = checked_squares(session, &board);
    for index in 0..board.cells.len() {
        out.push_str(&square(
            definition, &board, index, &geometry, &colours, &checked,
        ));
    }
    out.push_str(&control);
    out.push_str(&arrow(&board, &geometry));
    let mut y = MARGIN + board_height + MARGIN;
    for (pocket, _) in &pockets {
        let _ = write!(
            out,
            r#"<g transform="translate({MARGIN},{y})">{pocket}</g>"#
        );
        out.push('\n');
        y += LINE;
    }
    for note in &notes {
        let _ = writeln!(
            out,
            r##"<text x="{MARGIN}" y="{}" font-size="15" fill="#222">{}</text>"##,
            y + 20,
            escape(note)
        );
        y += LINE;
    }
    out.push_str("</svg>\n");
    out
}

/// Where a grid index is drawn.
struct Geometry {
    files: usize,
    ranks: usize,
    flipped: bool,
}

impl Geometry {
    /// Top-left corner of the square at `index`.
    fn corner(&self, index: usize) -> (usize, usize) {
        let file = index % self.files;
        let rank = index / self.files;
        let (column, row) = if self.flipped {
            (self.files - 1 - file, rank)
        } else {
            (file, self.ranks - 1 - rank)
        };
        (MARGIN + column * SQUARE, MARGIN + row * SQUARE)
    }

    /// Centre of the square at `index`.
    fn centre(&self, index: usize) -> (usize, usize) {
        let (x, y) = self.corner(index);
        (x + SQUARE / 2, y + SQUARE / 2)
    }
}

/// File letters under the board and rank numbers beside it.
fn coordinates(geometry: &Geometry) -> String {
    let mut out = String::from(r##"<g font-size="13" fill="#555" text-anchor="middle">"##);
    for file in 0..geometry.files {
        let (x, _) = geometry.centre(file);
        let y = MARGIN + geometry.ranks * SQUARE + 16;
        let _ = write!(
            out,
            r#"<text x="{x}" y="{y}">{}</text>"#,
            (b'a' + file as u8) as char
        );
    }
    for rank in 0..geometry.ranks {
        let (_, y) = geometry.centre(rank * geometry.files);
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            MARGIN / 2,
            y + 5,
            rank + 1
        );
    }
    out.push_str("</g>\n");
    out
}

/// One square (nothing for a hole), with its piece.
fn square(
    definition: &Definition,
    board: &BoardView,
    index: usize,
    geometry: &Geometry,
    colours: &[Palette],
    checked: &[usize],
) -> String {
    if board.cells[index] == Cell::Hole {
        return String::new();
    }
    let (x, y) = geometry.corner(index);
    let fill = if checked.contains(&index) {
        CHECK
    } else if board.last_move.contains(&index) {
        LAST_MOVE
    } else if board.light[index] {
        LIGHT_SQUARE
    } else {
        DARK_SQUARE
    };
    let name = square_name(board, index);
    let mut out = format!(
        r#"<g data-square="{name}"><rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
    );
    if let Cell::Piece {
        side,
        letter,
        promoted,
    } = board.cells[index]
    {
        out.push_str(&piece(
            definition,
            side,
            (letter, promoted),
            (x + SQUARE / 2, y + SQUARE / 2),
            SQUARE,
            colours,
        ));
    }
    out.push_str("</g>\n");
    out
}

/// A piece centred at `centre`, `size` units tall: the chess glyph for the chess pieces, else
/// a disc with the piece's letter, after `+` for a promoted form (`+P`, as a FEN writes it).
fn piece(
    definition: &Definition,
    side: usize,
    (letter, promoted): (char, bool),
    (cx, cy): (usize, usize),
    size: usize,
    colours: &[Palette],
) -> String {
    let palette = colours.get(side).copied().unwrap_or(colours[0]);
    let side_name = definition
        .sides
        .get(side)
        .map_or("?", |side| side.name.as_str());
    let kind =
        piece_of(definition, side, letter, promoted).map(|piece| &definition.pieces[piece].name);
    let symbol = if promoted {
        format!("+{letter}")
    } else {
        letter.to_string()
    };
    let title = kind.map_or(String::new(), |name| {
        format!("<title>{} {}</title>", escape(side_name), escape(name))
    });
    let open = format!(
        r#"<g data-piece="{}" data-side="{}">{title}"#,
        escape(&symbol),
        escape(side_name)
    );
    let body = match kind.and_then(|name| chess_glyph(name)) {
        Some(glyph) => format!(
            r#"<text x="{cx}" y="{}" font-size="{}" text-anchor="middle" fill="{}" stroke="{}" stroke-width="1.2" paint-order="stroke">{glyph}</text>"#,
            cy + size * 3 / 10,
            size * 5 / 6,
            palette.fill,
            palette.ink
        ),
        None => format!(
            r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="{}" stroke="{}" stroke-width="2"/><text x="{cx}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{}">{}</text>"#,
            size * 2 / 5,
            palette.fill,
            palette.ink,
            cy + size / 6,
            if promoted { size * 2 / 5 } else { size / 2 },
            palette.ink,
            escape(&symbol.to_ascii_uppercase())
        ),
    };
    format!("{open}{body}</g>")
}

/// The squares of the royal pieces of the sides in check.
fn checked_squares(session: &dyn Session, board: &BoardView) -> Vec<usize> {
    let definition = session.definition();
    let checked: Vec<usize> = session
        .checked_sides()
        .iter()
        .filter_map(|name| definition.sides.iter().position(|side| &side.name == name))
        .collect();
    (0..board.cells.len())
        .filter(|&index| match board.cells[index] {
            Cell::Piece {
                side,
                letter,
                promoted,
            } => {
                checked.contains(&side)
                    && piece_of(definition, side, letter, promoted)
                        .is_some_and(|piece| definition.pieces[piece].royal)
            }
            _ => false,
        })
        .collect()
}

/// An arrow from the last move's origin to its destination.
fn arrow(board: &BoardView, geometry: &Geometry) -> String {
    let [from, to] = board.last_move[..] else {
        return String::new();
    };
    let (x1, y1) = geometry.centre(from);
    let (x2, y2) = geometry.centre(to);
    format!(
        r##"<line class="last-move" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#15781b" stroke-opacity="0.7" stroke-width="7" stroke-linecap="round" marker-end="url(#arrowhead)"/>"##
    ) + "\n"
}

/// For each side, a small square of its colour in its own corner of every square it controls.
fn control_marks(
    session: &dyn Session,
    board: &BoardView,
    geometry: &Geometry,
    colours: &[Palette],
) -> String {
    let mut out = String::from(r#"<g class="control">"#);
    for (side, def) in session.definition().sides.iter().enumerate() {
        let palette = colours.get(side).copied().unwrap_or(colours[0]);
        for name in session.controlled_squares(&def.name) {
            let Some(index) = (0..board.cells.len()).find(|&i| square_name(board, i) == name)
            else {
                continue;
            };
            let (x, y) = geometry.corner(index);
            let mark = SQUARE / 5;
            let dx = if side % 2 == 0 { 2 } else { SQUARE - mark - 2 };
            let dy = if side < 2 { 2 } else { SQUARE - mark - 2 };
            let _ = write!(
                out,
                r#"<rect data-control="{}" data-at="{name}" x="{}" y="{}" width="{mark}" height="{mark}" fill="{}" stroke="{}" stroke-width="1"/>"#,
                escape(&def.name),
                x + dx,
                y + dy,
                palette.fill,
                palette.ink
            );
        }
    }
    out.push_str("</g>\n");
    out
}

/// One line per side holding pieces in hand, and one per side with pieces in prison: the
/// side's name, then its pieces with their counts.
fn pockets(session: &dyn Session, colours: &[Palette]) -> Vec<(String, usize)> {
    let definition = session.definition();
    let mut lines = Vec::new();
    for (side, hand) in session.hands().iter().enumerate() {
        if hand.pieces.is_empty() {
            continue;
        }
        let held: Vec<(char, u32)> = hand
            .pieces
            .iter()
            .map(|(letter, name, count)| {
                let piece = definition.pieces.iter().position(|def| &def.name == name);
                let letter = piece.map_or(*letter, |piece| {
                    definition.piece_letter(SideId(side as u8), PieceId(piece as u8))
                });
                (letter, *count)
            })
            .collect();
        lines.push(pocket(
            definition,
            side,
            &format!("{} in hand", hand.side),
            "hand",
            &held,
            colours,
        ));
    }
    if let Some(prisoners) = session.turn_report().prisoners {
        for (side, def) in definition.sides.iter().enumerate() {
            let letters = prisoners.get(&def.name).map_or("", String::as_str);
            let mut held: Vec<(char, u32)> = Vec::new();
            for letter in letters.chars() {
                match held.iter_mut().find(|(l, _)| *l == letter) {
                    Some(entry) => entry.1 += 1,
                    None => held.push((letter, 1)),
                }
            }
            if !held.is_empty() {
                let label = format!("{}'s prisoners", def.name);
                lines.push(pocket(definition, side, &label, "prison", &held, colours));
            }
        }
    }
    lines
}

/// A row of pieces after a label, each with `data-pocket` and its count; and its width.
fn pocket(
    definition: &Definition,
    side: usize,
    label: &str,
    kind: &str,
    held: &[(char, u32)],
    colours: &[Palette],
) -> (String, usize) {
    let side_name = &definition.sides[side].name;
    let mut out = format!(
        r##"<g data-pocket="{kind}" data-owner="{}"><text x="0" y="20" font-size="15" fill="#222">{}:</text>"##,
        escape(side_name),
        escape(label)
    );
    let mut x = 8 * label.chars().count() + 24;
    for &(letter, count) in held {
        let _ = write!(out, r#"<g data-count="{count}">"#);
        out.push_str(&piece(
            definition,
            side,
            (letter, false),
            (x + 12, 14),
            28,
            colours,
        ));
        if count > 1 {
            let _ = write!(
                out,
                r##"<text x="{}" y="22" font-size="13" fill="#222">×{count}</text>"##,
                x + 26
            );
        }
        out.push_str("</g>");
        x += if count > 1 { 52 } else { 32 };
    }
    out.push_str("</g>");
    (out, x)
}

/// The lines under the pockets: side to move or result, check, scores, the actions of a turn
/// under way.
fn notes(session: &dyn Session) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(scores) = session.scores() {
        let listed: Vec<String> = scores.iter().map(|(s, v)| format!("{s} {v}")).collect();
        notes.push(format!("Scores: {}", listed.join(", ")));
    }
    match session.outcome() {
        Some(outcome) => notes.push(format!("Result: {}", outcome.description())),
        None => {
            let turn = session.turn_report();
            let phase = turn.phase.as_deref().filter(|phase| *phase != "play");
            let mut line = match phase {
                Some(phase) => format!("{phase} phase: {} to move", session.side_to_move()),
                None => format!("{} to move", session.side_to_move()),
            };
            if session.in_check() {
                line.push_str(" (check)");
            }
            if let Some(actions) = turn.turn_actions.filter(|a| !a.is_empty()) {
                line.push_str(&format!("; this turn so far: {}", actions.join(" ")));
            }
            notes.push(line);
        }
    }
    notes
}

/// Writes a picture to `file`, saying which file could not be written.
pub fn write(file: &Path, picture: &str) -> Result<(), Failure> {
    std::fs::write(file, picture)
        .map_err(|error| Failure::Message(format!("cannot write `{}`: {error}", file.display())))
}
