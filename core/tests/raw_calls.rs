//! The kernel functions that read their arguments from the Luau stack
//! (core/src/sandbox/raw_args.rs: `ctx:cards`, `ctx:count`, `ctx:abilities`): the forms
//! they read in place give what the mlua path gives for the same question (a filter with a
//! metatable, or a player given as text, always goes the mlua way), the lists are new
//! tables each time, and wrong arguments are errors that name the script's file and line,
//! as before.
//!
//! The game is the shared made-up board game (`common::BOARD_GAME`): every activated
//! ability on the board is offered as "use <name>".

mod common;

use common::{BOARD_ACTIVATE_RULES, card, deck, engine_of, new_game, pick, said};
use riffle_core::*;

/// Asks each question in a form read in place and in a form the mlua path reads, and says
/// both answers.
const LISTER: &str = r##"return { { kind = "activated", timing = "main",
  operate = function(ctx)
    local function ids(list)
      local t = {}
      for i, c in ipairs(list) do t[i] = tostring(c.id) end
      return table.concat(t, ",")
    end
    local function say(what, fast, slow)
      ctx:emit("said", { key = what .. ": " .. tostring(fast) .. " | " .. tostring(slow) })
    end
    local me = ctx.source.owner
    local odd = setmetatable({}, {})
    say("cards", ids(ctx:cards("board", me)), ids(ctx:cards("board", tostring(me), odd)))
    say("cards default", ids(ctx:cards("board")), ids(ctx:cards("board", nil, odd)))
    say("up", ids(ctx:cards("board", me, { orientation = "up" })),
      ids(ctx:cards("board", me, setmetatable({ orientation = "up" }, {}))))
    say("unit", ids(ctx:cards("board", me, { category = "unit" })),
      ids(ctx:cards("board", me, setmetatable({ category = "unit" }, {}))))
    say("count", ctx:count("board", me), ctx:count("board", tostring(me), odd))
    say("count unit", ctx:count("board", me, { category = "unit" }),
      ctx:count("board", me, setmetatable({ category = "unit" }, {})))
    say("float player", ids(ctx:cards("board", me * 1.0)), ids(ctx:cards("board", me)))
    local function abs(list)
      local t = {}
      for i, a in ipairs(list) do t[i] = tostring(a.source.id) .. "#" .. a.index .. ":" .. a.key end
      return table.concat(t, ",")
    end
    say("abilities", abs(ctx:abilities{ kind = "activated", timing = "main", player = me }),
      abs(ctx:abilities(setmetatable({ kind = "activated", timing = "main", player = me }, {}))))
    say("own", abs(ctx:abilities{ card = ctx.source }),
      abs(ctx:abilities(setmetatable({ card = ctx.source }, {}))))
    say("all", abs(ctx:abilities{ delayed = true }), abs(ctx:abilities(odd)))
    local a, b = ctx:cards("board", me), ctx:cards("board", me)
    table.insert(a, "x")
    say("fresh", rawequal(a, b), #a == #b + 1)
  end } }"##;

/// A card whose ability's line 3 makes the call `call`.
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

const FAILING: [(&str, &str, &str); 5] = [
    (
        "badzone",
        "ctx:cards(\"nowhere\")",
        "unknown zone 'nowhere'",
    ),
    (
        "badplayer",
        "ctx:count(\"board\", 9)",
        "player 9 does not exist",
    ),
    (
        "badorientation",
        "ctx:cards(\"board\", 1, { orientation = \"sideways\" })",
        "sideways",
    ),
    (
        "badkind",
        "ctx:abilities{ kind = \"bogus\" }",
        "unknown ability kind 'bogus'",
    ),
    (
        "badtiming",
        "ctx:abilities{ timing = \"never\" }",
        "unknown timing 'never'",
    ),
];

fn game() -> Game {
    let mut cards = vec![card(
        "lister",
        "unit",
        serde_json::json!({"power": 3}),
        Some(LISTER),
    )];
    cards.extend(FAILING.iter().map(|(id, call, _)| failing(id, call)));
    let content = common::content(
        common::BOARD_GAME,
        |_| {},
        &[("board.lua", BOARD_ACTIVATE_RULES)],
        cards,
    );
    let e = engine_of(&content);
    let mut first: Vec<(&str, u32)> = vec![("lister", 1)];
    first.extend(FAILING.iter().map(|(id, _, _)| (*id, 1)));
    new_game(
        &e,
        1,
        vec![deck("board", &first), deck("board", &[("lister", 1)])],
    )
}

#[test]
fn the_forms_read_in_place_answer_as_the_mlua_path_does() {
    let mut g = game();
    let from = g.log().len();
    pick(&mut g, "use lister");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    let said: Vec<String> = said(&g, from).into_iter().map(|(k, _)| k).collect();
    assert_eq!(said.len(), 11, "{said:?}");
    for s in &said[..10] {
        let (_, answers) = s.split_once(": ").unwrap();
        let (fast, slow) = answers.split_once(" | ").unwrap();
        assert_eq!(fast, slow, "{s}");
        assert!(!slow.is_empty(), "{s}");
    }
    // The board holds the lister and the five failing cards: six, all units, all up.
    let said_of = |what: &str| said.iter().find(|s| s.starts_with(what)).unwrap();
    assert_eq!(said_of("count: "), "count: 6 | 6");
    assert_eq!(said_of("cards: ").matches(',').count(), 10);
    assert!(said_of("own: ").contains("#1:lister#1"));
    assert_eq!(said[10], "fresh: false | true");
}

#[test]
fn wrong_arguments_are_errors_naming_the_scripts_line() {
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
