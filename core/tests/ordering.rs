//! Ordering policies on a made-up game ("Echo"): what makes one trigger batch, priority
//! classes, `once_per_batch` with all of a batch's events, and the order in which replacement
//! effects are offered. Each test selects the policy in the manifest, as a ruleset would.
//!
//! Echo: on your turn you may "mill" (the top two cards of your deck go to the discard, one
//! at a time) or "sacrifice" a card of your board. Cards react to cards reaching a discard.

mod common;

use std::rc::Rc;

use common::{engine_of, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "echo", "name": {"en": "Echo"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "discard", "scope": "player", "visibility": "public", "ordered": true}
  ],
  "categories": ["thing"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "events": ["pinged"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "newest_first", "player_orders": false, "classes": ["burst"]},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "main", "zone": "deck"}, {"name": "board", "zone": "board"}]},
  "scripts": ["echo.lua"]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = { { label = "mill", run = function(ctx)
    for i = 1, 2 do
      local top = ctx:top("deck", p, 1)[1]
      if top then ctx:move(top, "discard", { reason = "mill" }) end
    end
  end } }
  for _, c in ipairs(ctx:cards("board", p)) do
    out[#out + 1] = { label = "sacrifice " .. c.name, card = c,
      run = function(ctx, o) ctx:move(o.card, "discard", { reason = "sacrifice" }) end }
  end
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end

function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end

-- A rule check: a player with two cards in their discard loses.
function discard_full(ctx)
  for p = 1, ctx.players do
    if ctx:count("discard", p) >= 2 then ctx:end_game(ctx:others(p), "discard_full") end
  end
end
function validate_deck(deck) return {} end

-- A reaction to a card reaching a discard: logs which card, as `pinged` with the reactor's
-- tag as its key.
function reaction(tag, priority)
  return { kind = "triggered", on = "moved", priority = priority,
    when = function(ctx, ev) return ev.to == "discard" end,
    operate = function(ctx, args)
      ctx:emit("pinged", { key = tag, card = args.event.card, amount = args.events and #args.events or 0 })
    end }
end
"#;

fn card(id: &str, script: Option<&str>) -> CardDef {
    common::card(id, "thing", serde_json::Value::Null, script)
}

/// A replacement of a move into the discard, sending the card to `zone` instead; `mine`
/// limits it to cards its controller controls, `own` to its own card.
fn redirect(zone: &str, whose: &str) -> String {
    let test = match whose {
        "own" => "op.card == ctx.source",
        "mine" => "op.card.controller == ctx.player",
        _ => "true",
    };
    format!(
        r#"return {{ {{ kind = "replacement", replaces = "move",
           applies = function(ctx, op) return op.zone == "discard" and {test} end,
           replace = function(ctx, op) op.zone = "{zone}"; return op end }} }}"#
    )
}

fn engine(tweak: impl FnOnce(&mut serde_json::Value)) -> Rc<Engine> {
    engine_with_spares(tweak, 0)
}

/// The engine with `spares` more cards that no deck holds, each with a reaction to moves and
/// a replacement of them, listed after the others (as a mod's cards load after the base).
fn engine_with_spares(tweak: impl FnOnce(&mut serde_json::Value), spares: usize) -> Rc<Engine> {
    let mut cards = vec![
        card("amber", None),
        card("basalt", None),
        card("listener", Some(r#"return { reaction("listener") }"#)),
        card("alarm", Some(r#"return { reaction("alarm", "burst") }"#)),
        card("phoenix", Some(&redirect("hand", "own"))),
        card("aegis", Some(&redirect("hand", "mine"))),
        card("ward", Some(&redirect("deck", "any"))),
        // Sieve: milled cards go to the bottom of the deck instead; its `match` alone says
        // which operations (the kernel tests it; `applies` says yes to all it is asked).
        card(
            "sieve",
            Some(
                r#"return { { kind = "replacement", replaces = "move",
                   match = { reason = "mill", to = "discard", from = "deck" },
                   applies = function(ctx, op) return true end,
                   replace = function(ctx, op) op.zone = "deck"; op.position = "bottom"; return op end } }"#,
            ),
        ),
        // Keeper: uses the card of the event as a table key and looks it up again by the
        // card read from the discard: one object, one handle.
        card(
            "keeper",
            Some(
                r#"return { { kind = "triggered", on = "moved", match = { to = "discard", reason = "mill" },
                   operate = function(ctx, args)
                     local seen = { [args.event.card] = 1 }
                     local pile = ctx:cards("discard", ctx.player)
                     ctx:emit("pinged", { key = "keeper", amount = seen[pile[#pile]] or 0 })
                   end } }"#,
            ),
        ),
        // Miller: reacts to cards milled into its controller's discard, by `match` alone
        // (the kernel tests it; there is no `when`).
        card(
            "miller",
            Some(
                r#"return { { kind = "triggered", on = "moved",
                   match = { to = "discard", reason = "mill", player = "self" },
                   operate = function(ctx, args) ctx:emit("pinged", { key = "miller", card = args.event.card }) end } }"#,
            ),
        ),
        // Martyr: reacts to its own sacrifice, looking back from the discard.
        card(
            "martyr",
            Some(
                r#"return { { kind = "triggered", on = "moved", zones = { "board" },
                   match = { old = "self", reason = "sacrifice" },
                   operate = function(ctx, args) ctx:emit("pinged", { key = "martyr", card = args.event.card }) end } }"#,
            ),
        ),
    ];
    for k in 0..spares {
        let script = format!(
            r#"return {{ reaction("spare {k}"), {{ kind = "replacement", replaces = "move",
               applies = function(ctx, op) return op.zone == "discard" end,
               replace = function(ctx, op) op.zone = "hand"; return op end }} }}"#
        );
        cards.push(card(&format!("spare-{k}"), Some(&script)));
    }
    engine_of(&common::content(
        MANIFEST,
        tweak,
        &[("echo.lua", RULES_LUA)],
        cards,
    ))
}

/// P1's deck (the last id is on top) and board; P2's board.
fn game(e: &Rc<Engine>, deck: &[&str], board: &[&str], theirs: &[&str]) -> Game {
    let list = |main: &[&str], board: &[&str]| {
        let mut d = DeckList::default();
        let section = |ids: &[&str]| ids.iter().map(|c| (c.to_string(), 1)).collect();
        d.sections.insert("main".into(), section(main));
        d.sections.insert("board".into(), section(board));
        d
    };
    Game::new(
        e.clone(),
        GameConfig {
            seed: 1,
            decks: vec![list(deck, board), list(&[], theirs)],
            keep_log: true,
        },
    )
    .expect("game starts")
}

/// The `pinged` events so far: "tag:card" (with "×n" when the ability saw n events).
fn pings(g: &Game) -> Vec<String> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "pinged" => {
                let card = e.card.map(|c| g.card_id(c)).unwrap_or_default();
                let n = if e.amount > 0 {
                    format!("×{}", e.amount)
                } else {
                    String::new()
                };
                Some(format!("{}:{card}{n}", e.key.as_deref().unwrap_or("")))
            }
            _ => None,
        })
        .collect()
}

fn set(raw: &mut serde_json::Value, path: &[&str], v: serde_json::Value) {
    let mut at = raw;
    for k in &path[..path.len() - 1] {
        at = &mut at[*k];
    }
    at[path[path.len() - 1]] = v;
}

#[test]
fn newest_first_per_operation_resolves_the_later_operation_first() {
    // Two operations, two batches: the second one is newest, so it goes first.
    let e = engine(|_| {});
    let mut g = game(&e, &["amber", "basalt"], &["listener"], &[]);
    pick(&mut g, "mill");
    // The top card (basalt) went first; its trigger resolves last.
    assert_eq!(pings(&g), ["listener:amber", "listener:basalt"]);
}

#[test]
fn newest_first_per_resolution_keeps_one_effects_triggers_in_order() {
    // One action that does two things makes one batch: its triggers keep their order.
    let e = engine(|m| set(m, &["triggers", "batch"], "per_resolution".into()));
    let mut g = game(&e, &["amber", "basalt"], &["listener"], &[]);
    pick(&mut g, "mill");
    assert_eq!(pings(&g), ["listener:basalt", "listener:amber"]);
}

#[test]
fn an_earlier_priority_class_resolves_before_older_batches_of_later_classes() {
    let e = engine(|m| {
        set(m, &["triggers", "order"], "fifo_batches".into());
    });
    let mut g = game(&e, &["amber", "basalt"], &["alarm", "listener"], &[]);
    pick(&mut g, "mill");
    // Both alarms (class burst) before either listener, though each mill was its own batch.
    assert_eq!(
        pings(&g),
        [
            "alarm:basalt",
            "alarm:amber",
            "listener:basalt",
            "listener:amber"
        ]
    );
}

#[test]
fn a_priority_no_class_declares_is_a_load_error_naming_the_classes() {
    let errors = load_errors(
        |m| {
            set(
                m,
                &["triggers", "classes"],
                serde_json::json!(["first", "second"]),
            );
        },
        vec![card(
            "alarm",
            Some(r#"return { reaction("alarm", "burst") }"#),
        )],
    );
    assert!(
        errors.contains("unknown priority 'burst'") && errors.contains("first, second"),
        "{errors}"
    );
}

#[test]
fn once_per_batch_resolves_once_with_every_event_of_the_batch() {
    let e = engine(|m| {
        set(m, &["triggers", "batch"], "per_resolution".into());
        set(m, &["triggers", "once_per_batch"], true.into());
    });
    let mut g = game(&e, &["amber", "basalt"], &["listener"], &[]);
    pick(&mut g, "mill");
    // The first event's card, and both events in args.events.
    assert_eq!(pings(&g), ["listener:basalt×2"]);
}

/// The replacement request's options, or "applied" when none was asked.
fn offered(g: &Game) -> (PlayerId, Vec<String>) {
    match g.request().expect("a request") {
        Request::Choose {
            prompt,
            player,
            options,
            ..
        } if prompt == "replacement" => {
            (*player, options.iter().map(|o| o.label.clone()).collect())
        }
        other => panic!("no replacement was offered: {other:?}"),
    }
}

#[test]
fn the_affected_cards_own_replacement_goes_first_by_default() {
    // OP 8-1-3-4-2 style: phoenix's own applies without a question.
    let e = engine(|_| {});
    let mut g = game(&e, &[], &["phoenix", "aegis"], &["ward"]);
    pick(&mut g, "sacrifice phoenix");
    let hand = g.with_state(|st| st.zone(st.zone_id(1, 0)).cards.len());
    assert_eq!(hand, 1, "phoenix went to its owner's hand");
}

#[test]
fn turn_order_offers_the_turn_players_replacements_first() {
    let e = engine(|m| {
        set(
            m,
            &["replacements"],
            serde_json::json!({"order": "turn_order"}),
        )
    });
    let mut g = game(&e, &[], &["phoenix", "aegis"], &["ward"]);
    pick(&mut g, "sacrifice phoenix");
    assert_eq!(
        offered(&g),
        (0, vec!["apply phoenix".into(), "apply aegis".into()])
    );
}

#[test]
fn the_affected_controller_may_choose_among_every_players_replacements() {
    let e = engine(|m| {
        set(
            m,
            &["replacements"],
            serde_json::json!({"order": "affected_controller_chooses"}),
        )
    });
    let mut g = game(&e, &[], &["phoenix", "aegis"], &["ward"]);
    pick(&mut g, "sacrifice phoenix");
    let (p, labels) = offered(&g);
    assert_eq!(p, 0);
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert!(labels.contains(&"apply ward".to_string()), "{labels:?}");
    // Choosing the opponent's sends the card to its owner's deck instead.
    pick(&mut g, "apply ward");
    let deck = g.with_state(|st| st.zone(st.zone_id(0, 0)).cards.len());
    assert_eq!(deck, 1);
}

fn with_check(when: serde_json::Value) -> impl FnOnce(&mut serde_json::Value) {
    move |m| {
        set(
            m,
            &["checks"],
            serde_json::json!([{"name": "full", "when": when, "run": "discard_full", "at": "after_each_operation"}]),
        )
    }
}

#[test]
fn a_check_declared_as_data_is_tested_by_the_kernel_after_each_operation() {
    let e = engine(with_check(serde_json::json!(
        {"from_turn": 1, "any_player": [{"count": "discard", "at_least": 2}]}
    )));
    let mut g = game(&e, &["amber", "basalt", "listener"], &[], &[]);
    pick(&mut g, "mill");
    assert_eq!(
        g.result(),
        Some(GameResult {
            winners: vec![1],
            reason: "discard_full".into()
        })
    );
}

#[test]
fn a_data_check_waits_for_its_first_turn() {
    let e = engine(with_check(serde_json::json!(
        {"from_turn": 2, "any_player": [{"count": "discard", "at_least": 2}]}
    )));
    let mut g = game(&e, &["amber", "basalt", "listener"], &[], &[]);
    pick(&mut g, "mill");
    assert_eq!(g.result(), None, "turn 1: not yet");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    // Turn 3: the next operation is tested (checks follow operations, not turns).
    pick(&mut g, "mill");
    assert_eq!(g.result().map(|r| r.winners), Some(vec![1]));
}

#[test]
fn a_data_check_must_name_what_it_counts() {
    let errors = load_errors(
        |m| {
            with_check(
                serde_json::json!({"any_player": [{"count": "grave", "at_least": 1}, {"at_most": 0}]}),
            )(m);
        },
        vec![],
    );
    assert!(
        errors.contains("check 'full'") && errors.contains("grave"),
        "{errors}"
    );
}

#[test]
fn a_triggered_abilitys_match_is_tested_by_the_kernel_without_a_when() {
    let e = engine(|m| set(m, &["triggers", "order"], "fifo_batches".into()));
    let mut g = game(
        &e,
        &["amber", "basalt"],
        &["miller", "martyr", "listener"],
        &[],
    );
    pick(&mut g, "mill");
    pick(&mut g, "sacrifice listener");
    pick(&mut g, "sacrifice martyr");
    // The miller saw the two milled cards (reason mill), not the sacrifices; the martyr saw
    // only its own sacrifice (old = self), from where it left.
    let mine: Vec<String> = pings(&g)
        .into_iter()
        .filter(|p| !p.starts_with("listener"))
        .collect();
    assert_eq!(mine, ["miller:basalt", "miller:amber", "martyr:martyr"]);
}

#[test]
fn a_match_with_an_unknown_zone_or_key_is_a_load_error() {
    let errors = load_errors(
        |m| {
            set(m, &["players", "max"], 2.into());
        },
        vec![
            card(
                "lost",
                Some(
                    r#"return { { kind = "triggered", on = "moved", match = { to = "grave" }, operate = function() end } }"#,
                ),
            ),
            card(
                "vague",
                Some(
                    r#"return { { kind = "triggered", on = "moved", match = { colour = "red" }, operate = function() end } }"#,
                ),
            ),
        ],
    );
    assert!(
        errors.contains("match.to") && errors.contains("grave"),
        "{errors}"
    );
    assert!(errors.contains("match.colour"), "{errors}");
}

#[test]
fn a_replacements_match_is_tested_by_the_kernel_before_its_applies() {
    let e = engine(|_| {});
    let mut g = game(&e, &["amber", "basalt"], &["sieve", "listener"], &[]);
    pick(&mut g, "mill");
    let (deck, discard) = g.with_state(|st| {
        (
            st.zone(st.zone_id(0, 0)).cards.len(),
            st.zone(st.zone_id(3, 0)).cards.len(),
        )
    });
    assert_eq!(
        (deck, discard),
        (2, 0),
        "both milled cards went back under the deck"
    );
    pick(&mut g, "sacrifice listener");
    let discard = g.with_state(|st| st.zone(st.zone_id(3, 0)).cards.len());
    assert_eq!(discard, 1, "a sacrifice is no mill: not replaced");
}

#[test]
fn one_card_object_is_one_handle_for_scripts_so_it_can_key_a_table() {
    let e = engine(|m| set(m, &["triggers", "order"], "fifo_batches".into()));
    let mut g = game(&e, &["amber"], &["keeper"], &[]);
    pick(&mut g, "mill");
    assert_eq!(pings(&g), ["keeper:×1"]);
}

/// The load errors of Echo with `tweak` applied to its manifest and only `cards`, as one text.
fn load_errors(tweak: impl FnOnce(&mut serde_json::Value), cards: Vec<CardDef>) -> String {
    common::load_errors(&common::content(
        MANIFEST,
        tweak,
        &[("echo.lua", RULES_LUA)],
        cards,
    ))
}

/// Plays a game that triggers, replaces and looks back: its log.
fn a_game_with_triggers_and_replacements(e: &Rc<Engine>) -> Vec<Entry> {
    let mut g = game(
        e,
        &["amber", "basalt", "amber"],
        &["listener", "keeper", "miller", "martyr", "sieve"],
        &["alarm", "aegis"],
    );
    pick(&mut g, "mill");
    pick(&mut g, "sacrifice martyr");
    g.log()
}

#[test]
fn cards_no_deck_holds_change_nothing_and_are_never_loaded() {
    // With 40 spare cards, each listening to the same event as the game's cards, the
    // kernel walks the game's cards instead of the content's: the same abilities in the same
    // order, and no spare is loaded (each would have been looked at to be skipped).
    let alone = a_game_with_triggers_and_replacements(&engine(|_| {}));
    let e = engine_with_spares(|_| {}, 40);
    let with_spares = a_game_with_triggers_and_replacements(&e);
    assert!(
        alone
            .iter()
            .any(|e| matches!(e, Entry::Event(e) if e.name == "pinged")),
        "the game triggers abilities"
    );
    assert_eq!(format!("{alone:?}"), format!("{with_spares:?}"));
    assert!(
        e.loaded_cards().all(|c| !c.starts_with("spare")),
        "a spare was loaded: {:?}",
        e.loaded_cards().collect::<Vec<_>>()
    );
}

#[test]
fn a_games_card_list_holds_exactly_the_cards_it_made_objects_of() {
    let e = engine_with_spares(|_| {}, 40);
    let mut g = game(&e, &["amber", "basalt"], &["listener", "martyr"], &["ward"]);
    pick(&mut g, "mill");
    g.with_state(|st| {
        let mut made: Vec<u32> = (0..g.object_count() as u32)
            .map(|i| st.obj(ObjId(i)).definition)
            .collect();
        made.sort_unstable();
        made.dedup();
        assert_eq!(st.present.cards(), made);
        for c in 0..e.card_ids().count() as u32 + 5 {
            assert_eq!(st.has_card(c), made.contains(&c), "card {c}");
        }
    });
}

#[test]
fn a_reload_that_gives_a_games_card_a_trigger_is_seen_with_spares_loaded() {
    // The game's card list names cards by index, which a reload keeps: the walk reads the
    // new version's abilities.
    let e = engine_with_spares(|_| {}, 40);
    let mut g = game(&e, &["amber", "basalt"], &["basalt"], &[]);
    let reacting = card("basalt", Some(r#"return { reaction("basalt") }"#));
    e.reload(&[CardChange::Set {
        def: reacting,
        version: "2".into(),
    }])
    .expect("reloads");
    assert!(g.follow_reloads());
    pick(&mut g, "mill");
    assert_eq!(pings(&g), ["basalt:amber", "basalt:basalt"]);
}
