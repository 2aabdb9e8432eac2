//! First-class continuous effects on a made-up game ("Hex"): every effect has a handle;
//! effects carry tags the ruleset declares and may be uncancellable; scripts list them by
//! target, source, tag or controller and end them by handle.
//!
//! Hex: on your turn you may "curse" the opposing board (power −1, tagged `curse`), "bless" your own (+1, tagged `blessing`, uncancellable), or "cleanse" the
//! curses on your cards (ending every cancellable effect tagged `curse` on them).

mod common;

use common::{deck, engine_of, new_game, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "hex", "name": {"en": "Hex"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true}
  ],
  "categories": ["thing"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "events": ["counted"],
  "durations": ["end_of_turn"],
  "effect_tags": ["curse", "blessing"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}, {"name": "end", "run": "end_phase"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}]},
  "scripts": ["hex.lua"]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end
function end_phase(ctx) ctx:expire("end_of_turn", ctx.turn_player) end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

function main_actions(ctx)
  local p = ctx.turn_player
  local foe = ctx:others(p)[1]
  return {
    { label = "curse", run = function(ctx)
        local handles = ctx:modify(ctx:cards("board", foe), { char = "power", op = "add", value = -1 },
          { tag = "curse" })
        ctx:emit("counted", { key = "handles", amount = #handles })
      end },
    { label = "bless", run = function(ctx)
        ctx:modify(ctx:cards("board", p), { char = "power", op = "add", value = 1 },
          { tag = "blessing", uncancellable = true })
      end },
    { label = "cleanse", run = function(ctx)
        local ended = 0
        for _, c in ipairs(ctx:cards("board", p)) do
          for _, e in ipairs(ctx:effects({ target = c })) do
            if ctx:end_effect(e.handle) then ended = ended + 1 end
          end
        end
        ctx:emit("counted", { key = "ended", amount = ended })
      end },
    { label = "hex", run = function(ctx)
        -- Power −1 on the opposing board for three of its owner's end phases.
        ctx:modify(ctx:cards("board", foe), { char = "power", op = "add", value = -1 },
          { ["until"] = "end_of_turn", player = foe, times = 3, tag = "curse" })
      end },
    { label = "hasten", run = function(ctx)
        -- Your end of turn counts as passed twice more for your own effects.
        ctx:expire("end_of_turn", p, 2)
      end },
    { label = "shift hex", run = function(ctx)
        -- Moves the hexes on the opposing oak to the opposing elm, their turns left kept.
        local oak, elm = ctx:cards("board", foe)[1], ctx:cards("board", foe)[2]
        for _, e in ipairs(ctx:effects({ target = oak, tag = "curse" })) do
          ctx:emit("counted", { key = "left", amount = e.times or 0 })
          if ctx:end_effect(e.handle) then
            ctx:with({ source = e.source, player = e.controller }):modify(elm,
              { char = e.char, op = e.op, value = e.value }, e.duration)
          end
        end
      end },
    { label = "wither oak", run = function(ctx)
        -- The opposing oak counts as two of its owner's ends passed; the elm does not.
        ctx:expire("end_of_turn", { card = ctx:cards("board", foe)[1], player = foe }, 2)
      end },
    { label = "wither nothing", run = function(ctx) ctx:expire("end_of_turn", { player = foe }) end },
    { label = "count curses", run = function(ctx)
        ctx:emit("counted", { key = "curses", amount = #ctx:effects({ tag = "curse" }) })
        ctx:emit("counted", { key = "mine", amount = #ctx:effects({ controller = p }) })
      end },
    { label = "end turn", ends_phase = true },
  }
end
"#;

fn content(manifest: &str) -> Content {
    let thing = |id: &str| common::card(id, "thing", serde_json::json!({"power": 3}), None);
    common::content(
        manifest,
        |_| {},
        &[("hex.lua", RULES_LUA)],
        vec![thing("oak"), thing("elm")],
    )
}

fn game() -> Game {
    let e = engine_of(&content(MANIFEST));
    let board = || deck("board", &[("oak", 1), ("elm", 1)]);
    new_game(&e, 1, vec![board(), board()])
}

/// The last `counted` event with this key.
fn counted(g: &Game, key: &str) -> i64 {
    g.log()
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Event(e) if e.name == "counted" && e.key.as_deref() == Some(key) => {
                Some(e.amount)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no count '{key}'"))
}

fn powers(g: &Game, p: PlayerId) -> Vec<i64> {
    g.view(p)
        .zones
        .iter()
        .find(|z| z.name == "board" && z.owner == Some(p))
        .expect("board")
        .cards
        .iter()
        .map(|c| c.values.get("power").copied().unwrap_or_default())
        .collect()
}

#[test]
fn an_effect_returns_a_handle_per_target_and_can_be_found_by_tag() {
    let mut g = game();
    pick(&mut g, "curse");
    assert_eq!(
        counted(&g, "handles"),
        2,
        "one handle per card of the opposing board"
    );
    assert_eq!(powers(&g, 1), [2, 2]);
    pick(&mut g, "count curses");
    assert_eq!(counted(&g, "curses"), 2);
    assert_eq!(counted(&g, "mine"), 2, "P1 controls both");
}

#[test]
fn ending_an_effect_by_handle_restores_the_value_but_an_uncancellable_one_stays() {
    let mut g = game();
    pick(&mut g, "curse");
    pick(&mut g, "end turn");
    // P2: cursed (2, 2); bless (+1, uncancellable) then cleanse: the curses end, not the blessing.
    pick(&mut g, "bless");
    assert_eq!(powers(&g, 1), [3, 3]);
    pick(&mut g, "cleanse");
    assert_eq!(
        counted(&g, "ended"),
        2,
        "two curses ended; the two blessings could not be"
    );
    assert_eq!(powers(&g, 1), [4, 4]);
    pick(&mut g, "count curses");
    assert_eq!(counted(&g, "curses"), 0);
}

#[test]
fn an_undeclared_tag_is_an_error_naming_the_declared_ones() {
    let bad = MANIFEST.replace(
        r#""effect_tags": ["curse", "blessing"],"#,
        r#""effect_tags": ["blessing"],"#,
    );
    let e = engine_of(&content(&bad));
    let board = || deck("board", &[("oak", 1)]);
    let mut g = new_game(&e, 1, vec![board(), board()]);
    pick(&mut g, "curse");
    let err = g.errors().last().cloned().unwrap_or_default();
    assert!(err.contains("curse") && err.contains("blessing"), "{err}");
}

#[test]
fn a_count_down_duration_ends_the_nth_time_its_point_passes() {
    let mut g = game();
    pick(&mut g, "hex");
    assert_eq!(powers(&g, 1), [2, 2]);
    pick(&mut g, "end turn"); // P1's end: not P2's point
    pick(&mut g, "end turn"); // P2's end: 1 of 3
    assert_eq!(powers(&g, 1), [2, 2]);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn"); // 2 of 3
    assert_eq!(powers(&g, 1), [2, 2]);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn"); // 3 of 3: ended
    assert_eq!(powers(&g, 1), [3, 3]);
}

#[test]
fn a_point_may_count_as_passed_several_times_at_once() {
    let mut g = game();
    pick(&mut g, "hex");
    pick(&mut g, "end turn");
    // P2 hastens their own end of turn twice, then their end phase passes it once more.
    pick(&mut g, "hasten");
    assert_eq!(powers(&g, 1), [2, 2], "two of three");
    pick(&mut g, "end turn");
    assert_eq!(powers(&g, 1), [3, 3], "the third pass ends it");
}

#[test]
fn an_effect_tells_its_remaining_duration_and_is_recreated_with_it() {
    let mut g = game();
    pick(&mut g, "hex");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn"); // P2's end: 2 of 3 left
    pick(&mut g, "shift hex");
    assert_eq!(counted(&g, "left"), 2, "`times` is the passes left");
    assert_eq!(powers(&g, 1), [3, 1], "both hexes on the elm now");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn"); // 1 left
    assert_eq!(powers(&g, 1), [3, 1]);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn"); // the third of P2's ends since the hex: the moved ones end too
    assert_eq!(powers(&g, 1), [3, 3]);
}

#[test]
fn a_point_may_pass_for_one_cards_effects_only() {
    let mut g = game();
    pick(&mut g, "hex");
    pick(&mut g, "wither oak");
    assert_eq!(powers(&g, 1), [2, 2], "one of three left on the oak");
    let expired = |g: &Game| {
        g.log()
            .iter()
            .filter(|e| matches!(e, Entry::Event(e) if e.name == "expired"))
            .count()
    };
    assert_eq!(expired(&g), 0);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn"); // P2's end: the oak's ends, the elm's has one more to go
    assert_eq!(powers(&g, 1), [3, 2]);
    assert_eq!(expired(&g), 1, "the oak's hex ends with an `expired` event");
}

#[test]
fn passing_a_point_for_a_card_needs_the_card() {
    let mut g = game();
    pick(&mut g, "wither nothing");
    let err = g.errors().last().cloned().unwrap_or_default();
    assert!(err.contains("needs a card"), "{err}");
    assert_eq!(powers(&g, 1), [3, 3], "nothing happened");
}
