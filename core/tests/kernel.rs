//! Kernel tests on a tiny made-up game ("Sprint"), never a real one: the kernel must work
//! for any ruleset. Sprint: each turn draw a card, then play cards from hand to the board;
//! the first player with total power 10 or more on the board wins; a player who must draw
//! from an empty deck loses.

mod common;

use std::rc::Rc;

use common::{engine_of, labels, load_errors, new_game, pick, with_keywords};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "sprint", "name": {"en": "Sprint"}, "version": "1",
  "players": {"min": 2, "max": 4},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true, "capacity": 3},
    {"name": "discard", "scope": "player", "visibility": "public", "ordered": true, "removes_tokens": true}
  ],
  "categories": ["runner", "gear"],
  "characteristics": [
    {"name": "power", "kind": "int", "min": 0},
    {"name": "tags", "kind": "set"},
    {"name": "keywords", "kind": "set"}
  ],
  "keywords": [{"name": "swift"}],
  "orientations": ["ready", "tired"],
  "counters": ["boost"],
  "flags": ["fresh"],
  "player_values": ["drew_from_empty"],
  "events": ["scored", "double_draw"],
  "timings": ["main"],
  "durations": ["end_of_turn"],
  "attachments": [{"category": "gear", "to": "discard"}],
  "setup": "setup",
  "turn": {"phases": [
    {"name": "draw", "run": "draw_phase"},
    {"name": "main", "actions": "main_actions"},
    {"name": "end", "run": "end_phase"}
  ]},
  "triggers": {"order": "fifo_batches", "player_orders": true},
  "checks": [{"name": "win", "when": "win_due", "run": "win_run", "at": "after_each_operation"}],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck", "rule_abilities": "RULES"},
  "deck": {"sections": [{"name": "main", "zone": "deck"}]},
  "scripts": ["sprint.lua"],
  "limits": {"script_memory": 33554432}
}"#;

const RULES_LUA: &str = r#"
function setup(ctx)
  for p = 1, ctx.players do ctx:shuffle("deck", p) end
  for p = 1, ctx.players do
    for i = 1, 2 do draw(ctx, p) end
  end
end

function draw(ctx, p)
  local top = ctx:top("deck", p, 1)[1]
  if top == nil then ctx:set_value(p, "drew_from_empty", 1) return nil end
  return ctx:move(top, "hand", { reason = "draw" })[1]
end

function draw_phase(ctx) draw(ctx, ctx.turn_player) end

function main_actions(ctx)
  local out = {}
  for _, c in ipairs(ctx:cards("hand", ctx.turn_player)) do
    if c.category == "runner" and ctx:count("board", ctx.turn_player) < 3 then
      out[#out + 1] = { label = "play " .. c.label, kind = "play", card = c,
        run = function(ctx, o) ctx:move(o.card, "board", { reason = "play" }) end }
    elseif c.category == "gear" then
      for _, h in ipairs(ctx:cards("board", ctx.turn_player)) do
        out[#out + 1] = { label = "equip " .. c.name .. " to " .. h.name, kind = "equip", card = c, target = h,
          run = function(ctx, o) ctx:attach(o.card, o.target) end }
      end
    end
  end
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = ctx.turn_player }) do
    out[#out + 1] = { label = "use " .. ab.source.name, kind = "activate", card = ab.source,
      run = function(ctx, o) activate(ctx:with{ source = ab.source }, ab, {}) end }
  end
  out[#out + 1] = { label = "end turn", kind = "end", ends_phase = true }
  return out
end

function end_phase(ctx) ctx:expire("end_of_turn") end

function total(ctx, p)
  local t = 0
  for _, c in ipairs(ctx:cards("board", p)) do t = t + c.power end
  return t
end

function win_due(ctx)
  if ctx.turn == 0 then return false end
  for p = 1, ctx.players do
    if total(ctx, p) >= 10 or ctx:value(p, "drew_from_empty") > 0 then return true end
  end
  return false
end

function win_run(ctx)
  for p = 1, ctx.players do
    if ctx:value(p, "drew_from_empty") > 0 then ctx:eliminate(p, "deck_out") end
  end
  for p = 1, ctx.players do
    if total(ctx, p) >= 10 then ctx:end_game({ p }, "sprint") end
  end
end

function activate(ctx, ab, args)
  local def = ab.def
  if def.once and ctx:uses(ab.source, ab.key) > 0 then return false end
  if def.once then ctx:use(ab.source, ab.key) end
  def.operate(ctx, args)
  return true
end

function validate_deck(deck)
  local n = 0
  for _, c in pairs(deck.main or {}) do n = n + c end
  if n < 4 then return { "a deck needs at least 4 cards" } end
  return {}
end

-- A rule ability: a card with the keyword "swift" gets +1 power.
RULES = {
  { kind = "static", affects = function(ctx, c) return c.zone == "board" and c:has("keywords", "swift") end,
    modify = { { char = "power", op = "add", value = 1 } } },
  -- A rule replacement: a card taken by a "tithe" goes to the discard instead of the hand.
  { kind = "replacement", replaces = "move",
    applies = function(ctx, op) return op.reason == "tithe" and op.zone == "hand" end,
    replace = function(ctx, op) op.zone = "discard" return op end },
}
"#;

fn card(id: &str, category: &str, power: i64, keywords: &[&str], script: Option<&str>) -> CardDef {
    with_keywords(
        common::card(id, category, serde_json::json!({ "power": power }), script),
        keywords,
    )
}

fn content(extra: Vec<CardDef>) -> Content {
    content_with(extra, |_| {})
}

fn content_with(extra: Vec<CardDef>, tweak: impl FnOnce(&mut serde_json::Value)) -> Content {
    let mut cards = vec![
        card("plain", "runner", 2, &[], None),
        card("quick", "runner", 2, &["swift"], None),
        // Scout: when played, its controller draws a card.
        card(
            "scout",
            "runner",
            1,
            &[],
            Some(
                r#"return { { kind = "triggered", on = "moved", zones = {"board"},
               when = function(ctx, ev) return ev.card == ctx.source and ev.to == "board" end,
               operate = function(ctx) draw(ctx, ctx.player) end } }"#,
            ),
        ),
        // Banner: your other board cards get +1 power.
        card(
            "banner",
            "runner",
            1,
            &[],
            Some(
                r#"return { { kind = "static",
               affects = function(ctx, c) return c.zone == "board" and c.controller == ctx.player and c ~= ctx.source end,
               modify = { { char = "power", op = "add", value = 1 } } } }"#,
            ),
        ),
        // Guard: a card of yours that would leave the board to the discard goes to hand instead.
        card(
            "guard",
            "runner",
            0,
            &[],
            Some(
                r#"return { { kind = "replacement", replaces = "move", optional = true,
               applies = function(ctx, op) return op.from == "board" and op.zone == "discard" and op.card.controller == ctx.player end,
               replace = function(ctx, op) op.zone = "hand"; return op end } }"#,
            ),
        ),
        // Coach: once per turn, give a board card +3 power until end of turn.
        card(
            "coach",
            "runner",
            1,
            &[],
            Some(
                r#"return { { kind = "activated", timing = "main", once = true,
               operate = function(ctx)
                 local t = ctx:choose_cards(ctx.player, ctx:cards("board", ctx.player), { prompt = "target" })
                 if t then ctx:modify(t, { char = "power", op = "add", value = 3 }, { ["until"] = "end_of_turn" }) end
               end } }"#,
            ),
        ),
        card("boots", "gear", 0, &[], None),
    ];
    cards.extend(extra);
    common::content(MANIFEST, tweak, &[("sprint.lua", RULES_LUA)], cards)
}

fn engine(extra: Vec<CardDef>) -> Rc<Engine> {
    engine_of(&content(extra))
}

fn deck(cards: &[(&str, u32)]) -> DeckList {
    common::deck("main", cards)
}

/// "bomb": when played, discards every card on its controller's board.
fn bomb() -> CardDef {
    card(
        "bomb",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "triggered", on = "moved", zones = {"board"},
           when = function(ctx, ev) return ev.card == ctx.source end,
           operate = function(ctx) ctx:move(ctx:cards("board", ctx.player), "discard", { reason = "bomb" }) end } }"#,
        ),
    )
}

/// Passes turns until player 1 holds every card of `wanted` (the seed decides the draws).
fn until_in_hand(g: &mut Game, wanted: &[&str]) {
    for _ in 0..5 {
        let hand = zone_cards(g, "hand", 0);
        if wanted.iter().all(|w| hand.iter().any(|h| h == w)) {
            return;
        }
        pick(g, "end turn");
        pick(g, "end turn");
    }
    panic!("{wanted:?} never drawn");
}

fn zone_cards(g: &Game, zone: &str, p: PlayerId) -> Vec<String> {
    let v = g.view(p);
    v.zones
        .iter()
        .find(|z| z.name == zone && z.owner == Some(p))
        .expect("zone")
        .cards
        .iter()
        .map(|c| c.card.clone().unwrap_or_else(|| "?".into()))
        .collect()
}

fn power_of(g: &Game, zone: &str, p: PlayerId, card: &str) -> i64 {
    let v = g.view(p);
    let z = v
        .zones
        .iter()
        .find(|z| z.name == zone && z.owner == Some(p))
        .expect("zone");
    z.cards
        .iter()
        .find(|c| c.card.as_deref() == Some(card))
        .expect("card")
        .values["power"]
}

#[test]
fn setup_draws_and_first_turn_asks_turn_player() {
    let e = engine(vec![]);
    let g = new_game(&e, 1, vec![deck(&[("plain", 6)]), deck(&[("plain", 6)])]);
    assert_eq!(g.turn(), 1);
    assert_eq!(zone_cards(&g, "hand", 0).len(), 3); // 2 in setup + 1 in the draw phase
    assert_eq!(zone_cards(&g, "hand", 1).len(), 2);
    assert_eq!(g.request().unwrap().player(), 0);
}

#[test]
fn views_hide_hands_and_decks() {
    let e = engine(vec![]);
    let g = new_game(&e, 1, vec![deck(&[("plain", 6)]), deck(&[("plain", 6)])]);
    let v = g.view(1);
    let opp_hand = v
        .zones
        .iter()
        .find(|z| z.name == "hand" && z.owner == Some(0))
        .unwrap();
    assert_eq!(opp_hand.count, 3);
    assert!(
        opp_hand
            .cards
            .iter()
            .all(|c| c.id.is_none() && c.card.is_none())
    );
    let own_deck = v
        .zones
        .iter()
        .find(|z| z.name == "deck" && z.owner == Some(1))
        .unwrap();
    assert!(own_deck.cards.iter().all(|c| c.card.is_none()));
    g.check_invariants().unwrap();
    // The opponent is not asked anything.
    assert!(v.request.is_none());
}

#[test]
fn a_spectator_sees_what_every_seat_sees_and_no_hand() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 2, vec![deck(&[("scout", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play scout");
    let v = g.spectator_view();
    assert!(v.spectator);
    assert_eq!(v.viewer, 2, "a spectator has no seat");
    assert!(v.request.is_none(), "a spectator is asked nothing");
    let zone = |name: &str, owner: PlayerId| {
        v.zones
            .iter()
            .find(|z| z.name == name && z.owner == Some(owner))
            .unwrap()
    };
    // The board is public: shown. Hands and decks: their sizes only.
    let board: Vec<_> = zone("board", 0)
        .cards
        .iter()
        .map(|c| c.card.clone())
        .collect();
    assert_eq!(board, [Some("scout".to_string())]);
    for p in 0..2 {
        for name in ["hand", "deck"] {
            let z = zone(name, p);
            assert!(z.count > 0);
            assert!(
                z.cards.iter().all(|c| c.id.is_none() && c.card.is_none()),
                "{z:?}"
            );
        }
    }
    // The log: a card played to the board is named to a spectator; a card drawn, never
    // (its drawer saw it, the other seat did not).
    let moved = |entries: Vec<Entry>, reason: &str| {
        entries
            .into_iter()
            .filter_map(|e| match e {
                Entry::Event(ev) if ev.name == "moved" && ev.reason.as_deref() == Some(reason) => {
                    Some(ev.card.is_some())
                }
                _ => None,
            })
            .collect::<Vec<bool>>()
    };
    assert_eq!(moved(g.spectator_events_from(0), "play"), [true]);
    let drawn = moved(g.spectator_events_from(0), "draw");
    assert!(!drawn.is_empty() && drawn.iter().all(|named| !named));
    assert!(moved(g.events_for(0), "draw").iter().any(|named| *named));
    // Another's decision only as far as every seat saw its cards: the scout, played openly.
    let decisions = g
        .spectator_events_from(0)
        .into_iter()
        .filter(|e| matches!(e, Entry::Decision { .. }))
        .count();
    assert_eq!(decisions, 1);
}

#[test]
fn triggered_ability_resolves_after_the_action() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 2, vec![deck(&[("scout", 6)]), deck(&[("plain", 6)])]);
    let before = zone_cards(&g, "hand", 0).len();
    pick(&mut g, "play scout");
    assert_eq!(zone_cards(&g, "board", 0), vec!["scout"]);
    assert_eq!(
        zone_cards(&g, "hand", 0).len(),
        before - 1 + 1,
        "scout drew a card"
    );
    g.check_invariants().unwrap();
}

#[test]
fn static_abilities_and_rule_abilities_modify_characteristics() {
    let e = engine(vec![]);
    let mut g = new_game(
        &e,
        3,
        vec![deck(&[("banner", 2), ("quick", 4)]), deck(&[("plain", 6)])],
    );
    // Put a quick and a banner on the board.
    while !zone_cards(&g, "board", 0).contains(&"quick".to_string()) {
        pick(&mut g, "play quick");
    }
    assert_eq!(
        power_of(&g, "board", 0, "quick"),
        3,
        "2 printed + 1 swift rule"
    );
    if zone_cards(&g, "hand", 0).contains(&"banner".to_string()) {
        pick(&mut g, "play banner");
        assert_eq!(power_of(&g, "board", 0, "quick"), 4, "+1 from banner");
        assert_eq!(
            power_of(&g, "board", 0, "banner"),
            1,
            "banner does not boost itself"
        );
    }
}

#[test]
fn a_static_ability_that_reads_its_own_change_is_decided_without_it() {
    // Underdog: "+2 power while this card's power is 2 or less". Climber: "+2 power while
    // this card's power is 3 or more". Each condition reads the value the ability changes:
    // it is decided on the card without the ability's own change, so the reads agree
    // (Underdog 2 ≤ 2: applies, 4; Climber 2 < 3: does not, 2), however often they repeat.
    let own = |id: &str, cond: &str| {
        card(
            id,
            "runner",
            2,
            &[],
            Some(&format!(
                r#"return {{ {{ kind = "static", zones = {{"board"}},
                   condition = function(ctx) return ctx.source.power {cond} end,
                   modify = {{ {{ char = "power", op = "add", value = 2 }} }} }} }}"#
            )),
        )
    };
    let e = engine(vec![own("underdog", "<= 2"), own("climber", ">= 3")]);
    let mut g = new_game(
        &e,
        5,
        vec![
            deck(&[("underdog", 1), ("climber", 1), ("plain", 4)]),
            deck(&[("plain", 6)]),
        ],
    );
    until_in_hand(&mut g, &["underdog", "climber"]);
    pick(&mut g, "play underdog");
    pick(&mut g, "play climber");
    for _ in 0..3 {
        assert_eq!(power_of(&g, "board", 0, "underdog"), 4);
        assert_eq!(power_of(&g, "board", 0, "climber"), 2);
    }
}

#[test]
fn effects_with_durations_expire_and_once_per_turn_holds() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 4, vec![deck(&[("coach", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play coach");
    pick(&mut g, "use coach");
    pick(&mut g, "coach"); // the target
    assert_eq!(power_of(&g, "board", 0, "coach"), 4);
    // Once per turn: the ability is offered again but does nothing the second time.
    pick(&mut g, "use coach");
    assert_eq!(power_of(&g, "board", 0, "coach"), 4);
    pick(&mut g, "end turn");
    assert_eq!(
        power_of(&g, "board", 0, "coach"),
        1,
        "expired at end_of_turn"
    );
    // The end is in the log: an `expired` event naming the card, the point and what ended.
    let expired: Vec<(String, Option<String>, Option<String>)> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "expired" => Some((
                g.card_id(e.card.expect("the card it applied to"))
                    .to_string(),
                e.reason.clone(),
                e.key.clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        expired,
        [(
            "coach".to_string(),
            Some("end_of_turn".to_string()),
            Some("power".to_string())
        )]
    );
}

#[test]
fn attachments_follow_the_attachment_rule_when_the_host_leaves() {
    // A script that discards the host: "bomb" discards every card on its controller's board
    // when played.
    let bomb = bomb();
    let e = engine(vec![bomb]);
    let mut g = new_game(
        &e,
        5,
        vec![
            deck(&[("plain", 1), ("boots", 1), ("bomb", 1), ("plain", 3)]),
            deck(&[("plain", 6)]),
        ],
    );
    until_in_hand(&mut g, &["boots", "bomb"]);
    pick(&mut g, "play plain");
    pick(&mut g, "equip boots");
    g.check_invariants().unwrap();
    let v = g.view(0);
    let board = v
        .zones
        .iter()
        .find(|z| z.name == "board" && z.owner == Some(0))
        .unwrap();
    assert_eq!(board.cards[0].attachments.len(), 1);
    pick(&mut g, "play bomb");
    assert!(zone_cards(&g, "board", 0).is_empty());
    let discard = zone_cards(&g, "discard", 0);
    assert!(
        discard.contains(&"boots".to_string()),
        "the attachment went to the discard: {discard:?}"
    );
    g.check_invariants().unwrap();
}

#[test]
fn an_attached_cards_abilities_work_in_its_hosts_zone() {
    // Spurs (gear): "The card this is attached to gets +2 power." Its static ability works
    // only while it is attached in play; in the hand it does nothing.
    let spurs = card(
        "spurs",
        "gear",
        0,
        &[],
        Some(
            r#"return { { kind = "static", zones = {"board"},
               affects = function(ctx, c) return ctx.source.host == c end,
               modify = { { char = "power", op = "add", value = 2 } } } }"#,
        ),
    );
    let e = engine(vec![spurs]);
    let mut g = new_game(
        &e,
        5,
        vec![
            deck(&[("plain", 2), ("spurs", 1), ("plain", 3)]),
            deck(&[("plain", 6)]),
        ],
    );
    until_in_hand(&mut g, &["spurs", "plain"]);
    pick(&mut g, "play plain");
    assert_eq!(
        power_of(&g, "board", 0, "plain"),
        2,
        "spurs in hand: no bonus"
    );
    pick(&mut g, "equip spurs");
    assert_eq!(power_of(&g, "board", 0, "plain"), 4, "attached: +2");
    g.check_invariants().unwrap();
}

#[test]
fn optional_replacement_asks_and_replaces() {
    let bomb = bomb();
    let e = engine(vec![bomb]);
    let mut g = new_game(
        &e,
        6,
        vec![deck(&[("guard", 3), ("bomb", 3)]), deck(&[("plain", 6)])],
    );
    until_in_hand(&mut g, &["guard", "bomb"]);
    pick(&mut g, "play guard");
    pick(&mut g, "play bomb");
    // Bomb discards guard and bomb: guard's replacement is optional, so it asks, per card.
    let req = g.request().unwrap().clone();
    assert_eq!(req.prompt(), "replacement");
    pick(&mut g, "apply guard"); // guard itself goes to hand
    // Guard has left the board, so its replacement no longer applies to bomb: no question.
    assert_eq!(g.request().unwrap().prompt(), "main");
    assert!(zone_cards(&g, "hand", 0).contains(&"guard".to_string()));
    assert!(zone_cards(&g, "discard", 0).contains(&"bomb".to_string()));
    g.check_invariants().unwrap();
}

/// "tithe": use: take the top card of your deck to your hand (reason "tithe"); if a
/// replacement effect replaced that move, emit "scored".
fn tithe() -> CardDef {
    card(
        "tithe",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main", operate = function(ctx)
               local top = ctx:top("deck", ctx.player, 1)[1]
               local _, replaced = ctx:track_replacements(function(c) return c:move(top, "hand", { reason = "tithe" }) end)
               if replaced then ctx:emit("scored") end
             end } }"#,
        ),
    )
}

#[test]
fn card_replacements_come_before_rule_replacements_and_scripts_see_them() {
    // "shelter": a card taken by a tithe goes to the bottom of the deck instead.
    let shelter = card(
        "shelter",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "replacement", replaces = "move",
               applies = function(ctx, op) return op.reason == "tithe" and op.zone == "hand" end,
               replace = function(ctx, op) op.zone = "deck"; op.position = "bottom"; return op end } }"#,
        ),
    );
    let scored = |g: &Game| {
        g.log()
            .iter()
            .filter(|e| matches!(e, Entry::Event(ev) if ev.name == "scored"))
            .count()
    };
    // The rule's replacement alone: the card goes to the discard; the script saw it replaced.
    let e = engine(vec![tithe(), shelter.clone()]);
    let mut g = new_game(&e, 3, vec![deck(&[("tithe", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play tithe");
    let hand = zone_cards(&g, "hand", 0).len();
    pick(&mut g, "use tithe");
    assert_eq!(zone_cards(&g, "discard", 0), vec!["tithe".to_string()]);
    assert_eq!(zone_cards(&g, "hand", 0).len(), hand);
    assert_eq!(scored(&g), 1);
    // A card's replacement comes first, without a question (it is the only card's); the rule's
    // no longer applies to the changed move: the card stays in the deck.
    let mut g = new_game(
        &e,
        3,
        vec![deck(&[("tithe", 3), ("shelter", 3)]), deck(&[("plain", 6)])],
    );
    until_in_hand(&mut g, &["tithe", "shelter"]);
    pick(&mut g, "play tithe");
    pick(&mut g, "play shelter");
    let deck_before = zone_cards(&g, "deck", 0).len();
    pick(&mut g, "use tithe");
    assert_eq!(g.request().unwrap().prompt(), "main");
    assert!(zone_cards(&g, "discard", 0).is_empty());
    assert_eq!(zone_cards(&g, "deck", 0).len(), deck_before);
    assert_eq!(scored(&g), 1);
}

#[test]
fn rule_processing_ends_the_game_in_the_middle_of_a_turn() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 7, vec![deck(&[("plain", 8)]), deck(&[("plain", 8)])]);
    // 5 plains of power 2 = 10 but the board holds 3; use the turn loop until someone wins or
    // the decks run out: each player plays what they can.
    let mut steps = 0;
    while g.result().is_none() {
        let req = g.request().unwrap().clone();
        let Request::Choose {
            options, player, ..
        } = &req
        else {
            panic!()
        };
        let i = options
            .iter()
            .position(|o| o.kind.as_deref() == Some("play"))
            .unwrap_or(options.len() - 1);
        g.respond(
            *player,
            Response::Choose {
                indices: vec![i as u32],
            },
        )
        .unwrap();
        g.check_invariants().unwrap();
        steps += 1;
        assert!(steps < 200);
    }
    // Nobody can reach 10 (3 × 2 = 6), so someone draws from an empty deck and is out.
    let r = g.result().unwrap();
    assert_eq!(r.reason, "deck_out");
    assert_eq!(r.winners.len(), 1);
}

#[test]
fn illegal_responses_change_nothing() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 8, vec![deck(&[("plain", 6)]), deck(&[("plain", 6)])]);
    let hash = g.log_hash();
    assert!(
        g.respond(1, Response::Choose { indices: vec![0] }).is_err(),
        "wrong player"
    );
    assert!(
        g.respond(0, Response::Choose { indices: vec![99] })
            .is_err(),
        "no such option"
    );
    assert!(
        g.respond(0, Response::Number { value: 1 }).is_err(),
        "wrong type"
    );
    assert_eq!(g.log_hash(), hash);
    assert_eq!(g.request().unwrap().player(), 0);
}

fn random_game(e: &Rc<Engine>, seed: u64) -> (String, Option<GameResult>) {
    let mut g = new_game(
        e,
        seed,
        vec![
            deck(&[("scout", 3), ("coach", 2), ("plain", 3)]),
            deck(&[("banner", 2), ("quick", 6)]),
        ],
    );
    let mut rng = Rng::new(seed ^ 0xABCD);
    let mut n = 0;
    while let Some(req) = g.request().cloned() {
        let r = req.random_legal(&mut rng);
        g.respond(req.player(), r).unwrap();
        g.check_invariants().unwrap();
        n += 1;
        assert!(n < 2000);
    }
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    (g.log_hash(), g.result())
}

#[test]
fn same_seed_same_log() {
    let e = engine(vec![]);
    for seed in 0..20 {
        let a = random_game(&e, seed);
        let b = random_game(&e, seed);
        assert_eq!(a, b);
        assert!(a.1.is_some());
    }
    assert_ne!(random_game(&e, 1).0, random_game(&e, 2).0);
}

#[test]
fn fork_behaves_the_same_when_answered_the_same() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 11, vec![deck(&[("coach", 8)]), deck(&[("plain", 8)])]);
    pick(&mut g, "play coach");
    pick(&mut g, "use coach");
    // Mid-ability: a coroutine is suspended (the target choice). Fork replays.
    let mut f = g.fork();
    assert_eq!(f.request(), g.request());
    pick(&mut g, "coach");
    pick(&mut f, "coach");
    assert_eq!(g.log_hash(), f.log_hash());
    // At a quiescent point the fork is a clone; the two then diverge independently.
    let mut f2 = g.fork();
    pick(&mut f2, "end turn");
    assert_ne!(g.log_hash(), f2.log_hash());
    assert_eq!(g.request().unwrap().player(), 0);
}

#[test]
fn three_and_four_seats_take_turns_in_order() {
    let e = engine(vec![]);
    for n in [3usize, 4] {
        let mut g = new_game(&e, 12, (0..n).map(|_| deck(&[("plain", 8)])).collect());
        for expect in 0..n {
            assert_eq!(g.request().unwrap().player() as usize, expect);
            pick(&mut g, "end turn");
        }
    }
}

/// Plays the card `bad` (with script `src`) and returns the script errors, and the result
/// if the game ended.
fn hostile(src: &str) -> (Vec<String>, Option<riffle_core::GameResult>) {
    let bad = card("bad", "runner", 0, &[], Some(src));
    let e = engine(vec![bad]);
    let mut g = new_game(&e, 13, vec![deck(&[("bad", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play bad");
    g.check_invariants().unwrap();
    // A separate game afterwards, in the same process and on the same engine, is unaffected.
    let mut after = new_game(&e, 14, vec![deck(&[("plain", 6)]), deck(&[("plain", 6)])]);
    pick(&mut after, "end turn");
    assert!(after.errors().is_empty(), "{:?}", after.errors());
    assert!(after.request().is_some());
    (g.errors().to_vec(), g.result())
}

const ON_PLAY: &str = r#"return { { kind = "triggered", on = "moved", zones = {"board"},
   when = function(ctx, ev) return ev.card == ctx.source end, operate = function(ctx) BODY end } }"#;

#[test]
fn hostile_scripts_are_stopped_with_an_error_naming_the_card() {
    let cases = [
        ("while true do end", "budget"),
        (
            "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1e6) end",
            "memory",
        ),
        ("local function f(n) return f(n + 1) + 1 end f(1)", "stack"),
    ];
    for (body, what) in cases {
        let (errors, result) = hostile(&ON_PLAY.replace("BODY", body));
        // Exhausting the game's memory ends that game (limits.memory_exhausted: a draw by
        // default); every other failure abandons the ability and the game goes on.
        match what {
            "memory" => assert_eq!(
                result.as_ref().map(|r| r.reason.as_str()),
                Some("script_memory"),
                "{errors:?}"
            ),
            _ => assert_eq!(result, None, "{what}: {errors:?}"),
        }
        assert_eq!(errors.len(), 1, "{what}: {errors:?}");
        assert!(
            errors[0].contains("bad"),
            "{what}: the error names the card: {}",
            errors[0]
        );
        assert!(
            errors[0].contains("cards/bad.lua"),
            "{what}: and the file: {}",
            errors[0]
        );
    }
}

#[test]
fn an_error_quoting_a_huge_value_is_cut_and_says_its_size() {
    // A megabyte event name: the kernel's "unknown event" error quotes it.
    let (errors, result) =
        hostile(&ON_PLAY.replace("BODY", "ctx:emit(string.rep('x', 1000000), {})"));
    assert_eq!(result, None, "{errors:?}");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert!(e.len() < 2300, "{} bytes", e.len());
    assert!(
        e.contains("card bad") && e.contains("bytes in all]"),
        "{}",
        &e[..200.min(e.len())]
    );
}

#[test]
fn a_search_of_a_deck_of_many_cards_is_not_cut_by_the_options_limit() {
    // Played, it asks its controller to choose any card of their deck: 1,500 options.
    let search = card(
        "search",
        "runner",
        0,
        &[],
        Some(&ON_PLAY.replace(
            "BODY",
            "ctx:choose_cards(ctx.player, ctx:cards('deck', ctx.player), { prompt = 'search' })",
        )),
    );
    let e = engine(vec![search]);
    let mut g = new_game(
        &e,
        13,
        vec![deck(&[("search", 1502)]), deck(&[("plain", 6)])],
    );
    pick(&mut g, "play search");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    assert_eq!(
        labels(&g).len(),
        1499,
        "the deck, the played one and the hand left out"
    );
    // A script alone cannot make a small game hold more: 5,000 options among 12 cards.
    let (errors, _) = hostile(&ON_PLAY.replace(
        "BODY",
        "local o = {} for i = 1, 5000 do o[i] = ctx.source end ctx:choose_cards(ctx.player, o, {})",
    ));
    assert!(
        errors
            .iter()
            .any(|e| e.contains("5000 options in one request; the limit is 1000")),
        "{errors:?}"
    );
}

#[test]
fn a_failing_ability_is_off_for_the_rest_of_the_game_and_said_once() {
    // An activated ability that fails: offered until it fails, then never again.
    let bad = card(
        "bad",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main", operate = function(ctx) error("broken") end } }"#,
        ),
    );
    let e = engine(vec![bad]);
    let mut g = new_game(&e, 13, vec![deck(&[("bad", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play bad");
    pick(&mut g, "use bad");
    assert_eq!(g.errors().len(), 1, "{:?}", g.errors());
    assert!(
        g.errors()[0].contains("broken") && g.errors()[0].contains("off for the rest of the game"),
        "{:?}",
        g.errors()
    );
    assert!(
        !labels(&g).iter().any(|l| l == "use bad"),
        "{:?}",
        labels(&g)
    );
    // Another copy has the same ability: off too.
    pick(&mut g, "play bad");
    assert!(
        !labels(&g).iter().any(|l| l == "use bad"),
        "{:?}",
        labels(&g)
    );
    g.check_invariants().unwrap();

    // A triggered ability that fails triggers no more: one error for two copies played.
    let (errors, result) = hostile(&ON_PLAY.replace("BODY", "error('boom')"));
    assert_eq!(result, None);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let trig = card(
        "bad",
        "runner",
        0,
        &[],
        Some(&ON_PLAY.replace("BODY", "error('boom')")),
    );
    let e = engine(vec![trig]);
    let mut g = new_game(&e, 13, vec![deck(&[("bad", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play bad");
    pick(&mut g, "play bad");
    assert_eq!(g.errors().len(), 1, "{:?}", g.errors());
}

#[test]
fn running_out_of_memory_in_an_activated_ability_is_its_owners_loss() {
    // The failure happens in the action the ruleset runs ("use bad" calls `activate`, which
    // calls the card's `operate`): the frame is the ruleset's, the card is the one at fault.
    let bad = card(
        "bad",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main", operate = function(ctx)
               local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1e6) end end } }"#,
        ),
    );
    let e = engine_of(&content_with(vec![bad], |m| {
        m["limits"]["memory_exhausted"] = serde_json::json!("owner_loses");
    }));
    let mut g = new_game(&e, 13, vec![deck(&[("bad", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play bad");
    pick(&mut g, "use bad");
    let r = g.result().expect("the game ended");
    assert_eq!(
        (r.winners.clone(), r.reason.as_str()),
        (vec![1], "script_memory"),
        "{:?}",
        g.errors()
    );
    assert!(
        g.errors().iter().any(|m| m.contains("card bad")),
        "{:?}",
        g.errors()
    );
}

#[test]
fn escapes_through_removed_globals_are_refused_when_the_card_loads() {
    // Read inside a function body no game may reach: the name is a global nothing defines.
    for name in ["io", "os", "require", "load", "getfenv"] {
        let bad = card(
            "bad",
            "runner",
            0,
            &[],
            Some(&ON_PLAY.replace("BODY", &format!("\n  {name}('x')"))),
        );
        let text = load_errors(&content(vec![bad]));
        assert!(
            text.contains(&format!("cards/bad.lua:3:3: unknown name '{name}'"))
                && text.contains("(card bad)"),
            "{name}: {text}"
        );
    }
    // A removed field of a library that stays (the seeded RNG is the kernel's: ctx:random).
    let bad = card(
        "bad",
        "runner",
        0,
        &[],
        Some(&ON_PLAY.replace("BODY", "\n  local x = math.random(1, 2)")),
    );
    let text = load_errors(&content(vec![bad]));
    assert!(
        text.contains(
            "cards/bad.lua:3:18: unknown name 'math.random' ('math' has no field 'random')"
        ) && text.contains("(card bad)"),
        "{text}"
    );
}

#[test]
fn load_errors_name_file_card_and_line() {
    let broken = card(
        "broken",
        "runner",
        0,
        &[],
        Some("return {\n  { kind = 'triggered', on = 'nonsense' },\n}"),
    );
    let syntax = card(
        "syntax",
        "runner",
        0,
        &[],
        Some("return {\n\n  { kind = \n"),
    );
    let Err(errors) = Engine::new(&content(vec![broken, syntax])) else {
        panic!("should fail")
    };
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("unknown event 'nonsense'") && t.contains("broken")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("cards/syntax.lua:") && t.contains("syntax")),
        "{text:?}"
    );
}

#[test]
fn deck_validation_uses_the_ruleset_hook() {
    let e = engine(vec![]);
    assert!(e.validate_deck(&deck(&[("plain", 6)])).is_empty());
    assert_eq!(
        e.validate_deck(&deck(&[("plain", 2)])),
        vec!["a deck needs at least 4 cards"]
    );
}

#[test]
fn a_cards_deck_limits_come_from_the_ruleset_hook() {
    // Without the hook there is nothing to tell.
    assert_eq!(
        engine(vec![]).card_legality("plain", &Options::new()),
        Ok(None)
    );
    let with_hook = |lua: &str| {
        let mut c = content_with(vec![], |m| {
            m["hooks"]["card_legality"] = "legality".into();
        });
        c.ruleset.scripts[0].text.push_str(lua);
        Engine::new(&c)
    };
    let e = with_hook(
        r#"
function legality(id)
  if id == "boots" then return { copies = 1, by = "name", banned = true, note = "rule 7" } end
  return { copies = 3 }
end"#,
    )
    .unwrap();
    let boots = e.card_legality("boots", &Options::new()).unwrap().unwrap();
    assert_eq!(
        boots,
        CardLegality {
            copies: Some(1),
            by: CountedBy::Name,
            banned: true,
            note: Some("rule 7".into())
        }
    );
    let plain = e.card_legality("plain", &Options::new()).unwrap().unwrap();
    assert_eq!(
        (plain.copies, plain.by, plain.banned),
        (Some(3), CountedBy::Id, false)
    );
    let unknown = e.card_legality("nobody", &Options::new()).unwrap_err();
    assert!(unknown.contains("no card nobody"), "{unknown}");
    // An answer in another shape is an error naming the hook and the card, not a guess.
    let e = with_hook("function legality(id) return { copies = -1 } end").unwrap();
    let err = e.card_legality("plain", &Options::new()).unwrap_err();
    assert!(err.starts_with("legality(plain): `copies`"), "{err}");
    let e = with_hook("function legality(id) return { limit = 2 } end").unwrap();
    let err = e.card_legality("plain", &Options::new()).unwrap_err();
    assert!(err.contains("unknown key `limit`"), "{err}");
    // A hook the manifest names must exist.
    let missing = match with_hook("") {
        Ok(_) => panic!("loaded without the hook's function"),
        Err(es) => es
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    assert!(missing.contains("legality"), "{missing}");
}

#[test]
fn tokens_stop_existing_when_they_leave_play() {
    let mint = card(
        "mint",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "triggered", on = "moved", zones = {"board"},
           when = function(ctx, ev) return ev.card == ctx.source end,
           operate = function(ctx)
             local t = ctx:create_token("plain", "board", ctx.player)
             ctx:move(t, "discard", { reason = "test" })
           end } }"#,
        ),
    );
    let e = engine(vec![mint]);
    let mut g = new_game(&e, 21, vec![deck(&[("mint", 6)]), deck(&[("plain", 6)])]);
    let before = g.object_count();
    pick(&mut g, "play mint");
    assert!(g.object_count() > before);
    assert!(
        zone_cards(&g, "discard", 0).is_empty(),
        "the token ceased instead of staying in the discard"
    );
    assert!(
        g.log()
            .iter()
            .any(|e| matches!(e, Entry::Event(ev) if ev.name == "ceased"))
    );
    g.check_invariants().unwrap();
}

const MENTOR: &str = r#"
local boost = { kind = "activated", timing = "main", dormant = true,
  operate = function(ctx) ctx:modify(ctx.source, { char = "power", op = "add", value = 2 }, { ["until"] = "end_of_turn" }) end }
return {
  { kind = "triggered", on = "moved", zones = {"board"},
    when = function(ctx, ev) return ev.card == ctx.source end,
    operate = function(ctx)
      for _, c in ipairs(ctx:cards("board", ctx.player)) do
        if c ~= ctx.source then ctx:grant_ability(boost, c, { ["until"] = "end_of_turn" }) end
      end
    end },
  boost,
}"#;

#[test]
fn granted_abilities_work_on_their_host_until_they_expire() {
    let e = engine(vec![card("mentor", "runner", 1, &[], Some(MENTOR))]);
    let mut g = new_game(
        &e,
        22,
        vec![deck(&[("plain", 3), ("mentor", 3)]), deck(&[("plain", 6)])],
    );
    until_in_hand(&mut g, &["plain", "mentor"]);
    pick(&mut g, "play plain");
    // The dormant ability is not the mentor's own, and plain has none yet.
    assert!(!labels(&g).iter().any(|l| l.starts_with("use")));
    pick(&mut g, "play mentor");
    pick(&mut g, "use plain");
    assert_eq!(power_of(&g, "board", 0, "plain"), 4);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    assert!(
        !labels(&g).iter().any(|l| l.starts_with("use")),
        "the grant expired: {:?}",
        labels(&g)
    );
}

const TIMER: &str = r#"
local later = { kind = "triggered", on = "turn_ended", dormant = true,
  operate = function(ctx) draw(ctx, ctx.player) end }
return {
  { kind = "triggered", on = "moved", zones = {"board"},
    when = function(ctx, ev) return ev.card == ctx.source end,
    operate = function(ctx) ctx:delay(later) end },
  later,
}"#;

#[test]
fn delayed_abilities_fire_once_at_their_event() {
    let e = engine(vec![card("timer", "runner", 1, &[], Some(TIMER))]);
    let mut g = new_game(&e, 23, vec![deck(&[("timer", 8)]), deck(&[("plain", 8)])]);
    pick(&mut g, "play timer");
    let hand = zone_cards(&g, "hand", 0).len();
    pick(&mut g, "end turn"); // turn ends: the delayed draw happens once
    assert_eq!(zone_cards(&g, "hand", 0).len(), hand + 1);
    pick(&mut g, "end turn"); // opponent's turn ends: nothing more
    // Our draw phase drew one more: hand + 2, not + 3.
    assert_eq!(zone_cards(&g, "hand", 0).len(), hand + 2);
}

const WATCHER: &str = r#"return { { kind = "triggered", on = "moved", zones = {"board"},
   when = function(ctx, ev) return ev.reason == "draw" and ev.to == "hand" and ev.to_player == ctx.player end,
   operate = function(ctx) ctx:emit("double_draw", {}) end } }"#;

const DOUBLE: &str = r#"return { { kind = "activated", timing = "main",
   operate = function(ctx) ctx:together(function(ctx) draw(ctx, ctx.player); draw(ctx, ctx.player) end) end } }"#;

fn watcher_game(once_per_batch: bool) -> Game {
    let c = content_with(
        vec![
            card("watcher", "runner", 0, &[], Some(WATCHER)),
            card("double", "runner", 0, &[], Some(DOUBLE)),
        ],
        |m| m["triggers"]["once_per_batch"] = serde_json::json!(once_per_batch),
    );
    let e = engine_of(&c);
    let mut b = Builder::new(e, 2, 1).unwrap();
    for _ in 0..6 {
        b.place(0, "deck", "plain", &Place::default()).unwrap();
        b.place(1, "deck", "plain", &Place::default()).unwrap();
    }
    b.place(0, "board", "watcher", &Place::default()).unwrap();
    b.place(0, "board", "double", &Place::default()).unwrap();
    b.start(2, 0, "main").unwrap()
}

#[test]
fn together_makes_one_batch_and_players_order_their_triggers() {
    let mut g = watcher_game(false);
    pick(&mut g, "use double");
    // Two draws in one group: the watcher triggered twice in one batch, so its controller
    // orders them.
    assert_eq!(g.request().unwrap().prompt(), "order_triggers");
    pick(&mut g, "watcher");
    assert_eq!(g.request().unwrap().prompt(), "main");
    let emitted = g
        .log()
        .iter()
        .filter(|e| matches!(e, Entry::Event(ev) if ev.name == "double_draw"))
        .count();
    assert_eq!(emitted, 2);
}

#[test]
fn once_per_batch_policy_triggers_an_ability_once() {
    let mut g = watcher_game(true);
    pick(&mut g, "use double");
    assert_eq!(g.request().unwrap().prompt(), "main");
    let emitted = g
        .log()
        .iter()
        .filter(|e| matches!(e, Entry::Event(ev) if ev.name == "double_draw"))
        .count();
    assert_eq!(emitted, 1);
}

/// Tidy: every kernel source file opens with a `//!` doc saying what it owns.
#[test]
fn every_kernel_source_file_opens_with_a_module_doc() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 10);
    let missing: Vec<_> = files
        .iter()
        .filter(|p| !std::fs::read_to_string(p).unwrap().starts_with("//!"))
        .collect();
    assert!(
        missing.is_empty(),
        "files without a //! header: {missing:?}"
    );
}

// Suppression ("its abilities are negated"): a ruleset names a set characteristic and a
// name; while a card has it, its printed abilities and those it gained before do nothing.

/// Hush: silences the named cards of your board until end of turn.
const HUSH: &str = r#"return { { kind = "activated", timing = "main",
   operate = function(ctx)
     for _, c in ipairs(ctx:cards("board", ctx.player)) do
       if c.name ~= "hush" and c.name ~= "tutor" and c.name ~= "tally" then
         ctx:modify(c, { char = "status", op = "grant", value = "silenced" }, { ["until"] = "end_of_turn" })
       end
     end
   end } }"#;

/// Hushall: silences your plain cards until end of turn, including what they gain later.
const HUSHALL: &str = r#"return { { kind = "activated", timing = "main",
   operate = function(ctx)
     for _, c in ipairs(ctx:cards("board", ctx.player)) do
       if c.name == "plain" then
         ctx:modify(c, { char = "status", op = "grant", value = "silenced_all" }, { ["until"] = "end_of_turn" })
       end
     end
   end } }"#;

/// Tutor: your plain cards gain "swift" and a +2 power activated ability until end of turn.
const TUTOR: &str = r#"
local boost = { kind = "activated", timing = "main", dormant = true,
  operate = function(ctx) ctx:modify(ctx.source, { char = "power", op = "add", value = 2 }, { ["until"] = "end_of_turn" }) end }
return {
  { kind = "activated", timing = "main",
    operate = function(ctx)
      for _, c in ipairs(ctx:cards("board", ctx.player)) do
        if c.name == "plain" then
          ctx:modify(c, { char = "keywords", op = "grant", value = "swift" }, { ["until"] = "end_of_turn" })
          ctx:grant_ability(boost, c, { ["until"] = "end_of_turn" })
        end
      end
    end },
  boost,
}"#;

/// Tally: +1 power for each card of your board that prints no ability; silenced cards
/// still print theirs.
const TALLY: &str = r#"return { { kind = "static",
   modify = { { char = "power", op = "add", value = function(ctx, c)
     local n = 0
     for _, x in ipairs(ctx:cards("board", ctx.player)) do
       if x.printed_abilities == 0 then n = n + 1 end
     end
     return n
   end } } } }"#;

/// Cheer: when another card enters your board, draw a card.
const CHEER: &str = r#"return { { kind = "triggered", on = "moved", zones = {"board"},
   when = function(ctx, ev) return ev.to == "board" and ev.card ~= ctx.source and ev.to_player == ctx.player end,
   operate = function(ctx) draw(ctx, ctx.player) end } }"#;

/// Hushcry: when another card enters your board, silence your other board cards this turn.
const HUSHCRY: &str = r#"return { { kind = "triggered", on = "moved", zones = {"board"},
   when = function(ctx, ev) return ev.to == "board" and ev.card ~= ctx.source and ev.to_player == ctx.player end,
   operate = function(ctx)
     for _, c in ipairs(ctx:cards("board", ctx.player)) do
       if c ~= ctx.source then
         ctx:modify(c, { char = "status", op = "grant", value = "silenced" }, { ["until"] = "end_of_turn" })
       end
     end
   end } }"#;

fn silence_engine(board_capacity: u32) -> Rc<Engine> {
    engine_of(&content_with(
        vec![
            card("hush", "runner", 0, &[], Some(HUSH)),
            card("hushall", "runner", 0, &[], Some(HUSHALL)),
            card("hushcry", "runner", 0, &[], Some(HUSHCRY)),
            card("tutor", "runner", 0, &[], Some(TUTOR)),
            card("tally", "runner", 0, &[], Some(TALLY)),
            card("cheer", "runner", 0, &[], Some(CHEER)),
            bomb(),
        ],
        |m| {
            m["zones"][2]["capacity"] = serde_json::json!(board_capacity);
            m["checks"] = serde_json::json!([]); // no winner by power: these boards are big
            m["characteristics"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!({"name": "status", "kind": "set"}));
            m["abilities"] = serde_json::json!({
                "suppressed_by": {"char": "status", "name": "silenced", "including_later": "silenced_all"},
                "keywords": ["swift"]
            });
        },
    ))
}

fn silence_game(e: &Rc<Engine>, board: &[&str], hand: &[&str]) -> Game {
    let mut b = Builder::new(e.clone(), 2, 1).unwrap();
    for _ in 0..6 {
        b.place(0, "deck", "plain", &Place::default()).unwrap();
        b.place(1, "deck", "plain", &Place::default()).unwrap();
    }
    for c in board {
        b.place(0, "board", c, &Place::default()).unwrap();
    }
    for c in hand {
        b.place(0, "hand", c, &Place::default()).unwrap();
    }
    b.start(2, 0, "main").unwrap()
}

#[test]
fn suppressed_cards_lose_statics_keywords_activated_and_earlier_grants() {
    let e = silence_engine(8);
    let board = [
        "banner", "coach", "quick", "plain", "hush", "tutor", "tally",
    ];
    let mut g = silence_game(&e, &board, &[]);
    // Banner +1 to the others; quick is swift (+1 by the rule ability); only plain prints
    // nothing, so tally counts 1.
    assert_eq!(power_of(&g, "board", 0, "plain"), 3);
    assert_eq!(power_of(&g, "board", 0, "quick"), 4);
    assert_eq!(power_of(&g, "board", 0, "tally"), 2);
    // Tutor first: plain gains swift and an ability, before any silence.
    pick(&mut g, "use tutor");
    assert!(
        labels(&g).iter().any(|l| l == "use plain"),
        "{:?}",
        labels(&g)
    );
    assert_eq!(power_of(&g, "board", 0, "plain"), 4);
    pick(&mut g, "use hush");
    // Banner's static stopped; quick lost its printed keyword; plain lost what it gained
    // before the silence (the keyword ability and the granted ability); coach cannot be used.
    assert_eq!(power_of(&g, "board", 0, "plain"), 2);
    assert_eq!(power_of(&g, "board", 0, "quick"), 2);
    let l = labels(&g);
    assert!(
        !l.iter().any(|l| l == "use coach" || l == "use plain"),
        "{l:?}"
    );
    // A silenced card still prints its abilities: tally still counts only plain.
    assert_eq!(power_of(&g, "board", 0, "tally"), 1);
    // Gained after the silence: they work.
    pick(&mut g, "use tutor");
    assert_eq!(power_of(&g, "board", 0, "plain"), 3);
    pick(&mut g, "use plain");
    assert_eq!(power_of(&g, "board", 0, "plain"), 5);
    // The silence ends with its duration.
    pick(&mut g, "end turn");
    assert_eq!(power_of(&g, "board", 0, "quick"), 4);
    assert_eq!(power_of(&g, "board", 0, "plain"), 3);
}

#[test]
fn an_including_later_suppression_also_stops_what_the_card_gains_afterwards() {
    let e = silence_engine(8);
    let mut g = silence_game(&e, &["plain", "hushall", "tutor"], &[]);
    assert_eq!(power_of(&g, "board", 0, "plain"), 2);
    pick(&mut g, "use hushall");
    // Gained after the silence, but the silence covers later gains: no swift, no ability.
    pick(&mut g, "use tutor");
    assert_eq!(power_of(&g, "board", 0, "plain"), 2);
    let l = labels(&g);
    assert!(!l.iter().any(|l| l == "use plain"), "{l:?}");
    // Without it, the same gains work.
    let mut g = silence_game(&e, &["plain", "hushall", "tutor"], &[]);
    pick(&mut g, "use tutor");
    assert_eq!(power_of(&g, "board", 0, "plain"), 3);
    assert!(labels(&g).iter().any(|l| l == "use plain"));
}

#[test]
fn suppressed_cards_trigger_nothing_and_replace_nothing() {
    let e = silence_engine(3);
    // Cheer silenced: playing a card draws nothing.
    let mut g = silence_game(&e, &["cheer", "hush"], &["plain"]);
    pick(&mut g, "use hush");
    pick(&mut g, "play plain");
    assert!(zone_cards(&g, "hand", 0).is_empty());
    assert_eq!(g.request().unwrap().prompt(), "main");
    // Not silenced: it draws.
    let mut g = silence_game(&e, &["cheer", "hush"], &["plain"]);
    pick(&mut g, "play plain");
    assert_eq!(zone_cards(&g, "hand", 0).len(), 1);
    // Guard silenced: the bomb's discard is not replaced (no optional prompt), guard is gone.
    let mut g = silence_game(&e, &["guard", "hush"], &["bomb"]);
    pick(&mut g, "use hush");
    pick(&mut g, "play bomb");
    assert_eq!(g.request().unwrap().prompt(), "main");
    assert!(zone_cards(&g, "discard", 0).contains(&"guard".to_string()));
}

#[test]
fn a_pending_trigger_whose_source_is_suppressed_before_it_resolves_does_nothing() {
    let e = silence_engine(3);
    // Cheer and hushcry trigger together; hushcry first silences cheer, whose draw is dropped.
    let mut g = silence_game(&e, &["cheer", "hushcry"], &["plain"]);
    pick(&mut g, "play plain");
    assert_eq!(g.request().unwrap().prompt(), "order_triggers");
    pick(&mut g, "hushcry");
    assert_eq!(g.request().unwrap().prompt(), "main");
    assert!(zone_cards(&g, "hand", 0).is_empty());
    // Cheer first: it draws before the silence.
    let mut g = silence_game(&e, &["cheer", "hushcry"], &["plain"]);
    pick(&mut g, "play plain");
    pick(&mut g, "cheer");
    assert_eq!(zone_cards(&g, "hand", 0).len(), 1);
}

// Seer: look at the top 2 cards of your deck, show the top one to everyone and take it,
// then put your whole discard at the bottom of your deck.
const SEER: &str = r#"return { { kind = "activated", timing = "main",
   operate = function(ctx)
     local top = ctx:top("deck", ctx.player, 2)
     ctx:look(top, ctx.player)
     ctx:reveal({ top[1] })
     ctx:move(top[1], "hand", { reason = "seek" })
     ctx:move(ctx:cards("discard", ctx.player), "deck", { position = "bottom", reason = "recycle" })
   end } }"#;

/// The card ids `viewer`'s filtered log names for events called `name` with `reason`.
fn seen_cards(g: &Game, viewer: PlayerId, name: &str, reason: Option<&str>) -> Vec<Option<String>> {
    g.events_for(viewer)
        .iter()
        .filter_map(|e| match e {
            Entry::Event(ev) if ev.name == name && ev.reason.as_deref() == reason => {
                if ev.name == "moved" {
                    assert_eq!(ev.card.is_some(), ev.old.is_some()); // both ids, or neither
                }
                Some(ev.card.map(|c| g.card_id(c)))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_filtered_log_blanks_hidden_moves_for_the_opponent_and_shows_them_to_the_owner() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 1, vec![deck(&[("plain", 6)]), deck(&[("quick", 6)])]);
    // Draws: the drawer sees what they drew, the opponent only that a card moved.
    let own = seen_cards(&g, 0, "moved", Some("draw"));
    let opp = seen_cards(&g, 1, "moved", Some("draw"));
    assert_eq!(own.len(), opp.len());
    assert!(own.len() >= 5);
    let mine = |v: &Vec<Option<String>>| v.iter().filter(|c| c.as_deref() == Some("plain")).count();
    assert_eq!(mine(&own), 3); // my two setup draws and my first draw
    assert_eq!(mine(&opp), 0);
    assert!(opp.iter().any(|c| c.as_deref() == Some("quick"))); // player 2's own draws
    // A card played to the public board is seen by both.
    pick(&mut g, "play plain");
    assert_eq!(
        seen_cards(&g, 1, "moved", Some("play")),
        vec![Some("plain".into())]
    );
    // The decider sees their decision whole; the opponent saw the card played, so they see
    // the decision too, with only the option chosen (the others name cards in a hand).
    let decisions = |p: PlayerId| -> Vec<Vec<String>> {
        g.events_for(p)
            .iter()
            .filter_map(|e| match e {
                Entry::Decision { request, .. } => Some(common::request_labels(Some(request))),
                _ => None,
            })
            .collect()
    };
    let own = decisions(0);
    assert_eq!(own.len(), 1);
    assert!(
        own[0].len() > 1 && own[0].contains(&"play plain".to_string()),
        "{own:?}"
    );
    assert_eq!(decisions(1), [["play plain"]]);
    // The full log keeps the decision whole.
    let full: Vec<usize> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Decision { request, .. } => Some(common::request_labels(Some(request)).len()),
            _ => None,
        })
        .collect();
    assert_eq!(full, [own[0].len()]);
}

#[test]
fn another_players_decision_is_shown_only_when_what_it_chose_was_seen() {
    // Stasher: when played, its controller puts a card of their hand under their deck.
    let stasher = card(
        "stasher",
        "runner",
        0,
        &[],
        Some(&ON_PLAY.replace(
            "BODY",
            r#"local c = ctx:choose_cards(ctx.player, ctx:cards("hand", ctx.player), { prompt = "stash" })
   ctx:move(c, "deck", { reason = "stash", position = "bottom" })"#,
        )),
    );
    let e = engine_of(&content(vec![stasher]));
    let mut g = new_game(&e, 2, vec![deck(&[("stasher", 6)]), deck(&[("plain", 6)])]);
    pick(&mut g, "play stasher");
    assert_eq!(labels(&g).first().map(String::as_str), Some("stasher"));
    pick(&mut g, "stasher");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    let prompts = |p: PlayerId| -> Vec<String> {
        g.events_for(p)
            .iter()
            .filter_map(|e| match e {
                Entry::Decision { request, .. } => Some(request.prompt().to_string()),
                _ => None,
            })
            .collect()
    };
    // The card stashed went from one hidden zone to another: which it was stays the
    // player's, and so does the decision that chose it.
    assert_eq!(prompts(0).len(), 2, "{:?}", prompts(0));
    assert_eq!(prompts(1).len(), 1, "{:?}", prompts(1));
    assert_ne!(prompts(1)[0], "stash");
}

#[test]
fn the_filtered_log_shows_reveals_hides_looks_and_the_order_of_cards_put_into_a_deck() {
    let e = engine(vec![card("seer", "runner", 0, &[], Some(SEER))]);
    let mut b = Builder::new(e, 2, 1).unwrap();
    for c in ["plain", "boots", "quick"] {
        b.place(0, "deck", c, &Place::default()).unwrap(); // quick on top
    }
    for _ in 0..3 {
        b.place(1, "deck", "plain", &Place::default()).unwrap();
    }
    b.place(0, "discard", "scout", &Place::default()).unwrap();
    b.place(0, "discard", "banner", &Place::default()).unwrap();
    b.place(0, "board", "seer", &Place::default()).unwrap();
    let mut g = b.start(2, 0, "main").unwrap();
    pick(&mut g, "use seer");
    // The look is the owner's; the reveal is everyone's.
    let looked = |v| {
        let mut r = seen_cards(&g, v, "revealed", None);
        r.sort();
        r
    };
    assert_eq!(
        looked(0),
        vec![
            Some("boots".into()),
            Some("quick".into()),
            Some("quick".into())
        ]
    );
    assert_eq!(looked(1), vec![None, None, Some("quick".into())]);
    // The revealed card is followed into the hand.
    assert_eq!(
        seen_cards(&g, 1, "moved", Some("seek")),
        vec![Some("quick".into())]
    );
    // Two public cards go to the bottom of the deck together: the owner knows the order,
    // the opponent sees two cards go but not which went first (OP 3-1-8).
    assert_eq!(
        seen_cards(&g, 0, "moved", Some("recycle")),
        vec![Some("scout".into()), Some("banner".into())]
    );
    assert_eq!(
        seen_cards(&g, 1, "moved", Some("recycle")),
        vec![None, None]
    );
    // The view agrees: the opponent sees none of that deck; the owner only the card it
    // looked at, which stayed there.
    let v = g.view(1);
    let deck0 = v
        .zones
        .iter()
        .find(|z| z.name == "deck" && z.owner == Some(0))
        .unwrap();
    assert_eq!(deck0.count, 4);
    assert!(deck0.cards.iter().all(|c| c.card.is_none()));
    assert_eq!(zone_cards(&g, "deck", 0), vec!["?", "?", "?", "boots"]);
    g.check_invariants().unwrap();
}

// Boast: tells everyone (an event) about a card of your hand and one on your board.
const BOAST: &str = r#"return { { kind = "activated", timing = "main",
   operate = function(ctx)
     local hand = ctx:cards("hand", ctx.player)
     ctx:emit("scored", { target = hand[1], cards = { hand[1], ctx.source } })
   end } }"#;

#[test]
fn the_filtered_log_leaves_hidden_cards_out_of_event_data() {
    let e = engine(vec![card("boast", "runner", 0, &[], Some(BOAST))]);
    let mut b = Builder::new(e, 2, 1).unwrap();
    for p in 0..2 {
        for _ in 0..3 {
            b.place(p, "deck", "plain", &Place::default()).unwrap();
        }
    }
    let secret = b.place(0, "hand", "quick", &Place::default()).unwrap();
    let boast = b.place(0, "board", "boast", &Place::default()).unwrap();
    let mut g = b.start(2, 0, "main").unwrap();
    pick(&mut g, "use boast");
    let scored = |v| {
        g.events_for(v)
            .into_iter()
            .find_map(|e| match e {
                Entry::Event(ev) if ev.name == "scored" => Some(ev.data),
                _ => None,
            })
            .expect("scored")
    };
    let card = |c: ObjId| values::Val::Card(values::CardRef { card: c });
    // The owner sees both; the opponent only the board card, and no `target`.
    let own = scored(0);
    assert!(own.contains(&("target".into(), card(secret))));
    assert!(own.contains(&(
        "cards".into(),
        values::Val::List(vec![card(secret), card(boast)])
    )));
    assert_eq!(
        scored(1),
        vec![("cards".into(), values::Val::List(vec![card(boast)]))]
    );
}

// Loops players can stop (`loops: {declare: true}`, core/src/loops/) ---------------------

/// "juggler": use: return it to its owner's hand (play it again: a loop its player can stop).
fn juggler() -> CardDef {
    card(
        "juggler",
        "runner",
        1,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main",
           operate = function(ctx) ctx:move(ctx.source, "hand", { reason = "return" }) end } }"#,
        ),
    )
}

/// Sprint with loops declared, the juggler and "heckler": when an opponent's card enters the
/// board, its controller may draw a card.
fn loop_engine() -> Rc<Engine> {
    let heckler = card(
        "heckler",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "triggered", on = "moved", zones = {"board"},
           when = function(ctx, ev) return ev.to == "board" and ev.card.controller ~= ctx.player end,
           operate = function(ctx) if ctx:yes_no(ctx.player, "heckle") then draw(ctx, ctx.player) end end } }"#,
        ),
    );
    engine_of(&content_with(vec![juggler(), heckler], |m| {
        m["loops"] = serde_json::json!({"declare": true, "max_count": 10});
    }))
}

/// Sprint with loops forbidden (`loops: {forbid: true}`) and the juggler.
fn forbidding_engine(both: bool) -> Result<Rc<Engine>, String> {
    let c = content_with(vec![juggler()], |m| {
        m["loops"] = serde_json::json!({"forbid": true, "declare": both});
    });
    match Engine::new(&c) {
        Ok(e) => Ok(e),
        Err(es) => Err(es
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

// SM88 (105.2.1: "an endless loop in a single window is forbidden") as a policy:
// the answer that restarts a loop is barred at once, with no declaration.
#[test]
fn under_the_forbid_policy_the_answer_that_restarts_a_loop_is_barred_without_a_declaration() {
    let e = forbidding_engine(false).expect("loads");
    let mut g = new_game(&e, 31, vec![deck(&[("juggler", 6)]), deck(&[("plain", 6)])]);
    // Play a juggler and return it, round after round. The returned cards are new this
    // turn, so the first rounds differ; once a position repeats, the answer given there
    // before is gone: the juggler on the board may not be used again.
    let mut rounds = 0;
    loop {
        pick(&mut g, "play juggler");
        assert!(!is_declaration(&g), "no loop count is asked under `forbid`");
        rounds += 1;
        if !labels(&g).iter().any(|l| l == "use juggler") {
            break;
        }
        assert!(rounds < 5, "the loop was never barred");
        pick(&mut g, "use juggler");
    }
    assert_eq!(zone_cards(&g, "board", 0), ["juggler"]);
    assert_eq!(labels(&g), ["play juggler", "play juggler", "end turn"]);
    // Another position (a second juggler on the board): its uses are allowed.
    pick(&mut g, "play juggler");
    assert!(labels(&g).iter().any(|l| l == "use juggler"));
    g.check_invariants().unwrap();
}

#[test]
fn the_two_loop_policies_cannot_both_be_chosen() {
    let err = forbidding_engine(true).err().expect("refused");
    assert!(
        err.contains("loops: `declare`") && err.contains("choose one"),
        "{err}"
    );
}

fn plays(g: &Game) -> usize {
    g.log()
        .iter()
        .filter(|e| matches!(e, Entry::Event(ev) if ev.name == "moved" && ev.reason.as_deref() == Some("play")))
        .count()
}

fn is_declaration(g: &Game) -> bool {
    matches!(g.request(), Some(Request::Number { prompt, .. }) if prompt == "loop_count")
}

/// Plays and returns the juggler until the kernel asks for a loop count.
fn juggle_until_declared(g: &mut Game) {
    for _ in 0..12 {
        if is_declaration(g) {
            return;
        }
        if labels(g).iter().any(|l| l == "use juggler") {
            pick(g, "use juggler");
        } else if labels(g).iter().any(|l| l == "play juggler") {
            pick(g, "play juggler");
        } else {
            pick(g, "no"); // the heckler's question
        }
    }
    assert!(is_declaration(g), "no loop found: {:?}", g.request());
}

#[test]
fn a_repeated_decision_is_a_loop_its_only_chooser_declares_and_it_runs_that_often() {
    let e = loop_engine();
    let mut g = new_game(&e, 31, vec![deck(&[("juggler", 6)]), deck(&[("plain", 6)])]);
    juggle_until_declared(&mut g);
    let Some(Request::Number {
        player, min, max, ..
    }) = g.request().cloned()
    else {
        panic!()
    };
    assert_eq!((player, min, max), (0, 0, 10));
    let before = plays(&g);
    g.respond(0, Response::Number { value: 3 }).unwrap();
    // Three more rounds, each with one play; control comes back at player 1's first choice of
    // the round with the looping answer gone (the menu still offers everything else).
    assert_eq!(plays(&g), before + 3);
    // The round started at "use juggler" with one juggler on the board: the same menu comes
    // back without it (the other options stay).
    assert_eq!(g.request().unwrap().player(), 0);
    assert_eq!(labels(&g), ["play juggler", "play juggler", "end turn"]);
    g.check_invariants().unwrap();
}

#[test]
fn the_looping_answer_stays_barred_in_the_same_state_and_returns_when_it_changes() {
    let e = loop_engine();
    let mut g = new_game(&e, 31, vec![deck(&[("juggler", 6)]), deck(&[("plain", 6)])]);
    juggle_until_declared(&mut g);
    g.respond(0, Response::Number { value: 0 }).unwrap();
    assert!(!labels(&g).iter().any(|x| x == "use juggler"));
    // Another state (a second juggler on the board): it may be used again.
    pick(&mut g, "play juggler");
    assert!(labels(&g).iter().any(|x| x == "use juggler"));
    // Back to the loop's state (that juggler returned): this is another loop (play, then
    // use), declared in turn; when it stops, both of its answers are barred there.
    pick(&mut g, "use juggler");
    assert!(is_declaration(&g), "{:?}", g.request());
    g.respond(0, Response::Number { value: 0 }).unwrap();
    assert_eq!(labels(&g), ["end turn"]);
}

#[test]
fn both_players_declare_turn_player_first_and_the_smaller_count_runs() {
    let e = loop_engine();
    for (first, second, stopper) in [(5, 2, 1), (1, 4, 0), (2, 2, 0)] {
        let mut g = new_game(
            &e,
            31,
            vec![deck(&[("juggler", 6)]), deck(&[("heckler", 6)])],
        );
        pick(&mut g, "end turn");
        pick(&mut g, "play heckler");
        pick(&mut g, "end turn");
        juggle_until_declared(&mut g);
        assert_eq!(
            g.request().unwrap().player(),
            0,
            "the turn player declares first"
        );
        let before = plays(&g);
        g.respond(0, Response::Number { value: first }).unwrap();
        assert!(is_declaration(&g));
        assert_eq!(g.request().unwrap().player(), 1, "then the opponent");
        g.respond(1, Response::Number { value: second }).unwrap();
        let n = first.min(second) as usize;
        let played = plays(&g) - before;
        assert!(
            played == n || played == n + 1,
            "{played} plays for {n} rounds"
        );
        assert_eq!(g.request().unwrap().player(), stopper);
        if stopper == 1 {
            // The heckler's "no" kept the loop going: only "yes" is left.
            assert_eq!(labels(&g), vec!["yes".to_string()]);
        }
    }
}

#[test]
fn a_declared_loop_replays_the_same_in_a_fork_and_with_the_same_answers() {
    let e = loop_engine();
    let run = |fork_at_declaration: bool| {
        let mut g = new_game(
            &e,
            31,
            vec![deck(&[("juggler", 6)]), deck(&[("heckler", 6)])],
        );
        pick(&mut g, "end turn");
        pick(&mut g, "play heckler");
        pick(&mut g, "end turn");
        juggle_until_declared(&mut g);
        g.respond(0, Response::Number { value: 4 }).unwrap();
        let mut g = if fork_at_declaration { g.fork() } else { g };
        g.respond(1, Response::Number { value: 3 }).unwrap();
        g.check_invariants().unwrap();
        (g.log_hash(), g.request().cloned())
    };
    let a = run(false);
    assert_eq!(a, run(false));
    assert_eq!(a, run(true));
}

#[test]
fn out_of_range_input_is_an_error_that_changes_nothing() {
    let e = engine(vec![]);
    let mut g = new_game(&e, 21, vec![deck(&[("plain", 6)]), deck(&[("plain", 6)])]);
    let hash = g.log_hash();
    for seat in [2u8, 3, 200, 255] {
        let err = g.concede(seat).unwrap_err().to_string();
        assert!(err.contains("there is no player"), "{err}");
    }
    let req = g.request().unwrap().clone();
    for bad in [
        Response::Choose {
            indices: vec![u32::MAX],
        },
        Response::Choose {
            indices: vec![0, 0],
        },
        Response::Number { value: i64::MIN },
    ] {
        assert!(g.respond(req.player(), bad).is_err());
    }
    assert_eq!(g.log_hash(), hash, "nothing was logged");
    assert_eq!(g.request(), Some(&req));

    // A deck list that would make millions of objects is refused before any is made.
    let huge = deck(&[("plain", u32::MAX)]);
    let Err(e2) = Game::new(
        e.clone(),
        GameConfig {
            seed: 1,
            decks: vec![huge, deck(&[("plain", 6)])],
            keep_log: false,
        },
    ) else {
        panic!("a 4-billion-card deck started a game")
    };
    assert!(e2.to_string().contains("a deck may hold at most"), "{e2}");
}

// Zones whose order is not kept (`ordered: false`, docs/kernel.md F4) -----------------------

/// "rotator": use: move the bottom card of your hand to the top of your hand; "misplacer":
/// use: put the bottom card of your hand at the bottom of your hand.
fn hand_order_engine() -> Rc<Engine> {
    let rotator = card(
        "rotator",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main",
           operate = function(ctx) ctx:move(ctx:cards("hand", ctx.player)[1], "hand", { reason = "rotate" }) end } }"#,
        ),
    );
    let misplacer = card(
        "misplacer",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main",
           operate = function(ctx) ctx:move(ctx:cards("hand", ctx.player)[1], "hand", { position = "bottom" }) end } }"#,
        ),
    );
    engine_of(&content_with(vec![rotator, misplacer], |m| {
        m["loops"] = serde_json::json!({"declare": true, "max_count": 10});
    }))
}

/// Player 1's turn: a full board of `on_board`, and "plain" then "quick" in hand (runners the
/// full board leaves unplayable, so the menu does not list the hand).
fn full_board_with_hand(e: &Rc<Engine>, on_board: &str) -> Game {
    let mut b = Builder::new(e.clone(), 2, 1).unwrap();
    for _ in 0..3 {
        b.place(0, "board", on_board, &Place::default()).unwrap();
    }
    for c in ["plain", "quick"] {
        b.place(0, "hand", c, &Place::default()).unwrap();
    }
    for _ in 0..3 {
        b.place(0, "deck", "plain", &Place::default()).unwrap();
        b.place(1, "deck", "plain", &Place::default()).unwrap();
    }
    b.start(3, 0, "main").unwrap()
}

#[test]
fn a_loop_that_only_reorders_an_unordered_zone_is_found_at_its_first_repeat() {
    let e = hand_order_engine();
    let mut g = full_board_with_hand(&e, "rotator");
    assert_eq!(zone_cards(&g, "hand", 0), ["plain", "quick"]);
    // Each use moves a card, which becomes a new object that entered this turn: after two
    // uses both cards have, and from then on only the hand's order changes. The hand is not
    // ordered, so the third use repeats the position after the second, and the kernel asks
    // for a loop count at once (with an ordered hand only the fourth use would repeat).
    pick(&mut g, "use rotator");
    pick(&mut g, "use rotator");
    assert_eq!(zone_cards(&g, "hand", 0), ["plain", "quick"]);
    assert!(!is_declaration(&g), "{:?}", g.request());
    pick(&mut g, "use rotator");
    assert_eq!(zone_cards(&g, "hand", 0), ["quick", "plain"]);
    assert!(is_declaration(&g), "{:?}", g.request());
}

/// Sprint with loops declared, "ticker" (use: a boost counter on itself) and "flipper" (use:
/// its "fresh" flag turns over).
fn marking_engine() -> Rc<Engine> {
    let ticker = card(
        "ticker",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main",
           operate = function(ctx) ctx:add_counter(ctx.source, "boost", 1) end } }"#,
        ),
    );
    let flipper = card(
        "flipper",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main",
           operate = function(ctx) ctx:set_flag(ctx.source, "fresh", not ctx.source:flag_on("fresh")) end } }"#,
        ),
    );
    engine_of(&content_with(vec![ticker, flipper], |m| {
        m["loops"] = serde_json::json!({"declare": true, "max_count": 10});
    }))
}

// The kernel computes a decision's fingerprint only when its cheap shape (zone sizes, the
// cards in each zone, the menu) matches an earlier decision's. A counter or a flag is not in
// the shape: the same menu over different counters is no loop, and a flag turned back is.
#[test]
fn the_same_menu_over_a_changed_card_is_no_loop_and_a_card_changed_back_is_one() {
    let e = marking_engine();
    let mut g = full_board_with_hand(&e, "ticker");
    for _ in 0..6 {
        pick(&mut g, "use ticker");
        assert!(!is_declaration(&g), "{:?}", g.request());
    }
    let mut g = full_board_with_hand(&e, "flipper");
    pick(&mut g, "use flipper");
    assert!(!is_declaration(&g), "the flag is on: another state");
    pick(&mut g, "use flipper");
    assert!(
        is_declaration(&g),
        "the flag is off again: {:?}",
        g.request()
    );
}

#[test]
fn a_place_in_a_zone_whose_order_is_not_kept_is_a_script_error_naming_the_zone() {
    let e = hand_order_engine();
    let mut g = full_board_with_hand(&e, "misplacer");
    pick(&mut g, "use misplacer");
    assert_eq!(g.errors().len(), 1, "{:?}", g.errors());
    assert!(
        g.errors()[0].contains(
            "zone 'hand' is not ordered (game.yaml), so its cards have no places: leave out `position`"
        ),
        "{:?}",
        g.errors()
    );
    assert_eq!(
        zone_cards(&g, "hand", 0),
        ["plain", "quick"],
        "nothing moved"
    );
}

// F8: a set characteristic is a set.
#[test]
fn a_name_listed_twice_in_a_set_characteristic_is_there_once() {
    let twins = common::card(
        "twins",
        "runner",
        serde_json::json!({ "power": 1, "tags": ["pair", "pair", "odd"] }),
        None,
    );
    let e = engine(vec![twins]);
    let mut b = Builder::new(e, 2, 1).unwrap();
    b.place(0, "board", "twins", &Place::default()).unwrap();
    let g = b.start(3, 0, "main").unwrap();
    let v = g.view(0);
    let board = v
        .zones
        .iter()
        .find(|z| z.name == "board" && z.owner == Some(0))
        .expect("board");
    assert_eq!(board.cards[0].sets["tags"], ["pair", "odd"]);
}

/// A set's shared Lua: `kit_draw` for its own card "kit".
fn kit_library(text: &str, cards: &[&str]) -> Library {
    Library {
        name: "KIT".into(),
        scripts: vec![Source {
            name: "sets/kit/lib/kit.lua".into(),
            text: text.into(),
        }],
        cards: cards.iter().map(|c| c.to_string()).collect(),
    }
}

const KIT_LIB: &str = "KIT_DRAWS = 2\nfunction kit_draw(ctx)\n  for _ = 1, KIT_DRAWS do draw(ctx, ctx.player) end\nend\n";

#[test]
fn a_library_serves_its_own_cards_only() {
    let kit = card(
        "kit",
        "runner",
        1,
        &[],
        Some(&ON_PLAY.replace("BODY", "kit_draw(ctx)")),
    );
    let mut c = content(vec![kit]);
    c.libraries.push(kit_library(KIT_LIB, &["kit"]));
    let e = engine_of(&c);
    let mut g = new_game(&e, 2, vec![deck(&[("kit", 6)]), deck(&[("plain", 6)])]);
    let before = zone_cards(&g, "hand", 0).len();
    pick(&mut g, "play kit");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    assert_eq!(
        zone_cards(&g, "hand", 0).len(),
        before - 1 + 2,
        "kit drew the library's KIT_DRAWS cards"
    );

    // A card outside the library does not see its names: a load error names card and name.
    let outsider = card(
        "outsider",
        "runner",
        1,
        &[],
        Some("local f = kit_draw\nreturn {}"),
    );
    let mut c = content(vec![outsider]);
    c.libraries.push(kit_library(KIT_LIB, &[]));
    let text = load_errors(&c);
    assert!(
        text.contains("cards/outsider.lua") && text.contains("unknown name 'kit_draw'"),
        "{text}"
    );
}

#[test]
fn a_library_cannot_change_what_others_see() {
    // Redefining a ruleset global is refused at load, naming the library's file.
    let mut c = content(vec![]);
    c.libraries
        .push(kit_library("function draw(ctx, p) end", &[]));
    let text = load_errors(&c);
    assert!(
        text.contains("sets/kit/lib/kit.lua") && text.contains("defines 'draw'"),
        "{text}"
    );
    // Changing a shared table is refused too (they are frozen before libraries load).
    let mut c = content(vec![]);
    c.libraries
        .push(kit_library("RULES[1] = nil\nstring.kit = 1", &[]));
    let text = load_errors(&c);
    assert!(text.contains("sets/kit/lib/kit.lua"), "{text}");
    assert!(
        text.contains("readonly") || text.contains("read-only"),
        "{text}"
    );

    // At run time, a library function cannot set a global or change its own tables: the
    // error names the card whose ability ran it, and other games are unaffected.
    let lib = "KIT = { n = 0 }\nfunction kit_leak(ctx) LEAKED = true end\nfunction kit_count(ctx) KIT.n = KIT.n + 1 end\n";
    for body in ["kit_leak(ctx)", "kit_count(ctx)"] {
        let bad = card(
            "bad",
            "runner",
            0,
            &[],
            Some(&ON_PLAY.replace("BODY", body)),
        );
        let mut c = content(vec![bad]);
        c.libraries.push(kit_library(lib, &["bad"]));
        let e = engine_of(&c);
        let mut g = new_game(&e, 13, vec![deck(&[("bad", 6)]), deck(&[("plain", 6)])]);
        pick(&mut g, "play bad");
        assert_eq!(g.errors().len(), 1, "{body}: {:?}", g.errors());
        let shown = g.errors()[0].to_string();
        assert!(shown.contains("bad"), "{body}: names the card: {shown}");
        assert!(
            shown.contains("sets/kit/lib/kit.lua"),
            "{body}: and the library file: {shown}"
        );
        g.check_invariants().unwrap();
    }
}

#[test]
fn a_misspelt_name_anywhere_in_a_script_is_a_load_error_with_its_place() {
    // Inside a function body that no test may ever run: found when the card loads.
    let typo = card(
        "typo",
        "runner",
        0,
        &[],
        Some(&ON_PLAY.replace(
            "BODY",
            "if ctx.player == 9 then\n  drwa(ctx, ctx.player) end",
        )),
    );
    let text = load_errors(&content(vec![typo]));
    assert!(
        text.contains("cards/typo.lua:3:3: unknown name 'drwa' (did you mean 'draw'?)")
            && text.contains("(card typo)"),
        "{text}"
    );
    // A name the card's own top level defines, a local and the set's shared Lua are known.
    let fine = card(
        "fine",
        "runner",
        0,
        &[],
        Some(&format!(
            "function helper(ctx) kit_draw(ctx) end\nlocal n = 1\n{}",
            ON_PLAY.replace("BODY", "helper(ctx) local m = n")
        )),
    );
    let mut c = content(vec![fine]);
    c.libraries.push(kit_library(KIT_LIB, &["fine"]));
    engine_of(&c);
    // The same check covers the set's shared Lua and the ruleset's own files.
    let mut c = content(vec![]);
    c.libraries.push(kit_library(
        "function kit_x(ctx)\n  return totl(ctx, 1)\nend",
        &[],
    ));
    let text = load_errors(&c);
    assert!(
        text.contains("sets/kit/lib/kit.lua:2:10: unknown name 'totl' (did you mean 'total'?)"),
        "{text}"
    );
    // A field of a shared table (frozen: what it holds is all it will hold) is checked too,
    // at the field; a field of the script's own table is left to run time.
    let field = card(
        "field",
        "runner",
        0,
        &[],
        Some(&format!(
            "Mine = {{}}\n{}",
            ON_PLAY.replace("BODY", "local s = string.fromat('%d', Mine.later)")
        )),
    );
    let text = load_errors(&content(vec![field]));
    assert!(
        text.contains("unknown name 'string.fromat' (did you mean 'string.format'?)"),
        "{text}"
    );
    assert!(!text.contains("Mine.later"), "{text}");
}

#[test]
fn granting_a_keyword_the_game_does_not_declare_is_an_error() {
    // In a static ability: at load, at the literal in the source.
    let stat = card(
        "stat",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "static", affects = function(ctx, c) return c == ctx.source end,
   modify = { { char = "keywords", op = "grant", value = "swfit" } } } }"#,
        ),
    );
    let text = load_errors(&content(vec![stat]));
    assert!(
        text.contains("cards/stat.lua:2:58:")
            && text.contains("'swfit' is not one the game declares (did you mean 'swift'?)"),
        "{text}"
    );
    // Any other set characteristic takes any name.
    let tagged = card(
        "tagged",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "static", affects = function(ctx, c) return c == ctx.source end,
   modify = { { char = "tags", op = "grant", value = "swfit" } } } }"#,
        ),
    );
    engine_of(&content(vec![tagged]));
    // During a game: the operation fails with an error naming the card; nothing changes.
    let (errors, _) = hostile(&ON_PLAY.replace(
        "BODY",
        r#"ctx:modify(ctx.source, { char = "keywords", op = "grant", value = "swfit" })"#,
    ));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("swfit") && errors[0].contains("cards/bad.lua"),
        "{errors:?}"
    );
}

/// Sprint with a documented event, `signal`, whose fields are declared, and two cards that
/// emit it when used: `signaller` with the declared fields, `misspeller` with one more.
fn signal_engine() -> Rc<Engine> {
    let emitter = |id: &str, data: &str| {
        card(
            id,
            "runner",
            0,
            &[],
            Some(&format!(
                "return {{ {{ kind = \"activated\", timing = \"main\",\n  operate = function(ctx)\n    ctx:emit(\"signal\", {data})\n  end }} }}"
            )),
        )
    };
    let signaller = emitter("signaller", "{ card = ctx.source, strength = 2 }");
    let misspeller = emitter("misspeller", "{ card = ctx.source, strenght = 2 }");
    engine_of(&content_with(vec![signaller, misspeller], |m| {
        m["events"] = serde_json::json!([
            "scored",
            "double_draw",
            {"name": "signal", "doc": "a card signalled",
             "fields": {"card": "the card", "strength": "how strongly"}}
        ]);
    }))
}

#[test]
fn an_event_emitted_with_a_field_it_does_not_declare_is_a_script_error_naming_the_script() {
    let e = signal_engine();
    let mut g = full_board_with_hand(&e, "misspeller");
    pick(&mut g, "use misspeller");
    assert_eq!(g.errors().len(), 1, "{:?}", g.errors());
    let error = &g.errors()[0];
    assert!(
        error.contains(
            "emit: event 'signal' has no field 'strenght' (its fields: card, strength): declare it in game.yaml `events`"
        ),
        "{error}"
    );
    assert!(
        error.contains("cards/misspeller.lua:3"),
        "the script's file and line: {error}"
    );
    assert!(
        !g.log()
            .iter()
            .any(|en| matches!(en, Entry::Event(ev) if ev.name == "signal")),
        "nothing was emitted"
    );
    // The declared fields pass, and reach the log.
    let mut g = full_board_with_hand(&e, "signaller");
    pick(&mut g, "use signaller");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    assert!(g.log().iter().any(|en| matches!(en, Entry::Event(ev)
        if ev.name == "signal" && ev.card.is_some() && ev.data.iter().any(|(k, _)| k == "strength"))));
}

#[test]
fn an_event_declared_by_name_alone_takes_any_fields() {
    let loose = card(
        "loose",
        "runner",
        0,
        &[],
        Some(
            r#"return { { kind = "activated", timing = "main",
           operate = function(ctx) ctx:emit("scored", { anything = 1, card = ctx.source }) end } }"#,
        ),
    );
    let e = engine_of(&content(vec![loose]));
    let mut g = full_board_with_hand(&e, "loose");
    pick(&mut g, "use loose");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

#[test]
fn declared_prompts_must_name_the_open_phases_and_windows_and_not_the_kernels() {
    let errors = common::load_errors(&content_with(vec![], |m| {
        m["prompts"] = serde_json::json!([
            {"name": "pick", "doc": "a pick"},
            {"name": "pick", "doc": "again"},
            {"name": "order_triggers", "doc": "the kernel's"},
            {"name": "bad: name", "doc": "a colon"}
        ]);
    }));
    for want in [
        "prompts.pick: declared twice",
        "prompts.order_triggers: 'order_triggers' is one of the kernel's prompts",
        "prompts.bad: name: a prompt's name is not empty and holds no \": \"",
        "turn.phases.main: an open phase asks with its name as the prompt: declare 'main' in `prompts`",
    ] {
        assert!(errors.contains(want), "{want}\n{errors}");
    }
    // Declared, the same rules load.
    engine_of(&content_with(vec![], |m| {
        m["prompts"] = serde_json::json!([{"name": "main", "doc": "the main phase's actions"}]);
        m["timings"] = serde_json::json!([{"name": "main", "doc": "in the main phase"}]);
        m["durations"] = serde_json::json!(["end_of_turn"]);
    }));
}

/// A card named `name` (its id stays `id`).
fn named(mut c: CardDef, name: &str) -> CardDef {
    c.name = [("en".to_string(), name.to_string())].into();
    c
}

#[test]
fn cards_that_share_a_name_are_told_apart_by_their_ids() {
    // Two different cards called "Twin" in the opponent's deck, and a chooser that looks at
    // them: their labels carry their ids, their names do not.
    let a = named(card("twin_a", "runner", 1, &[], None), "Twin");
    let b = named(card("twin_b", "runner", 3, &[], None), "Twin");
    let chooser = card(
        "chooser",
        "runner",
        1,
        &[],
        Some(&ON_PLAY.replace(
            "BODY",
            r#"local theirs = ctx:cards("deck", 2)
   for _, c in ipairs(theirs) do
     assert(c.name == "Twin" and c.label == "Twin (" .. c.card_id .. ")", c.label)
   end
   assert(ctx:card_info("twin_b").label == "Twin (twin_b)")
   assert(ctx.source.label == "chooser" and ctx:card_info("plain").label == "plain")
   ctx:look(theirs, ctx.player)
   ctx:choose_cards(ctx.player, theirs, { prompt = "which" })"#,
        )),
    );
    let e = engine_of(&content(vec![a, b, chooser]));
    let mut g = new_game(
        &e,
        2,
        vec![
            deck(&[("chooser", 6)]),
            deck(&[("twin_a", 3), ("twin_b", 3)]),
        ],
    );
    // A label built by the ruleset's Lua from `c.label`: a name nobody shares stays as it is.
    assert!(
        labels(&g).contains(&"play chooser".to_string()),
        "{:?}",
        labels(&g)
    );
    pick(&mut g, "play chooser");
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    let mut asked = labels(&g);
    asked.sort();
    asked.dedup();
    assert_eq!(asked, ["Twin (twin_a)", "Twin (twin_b)"]);
}

/// `evaluation` (what agents weigh) names only what the game declares.
#[test]
fn the_evaluation_names_only_what_the_game_declares() {
    let c = content_with(vec![], |m| {
        m["evaluation"] = serde_json::json!({"zones": {"bord": 1, "hand": 1},
            "players": {"gold": 1}, "cards": [{"value": "tags", "zones": ["hnd"], "weight": 1}]});
    });
    let text = load_errors(&c);
    for wanted in [
        "evaluation.zones: unknown zone 'bord'",
        "evaluation.players: 'gold' is neither a player value nor a player characteristic",
        "evaluation.cards[0]: 'tags' is neither an integer characteristic nor a counter",
        "evaluation.cards[0]: unknown zone 'hnd'",
    ] {
        assert!(text.contains(wanted), "missing {wanted:?} in {text}");
    }
    engine_of(&content_with(vec![], |m| {
        m["evaluation"] = serde_json::json!({"zones": {"board": 1, "hand": 0.5},
            "cards": [{"value": "power", "zones": ["board"], "weight": 0.01}]});
    }));
}

#[test]
fn the_readable_logs_declarations_name_only_what_the_game_declares() {
    let c = content_with(vec![], |m| {
        m["log"] = serde_json::json!({"counts": ["bord"], "values": {"tags": ["board"], "power": ["hnd"]},
            "players": ["gold"], "abilities": ["silent", "nothing"], "ability_ends": ["finished"],
            "languages": {"th": {"words": {"board": "กระดาน"},
                "events": {"scored": "{card} ได้ {pionts} แต้ม", "silent": "...", "missing": "..."},
                "options": {"attack {crad}": "โจมตี {card}", "pass": "ผ่าน"}}}});
        m["events"] = serde_json::json!([
            {"name": "scored", "doc": "a point was scored", "fields": {"card": "the scorer", "points": "how many"},
             "log": "{card} scores {points} ({pionts})"},
            {"name": "silent", "doc": "nothing to tell"}
        ]);
    });
    let text = load_errors(&c);
    for wanted in [
        "log.counts: unknown zone 'bord'",
        "log.values: 'tags' is neither an integer characteristic nor a counter",
        "log.values.power: unknown zone 'hnd'",
        "events.scored.log: '{pionts}' is not one of its fields",
        "log.players: 'gold' is neither a player value nor a player characteristic",
        "log.languages.th.events.scored: '{pionts}' is not one of its fields",
        "log.languages.th.events.silent: the event has no `log` line to translate",
        "log.languages.th.events.missing: no event 'missing' is declared",
        "log.abilities: the event 'silent' has no `log` line to tell the ability with",
        "log.abilities: no event 'nothing' is declared in `events`",
        "log.ability_ends: no event 'finished' is declared in `events`",
        "log.languages.th.options.attack {crad}: '{crad}' is not one of {card}, {target}, {n}",
    ] {
        assert!(text.contains(wanted), "missing {wanted:?} in {text}");
    }
    assert!(!text.contains("'{points}'"), "{text}");
    // Declared names load.
    engine_of(&content_with(vec![], |m| {
        m["log"] = serde_json::json!({"counts": ["board"], "values": {"power": ["board", "hand"]}});
    }));
}
