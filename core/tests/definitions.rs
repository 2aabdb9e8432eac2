//! Definition redirects on a made-up game, "Mirror": a card may take its printed data, its
//! abilities and its name from another card definition ("this card is treated as X", a
//! copy, a card that becomes the card it names), by an effect with the usual lifetimes
//! (`ctx:take_definition`), or while a card of the same name stands in for it in a
//! `stand_ins` zone (an errata or Reflection card beside the deck). `card_ids` lists the
//! loaded cards.
//!
//! Mirror: each player has a board (in play), a discard and an `errata` zone. The mirror
//! card copies the knight for the turn ("copy"), or for good, following it to the discard
//! ("become"); every activated ability on the board is offered as "use <name>", and says
//! whose text it is by an event.

mod common;

use common::{card, deck, engine_of, labels, new_game, pick, said};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "mirror", "name": {"en": "Mirror"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "discard", "scope": "player", "visibility": "public"},
    {"name": "errata", "scope": "player", "visibility": "public"}
  ],
  "categories": ["unit", "spell"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "events": ["said"],
  "timings": ["main"],
  "durations": ["end_of_turn"],
  "stand_ins": ["errata"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}, {"name": "end", "run": "end_phase"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}, {"name": "errata", "zone": "errata"}]},
  "scripts": ["mirror.lua"]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end
function end_phase(ctx) ctx:expire("end_of_turn") end
function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end
function validate_deck(deck) return {} end

local function mirror_of(ctx, p)
  for _, c in ipairs(ctx:cards("board", p)) do
    if c.own_card_id == "mirror" then return c end
  end
  for _, c in ipairs(ctx:cards("discard", p)) do
    if c.own_card_id == "mirror" then return c end
  end
end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  local m = mirror_of(ctx, p)
  if m ~= nil then
    out[#out + 1] = { label = "copy", run = function(ctx)
      ctx:take_definition(m, "knight", { ["until"] = "end_of_turn" })
    end }
    out[#out + 1] = { label = "become", run = function(ctx)
      local h = ctx:take_definition(m, "knight", { persists_in = { "discard" } })
      ctx:emit("said", { key = "handle", amount = h })
    end }
    out[#out + 1] = { label = "undo", run = function(ctx)
      for _, e in ipairs(ctx:effects({ target = m })) do ctx:end_effect(e.handle) end
    end }
    out[#out + 1] = { label = "discard mirror", run = function(ctx) ctx:move(m, "discard") end }
    out[#out + 1] = { label = "describe", run = function(ctx)
      local motto = m:printed("motto") or "none"
      ctx:emit("said", { key = "describe " .. m.name .. " " .. m.card_id .. " " .. m.own_card_id .. " " .. motto,
        amount = m.power })
    end }
    out[#out + 1] = { label = "bad copy", run = function(ctx) ctx:take_definition(m, "kinght") end }
  end
  for _, c in ipairs(ctx:cards("board", p)) do
    out[#out + 1] = { label = "power " .. c.own_card_id, run = function(ctx)
      ctx:emit("said", { key = "power " .. c.name, amount = c.power })
    end }
  end
  out[#out + 1] = { label = "list", run = function(ctx)
    ctx:emit("said", { key = table.concat(card_ids(), ","), amount = 0 })
    ctx:emit("said", { key = table.concat(card_ids({ category = "spell" }), ","), amount = 0 })
  end }
  out[#out + 1] = { label = "bad list", run = function(ctx) card_ids({ category = "spel" }) end }
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
    out[#out + 1] = { label = "use " .. ab.source.name, run = function(ctx)
      activate(ctx:with{ source = ab.source }, ab, {})
    end }
  end
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end
"#;

/// A unit whose activated ability says `word`, and whose triggered ability says `word` and
/// " farewell" when it leaves the board.
fn speaker(id: &str, name: &str, power: i64, word: &str, extra: serde_json::Value) -> CardDef {
    let mut fields = serde_json::json!({ "power": power });
    if let (Some(f), serde_json::Value::Object(x)) = (fields.as_object_mut(), extra) {
        f.extend(x);
    }
    let script = format!(
        r#"return {{ {{ kind = "activated", timing = "main",
          operate = function(ctx) ctx:emit("said", {{ key = "{word}", amount = 1 }}) end }},
        {{ kind = "triggered", on = "moved", match = {{ old = "self", from = "board" }},
          operate = function(ctx) ctx:emit("said", {{ key = "{word} farewell", amount = 1 }}) end }} }}"#
    );
    common::with_names(card(id, "unit", fields, Some(&script)), &[("en", name)])
}

fn content() -> Content {
    common::content(
        MANIFEST,
        |_| {},
        &[("mirror.lua", RULES_LUA)],
        vec![
            card("mirror", "unit", serde_json::json!({"power": 0}), None),
            speaker(
                "knight",
                "Knight",
                4,
                "charge",
                serde_json::json!({"motto": "onward"}),
            ),
            speaker("pawn", "Pawn", 1, "step", serde_json::Value::Null),
            speaker("pawn_errata", "Pawn", 2, "leap", serde_json::Value::Null),
            card("bolt", "spell", serde_json::json!({"power": 0}), None),
        ],
    )
}

fn game(errata: bool) -> Game {
    let e = engine_of(&content());
    let mut d1 = deck("board", &[("mirror", 1), ("pawn", 1)]);
    if errata {
        d1.sections
            .insert("errata".into(), [("pawn_errata".to_string(), 1)].into());
    }
    let d2 = deck("board", &[("pawn", 1)]);
    new_game(&e, 1, vec![d1, d2])
}

/// Picks `label` and returns what was said meanwhile.
fn run(g: &mut Game, label: &str) -> Vec<(String, i64)> {
    let from = g.log().len();
    pick(g, label);
    said(g, from)
}

/// The names player 1's board shows in player 2's view.
fn board_names(g: &Game, zone: &str) -> Vec<String> {
    g.view(1)
        .zones
        .iter()
        .find(|z| z.name == zone && z.owner == Some(0))
        .expect("zone")
        .cards
        .iter()
        .map(|c| c.name.clone().unwrap_or_default())
        .collect()
}

#[test]
fn a_redirected_card_has_the_other_definitions_data_abilities_and_name_for_its_duration() {
    let mut g = game(false);
    assert_eq!(
        run(&mut g, "describe"),
        [("describe mirror mirror mirror none".to_string(), 0)]
    );
    assert!(!labels(&g).contains(&"use Knight".to_string()));
    pick(&mut g, "copy");
    // Printed data (`c:printed`, the characteristics' printed values), the name, the id.
    assert_eq!(
        run(&mut g, "describe"),
        [("describe Knight knight mirror onward".to_string(), 4)]
    );
    assert_eq!(
        board_names(&g, "board"),
        ["Knight", "Pawn"],
        "views show the name the rules use"
    );
    // The knight's ability works on the mirror, with the mirror as its source.
    assert_eq!(run(&mut g, "use Knight"), [("charge".to_string(), 1)]);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    // The turn's end ended the redirect: the mirror is itself again.
    assert_eq!(
        run(&mut g, "describe"),
        [("describe mirror mirror mirror none".to_string(), 0)]
    );
    assert!(
        !labels(&g).iter().any(|l| l == "use Knight"),
        "{:?}",
        labels(&g)
    );
}

#[test]
fn a_redirect_follows_the_card_into_the_zones_it_persists_in_and_ends_by_handle() {
    let mut g = game(false);
    let h = run(&mut g, "become");
    assert_eq!(h.len(), 1);
    assert!(h[0].1 > 0, "a handle");
    pick(&mut g, "discard mirror");
    assert_eq!(
        board_names(&g, "discard"),
        ["Knight"],
        "persists in the discard"
    );
    assert_eq!(
        run(&mut g, "describe"),
        [("describe Knight knight mirror onward".to_string(), 4)]
    );
    pick(&mut g, "undo");
    assert_eq!(
        run(&mut g, "describe"),
        [("describe mirror mirror mirror none".to_string(), 0)]
    );
    assert_eq!(board_names(&g, "discard"), ["mirror"]);
}

#[test]
fn a_redirect_without_persists_in_ends_when_the_card_changes_zone() {
    let mut g = game(false);
    pick(&mut g, "copy");
    // It leaves as the knight (last-known information): the knight's "when this leaves"
    // triggers; in the discard it is the mirror again.
    assert_eq!(
        run(&mut g, "discard mirror"),
        [("charge farewell".to_string(), 1)]
    );
    assert_eq!(board_names(&g, "discard"), ["mirror"]);
}

#[test]
fn a_card_in_a_stand_in_zone_stands_in_for_its_owners_cards_of_its_name() {
    let mut g = game(true);
    // Player 1's Pawn has the errata's power and text; player 2's Pawn is its own.
    assert_eq!(run(&mut g, "power pawn"), [("power Pawn".to_string(), 2)]);
    assert_eq!(run(&mut g, "use Pawn"), [("leap".to_string(), 1)]);
    assert!(
        labels(&g).iter().filter(|l| *l == "use Pawn").count() == 1,
        "the printed ability no longer works: {:?}",
        labels(&g)
    );
    pick(&mut g, "end turn");
    assert_eq!(run(&mut g, "power pawn"), [("power Pawn".to_string(), 1)]);
    assert_eq!(run(&mut g, "use Pawn"), [("step".to_string(), 1)]);
}

#[test]
fn card_ids_lists_the_loaded_cards_sorted_and_by_category() {
    let mut g = game(false);
    assert_eq!(
        run(&mut g, "list"),
        [
            ("bolt,knight,mirror,pawn,pawn_errata".to_string(), 0),
            ("bolt".to_string(), 0)
        ]
    );
    pick(&mut g, "bad list");
    let err = g.errors().last().cloned().unwrap_or_default();
    assert!(err.contains("no category 'spel'"), "{err}");
}

#[test]
fn an_unknown_card_id_is_an_error_naming_it() {
    let mut g = game(false);
    pick(&mut g, "bad copy");
    let err = g.errors().last().cloned().unwrap_or_default();
    assert!(
        err.contains("no card 'kinght'") && err.contains("card_ids"),
        "{err}"
    );
}

#[test]
fn a_stand_in_zone_must_be_declared() {
    let c = common::content(
        &MANIFEST.replace(r#""stand_ins": ["errata"]"#, r#""stand_ins": ["erata"]"#),
        |_| {},
        &[("mirror.lua", RULES_LUA)],
        vec![],
    );
    let err = common::load_errors(&c);
    assert!(err.contains("stand_ins: unknown zone 'erata'"), "{err}");
}
