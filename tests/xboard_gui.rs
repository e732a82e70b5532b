//! XBoard itself (Debian's `xboard`, headless under `xvfb-run` with `-noGUI`) plays one game
//! with `variant xboard` as an engine, saves it as PGN, and `variant replay` reads every move:
//! against Fairy-Stockfish in chess, crazyhouse and xiangqi (variants both GUI and opponent
//! know; xiangqi's ten ranks are counted from 0 over CECP and in XBoard's PGN), and
//! against itself on Takeover Chess's board, which neither XBoard nor Fairy-Stockfish knows:
//! XBoard learns the board (7x7 with holes), the pieces and the start position from the engine's
//! `setup` line and plays with its legality testing off, since the knights have no XBetza
//! equivalent. That game has no takeovers: XBoard 4.9 cannot show one (a move that converts the
//! piece it passes over), so Takeover Chess itself is an ignored test that says why.
//!
//! A last game checks the `piece` lines: a game file written here, chess with archbishops (`BN`)
//! and forward-only knights (`ffNfsN`), played by `variant xboard` against itself with XBoard's
//! legality testing on, so that XBoard judges every move by the XBetza it was sent (a move it
//! reads otherwise is forfeited: "invalid move").
//!
//! The games of `variant xboard` against itself are deterministic (both engines search to depth 3 on a clock that
//! never runs short); the games against Fairy-Stockfish are played at about half a second a
//! move (see [`AGAINST_FAIRY`]). XBoard ends a game still going after 40 moves as a draw
//! (`-adjudicateDrawMoves`); such a record is replayed as unfinished, since the rules did not
//! end it. XBoard's PGN names no game file, so the test adds the `GameFile` and
//! `DefinitionHash` tags that `variant replay` requires (the hash of `variant dump GAME`).
//!
//! Without `xboard`, `xvfb-run` or Fairy-Stockfish each test prints a `SKIPPED` line and passes,
//! except in CI (`CI` set), where `.ci/run` installs them and their absence fails the test.

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one game may take, XBoard's start and end included.
const GAME_TIME: Duration = Duration::from_secs(180);
/// The pace of the games against Fairy-Stockfish: 40 moves in 20 seconds, about half a second
/// a move. Not a fixed depth: Fairy-Stockfish's xboard mode refuses a legal reply that comes
/// within milliseconds of its own move (`Illegal move: d1h5` after `1. e3 e6` in crazyhouse),
/// as if its own move were not yet on its board.
const AGAINST_FAIRY: &[&str] = &["-mps", "40", "-tc", "0:20"];
/// Games XBoard starts from a position of its own (courier: backend.c's `CourierArray`, no
/// move played), whose Fairy-Stockfish start (variant.cpp's `startFen`, the library's too) is
/// loaded as a position file: XBoard sends it to both engines by `setboard`. Without it,
/// Fairy-Stockfish plays from its own start and XBoard forfeits its moves (`h8g8`); `variant
/// xboard` starts from XBoard's (tests/xboard.rs).
const FAIRY_STARTS: &[(&str, &str)] = &[(
    "courier",
    "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
)];
/// The moves after which XBoard adjudicates a draw.
const MOVE_CAP: u32 = 40;
/// How XBoard ends a game by a judgment of its own, which the game's rules need not share
/// (XBoard 4.9's texts): its draws by material or by a rule of its own for the game (xiangqi's
/// perpetual chasing), a flag's fall, a resignation. Such a record is replayed as unfinished and
/// the rules' verdict on its last position is not checked: every move still is.
const XBOARD_JUDGMENTS: &[&str] = &[
    "adjudication: Insufficient mating material",
    "adjudication: Trivial draw",
    "adjudication: perpetual",
    "adjudication: repetition",
    "adjudication: pawn-drop mate",
    "flag fell",
    "wins on time",
    "resigns",
];

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

/// XBoard's binary: `xboard` on the path or Debian's `/usr/games/xboard`.
fn xboard() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").into_iter().flat_map(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("xboard"))
            .collect::<Vec<_>>()
    });
    on_path
        .chain([PathBuf::from("/usr/games/xboard")])
        .find(|path| path.is_file())
}

/// Whether `xvfb-run` runs.
fn xvfb_run() -> bool {
    Command::new("xvfb-run")
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// The tools a test needs, or `None` after printing why it is skipped (failing under CI).
fn tools_or_skip(test: &str, needs_fairy: bool) -> Option<(PathBuf, Option<String>)> {
    let xboard = xboard();
    let fairy = common::fairy_stockfish();
    let missing: Vec<&str> = [
        (xboard.is_none(), "xboard (apt-get install xboard)"),
        (!xvfb_run(), "xvfb-run (apt-get install xvfb)"),
        (
            needs_fairy && fairy.is_none(),
            "Fairy-Stockfish (FAIRY_STOCKFISH or ../shared/tools/build-fairy-stockfish.sh)",
        ),
    ]
    .into_iter()
    .filter_map(|(absent, what)| absent.then_some(what))
    .collect();
    if missing.is_empty() {
        return Some((xboard?, fairy));
    }
    eprintln!(
        "SKIPPED {test}: missing {}; the game in XBoard did NOT run",
        missing.join(", ")
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set, so .ci/run must have installed {}",
        missing.join(", ")
    );
    None
}

/// A finished XBoard game: the PGN and XBoard's debug log (for failure messages).
struct Played {
    pgn: String,
    log: String,
}

/// Plays one game in XBoard between `first` (White) and `second`, in `variant` when given, at
/// the time control or depth of `pace` (XBoard's options).
fn play(
    dir: &Path,
    xboard: &Path,
    players: [&str; 2],
    variant: Option<&str>,
    pace: &[&str],
) -> Played {
    let [first, second] = players;
    let pgn = dir.join("game.pgn");
    let log = dir.join("xboard.log");
    let mut args: Vec<String> = vec![
        "-a".into(),
        xboard.display().to_string(),
        "-fcp".into(),
        first.into(),
        "-fd".into(),
        root().into(),
        "-scp".into(),
        second.into(),
        "-sd".into(),
        root().into(),
    ];
    if let Some(variant) = variant {
        args.extend(["-variant".into(), variant.into()]);
    }
    for arg in ["-mg", "1", "-xponder", "-xexit", "-noGUI"] {
        args.push(arg.into());
    }
    args.extend(pace.iter().map(|arg| arg.to_string()));
    args.extend([
        "-adjudicateDrawMoves".into(),
        MOVE_CAP.to_string(),
        "-saveSettingsOnExit".into(),
        "false".into(),
        "-saveGameFile".into(),
        pgn.display().to_string(),
        "-debug".into(),
        "-nameOfDebugFile".into(),
        log.display().to_string(),
    ]);
    if matches!(variant, Some("takeover-chess" | "forty-one-squares")) {
        args.extend(["-testLegality".into(), "false".into()]);
    }
    let mut child = Command::new("xvfb-run")
        .args(&args)
        .current_dir(dir)
        // XBoard reads and writes its settings in the home folder: a fresh one per test.
        .env("HOME", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // A group of its own, so that a game that hangs is ended with Xvfb, XBoard and the
        // engines, not only the xvfb-run script.
        .process_group(0)
        .spawn()
        .expect("xvfb-run starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("xvfb-run is waited for") {
            break Some(status);
        }
        if started.elapsed() > GAME_TIME {
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_default();
    let played = Played {
        pgn: read(&pgn),
        log: read(&log),
    };
    assert!(
        status.is_some_and(|s| s.success()),
        "XBoard did not end the game within {GAME_TIME:?} ({status:?}); its log ends:\n{}",
        tail(&played.log)
    );
    played
}

/// The last lines of a log.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// The moves of a PGN's movetext: comments, move numbers and the result left out.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let mut movetext = String::new();
    let mut depth = 0;
    for line in pgn.lines().filter(|line| !line.starts_with('[')) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => movetext.push(c),
                _ => {}
            }
        }
        movetext.push(' ');
    }
    movetext
        .split_whitespace()
        .filter(|token| !token.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(token))
        .map(str::to_string)
        .collect()
}

/// Checks an XBoard game: both engines moved, no move was refused, and `variant replay` plays
/// every move of the PGN in `game` (a name or a path) to the result XBoard gave, unless XBoard
/// adjudicated a long game as a draw (then the rules must not have ended it) or ended it by a
/// judgment of its own ([`XBOARD_JUDGMENTS`]). Returns the replay's output.
fn check_game(dir: &Path, played: &Played, game: &str) -> String {
    let moves = pgn_moves(&played.pgn);
    assert!(
        moves.len() >= 10,
        "too short a game: {}\nXBoard's log ends:\n{}",
        played.pgn,
        tail(&played.log)
    );
    for refusal in ["Illegal move", "illegal-move", "invalid move"] {
        assert!(
            !played.log.contains(refusal) && !played.pgn.contains(refusal),
            "`{refusal}` in the game:\n{}\nXBoard's log ends:\n{}",
            played.pgn,
            tail(&played.log)
        );
    }
    let file_name = Path::new(game)
        .file_name()
        .map_or(game.to_string(), |name| name.to_string_lossy().into_owned());
    let file_name = if file_name.ends_with(".variant") {
        file_name
    } else {
        format!("{file_name}.variant")
    };
    let mut record = played.pgn.replacen(
        "[Result ",
        &format!(
            "[GameFile \"{file_name}\"]\n[DefinitionHash \"{}\"]\n[Result ",
            common::definition_hash(game)
        ),
        1,
    );
    let adjudicated = played.pgn.contains("adjudication: long game");
    let judged = XBOARD_JUDGMENTS
        .iter()
        .any(|judgment| played.pgn.contains(judgment));
    if adjudicated || judged {
        for result in ["\"1/2-1/2\"]", "\"1-0\"]", "\"0-1\"]"] {
            record = record.replace(&format!("[Result {result}"), "[Result \"*\"]");
        }
    }
    let path = dir.join("tagged.pgn");
    std::fs::write(&path, &record).expect("the record is written");
    let output = common::variant(&[
        "replay",
        path.to_str().expect("a UTF-8 path"),
        "--game",
        game,
        "--no-color",
    ]);
    let text = common::stdout(&output);
    assert!(
        output.status.success(),
        "replay failed: {}\n{record}",
        common::stderr(&output)
    );
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.ends_with(&format!("({} moves)", moves.len())),
        "{first}: the PGN has {} moves",
        moves.len()
    );
    let result = text
        .lines()
        .rev()
        .find(|line| line.starts_with("Result: "))
        .unwrap_or_default();
    if adjudicated {
        assert_eq!(result, "Result: unfinished", "{text}");
    } else if judged {
        eprintln!("XBoard ended the game by its own judgment; the moves replayed, {result}");
    } else {
        assert_ne!(result, "Result: unfinished", "{text}");
    }
    text
}

fn ours(extra: &str) -> String {
    format!("{} xboard{extra}", env!("CARGO_BIN_EXE_variant"))
}

#[test]
fn xboard_plays_chess_between_variant_and_fairy_stockfish() {
    let Some((xboard, Some(fairy))) = tools_or_skip("xboard_plays_chess", true) else {
        return;
    };
    let dir = common::temporary_dir("xboard-chess");
    let played = play(&dir, &xboard, [&ours(""), &fairy], None, AGAINST_FAIRY);
    assert!(played.pgn.contains("[White \"variant "), "{}", played.pgn);
    assert!(
        played.pgn.contains("[Black \"Fairy-Stockfish"),
        "{}",
        played.pgn
    );
    check_game(&dir, &played, "chess");
}

#[test]
fn xboard_plays_crazyhouse_between_variant_and_fairy_stockfish() {
    let Some((xboard, Some(fairy))) = tools_or_skip("xboard_plays_crazyhouse", true) else {
        return;
    };
    let dir = common::temporary_dir("xboard-crazyhouse");
    let engine = ours(" --variant-path games/crazyhouse.variant");
    let played = play(
        &dir,
        &xboard,
        [&engine, &fairy],
        Some("crazyhouse"),
        AGAINST_FAIRY,
    );
    assert!(
        played.pgn.contains("[Variant \"crazyhouse\"]"),
        "{}",
        played.pgn
    );
    check_game(&dir, &played, "games/crazyhouse.variant");
}

/// XBoard's PGN of a xiangqi game in the game's notation, which `variant replay` reads: XBoard
/// counts the ranks of a ten-rank board from 0 in its PGN as in its moves (`Rxd0#`), the rank
/// that tells two pieces apart too (`E5a7`: the elephant on c6 of the game's notation), and names
/// the horse `H` and the elephant `E` and writes a soldier's move without a letter (`i5`), where
/// games/xiangqi.variant counts from 1 and writes `N`, `B` and `P` (its soldier is no pawn: it
/// never promotes). Headers and `{...}` comments are left as they are.
fn xiangqi_in_game_notation(pgn: &str) -> String {
    let mut out = String::new();
    // Comments may run over several lines.
    let mut depth = 0;
    for line in pgn.lines() {
        if depth == 0 && line.starts_with('[') {
            out.push_str(line);
        } else {
            // A rank follows a file (`d0`, `b2c4`) or a piece letter (`E5a7`).
            let (mut after_file, mut digits) = (false, String::new());
            let mut token_start = true;
            let flush = |digits: &mut String, out: &mut String| {
                if !digits.is_empty() {
                    let rank: u32 = digits.parse().expect("a rank");
                    out.push_str(&(rank + 1).to_string());
                    digits.clear();
                }
            };
            for c in line.chars() {
                if depth == 0 && c.is_ascii_digit() && (after_file || !digits.is_empty()) {
                    digits.push(c);
                    after_file = false;
                    continue;
                }
                flush(&mut digits, &mut out);
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                let c = match (depth == 0 && token_start, c) {
                    (true, 'H') => 'N',
                    (true, 'E') => 'B',
                    (true, 'a'..='i') => {
                        out.push('P');
                        c
                    }
                    _ => c,
                };
                after_file =
                    depth == 0 && (c.is_ascii_lowercase() || token_start && c.is_ascii_uppercase());
                token_start = c.is_whitespace();
                out.push(c);
            }
            flush(&mut digits, &mut out);
        }
        out.push('\n');
    }
    out
}

/// Xiangqi, a ten-rank board, whose ranks XBoard and Fairy-Stockfish count from 0 over CECP
/// (`b0c2`): `variant xboard` reads and writes moves so, or XBoard forfeits its first move.
#[test]
fn xboard_plays_xiangqi_between_variant_and_fairy_stockfish() {
    let Some((xboard, Some(fairy))) = tools_or_skip("xboard_plays_xiangqi", true) else {
        return;
    };
    let dir = common::temporary_dir("xboard-xiangqi");
    let mut played = play(
        &dir,
        &xboard,
        [&ours(""), &fairy],
        Some("xiangqi"),
        AGAINST_FAIRY,
    );
    assert!(
        played.pgn.contains("[Variant \"xiangqi\"]"),
        "{}",
        played.pgn
    );
    // Moves to and from XBoard's rank 0, the game's first rank.
    let moves = pgn_moves(&played.pgn);
    assert!(
        moves.iter().any(|m| m.contains('0')),
        "{moves:?}: no move on rank 0"
    );
    played.pgn = xiangqi_in_game_notation(&played.pgn);
    check_game(&dir, &played, "xiangqi");
}

/// Ignored: XBoard 4.9 cannot show a takeover in any form, so its board parts from the engines'
/// at the first one. A takeover (`e4d2^e3`) moves a piece and gives its mover the enemy piece it
/// passes over, on its square. XBoard 4.9.1's `ApplyMove` (backend.c) changes a square other
/// than a move's from- and to-square only by emptying it (a multi-leg move's kill squares
/// `e4e3,e3d2`, en passant, atomic blasts) or by moving a piece unchanged (castling's rook); it
/// creates a piece of the mover's colour only on the to-square (a promotion suffix, believed as
/// sent when legality testing is off) or on the from-square (S-Chess gating). The square taken
/// over is neither, and the from-square must hold a piece of the mover's colour (`ParseOneMove`
/// forfeits the move otherwise). The engine's `setboard` ends the game ("Engine aborts game").
/// So XBoard, sent `e4d2^e3` (read as `e4d2`) or `e4e3,e3d2` (e3 emptied), either keeps the
/// piece on e3 in its old owner's colour or removes it, and forfeits the first later move of
/// that piece. [`xboard_plays_takeover_chess_s_board_without_takeovers`] plays the board, the
/// pieces and the start position without the takeovers instead. Run with `-- --ignored` to see
/// the parting (it passed only while the engines happened to play no takeover).
#[test]
#[ignore = "XBoard 4.9 cannot show a takeover (it has no conversion of a passed piece): its board parts from the engines' (issue 29)"]
fn xboard_learns_takeover_chess_from_the_engine_and_plays_it() {
    let Some((xboard, _)) = tools_or_skip("xboard_learns_takeover_chess", false) else {
        return;
    };
    let dir = common::temporary_dir("xboard-takeover");
    let played = play(
        &dir,
        &xboard,
        [&ours(""), &ours("")],
        Some("takeover-chess"),
        &["-tc", "5", "-depth", "3"],
    );
    // XBoard took the board and the start position from the engine's `setup` line.
    assert!(
        played
            .log
            .contains("setup (PNBRQ.....M..........Kpnbrq.....m..........k) 7x7+0_fairy *rbkqb*/"),
        "{}",
        tail(&played.log)
    );
    assert!(
        played
            .pgn
            .contains("[FEN \"*rbkqb*/*pmpnp*/2p1p2/7/2P1P2/*PMPNP*/*RBKQB* w - - 0 1\"]"),
        "{}",
        played.pgn
    );
    let replayed = check_game(&dir, &played, "takeover-chess");
    // The game had takeovers, which XBoard passed on without their `^` mark.
    assert!(replayed.contains('^'), "{replayed}");
}

/// Takeover Chess without its takeovers: the 41-square board, the pieces (the two knights
/// stepping through a first square on the board) and the start position of
/// games/takeover-chess.variant, each piece with its FIDE moves only. Not Takeover Chess: no
/// takeover can arise in it, which is the part XBoard cannot show (see the ignored test above).
const FORTY_ONE_SQUARES: &str = r#"game "Forty-One Squares"
board 7x7 { holes a1 a2 g1 g2 a6 a7 g6 g7 }
side white { forward up }
side red { forward down; fen-letter b }
turns white red
piece King { letter K; value 0; royal; moves "K" }
piece Queen { letter Q; value 9; moves "Q" }
piece Rook { letter R; value 5; moves "R" }
piece Bishop { letter B; value 3; moves "B" }
piece Knight { letter N; value 3; path W any, then outward }
piece MirrorKnight { letter M; value 3; path F any, then outward }
piece Pawn { letter P; value 1; moves "mfW cfeF imfnD"; initial rank 2; promotes on last rank to Queen Rook Bishop Knight MirrorKnight; irreversible }
setup "*rbkqb*/*pmpnp*/2p1p2/7/2P1P2/*PMPNP*/*RBKQB* w - - 0 1"
end { check; checkmate loses; stalemate draws; repetition 3 draws; move-limit 50 draws }
"#;

/// XBoard learns Takeover Chess's board (7x7 with holes), pieces and start position from the
/// engine's `setup` line and plays a whole game of it, without takeovers, with its legality
/// testing off (the knights have no XBetza equivalent), `variant xboard` against itself.
#[test]
fn xboard_plays_takeover_chess_s_board_without_takeovers() {
    let Some((xboard, _)) = tools_or_skip("xboard_plays_takeover_chess_s_board", false) else {
        return;
    };
    let dir = common::temporary_dir("xboard-forty-one");
    let game = dir.join("forty-one-squares.variant");
    std::fs::write(&game, FORTY_ONE_SQUARES).expect("the game file is written");
    let game = game.to_str().expect("a UTF-8 path");
    let engine = ours(&format!(" --variant-path {game}"));
    let played = play(
        &dir,
        &xboard,
        [&engine, &engine],
        Some("forty-one-squares"),
        &["-tc", "5", "-depth", "3"],
    );
    for line in [
        "setup (PNBRQ.....M..........Kpnbrq.....m..........k) 7x7+0_fairy *rbkqb*/",
        "piece Q& Q",
        "# piece N (Knight): no exact XBetza equivalent",
    ] {
        assert!(played.log.contains(line), "{line}: {}", tail(&played.log));
    }
    assert!(
        played
            .pgn
            .contains("[FEN \"*rbkqb*/*pmpnp*/2p1p2/7/2P1P2/*PMPNP*/*RBKQB* w - - 0 1\"]"),
        "{}",
        played.pgn
    );
    // Both sides moved both kinds of knight, which XBoard took as sent.
    let moves = pgn_moves(&played.pgn);
    assert!(
        moves.iter().any(|m| m.starts_with('N')) && moves.iter().any(|m| m.starts_with('M')),
        "{moves:?}"
    );
    check_game(&dir, &played, game);
}

/// Chess with archbishops and forward-only knights: every piece has an XBetza equivalent.
const ARCHBISHOPS: &str = r#"game "Archbishops"
board 8x8
side white { forward up }
side black { forward down }
turns white black
piece King { letter K; value 0; royal; moves "K" }
piece Archbishop { letter A; value 7; moves "BN" }
piece Rook { letter R; value 5; moves "R" }
piece Bishop { letter B; value 3; moves "B" }
piece Keima { letter S; value 2; moves "ffN fsN" }
piece Pawn { letter P; value 1; moves "mfW cfeF imfnD"; initial rank 2; promotes on last rank to Archbishop Rook Bishop Keima; irreversible }
castling {
    white K king e1-g1 rook h1-f1
    white Q king e1-c1 rook a1-d1
    black k king e8-g8 rook h8-f8
    black q king e8-c8 rook a8-d8
}
setup "rsbakbsr/pppppppp/8/8/8/8/PPPPPPPP/RSBAKBSR w KQkq - 0 1"
end { check; checkmate loses; stalemate draws; repetition 3 draws; move-limit 50 draws }
"#;

#[test]
fn xboard_checks_every_move_by_the_piece_lines_it_was_sent() {
    let Some((xboard, _)) = tools_or_skip("xboard_checks_every_move_by_the_piece_lines", false)
    else {
        return;
    };
    let dir = common::temporary_dir("xboard-archbishops");
    let game = dir.join("archbishops.variant");
    std::fs::write(&game, ARCHBISHOPS).expect("the game file is written");
    let game = game.to_str().expect("a UTF-8 path");
    let engine = ours(&format!(" --variant-path {game}"));
    let played = play(
        &dir,
        &xboard,
        [&engine, &engine],
        Some("archbishops"),
        &["-tc", "5", "-depth", "3"],
    );
    for line in [
        "setup (P.BR...A...........S.Kp.br...a...........s.k) 8x8+0_fairy rsbakbsr/",
        "piece K& KO2",
        "piece A& BN",
        "piece S& ffNfsN",
        "piece P& fmWfceFifmnD",
    ] {
        assert!(played.log.contains(line), "{line}: {}", tail(&played.log));
    }
    // Both sides moved archbishops and knights, which XBoard judged by the lines above.
    let moves = pgn_moves(&played.pgn);
    for piece in ['A', 'S'] {
        assert!(
            moves.iter().filter(|m| m.starts_with(piece)).count() >= 2,
            "{piece}: {moves:?}"
        );
    }
    check_game(&dir, &played, game);
}

/// Plays one game of `game` in XBoard between `variant xboard` (White) and Fairy-Stockfish,
/// with XBoard's legality testing on, and checks it as [`check_game`] does.
fn plays_against_fairy(game: &str) -> Option<String> {
    let (xboard, Some(fairy)) = tools_or_skip(&format!("xboard_plays_{game}"), true)? else {
        return None;
    };
    let dir = common::temporary_dir(&format!("xboard-{game}"));
    let mut pace: Vec<String> = AGAINST_FAIRY.iter().map(|a| a.to_string()).collect();
    if let Some((_, fen)) = FAIRY_STARTS.iter().find(|(name, _)| *name == game) {
        let file = dir.join("start.fen");
        std::fs::write(&file, format!("{fen}\n")).expect("the start is written");
        pace.extend(["-lpf".to_string(), file.display().to_string()]);
    }
    let pace: Vec<&str> = pace.iter().map(String::as_str).collect();
    let played = play(&dir, &xboard, [&ours(""), &fairy], Some(game), &pace);
    Some(check_game(&dir, &played, game))
}

/// Berolina: XBoard 4.9's own berolina forfeits the pawns' diagonal steps (Fairy-Stockfish's
/// too), so `variant xboard` sends a `setup` and its pawn as `piece P& fmFfceWifmnA`, by which
/// XBoard then judges every move.
#[test]
fn xboard_plays_berolina_by_the_piece_lines_between_variant_and_fairy_stockfish() {
    plays_against_fairy("berolina");
}

/// Minishogi: the promoted pieces sit in XBoard's promoted slots (`+` in the table) under the
/// parent `shogi`, and a move that declines a promotion comes as `b3b1=`. Two faults this test
/// found, both fixed: `replay` read XBoard's `Ra1+` (a promotion that also checks) as a check
/// mark ([`PlusMark::Promotion`], tested in tests/records.rs); and `variant xboard`'s `setup`
/// put the Silver in XBoard's Knight slot, whose drops and promotions XBoard 4.9 judges by
/// shogi's knight under the parent `shogi`, so it forfeited Fairy-Stockfish's legal drop
/// `S@c2`: the Silver now takes the Ferz slot (`P.BR.S.....+.++G+....K`), as Fairy-Stockfish's
/// own `setup` has it. 16 runs in a row passed after the fixes (2026-11-27).
///
/// [`PlusMark::Promotion`]: variant_interpreter::PlusMark::Promotion
#[test]
fn xboard_plays_minishogi_between_variant_and_fairy_stockfish() {
    plays_against_fairy("minishogi");
}

/// Courier: XBoard starts it from its own position and ignores the engines' `setup`, so the
/// game is played from Fairy-Stockfish's start, loaded in XBoard ([`FAIRY_STARTS`]), which
/// XBoard sends to both engines by `setboard`.
#[test]
fn xboard_plays_courier_between_variant_and_fairy_stockfish() {
    plays_against_fairy("courier");
}

/// Every two-sided game that XBoard and Fairy-Stockfish both know by the library's name, one
/// game each (about a minute a game): run with `-- --ignored` for the sweep. Janggi and horde
/// are left out: XBoard 4.9.1 forfeits a soldier's sideways step (`a3b3`) and every move of
/// horde's White (no king) with legality testing on, Fairy-Stockfish's own as well. Courier is
/// played from Fairy-Stockfish's start, loaded in XBoard ([`FAIRY_STARTS`]).
///
/// The sweep of 2026-11-27 (20:00 UTC, main 58a681c): 23 of 26 played and replayed; courier,
/// seirawan and torpedo failed. Torpedo: XBoard forfeited our pawn's double step `h4h6` (no
/// `piece` line: since sent as `fmWfceFfmnD`), and, with that line, a rook move over a square
/// XBoard still held a pawn on: XBoard 4.9.1 removes the pawn taken en passant only when the
/// capture starts in the enemy's half (backend.c `ApplyMove`), so torpedo's `g2xh3` e.p. of a
/// pawn that went h4-h2 leaves XBoard's board wrong (1 game in 4): an XBoard limit. Courier:
/// XBoard forfeited our king's `f1g2`: XBoard starts courier from its own position (a pawn on
/// g2), ignoring the engines' `setup`; since, `variant xboard` starts from XBoard's, and this
/// test loads Fairy-Stockfish's start in XBoard. Seirawan: `variant replay` refused
/// XBoard's `O-O/H` (castling that gates the hawk on the king's square; read since, tested in
/// tests/records.rs).
#[test]
#[ignore = "a sweep of every game XBoard can play against Fairy-Stockfish: about half an hour"]
fn xboard_plays_every_game_against_fairy_stockfish() {
    let games = [
        "3check",
        "antichess",
        "atomic",
        "berolina",
        "courier",
        "crazyhouse",
        "extinction",
        "kingofthehill",
        "knightmate",
        "losers",
        "minishogi",
        "minixiangqi",
        "racingkings",
        "seirawan",
        "shako",
        "shogi",
        "spartan",
        "torpedo",
        "gothic",
        "grasshopper",
        "hoppelpoppel",
        "newzealand",
        "amazon",
        "chaturanga",
        "breakthrough",
        "dobutsu",
    ];
    let mut failed = Vec::new();
    for game in games {
        let outcome = std::panic::catch_unwind(|| plays_against_fairy(game));
        match outcome {
            Ok(_) => eprintln!("{game}: played and replayed"),
            Err(_) => failed.push(game),
        }
    }
    assert!(failed.is_empty(), "failed: {failed:?}");
}
