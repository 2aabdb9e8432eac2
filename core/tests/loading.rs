//! A card's script is loaded to stay only when a game first needs its abilities
//! (`Db::card_abilities`): an engine with a large card database holds in Lua only the cards
//! its games met. Loading runs aside from the running call's work budget and memory
//! allowance, so a game plays the same whether or not an earlier game loaded its cards.
//!
//! The made-up game of `common::BOARD_GAME`: each player has a board (in play). Every
//! activated ability on the turn player's board is offered as "use <name>"; listing them
//! first does `WORK` loop turns and holds a `HELD`-byte string, which with the small limits
//! below leaves no room for a card's loading to be charged to the call.

mod common;

use common::{card, deck, engine_of, labels, new_game, pick, said};
use riffle_core::*;

const RULES_LUA: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end
function validate_deck(deck) return {} end

WORK = 0
HELD = 0

function main_actions(ctx)
  local n = 0
  for i = 1, WORK do n = n + 1 end
  local held = string.rep("h", HELD)
  local p = ctx.turn_player
  local out = {}
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
    out[#out + 1] = { label = "use " .. ab.source.name, run = function(ctx)
      activate(ctx:with{ source = ab.source }, ab, {})
    end }
  end
  out[#out + 1] = { label = "end turn " .. #held, ends_phase = true }
  return out
end
"#;

/// A unit whose activated ability says `word`; its script's top level first does `work`
/// loop turns and keeps a string of `keep` bytes.
fn unit(id: &str, word: &str, work: u32, keep: u32) -> CardDef {
    let script = format!(
        r#"local n = 0
        for i = 1, {work} do n = n + 1 end
        local kept = string.rep("k", {keep})
        return {{ {{ kind = "activated", timing = "main",
          operate = function(ctx) ctx:emit("said", {{ key = "{word}", amount = #kept }}) end }} }}"#
    );
    card(id, "unit", serde_json::json!({ "power": 1 }), Some(&script))
}

/// The game with these limits, the ruleset's listing doing `work` turns and holding `held`
/// bytes; its cards: "bell" (in the decks) and "spare" (in none).
fn engine(
    budget: u32,
    memory: u32,
    work: u32,
    held: u32,
    card_work: u32,
    card_keep: u32,
) -> std::rc::Rc<Engine> {
    let rules = RULES_LUA
        .replace("WORK = 0", &format!("WORK = {work}"))
        .replace("HELD = 0", &format!("HELD = {held}"));
    engine_of(&common::content(
        common::BOARD_GAME,
        |m| {
            m["limits"] = serde_json::json!({ "script_budget": budget, "script_memory": memory });
        },
        &[("board.lua", &rules)],
        vec![
            unit("bell", "ding", card_work, card_keep),
            unit("spare", "hm", card_work, card_keep),
        ],
    ))
}

fn game(e: &std::rc::Rc<Engine>) -> Game {
    let d = deck("board", &[("bell", 1)]);
    new_game(e, 1, vec![d.clone(), d])
}

/// Uses the bell and ends the turn, twice (one turn each player); returns what was said
/// and the log's text.
fn play(e: &std::rc::Rc<Engine>) -> (Vec<(String, i64)>, Vec<String>) {
    let mut g = game(e);
    let mut out = Vec::new();
    for _ in 0..2 {
        let from = g.log().len();
        pick(&mut g, "use bell");
        out.extend(said(&g, from));
        let end = labels(&g)
            .into_iter()
            .find(|l| l.starts_with("end turn"))
            .expect("an end of turn offered");
        pick(&mut g, &end);
    }
    let log = g.log().iter().map(|e| format!("{e:?}")).collect();
    (out, log)
}

#[test]
fn a_card_is_loaded_when_a_game_first_needs_it_and_one_no_game_meets_never_is() {
    let e = engine(1_000_000, 16 << 20, 0, 0, 0, 0);
    assert_eq!(
        e.loaded_cards().count(),
        0,
        "compiling checks the scripts, keeps none"
    );
    let (said, _) = play(&e);
    assert_eq!(said, [("ding".to_string(), 0), ("ding".to_string(), 0)]);
    assert_eq!(e.loaded_cards().collect::<Vec<_>>(), ["bell"]);
}

#[test]
fn loading_a_card_in_the_middle_of_a_call_costs_the_call_no_work() {
    // The listing does 6,000 loop turns of a 10,000 budget, and loading the bell (met
    // first inside the listing) 6,000 more: charged to the call, the first game's listing
    // would fail and a later game's would not.
    let e = engine(10_000, 16 << 20, 6_000, 0, 6_000, 0);
    let first = play(&e);
    assert_eq!(
        first.0.len(),
        2,
        "the bell rang on each turn: {:?}",
        first.1
    );
    assert_eq!(
        play(&e),
        first,
        "a game on an engine that loaded the bell already"
    );
    let fresh = engine(10_000, 16 << 20, 6_000, 0, 6_000, 0);
    assert_eq!(play(&fresh), first, "a game on a fresh engine");
}

#[test]
fn loading_a_card_in_the_middle_of_a_call_costs_the_game_no_memory() {
    // The bell keeps 300 KB, and the listing holds 300 KB of a 512 KB allowance: charged
    // to the game, the first game would run out of memory and a later one would not.
    let e = engine(10_000_000, 512 << 10, 0, 300 << 10, 0, 300 << 10);
    let first = play(&e);
    assert_eq!(
        first.0,
        [
            ("ding".to_string(), 300 << 10),
            ("ding".to_string(), 300 << 10)
        ],
        "{:?}",
        first.1
    );
    assert_eq!(
        play(&e),
        first,
        "a game on an engine that loaded the bell already"
    );
}

#[test]
fn a_second_card_with_an_id_taken_is_a_load_error_naming_it() {
    let content = common::content(
        common::BOARD_GAME,
        |_| {},
        &[("board.lua", RULES_LUA)],
        vec![
            unit("bell", "ding", 0, 0),
            unit("spare", "hm", 0, 0),
            unit("bell", "dong", 0, 0),
        ],
    );
    assert_eq!(
        common::load_errors(&content),
        "duplicate card id (card bell)"
    );
}
