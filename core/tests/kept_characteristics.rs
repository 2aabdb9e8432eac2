//! Kept characteristics: a characteristic that declares what its static abilities read
//! (`reads`) keeps each card's value once worked out, until an operation changes one of
//! those things (or the effects). A made-up game ("Keep"): the pawn's static ability adds 1
//! to its power for each thing changed since the game began; each action changes one kind
//! of thing, and the open phase's options show the pawn's power as read then. Declared with
//! the thing an action changes, the new power shows at once; declared with everything else,
//! the kept value shows (a debug build works it out anyway and reports the declaration that
//! misses something).

mod common;

use std::rc::Rc;

use common::{card, content, engine_of, labels, new_game, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "keep", "name": {"en": "Keep"}, "version": "1",
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
  "game_values": ["round"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}, {"name": "hand", "zone": "hand"}]},
  "scripts": ["keep.lua"]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local p = ctx.turn_player
  local c = ctx:cards("board", 1)[1]
  local spare = ctx:cards("hand", 1)[1]
  local function act(label, f) return { label = label, run = function(ctx) f(ctx) end } end
  return {
    -- The pawn's power as read now.
    act("power " .. c.power, function(ctx) end),
    act("flag", function(ctx) ctx:set_flag(c, "marked", true) end),
    act("counter", function(ctx) ctx:add_counter(c, "charge", 1, "test") end),
    act("value", function(ctx) ctx:set_value(1, "score", 1) end),
    act("game value", function(ctx) ctx:set_game_value("round", 1) end),
    act("effect", function(ctx) ctx:modify(c, { char = "power", op = "add", value = 1 }, {}) end),
    act("orientation", function(ctx) ctx:set_orientation(c, "down", "test") end),
    act("move", function(ctx) ctx:move(spare, "board", { reason = "test" }) end),
    { label = "end turn", ends_phase = true },
  }
end
"#;

/// The pawn: +1 power for each thing changed since the game began.
const PAWN: &str = r#"
return { { kind = "static", affects = function(ctx, c) return c == ctx.source end,
  modify = { { char = "power", op = "add", value = function(ctx, c)
    local n = #ctx:cards("board", 1) - 1
    if c:flag_on("marked") then n = n + 1 end
    n = n + c:counter_value("charge") + ctx:value(1, "score") + ctx:game_value("round")
    if c.orientation == "down" then n = n + 1 end
    if ctx.turn > 1 then n = n + 1 end
    return n
  end } } } }
"#;

/// Every read the characteristic may declare, by what changes it: (name, the `reads` entry).
const READS: &[(&str, &str, &str)] = &[
    ("flag", "flags", "marked"),
    ("counter", "counters", "charge"),
    ("value", "values", "score"),
    ("game value", "values", "round"),
    ("orientation", "parts", "orientation"),
    ("move", "zones", "board"),
    ("turn", "parts", "turn"),
];

/// `reads` naming what `thing` changes, or (`except`) everything else.
fn reads(thing: &str, except: bool) -> serde_json::Value {
    let mut out = serde_json::json!({});
    for (name, key, value) in READS {
        if (*name == thing) != except {
            let mut list = out[*key].as_array().cloned().unwrap_or_default();
            list.push(serde_json::json!(value));
            out[*key] = serde_json::Value::Array(list);
        }
    }
    out
}

fn engine(reads: Option<serde_json::Value>) -> Rc<Engine> {
    let mut power = serde_json::json!({"name": "power", "kind": "int"});
    if let Some(r) = reads {
        power["reads"] = r;
    }
    engine_of(&content(
        MANIFEST,
        |m| m["characteristics"] = serde_json::json!([power]),
        &[("keep.lua", RULES_LUA)],
        vec![
            card("pawn", "thing", serde_json::Value::Null, Some(PAWN)),
            card("spare", "thing", serde_json::Value::Null, None),
        ],
    ))
}

/// A game where the pawn's power was read (0), then `steps` are answered.
fn play(e: &Rc<Engine>, steps: &[&str]) -> Game {
    let mut first = common::deck("board", &[("pawn", 1)]);
    first.sections.insert(
        "hand".into(),
        [("spare".to_string(), 1)].into_iter().collect(),
    );
    let decks = vec![first, common::deck("board", &[])];
    let mut g = new_game(e, 1, decks);
    pick(&mut g, "power 0");
    for s in steps {
        pick(&mut g, s);
    }
    g
}

fn steps(thing: &str) -> Vec<&str> {
    match thing {
        "turn" => vec!["end turn"],
        other => vec![other],
    }
}

/// The power the options show.
fn power(g: &Game) -> Option<String> {
    labels(g).into_iter().find(|l| l.starts_with("power "))
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
fn a_kept_characteristic_is_worked_out_again_when_what_it_reads_changes() {
    for (thing, _, _) in READS {
        let g = play(&engine(Some(reads(thing, false))), &steps(thing));
        assert_eq!(
            power(&g).as_deref(),
            Some("power 1"),
            "{thing}: worked out again ({:?})",
            script_errors(&g)
        );
        assert!(script_errors(&g).is_empty(), "{thing}");
    }
}

#[test]
fn a_kept_characteristic_is_kept_while_nothing_it_reads_changes() {
    for (thing, _, _) in READS {
        let g = play(&engine(Some(reads(thing, true))), &steps(thing));
        if cfg!(debug_assertions) {
            // A debug build works it out anyway: the declaration misses what changed.
            let errors = script_errors(&g);
            assert!(
                errors
                    .iter()
                    .any(|m| m.contains("characteristic 'power'") && m.contains("`reads`")),
                "{thing}: {errors:?}"
            );
        } else {
            assert_eq!(power(&g).as_deref(), Some("power 0"), "{thing}: kept");
        }
    }
}

#[test]
fn the_effects_on_a_card_are_always_read() {
    // Declared reading nothing at all: an effect still makes the value stale.
    let g = play(&engine(Some(serde_json::json!({}))), &["effect"]);
    assert_eq!(power(&g).as_deref(), Some("power 1"));
    assert!(script_errors(&g).is_empty());
}

#[test]
fn a_characteristic_that_declares_nothing_is_worked_out_at_every_read() {
    for (thing, _, _) in READS {
        let g = play(&engine(None), &steps(thing));
        assert_eq!(power(&g).as_deref(), Some("power 1"), "{thing}");
        assert!(script_errors(&g).is_empty(), "{thing}");
    }
}

#[test]
fn a_fork_works_its_values_out_again_and_they_agree() {
    // Declared with the flag: the game kept the power; a fork keeps none and reads the same,
    // and sees the flag set in it.
    let e = engine(Some(reads("flag", false)));
    let g = play(&e, &[]);
    let mut a = g.fork();
    assert_eq!(power(&a), power(&g));
    pick(&mut a, "flag");
    assert_eq!(power(&a).as_deref(), Some("power 1"));
    assert_eq!(power(&g).as_deref(), Some("power 0"));
    assert!(script_errors(&a).is_empty());
}

#[test]
fn a_read_of_an_unknown_name_is_a_load_error() {
    let c = content(
        MANIFEST,
        |m| {
            m["characteristics"] = serde_json::json!([{"name": "power", "kind": "int",
                "reads": {"counters": ["charges"]}}])
        },
        &[("keep.lua", RULES_LUA)],
        vec![card("pawn", "thing", serde_json::Value::Null, Some(PAWN))],
    );
    let errors = common::load_errors(&c);
    assert!(
        errors.contains("characteristic 'power': reads") && errors.contains("'charges'"),
        "{errors}"
    );
}

// `stale: per_card`: a change to one card's effects, counters or flags makes stale only
// the values whose working-out read that card's. The pawn's power here reads its own flag
// and counter, the spare's (in its owner's hand) counter and power, and the game value
// `round`, which its `reads` leaves out on purpose: a kept value then shows the old round.
// Each action sets the round to 1 and changes one thing of one card; the stranger (the
// other player's card on the board) is read by nothing.

const PER_CARD_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local c = ctx:cards("board", 1)[1]
  local cards = { pawn = c, spare = ctx:cards("hand", 1)[1], stranger = ctx:cards("board", 2)[1] }
  local out = { { label = "power " .. c.power, run = function(ctx) end } }
  for who, x in pairs(cards) do
    local function act(what, f)
      out[#out + 1] = { label = who .. " " .. what, run = function(ctx)
        ctx:set_game_value("round", 1)
        f(ctx)
      end }
    end
    act("flag", function(ctx) ctx:set_flag(x, "marked", true) end)
    act("counter", function(ctx) ctx:add_counter(x, "charge", 1, "test") end)
    act("effect", function(ctx) ctx:modify(x, { char = "power", op = "add", value = 1 }, {}) end)
  end
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end
"#;

/// The pawn's power: the round, its own flag and counter, the spare's counter and power.
const PER_CARD_PAWN: &str = r#"
return { { kind = "static", affects = function(ctx, c) return c == ctx.source end,
  modify = { { char = "power", op = "add", value = function(ctx, c)
    local n = ctx:game_value("round") + c:counter_value("charge")
    if c:flag_on("marked") then n = n + 1 end
    local spare = ctx:cards("hand", 1)[1]
    return n + spare:counter_value("charge") + spare.power
  end } } } }
"#;

fn per_card_engine(stale: &str) -> Rc<Engine> {
    let power = serde_json::json!({"name": "power", "kind": "int",
        "reads": {"flags": ["marked"], "counters": ["charge"]}, "stale": stale});
    engine_of(&content(
        MANIFEST,
        |m| m["characteristics"] = serde_json::json!([power]),
        &[("keep.lua", PER_CARD_LUA)],
        vec![
            card(
                "pawn",
                "thing",
                serde_json::Value::Null,
                Some(PER_CARD_PAWN),
            ),
            card("spare", "thing", serde_json::Value::Null, None),
            card("stranger", "thing", serde_json::Value::Null, None),
        ],
    ))
}

/// A game where the pawn's power was read (0), then `step` is answered.
fn per_card_play(e: &Rc<Engine>, step: &str) -> Game {
    let mut first = common::deck("board", &[("pawn", 1)]);
    first.sections.insert(
        "hand".into(),
        [("spare".to_string(), 1)].into_iter().collect(),
    );
    let decks = vec![first, common::deck("board", &[("stranger", 1)])];
    let mut g = new_game(e, 1, decks);
    pick(&mut g, "power 0");
    pick(&mut g, step);
    g
}

#[test]
fn per_card_a_change_to_the_card_or_to_a_card_its_value_read_makes_it_stale() {
    // Each adds 1 to the power (the flag, a counter, an effect, on the pawn or the spare),
    // and the round 1: worked out again, 2, with no error in a debug build.
    for who in ["pawn", "spare"] {
        for what in ["flag", "counter", "effect"] {
            if who == "spare" && what == "flag" {
                continue; // the pawn does not read the spare's flag
            }
            let step = format!("{who} {what}");
            let g = per_card_play(&per_card_engine("per_card"), &step);
            assert_eq!(power(&g).as_deref(), Some("power 2"), "{step}");
            assert!(
                script_errors(&g).is_empty(),
                "{step}: {:?}",
                script_errors(&g)
            );
        }
    }
}

#[test]
fn per_card_a_change_to_a_card_its_value_did_not_read_keeps_it() {
    for what in ["flag", "counter", "effect"] {
        let step = format!("stranger {what}");
        // Per characteristic, any flag, counter or effect makes every value stale: the new
        // round shows.
        let g = per_card_play(&per_card_engine("characteristic"), &step);
        assert_eq!(power(&g).as_deref(), Some("power 1"), "{step}");
        // Per card, the stranger's leave the pawn's value as kept (a debug build works it
        // out anyway and reports the `reads` that misses the round).
        let g = per_card_play(&per_card_engine("per_card"), &step);
        if cfg!(debug_assertions) {
            let errors = script_errors(&g);
            assert!(
                errors.iter().any(|m| m.contains("characteristic 'power'")),
                "{step}: {errors:?}"
            );
        } else {
            assert_eq!(power(&g).as_deref(), Some("power 0"), "{step}: kept");
        }
    }
    // The spare's flag, which the pawn does not read: the record names the card (its
    // effects, counters and flags together), so the value is worked out again (more often
    // than needed, never less).
    let g = per_card_play(&per_card_engine("per_card"), "spare flag");
    assert_eq!(power(&g).as_deref(), Some("power 1"), "spare flag");
    assert!(script_errors(&g).is_empty());
}

#[test]
fn per_card_a_fork_starts_with_no_values_and_agrees() {
    let e = per_card_engine("per_card");
    let g = per_card_play(&e, "pawn counter");
    let mut a = g.fork();
    assert_eq!(power(&a), power(&g));
    pick(&mut a, "spare effect");
    assert_eq!(power(&a).as_deref(), Some("power 3"));
    assert_eq!(power(&g).as_deref(), Some("power 2"));
    assert!(script_errors(&a).is_empty());
}

#[test]
fn per_card_without_reads_is_a_load_error() {
    let c = content(
        MANIFEST,
        |m| {
            m["characteristics"] =
                serde_json::json!([{"name": "power", "kind": "int", "stale": "per_card"}])
        },
        &[("keep.lua", RULES_LUA)],
        vec![card("pawn", "thing", serde_json::Value::Null, Some(PAWN))],
    );
    let errors = common::load_errors(&c);
    assert!(
        errors.contains("characteristic 'power'") && errors.contains("stale: per_card needs"),
        "{errors}"
    );
}

// `stale: per_card` and moves: a move makes stale only the values whose working-out read
// where the moved cards are: the zones it left and entered (listed or counted), the moved
// cards' own places, and the walk over the static abilities in play when a moved card holds
// one. The pawn's power reads how many cards its owner holds and, like above, the round its
// `reads` leaves out (so a kept value shows the old round). Each action sets the round to 1
// and moves one card: the spare from its owner's hand (which the pawn's value counted), the
// stranger (the other player's, read by nothing), or the booster, the other player's card
// whose static ability adds 100 to the pawn's power, from their hand into play.

const MOVES_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local c = ctx:cards("board", 1)[1]
  local out = { { label = "power " .. c.power, run = function(ctx) end } }
  local function act(label, f)
    out[#out + 1] = { label = label, run = function(ctx)
      ctx:set_game_value("round", 1)
      f(ctx)
    end }
  end
  act("spare to board", function(ctx) ctx:move(ctx:cards("hand", 1)[1], "board", { reason = "test" }) end)
  act("stranger to discard", function(ctx) ctx:move(ctx:cards("board", 2)[1], "discard", { reason = "test" }) end)
  act("booster to board", function(ctx) ctx:move(ctx:cards("hand", 2)[1], "board", { reason = "test" }) end)
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end
"#;

/// The pawn's power: 10 for the round, 1 for each card in its owner's hand.
const MOVES_PAWN: &str = r#"
return { { kind = "static", affects = function(ctx, c) return c == ctx.source end,
  modify = { { char = "power", op = "add", value = function(ctx, c)
    return 10 * ctx:game_value("round") + ctx:count("hand", 1)
  end } } } }
"#;

/// In play, the booster adds 100 to the pawn's power.
const BOOSTER: &str = r#"
return { { kind = "static", affects = function(ctx, c) return c.card_id == "pawn" end,
  modify = { { char = "power", op = "add", value = 100 } } } }
"#;

fn moves_engine(stale: &str) -> Rc<Engine> {
    let power = serde_json::json!({"name": "power", "kind": "int",
        "reads": {"zones": ["hand", "board", "discard"]}, "stale": stale});
    engine_of(&content(
        MANIFEST,
        |m| m["characteristics"] = serde_json::json!([power]),
        &[("keep.lua", MOVES_LUA)],
        vec![
            card("pawn", "thing", serde_json::Value::Null, Some(MOVES_PAWN)),
            card("spare", "thing", serde_json::Value::Null, None),
            card("stranger", "thing", serde_json::Value::Null, None),
            card("booster", "thing", serde_json::Value::Null, Some(BOOSTER)),
        ],
    ))
}

/// A game where the pawn's power was read (1: the spare in hand), then `step` is answered.
fn moves_play(e: &Rc<Engine>, step: &str) -> Game {
    let mut first = common::deck("board", &[("pawn", 1)]);
    first.sections.insert(
        "hand".into(),
        [("spare".to_string(), 1)].into_iter().collect(),
    );
    let mut second = common::deck("board", &[("stranger", 1)]);
    second.sections.insert(
        "hand".into(),
        [("booster".to_string(), 1)].into_iter().collect(),
    );
    let mut g = new_game(e, 1, vec![first, second]);
    pick(&mut g, "power 1");
    pick(&mut g, step);
    g
}

#[test]
fn per_card_a_move_out_of_a_zone_the_value_counted_makes_it_stale() {
    // The round (10) and no card in hand: worked out again, with no error in a debug build.
    let g = moves_play(&moves_engine("per_card"), "spare to board");
    assert_eq!(power(&g).as_deref(), Some("power 10"));
    assert!(script_errors(&g).is_empty(), "{:?}", script_errors(&g));
}

#[test]
fn per_card_a_card_with_a_static_ability_entering_play_makes_the_values_it_may_change_stale() {
    // The pawn's value read nothing of the other player's hand or board, but the walk over
    // the static abilities in play found none of the booster's: it enters, the value is
    // worked out again (the round, the spare, the booster's 100).
    let g = moves_play(&moves_engine("per_card"), "booster to board");
    assert_eq!(power(&g).as_deref(), Some("power 111"));
    assert!(script_errors(&g).is_empty(), "{:?}", script_errors(&g));
}

#[test]
fn per_card_a_move_the_value_did_not_read_keeps_it() {
    // Per characteristic, any move in a zone `reads` names makes every value stale: the new
    // round shows.
    let g = moves_play(&moves_engine("characteristic"), "stranger to discard");
    assert_eq!(power(&g).as_deref(), Some("power 11"));
    // Per card, the stranger's move (no static ability, zones the value did not read)
    // leaves the pawn's value as kept (a debug build works it out anyway and reports the
    // `reads` that misses the round).
    let g = moves_play(&moves_engine("per_card"), "stranger to discard");
    if cfg!(debug_assertions) {
        let errors = script_errors(&g);
        assert!(
            errors.iter().any(|m| m.contains("characteristic 'power'")),
            "{errors:?}"
        );
    } else {
        assert_eq!(power(&g).as_deref(), Some("power 1"), "kept");
    }
}

// `stale: per_card` and static abilities that change only their own card or its bearer
// (`affects = "self"` or `"bearer"`): the pawn's value can find one only on itself or on a
// card attached to it, so it reads its own place (which a card joining or leaving it
// changes), not the walk over every such ability in play. Each action sets the round to 1,
// which `reads` leaves out (a kept value shows the old round), and moves one card of the
// other player, from a zone the pawn's value does not count: the rider (+1000 to the card it
// is attached to, or to itself) onto the pawn or onto their board, or the loner (+100 to
// itself only) onto their board.

const BEARER_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

-- Card `id` wherever it is: in a zone or attached to the pawn.
local function find(ctx, id)
  local pawn = ctx:cards("board", 1)[1]
  for _, a in ipairs(pawn.attachments) do if a.card_id == id then return a end end
  for p = 1, 2 do
    for _, z in ipairs({ "hand", "board", "discard" }) do
      for _, c in ipairs(ctx:cards(z, p)) do if c.card_id == id then return c end end
    end
  end
end

function main_actions(ctx)
  local pawn = ctx:cards("board", 1)[1]
  local out = {
    { label = "power " .. pawn.power, run = function(ctx) end },
    { label = "rider " .. find(ctx, "rider").power, run = function(ctx) end },
  }
  local function act(label, f)
    out[#out + 1] = { label = label, run = function(ctx)
      ctx:set_game_value("round", 1)
      f(ctx)
    end }
  end
  act("rider onto pawn", function(ctx) ctx:attach(find(ctx, "rider"), pawn) end)
  act("rider to board", function(ctx) ctx:move(find(ctx, "rider"), "board", { reason = "test" }) end)
  act("rider to discard", function(ctx) ctx:move(find(ctx, "rider"), "discard", { reason = "test" }) end)
  act("loner to board", function(ctx) ctx:move(find(ctx, "loner"), "board", { reason = "test" }) end)
  -- (The round left as it is: the pawn's kept value stays right.)
  out[#out + 1] = { label = "rider to board, round kept", run = function(ctx)
    ctx:move(find(ctx, "rider"), "board", { reason = "test" })
  end }
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end
"#;

/// In play, +1000 to the card it is attached to (its bearer), or to itself when attached to
/// nothing.
const RIDER: &str = r#"
return { { kind = "static", affects = "bearer",
  modify = { { char = "power", op = "add", value = 1000 } } } }
"#;

/// In play, +100 to itself only.
const LONER: &str = r#"
return { { kind = "static", affects = "self",
  modify = { { char = "power", op = "add", value = 100 } } } }
"#;

fn bearer_engine() -> Rc<Engine> {
    let power = serde_json::json!({"name": "power", "kind": "int",
        "reads": {"zones": ["hand", "board", "discard"]}, "stale": "per_card"});
    engine_of(&content(
        MANIFEST,
        |m| m["characteristics"] = serde_json::json!([power]),
        &[("keep.lua", BEARER_LUA)],
        vec![
            card("pawn", "thing", serde_json::Value::Null, Some(MOVES_PAWN)),
            card("spare", "thing", serde_json::Value::Null, None),
            card("rider", "thing", serde_json::Value::Null, Some(RIDER)),
            card("loner", "thing", serde_json::Value::Null, Some(LONER)),
        ],
    ))
}

/// A game where the pawn's power (1: the spare in its owner's hand) and the rider's (0, in
/// the other player's hand) were read, then `steps` are answered.
fn bearer_play(steps: &[&str]) -> Game {
    let mut first = common::deck("board", &[("pawn", 1)]);
    first.sections.insert(
        "hand".into(),
        [("spare".to_string(), 1)].into_iter().collect(),
    );
    let mut second = common::deck("board", &[]);
    second.sections.insert(
        "hand".into(),
        [("rider".to_string(), 1), ("loner".to_string(), 1)]
            .into_iter()
            .collect(),
    );
    let mut g = new_game(&bearer_engine(), 1, vec![first, second]);
    pick(&mut g, "power 1");
    pick(&mut g, "rider 0");
    for s in steps {
        pick(&mut g, s);
    }
    g
}

/// The rider's power the options show.
fn rider(g: &Game) -> Option<String> {
    labels(g).into_iter().find(|l| l.starts_with("rider "))
}

#[test]
fn per_card_a_card_attached_with_a_static_ability_for_its_bearer_makes_the_bearers_values_stale() {
    // The rider's move read nothing the pawn's value counted (the other player's hand), but
    // it joined the pawn: worked out again (the round, the spare, the rider's 1000).
    let g = bearer_play(&["rider onto pawn"]);
    assert_eq!(power(&g).as_deref(), Some("power 1011"));
    assert!(script_errors(&g).is_empty(), "{:?}", script_errors(&g));
    // It leaves the pawn, for a zone the pawn's value does not count: the 1000 goes.
    let g = bearer_play(&["rider onto pawn", "power 1011", "rider to discard"]);
    assert_eq!(power(&g).as_deref(), Some("power 11"));
    assert!(script_errors(&g).is_empty(), "{:?}", script_errors(&g));
}

#[test]
fn per_card_a_card_with_a_static_ability_for_itself_entering_play_makes_its_own_values_stale() {
    // The rider, attached to nothing, is its own bearer: in play, its own value takes the
    // 1000 (it was 0 in the hand).
    let g = bearer_play(&["rider to board, round kept"]);
    assert_eq!(rider(&g).as_deref(), Some("rider 1000"));
    assert_eq!(power(&g).as_deref(), Some("power 1"));
    assert!(script_errors(&g).is_empty(), "{:?}", script_errors(&g));
}

#[test]
fn per_card_a_card_with_a_static_ability_only_for_itself_entering_play_keeps_other_values() {
    for step in ["loner to board", "rider to board"] {
        // Neither can change the pawn's value: kept (a debug build works it out anyway and
        // reports the `reads` that misses the round).
        let g = bearer_play(&[step]);
        if cfg!(debug_assertions) {
            let errors = script_errors(&g);
            assert!(
                errors.iter().any(|m| m.contains("characteristic 'power'")),
                "{step}: {errors:?}"
            );
        } else {
            assert_eq!(power(&g).as_deref(), Some("power 1"), "{step}: kept");
        }
    }
}

// Player characteristics keep their values the same way (`reads` on a player
// characteristic): the beacon's static ability adds to player 1's reach what the pawn's adds
// to its power, and the options show the reach as read then.

/// Player 1's reach as read now, and an effect on player 1's reach, before the Keep actions.
const PLAYER_LUA: &str = r#"
local keep_actions = main_actions
function main_actions(ctx)
  local out = keep_actions(ctx)
  table.insert(out, 1, { label = "reach " .. ctx:value(1, "reach"), run = function(ctx) end })
  table.insert(out, { label = "player effect", run = function(ctx)
    ctx:modify(1, { char = "reach", op = "add", value = 1 }, {})
  end })
  local spare = ctx:cards("hand", 1)[1]
  -- (With the round, which a test leaves out of `reads` to tell a kept value.)
  table.insert(out, { label = "spare effect", run = function(ctx)
    ctx:set_game_value("round", 1)
    ctx:modify(spare, { char = "power", op = "add", value = 1 }, {})
  end })
  return out
end
"#;

/// The beacon: +1 to player 1's reach for each thing changed since the game began, and its
/// own power (which an effect on it changes).
const BEACON: &str = r#"
return { { kind = "static", target = "players", affects = function(ctx, p) return p == 1 end,
  modify = { { char = "reach", op = "add", value = function(ctx, p)
    local c = ctx.source
    local n = #ctx:cards("board", 1) - 1
    if c:flag_on("marked") then n = n + 1 end
    n = n + c:counter_value("charge") + ctx:value(1, "score") + ctx:game_value("round")
    if c.orientation == "down" then n = n + 1 end
    if ctx.turn > 1 then n = n + 1 end
    return n + c.power
  end } } } }
"#;

fn player_engine(reads: Option<serde_json::Value>) -> Rc<Engine> {
    let mut reach = serde_json::json!({"name": "reach", "start": 0});
    if let Some(r) = reads {
        reach["reads"] = r;
    }
    let lua = format!("{RULES_LUA}\n{PLAYER_LUA}");
    engine_of(&content(
        MANIFEST,
        |m| m["player_characteristics"] = serde_json::json!([reach]),
        &[("keep.lua", &lua)],
        vec![
            card("pawn", "thing", serde_json::Value::Null, Some(BEACON)),
            card("spare", "thing", serde_json::Value::Null, None),
        ],
    ))
}

/// Player 1's reach the options show.
fn reach(g: &Game) -> Option<String> {
    labels(g).into_iter().find(|l| l.starts_with("reach "))
}

#[test]
fn a_kept_player_characteristic_is_worked_out_again_when_what_it_reads_changes() {
    for (thing, _, _) in READS {
        let g = play(&player_engine(Some(reads(thing, false))), &steps(thing));
        assert_eq!(
            reach(&g).as_deref(),
            Some("reach 1"),
            "{thing}: worked out again ({:?})",
            script_errors(&g)
        );
        assert!(script_errors(&g).is_empty(), "{thing}");
    }
}

#[test]
fn a_kept_player_characteristic_is_kept_while_nothing_it_reads_changes() {
    for (thing, _, _) in READS {
        let g = play(&player_engine(Some(reads(thing, true))), &steps(thing));
        if cfg!(debug_assertions) {
            // A debug build works it out anyway: the declaration misses what changed.
            let errors = script_errors(&g);
            assert!(
                errors
                    .iter()
                    .any(|m| m.contains("player characteristic 'reach'") && m.contains("`reads`")),
                "{thing}: {errors:?}"
            );
        } else {
            assert_eq!(reach(&g).as_deref(), Some("reach 0"), "{thing}: kept");
        }
    }
}

#[test]
fn the_effects_on_a_player_are_always_read() {
    // Declared reading nothing at all: an effect on the player still makes the value stale.
    let g = play(
        &player_engine(Some(serde_json::json!({}))),
        &["player effect"],
    );
    assert_eq!(reach(&g).as_deref(), Some("reach 1"));
    assert!(script_errors(&g).is_empty());
}

#[test]
fn a_player_characteristic_that_declares_nothing_is_worked_out_at_every_read() {
    for (thing, _, _) in READS {
        let g = play(&player_engine(None), &steps(thing));
        assert_eq!(reach(&g).as_deref(), Some("reach 1"), "{thing}");
        assert!(script_errors(&g).is_empty(), "{thing}");
    }
}

#[test]
fn a_player_characteristic_read_of_an_unknown_name_is_a_load_error() {
    let c = content(
        MANIFEST,
        |m| {
            m["player_characteristics"] =
                serde_json::json!([{"name": "reach", "reads": {"values": ["scores"]}}])
        },
        &[("keep.lua", RULES_LUA)],
        vec![card("pawn", "thing", serde_json::Value::Null, Some(PAWN))],
    );
    let errors = common::load_errors(&c);
    assert!(
        errors.contains("player characteristic 'reach': reads") && errors.contains("'scores'"),
        "{errors}"
    );
}

#[test]
fn a_kept_player_characteristic_reads_the_effects_on_the_cards_its_value_read() {
    // Declared reading nothing: an effect on the beacon, whose power the value read, makes
    // it stale (the record of what it read names the beacon).
    let g = play(&player_engine(Some(serde_json::json!({}))), &["effect"]);
    assert_eq!(reach(&g).as_deref(), Some("reach 1"));
    assert!(script_errors(&g).is_empty());
    // An effect on the spare, which nothing read, keeps it (the round it also sets is left
    // out of `reads`: the kept value shows the old round).
    let g = play(
        &player_engine(Some(serde_json::json!({}))),
        &["spare effect"],
    );
    if cfg!(debug_assertions) {
        let errors = script_errors(&g);
        assert!(
            errors
                .iter()
                .any(|m| m.contains("player characteristic 'reach'") && m.contains("`reads`")),
            "{errors:?}"
        );
    } else {
        assert_eq!(reach(&g).as_deref(), Some("reach 0"), "kept");
    }
    // Declared with the part `effects`: any effect makes it stale.
    let reads = serde_json::json!({"parts": ["effects"]});
    let g = play(&player_engine(Some(reads)), &["spare effect"]);
    assert_eq!(reach(&g).as_deref(), Some("reach 1"));
    assert!(script_errors(&g).is_empty());
}
