//! `riffle serve --stdio`: the host protocol as JSON lines, driven as a client in another
//! language would, every message checked against `schema/protocol/`; and the example bot
//! (docs/examples/bot.py) plays games against the debug binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use riffle_core::{Request, Rng};
use riffle_host::Answer;
use serde_json::{Value, json};

use crate::common::repo;

mod limits;
mod load;
mod ws;

fn validator(file: &str) -> jsonschema::Validator {
    let path = repo().join("schema/protocol").join(file);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options().offline().build(&schema).unwrap()
}

/// `riffle serve --stdio` on the repository's One Piece, with its pipes.
struct Served {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    client: jsonschema::Validator,
    server: jsonschema::Validator,
}

impl Served {
    fn start(game: &str) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(["serve", "--stdio", "--game", game, "--root"])
            .arg(repo())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run riffle serve");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Served {
            child,
            input,
            output,
            client: validator("client-message.schema.json"),
            server: validator("server-message.schema.json"),
        }
    }

    fn write_line(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.output.read_line(&mut line).unwrap() > 0,
            "the host stopped"
        );
        let v: Value = serde_json::from_str(&line).unwrap();
        assert!(
            self.server.is_valid(&v),
            "not a server message of the schema: {v}"
        );
        v
    }

    /// Sends `msg`, then a `hello` as a marker: every message up to the marker's `welcome`.
    fn send(&mut self, msg: Value) -> Vec<Value> {
        assert!(
            self.client.is_valid(&msg),
            "not a client message of the schema: {msg}"
        );
        self.write_line(&msg.to_string());
        self.write_line(r#"{"type":"hello","protocol":1}"#);
        let mut out = Vec::new();
        loop {
            let v = self.read();
            if v["type"] == "welcome" {
                return out;
            }
            out.push(v);
        }
    }
}

#[test]
fn serve_stdio_plays_a_game_and_answers_bad_lines_with_errors() {
    let mut s = Served::start("onepiece");
    // Bad lines, each answered by one error, and the host goes on.
    let huge = format!(r#"{{"type":"hello","pad":"{}"}}"#, "x".repeat(3 << 19));
    for (line, code) in [
        ("{oops", "malformed_message"),
        (r#"{"type":"dance"}"#, "unknown_message"),
        (r#"{"type":"hello","protocol":9}"#, "unsupported_version"),
        (huge.as_str(), "message_too_large"),
    ] {
        s.write_line(line);
        let v = s.read();
        assert_eq!(v["type"], "error");
        assert_eq!(v["code"], code, "{}", &line[..line.len().min(40)]);
    }
    let created = s.send(json!({"type": "create", "game": "onepiece", "seed": 9}));
    assert_eq!(created[0]["type"], "created", "{created:?}");
    let id = created[0]["game_id"].as_u64().unwrap();
    let mut tokens = Vec::new();
    let mut pending = Vec::new();
    for seat in 0..2 {
        let out = s.send(json!({"type": "join", "game_id": id, "seat": seat}));
        assert_eq!(out[0]["type"], "joined");
        tokens.push(out[0]["token"].as_str().unwrap().to_string());
        pending.extend(out.into_iter().filter(|m| m["type"] == "request"));
    }
    let mut rng = Rng::new(9);
    let mut over = Vec::new();
    while let Some(req) = pending.pop() {
        let request: Request = serde_json::from_value(req["request"].clone()).unwrap();
        let seat = req["seat"].as_u64().unwrap() as usize;
        let answer = Answer::from(request.random_legal(&mut rng));
        let out = s.send(
            json!({"type": "respond", "game_id": id, "token": tokens[seat],
                                "request_id": req["request_id"], "response": answer}),
        );
        assert!(out.iter().all(|m| m["type"] != "error"), "{out:?}");
        pending.extend(out.iter().filter(|m| m["type"] == "request").cloned());
        over.extend(out.into_iter().filter(|m| m["type"] == "game_over"));
    }
    // Both seats are told the result.
    assert_eq!(over.len(), 2, "{over:?}");
    assert_eq!(over[0]["winners"], over[1]["winners"]);
    // The host ends when its input does.
    drop(s.input);
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn serve_needs_a_transport() {
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["serve", "--root"])
        .arg(repo())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--stdio"));
}

/// The example bot plays each game over `--stdio`; the host records each game's replay
/// (`serve --record DIR`, issue #28 item 5), which `riffle replay` plays again the same.
#[test]
fn the_example_bot_plays_each_game_to_its_end() {
    if Command::new("python3").arg("--version").output().is_err() {
        println!("skipped: no python3 to run docs/examples/bot.py");
        return;
    }
    let dir = crate::common::Fixture::empty();
    let replays = dir.path("");
    for game in ["onepiece", "gundam", "summoner-master"] {
        let out = Command::new("python3")
            .arg(repo().join("docs/examples/bot.py"))
            .arg(env!("CARGO_BIN_EXE_riffle"))
            .args(["--game", game, "--seed", "3", "--root"])
            .arg(repo())
            .arg("--record")
            .arg(&replays)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.starts_with("game over after "),
            "{game}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = std::fs::read_dir(&replays)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&format!("{game}-3-"))
            })
            .unwrap_or_else(|| panic!("{game}: no replay written"));
        let again = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .arg("replay")
            .arg(&file)
            .arg("--root")
            .arg(repo())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&again.stdout);
        assert!(
            again.status.success() && said.contains(" steps agree with the recording: "),
            "{game}: {said}{}",
            String::from_utf8_lossy(&again.stderr)
        );
    }
}
