//! `variant serve` through the real binary: the server is started on 127.0.0.1 with a port the
//! system picks (`--port 0`, the address read from its first line), and its JSON API is asked
//! over plain HTTP, without a browser.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server, stopped (by its process id) when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variant"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the address line");
        let address = line
            .trim()
            .strip_prefix("Listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    /// One request; the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .expect("sends");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("reads");
        let (head, body) = response.split_once("\r\n\r\n").expect("head and body");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .expect("a status");
        (status, body.to_string())
    }

    /// A request whose reply is JSON.
    fn json(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.request(method, path, body);
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("{method} {path}: not JSON ({error}): {text}"));
        (status, value)
    }

    /// A new game, which must be created; its id.
    fn create(&self, body: Value) -> String {
        let (status, reply) = self.json("POST", "/api/sessions", &body.to_string());
        assert_eq!(status, 201, "{reply}");
        reply["id"].as_str().expect("an id").to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The message of a JSON error reply, which must have one.
fn error_of(reply: &Value) -> &str {
    reply["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {reply}"))
}

#[test]
fn the_games_are_listed_with_their_boards() {
    let server = Server::start(&[]);
    let (status, games) = server.json("GET", "/api/games", "");
    assert_eq!(status, 200);
    let games = games.as_array().expect("a list");
    let names: Vec<&str> = games.iter().filter_map(|g| g["name"].as_str()).collect();
    assert_eq!(names, common::games());
    let find = |name: &str| games.iter().find(|g| g["name"] == name).expect("listed");
    assert_eq!(
        find("chess")["board"],
        json!({"files": 8, "ranks": 8, "squares": 64})
    );
    assert_eq!(find("takeover-chess")["board"]["squares"], 41);
    assert_eq!(
        find("cooperative-chess")["sides"],
        json!(["white", "black", "red"])
    );
    assert!(find("chess")["description"].as_str().is_some());
}

#[test]
fn a_game_against_random_answers_with_the_fields_of_show_json() {
    let server = Server::start(&[]);
    let id = server.create(
        json!({"game": "chess", "players": {"white": "human", "black": "random"}, "seed": 1}),
    );
    let (status, state) = server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "e4"}"#,
    );
    assert_eq!(status, 200, "{state}");
    let history: Vec<&str> = state["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(history.len(), 2, "random replied: {history:?}");
    assert_eq!(history[0], "e2e4");
    assert_eq!(state["side_to_move"], "white");
    assert_eq!(
        state["players"],
        json!({"white": "human", "black": "random"})
    );

    // The same position through the CLI: the same fields.
    let mut expected = common::show_json(&["chess", "--play", &history.join(" ")]);
    let (status, mut fetched) = server.json("GET", &format!("/api/sessions/{id}"), "");
    assert_eq!(status, 200);
    let fetched_object = fetched.as_object_mut().expect("object");
    fetched_object.remove("players");
    // `san` is the server's addition to show --json's fields (tested below).
    fetched_object.remove("san");
    expected.as_object_mut().expect("object");
    assert_eq!(fetched, expected);

    // A move in the game's notation works too.
    let (status, state) = server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "g1f3"}"#,
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["history"][2], "g1f3");
    assert_eq!(state["history"].as_array().map(Vec::len), Some(4));
}

#[test]
fn bad_requests_get_4xx_json_errors() {
    let server = Server::start(&[]);
    let (status, reply) = server.json("POST", "/api/sessions", "{not json");
    assert_eq!(status, 400);
    assert!(error_of(&reply).contains("bad JSON"));

    let (status, reply) = server.json("POST", "/api/sessions", r#"{"game": "no-such-game"}"#);
    assert_eq!(status, 404);
    assert!(error_of(&reply).contains("no game `no-such-game`"));

    // A name is never a path.
    let (status, _) = server.json("POST", "/api/sessions", r#"{"game": "../games/chess"}"#);
    assert_eq!(status, 404);

    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        r#"{"game": "chess", "players": {"green": "random"}}"#,
    );
    assert_eq!(status, 400);
    assert!(error_of(&reply).contains("no side `green`"), "{reply}");

    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        r#"{"game": "chess", "players": {"black": "genius"}}"#,
    );
    assert_eq!(status, 400, "{reply}");

    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        r#"{"game": "chess", "players": {"black": "mcts:3600s"}}"#,
    );
    assert_eq!(status, 400);
    assert!(error_of(&reply).contains("too long"), "{reply}");

    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        r#"{"game": "chess", "fen": "not a fen"}"#,
    );
    assert_eq!(status, 422, "{reply}");

    let (status, _) = server.json("GET", "/api/sessions/0123456789abcdef", "");
    assert_eq!(status, 404);
    let (status, _) = server.json("DELETE", "/api/games", "");
    assert_eq!(status, 405);
    let (status, _) = server.json("GET", "/nowhere", "");
    assert_eq!(status, 404);

    let id = server.create(json!({"game": "chess"}));
    let path = format!("/api/sessions/{id}/moves");
    let (status, reply) = server.json("POST", &path, r#"{"move": "e2e5"}"#);
    assert_eq!(status, 422);
    assert!(error_of(&reply).contains("not a legal move"), "{reply}");
    let (status, _) = server.json("POST", &path, r#"{"mv": "e2e4"}"#);
    assert_eq!(status, 400);
    let (status, reply) = server.json(
        "POST",
        &path,
        &format!("{{\"move\": \"{}\"}}", "x".repeat(70_000)),
    );
    assert_eq!(status, 413, "{reply}");
    // Nothing was played by the refused moves.
    let (_, state) = server.json("GET", &format!("/api/sessions/{id}"), "");
    assert_eq!(state["history"], json!([]));
}

#[test]
fn a_finished_game_refuses_moves() {
    let server = Server::start(&[]);
    let id = server.create(json!({"game": "chess", "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}));
    let path = format!("/api/sessions/{id}/moves");
    let (status, state) = server.json("POST", &path, r#"{"move": "Ra8#"}"#);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["result"]["description"], "white wins by checkmate");
    let (status, reply) = server.json("POST", &path, r#"{"move": "g8h8"}"#);
    assert_eq!(status, 409);
    assert!(error_of(&reply).contains("the game is over"), "{reply}");
}

#[test]
fn a_computer_side_does_not_take_a_persons_move() {
    let server = Server::start(&[]);
    // Red's policy moves by itself; White and Black are people.
    let id = server.create(json!({"game": "cooperative-chess", "seed": 4}));
    let (_, state) = server.json("GET", &format!("/api/sessions/{id}"), "");
    assert_eq!(state["players"]["red"], "policy");
    let path = format!("/api/sessions/{id}/moves");
    // Red moves after each of the others: White, Red, Black, Red.
    let (status, state) = server.json("POST", &path, r#"{"move": "a2a3"}"#);
    assert_eq!(status, 200);
    assert_eq!(state["side_to_move"], "black", "{state}");
    let (status, state) = server.json("POST", &path, r#"{"move": "h2h3"}"#);
    assert_eq!(status, 200, "{state}");
    let history = state["history"].as_array().expect("history");
    assert_eq!(history.len(), 4, "{state}");
    assert_eq!((&history[0], &history[2]), (&json!("a2a3"), &json!("h2h3")));
    assert_eq!(state["side_to_move"], "white");
    assert!(state["policy"]["rule"].is_string(), "{state}");

    // A side played by a computer: a move sent for it is refused.
    let id = server.create(
        json!({"game": "chess", "players": {"white": "random", "black": "random"}, "seed": 2}),
    );
    let (_, state) = server.json("GET", &format!("/api/sessions/{id}"), "");
    assert!(
        state["result"].is_object() || state["history"].as_array().is_some_and(|h| h.len() >= 400)
    );
    let (status, _) = server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "e2e4"}"#,
    );
    assert_eq!(status, 409);
}

#[test]
fn two_games_at_once_keep_apart_and_one_thinking_does_not_hold_up_the_other() {
    let server = Server::start(&[]);
    let slow = server.create(json!({"game": "chess", "players": {"black": "mcts:2s"}, "seed": 1}));
    let quick = server.create(json!({"game": "takeover-chess"}));
    std::thread::scope(|scope| {
        let thinking = scope.spawn(|| {
            server.json(
                "POST",
                &format!("/api/sessions/{slow}/moves"),
                r#"{"move": "d4"}"#,
            )
        });
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let (status, state) = server.json("GET", &format!("/api/sessions/{quick}"), "");
        assert_eq!(status, 200);
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "the other game waited {:?}",
            started.elapsed()
        );
        assert_eq!(state["game"], "Takeover Chess");
        assert_eq!(state["history"], json!([]));
        let (status, state) = thinking.join().expect("the thinking request");
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["history"][0], "d2d4");
        assert_eq!(state["history"].as_array().map(Vec::len), Some(2));
    });
}

#[test]
fn the_board_picture_is_served() {
    let server = Server::start(&[]);
    let id = server.create(json!({"game": "takeover-chess"}));
    let (status, text) = server.request("GET", &format!("/api/sessions/{id}/board.svg?flip=1"), "");
    assert_eq!(status, 200);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let squares = document
        .descendants()
        .filter(|n| n.attribute("data-square").is_some())
        .count();
    assert_eq!(squares, 41);
}

#[test]
fn sessions_are_bounded_in_number_and_expire_when_idle() {
    let server = Server::start(&["--max-sessions", "1", "--idle-seconds", "1"]);
    let id = server.create(json!({"game": "chess"}));
    let (status, reply) = server.json("POST", "/api/sessions", r#"{"game": "chess"}"#);
    assert_eq!(status, 503);
    assert!(
        error_of(&reply).contains("1 games are under way"),
        "{reply}"
    );
    std::thread::sleep(Duration::from_millis(2500));
    let (status, _) = server.json("POST", &format!("/api/sessions/{id}/stop"), "");
    assert_eq!(status, 404, "an expired game has no search to stop");
    let (status, _) = server.json("GET", &format!("/api/sessions/{id}/events"), "");
    assert_eq!(status, 404);
    let (status, _) = server.json("GET", &format!("/api/sessions/{id}"), "");
    assert_eq!(status, 404);
    // The expired game's place is free again.
    server.create(json!({"game": "chess"}));
}

#[test]
fn the_pages_are_served_from_the_binary() {
    let server = Server::start(&[]);
    let (status, index) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(
        index.contains("/api/games"),
        "the picker lists the games from the API"
    );
    let (status, page) = server.request("GET", "/play/chess?black=random", "");
    assert_eq!(status, 200);
    assert!(page.contains("/api/sessions") && page.contains("data-square"));
    let (status, reply) = server.json("GET", "/play/no-such-game", "");
    assert_eq!(status, 404);
    assert!(error_of(&reply).contains("no game"));
}

#[test]
fn a_game_between_computers_goes_on_at_each_request() {
    let server = Server::start(&[]);
    let id = server.create(
        json!({"game": "chess", "players": {"white": "random", "black": "random"}, "seed": 9}),
    );
    let (_, first) = server.json("GET", &format!("/api/sessions/{id}"), "");
    let (_, second) = server.json("GET", &format!("/api/sessions/{id}"), "");
    let plies = |state: &Value| state["history"].as_array().map_or(0, Vec::len);
    match first["result"].is_null() {
        // Not over after 800 random moves: the second request played more.
        true => assert!(plies(&second) > plies(&first)),
        false => assert_eq!(plies(&second), plies(&first)),
    }
    assert!(plies(&first) > 0);
}

/// The moves of a state, in the game's notation.
fn history_of(state: &Value) -> Vec<&str> {
    state["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

#[test]
fn the_moves_are_listed_in_san_beside_the_history() {
    let server = Server::start(&[]);
    let id = server.create(json!({"game": "chess", "players": {"black": "random"}, "seed": 3}));
    let path = format!("/api/sessions/{id}/moves");
    server.json("POST", &path, r#"{"move": "e2e4"}"#);
    let (status, state) = server.json("POST", &path, r#"{"move": "Nf3"}"#);
    assert_eq!(status, 200, "{state}");
    let san = state["san"].as_array().expect("a san list");
    assert_eq!(san.len(), 4, "{state}");
    assert_eq!((&san[0], &san[2]), (&json!("e4"), &json!("Nf3")));
    // Black's replies in SAN are the same moves as in the history.
    let history = history_of(&state);
    let expected = common::show_json(&["chess", "--play", &history.join(" ")]);
    assert_eq!(state["fen"], expected["fen"]);
    assert!(san[1].as_str().is_some_and(|m| !m.contains(history[1])));
}

#[test]
fn undo_takes_back_the_persons_move_and_the_computers_reply() {
    let server = Server::start(&[]);
    let id = server.create(json!({"game": "chess", "players": {"black": "random"}, "seed": 1}));
    let undo = format!("/api/sessions/{id}/undo");
    let (status, reply) = server.json("POST", &undo, "");
    assert_eq!(status, 409, "nothing played yet");
    assert!(error_of(&reply).contains("nothing to take back"), "{reply}");
    let moves = format!("/api/sessions/{id}/moves");
    server.json("POST", &moves, r#"{"move": "e4"}"#);
    let (_, state) = server.json("POST", &moves, r#"{"move": "d4"}"#);
    assert_eq!(history_of(&state).len(), 4);
    let (status, state) = server.json("POST", &undo, "");
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        history_of(&state),
        vec!["e2e4", state["history"][1].as_str().unwrap()]
    );
    assert_eq!(state["side_to_move"], "white");
    assert_eq!(state["san"].as_array().map(Vec::len), Some(2));
    let (_, state) = server.json("POST", &undo, "");
    assert_eq!(state["history"], json!([]));
    assert_eq!(state["fen"], common::show_json(&["chess"])["fen"]);

    // Two people: one move back at a time.
    let id = server.create(json!({"game": "chess"}));
    let moves = format!("/api/sessions/{id}/moves");
    server.json("POST", &moves, r#"{"move": "e4"}"#);
    server.json("POST", &moves, r#"{"move": "e5"}"#);
    let (_, state) = server.json("POST", &format!("/api/sessions/{id}/undo"), "");
    assert_eq!(state["history"], json!(["e2e4"]));
    assert_eq!(state["side_to_move"], "black");

    // Red's policy moves after White: undoing White's move takes Red's back too.
    let id = server.create(json!({"game": "cooperative-chess", "seed": 4}));
    let (_, state) = server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "a2a3"}"#,
    );
    assert_eq!(history_of(&state).len(), 2, "{state}");
    let (status, state) = server.json("POST", &format!("/api/sessions/{id}/undo"), "");
    assert_eq!(status, 200);
    assert_eq!(state["history"], json!([]));
    assert_eq!(state["side_to_move"], "white");

    // Computers alone: nothing a person could take back.
    let id = server.create(
        json!({"game": "chess", "players": {"white": "random", "black": "random"}, "seed": 2}),
    );
    let (status, reply) = server.json("POST", &format!("/api/sessions/{id}/undo"), "");
    assert_eq!(status, 409);
    assert!(error_of(&reply).contains("no side is played by a person"));
    let (status, _) = server.json("GET", &format!("/api/sessions/{id}/undo"), "");
    assert_eq!(status, 405);
}

#[test]
fn the_record_is_the_one_save_writes_and_loads_back() {
    let server = Server::start(&[]);
    let id = server.create(json!({"game": "chess", "seed": 7}));
    let moves = format!("/api/sessions/{id}/moves");
    for mv in ["e4", "e5", "g1f3"] {
        let (status, state) = server.json("POST", &moves, &json!({"move": mv}).to_string());
        assert_eq!(status, 200, "{state}");
    }
    let (status, record) = server.request("GET", &format!("/api/sessions/{id}/record"), "");
    assert_eq!(status, 200);

    // The CLI's `save` of the same game writes the same text.
    let dir = common::temporary_dir("serve-record");
    let output = common::run_in(
        &dir,
        &[
            "play", "chess", "--white", "human", "--black", "human", "--seed", "7",
        ],
        "e4\ne5\ng1f3\nsave game.pgn\nquit\n",
    );
    assert!(output.status.success(), "{}", common::stderr(&output));
    let saved = std::fs::read_to_string(dir.join("game.pgn")).expect("saved");
    assert_eq!(record, saved);
    assert!(record.contains("1. e4 e5 2. Nf3"), "{record}");

    // Loaded back: the same moves, players and seed, and the same record again.
    let loaded = server.create(json!({"record": record}));
    let (_, state) = server.json("GET", &format!("/api/sessions/{loaded}"), "");
    assert_eq!(state["history"], json!(["e2e4", "e7e5", "g1f3"]));
    assert_eq!(state["side_to_move"], "black");
    assert_eq!(
        state["players"],
        json!({"white": "human", "black": "human"})
    );
    let (_, again) = server.request("GET", &format!("/api/sessions/{loaded}/record"), "");
    assert_eq!(again, record);

    // Checked as --load checks it: another version of the game, a wrong move, not a record.
    let other_version = record.replace("DefinitionHash \"", "DefinitionHash \"0");
    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        &json!({"record": other_version}).to_string(),
    );
    assert_eq!(status, 422);
    assert!(error_of(&reply).contains("different version"), "{reply}");
    let wrong_move = record.replace("2. Nf3", "2. Nf6");
    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        &json!({"record": wrong_move}).to_string(),
    );
    assert_eq!(status, 422);
    assert!(error_of(&reply).contains("move 3 (`Nf6`)"), "{reply}");
    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        &json!({"game": "takeover-chess", "record": record}).to_string(),
    );
    assert_eq!(status, 422);
    assert!(
        error_of(&reply).contains("not of `takeover-chess.variant`"),
        "{reply}"
    );
    let (status, _) = server.json("POST", "/api/sessions", r#"{"record": 5}"#);
    assert_eq!(status, 400);
    let (status, reply) = server.json("POST", "/api/sessions", r#"{"record": "1. e4 e5 *"}"#);
    assert_eq!(status, 422);
    assert!(error_of(&reply).contains("no tags"), "{reply}");
    let (status, reply) = server.json(
        "POST",
        "/api/sessions",
        r#"{"record": "[Event \"x\"]\n\n1. e4 e5 *"}"#,
    );
    assert_eq!(status, 422);
    assert!(error_of(&reply).contains("GameFile"), "{reply}");
}

#[test]
fn the_pages_offer_a_new_game_form_undo_and_records() {
    let server = Server::start(&[]);
    let (_, index) = server.request("GET", "/", "");
    for part in [
        r#"<form id="new">"#,
        r#"id="seed""#,
        r#"id="fen""#,
        "/play/${encodeURIComponent(game)}?${query}",
        r#"JSON.stringify({record, stream: true})"#,
    ] {
        assert!(index.contains(part), "the index lacks {part}");
    }
    let (_, page) = server.request("GET", "/play/chess", "");
    for part in [
        "/undo`",
        "/record`",
        "state.san",
        "state.policy",
        "state.turn_actions",
        r#"query.has("session")"#,
        "stream: true",
        "/events?",
        "/stop`",
        "pointerdown",
    ] {
        assert!(page.contains(part), "the play page lacks {part}");
    }
}

/// The events of a server-sent event stream: `(name, data)` of each `event:`/`data:` block.
fn parse_events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            let data = serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {data}"));
            Some((name.to_string(), data))
        })
        .collect()
}

/// Opens `GET path` and returns the connection after the response's head (which must be an
/// event stream in chunks), for reading the events as they come. The connection is kept
/// alive: the stream's end is its last chunk, not the connection closing.
fn open_events(server: &Server, path: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address
    )
    .expect("sends");
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    while !head.ends_with("\r\n\r\n") {
        let read = reader.read_line(&mut head).expect("reads the head");
        assert!(read > 0, "the stream closed in its head: {head}");
    }
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("Content-Type: text/event-stream"), "{head}");
    assert!(head.contains("Transfer-Encoding: chunked"), "{head}");
    reader
}

/// The next event of an open stream (one chunk each), or `None` at its last chunk.
fn read_event(reader: &mut BufReader<TcpStream>) -> Option<(String, Value)> {
    let mut size = String::new();
    reader.read_line(&mut size).expect("a chunk's size");
    let size = usize::from_str_radix(size.trim_end(), 16)
        .unwrap_or_else(|e| panic!("a chunk's size in hex, not {size:?}: {e}"));
    let mut chunk = vec![0; size + 2];
    reader.read_exact(&mut chunk).expect("the chunk");
    assert!(chunk.ends_with(b"\r\n"), "a chunk ends with CRLF");
    if size == 0 {
        return None;
    }
    let text = String::from_utf8(chunk[..size].to_vec()).expect("UTF-8");
    let mut events = parse_events(&text);
    assert_eq!(events.len(), 1, "one event per chunk: {text}");
    events.pop()
}

/// The next event of an open stream, which must not have ended.
fn next_event(reader: &mut BufReader<TcpStream>) -> (String, Value) {
    read_event(reader).expect("an event before the stream's end")
}

/// Every event of `GET path`, to the stream's end.
fn all_events(server: &Server, path: &str) -> Vec<(String, Value)> {
    let mut reader = open_events(server, path);
    std::iter::from_fn(|| read_event(&mut reader)).collect()
}

#[test]
fn a_streamed_game_sends_the_search_progress_and_then_the_move() {
    let server = Server::start(&[]);
    let id = server.create(json!({
        "game": "chess", "players": {"white": "human", "black": "search:3"}, "stream": true
    }));
    // The person's move is answered at once, without the computer's reply.
    let (status, state) = server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "e4"}"#,
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(history_of(&state), ["e2e4"]);
    assert_eq!(state["side_to_move"], "black");
    let events = all_events(&server, &format!("/api/sessions/{id}/events?flip=1"));
    let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["thinking", "progress", "progress", "progress", "move", "done"],
        "{events:?}"
    );
    assert_eq!(events[0].1, json!({"side": "black", "player": "search:3"}));
    for (depth, (_, progress)) in events[1..4].iter().enumerate() {
        assert_eq!(progress["depth"], depth + 1, "{progress}");
        assert_eq!(progress["side"], "black");
        let pv = progress["pv"].as_array().expect("a best line");
        assert!(!pv.is_empty(), "{progress}");
        assert_eq!(progress["san"].as_array().map(Vec::len), Some(pv.len()));
        assert!(progress["eval"].as_str().is_some(), "{progress}");
        assert!(progress["score"]["cp"].is_i64(), "{progress}");
    }
    let moved = &events[4].1;
    let best = events[3].1["pv"][0].clone();
    assert_eq!(moved["move"], best, "the move is the deepest line's first");
    assert_eq!(moved["side"], "black");
    assert_eq!(history_of(&moved["state"]).len(), 2);
    // The board after the move, drawn as asked (the game's thread is busy until the end).
    let picture = moved["svg"].as_str().expect("the board");
    let document = roxmltree::Document::parse(picture).expect("XML");
    let e4 = document
        .descendants()
        .find(|n| n.attribute("data-square") == Some("e4"))
        .expect("e4");
    assert!(
        e4.descendants()
            .any(|n| n.attribute("data-piece") == Some("P")),
        "the person's pawn is on e4"
    );
    assert_eq!(events[5].1["side_to_move"], "white");
    // The game keeps the move; a stream with a person to move only says it is done.
    let (_, state) = server.json("GET", &format!("/api/sessions/{id}"), "");
    assert_eq!(history_of(&state).len(), 2);
    let events = all_events(&server, &format!("/api/sessions/{id}/events"));
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].0, "done");
}

#[test]
fn a_streamed_policy_move_carries_its_rule_and_dice() {
    let server = Server::start(&[]);
    let id = server.create(json!({"game": "cooperative-chess", "stream": true}));
    let (status, state) = server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "a2a3"}"#,
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["side_to_move"], "red", "Red waits for the stream");
    let events = all_events(&server, &format!("/api/sessions/{id}/events"));
    let (name, moved) = &events[1];
    assert_eq!(name, "move", "{events:?}");
    assert_eq!(moved["side"], "red");
    assert!(
        moved["state"]["policy"]["rule"].is_string(),
        "{}",
        moved["state"]
    );
    assert_eq!(events.last().expect("done").0, "done");
}

#[test]
fn stop_makes_the_search_move_now() {
    let server = Server::start(&[]);
    let id = server.create(json!({
        "game": "chess", "players": {"white": "human", "black": "search:10s"}, "stream": true
    }));
    let (status, reply) = server.json("POST", &format!("/api/sessions/{id}/stop"), "");
    assert_eq!(status, 200);
    assert_eq!(reply, json!({"stopped": false}), "no search under way yet");
    server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "e4"}"#,
    );
    let mut events = open_events(&server, &format!("/api/sessions/{id}/events"));
    assert_eq!(next_event(&mut events).0, "thinking");
    assert_eq!(next_event(&mut events).0, "progress");
    let asked = Instant::now();
    let (status, reply) = server.json("POST", &format!("/api/sessions/{id}/stop"), "");
    assert_eq!(status, 200);
    assert_eq!(reply, json!({"stopped": true}));
    let moved = loop {
        let (name, data) = next_event(&mut events);
        match name.as_str() {
            "progress" => continue,
            "move" => break data,
            other => panic!("unexpected {other}: {data}"),
        }
    };
    // Ten seconds' budget, half of it before no new depth begins: stopped, it moves now.
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(moved["side"], "black");
    assert_eq!(next_event(&mut events).0, "done");
    assert!(read_event(&mut events).is_none(), "done is the last event");
    let (status, _) = server.json("POST", "/api/sessions/nosuchgame/stop", "");
    assert_eq!(status, 404);
}

#[test]
fn a_streamed_mcts_player_reports_its_playouts_and_stops_on_request() {
    let server = Server::start(&[]);
    let id = server.create(json!({
        "game": "chess", "players": {"white": "human", "black": "mcts:10s"}, "stream": true
    }));
    server.json(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        r#"{"move": "e4"}"#,
    );
    let mut events = open_events(&server, &format!("/api/sessions/{id}/events"));
    assert_eq!(
        next_event(&mut events),
        (
            "thinking".to_string(),
            json!({"side": "black", "player": "mcts:10s"})
        )
    );
    let (name, first) = next_event(&mut events);
    assert_eq!(name, "progress", "{first}");
    assert_eq!(first["side"], "black");
    assert!(first["playouts"].as_u64().is_some_and(|n| n > 0), "{first}");
    assert!(first["time_ms"].is_u64(), "{first}");
    assert!(
        first["best"].is_string() && first["san"].is_string(),
        "{first}"
    );
    let expected = first["expected"].as_f64().expect("an expectation");
    assert!((0.0..=1.0).contains(&expected), "{first}");
    let asked = Instant::now();
    let (status, reply) = server.json("POST", &format!("/api/sessions/{id}/stop"), "");
    assert_eq!(status, 200);
    assert_eq!(reply, json!({"stopped": true}));
    let mut last = first;
    let moved = loop {
        let (name, data) = next_event(&mut events);
        match name.as_str() {
            "progress" => last = data,
            "move" => break data,
            other => panic!("unexpected {other}: {data}"),
        }
    };
    // Ten seconds' budget: stopped, it plays the move of its last report now.
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(moved["move"], last["best"], "{last}");
    assert_eq!(moved["side"], "black");
    assert_eq!(next_event(&mut events).0, "done");
}
