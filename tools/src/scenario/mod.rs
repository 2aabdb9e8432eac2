//! Scenario tests: a readable YAML format that sets up a position, answers the game's
//! requests and asserts zones, values, events and the result. `docs/scenarios.md` documents
//! the format; `riffle test` runs the files.
//!
//! The format is game-agnostic: zone, value and phase names are the ruleset's own.

mod expect;
mod setup;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use riffle_core::{Engine, Game, Request, Response};
use serde_json::{Map, Value};

use crate::content::diagnostic::display_path;
use crate::content::yaml::{self, Pos, SpanMap};

/// The outcome of one scenario.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `file:line:col` of the scenario.
    pub at: String,
    /// Its name.
    pub name: String,
    /// What went wrong (empty: passed).
    pub failures: Vec<String>,
    /// Rule numbers it cites.
    pub rules: Vec<String>,
    /// Cards it covers.
    pub cards: Vec<String>,
}

impl Outcome {
    /// Whether it passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// A parsed scenario file.
pub struct File {
    path: PathBuf,
    value: Value,
    spans: SpanMap,
}

impl File {
    /// Reads a scenario file. Errors are `path:line:col: message`.
    pub fn read(path: &Path) -> Result<File, Vec<String>> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| vec![format!("{}:1:1: cannot read: {e}", display_path(path))])?;
        let doc = yaml::parse(&text).map_err(|ps| {
            ps.iter()
                .map(|p| {
                    format!(
                        "{}:{}:{}: {}",
                        display_path(path),
                        p.pos.line,
                        p.pos.col,
                        p.message
                    )
                })
                .collect::<Vec<_>>()
        })?;
        if !doc.value.get("scenarios").is_some_and(Value::is_array) {
            return Err(vec![format!(
                "{}:1:1: a scenario file needs a `scenarios:` list",
                display_path(path)
            )]);
        }
        Ok(File {
            path: path.to_path_buf(),
            value: doc.value,
            spans: doc.spans,
        })
    }

    /// The game a file is for: its `game:` key, or the folder after `cardsets/` or `scripts/`.
    pub fn game(&self) -> Option<String> {
        if let Some(g) = self.value.get("game").and_then(Value::as_str) {
            return Some(g.to_string());
        }
        let parts: Vec<String> = self
            .path
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        parts
            .windows(2)
            .find(|w| w[0] == "cardsets" || w[0] == "scripts")
            .map(|w| w[1].clone())
    }

    fn at(&self, pointer: &str) -> String {
        let p: Pos = self.spans.value_pos(pointer);
        format!("{}:{}:{}", display_path(&self.path), p.line, p.col)
    }

    /// Runs every scenario of the file (or those whose name contains `filter`).
    pub fn run(&self, engine: &Rc<Engine>, filter: Option<&str>) -> Vec<Outcome> {
        let defaults = self
            .value
            .get("defaults")
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        let mut out = Vec::new();
        for (i, sc) in self.value["scenarios"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let name = sc
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("(unnamed)")
                .to_string();
            if filter.is_some_and(|f| !name.contains(f)) {
                continue;
            }
            let ptr = format!("/scenarios/{i}");
            let strings = |k: &str| -> Vec<String> {
                sc.get(k)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            };
            let mut o = Outcome {
                at: self.at(&ptr),
                name,
                failures: Vec::new(),
                rules: strings("rules"),
                cards: strings("cards"),
            };
            let merged = merge(&defaults, sc);
            o.failures = self.run_one(engine, &merged, &ptr);
            out.push(o);
        }
        out
    }

    fn run_one(&self, engine: &Rc<Engine>, sc: &Value, ptr: &str) -> Vec<String> {
        if let Some(deck) = sc.get("validate_deck") {
            return match setup::deck_list(deck) {
                Ok(list) => expect::deck(&engine.validate_deck(&list), sc.get("expect"))
                    .into_iter()
                    .map(|e| format!("{}: {e}", self.at(&format!("{ptr}/expect"))))
                    .collect(),
                Err(e) => vec![format!("{}: validate_deck: {e}", self.at(ptr))],
            };
        }
        let built = if sc.get("start").and_then(Value::as_str) == Some("setup") {
            setup::build_from_decks(engine, sc)
        } else {
            setup::build(engine, sc)
        };
        let mut game = match built {
            Ok(g) => g,
            Err(e) => return vec![format!("{}: setup: {e}", self.at(ptr))],
        };
        let mut failures = Vec::new();
        let start_log = 0usize;
        for (k, step) in sc
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let sptr = format!("{ptr}/steps/{k}");
            if let Err(e) = self.step(&mut game, step, start_log) {
                failures.push(format!("{}: step {}: {e}", self.at(&sptr), k + 1));
                return failures;
            }
        }
        if let Some(exp) = sc.get("expect") {
            for e in expect::check(&game, exp, start_log) {
                failures.push(format!("{}: {e}", self.at(&format!("{ptr}/expect"))));
            }
        }
        let allowed = sc.get("expect").and_then(|e| e.get("errors")).is_some();
        if !allowed {
            for e in game.errors() {
                failures.push(format!("{}: script error: {e}", self.at(ptr)));
            }
        }
        failures
    }

    fn step(&self, game: &mut Game, step: &Value, start_log: usize) -> Result<(), String> {
        let Some(map) = step.as_object() else {
            return Err("a step is a map: choose, number, concede or expect".into());
        };
        // `repeat: N`: the step N times, or until the game is over.
        if let Some(n) = map.get("repeat") {
            let n = n.as_u64().ok_or("repeat: give a number of times")?;
            let mut once = map.clone();
            once.remove("repeat");
            let once = Value::Object(once);
            for k in 0..n {
                if game.result().is_some() {
                    break;
                }
                self.step(game, &once, start_log)
                    .map_err(|e| format!("repetition {}: {e}", k + 1))?;
            }
            return Ok(());
        }
        for (key, v) in map {
            match key.as_str() {
                "choose" => choose(game, v, map.get("player"))?,
                "player" => {}
                "number" => {
                    let n = v.as_i64().ok_or("number: give an integer")?;
                    let req = game
                        .request()
                        .cloned()
                        .ok_or("number: the game is not asking anything")?;
                    game.respond(req.player(), Response::Number { value: n })
                        .map_err(|e| e.to_string())?;
                }
                "concede" => {
                    let p = v.as_u64().ok_or("concede: give a player number")?;
                    let seat = u8::try_from(p)
                        .ok()
                        .and_then(|p| p.checked_sub(1))
                        .ok_or_else(|| format!("concede: there is no player {p}"))?;
                    game.concede(seat).map_err(|e| format!("concede: {e}"))?;
                }
                "expect" => {
                    let fails = expect::check(game, v, start_log);
                    if !fails.is_empty() {
                        return Err(fails.join("\n    "));
                    }
                }
                other => {
                    return Err(format!(
                        "unknown step '{other}' (choose, number, concede, expect, repeat)"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Answers the pending choice: a label (exact, else prefix), a list of labels, `none`, or a
/// map of {label, kind, card, target}.
fn choose(game: &mut Game, v: &Value, player: Option<&Value>) -> Result<(), String> {
    let req = game.request().cloned().ok_or_else(|| {
        format!(
            "choose {v}: the game is not asking anything (result: {:?})",
            game.result()
        )
    })?;
    let Request::Choose {
        options,
        player: who,
        prompt,
        ..
    } = &req
    else {
        return Err(format!(
            "choose {v}: the game asks for a number ({})",
            req.prompt()
        ));
    };
    if let Some(p) = player.and_then(Value::as_u64)
        && p as u8 != who + 1
    {
        return Err(format!(
            "expected player {p} to decide, but player {} is deciding ({prompt})",
            who + 1
        ));
    }
    let wanted: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        Value::String(s) if s == "none" => Vec::new(),
        other => vec![other],
    };
    let mut indices = Vec::new();
    for w in wanted {
        // `nth: N`: the N-th option that matches the other fields (1-based).
        if let Some(n) = w.get("nth").and_then(Value::as_u64) {
            let mut pattern = w.clone();
            if let Some(m) = pattern.as_object_mut() {
                m.remove("nth");
            }
            let i = options
                .iter()
                .enumerate()
                .filter(|(i, o)| {
                    !indices.contains(&(*i as u32)) && option_matches(game, o, &pattern, false)
                })
                .nth(n.saturating_sub(1) as usize)
                .map(|(i, _)| i)
                .ok_or_else(|| {
                    format!(
                        "no option #{n} matches {pattern} in the request to player {} ({prompt})",
                        who + 1
                    )
                })?;
            indices.push(i as u32);
            continue;
        }
        let i = options
            .iter()
            .enumerate()
            .position(|(i, o)| !indices.contains(&(i as u32)) && option_matches(game, o, w, true))
            .or_else(|| {
                options.iter().enumerate().position(|(i, o)| {
                    !indices.contains(&(i as u32)) && option_matches(game, o, w, false)
                })
            })
            .ok_or_else(|| {
                format!(
                    "no option matches {w} in the request to player {} ({prompt}); options: {}",
                    who + 1,
                    options
                        .iter()
                        .map(|o| format!("\"{}\"", o.label))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        indices.push(i as u32);
    }
    game.respond(*who, Response::Choose { indices })
        .map_err(|e| e.to_string())
}

fn option_matches(game: &Game, o: &riffle_core::Choice, w: &Value, exact: bool) -> bool {
    let label_ok = |l: &str| {
        if exact {
            o.label == l
        } else {
            o.label.starts_with(l)
        }
    };
    match w {
        Value::String(s) => label_ok(s),
        Value::Object(m) => m.iter().all(|(k, v)| match (k.as_str(), v.as_str()) {
            ("label", Some(l)) => label_ok(l),
            ("kind", Some(kd)) => o.kind.as_deref() == Some(kd),
            ("card", Some(c)) => o.card.is_some_and(|id| game.card_id(id) == c),
            ("target", Some(c)) => o.target.is_some_and(|id| game.card_id(id) == c),
            _ => false,
        }),
        _ => false,
    }
}

/// `defaults` merged under a scenario: maps merge recursively, the scenario wins.
fn merge(base: &Value, over: &Value) -> Value {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            let mut out = b.clone();
            for (k, v) in o {
                let merged = match b.get(k) {
                    Some(bv) => merge(bv, v),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        (_, o) => o.clone(),
    }
}

/// Every scenario file of a game: `*.test.yaml` under `cardsets/<game>/` and
/// `scripts/<game>/tests/`, sorted.
pub fn discover(root: &Path, game: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [
        root.join("cardsets").join(game),
        root.join("scripts").join(game),
    ] {
        walk(&dir, &mut out);
    }
    out.sort();
    out
}

/// Every `*.test.yaml` below `dir`, in sorted order, appended to `out`.
pub fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.to_string_lossy().ends_with(".test.yaml") {
            out.push(p);
        }
    }
}
