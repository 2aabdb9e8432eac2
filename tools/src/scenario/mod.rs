//! Scenario tests: a readable YAML format that sets up a position, answers the game's
//! requests and asserts zones, values, events and the result. `docs/scenarios.md` documents
//! the format; `riffle test` runs the files.
//!
//! The format is game-agnostic: zone, value and phase names are the ruleset's own.

mod expect;
pub mod export;
pub use riffle_content::scenario::format;
pub use riffle_content::scenario::limits;
mod problem;
mod setup;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::OnceLock;

use riffle_core::{Engine, Game, Request, Response};
use serde_json::{Map, Value};

use limits::MAX_REPEAT;

/// The largest scenario file read: far above any written by hand or saved at the table.
const MAX_SCENARIO_BYTES: u64 = 4 * 1024 * 1024;
use problem::{Checked, Problem};
use riffle_content::diagnostic::display_path;
use riffle_content::schema::{FileKind, Schemas};
use riffle_content::yaml::{self, Pos, SpanMap};

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

/// A parsed scenario file, checked against `schema/scenario.schema.json`.
pub struct File {
    path: PathBuf,
    value: Value,
    spans: SpanMap,
    /// Schema errors inside a scenario, by its index: that scenario fails without running,
    /// and the others run.
    invalid: BTreeMap<usize, Vec<String>>,
}

/// The generated schemas, compiled once per process.
fn schemas() -> Result<&'static Schemas, String> {
    static SCHEMAS: OnceLock<Result<Schemas, String>> = OnceLock::new();
    SCHEMAS
        .get_or_init(Schemas::new)
        .as_ref()
        .map_err(Clone::clone)
}

/// The index of the scenario a pointer lies in (`/scenarios/3/steps` → 3).
fn scenario_index(pointer: &str) -> Option<usize> {
    pointer
        .strip_prefix("/scenarios/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

impl File {
    /// Reads a scenario file. Errors are `path:line:col: message`: YAML syntax, and schema
    /// errors outside the scenarios (in `defaults:`, a misspelt top-level key).
    pub fn read(path: &Path) -> Result<File, Vec<String>> {
        let shown = display_path(path);
        // Never open a FIFO, socket or device: reading a FIFO blocks until it is written.
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(vec![format!(
                "{shown}:1:1: not a regular file (a FIFO, socket or device)"
            )]);
        }
        // A scenario file is a few kilobytes: a huge one is not read (the table's `load` of a
        // file someone typed answers at once).
        if let Ok(m) = std::fs::metadata(path)
            && m.len() > MAX_SCENARIO_BYTES
        {
            return Err(vec![format!(
                "{shown}:1:1: {} bytes: larger than the {} MiB a scenario file may have",
                m.len(),
                MAX_SCENARIO_BYTES / 1024 / 1024
            )]);
        }
        let text =
            riffle_content::read::read_text(path).map_err(|e| vec![format!("{shown}:1:1: {e}")])?;
        let doc = yaml::parse(&text).map_err(|ps| {
            ps.iter()
                .map(|p| format!("{shown}:{}:{}: {}", p.pos.line, p.pos.col, p.message))
                .collect::<Vec<_>>()
        })?;
        let schemas = schemas().map_err(|e| vec![format!("{shown}:1:1: {e}")])?;
        let mut file_errors = Vec::new();
        let mut invalid: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for e in schemas.check(FileKind::Scenario, None, &doc) {
            let line = if e.pointer.is_empty() {
                format!("{shown}:{}:{}: {}", e.pos.line, e.pos.col, e.message)
            } else {
                format!(
                    "{shown}:{}:{}: {}: {}",
                    e.pos.line, e.pos.col, e.pointer, e.message
                )
            };
            match scenario_index(&e.pointer) {
                Some(i) => invalid.entry(i).or_default().push(line),
                None => file_errors.push(line),
            }
        }
        if !file_errors.is_empty() {
            return Err(file_errors);
        }
        Ok(File {
            path: path.to_path_buf(),
            value: doc.value,
            spans: doc.spans,
            invalid,
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
        self.show(self.spans.value_pos(pointer))
    }

    fn show(&self, p: Pos) -> String {
        format!("{}:{}:{}", display_path(&self.path), p.line, p.col)
    }

    /// `path:line:col` of a place inside scenario `i` (a pointer relative to it). The
    /// scenario was merged over `defaults:`, so the place may be written in either: the
    /// deepest part of the pointer that one of them writes, the scenario first.
    fn locate(&self, i: usize, rel: &str) -> String {
        let scenario = format!("/scenarios/{i}");
        let mut p = rel;
        loop {
            for base in [scenario.as_str(), "/defaults"] {
                if let Some(s) = self.spans.get(&format!("{base}{p}")) {
                    return self.show(s.value);
                }
            }
            if p.is_empty() {
                return self.at(&scenario);
            }
            p = p.rfind('/').map_or("", |k| &p[..k]);
        }
    }

    /// A problem of scenario `i` as one `path:line:col: message` line.
    fn report(&self, i: usize, p: &Problem) -> String {
        format!("{}: {}", self.locate(i, &p.at), p.message)
    }

    /// The scenarios of the file, in order.
    fn scenarios(&self) -> &[Value] {
        self.value["scenarios"]
            .as_array()
            .map_or(&[], Vec::as_slice)
    }

    /// The file's `defaults:` (an empty map when it has none).
    fn defaults(&self) -> Value {
        self.value
            .get("defaults")
            .cloned()
            .unwrap_or(Value::Object(Map::new()))
    }

    /// The file as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many scenarios the file has.
    pub fn len(&self) -> usize {
        self.scenarios().len()
    }

    /// Whether the file has no scenario.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of scenario `i`.
    pub fn name(&self, i: usize) -> String {
        self.scenarios()
            .get(i)
            .and_then(|sc| sc.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("(unnamed)")
            .to_string()
    }

    /// `path:line:col` of scenario `i`.
    pub fn scenario_at(&self, i: usize) -> String {
        self.at(&format!("/scenarios/{i}"))
    }

    /// The cards scenario `i` says it covers (`cards:`).
    pub fn cards(&self, i: usize) -> Vec<String> {
        self.scenarios()
            .get(i)
            .and_then(|sc| sc.get("cards"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    }

    /// Every text scenario `i` (over `defaults:`) could name a card with: each string and
    /// map key, and the first word of each (`"RF01-008 x10"`), except in `name:` and
    /// `rules:`. A card is in a scenario's game only when the scenario names it, so these
    /// are the cards the scenario can exercise.
    pub fn named_cards(&self, i: usize) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if let Some(sc) = self.scenarios().get(i) {
            for (k, v) in merge(&self.defaults(), sc)
                .as_object()
                .into_iter()
                .flatten()
            {
                if k != "name" && k != "rules" {
                    words(v, &mut out);
                }
            }
        }
        out
    }

    /// Runs every scenario of the file (or those whose name contains `filter`).
    pub fn run(&self, engine: &Rc<Engine>, filter: Option<&str>) -> Vec<Outcome> {
        self.run_observed(engine, filter, &mut |_| {})
    }

    /// [`File::run`], showing `observe` each scenario's game as it ended (pass or fail), so a
    /// caller can see what the games asked and emitted.
    pub fn run_observed(
        &self,
        engine: &Rc<Engine>,
        filter: Option<&str>,
        observe: &mut dyn FnMut(&Game),
    ) -> Vec<Outcome> {
        let defaults = self.defaults();
        (0..self.len())
            .filter(|&i| filter.is_none_or(|f| self.name(i).contains(f)))
            .filter_map(|i| self.outcome(engine, i, &defaults, observe))
            .collect()
    }

    /// Runs scenario `i` alone (`None`: the file has no such scenario).
    pub fn run_scenario(&self, engine: &Rc<Engine>, i: usize) -> Option<Outcome> {
        self.outcome(engine, i, &self.defaults(), &mut |_| {})
    }

    /// The position scenario `i` sets up (its `defaults:` merged, its steps not played):
    /// where `riffle play`'s table starts when it loads a scenario. An error is
    /// `path:line:col: message`.
    pub fn position(&self, engine: &Rc<Engine>, i: usize) -> Result<Game, String> {
        let sc = self
            .scenarios()
            .get(i)
            .ok_or_else(|| format!("{}: no scenario {}", display_path(&self.path), i + 1))?;
        if let Some(errors) = self.invalid.get(&i) {
            return Err(errors.join("\n"));
        }
        let sc = merge(&self.defaults(), sc);
        let built = if sc.get("start").and_then(Value::as_str) == Some("setup") {
            setup::build_from_decks(engine, &sc)
        } else {
            setup::build(engine, &sc)
        };
        built.map_err(|p| self.report(i, &Problem::new(p.at, format!("setup: {}", p.message))))
    }

    fn outcome(
        &self,
        engine: &Rc<Engine>,
        i: usize,
        defaults: &Value,
        observe: &mut dyn FnMut(&Game),
    ) -> Option<Outcome> {
        let sc = self.scenarios().get(i)?;
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
            name: self.name(i),
            failures: Vec::new(),
            rules: strings("rules"),
            cards: strings("cards"),
        };
        o.failures = match self.invalid.get(&i) {
            Some(errors) => errors.clone(),
            None => self
                .run_one(engine, &merge(defaults, sc), observe)
                .iter()
                .map(|p| self.report(i, p))
                .collect(),
        };
        Some(o)
    }

    /// Runs one scenario (its defaults merged); a scenario marked `todo` fails with its text
    /// first, then whatever else went wrong.
    fn run_one(
        &self,
        engine: &Rc<Engine>,
        sc: &Value,
        observe: &mut dyn FnMut(&Game),
    ) -> Vec<Problem> {
        let Some(todo) = todo_of(sc) else {
            return self.run_written(engine, sc, observe);
        };
        let mut problems = vec![Problem::new(
            "/todo",
            format!("to be written (remove `todo:` once it is): {todo}"),
        )];
        problems.extend(self.run_written(engine, sc, observe));
        problems
    }

    /// Whether scenario `i` is marked to be written (`todo:`): it tests nothing yet.
    pub fn is_todo(&self, i: usize) -> bool {
        self.scenarios().get(i).and_then(todo_of).is_some()
    }

    fn run_written(
        &self,
        engine: &Rc<Engine>,
        sc: &Value,
        observe: &mut dyn FnMut(&Game),
    ) -> Vec<Problem> {
        let steps: &[Value] = sc
            .get("steps")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice);
        let step_asserts = steps
            .iter()
            .any(|s| expect::asserts_something(s.get("expect")));
        let todo = todo_of(sc).is_some();
        if !todo && !step_asserts && !expect::asserts_something(sc.get("expect")) {
            return vec![Problem::new(
                "",
                "this scenario asserts nothing: add `expect:` (winner, zones, cards, events...) at its end or in a step, so that it can fail",
            )];
        }
        if let Some(deck) = sc.get("validate_deck") {
            let opts = match setup::options(sc) {
                Ok(o) => o,
                Err(p) => return vec![p],
            };
            return match setup::deck_list(deck, "/validate_deck") {
                Ok(list) => match engine.validate_deck_with(&list, &opts) {
                    Ok(errors) => expect::deck(&errors, sc.get("expect"))
                        .into_iter()
                        .map(|e| Problem::new("/expect", e))
                        .collect(),
                    Err(e) => vec![Problem::new("/options", e)],
                },
                Err(p) => vec![Problem::new(p.at, format!("validate_deck: {}", p.message))],
            };
        }
        let built = if sc.get("start").and_then(Value::as_str) == Some("setup") {
            setup::build_from_decks(engine, sc)
        } else {
            setup::build(engine, sc)
        };
        let mut game = match built {
            Ok(g) => g,
            Err(p) => return vec![Problem::new(p.at, format!("setup: {}", p.message))],
        };
        let problems = self.play_and_check(&mut game, sc, steps);
        observe(&game);
        problems
    }

    /// Answers a built scenario's steps and checks its expectations.
    fn play_and_check(&self, game: &mut Game, sc: &Value, steps: &[Value]) -> Vec<Problem> {
        let allowed = sc.get("expect").and_then(|e| e.get("errors")).is_some();
        // A script error is shown however the scenario failed: it is often why a later step
        // found no option to choose.
        let script_errors = |game: &Game| -> Vec<Problem> {
            if allowed {
                return Vec::new();
            }
            game.errors()
                .iter()
                .map(|e| Problem::new("", format!("script error: {e}")))
                .collect()
        };
        for (k, step) in steps.iter().enumerate() {
            let fails = step_at(game, step);
            if !fails.is_empty() {
                let mut out: Vec<Problem> = fails
                    .into_iter()
                    .map(|p| {
                        let message = format!("step {}: {}", k + 1, p.message);
                        Problem::new(format!("/steps/{k}{}", p.at), message)
                    })
                    .collect();
                out.extend(script_errors(game));
                return out;
            }
        }
        let mut failures = Vec::new();
        if let Some(exp) = sc.get("expect") {
            failures.extend(
                expect::check(game, exp)
                    .into_iter()
                    .map(|p| p.within("/expect")),
            );
        }
        failures.extend(script_errors(game));
        failures
    }
}

/// The text of a scenario's `todo:` (see `format::Scenario::todo`).
fn todo_of(sc: &Value) -> Option<&str> {
    sc.get("todo").and_then(Value::as_str)
}

/// A 1-based player number of `v` (at `key` of a step) as a seat of the game.
fn seat(game: &Game, v: &Value, key: &str) -> Checked<u8> {
    v.as_u64()
        .filter(|n| (1..=u64::from(game.players())).contains(n))
        .map(|n| (n - 1) as u8)
        .ok_or_else(|| {
            Problem::new(
                format!("/{key}"),
                format!(
                    "{key}: no player {v}: this game has players 1 to {}",
                    game.players()
                ),
            )
        })
}

/// Runs one step; its failures, each at the step's key.
fn step_at(game: &mut Game, step: &Value) -> Vec<Problem> {
    let Some(map) = step.as_object() else {
        return vec![Problem::new(
            "",
            "a step is a map: choose, number, concede or expect",
        )];
    };
    // `repeat: N`: the step N times, or until the game is over.
    if let Some(n) = map.get("repeat") {
        let Some(n) = n.as_u64().filter(|n| *n <= MAX_REPEAT) else {
            return vec![Problem::new(
                "/repeat",
                format!("repeat: give a number of times from 0 to {MAX_REPEAT}, not {n}"),
            )];
        };
        let mut once = map.clone();
        once.remove("repeat");
        let once = Value::Object(once);
        for k in 0..n {
            if game.result().is_some() {
                break;
            }
            let fails = step_at(game, &once);
            if !fails.is_empty() {
                return fails
                    .into_iter()
                    .map(|p| Problem::new(p.at, format!("repetition {}: {}", k + 1, p.message)))
                    .collect();
            }
        }
        return Vec::new();
    }
    for (key, v) in map {
        let done: Checked<()> = match key.as_str() {
            "choose" => choose(game, v, map.get("player")),
            "player" => Ok(()),
            "number" => number(game, v),
            "concede" => seat(game, v, "concede").and_then(|p| {
                game.concede(p)
                    .map_err(|e| Problem::new("/concede", format!("concede: {e}")))
            }),
            "expect" => {
                let fails = expect::check(game, v);
                if !fails.is_empty() {
                    return fails.into_iter().map(|p| p.within("/expect")).collect();
                }
                Ok(())
            }
            other => Err(Problem::new(
                format!("/{}", problem::token(other)),
                format!("unknown step '{other}' (choose, number, concede, expect, repeat)"),
            )),
        };
        if let Err(p) = done {
            return vec![p];
        }
    }
    Vec::new()
}

/// `number: N`: answers the pending number request (the kernel checks its range).
fn number(game: &mut Game, v: &Value) -> Checked<()> {
    let n = v
        .as_i64()
        .ok_or_else(|| Problem::new("/number", "number: give an integer"))?;
    let req = game
        .request()
        .cloned()
        .ok_or_else(|| Problem::new("/number", "number: the game is not asking anything"))?;
    game.respond(req.player(), Response::Number { value: n })
        .map_err(|e| Problem::new("/number", format!("number {n}: {e}")))
}

/// Answers the pending choice: a label (exact, else prefix), a list of labels, `none`, or a
/// map of {label, kind, card, target}.
fn choose(game: &mut Game, v: &Value, player: Option<&Value>) -> Checked<()> {
    let at = |m: String| Problem::new("/choose", m);
    let req = game.request().cloned().ok_or_else(|| {
        at(format!(
            "choose {v}: the game is not asking anything ({})",
            expect::result_text(game)
        ))
    })?;
    let Request::Choose {
        options,
        player: who,
        prompt,
        ..
    } = &req
    else {
        return Err(at(format!(
            "choose {v}: the game asks for a number ({})",
            req.prompt()
        )));
    };
    if let Some(p) = player {
        let p = seat(game, p, "player")?;
        if p != *who {
            return Err(Problem::new(
                "/player",
                format!(
                    "expected player {} to decide, but player {} is deciding ({prompt})",
                    p + 1,
                    who + 1
                ),
            ));
        }
    }
    let wanted: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        Value::String(s) if s == "none" => Vec::new(),
        other => vec![other],
    };
    let mut indices = Vec::new();
    for w in wanted {
        // `nth: N`: the N-th option that matches the other fields (1-based).
        if let Some(n) = w.get("nth") {
            let n = n
                .as_u64()
                .filter(|n| *n >= 1)
                .ok_or_else(|| at(format!("nth: counts from 1, not {n}")))?;
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
                .nth(usize::try_from(n - 1).unwrap_or(usize::MAX))
                .map(|(i, _)| i)
                .ok_or_else(|| {
                    at(format!(
                        "no option #{n} matches {pattern} in the request to player {} ({prompt})",
                        who + 1
                    ))
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
                at(format!(
                    "no option matches {w} in the request to player {} ({prompt}); options: {}",
                    who + 1,
                    options
                        .iter()
                        .map(|o| format!("\"{}\"", o.label))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        indices.push(i as u32);
    }
    game.respond(*who, Response::Choose { indices })
        .map_err(|e| at(e.to_string()))
}

pub(super) fn option_matches(game: &Game, o: &riffle_core::Choice, w: &Value, exact: bool) -> bool {
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

/// Every string and map key in `v`, and the first word of each, into `out`.
fn words(v: &Value, out: &mut BTreeSet<String>) {
    fn add(s: &str, out: &mut BTreeSet<String>) {
        if let Some(w) = s.split_whitespace().next() {
            out.insert(w.to_string());
        }
        out.insert(s.to_string());
    }
    match v {
        Value::String(s) => add(s, out),
        Value::Array(a) => a.iter().for_each(|x| words(x, out)),
        Value::Object(m) => {
            for (k, x) in m {
                add(k, out);
                words(x, out);
            }
        }
        _ => {}
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
