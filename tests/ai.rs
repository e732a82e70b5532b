//! The computer players and short algebraic notation, through the `Session` trait: players
//! find a mate in one and take a free queen, the same seed plays the same moves, MCTS keeps
//! its tree across moves and undo; SAN is written and read as players write it.

use std::time::Duration;
use variant_interpreter::{AgentOptions, Budget, InputError, PlayerSpec, Session};

fn open(game: &str, fen: Option<&str>) -> Box<dyn Session> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(format!("{game}.variant"));
    let loaded = variant_dsl::load_file(&path).expect("game loads");
    variant_interpreter::open(&loaded.definition, fen).expect("opens")
}

fn choose(session: &dyn Session, spec: &str, seed: u64) -> String {
    let spec: PlayerSpec = spec.parse().expect("spec");
    let mut agent = session
        .agent(spec, AgentOptions { seed, threads: 1 })
        .expect("agent");
    agent.choose(session).expect("a move").mv
}

/// White mates with Ra8#; every other move lets Black live.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// Black's queen on d5 hangs to the knight on f4 (and nothing else is attacked).
const FREE_QUEEN: &str = "4k3/8/8/3q4/5N2/8/8/4K3 w - - 0 1";

#[test]
fn search_and_mcts_find_a_mate_in_one() {
    let session = open("chess", Some(MATE_IN_ONE));
    assert_eq!(choose(session.as_ref(), "search:2", 1), "a1a8");
    assert_eq!(choose(session.as_ref(), "search:0.2s", 1), "a1a8");
    assert_eq!(choose(session.as_ref(), "mcts:3000", 1), "a1a8");
}

#[test]
fn search_takes_a_free_queen() {
    let session = open("chess", Some(FREE_QUEEN));
    assert_eq!(choose(session.as_ref(), "search:3", 1), "f4d5");
}

#[test]
fn the_same_seed_plays_the_same_moves() {
    for game in ["chess", "coverage", "cheversi", "kingdrops"] {
        let play = |seed: u64| {
            let mut session = open(game, None);
            let mut agents: Vec<_> = ["mcts:100", "random"]
                .iter()
                .map(|spec| {
                    session
                        .agent(
                            spec.parse().expect("spec"),
                            AgentOptions { seed, threads: 1 },
                        )
                        .expect("agent")
                })
                .collect();
            for _ in 0..12 {
                // The side to move's agent: Kingdrops' sides do not alternate action by action.
                let side =
                    usize::from(session.side_to_move() != session.definition().sides[0].name);
                let Some(choice) = agents[side].choose(session.as_ref()) else {
                    break;
                };
                session.play(&choice.mv).expect("legal");
            }
            session.history()
        };
        assert_eq!(play(3), play(3), "{game}");
        assert_ne!(play(3), play(4), "{game}: another seed, another game");
    }
}

#[test]
fn root_parallel_mcts_uses_every_thread_and_still_finds_the_mate() {
    let session = open("chess", Some(MATE_IN_ONE));
    let mut agent = session
        .agent(
            PlayerSpec::Mcts(Budget::Count(2000)),
            AgentOptions {
                seed: 1,
                threads: 2,
            },
        )
        .expect("agent");
    let choice = agent.choose(session.as_ref()).expect("a move");
    assert_eq!(choice.mv, "a1a8");
    assert_eq!(
        choice.work, 2000,
        "1000 playouts on each of 2 threads: {}",
        choice.summary
    );
}

#[test]
fn mcts_keeps_its_tree_along_the_moves_played() {
    let mut session = open("chess", None);
    let mut agent = session
        .agent(
            PlayerSpec::Mcts(Budget::Count(3000)),
            AgentOptions::default(),
        )
        .expect("agent");
    let first = agent.choose(session.as_ref()).expect("move");
    assert!(!first.summary.contains("kept"), "{}", first.summary);
    session.play(&first.mv).expect("legal");
    // With 3000 playouts, every reply to the chosen move has been visited: its subtree is kept.
    session.play("e7e5").expect("legal after any first move");
    let second = agent.choose(session.as_ref()).expect("move");
    assert!(
        second.summary.contains("kept from the last move"),
        "{}",
        second.summary
    );
}

#[test]
fn mcts_survives_undo_and_moves_it_did_not_expect() {
    let mut session = open("chess", None);
    let mut agent = session
        .agent(
            PlayerSpec::Mcts(Budget::Count(200)),
            AgentOptions::default(),
        )
        .expect("agent");
    let first = agent.choose(session.as_ref()).expect("move").mv;
    session.play(&first).expect("legal");
    session.play("h7h6").expect("legal");
    let second = agent.choose(session.as_ref()).expect("move").mv;
    assert!(session.legal_moves().contains(&second));
    session.undo();
    session.undo();
    session.undo();
    assert_eq!(session.history(), Vec::<String>::new());
    let again = agent.choose(session.as_ref()).expect("move").mv;
    assert!(session.legal_moves().contains(&again));
}

#[test]
fn no_move_once_the_game_is_over_and_no_agent_for_people_or_missing_policies() {
    let mut session = open("chess", None);
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        session.play(mv).expect("legal");
    }
    for spec in ["random", "mcts:10", "search:2"] {
        let mut agent = session
            .agent(spec.parse().expect("spec"), AgentOptions::default())
            .expect("agent");
        assert!(agent.choose(session.as_ref()).is_none(), "{spec}");
    }
    assert!(session
        .agent(PlayerSpec::Human, AgentOptions::default())
        .is_err());
    assert!(session
        .agent(PlayerSpec::Policy, AgentOptions::default())
        .is_err());
}

#[test]
fn player_specs_parse_and_print_back() {
    for (text, spec) in [
        ("random", PlayerSpec::Random),
        ("mcts:500", PlayerSpec::Mcts(Budget::Count(500))),
        (
            "mcts:2s",
            PlayerSpec::Mcts(Budget::Time(Duration::from_secs(2))),
        ),
        ("search:4", PlayerSpec::Search(Budget::Count(4))),
        (
            "search:0.5s",
            PlayerSpec::Search(Budget::Time(Duration::from_millis(500))),
        ),
    ] {
        assert_eq!(text.parse::<PlayerSpec>(), Ok(spec));
        assert_eq!(spec.to_string(), text);
    }
    assert_eq!(
        "mcts"
            .parse::<PlayerSpec>()
            .map(|s| s.to_string())
            .as_deref(),
        Ok("mcts:1s")
    );
    for bad in [
        "",
        "mcts:",
        "mcts:-1s",
        "mcts:0",
        "mcts:nans",
        "search:1e400s",
        "human:2",
        "MCTS",
    ] {
        assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
    }
}

#[test]
fn san_is_written_as_players_write_it() {
    let cases = [
        // (FEN, UCI, SAN)
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O"),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O"),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3", "e5d6", "exd6"),
        ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"),
        ("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1"),
        ("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", "R1a2"),
        (MATE_IN_ONE, "a1a8", "Ra8#"),
    ];
    for (fen, uci, san) in cases {
        let session = open("chess", Some(fen));
        assert_eq!(session.san(uci).as_deref(), Some(san), "{fen}");
        assert_eq!(session.resolve(san).as_deref(), Ok(uci), "{fen}");
    }
    let drops = open("coverage", None);
    assert_eq!(drops.san("N@c3").as_deref(), Some("N@c3"));
}

/// A letterless piece's move that another piece of its type makes to the same square names its
/// origin: Berolina's pawns step diagonally, so two of them reach one square without capturing.
#[test]
fn two_letterless_moves_to_one_square_are_told_apart() {
    let berolina = open("berolina", None);
    for (uci, san) in [
        ("a2b3", "ab3"),
        ("c2b3", "cb3"),
        ("b2a3", "a3"),
        ("a2c4", "ac4"),
        ("e2c4", "ec4"),
        ("h2g3", "hg3"),
    ] {
        assert_eq!(berolina.san(uci).as_deref(), Some(san), "{uci}");
        assert_eq!(berolina.resolve(san).as_deref(), Ok(uci), "{san}");
    }
    // Fairy-Stockfish writes them with the pawn's letter (`Pab3`), also read.
    assert_eq!(berolina.resolve("Pab3").as_deref(), Ok("a2b3"));
    assert_eq!(berolina.resolve("Pa3").as_deref(), Ok("b2a3"));
    match berolina.resolve("b3") {
        Err(InputError::Ambiguous { mut candidates, .. }) => {
            candidates.sort();
            assert_eq!(candidates, ["ab3", "cb3"]);
        }
        other => panic!("`b3` is two moves: {other:?}"),
    }
    // A straight capture (the pawn's only one) names its file, as chess's captures do.
    let capture = open(
        "berolina",
        Some("rnbqkbnr/p1pp1ppp/8/3p2p1/6P1/P5P1/P1PP1PP1/RNBQKBNR b KQkq - 0 3"),
    );
    assert_eq!(capture.san("g5g4").as_deref(), Some("gxg4"));
    assert_eq!(capture.resolve("Pxg4").as_deref(), Ok("g5g4"));
}

#[test]
fn typed_moves_are_read_forgivingly_and_refused_clearly() {
    let session = open("chess", None);
    for (typed, uci) in [
        ("Nf3", "g1f3"),
        ("e4", "e2e4"),
        ("g1f3", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("e4!?", "e2e4"),
    ] {
        assert_eq!(session.resolve(typed).as_deref(), Ok(uci), "{typed}");
    }
    let promotion = open("chess", Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
    assert_eq!(promotion.resolve("b8Q").as_deref(), Ok("b7b8q"));
    assert_eq!(promotion.resolve("b8=N").as_deref(), Ok("b7b8n"));
    assert!(matches!(
        promotion.resolve("b8"),
        Err(InputError::Ambiguous { .. })
    ));
    let castle = open("chess", Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
    assert_eq!(castle.resolve("0-0").as_deref(), Ok("e1g1"));
    assert!(matches!(
        castle.resolve("O-O-O"),
        Err(InputError::Illegal { .. })
    ));
    assert_eq!(
        session.resolve("Ke2"),
        Err(InputError::Illegal {
            text: "Ke2".into(),
            uci: Some("e1e2".into())
        })
    );
    for garbage in [
        "",
        "hello",
        "é5",
        "Z",
        "@",
        "N@",
        "e9e10",
        "Nf",
        "O-O-O-O-O",
    ] {
        assert!(session.resolve(garbage).is_err(), "{garbage:?}");
    }
}

#[test]
fn watched_mcts_reports_its_progress_and_grows_the_same_tree_as_unwatched() {
    use variant_interpreter::ai::search::Control;
    use variant_interpreter::ai::{Progress, Watch};
    let session = open("chess", None);
    for threads in [1, 2] {
        let options = AgentOptions { seed: 7, threads };
        let spec = PlayerSpec::Mcts(Budget::Count(3000));
        let plain = session
            .agent(spec, options)
            .expect("agent")
            .choose(session.as_ref());
        let control = Control::new();
        let mut reports: Vec<Progress> = Vec::new();
        let mut report = |progress: &Progress| reports.push(progress.clone());
        let watched = session.agent(spec, options).expect("agent").choose_watched(
            session.as_ref(),
            &mut Watch {
                control: &control,
                report: &mut report,
            },
        );
        assert_eq!(
            watched, plain,
            "the same playouts, the same move ({threads} threads)"
        );
        let last = reports.last().expect("at least one report");
        assert_eq!(last.work, 3000);
        assert_eq!(last.best.as_deref(), watched.map(|c| c.mv).as_deref());
        assert!(
            reports.windows(2).all(|w| w[0].work <= w[1].work),
            "the playouts only grow"
        );
    }
}

#[test]
fn a_stopped_mcts_moves_at_once_with_its_best_move_so_far() {
    use variant_interpreter::ai::search::Control;
    use variant_interpreter::ai::{Progress, Watch};
    let session = open("chess", Some(MATE_IN_ONE));
    let mut agent = session
        .agent(
            PlayerSpec::Mcts(Budget::Time(Duration::from_secs(600))),
            AgentOptions::default(),
        )
        .expect("agent");
    let control = Control::new();
    let mut reports = 0;
    let mut report = |progress: &Progress| {
        reports += 1;
        assert!(progress.work > 0 && progress.best.is_some());
        if reports == 3 {
            control.stop();
        }
    };
    let choice = agent
        .choose_watched(
            session.as_ref(),
            &mut Watch {
                control: &control,
                report: &mut report,
            },
        )
        .expect("a move");
    assert_eq!(reports, 3, "no report after the stop");
    assert_eq!(choice.mv, "a1a8");
}
