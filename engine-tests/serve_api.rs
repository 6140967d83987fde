//! `shishi serve` over HTTP (docs/SERVE.md): the binary is started on port 0 and driven with
//! plain HTTP/1.1 requests. A game of each of the five games is played through the API to
//! its end, illegal and malformed requests are refused with the game unchanged, the
//! Madness page never receives the engine's unplayed card (checked against a replica of
//! the server's seeded deal), and 1000 random requests leave the server up and every game
//! intact.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use shishi::referee::arbiter::draw_chance_at;
use shishi::rules::game::{Game, NodeKind};
use shishi::rules::geometry::Color;
use shishi::rules::variants::madness::TrueGame;
use shishi::rules::variants::Variant;
use shishi::usi::position::{RuleOptions, UsiPosition};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `shishi serve`, killed when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(extra: &[&str]) -> (Server, String) {
    start_server_with(&["--engines", "2"], extra, None)
}

/// Starts a server with one search slot and the test faults `faults` armed.
fn start_faulty_server(faults: &str) -> Server {
    start_server_with(&["--engines", "1"], &[], Some(faults)).0
}

fn start_server_with(engines: &[&str], extra: &[&str], faults: Option<&str>) -> (Server, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shishi"));
    // The server's stderr is discarded, so a backtrace would be printed for no one; and
    // the panic hook symbolises it before the panic reaches the server's `catch_unwind`: from
    // this 50 MB debug binary with a cold page cache that took 0.1 s to 3.3 s here, and past
    // the server's 3 s grace after a stop a panicking search is reported as one that did not
    // answer (CI sets RUST_BACKTRACE=1).
    command.env("RUST_BACKTRACE", "0");
    if let Some(faults) = faults {
        command.env(shishi::serve::fault::FAULT_VARIABLE, faults);
    }
    let mut child = command
        .args(["serve", "--port", "0", "--hash", "4"])
        .args(engines)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start shishi serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    (Server { child, address }, line)
}

/// Decodes a chunked body.
fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = body.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(std::str::from_utf8(&body[..end]).unwrap().trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 2 + size + 2..];
    }
}

/// Sends raw bytes and returns the status and body (0 and empty if the server closed the
/// connection without an answer). `half_close` ends the sending side after the bytes, so a
/// server waiting for the rest of a broken request sees the end at once.
fn raw(address: SocketAddr, bytes: &[u8], half_close: bool) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let _ = stream.write_all(bytes);
    if half_close {
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let Some(split) = reply.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (0, String::new());
    };
    let head = String::from_utf8_lossy(&reply[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = &reply[split + 4..];
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_vec()
    };
    (status, String::from_utf8_lossy(&body).to_string())
}

fn http(address: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(address, request.as_bytes(), false)
}

fn json(address: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let (status, text) = http(address, method, path, body);
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    (status, value)
}

fn create(address: SocketAddr, body: &str) -> Value {
    let (status, state) = json(address, "POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    state
}

/// Plays `text` in game `id`.
fn play(address: SocketAddr, id: &str, text: &str) -> (u16, Value) {
    let body = serde_json::json!({ "move": text }).to_string();
    json(
        address,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&body),
    )
}

fn state_of(address: SocketAddr, id: &str) -> Value {
    let (status, state) = json(address, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{state}");
    state
}

/// Polls until the person is to move or the game is over.
fn wait_turn(address: SocketAddr, id: &str, limit: Duration) -> Value {
    let start = Instant::now();
    loop {
        let state = state_of(address, id);
        if state["your_turn"] == true || !state["result"].is_null() {
            return state;
        }
        assert!(start.elapsed() < limit, "the engine did not move: {state}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn texts(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn move_texts(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_server_says_it_listens_on_localhost_and_serves_the_page() {
    let (server, line) = start_server(&[]);
    assert!(
        line.contains("127.0.0.1") && line.contains("only"),
        "{line}"
    );
    let (status, page) = http(server.address, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("/page.js") && page.contains("<svg id=\"board\""));
    for asset in ["/page.js", "/page.css", "/favicon.svg"] {
        let (status, body) = http(server.address, "GET", asset, None);
        assert_eq!(status, 200, "{asset}");
        assert!(!body.is_empty());
    }
    // Nothing the page uses comes from elsewhere.
    let (_, script) = http(server.address, "GET", "/page.js", None);
    assert!(!page.contains("https://") && !script.contains("https://"));
    assert_eq!(
        http(server.address, "GET", "/../../etc/passwd", None).0,
        404
    );
}

#[test]
fn a_game_of_each_variant_is_played_to_its_end_through_the_api() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    let mut rng = StdRng::seed_from_u64(17);
    for (variant, person) in [
        ("shogi", "sente"),
        ("chushogi", "gote"),
        ("chukagamigi", "sente"),
        ("shogammon", "gote"),
        ("madness", "sente"),
    ] {
        let body =
            format!(r#"{{"variant":"{variant}","side":"{person}","movetime_ms":50,"seed":5}}"#);
        let id = create(address, &body)["id"].as_str().unwrap().to_string();
        let mut person_moves = 0;
        let end = loop {
            let state = wait_turn(address, &id, Duration::from_secs(30));
            if !state["result"].is_null() {
                break state;
            }
            if person_moves == 250 {
                let (status, state) =
                    json(address, "POST", &format!("/api/games/{id}/resign"), None);
                assert_eq!(status, 200);
                break state;
            }
            let legal = texts(&state["legal"]);
            assert!(!legal.is_empty(), "{variant}: my turn without a move");
            let pick = &legal[rng.gen_range(0..legal.len())];
            let (status, after) = play(address, &id, pick);
            assert_eq!(status, 200, "{variant} {pick}: {after}");
            assert!(move_texts(&after).contains(pick) || !after["result"].is_null());
            person_moves += 1;
        };
        let result = &end["result"];
        assert!(result["reason"].as_str().is_some(), "{variant}: {end}");
        assert_eq!(end["to_act"], "over");
        assert_eq!(end["legal"].as_array().unwrap().len(), 0);
        assert!(
            end["seed"].as_u64() == Some(5),
            "the seed is shown once it is over"
        );
        // A finished game refuses moves.
        let (status, _) = json(
            address,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(r#"{"move":"7g7f"}"#),
        );
        assert_eq!(status, 409);
        eprintln!(
            "{variant}: {} after {person_moves} moves of mine, {} tokens",
            result,
            end["moves"].as_array().unwrap().len()
        );
    }
}

#[test]
fn shogammon_and_madness_reach_a_result_by_the_rules() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    let mut rng = StdRng::seed_from_u64(3);
    for variant in ["shogammon", "madness"] {
        let body = format!(r#"{{"variant":"{variant}","movetime_ms":50,"seed":11}}"#);
        let id = create(address, &body)["id"].as_str().unwrap().to_string();
        let end = loop {
            let state = wait_turn(address, &id, Duration::from_secs(30));
            if !state["result"].is_null() {
                break state;
            }
            let legal = texts(&state["legal"]);
            let pick = &legal[rng.gen_range(0..legal.len())];
            assert_eq!(play(address, &id, pick).0, 200);
        };
        let reason = end["result"]["reason"].as_str().unwrap();
        assert_ne!(reason, "resignation");
        assert!(!reason.contains("drawn after"), "{variant}: {reason}");
    }
}

#[test]
fn illegal_and_malformed_requests_leave_the_game_unchanged() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    let state = create(address, r#"{"variant":"shogi","movetime_ms":100}"#);
    let id = state["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/move");
    let before = state_of(address, &id);
    for (body, status) in [
        (r#"{"move":"7g7e"}"#, 409), // illegal
        (r#"{"move":"3c3d"}"#, 409), // the other side's move
        (r#"{"move":"r:61"}"#, 409), // a roll is the server's
        (r#"{"move":""}"#, 400),     // empty
        (r#"{"move":7}"#, 400),      // not text
        (r#"{"mv":"7g7f"}"#, 400),   // unknown field
        (r#"{"move":"7g7f""#, 400),  // broken JSON
        ("\u{0}\u{1}garbage", 400),  // not JSON
    ] {
        let (got, reply) = json(address, "POST", &path, Some(body));
        assert_eq!(got, status, "{body}: {reply}");
        assert!(reply["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
    let long = format!(r#"{{"move":"{}"}}"#, "7".repeat(100));
    assert_eq!(json(address, "POST", &path, Some(&long)).0, 400);
    let huge = format!(r#"{{"move":"{}"}}"#, "x".repeat(20_000));
    assert_eq!(http(address, "POST", &path, Some(&huge)).0, 413);
    let after = state_of(address, &id);
    assert_eq!(before["version"], after["version"]);
    assert_eq!(before["moves"], after["moves"]);
    assert_eq!(before["sfen"], after["sfen"]);

    // Ids, paths, methods.
    let unknown = "0123456789abcdef0123456789abcdef";
    assert_eq!(
        http(address, "GET", &format!("/api/games/{unknown}"), None).0,
        404
    );
    assert_eq!(http(address, "GET", "/api/games/xyz", None).0, 404);
    assert_eq!(
        http(address, "PUT", &format!("/api/games/{id}"), None).0,
        405
    );
    assert_eq!(http(address, "GET", "/api/games", None).0, 405);
    assert_eq!(
        http(address, "GET", &format!("/api/games/{id}/nothing"), None).0,
        404
    );
    // Set-ups.
    for body in [
        r#"{"variant":"chess"}"#,
        r#"{"variant":"shogi","side":"black"}"#,
        r#"{"variant":"shogi","movetime_ms":1}"#,
        r#"{"variant":"shogi","sfen":"9/9/9 b - 1"}"#,
        r#"{"variant":"chushogi","chu_rules":"fide"}"#,
        r#"{"variant":"shogammon","dice":"P/P/P/P/P/P"}"#,
        r#"{"variant":"shogi","colour":"sente"}"#,
    ] {
        assert_eq!(
            json(address, "POST", "/api/games", Some(body)).0,
            400,
            "{body}"
        );
    }
    // Undo with nothing to take back; a watched game takes no moves.
    assert_eq!(
        http(address, "POST", &format!("/api/games/{id}/undo"), None).0,
        409
    );
    let watch = create(
        address,
        r#"{"variant":"shogi","mode":"watch","movetime_ms":50}"#,
    );
    let wid = watch["id"].as_str().unwrap();
    assert_eq!(
        http(
            address,
            "POST",
            &format!("/api/games/{wid}/move"),
            Some(r#"{"move":"7g7f"}"#)
        )
        .0,
        409
    );
    assert_eq!(
        http(address, "POST", &format!("/api/games/{wid}/resign"), None).0,
        409
    );
    assert_eq!(
        http(address, "DELETE", &format!("/api/games/{wid}"), None).0,
        200
    );
    assert_eq!(
        http(address, "GET", &format!("/api/games/{wid}"), None).0,
        404
    );

    // A legal move, the engine's reply, then undo back to before the move.
    let (status, _) = json(address, "POST", &path, Some(r#"{"move":"7g7f"}"#));
    assert_eq!(status, 200);
    let replied = wait_turn(address, &id, Duration::from_secs(10));
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2);
    let (status, undone) = json(address, "POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(status, 200);
    assert_eq!(undone["moves"].as_array().unwrap().len(), 0);
    assert_eq!(undone["sfen"], before["sfen"]);
    assert_eq!(undone["your_turn"], true);
}

#[test]
fn the_event_stream_sends_the_state() {
    let (server, _) = start_server(&[]);
    let state = create(
        server.address,
        r#"{"variant":"chushogi","movetime_ms":100}"#,
    );
    let id = state["id"].as_str().unwrap();
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    let mut event = None;
    while reader.read_line(&mut line).unwrap() > 0 {
        if let Some(data) = line.strip_prefix("data: ") {
            event = Some(serde_json::from_str::<Value>(data.trim()).unwrap());
            break;
        }
        line.clear();
    }
    let event = event.expect("one event");
    assert_eq!(event["id"], id);
    assert_eq!(event["files"], 12);
    assert!(line.starts_with("data: "));
}

/// The server's deal and rolls, replayed: the true tokens of a Madness game whose sente
/// view is `shown`, each draw fixed by the server's seed and its place in the game.
fn replay_truth(seed: u64, shown: &[String]) -> Vec<(String, Option<Color>)> {
    let mut truth = TrueGame::startpos();
    let mut out = Vec::new();
    for text in shown {
        match truth.node_kind() {
            NodeKind::Chance(outcomes) => {
                let mv = draw_chance_at(seed, out.len() as u64, &outcomes).unwrap();
                let drawer = match truth.phase() {
                    shishi::rules::variants::madness::Phase::Deal(c) => Some(c),
                    shishi::rules::variants::madness::Phase::Draw => Some(truth.side_to_move()),
                    _ => None,
                };
                out.push((truth.action_text(mv), drawer));
                truth.play(mv);
            }
            NodeKind::Decision(_) => {
                let mv = truth.parse_action(text).unwrap();
                out.push((text.clone(), None));
                truth.play(mv);
            }
        }
    }
    out
}

#[test]
fn the_madness_page_never_receives_the_engines_unplayed_card() {
    let (server, _) = start_server(&[]);
    let mut total = 0;
    for seed in [2024, 7, 31337] {
        total += hidden_card_never_shown(server.address, seed);
    }
    assert!(total > 30, "only {total} states checked");
}

/// Plays a Madness game as sente (the engine has gote) and checks every state sente's page
/// is sent against the server's deal, replayed; returns the number of states checked.
fn hidden_card_never_shown(address: SocketAddr, seed: u64) -> usize {
    // sente = the person; moves to 5e are preferred, so that cards are played.
    let body = format!(r#"{{"variant":"madness","side":"sente","movetime_ms":50,"seed":{seed}}}"#);
    let id = create(address, &body)["id"].as_str().unwrap().to_string();
    let mut rng = StdRng::seed_from_u64(99);
    let mut checked = 0;
    let mut engine_cards_played = 0;
    for _ in 0..120 {
        let state = wait_turn(address, &id, Duration::from_secs(30));
        let shown = move_texts(&state);
        let truth = replay_truth(seed, &shown);
        // Every card gote drew reaches sente's page as draw:?, and every other token as it is.
        for ((true_text, drawer), seen) in truth.iter().zip(&shown) {
            if *drawer == Some(Color::Gote) {
                assert_eq!(seen, "draw:?", "gote's draw {true_text} was shown");
            } else {
                assert_eq!(seen, true_text);
            }
        }
        // Gote's card in hand now: the last card gote drew.
        let held = truth
            .iter()
            .rev()
            .find(|(_, d)| *d == Some(Color::Gote))
            .map(|(t, _)| t.trim_start_matches("draw:").to_string())
            .unwrap();
        let located = state["cards"]["opponent_located"]
            .as_u64()
            .map(|v| v.to_string());
        assert!(located.is_none() || located.as_deref() == Some(held.as_str()));
        let text = state.to_string();
        if located.is_none() {
            let pv = state["analysis"]["pv"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            for token in pv.iter().filter_map(|t| t.as_str()) {
                assert!(
                    !token.starts_with("c:") && !token.starts_with("draw:"),
                    "{token}"
                );
            }
            assert!(
                !texts(&state["legal"]).contains(&format!("c:{held}"))
                    || state["cards"]["own"].as_u64().map(|v| v.to_string()) == Some(held.clone()),
                "gote's card offered to sente: {text}"
            );
        }
        engine_cards_played = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["by"] == "gote" && m["text"].as_str().unwrap().starts_with("c:"))
            .count();
        checked += 1;
        if !state["result"].is_null() {
            break;
        }
        let legal = texts(&state["legal"]);
        // Keep a piece on 5e often, so both sides play cards.
        let pick = legal
            .iter()
            .find(|m| m.ends_with("5e"))
            .cloned()
            .unwrap_or_else(|| legal[rng.gen_range(0..legal.len())].clone());
        assert_eq!(play(address, &id, &pick).0, 200);
    }
    eprintln!(
        "seed {seed}: checked {checked} states; the engine played {engine_cards_played} cards"
    );
    checked
}

#[test]
fn a_watched_game_plays_itself_and_shows_only_the_viewers_card() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    let state = create(
        address,
        r#"{"variant":"madness","mode":"watch","side":"gote","movetime_ms":50,"seed":4}"#,
    );
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["person"], Value::Null);
    let start = Instant::now();
    let state = loop {
        let state = state_of(address, &id);
        let decided = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["by"] != "chance")
            .count();
        if decided >= 12 || !state["result"].is_null() {
            break state;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{state}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(state["your_turn"], false);
    assert_eq!(state["legal"].as_array().unwrap().len(), 0);
    // Gote's view: sente's draws hidden, gote's own shown.
    let moves = state["moves"].as_array().unwrap();
    assert_eq!(moves[0]["text"], "draw:?");
    assert!(moves[1]["text"].as_str().unwrap().starts_with("draw:"));
    assert_ne!(moves[1]["text"], "draw:?");
    assert!(state["cards"]["own"].as_u64().is_some());
}

#[test]
fn a_thousand_random_requests_leave_the_server_up_and_the_games_intact() {
    let (server, _) = start_server(&["--max-games", "40"]);
    let address = server.address;
    let variants = ["shogi", "chushogi", "chukagamigi", "shogammon", "madness"];
    let mut ids = Vec::new();
    for v in variants {
        let state = create(
            address,
            &format!(r#"{{"variant":"{v}","movetime_ms":50,"seed":1}}"#),
        );
        ids.push(state["id"].as_str().unwrap().to_string());
    }
    let mut rng = StdRng::seed_from_u64(1000);
    let junk = |rng: &mut StdRng, lo: usize, hi: usize| -> String {
        let n = rng.gen_range(lo..=hi);
        (0..n)
            .map(|_| char::from(rng.gen_range(0u8..128)))
            .collect()
    };
    // Path text: printable, no spaces (a space or line break would end the request line,
    // which the raw requests below try).
    let printable = |rng: &mut StdRng, lo: usize, hi: usize| -> String {
        let n = rng.gen_range(lo..=hi);
        (0..n)
            .map(|_| char::from(rng.gen_range(33u8..127)))
            .collect()
    };
    let mut statuses = std::collections::BTreeMap::new();
    for i in 0..1000 {
        let id = match rng.gen_range(0..5) {
            0 | 1 => ids[rng.gen_range(0..ids.len())].clone(),
            2 => format!("{:032x}", rng.gen::<u128>()),
            3 => printable(&mut rng, 0, 39),
            _ => "x".repeat(rng.gen_range(0..3000)),
        };
        let path = match rng.gen_range(0..9) {
            0 => "/".to_string(),
            1 => "/api/games".to_string(),
            2 => format!("/api/games/{id}"),
            3 | 4 => format!("/api/games/{id}/move"),
            5 => format!("/api/games/{id}/undo"),
            6 => format!("/api/games/{id}/resign"),
            7 => format!("/api/games/{id}/{}", printable(&mut rng, 8, 8)),
            _ => format!("/{}", printable(&mut rng, 20, 20)),
        };
        let body = match rng.gen_range(0..8) {
            0 => String::new(),
            1 => junk(&mut rng, 0, 199),
            2 => format!(
                r#"{{"move":"{}"}}"#,
                junk(&mut rng, 0, 11).replace(['"', '\\'], "")
            ),
            3 => {
                let moves = [
                    "7g7f", "P*5e", "r:61", "pass", "c:3", "roll", "mad+", "6f6e6d", "12i12h",
                    "draw:4",
                ];
                format!(r#"{{"move":"{}"}}"#, moves[rng.gen_range(0..moves.len())])
            }
            4 => format!(
                r#"{{"variant":"{}","movetime_ms":{},"seed":{}}}"#,
                variants[rng.gen_range(0..5)],
                rng.gen_range(0..200),
                rng.gen::<u32>()
            ),
            5 => format!(
                r#"{{"variant":"shogi","sfen":"{}"}}"#,
                junk(&mut rng, 60, 60).replace(['"', '\\'], "")
            ),
            6 => "x".repeat(rng.gen_range(15_000..40_000)),
            _ => format!(
                r#"{{"{}":{}}}"#,
                junk(&mut rng, 5, 5).replace(['"', '\\'], ""),
                rng.gen::<i64>()
            ),
        };
        // Real games are never deleted here, so they must all survive.
        let methods = [
            "GET", "POST", "POST", "PUT", "PATCH", "HEAD", "OPTIONS", "BREW",
        ];
        let method = methods[rng.gen_range(0..methods.len())];
        let (status, _) = if i % 50 == 49 {
            // Now and then not HTTP at all.
            raw(address, junk(&mut rng, 300, 300).as_bytes(), true)
        } else {
            http(address, method, &path, Some(&body))
        };
        *statuses.entry(status).or_insert(0) += 1;
        assert_ne!(status, 500, "{method} {path}");
    }
    eprintln!("statuses of 1000 random requests: {statuses:?}");
    assert_eq!(http(address, "GET", "/", None).0, 200);
    for id in &ids {
        let state = state_of(address, id);
        // The game's record (the viewer's tokens) still reads back as a USI position.
        let record = state["record"].as_str().unwrap();
        let words: Vec<&str> = record.split_whitespace().collect();
        let variant = Variant::from_name(state["variant"].as_str().unwrap()).unwrap();
        UsiPosition::parse(&words, variant, RuleOptions::default())
            .unwrap_or_else(|e| panic!("{record}: {e}"));
        if state["result"].is_null() {
            let state = wait_turn(address, id, Duration::from_secs(30));
            if state["your_turn"] == true {
                let legal = texts(&state["legal"]);
                assert_eq!(
                    play(address, id, &legal[0]).0,
                    200,
                    "a game no longer takes a legal move"
                );
            }
        }
    }
}

/// Takes back the person's last decision in game `id` and checks what is left.
fn undo(address: SocketAddr, id: &str, tokens_left: usize) -> Value {
    let (status, state) = json(address, "POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(status, 200, "{state}");
    assert_eq!(move_texts(&state).len(), tokens_left, "{state}");
    state
}

#[test]
fn undo_and_replay_meet_the_same_d10_and_the_same_card() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    // Sente's gold holds 5e from the start, so sente may roll the d10 or play its card at
    // once; gote's king on 7a and sente's on 3i are off every slide.
    let state = create(
        address,
        r#"{"variant":"madness","side":"sente","movetime_ms":50,"seed":808,"sfen":"2k6/9/9/9/4G4/9/9/9/6K2 b - 1"}"#,
    );
    let id = state["id"].as_str().unwrap().to_string();
    let start = wait_turn(address, &id, Duration::from_secs(10));
    let before = move_texts(&start).len();
    let legal = texts(&start["legal"]);
    let card = legal.iter().find(|m| m.starts_with("c:")).unwrap().clone();
    assert!(legal.contains(&"roll".to_string()), "{start}");
    // A decision and the draw that follows it, four times over with a take-back between.
    for decision in ["roll", card.as_str()] {
        let mut drawn = Vec::new();
        for _ in 0..4 {
            let (status, after) = play(address, &id, decision);
            assert_eq!(status, 200, "{after}");
            let moves = after["moves"].as_array().unwrap().clone();
            assert_eq!(moves[before]["text"], decision);
            let next = &moves[before + 1];
            assert_eq!(next["by"], "chance", "{after}");
            drawn.push(next["text"].as_str().unwrap().to_string());
            undo(address, &id, before);
        }
        eprintln!("{decision} drew {drawn:?}");
        assert!(drawn.iter().all(|d| *d == drawn[0]), "re-drawn: {drawn:?}");
    }
}

#[test]
fn undo_and_replay_meet_the_same_dice_in_shogammon() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    let state = create(
        address,
        r#"{"variant":"shogammon","side":"sente","movetime_ms":50,"seed":909}"#,
    );
    let id = state["id"].as_str().unwrap().to_string();
    let mut turn = wait_turn(address, &id, Duration::from_secs(10));
    // Sente's whole first turn, then the engine's turn and sente's next roll.
    let mut mine = Vec::new();
    while turn["your_turn"] == true {
        let pick = texts(&turn["legal"])[0].clone();
        let (status, after) = play(address, &id, &pick);
        assert_eq!(status, 200, "{after}");
        mine.push(pick);
        turn = after;
    }
    let last = mine.last().unwrap().clone();
    // The answer may already hold the engine's roll, drawn as soon as sente's turn ended.
    let after_mine = 1 + turn["moves"]
        .as_array()
        .unwrap()
        .iter()
        .rposition(|m| m["by"] == "sente")
        .unwrap();
    let mut rolls = Vec::new();
    for _ in 0..3 {
        let replied = wait_turn(address, &id, Duration::from_secs(30));
        let moves = replied["moves"].as_array().unwrap().clone();
        assert_eq!(moves[after_mine - 1]["text"], last.as_str());
        // The engine's roll comes right after sente's last decision.
        assert_eq!(moves[after_mine]["by"], "chance", "{replied}");
        rolls.push(moves[after_mine]["text"].as_str().unwrap().to_string());
        undo(address, &id, after_mine - 1);
        let (status, after) = play(address, &id, &last);
        assert_eq!(status, 200, "{after}");
    }
    eprintln!("the engine's roll each time: {rolls:?}");
    assert!(rolls.iter().all(|r| *r == rolls[0]), "re-rolled: {rolls:?}");
}

/// Polls game `id` until `done` holds of its state.
fn wait_for(
    address: SocketAddr,
    id: &str,
    limit: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let state = state_of(address, id);
        if done(&state) {
            return state;
        }
        assert!(start.elapsed() < limit, "waited {limit:?} in vain: {state}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Plays the person's first legal move in game `id` and waits for the engine's reply.
fn the_engine_replies(address: SocketAddr, id: &str) {
    let state = wait_turn(address, id, Duration::from_secs(30));
    assert!(state["result"].is_null(), "{state}");
    let before = move_texts(&state).len();
    let pick = texts(&state["legal"])[0].clone();
    assert_eq!(play(address, id, &pick).0, 200);
    let after = wait_turn(address, id, Duration::from_secs(30));
    assert!(after["result"].is_null(), "{after}");
    assert!(move_texts(&after).len() >= before + 2, "{after}");
}

/// Creates a shogi game seeded `seed` in which the engine has sente (it searches at once).
fn engine_first(address: SocketAddr, seed: u64, movetime_ms: u64) -> String {
    let body =
        format!(r#"{{"variant":"shogi","side":"gote","movetime_ms":{movetime_ms},"seed":{seed}}}"#);
    create(address, &body)["id"].as_str().unwrap().to_string()
}

#[test]
fn a_search_that_panics_ends_its_own_game_and_the_server_goes_on() {
    // One search slot: its thread dies with the failing search and must be replaced.
    let server = start_faulty_server("panic:666");
    let address = server.address;
    let healthy = create(address, r#"{"variant":"shogi","movetime_ms":100,"seed":1}"#);
    let healthy = healthy["id"].as_str().unwrap().to_string();
    the_engine_replies(address, &healthy);
    let failing = engine_first(address, 666, 100);
    let failed = wait_for(address, &failing, Duration::from_secs(30), |s| {
        !s["result"].is_null()
    });
    let result = &failed["result"];
    let error = result["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{failed}"));
    assert!(
        error.contains("panicked") && error.contains("test fault"),
        "{error}"
    );
    assert!(result["winner"].is_null(), "{failed}");
    assert_eq!(failed["to_act"], "over");
    assert!(failed["thinking"].is_null());
    // The other games go on: the person's game, a new one, and a watched one.
    the_engine_replies(address, &healthy);
    let fresh = create(
        address,
        r#"{"variant":"chushogi","movetime_ms":100,"seed":2}"#,
    );
    the_engine_replies(address, fresh["id"].as_str().unwrap());
    let watched = create(
        address,
        r#"{"variant":"shogammon","mode":"watch","movetime_ms":50,"seed":3}"#,
    );
    let watched = watched["id"].as_str().unwrap().to_string();
    wait_for(address, &watched, Duration::from_secs(30), |s| {
        s["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["by"] != "chance")
            .count()
            >= 4
    });
    assert_eq!(http(address, "GET", "/", None).0, 200);
    // The failed game still reads back, with its error.
    assert_eq!(state_of(address, &failing)["result"]["error"], error);
}

#[test]
fn a_search_that_ignores_its_time_is_stopped_then_given_up_by_the_servers_clock() {
    let server = start_faulty_server("overrun:555,hang:777");
    let address = server.address;
    // A search with no time limit of its own: stopped at the time per move by the server,
    // it answers and the game goes on.
    // The clock starts before the request: the server's own clock starts inside it, so
    // the lower bounds below hold however late the answer to the request comes.
    let start = Instant::now();
    let overrun = engine_first(address, 555, 300);
    let replied = wait_turn(address, &overrun, Duration::from_secs(30));
    let took = start.elapsed();
    assert!(replied["result"].is_null(), "{replied}");
    assert_eq!(move_texts(&replied).len(), 1);
    assert!(took >= Duration::from_millis(300), "{took:?}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    // A search that ignores the stop as well: given up 3 s after it, its game ended with
    // the error, and the one slot's next search answers.
    let healthy = create(address, r#"{"variant":"shogi","movetime_ms":100,"seed":1}"#);
    let healthy = healthy["id"].as_str().unwrap().to_string();
    let start = Instant::now();
    let hung = engine_first(address, 777, 200);
    let failed = wait_for(address, &hung, Duration::from_secs(30), |s| {
        !s["result"].is_null()
    });
    let took = start.elapsed();
    let error = failed["result"]["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{failed}"));
    assert!(error.contains("did not answer"), "{error}");
    assert!(took >= Duration::from_millis(3200), "{took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    the_engine_replies(address, &healthy);
    the_engine_replies(address, &overrun);
}

/// The pieces on `square` (`5e`, `9a`) of a 9×9 state, as `side piece` texts.
fn pieces_on(state: &Value, square: &str) -> Vec<String> {
    let file: usize = square[..1].parse().unwrap();
    let rank = usize::from(square.as_bytes()[1] - b'a');
    state["squares"][rank][9 - file]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p["side"].as_str().unwrap(),
                p["piece"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_king_taken_by_a_madness_slide_is_shown_with_the_taker_where_it_landed() {
    let (server, _) = start_server(&[]);
    let address = server.address;
    // Where sente's gold slides from 5e with each card 1–8 (RULES.md §5.2): gote's king is
    // set there, so the card sente is dealt takes it.
    let edge = ["9e", "9a", "5a", "1a", "1e", "1i", "5i", "9i"];
    let game = |seed: u64, king: &str| -> Value {
        let mut rows = vec![vec!['1'; 9]; 9];
        let at = |sq: &str| {
            (
                usize::from(sq.as_bytes()[1] - b'a'),
                9 - sq[..1].parse::<usize>().unwrap(),
            )
        };
        let (r, c) = at(king);
        rows[r][c] = 'k';
        rows[4][4] = 'G';
        rows[8][6] = 'K'; // 3i: off every slide
        let board: Vec<String> = rows
            .iter()
            .map(|row| {
                // Run-length the empty squares.
                let mut text = String::new();
                let mut empty = 0;
                for &ch in row {
                    if ch == '1' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(ch);
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let sfen = format!("{} b - 1", board.join("/"));
        create(
            address,
            &format!(
                r#"{{"variant":"madness","side":"sente","movetime_ms":50,"seed":{seed},"sfen":"{sfen}"}}"#
            ),
        )
    };
    // A seed whose deal gives sente a card that slides (1–8); the deal does not depend on
    // the board.
    let (seed, card) = (1..100u64)
        .find_map(|seed| {
            let probe = game(seed, "9a");
            let card = probe["cards"]["own"].as_u64().unwrap();
            (1..=8).contains(&card).then_some((seed, card))
        })
        .unwrap();
    let king = edge[card as usize - 1];
    let state = game(seed, king);
    assert_eq!(state["cards"]["own"].as_u64(), Some(card));
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(pieces_on(&state, king), ["gote K"]);
    let (status, end) = play(address, &id, &format!("c:{card}"));
    assert_eq!(status, 200, "{end}");
    assert_eq!(end["result"]["winner"], "sente", "{end}");
    // The gold stands where it landed, on the king's square, and 5e is empty.
    assert_eq!(pieces_on(&end, king), ["sente G"], "{end}");
    assert!(pieces_on(&end, "5e").is_empty(), "{end}");
    let again = state_of(address, &id);
    assert_eq!(again["squares"], end["squares"]);
}
