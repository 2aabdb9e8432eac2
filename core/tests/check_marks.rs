//! Change marks for rule checks: a check that declares what its test reads (`reads`) is
//! tested again only once an operation changed one of those things. A made-up game
//! ("Marks"): each action changes one kind of thing; the check `seen` ends the game once it
//! sees any of them changed. Declared with the thing an action changes, the check sees it at
//! once; declared with everything else, it is not tested again (a debug build tests it
//! anyway and reports the declaration that misses something).

mod common;

use std::rc::Rc;

use common::{card, content, engine_of, new_game, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "marks", "name": {"en": "Marks"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "discard", "scope": "player", "visibility": "public", "ordered": true}
  ],
  "categories": ["thing"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up", "down"],
  "counters": ["charge"],
  "flags": ["marked"],
  "player_values": ["score"],
  "game_values": ["tick", "round"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}]},
  "scripts": ["marks.lua"]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local p = ctx.turn_player
  local c = ctx:cards("board", 1)[1]
  local function act(label, f) return { label = label, run = function(ctx) f(ctx) end } end
  return {
    -- Changes something no check reads: the checks are tested once, and find nothing.
    act("tick", function(ctx) ctx:set_game_value("tick", ctx:game_value("tick") + 1) end),
    act("flag", function(ctx) ctx:set_flag(c, "marked", true) end),
    act("counter", function(ctx) ctx:add_counter(c, "charge", 1, "test") end),
    act("value", function(ctx) ctx:set_value(p, "score", 1) end),
    act("game value", function(ctx) ctx:set_game_value("round", 1) end),
    act("effect", function(ctx) ctx:modify(c, { char = "power", op = "add", value = 1 }, {}) end),
    act("orientation", function(ctx) ctx:set_orientation(c, "down", "test") end),
    act("move", function(ctx) ctx:move(c, "discard", { reason = "test" }) end),
    { label = "end turn", ends_phase = true },
  }
end

-- The check's test: has anything changed since the game began?
function seen_due(ctx)
  local c = ctx:cards("board", 1)[1]
  if c == nil or ctx.turn > 1 then return true end
  return c:flag_on("marked") or c:counter_value("charge") > 0 or ctx:value(1, "score") > 0
    or ctx:game_value("round") > 0 or c.power > 0 or c.orientation == "down"
end
function seen(ctx) ctx:end_game({ 1 }, "seen") end
"#;

/// Every read the check may declare, by what changes it: (name, the `reads` entry).
const READS: &[(&str, &str, &str)] = &[
    ("flag", "flags", "marked"),
    ("counter", "counters", "charge"),
    ("value", "values", "score"),
    ("game value", "values", "round"),
    ("effect", "parts", "effects"),
    ("orientation", "parts", "orientation"),
    ("move", "zones", "board"),
    ("turn", "parts", "turn"),
];

/// `reads` naming what `only` changes, or (`except`) everything else.
fn reads(thing: &str, except: bool) -> serde_json::Value {
    let mut out = serde_json::json!({});
    for (name, key, value) in READS {
        if (*name == thing) != except {
            let list = out[*key].as_array().cloned().unwrap_or_default();
            let mut list = list;
            list.push(serde_json::json!(value));
            out[*key] = serde_json::Value::Array(list);
        }
    }
    out
}

fn engine(reads: Option<serde_json::Value>) -> Rc<Engine> {
    let mut check = serde_json::json!(
        {"name": "seen", "when": "seen_due", "run": "seen", "at": "after_each_operation"}
    );
    if let Some(r) = reads {
        check["reads"] = r;
    }
    engine_of(&content(
        MANIFEST,
        |m| m["checks"] = serde_json::json!([check]),
        &[("marks.lua", RULES_LUA)],
        vec![card("pawn", "thing", serde_json::Value::Null, None)],
    ))
}

/// A game where the check was tested once and found nothing, then `steps` are answered.
fn play(e: &Rc<Engine>, steps: &[&str]) -> Game {
    let decks = vec![
        common::deck("board", &[("pawn", 1)]),
        common::deck("board", &[]),
    ];
    let mut g = new_game(e, 1, decks);
    pick(&mut g, "tick");
    assert_eq!(g.result(), None, "nothing changed yet");
    for s in steps {
        pick(&mut g, s);
    }
    g
}

fn steps(thing: &str) -> Vec<&str> {
    match thing {
        // The next turn, then an operation: checks follow operations.
        "turn" => vec!["end turn", "tick"],
        other => vec![other],
    }
}

fn script_errors(g: &Game) -> Vec<String> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::ScriptError { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_check_is_tested_again_when_an_operation_changed_what_it_declared() {
    for (thing, _, _) in READS {
        let g = play(&engine(Some(reads(thing, false))), &steps(thing));
        assert_eq!(
            g.result().map(|r| r.reason),
            Some("seen".to_string()),
            "{thing}: the check saw it ({:?})",
            script_errors(&g)
        );
    }
}

#[test]
fn a_check_is_not_tested_again_when_nothing_it_declared_changed() {
    for (thing, _, _) in READS {
        let g = play(&engine(Some(reads(thing, true))), &steps(thing));
        assert_eq!(g.result(), None, "{thing}: not tested again");
        if cfg!(debug_assertions) {
            // A debug build tested it anyway: the declaration misses what changed.
            let errors = script_errors(&g);
            assert!(
                errors
                    .iter()
                    .any(|m| m.contains("check 'seen'") && m.contains("`reads`")),
                "{thing}: {errors:?}"
            );
        }
    }
}

#[test]
fn a_check_that_declares_nothing_is_tested_after_every_change() {
    for (thing, _, _) in READS {
        let g = play(&engine(None), &steps(thing));
        assert_eq!(
            g.result().map(|r| r.reason),
            Some("seen".to_string()),
            "{thing}"
        );
    }
}

#[test]
fn a_fork_carries_the_marks() {
    // Declared with the flag only: after the tick the check is clean; a fork of that game
    // skips it for a counter (a debug build then reports it) and tests it for the flag.
    let e = engine(Some(reads("flag", false)));
    let g = play(&e, &[]);
    let mut a = g.fork();
    pick(&mut a, "flag");
    assert_eq!(a.result().map(|r| r.reason), Some("seen".to_string()));
    let mut b = g.fork();
    pick(&mut b, "counter");
    assert_eq!(b.result(), None);
}

#[test]
fn a_read_of_an_unknown_name_is_a_load_error() {
    let c = content(
        MANIFEST,
        |m| {
            m["checks"] = serde_json::json!([{"name": "seen", "when": "seen_due", "run": "seen",
                "at": "after_each_operation", "reads": {"values": ["scores"]}}])
        },
        &[("marks.lua", RULES_LUA)],
        vec![card("pawn", "thing", serde_json::Value::Null, None)],
    );
    let errors = common::load_errors(&c);
    assert!(
        errors.contains("check 'seen': reads") && errors.contains("player or game value 'scores'"),
        "{errors}"
    );
}
