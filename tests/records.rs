//! Game records: what `play` saves loads back to the same position, in `play --load` and in
//! `replay`; corrupted, truncated and foreign records, and records of another version of a game
//! file, are refused with a clear message; chess records are standard PGN that python-chess
//! reads (when python3 and python-chess are installed; see `tests/python_chess.rs`).

use proptest::prelude::*;
use std::path::Path;
use std::process::{Command, Output};

mod common;

use common::{games, games_dir, run_in, sides, temporary_dir, text};

/// `--SIDE PLAYER` for every side.
fn players(game: &str, player: &str) -> Vec<String> {
    sides(game)
        .iter()
        .flat_map(|side| [format!("--{side}"), player.to_string()])
        .collect()
}

/// The value of the last `FEN: ` line.
fn fen_line(output: &Output) -> String {
    text(&output.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("FEN: "))
        .next_back()
        .unwrap_or_else(|| {
            panic!(
                "no FEN line in {}{}",
                text(&output.stdout),
                text(&output.stderr)
            )
        })
        .to_string()
}

fn args(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

/// Plays a random game of `game` with `seed`, recorded in `dir/name`; returns the final FEN.
fn random_game(dir: &Path, game: &str, seed: u64, name: &str) -> String {
    let mut command = vec![
        "play".to_string(),
        game.to_string(),
        "--seed".into(),
        seed.to_string(),
    ];
    command.extend(players(game, "random"));
    command.extend(["--record".into(), name.to_string()]);
    let output = run_in(dir, &args(&command), "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    fen_line(&output)
}

/// The moves of a record in the game's notation, from `replay`'s `N. side SAN (uci)` lines.
fn replayed_moves(output: &Output) -> Vec<String> {
    text(&output.stdout)
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()) && l.ends_with(')'))
        .filter_map(|l| {
            l.rsplit_once('(')
                .map(|(_, uci)| uci.trim_end_matches(')').to_string())
        })
        .collect()
}

fn show_fen(game: &str, moves: &[String]) -> String {
    let output = run_in(
        &games_dir(),
        &["show", game, "--json", "--play", &moves.join(" ")],
        "",
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    value["fen"].as_str().expect("fen").to_string()
}

fn check_round_trip(game: &str, seed: u64) {
    let dir = temporary_dir(&format!("round-{game}-{seed}"));
    let final_fen = random_game(&dir, game, seed, "full.pgn");
    let replay = run_in(&dir, &["replay", "full.pgn"], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert_eq!(fen_line(&replay), final_fen, "{game} seed {seed}: replay");
    let moves = replayed_moves(&replay);
    assert!(!moves.is_empty());
    // The whole game, loaded: already over, so it ends at once, in the same position.
    let mut load = vec!["play".to_string(), "--load".into(), "full.pgn".into()];
    load.extend(players(game, "random"));
    let loaded = run_in(&dir, &args(&load), "");
    assert!(loaded.status.success(), "{}", text(&loaded.stderr));
    assert_eq!(
        fen_line(&loaded),
        final_fen,
        "{game} seed {seed}: play --load"
    );
    // A prefix, written in the game's notation, resumes at that position.
    let keep = (seed as usize) % moves.len();
    let record = std::fs::read_to_string(dir.join("full.pgn")).expect("record");
    let tags: Vec<&str> = record
        .lines()
        .take_while(|l| l.starts_with('['))
        .filter(|l| !l.starts_with("[Result") && !l.starts_with("[Termination"))
        .collect();
    let prefix = format!("{}\n\n{} *\n", tags.join("\n"), moves[..keep].join(" "));
    std::fs::write(dir.join("prefix.pgn"), prefix).expect("written");
    let expected = show_fen(game, &moves[..keep]);
    let mut resume = vec!["play".to_string(), "--load".into(), "prefix.pgn".into()];
    resume.extend(players(game, "human"));
    let resumed = run_in(&dir, &args(&resume), "quit\n");
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(
        fen_line(&resumed),
        expected,
        "{game} seed {seed}: {keep} moves resumed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn saved_records_load_back_to_the_same_position(game in any::<prop::sample::Index>(), seed in 0u64..1_000_000) {
        let games = games();
        check_round_trip(&games[game.index(games.len())], seed);
    }
}

#[test]
fn every_game_round_trips_at_least_once() {
    for (i, game) in games().iter().enumerate() {
        check_round_trip(game, 1000 + i as u64);
    }
}

/// A finished chess game's record, in `dir/c.pgn`.
fn chess_record(dir: &Path) -> String {
    random_game(dir, "chess", 5, "c.pgn");
    std::fs::read_to_string(dir.join("c.pgn")).expect("record")
}

fn refused(dir: &Path, args: &[&str], expected: &str) {
    let output = run_in(dir, args, "quit\n");
    let err = text(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{args:?}: {err}{}",
        text(&output.stdout)
    );
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(
        err.contains(expected),
        "{args:?}: expected {expected:?} in {err}"
    );
}

#[test]
fn truncated_records_are_refused_wherever_they_are_cut() {
    let dir = temporary_dir("truncated");
    let record = chess_record(&dir);
    let moves_start = record.find("\n\n").expect("moves") + 2;
    for cut in (moves_start + 1..record.len() - 8).step_by(97) {
        std::fs::write(dir.join("cut.pgn"), &record[..cut]).expect("written");
        let output = run_in(&dir, &["replay", "cut.pgn"], "");
        let err = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "cut at {cut}: {err}");
        assert!(
            err.contains("truncated") || err.contains("cannot be played"),
            "cut at {cut}: {err}"
        );
    }
    // Cut inside a tag.
    std::fs::write(dir.join("tag.pgn"), &record[..20]).expect("written");
    refused(&dir, &["replay", "tag.pgn"], "may be truncated");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupted_records_are_refused() {
    let dir = temporary_dir("corrupted");
    let record = chess_record(&dir);
    let corrupt = record
        .replacen(" Nc3 ", " Ke5 ", 1)
        .replacen("1. ", "1. Ke5 ", 1);
    std::fs::write(dir.join("move.pgn"), corrupt).expect("written");
    refused(
        &dir,
        &["replay", "move.pgn"],
        "move 1 (`Ke5`) cannot be played",
    );
    let mut bytes = record.clone().into_bytes();
    bytes[record.len() / 2] = 0xFF;
    std::fs::write(dir.join("binary.pgn"), bytes).expect("written");
    refused(&dir, &["replay", "binary.pgn"], "not UTF-8 text");
    std::fs::write(dir.join("empty.pgn"), "").expect("written");
    refused(&dir, &["replay", "empty.pgn"], "has no tags");
    refused(&dir, &["play", "--load", "empty.pgn"], "has no tags");
    let unquoted = record.replacen("[Seed \"5\"]", "[Seed 5]", 1);
    std::fs::write(dir.join("tag.pgn"), unquoted).expect("written");
    refused(&dir, &["replay", "tag.pgn"], "must be in double quotes");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn foreign_records_are_refused() {
    let dir = temporary_dir("foreign");
    chess_record(&dir);
    refused(
        &dir,
        &["play", "coverage", "--load", "c.pgn"],
        "is a record of `chess.variant`, not of `coverage.variant`",
    );
    refused(
        &dir,
        &["replay", "c.pgn", "--game", "cheversi"],
        "not of `cheversi.variant`",
    );
    std::fs::write(
        dir.join("other.pgn"),
        "[Event \"Casual\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n",
    )
    .expect("written");
    refused(
        &dir,
        &["replay", "other.pgn", "--game", "chess"],
        "no DefinitionHash tag",
    );
    refused(&dir, &["replay", "other.pgn"], "names no game file");
    let game_file = games_dir().join("chess.variant");
    refused(
        &dir,
        &["replay", game_file.to_str().expect("path")],
        "not a valid game record",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_of_another_version_of_the_game_file_is_refused() {
    let dir = temporary_dir("version");
    chess_record(&dir);
    let original = std::fs::read_to_string(games_dir().join("chess.variant")).expect("chess");
    let changed = original.replacen("value 9", "value 8", 1);
    assert_ne!(original, changed);
    std::fs::create_dir_all(dir.join("changed")).expect("dir");
    std::fs::write(dir.join("changed/chess.variant"), changed).expect("written");
    refused(
        &dir,
        &["replay", "c.pgn", "--game", "changed/chess.variant"],
        "was recorded with a different version of `chess.variant`: its definition hash is fnv1a64:",
    );
    refused(
        &dir,
        &["play", "changed/chess.variant", "--load", "c.pgn"],
        "different version",
    );
    // Comments and layout are not rules: the same rules, written differently, still load.
    let same = format!("// a comment\n{original}\n\n");
    std::fs::write(dir.join("changed/chess.variant"), same).expect("written");
    let output = run_in(
        &dir,
        &["replay", "c.pgn", "--game", "changed/chess.variant"],
        "",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resignation_is_recorded_and_replays() {
    let dir = temporary_dir("resign");
    let output = run_in(
        &dir,
        &[
            "play", "chess", "--black", "random", "--seed", "1", "--record", "r.pgn",
        ],
        "e4\nresign\n",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("Result: white resigns: black wins"));
    let record = std::fs::read_to_string(dir.join("r.pgn")).expect("record");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(
        record.contains("[Termination \"white resigns: black wins\"]"),
        "{record}"
    );
    let replay = run_in(&dir, &["replay", "r.pgn"], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains("Result: white resigns: black wins"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A xiangqi game XBoard saved (from a CI run of tests/xboard_gui.rs), tagged with the game file
/// and put in the game's notation as that test does (ranks from 1: XBoard counts them from 0,
/// the rank that tells two pieces apart too, `R6xd4` for the rook on d7 with another on d2),
/// and `replay` reads it to XBoard's checkmate.
#[test]
fn an_xboard_xiangqi_record_replays_to_its_checkmate() {
    let dir = temporary_dir("xboard-xiangqi");
    let record = format!(
        "[Event \"Computer Chess Game\"]\n[GameFile \"xiangqi.variant\"]\n\
         [DefinitionHash \"{}\"]\n[Result \"0-1\"]\n[Variant \"xiangqi\"]\n\n\
         1. Chc3 {{+0.05/6}} Bce8 2. Cxc7 Nd9 3. Cxg7 Ni8 4. Cf7 Pi6 5. Pg5 Ri9 6.\n\
         Cb6 Rf9 7. Cb7 Pe6 8. Cfd7 Rc10 9. Cxa7 Rxc4 10. Ri3 Nh6 11. Ng3\n\
         Rb4 12. Ca9 Nc7 13. Ca10+ Cb10 14. Pi5 Rxb7 15. Nc3 Ci8 16. Rh3\n\
         Ni4 17. Rh4 Pixi5 18. Ca5 Rf3 19. Ne2 Nb5 20. Ra2 Rd3 21. Bce3\n\
         Rbd7 22. Ra1 Rd2 23. Nxi4 Nc3 24. Cd5 R7xd5 25. Nh2 Rxd1+ 26. Rxd1\n\
         Rxd1# {{Xboard adjudication: Checkmate}} 0-1\n",
        common::definition_hash("xiangqi")
    );
    std::fs::write(dir.join("x.pgn"), record).expect("record written");
    let replay = run_in(&dir, &["replay", "x.pgn", "--no-color"], "");
    let out = text(&replay.stdout);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(out.contains("(52 moves)"), "{out}");
    assert!(out.contains("48. black R7xd5 (d7d5)"), "{out}");
    assert!(out.contains("Result: black wins by checkmate"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Replays an XBoard PGN's movetext, tagged with the game file and `result`, and returns the
/// replay's output.
fn replay_xboard_record(
    name: &str,
    game: &str,
    variant: &str,
    result: &str,
    movetext: &str,
) -> String {
    let dir = temporary_dir(name);
    let record = format!(
        "[Event \"Computer Chess Game\"]\n[GameFile \"{game}.variant\"]\n\
         [DefinitionHash \"{}\"]\n[Result \"{result}\"]\n[Variant \"{variant}\"]\n\n{movetext}\n",
        common::definition_hash(game)
    );
    std::fs::write(dir.join("x.pgn"), record).expect("record written");
    let replay = run_in(&dir, &["replay", "x.pgn", "--no-color"], "");
    let out = text(&replay.stdout);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// A shogi game XBoard saved (Fairy-Stockfish against `variant xboard`), comments left out:
/// XBoard writes the pawn without its letter (`c4`, `dxd3+`), where shogi's own notation keeps
/// it (its promotion is optional), a promotion as a `+` after the move (`Bxh8+`, `Be9+`), and
/// no check marks; `replay` reads it to XBoard's checkmate.
#[test]
fn an_xboard_shogi_record_replays_to_its_checkmate() {
    let out = replay_xboard_record(
        "xboard-shogi",
        "shogi",
        "shogi",
        "0-1",
        "1. c4 Gf8 2. g4 g6 3. Bxh8+ Sxh8 4. B@d4 Sg7 5. Ng3 B@e6 6. Nc3 d6 7. Nh5 Sf6 8. g5 gxg5\n\
         9. Gf2 h6 10. h4 hxh5 11. Gg3 g4 12. Gg2 Bxc4 13. Gc2 Rd8 14. hxh5 d5 15. Bc5 c6 16. Bb4\n\
         d4 17. P@c8 dxd3+ 18. Gxd3 Rxd3+ 19. Ba5 Kf9 20. Gf2 g3+ 21. P@d2 +Pxf2 22. Kxf2 +Re2 23.\n\
         Kg3 P@g4 24. Kh4 G@g5 25. Ki4 +Rxh2 26. Be9+ Gxe9 27. Sxh2 R@h4 28. Ki5 Gxh5# 0-1",
    );
    for line in [
        "(56 moves)",
        "1. sente Pc4 (c3c4)",
        "5. sente Bxh8=+B (b2h8+)",
        "34. gote Pxd3=+P (d4d3+)",
        "51. sente Be9=+B+ (a5e9+)",
        "Result: gote wins by checkmate",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// A minishogi game XBoard saved (`variant xboard` against Fairy-Stockfish, whose moves came as
/// `c1a1+` then `a1a2`): XBoard marks the promotion `Ra1+` though the move also gives check, and
/// marks no check (`Sxa2` checks unmarked). Read with `+` as a check mark, `Ra1+` is the rook's
/// move without promotion and `+Rxa2` then fits no piece; `replay` reads the record again with
/// every such `+` a promotion, to XBoard's checkmate.
#[test]
fn an_xboard_minishogi_record_reads_a_checking_promotion_s_plus_as_the_promotion() {
    let out = replay_xboard_record(
        "xboard-minishogi",
        "minishogi",
        "minishogi",
        "0-1",
        "1. Sd2 Sb4 2. Bc2 Bc4 3. Sd3 Bxd3 4. Bxd3 Gd4 5. Rd1 S@b3 6. Be2 Sxa2 7. Gxa2 Sb3 8.\n\
         B@a3 Sxa2 9. Kxa2 G@b4 10. S@b2 Rxa3 11. Sxa3 B@b3 12. Kb1 Gxa3 13. R@a5 P@d5 14. Rd2\n\
         Ga4 15. Rc5+ S@c3 16. S@d3 Gxd3 17. Bxd3 S@d4 18. Bc4 Bxc4 19. +Rxc4 Sxd2 20. +Rxa4\n\
         R@c1 21. Ka2 B@b1 22. Ka3 Bc2+ 23. B@b3 Ra1+ 24. G@a2 +Bb2 25. Kb4 +Rxa2 26. Bxa2 G@c5\n\
         27. Ka5 +Bc3 28. G@b4 Gxb4 29. +Rxb4 +Bxb4 30. Kxb4 S2c3 31. Ka5 R@c5 32. B@b5 Rxb5 33.\n\
         Kxb5 G@c5 34. Ka4 B@b5 35. Ka5 Sb4# 0-1",
    );
    for line in [
        "(70 moves)",
        "12. gote Sxa2+ (b3a2)",
        "46. gote Ra1=+R+ (c1a1+)",
        "50. gote +Rxa2 (a1a2)",
        "Result: gote wins by checkmate",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// A minishogi game XBoard saved in CI (`variant xboard` against Fairy-Stockfish): its last move
/// is a mating promotion, which XBoard writes `R1xb2+#`, the promotion's `+` and then the mate
/// mark. The `+` before `#` is the promotion (a check mark would be replaced by `#`); read as a
/// check mark, the rook would not promote, the king would escape to a1 and the record would stop
/// before its checkmate.
#[test]
fn an_xboard_minishogi_record_reads_a_plus_before_the_mate_mark_as_the_promotion() {
    let out = replay_xboard_record(
        "xboard-minishogi-mate-mark",
        "minishogi",
        "minishogi",
        "0-1",
        "1. Sd2 Sb4 2. Bc2 Gd4 3. Gb2 Bc4 4. Kb1 Kd5 5. Ka1 Ke5 6. Kb1 Kd5 7. Ka1 Ke5 8. Kb1 Rb5\n\
         9. Ba4 Rc5 10. Ka1 Bd3 11. Sxd3 Gxd3 12. B@b5 Gd2 13. Rb1 S@c1 14. Gb3 Rxb5 15. Gb2 B@d4\n\
         16. Rxc1 Gxc1 17. S@b1 Sc3 18. a3 Sxb2 19. Sxb2 R@b1 20. Ka2 R1xb2+# 0-1",
    );
    for line in [
        "(40 moves)",
        "40. gote R1xb2=+R# (b1b2+)",
        "Result: gote wins by checkmate",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// A shogi record in this crate's SAN, where `+` after a move that may promote but does not is
/// its check mark: read as written (the move without promotion), not as XBoard's promotion.
#[test]
fn a_check_mark_after_a_move_that_may_promote_stays_a_check_mark() {
    let out = replay_xboard_record(
        "minishogi-check-mark",
        "minishogi",
        "minishogi",
        "*",
        "1. Sd2 Sb4 2. Bc2 Bc4 3. Sd3 Bxd3 4. Bxd3 Gd4 5. Rd1 S@b3 6. Be2 Sxa2+ 7. Gxa2 Sb3 8.\n\
         B@a3 Sxa2+ 9. Kxa2 G@b4 10. S@b2 Rxa3+ 11. Sxa3 B@b3 12. Kb1 Gxa3 13. R@a5+ P@d5 14. Rd2\n\
         Ga4 15. Rc5=+R S@c3 16. S@d3 Gxd3 17. Bxd3 S@d4 18. Bc4 Bxc4 19. +Rxc4 Sxd2 20. +Rxa4\n\
         R@c1+ 21. Ka2 B@b1+ 22. Ka3 Bc2=+B 23. B@b3 Ra1+ 24. G@a2",
    );
    for line in ["(47 moves)", "46. gote Ra1+ (c1a1)"] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// A knightmate game XBoard saved: XBoard writes black's castling as the King's move (`16...
/// Kg8`), since its castling piece is no king to XBoard; `replay` reads it as `O-O`.
#[test]
fn an_xboard_knightmate_record_reads_a_castling_written_as_the_king_s_move() {
    let out = replay_xboard_record(
        "xboard-knightmate",
        "knightmate",
        "knightmate",
        "0-1",
        "1. e3 c6 2. d4 d5 3. Qh5 g6 4. Qf3 h5 5. Bd2 Bg4 6. Qg3 e6 7. h3 Bd6 8. f4 Bf5 9. Bd3 Mc7\n\
         10. Bxf5 exf5 11. h4 Mh7 12. Qg5 Be7 13. Qg3 Md6 14. a4 Bf6 15. c3 Qe7 16. Mc2 Kg8 17. Md3\n\
         Rac8 18. b4 b6 19. a5 c5 20. axb6 axb6 21. Ra6 Ra8 22. Rxb6 cxd4 23. cxd4 Ra1+ 24. Kf3 Ra3\n\
         25. Me2 Bxd4 26. Bc1 Rc3 27. Bd2 Ra3 28. Bc1 Bxe3 29. Bxa3 Qe4+ 30. Kg5 Bxf4+ 31. Kxh7\n\
         Bxg3 32. Rb7 Qf4 33. Bc1 Qxc1 34. Md2 Qxd2 35. Kxf8 Qh6# 0-1",
    );
    for line in [
        "(70 moves)",
        "32. black O-O (e8g8)",
        "Result: black wins by checkmate",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// A crazyhouse game XBoard saved, with drops of every kind of piece and a promotion whose
/// queen is taken back (`fxg1=Q+ 34. Nxg1`); XBoard adjudicated it a draw after 40 moves, which
/// the rules did not end, so it is recorded unfinished (as tests/xboard_gui.rs does).
#[test]
fn an_xboard_crazyhouse_record_with_drops_and_a_promotion_replays() {
    let out = replay_xboard_record(
        "xboard-crazyhouse",
        "crazyhouse",
        "crazyhouse",
        "*",
        "1. e3 d5 2. Qh5 Nf6 3. Qe5 Nbd7 4. Qg5 h6 5. Qf4 e5 6. Qa4 Bd6 7. Nc3 c6 8. Qh4 e4 9. f4\n\
         Nf8 10. Be2 Ng6 11. Qg3 d4 12. exd4 Bxf4 13. Qf2 P@b4 14. P@e3 bxc3 15. exf4 N@g4 16. Bxg4\n\
         Nxg4 17. Qe2 cxd2+ 18. Bxd2 P@f2+ 19. Kd1 B@e3 20. Nh3 Bxd2 21. Qxe4+ Ne7 22. Kxd2 Bf5 23.\n\
         P@c7 Qxc7 24. Qe2 O-O-O 25. B@c5 B@e3+ 26. Kd1 Bxd4 27. Bxd4 Rxd4+ 28. P@d3 P@c4 29. B@c5\n\
         cxd3 30. cxd3 Rxd3+ 31. B@d2 P@f3 32. gxf3 P@g2 33. Rg1 fxg1=Q+ 34. Nxg1 R@f1+ 35. N@e1\n\
         P@f2 36. Bxf2 Nxf2+ 37. Kc1 Rxd2 38. Kxd2 Qxf4+ 39. Qe3 Qxe3+ 40. Kxe3 Nd5+ 41. Kd4\n\
         {Xboard adjudication: long game} *",
    );
    for line in [
        "(81 moves)",
        "30. black N@g4 (N@g4)",
        "66. black fxg1=Q+ (f2g1q)",
        "67. white Nxg1 (h3g1)",
        "68. black R@f1+ (R@f1)",
        "Result: unfinished",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// Why python-chess cannot read records here, if it cannot.
fn python_chess_missing() -> Option<String> {
    match Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
    {
        Err(e) => Some(format!("python3 cannot be run ({e})")),
        Ok(o) if !o.status.success() => {
            Some("python-chess is not installed (pip install chess)".into())
        }
        Ok(_) => None,
    }
}

#[test]
fn python_chess_reads_chess_records() {
    if let Some(reason) = python_chess_missing() {
        eprintln!("SKIPPED python_chess_reads_chess_records: {reason}; the PGN check did NOT run");
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set, so python-chess must be installed: {reason}"
        );
        return;
    }
    let dir = temporary_dir("python");
    for seed in [1u64, 2, 3] {
        let fen = random_game(&dir, "chess", seed, "p.pgn");
        let script = "import chess.pgn, sys\n\
game = chess.pgn.read_game(open(sys.argv[1]))\n\
assert not game.errors, game.errors\n\
board = game.end().board()\n\
print(board.fen(en_passant='fen'))\n\
print(game.headers['Result'], board.is_game_over(claim_draw=True), len(list(game.mainline_moves())))\n";
        let output = Command::new("python3")
            .args(["-c", script, dir.join("p.pgn").to_str().expect("path")])
            .output()
            .expect("python3 runs");
        let out = text(&output.stdout);
        assert!(output.status.success(), "{out}{}", text(&output.stderr));
        let mut lines = out.lines();
        assert_eq!(lines.next(), Some(fen.as_str()), "seed {seed}");
        let summary = lines.next().unwrap_or_default();
        assert!(
            !summary.starts_with('*'),
            "a finished game has a result: {summary}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `replay --step` shows one position at a time and moves as the reader asks: Enter for the
/// next move, `b` back, a move number, `l` the last, `q` to stop; a wrong command is explained.
#[test]
fn replay_steps_at_the_readers_pace() {
    let dir = temporary_dir("replay-step");
    random_game(&dir, "chess", 5, "steps.pgn");
    let output = run_in(
        &dir,
        &["replay", "steps.pgn", "--step", "--no-color"],
        "\n\nb\n3\nnonsense\nl\nq\n",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let headings: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Start (") || l.contains(" of ") && l.ends_with(')'))
        .collect();
    assert!(headings.len() >= 6, "{out}");
    assert!(headings[0].starts_with("Start (0 of "), "{out}");
    assert!(headings[1].starts_with("1 of "), "{out}");
    assert!(headings[2].starts_with("2 of "), "{out}");
    assert!(headings[3].starts_with("1 of "), "{out}");
    assert!(headings[4].starts_with("3 of "), "{out}");
    let total = headings[0]
        .trim_start_matches("Start (0 of ")
        .split(' ')
        .next()
        .expect("a count");
    assert!(
        headings[5].starts_with(&format!("{total} of {total}")),
        "{out}"
    );
    assert!(out.contains("`nonsense`: type Enter"), "{out}");
    assert!(out.contains("Result: "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shako game XBoard saved (`variant xboard` against Fairy-Stockfish, tests/xboard_gui.rs's
/// sweep, comments left out): XBoard numbers the ranks of the ten-rank board from 0 across the
/// whole record (`Rb0`, `Qh0`, `Kg0`), and many of its moves are legal read from 1 as well
/// (`1. f3` is a pawn's step to f4). `replay` reads the whole record from 0 because a move names
/// rank 0; XBoard adjudicated it a draw after 40 moves, so it is recorded unfinished.
#[test]
fn an_xboard_shako_record_is_read_with_its_ranks_from_zero() {
    let out = replay_xboard_record(
        "xboard-shako",
        "shako",
        "shako",
        "*",
        "1. f3 Ng6 2. d4 c5 3. dxc5 b6 4. Qb4 a5 5. Qg4 bxc5 6. Bxc5 f6 7. b4 Cac9 8. Nd3 Cxc5 9.\n\
         Nxc5 Ne5 10. Qd4 d6 11. Na6 Bb6 12. Qe4 Nc4 13. Ke1 Ec6 14. Qf4 Ra8 15. bxa5 Bxa5+ 16.\n\
         Nb4 Cb9 17. Rb0 Eh6 18. Qc1 Cxb0 19. Qxb0 Qh5 20. Eh3 Qe5 21. c3 Qxh2 22. Qh0 Bb6 23.\n\
         Qi0 Be3 24. Nxc6 Ef4 25. Cxj7 Eg3+ 26. Nxg3 Qxg3+ 27. Kf1 Nd2+ 28. Kg0 Qd0+ 29. Kh1\n\
         Qxd1+ 30. Kh2 Bf4+ 31. g3 Qxe2+ 32. Qg2 Nxf3+ 33. Kh1 Qe1+ 34. Ef1 Qxg3 35. Ri0 Nh4 36.\n\
         Qxg3 Bd5+ 37. Qg2 Nxg2 38. Exg2 Bxc6 39. Cxh7 Rh8 40. Ch3 Rb8 41. Rg0 *",
    );
    for line in [
        "(81 moves)",
        "1. white f4 (f3f4)",
        "33. white Rb1 (b2b1)",
        "57. white Kh2 (g1h2)",
        "Result: unfinished",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// XBoard's SAN names the piece a castling gates without its square (`O-O/H`, the king's move
/// `e1g1h`: the hawk on the king's square), where this crate writes `O-O/He1`: `replay` reads
/// it as the castling that gates on the king's square. Found by the XBoard sweep (seirawan).
#[test]
fn an_xboard_castling_that_gates_without_its_square_gates_on_the_king_s_square() {
    let out = replay_xboard_record(
        "xboard-seirawan-castling",
        "seirawan",
        "seirawan",
        "*",
        "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O/H O-O/E",
    );
    for line in [
        "(8 moves)",
        "7. white O-O/He1 (e1g1h)",
        "8. black O-O/Ee8 (e8g8e)",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}
