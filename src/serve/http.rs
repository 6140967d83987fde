//! The HTTP side (docs/SERVE.md): routing, reading and bounding requests, JSON answers and
//! the Server-Sent Events stream of a game. Each request is handled on its own thread, with
//! a bound on how many run at once and on how many event streams are open; a request body
//! larger than [`MAX_BODY`] is refused unread, and every field is checked before a game
//! sees it. Errors are `{"error": "…"}` with a 4xx status; the game is then unchanged.

use super::page;
use super::registry::{CreateError, GameCell, GameId, Registry};
use super::session::{Mode, MoveTime, Setup};
use super::truth::{rule_options, GameRules};
use super::view::game_view;
use crate::rules::geometry::Color;
use crate::rules::variants::Variant;
use serde::Deserialize;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, StatusCode};

/// The largest request body read.
pub const MAX_BODY: usize = 16 * 1024;
/// The most bytes of a too large body read (and dropped) before answering 413.
const MAX_DRAIN: u64 = 1 << 20;
/// The longest SFEN accepted.
const MAX_SFEN: usize = 1024;
/// The longest move text accepted.
const MAX_MOVE: usize = 64;
/// Requests handled at once, event streams included.
const MAX_HANDLERS: usize = 128;
/// Event streams open at once.
const MAX_STREAMS: usize = 64;
/// How often an idle event stream sends a comment, which also notices a closed page.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// The largest seed: JSON numbers stay exact in JavaScript up to 2^53 − 1.
const MAX_SEED: u64 = (1 << 53) - 1;
/// The default time per move.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// A finished answer: status and JSON or page text.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: String,
}

impl Answer {
    fn json(status: u16, body: String) -> Answer {
        Answer {
            status,
            content_type: "application/json; charset=utf-8",
            body,
        }
    }
    fn error(status: u16, message: impl AsRef<str>) -> Answer {
        Answer::json(
            status,
            serde_json::json!({ "error": message.as_ref() }).to_string(),
        )
    }
    fn asset(content_type: &'static str, body: &str) -> Answer {
        Answer {
            status: 200,
            content_type,
            body: body.to_string(),
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

/// One running request handler (or event stream) counted while it lives, so that the count
/// comes down however the handler ends, a panic included.
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(counter: &Arc<AtomicUsize>) -> Counted {
        counter.fetch_add(1, Ordering::SeqCst);
        Counted(Arc::clone(counter))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves requests from `server` until it is dropped or fails. A panic while handling one
/// request ends that request only (tiny_http answers it 500) and is logged.
pub fn serve(server: tiny_http::Server, registry: Arc<Registry>) {
    let handlers = Arc::new(AtomicUsize::new(0));
    let streams = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if handlers.load(Ordering::SeqCst) >= MAX_HANDLERS {
            respond(request, Answer::error(503, "the server is busy; try again"));
            continue;
        }
        let running = Counted::new(&handlers);
        let registry = Arc::clone(&registry);
        let streams = Arc::clone(&streams);
        let spawned = std::thread::Builder::new()
            .name("serve-request".into())
            .spawn(move || {
                let _running = running;
                let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    handle(request, &registry, &streams)
                }));
                if handled.is_err() {
                    log::error!("a request's handler panicked: it was answered 500");
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start a request thread: {e}");
        }
    }
}

fn respond(request: Request, answer: Answer) {
    let response = Response::from_string(answer.body)
        .with_status_code(StatusCode(answer.status))
        .with_header(header("Content-Type", answer.content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    if let Err(e) = request.respond(response) {
        log::debug!("the client left before the answer: {e}");
    }
}

/// The request's body as text, or the answer refusing it.
fn read_body(request: &mut Request) -> Result<String, Answer> {
    let too_large = || Answer::error(413, format!("the body exceeds {MAX_BODY} bytes"));
    // Past the bound, up to [`MAX_DRAIN`] bytes are read and dropped, so that the client
    // (still sending) gets the answer rather than a reset connection.
    let drain = |request: &mut Request| {
        let _ = std::io::copy(
            &mut request.as_reader().take(MAX_DRAIN),
            &mut std::io::sink(),
        );
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        drain(request);
        return Err(too_large());
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    if let Err(e) = read {
        return Err(Answer::error(400, format!("cannot read the body: {e}")));
    }
    if body.len() > MAX_BODY {
        drain(request);
        return Err(too_large());
    }
    String::from_utf8(body).map_err(|_| Answer::error(400, "the body is not UTF-8"))
}

/// Reads a JSON body into `T`, refusing unknown fields.
fn json_body<T: for<'de> Deserialize<'de>>(request: &mut Request) -> Result<T, Answer> {
    let body = read_body(request)?;
    let text = if body.trim().is_empty() { "{}" } else { &body };
    serde_json::from_str(text).map_err(|e| Answer::error(400, format!("bad JSON body: {e}")))
}

fn handle(mut request: Request, registry: &Arc<Registry>, streams: &Arc<AtomicUsize>) {
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').skip(1).collect();
    let method = request.method().clone();
    log::debug!("{method} {path}");
    let answer = match (&method, parts.as_slice()) {
        (Method::Get, [""] | ["index.html"]) => {
            Answer::asset("text/html; charset=utf-8", page::INDEX_HTML)
        }
        (Method::Get, ["page.js"]) => Answer::asset("text/javascript; charset=utf-8", page::SCRIPT),
        (Method::Get, ["page.css"]) => Answer::asset("text/css; charset=utf-8", page::STYLE),
        (Method::Get, ["favicon.svg" | "favicon.ico"]) => {
            Answer::asset("image/svg+xml", page::ICON)
        }
        (Method::Post, ["api", "games"]) => create(&mut request, registry),
        (_, ["api", "games"]) => Answer::error(405, "use POST to create a game"),
        (method, ["api", "games", id, rest @ ..]) => match GameId::parse(id) {
            None => Answer::error(404, "no such game"),
            Some(id) => match (method, rest) {
                (Method::Get, ["events"]) => {
                    return stream(request, registry, &id, streams);
                }
                (method, rest) => game_request(&mut request, registry, &id, method, rest),
            },
        },
        (Method::Get, _) => Answer::error(404, format!("nothing at {path}")),
        _ => Answer::error(405, "method not allowed"),
    };
    respond(request, answer);
}

/// The body of `POST /api/games`.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: Option<String>,
    /// `play` (default) or `watch`.
    mode: Option<String>,
    /// The person's side (`play`) or the side whose view is shown (`watch`); default sente.
    side: Option<String>,
    movetime_ms: Option<u64>,
    chu_rules: Option<String>,
    dice: Option<String>,
    sfen: Option<String>,
    seed: Option<u64>,
}

fn side_named(name: Option<&str>) -> Result<Color, String> {
    match name {
        None | Some("sente") => Ok(Color::Sente),
        Some("gote") => Ok(Color::Gote),
        Some(other) => Err(format!("side must be sente or gote, not {other:?}")),
    }
}

fn setup_of(new: NewGame) -> Result<Setup, String> {
    let variant = match new.variant.as_deref() {
        None => Variant::Shogi,
        Some(name) => Variant::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!("unknown game {name:?} (one of {})", names.join(", "))
        })?,
    };
    let side = side_named(new.side.as_deref())?;
    let mode = match new.mode.as_deref() {
        None | Some("play") => Mode::Play { person: side },
        Some("watch") => Mode::Watch { view: side },
        Some(other) => return Err(format!("mode must be play or watch, not {other:?}")),
    };
    let start_sfen = match new.sfen {
        Some(sfen) if sfen.len() > MAX_SFEN => {
            return Err(format!("the SFEN exceeds {MAX_SFEN} characters"))
        }
        Some(sfen) if sfen.trim().is_empty() => None,
        Some(sfen) => Some(sfen.trim().to_string()),
        None => None,
    };
    Ok(Setup {
        rules: GameRules {
            variant,
            options: rule_options(new.chu_rules.as_deref(), new.dice.as_deref())?,
            start_sfen,
        },
        mode,
        movetime: MoveTime::from_millis(new.movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS))?,
        seed: match new.seed {
            Some(seed) if seed > MAX_SEED => {
                return Err(format!("the seed must be at most {MAX_SEED}"))
            }
            Some(seed) => seed,
            None => rand::random::<u64>() & MAX_SEED,
        },
    })
}

fn view_answer(status: u16, id: &GameId, cell: &GameCell) -> Answer {
    let session = cell.lock();
    match game_view(id.as_str(), &session) {
        Ok(view) => match serde_json::to_string(&view) {
            Ok(json) => Answer::json(status, json),
            Err(e) => Answer::error(500, format!("cannot write the game: {e}")),
        },
        Err(e) => Answer::error(500, e),
    }
}

fn create(request: &mut Request, registry: &Registry) -> Answer {
    let new: NewGame = match json_body(request) {
        Ok(new) => new,
        Err(answer) => return answer,
    };
    let setup = match setup_of(new) {
        Ok(setup) => setup,
        Err(e) => return Answer::error(400, e),
    };
    match registry.create(setup) {
        Ok((id, cell)) => view_answer(201, &id, &cell),
        Err(CreateError::Invalid(e)) => Answer::error(400, e),
        Err(CreateError::Full(n)) => Answer::error(
            503,
            format!("{n} games are open, the most this server holds; close one first"),
        ),
    }
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    text: String,
}

fn game_request(
    request: &mut Request,
    registry: &Registry,
    id: &GameId,
    method: &Method,
    rest: &[&str],
) -> Answer {
    let Some(cell) = registry.get(id) else {
        return Answer::error(404, "no such game");
    };
    let outcome = match (method, rest) {
        // Looking at a game lets a paused engine-against-engine game go on.
        (Method::Get, []) => registry.update(&cell, |_| Ok(())),
        (Method::Delete, []) => {
            registry.remove(id);
            return Answer::json(
                200,
                serde_json::json!({ "closed": id.as_str() }).to_string(),
            );
        }
        (Method::Post, ["move"]) => {
            let body: MoveBody = match json_body(request) {
                Ok(body) => body,
                Err(answer) => return answer,
            };
            let text = body.text.trim();
            if text.is_empty() || text.len() > MAX_MOVE {
                return Answer::error(400, format!("a move is 1–{MAX_MOVE} characters"));
            }
            registry.update(&cell, |s| s.play_person(text))
        }
        (Method::Post, ["undo"]) => registry.update(&cell, |s| s.undo()),
        (Method::Post, ["resign"]) => registry.update(&cell, |s| s.resign()),
        (_, [] | ["move" | "undo" | "resign" | "events"]) => {
            return Answer::error(405, "method not allowed")
        }
        _ => return Answer::error(404, "no such request"),
    };
    match outcome {
        Ok(()) => view_answer(200, id, &cell),
        Err(e) => Answer::error(409, e),
    }
}

/// `GET /api/games/{id}/events`: the game's state as an event each time it changes (the
/// first at once), a comment every [`KEEP_ALIVE`], and `event: closed` when it is closed.
fn stream(request: Request, registry: &Registry, id: &GameId, streams: &Arc<AtomicUsize>) {
    let Some(cell) = registry.get(id) else {
        return respond(request, Answer::error(404, "no such game"));
    };
    let _open = Counted::new(streams);
    if streams.load(Ordering::SeqCst) > MAX_STREAMS {
        return respond(
            request,
            Answer::error(503, "too many event streams are open"),
        );
    }
    if let Err(e) = registry.update(&cell, |_| Ok(())) {
        log::error!("cannot resume a game: {e}");
    }
    let mut writer = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
    let mut result = writer
        .write_all(head.as_bytes())
        .and_then(|()| writer.flush());
    let mut seen = None;
    while result.is_ok() {
        let event = {
            let mut session = match seen {
                None => cell.lock(),
                Some(version) => cell.wait_change(version, KEEP_ALIVE),
            };
            // A page is watching: the game is not idle.
            session.touch();
            if cell.is_closed() {
                "event: closed\ndata: {}\n\n".to_string()
            } else if Some(session.version()) == seen {
                ": keep-alive\n\n".to_string()
            } else {
                seen = Some(session.version());
                match game_view(id.as_str(), &session)
                    .map_err(|e| e.to_string())
                    .and_then(|v| serde_json::to_string(&v).map_err(|e| e.to_string()))
                {
                    Ok(json) => format!("data: {json}\n\n"),
                    Err(e) => format!("event: failure\ndata: {}\n\n", serde_json::json!(e)),
                }
            }
        };
        result = writer
            .write_all(event.as_bytes())
            .and_then(|()| writer.flush());
        if cell.is_closed() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_ups_are_checked_field_by_field() {
        let ok = setup_of(NewGame {
            variant: Some("madness".into()),
            mode: Some("watch".into()),
            side: Some("gote".into()),
            movetime_ms: Some(200),
            seed: Some(7),
            ..NewGame::default()
        })
        .unwrap();
        assert_eq!(ok.mode, Mode::Watch { view: Color::Gote });
        assert_eq!(ok.seed, 7);
        for bad in [
            NewGame {
                variant: Some("chess".into()),
                ..NewGame::default()
            },
            NewGame {
                side: Some("black".into()),
                ..NewGame::default()
            },
            NewGame {
                mode: Some("observe".into()),
                ..NewGame::default()
            },
            NewGame {
                movetime_ms: Some(10),
                ..NewGame::default()
            },
            NewGame {
                sfen: Some("x".repeat(MAX_SFEN + 1)),
                ..NewGame::default()
            },
            NewGame {
                seed: Some(MAX_SEED + 1),
                ..NewGame::default()
            },
        ] {
            assert!(setup_of(bad).is_err());
        }
    }
}
