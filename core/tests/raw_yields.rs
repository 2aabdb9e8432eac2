//! The operations read off the coroutine's stack in place (core/src/sandbox/raw_yield.rs,
//! core/src/operations/raw.rs: `ctx:move`, `ctx:set_orientation`, `ctx:emit`,
//! `ctx:expire`; and as a table: `ctx:add_counter`, `ctx:set_flag`, `ctx:set_value`,
//! `ctx:set_face`, `ctx:create_token`) and the procedure records read and made in place: the forms read in place
//! do what the mlua path does (a list or data table with a metatable, a long list, a table
//! as a data value always goes the mlua way), and wrong or odd values are errors that name
//! the script's file and line, as before.
//!
//! The game is the shared made-up board game (`common::BOARD_GAME`): every activated
//! ability on the board is offered as "use <name>".

mod common;

use common::{BOARD_ACTIVATE_RULES, card, deck, engine_of, new_game, pick, said};
use riffle_core::*;

/// Does each operation in a form read in place and in a form the mlua path reads, and says
/// both results.
const DOER: &str = r##"return { { kind = "activated", timing = "main",
  operate = function(ctx)
    local function say(what, fast, slow)
      ctx:emit("said", { key = what .. ": " .. tostring(fast) .. " | " .. tostring(slow) })
    end
    local function odd(t) return setmetatable(t, {}) end
    local function zones(list)
      local t = {}
      for i, c in ipairs(list) do t[i] = c.zone end
      return #list .. ":" .. table.concat(t, ",")
    end
    local me = ctx.source.owner
    local others = {}
    for _, c in ipairs(ctx:cards("board", me)) do
      if c.name == "plain" then others[#others + 1] = c end
    end
    local a = ctx:set_orientation({ ctx.source }, "up")
    local b = ctx:set_orientation(odd({ ctx.source }), "up")
    say("orientation", #a .. tostring(a[1]), #b .. tostring(b[1]))
    say("move", zones(ctx:move({ others[1] }, "board")), zones(ctx:move(odd({ others[2] }), "board")))
    say("move one", zones(ctx:move(others[3], "board", { face = "up", position = "top" })),
      zones(ctx:move(odd({ others[4] }), "board", { face = "up", position = "top" })))
    say("move none", zones(ctx:move({}, "board")), zones(ctx:move(odd({}), "board")))
    ctx:emit("said", { key = "data", amount = 7, card = ctx.source, extra = true })
    ctx:emit("said", odd({ key = "data", amount = 7, card = ctx.source, extra = true }))
    ctx:emit("said", { key = "nested", amount = 2, list = { 1, 2 } })
    local big = { key = "big", amount = 300 }
    for i = 1, 300 do big["k" .. i] = i end
    ctx:emit("said", big)
    -- A record read in place, and one with a list that has a metatable (read by mlua).
    local function record(odd_list)
      return { n = 1, s = "x", c = ctx.source, l = { ctx.source, ctx.source }, odd = odd_list,
        f = function() end, deep = { { 1 }, { 2, { 3 } } }, yes = true }
    end
    ctx:procedure("keep", record({ 5, 6 }))
    ctx:procedure("keep", record(odd({ 5, 6 })))
    -- The table-form operations: as the prelude makes them (read in place), and from a
    -- context whose source is not a card (so their table is converted by mlua).
    local slow = { source = false, player = ctx.player }
    say("counter", ctx:add_counter(ctx.source, "charge", 2, "test"),
      ctx.add_counter(slow, ctx.source, "charge", 2, "test"))
    say("flag", tostring(ctx:set_flag(ctx.source, "marked")) .. tostring(ctx.source:flag_on("marked")),
      tostring(ctx.set_flag(slow, ctx.source, "marked", false)) .. tostring(ctx.source:flag_on("marked")))
    say("value", tostring(ctx:add_value(me, "score", 3)) .. ctx:value(me, "score"),
      tostring(ctx.add_value(slow, me, "score", 3)) .. ctx:value(me, "score"))
    say("game value", tostring(ctx:set_game_value("pot", 4)) .. ctx:game_value("pot"),
      tostring(ctx.set_game_value(slow, "pot", 4)) .. ctx:game_value("pot"))
    say("face", tostring(ctx:set_face(ctx.source, false)) .. tostring(ctx.source.face_up),
      tostring(ctx.set_face(slow, ctx.source, false)) .. tostring(ctx.source.face_up))
    local t1 = ctx:create_token("plain", "board", me, { orientation = "up", face = "down" })
    local t2 = ctx.create_token(slow, "plain", "board", me, { orientation = "up", face = "down" })
    say("token", t1.name .. t1.zone .. tostring(t1.face_up) .. tostring(t1.owner),
      t2.name .. t2.zone .. tostring(t2.face_up) .. tostring(t2.owner))
  end } }"##;

/// A procedure that changes its record in one step and says it in the next.
const KEEP: &str = r##"
function keep_set(ctx, d) d.n = d.n + 1; d.added = { 7, 8 } end
function keep_say(ctx, d)
  local parts = { d.n, d.s, d.c.name, #d.l, d.l[2].name, d.odd[1] + d.odd[2], tostring(d.f),
    d.deep[2][2][1], tostring(d.yes), #d.added, tostring(getmetatable(d.odd)) }
  for i, v in ipairs(parts) do parts[i] = tostring(v) end
  ctx:emit("said", { key = "record: " .. table.concat(parts, ",") })
end
"##;

/// A card whose ability's line 3 does `call`.
fn failing(id: &str, call: &str) -> CardDef {
    card(
        id,
        "unit",
        serde_json::json!({"power": 1}),
        Some(&format!(
            "return {{ {{ kind = \"activated\", timing = \"main\",\n  operate = function(ctx)\n    return {call}\n  end }} }}"
        )),
    )
}

/// Wrong values the in-place path reads (and parses with the mlua path's errors), and odd
/// ones it hands on.
const FAILING: [(&str, &str, &str); 20] = [
    (
        "badcounter",
        "ctx:add_counter(ctx.source, \"nope\", 1)",
        "nope",
    ),
    (
        "floatcounter",
        "ctx:add_counter(ctx.source, \"charge\", 1.5)",
        "whole number",
    ),
    ("badflag", "ctx:set_flag(ctx.source, \"nope\")", "nope"),
    ("badvalue", "ctx:set_value(1, \"nope\", 1)", "nope"),
    (
        "valueplayer",
        "ctx:set_value(9, \"score\", 1)",
        "player 9 does not exist",
    ),
    (
        "badtoken",
        "ctx:create_token(\"nope\", \"board\")",
        "no card 'nope'",
    ),
    (
        "tokenorientation",
        "ctx:create_token(\"plain\", \"board\", nil, { orientation = \"sideways\" })",
        "sideways",
    ),
    (
        "badzone",
        "ctx:move(ctx.source, \"nowhere\")",
        "unknown zone 'nowhere'",
    ),
    (
        "badface",
        "ctx:move(ctx.source, \"board\", { face = \"sideways\" })",
        "face should be \"up\" or \"down\", not 'sideways'",
    ),
    (
        "badplayer",
        "ctx:move(ctx.source, \"board\", { player = 9 })",
        "player 9 does not exist",
    ),
    (
        "badposition",
        "ctx:move(ctx.source, \"board\", { position = 0 })",
        "bad position 0",
    ),
    (
        "badorientation",
        "ctx:set_orientation(ctx.source, \"sideways\")",
        "sideways",
    ),
    (
        "badevent",
        "ctx:emit(\"bogus\", {})",
        "unknown event 'bogus'",
    ),
    ("badpoint", "ctx:expire(\"never\")", "never"),
    (
        "floatamount",
        "ctx:emit(\"said\", { amount = 1.5 })",
        "whole number",
    ),
    (
        "notcards",
        "ctx:move(setmetatable({ 1 }, {}), \"board\")",
        "should list cards",
    ),
    (
        "hugelist",
        "(function() local t = {} for i = 1, 300 do t[i] = i end return ctx:move(t, \"board\") end)()",
        "should list cards",
    ),
    (
        "floatrecord",
        "ctx:procedure(\"keep\", { n = 1.5 })",
        "whole number",
    ),
    (
        "listrecord",
        "ctx:procedure(\"keep\", { 5 })",
        "keys should be names",
    ),
    (
        "floatposition",
        "ctx:move(ctx.source, \"board\", { position = 1.5 })",
        "whole number",
    ),
];

fn game() -> Game {
    let mut cards = vec![
        card("doer", "unit", serde_json::json!({"power": 3}), Some(DOER)),
        card("plain", "unit", serde_json::json!({"power": 1}), None),
    ];
    cards.extend(FAILING.iter().map(|(id, call, _)| failing(id, call)));
    let rules = format!("{BOARD_ACTIVATE_RULES}{KEEP}");
    let content = common::content(
        common::BOARD_GAME,
        |m| {
            m["counters"] = serde_json::json!(["charge"]);
            m["flags"] = serde_json::json!(["marked"]);
            m["player_values"] = serde_json::json!(["score"]);
            m["game_values"] = serde_json::json!(["pot"]);
            m["procedures"] = serde_json::json!([{"name": "keep", "steps": [
                {"name": "set", "run": "keep_set"}, {"name": "say", "run": "keep_say"}]}]);
        },
        &[("board.lua", &rules)],
        cards,
    );
    let e = engine_of(&content);
    let mut first: Vec<(&str, u32)> = vec![("doer", 1), ("plain", 4)];
    first.extend(FAILING.iter().map(|(id, _, _)| (*id, 1)));
    new_game(
        &e,
        1,
        vec![deck("board", &first), deck("board", &[("doer", 1)])],
    )
}

#[test]
fn the_forms_read_in_place_do_what_the_mlua_path_does() {
    let mut g = game();
    let from = g.log().len();
    pick(&mut g, "use doer");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    let said_all = said(&g, from);
    let said: Vec<&str> = said_all.iter().map(|(k, _)| k.as_str()).collect();
    for s in &said[..4] {
        let (_, answers) = s.split_once(": ").unwrap();
        let (fast, slow) = answers.split_once(" | ").unwrap();
        assert_eq!(fast, slow, "{s}");
    }
    assert_eq!(said[0], "orientation: 1false | 1false");
    assert_eq!(said[1], "move: 1:board | 1:board");
    assert_eq!(said[2], "move one: 1:board | 1:board");
    assert_eq!(said[3], "move none: 0: | 0:");
    // The data's own fields, its card and the rest, alike both ways.
    let log = g.log();
    let events: Vec<&state::events::Event> = log[from..]
        .iter()
        .filter_map(|e| match e {
            state::log::Entry::Event(e) if e.name == "said" => Some(e),
            _ => None,
        })
        .collect();
    let (fast, slow) = (events[4], events[5]);
    assert_eq!((fast.key.as_deref(), fast.amount), (Some("data"), 7));
    assert!(fast.card.is_some());
    assert_eq!(fast.card, slow.card);
    assert_eq!(fast.data, slow.data);
    assert_eq!(fast.data.len(), 1, "{:?}", fast.data);
    assert_eq!(said_all[6], ("nested".to_string(), 2));
    assert_eq!(events[6].data.len(), 1, "the list: {:?}", events[6].data);
    assert_eq!(said_all[7], ("big".to_string(), 300));
    assert_eq!(events[7].data.len(), 300);
    // Functions are dropped, lists become plain lists, cards stay the same handles.
    assert_eq!(said[8], "record: 2,x,doer,2,doer,11,nil,3,true,2,nil");
    assert_eq!(said[9], said[8]);
    // The table-form operations: the same result both ways (the second sees the first's
    // change, so each says its own result and then the state).
    assert_eq!(said.len(), 16, "{said:?}");
    assert_eq!(said[10], "counter: 2 | 4");
    assert_eq!(said[11], "flag: truetrue | truefalse");
    assert_eq!(said[12], "value: 33 | 66");
    assert_eq!(said[13], "game value: 44 | 44");
    assert_eq!(said[14], "face: truefalse | falsefalse");
    assert_eq!(said[15], "token: plainboardfalse1 | plainboardfalse1");
}

#[test]
fn wrong_and_odd_values_are_errors_naming_the_scripts_line() {
    let mut g = game();
    for (id, _, _) in FAILING {
        pick(&mut g, &format!("use {id}"));
    }
    let errors = g.errors();
    assert_eq!(errors.len(), FAILING.len(), "{errors:?}");
    for (e, (id, _, message)) in errors.iter().zip(FAILING) {
        assert!(e.contains(message), "{id}: {e}");
        assert!(
            e.contains(&format!("cards/{id}.lua:3")),
            "the script's file and line: {e}"
        );
    }
}
