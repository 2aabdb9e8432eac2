//! A replacement of the game's end sees who would win and who would lose (`op.winners`,
//! `op.losers`, `op.reason`), so "if you would lose the game, ... instead" binds only its
//! controller's loss (OP RF03-050's form, for any game).
//!
//! The made-up game: each player has a deck and a `keep` zone (public, where the card with
//! the replacement works); a check ends the game when a deck is empty, the players with cards
//! left winning. The turn player draws for both.

mod common;

use common::{card, engine_of, new_game, pick};
use riffle_core::*;

const GAME: &str = r#"{
  "game": "ending", "name": {"en": "Ending"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "keep", "scope": "player", "visibility": "public"}
  ],
  "categories": ["unit"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "game_values": ["saw_winner", "saw_loser", "saw_losers", "saw_deck_out"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "checks": [{"name": "deck_out", "when": "deck_out_due", "run": "deck_out", "at": "after_each_operation"}],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "deck", "zone": "deck"}, {"name": "keep", "zone": "keep"}]},
  "scripts": ["ending.lua"]
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

function main_actions(ctx)
  return {
    { label = "each draws", run = function(ctx)
      for p = 1, 2 do ctx:move(ctx:top("deck", p, 1), "hand", { player = p }) end
    end },
    { label = "end turn", ends_phase = true },
  }
end
"#;

/// "If you would lose the game, you don't": records what it saw, and cancels the end.
const ANCHOR: &str = r#"return { { kind = "replacement", replaces = "end_game", zones = { "keep" },
  applies = function(ctx, op)
    for _, p in ipairs(op.losers) do if p == ctx.player then return true end end
    return false
  end,
  replace = function(ctx, op)
    ctx:set_game_value("saw_winner", op.winners[1] or 0)
    ctx:set_game_value("saw_loser", op.losers[1] or 0)
    ctx:set_game_value("saw_losers", #op.losers)
    ctx:set_game_value("saw_deck_out", op.reason == "deck_out" and 1 or 0)
    return nil
  end } }"#;

/// Player 1 has `p1` cards in their deck, player 2 one; `anchor_of` keeps the Anchor.
fn game(p1: u32, anchor_of: usize) -> Game {
    let e = engine_of(&common::content(
        GAME,
        |_| {},
        &[("ending.lua", RULES)],
        vec![
            card("Ant", "unit", serde_json::json!({ "power": 1 }), None),
            card(
                "Anchor",
                "unit",
                serde_json::json!({ "power": 0 }),
                Some(ANCHOR),
            ),
        ],
    ));
    let mut decks = vec![DeckList::default(), DeckList::default()];
    decks[0]
        .sections
        .insert("deck".into(), [("Ant".to_string(), p1)].into());
    decks[1]
        .sections
        .insert("deck".into(), [("Ant".to_string(), 1)].into());
    decks[anchor_of]
        .sections
        .insert("keep".into(), [("Anchor".to_string(), 1)].into());
    new_game(&e, 1, decks)
}

fn seen(g: &Game) -> Vec<i64> {
    (0..4)
        .map(|i| g.with_state(|st| st.game_values[i]))
        .collect()
}

#[test]
fn the_loser_s_replacement_sees_its_controller_among_the_losers_and_cancels_the_end() {
    // Player 2's deck empties: player 2 would lose, and keeps the Anchor.
    let mut g = game(2, 1);
    pick(&mut g, "each draws");
    assert_eq!(g.result(), None, "the end was replaced");
    assert_eq!(
        seen(&g),
        vec![1, 2, 1, 1],
        "winner 1, loser 2, one loser, deck_out"
    );
}

#[test]
fn the_winner_s_replacement_does_not_apply() {
    // Player 2 would lose; the Anchor is player 1's, who would win: the game ends.
    let mut g = game(2, 0);
    pick(&mut g, "each draws");
    let r = g.result().expect("the game is over");
    assert_eq!(
        (r.winners.clone(), r.reason.as_str()),
        (vec![0], "deck_out")
    );
    assert_eq!(seen(&g), vec![0, 0, 0, 0], "the replacement never ran");
}

#[test]
fn in_a_draw_both_players_are_losers() {
    // After both draws both decks are empty: no winner, both would lose; the Anchor replaces it.
    let mut g = game(1, 0);
    pick(&mut g, "each draws");
    assert_eq!(g.result(), None, "the end was replaced");
    assert_eq!(seen(&g), vec![0, 1, 2, 1], "no winner, losers 1 and 2");
}
