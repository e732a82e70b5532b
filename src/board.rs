//! The board as a person sees it at the prompt: squares, pieces, holes left blank, the last
//! move highlighted, then hands, scores and whose turn it is.
//!
//! Colour only helps a person at a terminal: it is used when standard output is a terminal,
//! unless `--no-color` or `NO_COLOR` says otherwise; plain text (the same drawing as `show`,
//! with the last move named below it) is what files, pipes and the tests get.

use std::io::IsTerminal;
use variant_dsl::Definition;
use variant_interpreter::{BoardView, Cell, Session};

/// Whether to draw in colour: a terminal, and neither `--no-color` nor `NO_COLOR`.
pub fn use_color(no_color_flag: bool) -> bool {
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color_flag && !no_color_env && std::io::stdout().is_terminal()
}

const RESET: &str = "\x1b[0m";
const LIGHT: &str = "\x1b[48;5;180m";
const DARK: &str = "\x1b[48;5;137m";
const HIGHLIGHT: &str = "\x1b[48;5;185m";
/// Piece colours per side index: white, black, then red, blue for more sides.
const SIDE_COLORS: [&str; 4] = ["\x1b[1;97m", "\x1b[1;30m", "\x1b[1;31m", "\x1b[1;34m"];

/// The board drawn, top rank first, with file letters below.
pub fn draw(board: &BoardView, color: bool) -> String {
    let mut out = String::new();
    for rank in (0..board.ranks).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..board.files {
            let index = rank * board.files + file;
            out.push_str(&cell(board, index, color));
        }
        if color {
            out.push_str(RESET);
        }
        out.push('\n');
    }
    out.push_str("   ");
    let width = if board.promoted_forms { 3 } else { 2 };
    for file in 0..board.files {
        let letter = (b'a' + file as u8) as char;
        if color {
            out.push_str(&format!("{letter:>width$} "));
        } else {
            out.push_str(&format!("{letter:>width$}"));
        }
    }
    out.push('\n');
    out
}

/// One cell: its symbol right-aligned in a column of 2 characters, or of 3 in a game with
/// promoted forms (` +P`); in colour, with a blank after it.
fn cell(board: &BoardView, index: usize, color: bool) -> String {
    let glyph = match &board.cells[index] {
        Cell::Hole => " ".to_string(),
        Cell::Empty if color => " ".to_string(),
        Cell::Empty => ".".to_string(),
        piece => piece.symbol().unwrap_or_default(),
    };
    let width = if board.promoted_forms { 3 } else { 2 };
    if !color {
        return format!("{glyph:>width$}");
    }
    if board.cells[index] == Cell::Hole {
        return format!("{RESET}{:width$} ", "");
    }
    let background = if board.last_move.contains(&index) {
        HIGHLIGHT
    } else if board.light[index] {
        LIGHT
    } else {
        DARK
    };
    let foreground = match board.cells[index] {
        Cell::Piece { side, .. } => SIDE_COLORS[side % SIDE_COLORS.len()],
        _ => "",
    };
    format!("{RESET}{background}{foreground}{glyph:>width$} ")
}

/// The hands that hold something: `white in hand: K Q R×2`.
pub fn hands(session: &dyn Session) -> String {
    let mut out = String::new();
    for hand in session.hands() {
        if hand.pieces.is_empty() {
            continue;
        }
        let pieces: Vec<String> = hand
            .pieces
            .iter()
            .map(|(letter, _, count)| match count {
                1 => letter.to_string(),
                n => format!("{letter}×{n}"),
            })
            .collect();
        out.push_str(&format!("{} in hand: {}\n", hand.side, pieces.join(" ")));
    }
    out
}

/// `Scores: white 3, black 5`, for games that keep a score.
pub fn scores(session: &dyn Session) -> String {
    match session.scores() {
        Some(scores) => {
            let listed: Vec<String> = scores.iter().map(|(s, v)| format!("{s} {v}")).collect();
            format!("Scores: {}\n", listed.join(", "))
        }
        None => String::new(),
    }
}

/// The prisons that hold something: `black's prisoners: Q R` (pieces of black held by others).
pub fn prisons(session: &dyn Session) -> String {
    let Some(prisoners) = session.turn_report().prisoners else {
        return String::new();
    };
    let mut out = String::new();
    for side in &session.definition().sides {
        let letters = prisoners.get(&side.name).map_or("", String::as_str);
        let side = &side.name;
        if !letters.is_empty() {
            let listed: Vec<String> = letters.chars().map(String::from).collect();
            out.push_str(&format!("{side}'s prisoners: {}\n", listed.join(" ")));
        }
    }
    out
}

/// What the side to move may do: a move, a placement from the hand, or either, with an example
/// taken from its legal moves; in a placement phase, the phase and its task first; in a turn of
/// several actions, which action it is; and `pass` when that is all there is.
pub fn turn_kind(session: &dyn Session) -> String {
    let moves = session.legal_moves();
    let drops: Vec<&String> = moves.iter().filter(|m| m.contains('@')).collect();
    let example = |wanted: &dyn Fn(&String) -> bool| {
        moves
            .iter()
            .find(|m| wanted(m))
            .map(|m| session.san(m).unwrap_or_else(|| m.clone()))
            .map_or(String::new(), |m| format!(" (e.g. {m})"))
    };
    let kind = match (drops.len(), moves.len()) {
        _ if moves.len() == 1 && moves[0] == "pass" => "no legal action: type `pass`".to_string(),
        (0, _) => format!("a move{}", example(&|m| !m.contains('@'))),
        (d, n) if d == n => format!("a placement from the hand{}", example(&|m| m.contains('@'))),
        _ => format!(
            "a move{} or a placement from the hand{}",
            example(&|m| !m.contains('@')),
            example(&|m| m.contains('@'))
        ),
    };
    let turn = session.turn_report();
    let kind = match (turn.turn_actions, session.definition().turn.actions) {
        (Some(taken), limit) if limit > 1 && turn.phase.as_deref().is_none_or(|p| p == "play") => {
            format!(
                "action {} of up to {limit} this turn, {kind}",
                taken.len() + 1
            )
        }
        _ => kind,
    };
    match turn.phase.as_deref().filter(|phase| *phase != "play") {
        Some(phase) => format!("{}; {kind}", phase_task(session.definition(), phase)),
        None => kind,
    }
}

/// A placement phase and its task, from the game file: `setup phase: white, then black each
/// place their whole hand, one piece a turn (must place on ranks 1-2)`.
pub fn phase_task(definition: &Definition, phase: &str) -> String {
    let Some(def) = definition.phases.iter().find(|p| p.name == phase) else {
        return format!("{phase} phase");
    };
    let order: Vec<&str> = def
        .order
        .iter()
        .filter_map(|side| definition.sides.get(side.0 as usize))
        .map(|side| side.name.as_str())
        .collect();
    let rules: Vec<&str> = def
        .drops
        .constraints
        .iter()
        .map(|c| c.origin.text.as_str())
        .filter(|text| !text.is_empty())
        .collect();
    let rules = if rules.is_empty() {
        String::new()
    } else {
        format!(" ({})", rules.join("; "))
    };
    let who = match order.as_slice() {
        [one] => format!("{one} places its whole hand"),
        many => format!("{}, each place their whole hand", many.join(", then ")),
    };
    format!("{phase} phase: {who}, one piece a turn{rules}")
}

/// The game in a few lines, for the start of a game and the `rules` command: its name and
/// description, then each side's pieces with their letters (as typed and drawn).
pub fn rules_text(definition: &Definition) -> String {
    let mut out = match &definition.description {
        Some(description) => format!("{}: {description}\n", definition.name),
        None => format!("{}\n", definition.name),
    };
    out.push_str("Pieces (as typed and drawn):\n");
    for (index, side) in definition.sides.iter().enumerate() {
        let pieces: Vec<String> = definition
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, def)| !def.neutral)
            .map(|(piece, def)| {
                // A promoted form is typed `+P` in FENs and drawn as its letter.
                let letter = definition.piece_symbol(
                    variant_dsl::SideId(index as u8),
                    variant_dsl::PieceId(piece as u8),
                );
                format!("{letter} {}", def.name)
            })
            .collect();
        out.push_str(&format!("  {}: {}\n", side.name, pieces.join(", ")));
    }
    if let Some(neutral) = definition.neutral_piece() {
        let name = &definition.pieces[neutral.index()].name;
        out.push_str(&format!(
            "  neither side's: * {name}, placed by every move\n"
        ));
    }
    out
}

/// The whole picture: board, last move, hands, scores.
pub fn picture(session: &dyn Session, color: bool) -> String {
    let mut out = draw(&session.board(), color);
    let history = session.history();
    let sans = session.history_san();
    if let (Some(uci), Some(san)) = (history.last(), sans.last()) {
        let mover = mover_of_last(session);
        if san == uci {
            out.push_str(&format!("Last move: {mover}{san}\n"));
        } else {
            out.push_str(&format!("Last move: {mover}{san} ({uci})\n"));
        }
    }
    out.push_str(&hands(session));
    out.push_str(&prisons(session));
    out.push_str(&scores(session));
    out
}

/// "black " when the side that played the last move is known from the history, else nothing.
fn mover_of_last(session: &dyn Session) -> String {
    session
        .plies()
        .last()
        .and_then(|&(side, _)| session.definition().sides.get(side))
        .map_or(String::new(), |side| format!("{} ", side.name))
}
