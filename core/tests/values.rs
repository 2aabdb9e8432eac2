//! Value computation on a made-up game ("Gauge"): layers the ruleset declares, bounds with
//! and without memory, replacing and computed sets of names, player characteristics,
//! viewer-relative reads and static abilities that effects give.
//!
//! Gauge: every card starts on its owner's board. On your turn you may change your oak's
//! power, speed or tags, your own reach (a player characteristic that starts from your
//! reserve), or measure the opposing oak. Some cards carry static abilities: the mirror is
//! also named as every other card on its board, the mask is named as the opposing board's
//! first card, the anchor lowers its controller's grip, the bully weakens opposing cards,
//! and the totem can give the other cards on its board a static "+4 power" until the end
//! of the turn.

use std::collections::BTreeMap;
use std::rc::Rc;

use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "gauge", "name": {"en": "Gauge"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true}
  ],
  "categories": ["thing"],
  "characteristics": [
    {"name": "power", "kind": "int", "min": 0},
    {"name": "speed", "kind": "int", "min": 0, "max": 5},
    {"name": "names", "kind": "set", "field": "name"},
    {"name": "tags", "kind": "set"}
  ],
  "keywords": [{"name": "tame"}, {"name": "red"}, {"name": "blue"}],
  "orientations": ["up"],
  "player_values": ["reserve"],
  "player_characteristics": [
    {"name": "reach", "from": "reserve", "min": 0, "max": 9},
    {"name": "grip", "start": 7, "min": 0}
  ],
  "events": ["counted"],
  "timings": ["main"],
  "durations": ["end_of_turn"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}, {"name": "end", "run": "end_phase"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}]},
  "scripts": ["gauge.lua"]
}"#;

/// The layers a game like Gauge might declare: a replacement of the printed value first,
/// then base-setting forms (never below 0 from there on), then set-value effects, then
/// additions last.
fn layered(m: &mut serde_json::Value) {
    m["layers"] = serde_json::json!([
        {"name": "printed_override", "ops": ["set"]},
        {"name": "form", "ops": ["set_base"], "min": 0},
        {"name": "set", "ops": ["set", "grant", "revoke"]},
        {"name": "add", "ops": ["add"]}
    ]);
}

const RULES_LUA: &str = r#"
function setup(ctx)
  for p = 1, ctx.players do ctx:set_value(p, "reserve", 2) end
end
function end_phase(ctx) ctx:expire("end_of_turn") end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

local function oak(ctx, p)
  for _, c in ipairs(ctx:cards("board", p)) do
    if c.name == "oak" then return c end
  end
end
local function count(ctx, key, n) ctx:emit("counted", { key = key, amount = n }) end
local function change(card, char, op, value, layer)
  return function(ctx) ctx:modify(card, { char = char, op = op, value = value, layer = layer }) end
end

function main_actions(ctx)
  local p = ctx.turn_player
  local foe = ctx:others(p)[1]
  local mine, theirs = oak(ctx, p), oak(ctx, foe)
  local options = {
    { label = "pump", run = change(mine, "power", "add", 2) },
    { label = "weaken", run = change(mine, "power", "add", -5) },
    { label = "fix", run = change(mine, "power", "set", 5) },
    { label = "reflect", run = change(mine, "power", "set", 10, "printed_override") },
    { label = "shrink", run = change(mine, "power", "set_base", -3) },
    { label = "pump in add", run = change(mine, "power", "add", 2, "add") },
    { label = "bad layer", run = change(mine, "power", "add", 1, "bogus") },
    { label = "hasten", run = change(mine, "speed", "add", 3) },
    { label = "slow", run = change(mine, "speed", "add", -3) },
    { label = "tame", run = change(mine, "tags", "grant", "tame") },
    { label = "paint", run = change(mine, "tags", "set", { "red" }) },
    { label = "rename", run = function(ctx)
        ctx:modify(mine, { char = "names", op = "set", value = { "elm" } },
          { persists_in = { "deck", "board" } })
      end },
    { label = "rename briefly", run = change(mine, "names", "set", { "elm" }) },
    { label = "stash", run = function(ctx) ctx:move(mine, "deck") end },
    { label = "hang elm", run = function(ctx)
        for _, c in ipairs(ctx:cards("board", p)) do
          if c.name == "elm" then ctx:attach(c, mine) end
        end
      end },
    { label = "hasten elm", run = function(ctx)
        for _, c in ipairs(ctx:cards("board", p)) do
          for _, a in ipairs(c.attachments) do
            if a.name == "elm" then ctx:modify(a, { char = "speed", op = "add", value = 3 }) end
          end
        end
      end },
    { label = "unstash", run = function(ctx) ctx:move(ctx:top("deck", p)[1], "board") end },
    { label = "blue", run = change(mine, "tags", "grant", "blue") },
    { label = "curse", run = change(theirs, "power", "add", -1) },
    { label = "widen", run = function(ctx)
        ctx:modify(p, { char = "reach", op = "add", value = -5 }, { ["until"] = "end_of_turn" })
      end },
    { label = "stock", run = function(ctx) ctx:add_value(p, "reserve", 3) end },
    { label = "force reach", run = function(ctx) ctx:set_value(p, "reach", 1) end },
    { label = "raw", run = function(ctx)
        count(ctx, "power", mine:raw("power"))
        count(ctx, "speed", mine:raw("speed"))
        count(ctx, "reach", ctx:raw_value(p, "reach"))
        count(ctx, "reach read", ctx:value(p, "reach"))
      end },
    { label = "layers", run = function(ctx)
        local n = 0
        for _, e in ipairs(ctx:effects({ target = mine })) do
          if e.layer == "set" then n = n + 1 end
        end
        count(ctx, "in set", n)
      end },
    { label = "measure", run = function(ctx)
        count(ctx, "theirs", theirs.power)
        count(ctx, "without theirs", theirs:value_without("power", { controller = foe }))
        count(ctx, "without mine", theirs:value_without("power", { controller = p }))
        count(ctx, "without increases", theirs:value_without("power", { increases = true }))
        count(ctx, "without my increases",
          theirs:value_without("power", { controller = p, increases = true }))
      end },
    { label = "end turn", ends_phase = true },
  }
  for _, a in ipairs(ctx:abilities({ kind = "activated", player = p })) do
    options[#options + 1] = { label = "use " .. a.source.name,
      run = function(ctx) a.def.operate(ctx:with({ source = a.source })) end }
  end
  return options
end
"#;

const MIRROR: &str = r#"
return { { kind = "static", modify = { { char = "names", op = "grant",
  value = function(ctx, card)
    local out = {}
    for _, c in ipairs(ctx:cards("board", ctx.player)) do
      if c ~= ctx.source then out[#out + 1] = c.name end
    end
    return out
  end } } } }"#;

const MASK: &str = r#"
return { { kind = "static", modify = { { char = "names", op = "set",
  value = function(ctx, card) return { ctx:cards("board", ctx:others(ctx.player)[1])[1].name } end } } } }"#;

const ANCHOR: &str = r#"
return { { kind = "static", target = "players", affects = function(ctx, p) return p == ctx.player end,
  modify = { { char = "grip", op = "add", value = -2 } } } }"#;

const BULLY: &str = r#"
return { { kind = "static",
  affects = function(ctx, c) return c.controller ~= ctx.player end,
  modify = { { char = "power", op = "add", value = -1 } } } }"#;

const TOTEM: &str = r#"
local ward = { kind = "static", dormant = true, modify = { { char = "power", op = "add", value = 4 } } }
return {
  { kind = "activated", timing = "main", operate = function(ctx)
      for _, c in ipairs(ctx:cards("board", ctx.player)) do
        if c ~= ctx.source then ctx:grant_ability(ward, c, { ["until"] = "end_of_turn" }) end
      end
    end },
  ward,
}"#;

/// Static abilities as data: the kernel tests `affects` and counts the amount without Lua.
/// The banner weakens the opposing board's cards; the crown gives +2 per attached card to
/// the turn player's cards that have one.
const BANNER: &str = r#"
return { { kind = "static", affects = { zones = { "board" }, controller = "opponents" },
  modify = { { char = "power", op = "add", value = -1 } } } }"#;

const CROWN: &str = r#"
return { { kind = "static", affects = { controller = "turn_player", attached = 1 },
  modify = { { char = "power", op = "add", value = { per_attached = 2 } } } } }"#;

/// The yoke: a card holding others adds their speed to its power (as an attached rider's
/// power is added to its mount's).
const YOKE: &str = r#"
return { { kind = "static", affects = { zones = { "board" }, attached = 1 },
  modify = { { char = "power", op = "add", value = { of_attached = "speed" } } } } }"#;

fn card(id: &str, script: Option<&str>) -> CardDef {
    let mut fields = BTreeMap::new();
    fields.insert("power".to_string(), serde_json::json!(3));
    fields.insert("speed".to_string(), serde_json::json!(4));
    fields.insert("tags".to_string(), serde_json::json!(["wild"]));
    CardDef {
        id: id.into(),
        category: "thing".into(),
        name: [("en".to_string(), id.to_string())].into(),
        text: Default::default(),
        fields: fields.into(),
        keywords: Vec::new(),
        script: script.map(|s| Source {
            name: format!("{id}.lua"),
            text: s.into(),
        }),
    }
}

fn cards() -> Vec<CardDef> {
    vec![
        card("oak", None),
        card("elm", None),
        card("mirror", Some(MIRROR)),
        card("mask", Some(MASK)),
        card("anchor", Some(ANCHOR)),
        card("bully", Some(BULLY)),
        card("totem", Some(TOTEM)),
        card("banner", Some(BANNER)),
        card("crown", Some(CROWN)),
        card("yoke", Some(YOKE)),
    ]
}

fn content(tweak: impl FnOnce(&mut serde_json::Value), cards: Vec<CardDef>) -> Content {
    let mut raw: serde_json::Value = serde_json::from_str(MANIFEST).expect("manifest");
    tweak(&mut raw);
    let manifest: RulesetManifest = serde_json::from_value(raw).expect("manifest");
    Content {
        ruleset: Ruleset {
            manifest,
            scripts: vec![Source {
                name: "gauge.lua".into(),
                text: RULES_LUA.into(),
            }],
        },
        cards,
        libraries: Vec::new(),
    }
}

/// A game whose two boards hold these cards.
fn game_with(tweak: impl FnOnce(&mut serde_json::Value), boards: [&[&str]; 2]) -> Game {
    let e: Rc<Engine> = Engine::new(&content(tweak, cards())).unwrap_or_else(|es| panic!("{es:?}"));
    let deck = |ids: &[&str]| {
        let mut d = DeckList::default();
        d.sections.insert(
            "board".into(),
            ids.iter().map(|id| (id.to_string(), 1)).collect(),
        );
        d
    };
    Game::new(
        e,
        GameConfig {
            seed: 1,
            decks: vec![deck(boards[0]), deck(boards[1])],
            keep_log: true,
        },
    )
    .expect("game starts")
}

fn game(boards: [&[&str]; 2]) -> Game {
    game_with(|_| {}, boards)
}

fn load_errors(tweak: impl FnOnce(&mut serde_json::Value), cards: Vec<CardDef>) -> String {
    match Engine::new(&content(tweak, cards)) {
        Ok(_) => panic!("loaded"),
        Err(es) => es
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

fn pick(g: &mut Game, label: &str) {
    let Some(Request::Choose {
        options, player, ..
    }) = g.request().cloned()
    else {
        panic!("no choice")
    };
    let i = options
        .iter()
        .position(|o| o.label == label)
        .unwrap_or_else(|| panic!("no option '{label}'"));
    g.respond(
        player,
        Response::Choose {
            indices: vec![i as u32],
        },
    )
    .expect("legal");
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
        .unwrap_or_else(|| panic!("no count '{key}': {:?}", g.errors()))
}

/// Card `id` on player `p`'s board, as `p` sees it.
fn seen(g: &Game, p: PlayerId, id: &str) -> views::CardView {
    g.view(p)
        .zones
        .into_iter()
        .find(|z| z.name == "board" && z.owner == Some(p))
        .expect("board")
        .cards
        .into_iter()
        .find(|c| c.card.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no {id}"))
}

fn value(g: &Game, p: PlayerId, id: &str, char: &str) -> i64 {
    seen(g, p, id).values[char]
}

fn names(g: &Game, p: PlayerId, id: &str, char: &str) -> Vec<String> {
    seen(g, p, id).sets.get(char).cloned().unwrap_or_default()
}

fn player_value(g: &Game, p: PlayerId, name: &str) -> i64 {
    g.view(p).values[p as usize][name]
}

fn last_error(g: &Game) -> String {
    g.errors().last().cloned().unwrap_or_default()
}

#[test]
fn declared_layers_order_effects_whatever_their_timestamps() {
    let mut g = game_with(layered, [&["oak"], &["oak"]]);
    // Set-value, then +2: additions come last, so the +2 counts (the default order would
    // let the set override it).
    pick(&mut g, "fix");
    pick(&mut g, "pump");
    assert_eq!(value(&g, 0, "oak", "power"), 7);
    // A later replacement of the printed value sits in an earlier layer: the set still wins.
    pick(&mut g, "reflect");
    assert_eq!(value(&g, 0, "oak", "power"), 7);

    let mut g = game_with(layered, [&["oak"], &["oak"]]);
    pick(&mut g, "reflect");
    pick(&mut g, "pump");
    assert_eq!(
        value(&g, 0, "oak", "power"),
        12,
        "10 replaces the printed 3, then +2"
    );
}

#[test]
fn without_declared_layers_the_default_ones_keep_todays_order_and_have_names() {
    let mut g = game([&["oak"], &["oak"]]);
    pick(&mut g, "pump in add");
    pick(&mut g, "fix");
    assert_eq!(value(&g, 0, "oak", "power"), 5, "the set overrides the +2");
    pick(&mut g, "pump");
    assert_eq!(
        value(&g, 0, "oak", "power"),
        5,
        "and a later +2 too: sets come after additions by default"
    );
    pick(&mut g, "tame");
    pick(&mut g, "layers");
    assert_eq!(
        counted(&g, "in set"),
        2,
        "ctx:effects names the layers: the set and the grant are in `set`"
    );
}

#[test]
fn an_unknown_layer_is_an_error_naming_it_and_the_declared_ones() {
    let mut g = game_with(layered, [&["oak"], &["oak"]]);
    pick(&mut g, "bad layer");
    let err = last_error(&g);
    assert!(
        err.contains("bogus") && err.contains("printed_override") && err.contains("form"),
        "{err}"
    );
    assert_eq!(value(&g, 0, "oak", "power"), 3);

    // In a static ability: a load error naming the card.
    let mut bad = cards();
    bad.push(card(
        "odd",
        Some(r#"return { { kind = "static", modify = { { char = "power", op = "add", value = 1, layer = "form" } } } }"#),
    ));
    let err = load_errors(layered, bad);
    assert!(
        err.contains("odd") && err.contains("layer 'form'") && err.contains("does not hold add"),
        "{err}"
    );
}

#[test]
fn bad_layer_and_bound_declarations_are_load_errors_that_say_what_to_do() {
    let err = load_errors(
        |m| {
            m["layers"] = serde_json::json!([
                {"name": "base", "ops": ["set_base"]},
                {"name": "base", "ops": ["set", "grant", "revoke"]}
            ]);
            m["characteristics"][1]["min"] = serde_json::json!(6);
            m["player_characteristics"] = serde_json::json!([
                {"name": "reserve", "start": 1},
                {"name": "hold", "from": "stash"}
            ]);
        },
        cards(),
    );
    for want in [
        "layers: layer 'base' is declared twice",
        "no layer holds add for 'power'",
        "characteristics.speed: min 6 is above max 5",
        "player_characteristics.reserve: 'reserve' is also a player value",
        "player_characteristics.hold.from: unknown player value 'stash' (declared: reserve)",
    ] {
        assert!(err.contains(want), "missing «{want}» in:\n{err}");
    }
}

#[test]
fn bounds_keep_the_raw_value_and_a_layer_bound_does_not() {
    // Bounds on read, with memory: 3 − 5 reads 0 (raw −2); +2 still reads 0 (raw 0).
    let mut g = game([&["oak"], &["oak"]]);
    pick(&mut g, "weaken");
    assert_eq!(value(&g, 0, "oak", "power"), 0);
    pick(&mut g, "pump");
    pick(&mut g, "raw");
    assert_eq!(counted(&g, "power"), 0);
    assert_eq!(value(&g, 0, "oak", "power"), 0);
    pick(&mut g, "pump");
    assert_eq!(value(&g, 0, "oak", "power"), 2);
    // An upper bound the same way: 4 + 3 reads 5 (raw 7); − 3 reads 4.
    pick(&mut g, "hasten");
    assert_eq!(value(&g, 0, "oak", "speed"), 5);
    pick(&mut g, "raw");
    assert_eq!(counted(&g, "speed"), 7);
    pick(&mut g, "slow");
    assert_eq!(value(&g, 0, "oak", "speed"), 4);

    // The base set to −3, then +2: with memory the sum is −1 and reads 0...
    let mut g = game([&["oak"], &["oak"]]);
    pick(&mut g, "shrink");
    pick(&mut g, "pump");
    assert_eq!(value(&g, 0, "oak", "power"), 0);
    // ...while a layer's bound applies where the layer ends: −3 becomes 0, then +2.
    let mut g = game_with(layered, [&["oak"], &["oak"]]);
    pick(&mut g, "shrink");
    pick(&mut g, "pump");
    assert_eq!(value(&g, 0, "oak", "power"), 2);
    pick(&mut g, "raw");
    assert_eq!(counted(&g, "power"), 2);
}

#[test]
fn a_set_replaces_the_whole_set_and_later_grants_apply_on_top() {
    let mut g = game([&["oak"], &["oak"]]);
    pick(&mut g, "tame");
    assert_eq!(names(&g, 0, "oak", "tags"), ["wild", "tame"]);
    pick(&mut g, "paint");
    assert_eq!(
        names(&g, 0, "oak", "tags"),
        ["red"],
        "the printed tag and the earlier grant are gone"
    );
    pick(&mut g, "blue");
    assert_eq!(names(&g, 0, "oak", "tags"), ["red", "blue"]);
}

#[test]
fn a_name_set_by_an_effect_that_persists_follows_the_card_through_zones() {
    // An identity rewrite that lasts the whole game: the names replaced by a `set` whose
    // effect persists in every zone the card goes to.
    let mut g = game([&["oak"], &["oak"]]);
    pick(&mut g, "rename");
    assert_eq!(names(&g, 0, "oak", "names"), ["elm"]);
    pick(&mut g, "stash");
    pick(&mut g, "unstash");
    assert_eq!(
        names(&g, 0, "oak", "names"),
        ["elm"],
        "a new object each move, the rewrite with it"
    );
    // Without `persists_in` the rewrite ends when the card leaves.
    let mut g = game([&["oak"], &["oak"]]);
    pick(&mut g, "rename briefly");
    assert_eq!(names(&g, 0, "oak", "names"), ["elm"]);
    pick(&mut g, "stash");
    pick(&mut g, "unstash");
    assert_eq!(names(&g, 0, "oak", "names"), ["oak"]);
}

#[test]
fn static_value_functions_compute_names() {
    let g = game([&["oak", "mirror", "mask"], &["elm"]]);
    let mut mirror = names(&g, 0, "mirror", "names");
    mirror.sort();
    assert_eq!(
        mirror,
        ["mask", "mirror", "oak"],
        "also named as the other cards on its board"
    );
    assert_eq!(
        names(&g, 0, "mask", "names"),
        ["elm"],
        "named only as the opposing board's first card"
    );
}

#[test]
fn player_characteristics_start_from_a_value_and_take_effects_and_statics() {
    let mut g = game([&["oak", "anchor"], &["oak"]]);
    // reach starts from reserve (2); grip from 7, −2 by P1's anchor.
    assert_eq!(player_value(&g, 0, "reach"), 2);
    assert_eq!(player_value(&g, 0, "grip"), 5);
    assert_eq!(player_value(&g, 1, "grip"), 7);
    // −5 until the end of the turn: reads 0, raw −3; each +3 of reserve starts from −3.
    pick(&mut g, "widen");
    assert_eq!(player_value(&g, 0, "reach"), 0);
    pick(&mut g, "stock");
    pick(&mut g, "raw");
    assert_eq!(counted(&g, "reach"), 0);
    assert_eq!(counted(&g, "reach read"), 0);
    pick(&mut g, "stock");
    assert_eq!(player_value(&g, 0, "reach"), 3);
    pick(&mut g, "end turn");
    assert_eq!(
        player_value(&g, 0, "reach"),
        8,
        "the effect ended with the turn"
    );
    pick(&mut g, "end turn");
    pick(&mut g, "stock");
    assert_eq!(player_value(&g, 0, "reserve"), 11);
    assert_eq!(player_value(&g, 0, "reach"), 9, "at most 9");
    // A computed value cannot be set.
    pick(&mut g, "force reach");
    let err = last_error(&g);
    assert!(
        err.contains("player characteristic") && err.contains("reserve"),
        "{err}"
    );
}

#[test]
fn value_without_leaves_out_what_a_player_controls_or_what_increases() {
    let mut g = game([&["oak"], &["oak", "bully"]]);
    // P1's oak: 3, −1 from P2's bully, +2 from P1.
    pick(&mut g, "pump");
    pick(&mut g, "end turn");
    // P2 curses it (−1) and measures it.
    pick(&mut g, "curse");
    pick(&mut g, "measure");
    assert_eq!(counted(&g, "theirs"), 3);
    assert_eq!(counted(&g, "without theirs"), 1, "without P1's +2");
    assert_eq!(
        counted(&g, "without mine"),
        5,
        "without P2's curse and P2's bully"
    );
    assert_eq!(counted(&g, "without increases"), 1);
    assert_eq!(counted(&g, "without my increases"), 3, "P2 raised nothing");
}

#[test]
fn a_granted_static_ability_applies_to_its_host_while_the_grant_lasts() {
    let mut g = game([&["oak", "totem"], &["oak"]]);
    assert_eq!(value(&g, 0, "oak", "power"), 3);
    pick(&mut g, "use totem");
    assert_eq!(value(&g, 0, "oak", "power"), 7);
    assert_eq!(
        value(&g, 0, "totem", "power"),
        3,
        "the totem gave it to the others only"
    );
    pick(&mut g, "end turn");
    assert_eq!(
        value(&g, 0, "oak", "power"),
        3,
        "the grant ended with the turn"
    );
}

#[test]
fn a_static_ability_declared_as_data_selects_its_cards_and_counts_attachments() {
    let mut g = game([&["oak", "elm", "crown"], &["oak", "banner"]]);
    // P2's banner: P1's board is the opposing one (−1 each); its own side is untouched.
    assert_eq!(value(&g, 0, "oak", "power"), 2);
    assert_eq!(value(&g, 1, "oak", "power"), 3);
    // P1's crown: nothing attached yet.
    pick(&mut g, "hang elm");
    // Oak holds elm: +2 for one attached card on the turn player's side, −1 from the banner.
    assert_eq!(value(&g, 0, "oak", "power"), 4);
    pick(&mut g, "end turn");
    // Not the turn player's any more: the crown gives nothing.
    assert_eq!(value(&g, 0, "oak", "power"), 2);
}

#[test]
fn a_static_ability_adds_what_the_attached_cards_have() {
    let mut g = game([&["oak", "elm", "yoke"], &["oak"]]);
    assert_eq!(value(&g, 0, "oak", "power"), 3, "nothing attached yet");
    pick(&mut g, "hang elm");
    // Elm (speed 4) hangs under oak: oak gets elm's speed as read, within its bounds.
    assert_eq!(value(&g, 0, "oak", "power"), 7);
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    // Elm's speed changes are read through: +3 takes it to its bound 5.
    pick(&mut g, "hasten elm");
    assert_eq!(value(&g, 0, "oak", "power"), 8);
    // A sum of a set characteristic is a load error that lists the integer ones.
    let mut cards = cards();
    cards.push(card(
        "flag",
        Some(
            "return { { kind = \"static\", affects = \"self\", modify = { { char = \"power\", \
             op = \"add\", value = { of_attached = \"tags\" } } } } }",
        ),
    ));
    let e = load_errors(|_| {}, cards);
    assert!(
        e.contains("flag") && e.contains("'tags'") && e.contains("power, speed"),
        "{e}"
    );
}

#[test]
fn a_characteristic_reads_inside_a_printed_field_and_a_valued_keyword() {
    let tweak = |m: &mut serde_json::Value| {
        let chars = m["characteristics"].as_array_mut().expect("list");
        chars.push(serde_json::json!({"name": "grip_power", "kind": "int", "field": "grip.power"}));
        chars.push(serde_json::json!({"name": "alias", "kind": "set", "field": "grip.name.en"}));
        chars.push(serde_json::json!({"name": "mend", "kind": "int", "field": "keywords.mend"}));
        m["keywords"]
            .as_array_mut()
            .expect("list")
            .push(serde_json::json!({"name": "mend", "valued": true}));
    };
    let mut oak = card("oak", None);
    oak.fields.insert(
        "grip".into(),
        serde_json::json!({"power": 5, "name": {"en": "Iron Hand", "th": "มือเหล็ก"}}),
    );
    oak.keywords = vec![KeywordUse::Valued(
        [("mend".to_string(), 2)].into_iter().collect(),
    )];
    let mut cards: Vec<CardDef> = cards().into_iter().filter(|c| c.id != "oak").collect();
    cards.push(oak);
    let e: Rc<Engine> = Engine::new(&content(tweak, cards)).unwrap_or_else(|es| panic!("{es:?}"));
    let mut d = DeckList::default();
    d.sections.insert(
        "board".into(),
        [("oak".to_string(), 1), ("elm".to_string(), 1)].into(),
    );
    let g = Game::new(
        e,
        GameConfig {
            seed: 1,
            decks: vec![d.clone(), d],
            keep_log: true,
        },
    )
    .expect("game starts");
    assert_eq!(value(&g, 0, "oak", "grip_power"), 5);
    assert_eq!(names(&g, 0, "oak", "alias"), vec!["Iron Hand".to_string()]);
    assert_eq!(value(&g, 0, "oak", "mend"), 2);
    // A card without the field, or the keyword, has no printed value there.
    let elm = seen(&g, 0, "elm");
    assert_eq!(elm.values.get("grip_power"), None);
    assert_eq!(elm.values.get("mend"), None);
    assert!(names(&g, 0, "elm", "alias").is_empty());
}

#[test]
fn a_static_ability_with_a_bad_data_test_is_a_load_error() {
    let bad = |affects: &str, value: &str| {
        let script = format!(
            "return {{ {{ kind = \"static\", affects = {affects}, \
             modify = {{ {{ char = \"power\", op = \"add\", value = {value} }} }} }} }}"
        );
        let mut cards = cards();
        cards.push(card("flag", Some(&script)));
        load_errors(|_| {}, cards)
    };
    let e = bad("{ zones = { \"moon\" } }", "1");
    assert!(e.contains("flag") && e.contains("moon"), "{e}");
    let e = bad("{ controller = \"everyone\" }", "1");
    assert!(
        e.contains("affects.controller") && e.contains("turn_player"),
        "{e}"
    );
    let e = bad("{ colour = \"red\" }", "1");
    assert!(e.contains("no test 'colour'"), "{e}");
    let e = bad("{ attached = -1 }", "1");
    assert!(e.contains("attached"), "{e}");
    let e = bad("\"self\"", "{ per_card = 3 }");
    assert!(e.contains("per_attached"), "{e}");
}

#[test]
fn an_internal_characteristic_is_read_by_rules_but_left_out_of_views() {
    // Speed marked `internal` (a ruleset's bookkeeping): the yoke still adds elm's speed to
    // oak's power, but no view shows a speed.
    let internal = |m: &mut serde_json::Value| {
        for c in m["characteristics"].as_array_mut().expect("list") {
            if c["name"] == "speed" || c["name"] == "tags" {
                c["internal"] = serde_json::json!(true);
            }
        }
    };
    let mut g = game_with(internal, [&["oak", "elm", "yoke"], &["oak"]]);
    pick(&mut g, "hang elm");
    assert_eq!(value(&g, 0, "oak", "power"), 7, "3 + elm's speed 4");
    let oak = seen(&g, 0, "oak");
    assert!(!oak.values.contains_key("speed"), "{:?}", oak.values);
    assert!(!oak.sets.contains_key("tags"), "{:?}", oak.sets);
    // Without the mark, both are shown.
    let g = game([&["oak"], &["oak"]]);
    assert_eq!(value(&g, 0, "oak", "speed"), 4);
    assert_eq!(names(&g, 0, "oak", "tags"), ["wild"]);
}
