//! `ctx:together` is one simultaneous step for rule processing too: the after-each-operation
//! checks wait for the group's end, so "each player draws 1 card" that empties both decks is
//! seen as one event and both players lose together (GD 11-2-1, 1-2-2-2; OP 9-2-1-2).
//!
//! The made-up game: each player has a deck and a hand; a check ends the game when a deck is
//! empty, every player with cards left winning (none: a draw). The turn player draws for both
//! players, in a group or one after the other.

mod common;

use common::{card, deck, engine_of, new_game, pick};
use riffle_core::*;

const GAME: &str = r#"{
  "game": "together", "name": {"en": "Together"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"}
  ],
  "categories": ["unit"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "timings": ["main"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "checks": [{"name": "deck_out", "when": "deck_out_due", "run": "deck_out", "at": "after_each_operation"}],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "deck", "zone": "deck"}]},
  "scripts": ["together.lua"]
}"#;

const RULES: &str = r#"
function setup(ctx) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

function deck_out_due(ctx) return ctx:count("deck", 1) == 0 or ctx:count("deck", 2) == 0 end
function deck_out(ctx)
  local winners = {}
  for p = 1, 2 do
    if ctx:count("deck", p) > 0 then winners[#winners + 1] = p end
  end
  ctx:end_game(winners, "deck_out")
end

local function draw(ctx, p) ctx:move(ctx:top("deck", p, 1), "hand", { player = p }) end

function main_actions(ctx)
  return {
    { label = "each draws", run = function(ctx)
      ctx:together(function(ctx) draw(ctx, 1) draw(ctx, 2) end)
    end },
    { label = "one after the other", run = function(ctx) draw(ctx, 1) draw(ctx, 2) end },
    { label = "end turn", ends_phase = true },
  }
end
"#;

fn game() -> Game {
    let e = engine_of(&common::content(
        GAME,
        |_| {},
        &[("together.lua", RULES)],
        vec![card("Ant", "unit", serde_json::json!({ "power": 1 }), None)],
    ));
    let one = deck("deck", &[("Ant", 1)]);
    new_game(&e, 1, vec![one.clone(), one])
}

#[test]
fn both_decks_emptied_together_are_one_rule_processing() {
    let mut g = game();
    pick(&mut g, "each draws");
    let r = g.result().expect("the game is over");
    assert_eq!((r.winners.clone(), r.reason.as_str()), (vec![], "deck_out"));
}

#[test]
fn draws_apart_are_checked_after_each() {
    let mut g = game();
    pick(&mut g, "one after the other");
    // The check ran after the first draw: the first player's deck alone was empty.
    let r = g.result().expect("the game is over");
    assert_eq!(
        (r.winners.clone(), r.reason.as_str()),
        (vec![1], "deck_out")
    );
}
