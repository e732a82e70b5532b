//! `variant import` (Fairy-Stockfish variants.ini to `.variant` files), through the real binary.
//!
//! - A configuration with custom pieces, inheritance (from built-in `chess` and `crazyhouse`
//!   and from a section above), drops, promotion, a 6x6 board and a flag rule
//!   (`tests/inputs/import/variants.ini`) is imported, each file passes `variant check`, and
//!   plays as pyffish plays the same configuration: legal moves, positions, check and results
//!   at every position of seeded random games (`scripts/crosscheck_fairy.py --config`), and
//!   perft to a small depth.
//! - Sections with options that have no exact equivalent are refused with their line, and no
//!   file is written for them.
//! - Hoppers (a cannon `mRcpR`, a grasshopper `gQ`) are imported as hoppers, and play as pyffish
//!   plays them.
//! - The rule options of `tests/inputs/import/rules.ini` (`mustCapture`, `checkCounting`,
//!   `extinctionValue`/`extinctionPieceTypes`, `castlingKingPiece`, `castlingDroppedPiece`,
//!   `doubleStepRegion*` over two ranks, `enPassantRegion*`) are written as the language's rules
//!   and play as pyffish plays them (random games and perft); what they cannot say is refused.
//! - Bad input gets a clear error: a missing file, garbage, an unknown parent, a section that
//!   inherits itself, a 10 MB file; an existing file is kept without `--force`.

mod common;

use common::import::{game, import, perft_agrees, plays_as_pyffish, refused};
use common::{python_module_or_skip, run_python_script, stderr, stdout, temporary_dir, variant};

const CONFIG: &str = "tests/inputs/import/variants.ini";
const SECTIONS: [&str; 6] = [
    "squirechess",
    "dropsquire",
    "minifairy",
    "minihouse",
    "hill",
    "hopperchess",
];

#[test]
fn every_section_is_written_and_checks() {
    let (dir, output) = import("import-all", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("6 written, 0 refused\n"),
        "{}",
        stdout(&output)
    );
    for name in SECTIONS {
        let check = variant(&["check", &game(&dir, name)]);
        assert!(check.status.success(), "{name}: {}", stderr(&check));
    }
    // The custom pieces are converted, not copied: Fairy-Stockfish's `fN` is the two narrow
    // forward leaps, the language's `ffN`.
    let text = std::fs::read_to_string(dir.join("squirechess.variant")).unwrap();
    assert!(text.contains("moves \"ffN bW\""), "{text}");
    let text = std::fs::read_to_string(dir.join("hopperchess.variant")).unwrap();
    assert!(text.contains("moves \"mW0 cpW0\""), "{text}");
    assert!(text.contains("moves \"gW0 gF0\""), "{text}");
}

#[test]
fn imported_games_play_as_pyffish_plays_the_configuration() {
    if !python_module_or_skip("imported_games_play_as_pyffish", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-oracle", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for name in SECTIONS {
        let sparse = if name == "hill" { "0.9" } else { "0" };
        plays_as_pyffish(
            CONFIG,
            &dir,
            name,
            &["--plies", "60", "--seed", "7", "--sparse", sparse],
        );
    }
}

#[test]
fn perft_equals_pyffish() {
    if !python_module_or_skip("perft_equals_pyffish", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-perft", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, depth) in [
        ("squirechess", 3),
        ("dropsquire", 2),
        ("minifairy", 3),
        ("minihouse", 2),
        ("hopperchess", 3),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, None);
    }
}

#[test]
fn sections_without_an_exact_equivalent_are_refused_with_their_line() {
    let (dir, output) = import("import-refused", "tests/inputs/import/refused.ini");
    assert_eq!(output.status.code(), Some(1));
    let errors = stderr(&output);
    assert!(
        errors.contains("refused.ini:6: [dropping] not imported: `mustDrop = true`"),
        "{errors}"
    );
    assert!(errors.contains("refused.ini:9: [cannons] not imported: `customPiece2`: a hopper (`p`) `W` that is not a plain unlimited rider"), "{errors}");
    assert!(
        errors.contains("refused.ini:11: [child] not imported: its parent `dropping` was refused"),
        "{errors}"
    );
    assert!(
        stdout(&output).ends_with("1 written, 3 refused\n"),
        "{}",
        stdout(&output)
    );
    assert!(dir.join("plain.variant").is_file());
    for name in ["dropping", "cannons", "child"] {
        assert!(
            !dir.join(format!("{name}.variant")).exists(),
            "{name} was written"
        );
    }
}

#[test]
fn bad_input_gets_a_clear_error() {
    let missing = variant(&["import", "tests/inputs/import/no-such.ini", "--out", "/tmp"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("cannot read tests/inputs/import/no-such.ini"),
        "{}",
        stderr(&missing)
    );
    refused(
        "import-garbage",
        b"[a:chess]\n\x01\x02 garbage\n",
        "v.ini:2: expected `key = value`",
    );
    refused(
        "import-binary",
        [0xff, 0xfe, 0x00, 0x5b],
        "is not UTF-8 text",
    );
    refused("import-empty", b"no sections here\n", "no `[section]`");
    refused(
        "import-unknown-parent",
        b"[a:nosuch]\n",
        "v.ini:1: [a] not imported: unknown parent `nosuch`",
    );
    refused(
        "import-builtin-parent",
        b"[a:shogi]\n",
        "v.ini:1: [a] not imported: its parent `shogi` is a built-in Fairy-Stockfish variant import does not restate",
    );
    refused(
        "import-self",
        b"[a:a]\n",
        "v.ini:1: [a] not imported: `a` inherits from itself",
    );
    refused(
        "import-builtin-name",
        b"[chess]\n",
        "`chess` is a built-in Fairy-Stockfish variant",
    );
    refused(
        "import-later-parent",
        b"[a:b]\n[b:chess]\n",
        "unknown parent `b`",
    );
    // Values that would put a square off the board are refused, not a panic.
    refused(
        "import-castling-file",
        b"[a:chess]\ncastlingKingsideFile = a\n",
        "castlingRank or a castling file off the board",
    );
    refused(
        "import-castling-rank",
        b"[a:chess]\ncastlingRank = 8\n[b:a]\nmaxRank = 6\n",
        "[b] not imported",
    );
    let mut huge = b"[a:chess]\n".to_vec();
    huge.resize(10 << 20, b'#');
    refused(
        "import-huge",
        &huge,
        "a variant configuration is at most 1048576 bytes",
    );
}

#[test]
fn an_existing_file_is_replaced_only_with_force() {
    let dir = temporary_dir("import-force");
    let config = dir.join("v.ini");
    std::fs::write(&config, "[mine:chess]\n").unwrap();
    std::fs::write(dir.join("mine.variant"), "keep me").unwrap();
    let args = [
        "import",
        config.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ];
    let output = variant(&args);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("exists: it is replaced only with --force"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.variant")).unwrap(),
        "keep me"
    );
    let forced = variant(&[&args[..], &["--force"]].concat());
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert!(std::fs::read_to_string(dir.join("mine.variant"))
        .unwrap()
        .contains("game \"mine\""));
}

/// `scripts/fsf_oracle_data.py` writes the same data twice, in the documented format, and an
/// imported section agrees with it: the legal moves of every position, results and perft.
#[test]
fn oracle_data_is_deterministic_and_agrees_with_an_imported_section() {
    if !python_module_or_skip("oracle_data", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-oracle-data", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    let data = || {
        let output = std::process::Command::new("python3")
            .args([
                "scripts/fsf_oracle_data.py",
                "minifairy",
                "--config",
                CONFIG,
            ])
            .args(["--seed", "3", "--games", "2", "--plies", "16"])
            .args(["--perft-depth", "2", "--mid-depth", "2"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("python3 runs");
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let text = data();
    assert_eq!(text, data(), "the same arguments give the same data");
    let file = game(&dir, "minifairy");
    let (mut positions, mut perfts) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "position" => {
                positions += 1;
                let shown = common::show_json(&[&file, "--fen", fields[1]]);
                let mut ours: Vec<String> = shown["legal_moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect();
                ours.sort();
                let theirs: Vec<&str> = fields[2].split_whitespace().collect();
                assert_eq!(ours, theirs, "at {}", fields[1]);
                assert_eq!(
                    shown["result"].is_null(),
                    fields[3] == "-",
                    "at {}",
                    fields[1]
                );
            }
            "perft" => {
                perfts += 1;
                let ours = variant(&["perft", &file, "--fen", fields[1], "--depth", fields[2]]);
                let expected = format!("Nodes searched: {}", fields[3]);
                assert_eq!(
                    stdout(&ours).lines().last(),
                    Some(expected.as_str()),
                    "{line}"
                );
            }
            "variant" | "start" | "game" => {}
            other => panic!("unknown record `{other}`"),
        }
    }
    assert!(
        positions > 10 && perfts >= 4,
        "{positions} positions, {perfts} perfts"
    );
}

const RULES_CONFIG: &str = "tests/inputs/import/rules.ini";
const RULE_SECTIONS: [&str; 5] = [
    "capturing",
    "threechecks",
    "extinct",
    "hordes",
    "droppedcastle",
];

#[test]
fn rule_options_are_written_as_the_language_says_them() {
    let (dir, output) = import("import-rules", RULES_CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("5 written, 0 refused\n"),
        "{}",
        stdout(&output)
    );
    for name in RULE_SECTIONS {
        let check = variant(&["check", &game(&dir, name)]);
        assert!(check.status.success(), "{name}: {}", stderr(&check));
    }
    let text = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.variant"))).unwrap();
    for (name, expected) in [
        ("capturing", "must capture when a capture is possible"),
        ("threechecks", "fen remaining 3"),
        ("threechecks", "loses when opponent checks >= 3"),
        ("extinct", "white K king Commoner e1-g1 rook h1-f1"),
        (
            "extinct",
            "each side loses when no own Commoner or no own Queen or no own Rook",
        ),
        ("hordes", "initial ranks 1-2"),
        ("hordes", "en-passant on rank 3"),
        ("hordes", "each side loses when no own pieces"),
        (
            "droppedcastle",
            "white K king King e1-g1 rook Rook h1-f1 when placed",
        ),
    ] {
        assert!(text(name).contains(expected), "{name}: {}", text(name));
    }
}

#[test]
fn rule_options_play_as_pyffish_plays_them() {
    if !python_module_or_skip("rule_options_play_as_pyffish", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-rules-oracle", RULES_CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for name in RULE_SECTIONS {
        plays_as_pyffish(RULES_CONFIG, &dir, name, &["--plies", "60", "--seed", "7"]);
    }
    for name in ["capturing", "threechecks", "extinct", "hordes"] {
        let theirs = run_python_script(
            "scripts/crosscheck_fairy.py",
            &["--config", RULES_CONFIG, "--variant", name, "--perft", "3"],
        );
        let nodes = theirs
            .lines()
            .last()
            .unwrap()
            .split(": ")
            .nth(1)
            .unwrap()
            .trim()
            .to_string();
        let ours = variant(&["perft", &game(&dir, name), "--depth", "3"]);
        assert_eq!(
            stdout(&ours).lines().last(),
            Some(format!("Nodes searched: {nodes}").as_str()),
            "{name}"
        );
    }
}

#[test]
fn rule_options_the_language_cannot_say_are_refused() {
    refused(
        "import-en-passant-region",
        b"[a:chess]\nenPassantRegionWhite = *6\nenPassantRegionBlack = *4\n",
        "the en-passant regions are not one whole rank each",
    );
    refused(
        "import-check-counting",
        b"[a:chess]\ncheckCounting = true\n",
        "`checkCounting` needs the start FEN to give the same number of checks",
    );
    refused(
        "import-pseudo-royal",
        // The queen may be gained by promotion: Fairy-Stockfish's queens then stop being
        // pseudo-royal, which no royal piece of the language does.
        b"[a:chess]\nextinctionValue = loss\nextinctionPieceTypes = q\nextinctionPseudoRoyal = true\n",
        "pawns may promote to the extinction type `q`",
    );
    refused(
        "import-extinction-in-hand",
        b"[a:crazyhouse]\nextinctionValue = loss\nextinctionPieceTypes = q\n",
        "extinction with pieces in hand",
    );
}
