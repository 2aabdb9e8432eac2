//! Card reads through the handles' `__index` (core/src/sandbox/fast_index.rs): the first
//! read of a name goes through the Rust `__index`, which resolves it; later reads of it are
//! answered by the fast path. Either way a read gives the same value, and a name that is no
//! field is an error naming the script's file and line every time.
//!
//! The game is the shared made-up board game (`common::BOARD_GAME`): every activated
//! ability on the board is offered as "use <name>".

mod common;

use common::{BOARD_ACTIVATE_RULES, card, deck, engine_of, new_game, pick, said};
use riffle_core::*;

/// Reads its own fields, methods and characteristic three times over, saying each round.
const READER: &str = r#"return { { kind = "activated", timing = "main",
  operate = function(ctx)
    local c = ctx.source
    for i = 1, 3 do
      local same = c == ctx.source and rawequal(c, ctx.source)
      ctx:emit("said", { key = table.concat({ "round", tostring(c), c.name, c.label, c.card_id,
        c.own_card_id, c.category, c.zone, c.orientation, tostring(c.owner), tostring(c.controller),
        tostring(c.zone_owner), tostring(c.face_up), tostring(c.alive), tostring(c.token),
        tostring(c.id), tostring(c.host), #c.attachments, tostring(c.successor),
        tostring(c.out_of_game), tostring(c.printed_abilities), tostring(c.suppressed),
        tostring(c:printed("power")), c:name_in("en"), tostring(same) }, " "),
        amount = c.power })
    end
  end } }"#;

/// Reads a field that does not exist (line 3).
fn typo(id: &str) -> CardDef {
    card(
        id,
        "unit",
        serde_json::json!({"power": 1}),
        Some(
            "return { { kind = \"activated\", timing = \"main\",\n  operate = function(ctx)\n    return ctx.source.pwoer\n  end } }",
        ),
    )
}

fn game() -> Game {
    let content = common::content(
        common::BOARD_GAME,
        |_| {},
        &[("board.lua", BOARD_ACTIVATE_RULES)],
        vec![
            card(
                "reader",
                "unit",
                serde_json::json!({"power": 3}),
                Some(READER),
            ),
            typo("typo"),
            typo("typo2"),
        ],
    );
    let e = engine_of(&content);
    new_game(
        &e,
        1,
        vec![
            deck("board", &[("reader", 1), ("typo", 1), ("typo2", 1)]),
            deck("board", &[("reader", 1)]),
        ],
    )
}

#[test]
fn a_field_read_again_gives_what_the_first_read_gave() {
    let mut g = game();
    let from = g.log().len();
    pick(&mut g, "use reader");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    let rounds = said(&g, from);
    assert_eq!(rounds.len(), 3, "{rounds:?}");
    let (first, power) = &rounds[0];
    assert_eq!(*power, 3);
    assert!(
        first.starts_with("round reader#")
            && first.ends_with(
                " reader reader reader reader unit board up 1 1 1 true true false 0 \
                 nil 0 nil false 1 false 3 reader true"
            ),
        "{first}"
    );
    assert!(rounds.iter().all(|r| r == &rounds[0]), "{rounds:?}");
}

#[test]
fn a_name_that_is_no_field_is_an_error_naming_the_line_however_often_it_is_read() {
    let mut g = game();
    pick(&mut g, "use typo");
    pick(&mut g, "use typo2");
    let errors = g.errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    for (e, file) in errors.iter().zip(["cards/typo.lua:3", "cards/typo2.lua:3"]) {
        assert!(
            e.contains("cards have no field 'pwoer' (fields: id, card_id"),
            "{e}"
        );
        assert!(e.contains(file), "the script's file and line: {e}");
    }
}
