//! Procedures the kernel runs step by step, and declared windows, on a made-up game
//! ("Duel"): a fighter challenges another; the defender may guard with another fighter
//! (a window where each answers once), both sides may boost in turn from hand (an
//! alternating window, defender first), then the stronger fighter stays. The duel's record
//! (attacker, defender, boosts) is the kernel's between steps, so every decision at a step
//! boundary or in a declared window is quiescent.

mod common;

use std::rc::Rc;

use common::{engine_of, load_errors, new_game, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "duel", "name": {"en": "Duel"}, "version": "1",
  "players": {"min": 2, "max": 4},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true, "capacity": 5},
    {"name": "discard", "scope": "player", "visibility": "public", "ordered": true}
  ],
  "categories": ["fighter"],
  "characteristics": [{"name": "power", "kind": "int", "min": 0}, {"name": "tags", "kind": "set"}],
  "timings": ["main"],
  "orientations": ["ready", "tired"],
  "events": ["challenged", "boosted", "duel_over"],
  "durations": ["end_of_duel", "end_of_turn"],
  "setup": "setup",
  "turn": {"phases": [
    {"name": "main", "run": "draw_phase", "kinds": ["challenge", "recruit", "use", "end"], "actions": "main_actions"},
    {"name": "end", "run": "end_phase"}
  ]},
  "triggers": {"order": "fifo_batches", "player_orders": true},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "main", "zone": "deck"}]},
  "scripts": ["duel.lua"],
  "actions": [
    {"name": "challenge", "cards": {"zones": ["board"], "orientation": "ready",
       "entered_before_this_turn": true, "unless_it_has": {"tags": ["haste"]}, "without": {"tags": ["meek"]}},
     "targets": [{"zones": ["board"], "of": "opponents"}],
     "label": "challenge {target} with {card}",
     "procedure": "duel", "data": {"attacker": "card", "defender": "target"}},
    {"name": "recruit", "cards": {"zones": ["hand"]},
     "cost": {"value": "power", "payable": {"zones": ["board"]}},
     "allowed": "may_recruit", "condition": "not_a_dummy",
     "label": "recruit {card} ({value})", "run": "recruit"},
    {"name": "use", "abilities": "main", "abilities_in": ["board"], "label": "use {card}", "run": "use_ability"},
    {"name": "end", "ends_phase": true, "label": "end turn"},
    {"name": "guard_with", "cards": {"zones": ["board"], "orientation": "ready"},
     "condition": "not_the_defender", "label": "guard with {card}", "run": "guard"},
    {"name": "no_guard", "kind": "pass", "ends_phase": true, "label": "no guard"}
  ],
  "procedures": [
    {"name": "duel", "steps": [
      {"name": "declare", "run": "duel_declare"},
      {"name": "guard", "window": {"players": "defending_player", "model": "once", "kinds": ["guard_with", "no_guard"]}},
      {"name": "boost", "window": {"players": "defender_first", "model": "alternating", "actions": "boost_actions"}},
      {"name": "clash", "run": "duel_clash"},
      {"name": "after", "run": "duel_after", "always": true}
    ]},
    {"name": "rally", "steps": [
      {"name": "call", "window": {"players": "everyone", "model": "once", "actions": "rally_actions", "prompt": "rally"}}
    ]},
    {"name": "showdown", "steps": [
      {"name": "open", "run": "showdown_open"},
      {"name": "close", "run": "showdown_close"}
    ]},
    {"name": "auction", "steps": [
      {"name": "bids", "window": {"players": "everyone", "model": "alternating", "actions": "bid_actions", "prompt": "bid"}}
    ]}
  ]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx)
  for p = 1, ctx.players do
    for i = 1, 3 do draw(ctx, p) end
  end
end

function draw(ctx, p)
  local top = ctx:top("deck", p, 1)[1]
  if top then ctx:move(top, "hand", { reason = "draw" }) end
end

function draw_phase(ctx) draw(ctx, ctx.turn_player) end
function end_phase(ctx) ctx:expire("end_of_turn") end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  for _, c in ipairs(ctx:cards("hand", p)) do
    out[#out + 1] = { label = "play " .. c.name, card = c,
      run = function(ctx, o) ctx:move(o.card, "board", { reason = "play" }) end }
  end
  out[#out + 1] = { label = "auction", procedure = "auction" }
  out[#out + 1] = { label = "call nobody", procedure = "nobody" }
  out[#out + 1] = { label = "showdown", procedure = "showdown", data = { how = "rally" } }
  out[#out + 1] = { label = "botched showdown", procedure = "showdown", data = { how = "botch" } }
  return out
end

-- Recruiting (an action kind the kernel lists): a card whose power is at most the number of
-- your board's cards joins the board, while you have fewer than 3 there; never a dummy.
function may_recruit(ctx, p) return ctx:count("board", p) < 3 end
function not_a_dummy(ctx, c) return c.name ~= "dummy" end
function brute_spares_ace(ctx, c, t) return not (c.name == "brute" and t.name == "ace") end
function recruit(ctx, o) ctx:move(o.card, "board", { reason = "recruit" }) end
function use_ability(ctx, o) activate(ctx:with({ source = o.card }), o.ability, {}) end

-- The duel -----------------------------------------------------------------------------------

function duel_declare(ctx, d)
  ctx:set_orientation(d.attacker, "tired", "duel")
  ctx:emit("challenged", { card = d.defender, target = d.attacker, player = d.defender.controller })
  -- A fighter with no power yields at once: nothing but the duel's end happens.
  if d.defender.power == 0 then return "stop" end
end

function defending_player(ctx, d) return { d.defender.controller } end
function defender_first(ctx, d) return { d.defender.controller, d.attacker.controller } end
function everyone(ctx, d) return ctx:turn_order() end

-- The guard window's options are kernel-listed (`guard_with`, `no_guard`); its condition and
-- run get the duel's record after their usual arguments.
function not_the_defender(ctx, c, d) return c ~= d.defender end
function guard(ctx, o, d) ctx:set_orientation(o.card, "tired", "guard"); d.defender = o.card end

function boost_actions(ctx, p, d)
  local mine = d.attacker.controller == p and d.attacker or d.defender
  local out = {}
  for _, c in ipairs(ctx:cards("hand", p)) do
    out[#out + 1] = { label = "boost " .. mine.name .. " with " .. c.name, card = c,
      run = function(ctx, o, d)
        ctx:move(o.card, "discard", { reason = "boost" })
        ctx:modify(mine, { char = "power", op = "add", value = 1 }, { ["until"] = "end_of_duel" })
        d.boosts = (d.boosts or 0) + 1
        ctx:emit("boosted", { card = mine, player = p, key = "card" })
      end }
  end
  out[#out + 1] = { label = "rally",
    run = function(ctx, o, d)
      ctx:procedure("rally", { caller = p })
      ctx:emit("boosted", { player = p, key = "after_rally" })
    end }
  out[#out + 1] = { label = "call a rally", procedure = "rally", data = { caller = p } }
  out[#out + 1] = { label = "pass", pass = true }
  return out
end

function duel_clash(ctx, d)
  local a, b = d.attacker, d.defender
  if not (a.alive and b.alive) then return "stop" end
  if a.power >= b.power then ctx:move(b, "discard", { reason = "duel" }) end
  if b.power >= a.power then ctx:move(a, "discard", { reason = "duel" }) end
end

function duel_encore(ctx, d) ctx:emit("boosted", { key = "encore" }) end

function duel_after(ctx, d)
  ctx:emit("duel_over", { card = d.attacker, target = d.defender, amount = d.boosts or 0 })
  ctx:expire("end_of_duel")
end

-- A showdown: its first step ends by handing the kernel a rally to run (the step's script is
-- over before the rally asks anything); the second step runs after the rally.
function showdown_open(ctx, d)
  ctx:emit("boosted", { player = ctx.player, key = "open" })
  if d.how == "botch" then return { data = {} } end
  return { procedure = "rally", data = { caller = ctx.player } }
end

function showdown_close(ctx, d) ctx:emit("boosted", { player = ctx.player, key = "close" }) end

-- Windows of their own -----------------------------------------------------------------------

function rally_actions(ctx, p, d)
  return { { label = "cheer", run = function(ctx) ctx:emit("boosted", { player = p, key = "cheer" }) end },
           { label = "stay silent", pass = true } }
end

function bid_actions(ctx, p, d)
  return { { label = "bid", run = function(ctx) ctx:emit("boosted", { player = p, key = "bid" }) end },
           { label = "pass", pass = true } }
end

function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end
function validate_deck(deck) return {} end
"#;

fn card(id: &str, power: i64, script: Option<&str>) -> CardDef {
    tagged(id, power, &[], script)
}

fn tagged(id: &str, power: i64, tags: &[&str], script: Option<&str>) -> CardDef {
    common::card(
        id,
        "fighter",
        serde_json::json!({ "power": power, "tags": tags }),
        script,
    )
}

/// The content of `manifest` with `lua` as its `targets.lua`.
fn content_with_targets(manifest: &str, lua: &str) -> Content {
    let mut c = content(manifest);
    c.ruleset.scripts.push(Source {
        name: "targets.lua".into(),
        text: lua.into(),
    });
    c
}

/// The `hail` options P1 is offered at the start of a game of `n` players with `e`'s rules.
fn hails(e: &Rc<Engine>, n: usize) -> Vec<String> {
    let g = new_game(e, 7, vec![deck(&[("cub", 4)]); n]);
    assert!(g.errors().is_empty(), "{:?}", g.errors());
    let (_, player, labels) = asked(&g);
    assert_eq!(player, 0);
    labels
        .into_iter()
        .filter(|l| l.starts_with("hail"))
        .collect()
}

fn content(manifest: &str) -> Content {
    common::content(
        manifest,
        |_| {},
        &[("duel.lua", RULES_LUA)],
        vec![
            card("ace", 3, None),
            card("brute", 2, None),
            card("cub", 1, None),
            card("dummy", 0, None),
            tagged("sprinter", 1, &["haste"], None),
            tagged("lamb", 1, &["meek"], None),
            // Flare: an ability usable from hand, which the `use` action does not list (its
            // `abilities_in` is the board).
            card(
                "flare",
                1,
                Some(
                    r#"return { { kind = "activated", timing = "main", zones = { "hand" },
                   operate = function(ctx) ctx:emit("boosted", { key = "flare" }) end } }"#,
                ),
            ),
            // Bugler: [Main] sound the horn (a `boosted` event keyed "bugle").
            card(
                "bugler",
                1,
                Some(
                    r#"return { { kind = "activated", timing = "main",
                   operate = function(ctx) ctx:emit("boosted", { key = "bugle", player = ctx.player }) end } }"#,
                ),
            ),
            // Jinx: [Main] you are exhausted until the end of the turn (a player grant).
            card(
                "jinx",
                0,
                Some(
                    r#"return { { kind = "activated", timing = "main",
                   operate = function(ctx)
                     ctx:grant_player(ctx.player, "exhausted", { ["until"] = "end_of_turn" })
                   end } }"#,
                ),
            ),
            // Herald: while a duel runs, its defender has +5 power (a static ability that
            // reads the duel's record); and when a fighter is challenged, it tries to rewrite
            // the record it read.
            card(
                "herald",
                0,
                Some(
                    r#"return {
                 { kind = "static",
                   affects = function(ctx, c)
                     local d = ctx:running("duel")
                     return d ~= nil and d.defender == c
                   end,
                   modify = { { char = "power", op = "add", value = 5 } } },
                 { kind = "triggered", on = "challenged",
                   operate = function(ctx)
                     local d = ctx:running("duel")
                     d.defender = d.attacker
                     d.boosts = 99
                   end } }"#,
                ),
            ),
            // Warden: a static ability with the `main` timing and nothing else (what
            // `target_condition_while: main` looks for).
            card(
                "warden",
                0,
                Some(r#"return { { kind = "static", timing = "main" } }"#),
            ),
            // Watcher: when a card of yours is challenged, draw a card.
            card(
                "watcher",
                1,
                Some(
                    r#"return { { kind = "triggered", on = "challenged",
                   when = function(ctx, ev) return ev.player == ctx.player end,
                   operate = function(ctx) draw(ctx, ctx.player) end } }"#,
                ),
            ),
        ],
    )
}

fn engine() -> Rc<Engine> {
    engine_of(&content(MANIFEST))
}

fn deck(cards: &[(&str, u32)]) -> DeckList {
    common::deck("main", cards)
}

fn game(decks: Vec<DeckList>) -> Game {
    new_game(&engine(), 7, decks)
}

/// The pending request's prompt, player and option labels.
fn asked(g: &Game) -> (String, PlayerId, Vec<String>) {
    match g.request().expect("a request") {
        Request::Choose {
            prompt,
            player,
            options,
            ..
        } => (
            prompt.clone(),
            *player,
            options.iter().map(|o| o.label.clone()).collect(),
        ),
        other => panic!("not a choice: {other:?}"),
    }
}

/// The ruleset's own events so far, as `name` or `name:key`, with the seat (1-based).
fn story(g: &Game) -> Vec<String> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e)
                if ["challenged", "boosted", "duel_over"].contains(&e.name.as_str()) =>
            {
                let who = e.player.map(|p| format!("@{}", p + 1)).unwrap_or_default();
                Some(match &e.key {
                    Some(k) => format!("{}:{k}{who}", e.name),
                    None => format!("{}{who}", e.name),
                })
            }
            Entry::Event(e) if e.name == "moved" && e.reason.as_deref() == Some("duel") => {
                Some(format!("lost:{}", g.card_id(e.card.expect("a moved card"))))
            }
            _ => None,
        })
        .collect()
}

/// P1 has ace on the board, P2 brute and watcher (and a cub in hand), and it is P1's turn
/// again. (A deck list is put in card-id order, so its last id is drawn first.)
fn two_boards() -> Game {
    two_boards_of(&engine())
}

/// P1's ace against P2's brute and watcher, P1 to act, with the rules of `e`.
fn two_boards_of(e: &Rc<Engine>) -> Game {
    let mut g = new_game(
        e,
        7,
        vec![
            deck(&[("ace", 1), ("cub", 2)]),
            deck(&[("brute", 1), ("watcher", 1), ("cub", 1)]),
        ],
    );
    picks(
        &mut g,
        &[
            "play ace",
            "end turn",
            "play brute",
            "play watcher",
            "end turn",
        ],
    );
    g
}

/// A game of `two_boards_of` with `manifest`, after P1 challenged brute with ace: the guard
/// window comes next.
fn challenged_with(manifest: &str) -> Game {
    let mut g = two_boards_of(&engine_of(&content(manifest)));
    pick(&mut g, "challenge brute with ace");
    g
}

/// The guard window is asked of the defender, P2: guard with watcher, or not.
fn assert_guard_asked_of_the_defender(g: &Game) {
    let (prompt, player, labels) = asked(g);
    assert_eq!((prompt.as_str(), player), ("guard", 1));
    assert_eq!(labels, ["guard with watcher", "no guard"]);
}

/// The guard step failed with an error that names it and says `what`.
fn assert_the_guard_step_failed(g: &Game, what: &str) {
    let errors = g.errors().join("\n");
    assert!(
        errors.contains("step guard") && errors.contains(what),
        "{errors}"
    );
}

#[test]
fn a_procedure_runs_its_steps_in_order_and_keeps_its_record_between_them() {
    let mut g = challenged_with(MANIFEST);
    // The watcher's trigger resolved after the declare step; then the guard window.
    assert_guard_asked_of_the_defender(&g);
    // The guard's run changes the record: the watcher is now the defender.
    pick(&mut g, "guard with watcher");
    let (prompt, player, _) = asked(&g);
    assert_eq!(
        (prompt.as_str(), player),
        ("boost", 1),
        "the defender boosts first"
    );
    pick(&mut g, "boost watcher with cub");
    assert_eq!(asked(&g).1, 0, "then the attacker");
    pick(&mut g, "pass");
    pick(&mut g, "pass");
    // ace 3 against watcher 1 + 1: the watcher loses; the boost ends with the duel.
    assert_eq!(
        story(&g),
        [
            "challenged@2",
            "boosted:card@2",
            "lost:watcher",
            "duel_over@1"
        ]
    );
    let log = g.log();
    let over = log
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Event(e) if e.name == "duel_over" => Some(e.clone()),
            _ => None,
        })
        .expect("the duel ended");
    assert_eq!(
        over.amount, 1,
        "the record kept the boost count across steps"
    );
    assert_eq!(g.card_id(over.data_card("target")), "watcher");
    assert_eq!(asked(&g).0, "main", "back in the open phase");
}

/// A card's value of an integer characteristic, as player 1 sees it.
fn power_of(g: &Game, id: ObjId) -> i64 {
    g.view(0)
        .zones
        .iter()
        .flat_map(|z| z.cards.iter())
        .find(|c| c.id == Some(id))
        .map(|c| c.values["power"])
        .expect("the card is in view")
}

/// The object id of the card with this id on a player's board.
fn on_board(g: &Game, p: PlayerId, card: &str) -> ObjId {
    g.view(0)
        .zones
        .iter()
        .filter(|z| z.name == "board" && z.owner == Some(p))
        .flat_map(|z| z.cards.iter())
        .find(|c| c.card.as_deref() == Some(card))
        .and_then(|c| c.id)
        .unwrap_or_else(|| panic!("no {card} on player {p}'s board"))
}

#[test]
fn any_script_reads_a_running_procedures_record_as_its_steps_and_windows_leave_it() {
    // P1: ace; P2: brute, watcher and the herald (whose static reads the duel's record).
    let mut g = game(vec![
        deck(&[("ace", 1), ("cub", 2)]),
        deck(&[("brute", 1), ("herald", 1), ("watcher", 1)]),
    ]);
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    for c in ["play brute", "play herald", "play watcher"] {
        pick(&mut g, c);
    }
    pick(&mut g, "end turn");
    let (ace, brute) = (on_board(&g, 0, "ace"), on_board(&g, 1, "brute"));
    let watcher = on_board(&g, 1, "watcher");
    assert_eq!(power_of(&g, brute), 2, "no duel runs: nil, so no bonus");
    pick(&mut g, "challenge brute with ace");
    // The herald's and the watcher's triggers: P2 orders them, the herald's first.
    assert_eq!(asked(&g).0, "order_triggers");
    let herald_first = asked(&g).2.into_iter().find(|l| l.contains("herald"));
    pick(
        &mut g,
        &herald_first.expect("the herald's trigger is offered"),
    );
    // In the guard window: the record the declare step left names brute the defender. The
    // herald's trigger changed only its copy: the attacker is not the defender.
    assert_eq!(asked(&g).0, "guard");
    assert_eq!((power_of(&g, brute), power_of(&g, ace)), (7, 3));
    // The guard action changes the record: the static follows it at once.
    pick(&mut g, "guard with watcher");
    assert_eq!((power_of(&g, watcher), power_of(&g, brute)), (6, 2));
    pick(&mut g, "pass");
    pick(&mut g, "pass");
    // watcher 6 against ace 3: ace loses. The boost count is the duel's, not the copy's 99.
    assert!(
        story(&g).contains(&"lost:ace".to_string()),
        "{:?}",
        story(&g)
    );
    let over = g
        .log()
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Event(e) if e.name == "duel_over" => Some(e.amount),
            _ => None,
        })
        .expect("the duel ended");
    assert_eq!(over, 0);
    // The duel is over: no record, no bonus.
    assert_eq!(asked(&g).0, "main");
    assert_eq!(power_of(&g, watcher), 1);
}

trait DataCard {
    fn data_card(&self, key: &str) -> ObjId;
}

impl DataCard for riffle_core::events::Event {
    fn data_card(&self, key: &str) -> ObjId {
        self.data
            .iter()
            .find_map(|(k, v)| match (k.as_str(), v) {
                (k2, riffle_core::values::Val::Card(c)) if k2 == key => Some(c.card),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no card '{key}' in {:?}", self.data))
    }
}

#[test]
fn every_decision_at_a_step_boundary_or_in_a_declared_window_is_quiescent_and_forks_alike() {
    let mut g = two_boards();
    pick(&mut g, "challenge brute with ace");
    let answers = [
        "guard with watcher",
        "boost watcher with cub",
        "pass",
        "pass",
    ];
    let mut forks = Vec::new();
    for a in answers {
        assert!(
            g.quiescent(),
            "asked '{}' with a script suspended",
            asked(&g).0
        );
        forks.push(g.fork());
        pick(&mut g, a);
    }
    // Each fork, answered the same way from where it was made, ends where the game did.
    for (i, mut f) in forks.into_iter().enumerate() {
        for a in &answers[i..] {
            pick(&mut f, a);
        }
        assert_eq!(f.log_hash(), g.log_hash(), "fork made before answer {i}");
    }
}

#[test]
fn trigger_ordering_after_a_step_is_quiescent() {
    // Two watchers of P2: both trigger on the challenge, and P2 orders them.
    let mut g = game(vec![
        deck(&[("ace", 1), ("cub", 3)]),
        deck(&[("watcher", 2), ("cub", 3)]),
    ]);
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    pick(&mut g, "play watcher");
    pick(&mut g, "play watcher");
    pick(&mut g, "end turn");
    pick(&mut g, "challenge watcher with ace");
    let (prompt, player, _) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("order_triggers", 1));
    assert!(g.quiescent());
}

#[test]
fn a_step_that_stops_skips_to_the_steps_that_always_run() {
    let mut g = game(vec![
        deck(&[("ace", 1), ("cub", 3)]),
        deck(&[("dummy", 1), ("cub", 3)]),
    ]);
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    pick(&mut g, "play dummy");
    pick(&mut g, "end turn");
    pick(&mut g, "challenge dummy with ace");
    // No guard, no boost, no clash: the duel's end came at once.
    assert_eq!(story(&g), ["challenged@2", "duel_over@1"]);
    assert_eq!(asked(&g).0, "main");
}

#[test]
fn a_data_stop_unless_goes_on_while_the_records_cards_are_alive() {
    // An `encore` step before the clash, with `stop_unless: {alive: [...]}` tested in Rust:
    // with the attacker and defender alive it runs; naming a field the record lacks, the
    // duel stops there (the clash is skipped, its `always` end still comes).
    let with = |fields: &str| {
        let manifest = MANIFEST.replace(
            r#"{"name": "clash", "run": "duel_clash"},"#,
            &format!(
                r#"{{"name": "encore", "stop_unless": {{"alive": [{fields}]}}, "run": "duel_encore"}},
      {{"name": "clash", "run": "duel_clash"}},"#
            ),
        );
        assert_ne!(manifest, MANIFEST);
        let mut g = new_game(
            &engine_of(&content(&manifest)),
            7,
            vec![
                deck(&[("ace", 1), ("cub", 2)]),
                deck(&[("brute", 1), ("cub", 2)]),
            ],
        );
        picks(&mut g, &["play ace", "end turn", "play brute", "end turn"]);
        picks(
            &mut g,
            &["challenge brute with ace", "no guard", "pass", "pass"],
        );
        story(&g)
    };
    assert_eq!(
        with(r#""attacker", "defender""#),
        [
            "challenged@2",
            "boosted:encore@1",
            "lost:brute",
            "duel_over@1"
        ]
    );
    assert_eq!(
        with(r#""attacker", "ghost""#),
        ["challenged@2", "duel_over@1"]
    );
}

#[test]
fn a_window_may_seat_the_controller_of_a_record_card() {
    // The guard window's `players: {controller_of: defender}`, read by the kernel from the
    // record: the same seat as the Lua `defending_player`; a field that is not a card is an
    // error naming the step.
    let seat = |field: &str| {
        let manifest = MANIFEST.replace(
            r#""players": "defending_player""#,
            &format!(r#""players": {{"controller_of": "{field}"}}"#),
        );
        assert_ne!(manifest, MANIFEST);
        challenged_with(&manifest)
    };
    assert_guard_asked_of_the_defender(&seat("defender"));
    assert_the_guard_step_failed(&seat("boosts"), "'boosts', which is not a card");
}

#[test]
fn windows_nest_and_the_inner_one_closes_first() {
    let mut g = two_boards();
    pick(&mut g, "challenge brute with ace");
    pick(&mut g, "no guard");
    // P2 rallies: a procedure with a window of its own, asked of both in turn order.
    pick(&mut g, "rally");
    let (prompt, player, _) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("rally", 0));
    pick(&mut g, "cheer");
    assert_eq!(asked(&g).1, 1);
    pick(&mut g, "stay silent");
    // The rally closed, its action finished, then the boost window went on with P1.
    assert_eq!(
        story(&g),
        ["challenged@2", "boosted:cheer@1", "boosted:after_rally@2"]
    );
    let (prompt, player, _) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("boost", 0));
}

#[test]
fn a_procedure_a_windows_option_starts_asks_in_its_own_windows_with_no_script_suspended() {
    let mut g = two_boards();
    pick(&mut g, "challenge brute with ace");
    pick(&mut g, "no guard");
    // P2 answers the boost window with an option that is a procedure: no script of the
    // boost window waits below it, so the rally's decisions are plain copies when forked.
    pick(&mut g, "call a rally");
    for (seat, answer) in [(0, "cheer"), (1, "stay silent")] {
        let (prompt, player, _) = asked(&g);
        assert_eq!((prompt.as_str(), player), ("rally", seat));
        assert!(g.quiescent(), "a script is suspended under the rally");
        let mut copy = g.fork();
        pick(&mut copy, answer);
        pick(&mut g, answer);
        assert_eq!(copy.log_hash(), g.log_hash());
    }
    // The rally closed; the boost window goes on with P1 and the duel's record is whole.
    assert_eq!(story(&g), ["challenged@2", "boosted:cheer@1"]);
    let (prompt, player, labels) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("boost", 0));
    assert!(
        labels.contains(&"boost ace with cub".to_string()),
        "{labels:?}"
    );
    pick(&mut g, "pass");
    pick(&mut g, "pass");
    assert_eq!(story(&g)[2..], ["lost:brute", "duel_over@1"]);
}

#[test]
fn a_step_may_end_by_calling_a_procedure_whose_windows_are_quiescent() {
    let mut g = two_boards();
    pick(&mut g, "showdown");
    for (seat, answer) in [(0, "cheer"), (1, "cheer")] {
        let (prompt, player, _) = asked(&g);
        assert_eq!((prompt.as_str(), player), ("rally", seat));
        assert!(
            g.quiescent(),
            "the step that called the rally is still suspended"
        );
        let mut copy = g.fork();
        pick(&mut copy, answer);
        pick(&mut g, answer);
        assert_eq!(copy.log_hash(), g.log_hash());
    }
    // The called procedure ran between the step that called it and the next step.
    assert_eq!(
        story(&g),
        [
            "boosted:open@1",
            "boosted:cheer@1",
            "boosted:cheer@2",
            "boosted:close@1"
        ]
    );
    assert_eq!(asked(&g).0, "main");
    assert!(g.errors().is_empty(), "{:?}", g.errors());

    // A table that names no procedure is an error of that step, and the action fails alone.
    let mut g = two_boards();
    pick(&mut g, "botched showdown");
    let errors = g.errors().join("\n");
    assert!(
        errors.contains("procedure showdown, step open")
            && errors.contains("{procedure = name, data = {...}}"),
        "{errors}"
    );
    assert_eq!(asked(&g).0, "main");
}

#[test]
fn an_alternating_window_with_three_seats_closes_when_all_pass_in_a_row() {
    let mut g = game(vec![
        deck(&[("cub", 4)]),
        deck(&[("cub", 4)]),
        deck(&[("cub", 4)]),
    ]);
    pick(&mut g, "auction");
    let mut seats = Vec::new();
    for a in ["bid", "pass", "bid", "pass", "pass", "pass"] {
        seats.push(asked(&g).1);
        assert!(g.quiescent());
        pick(&mut g, a);
    }
    assert_eq!(seats, [0, 1, 2, 0, 1, 2]);
    assert_eq!(story(&g), ["boosted:bid@1", "boosted:bid@3"]);
    assert_eq!(asked(&g).0, "main", "three passes in a row closed it");
}

#[test]
fn an_option_naming_no_procedure_fails_alone_with_a_clear_error() {
    let mut g = two_boards();
    pick(&mut g, "call nobody");
    let err = g.errors().last().expect("an error").clone();
    assert!(
        err.contains("no procedure 'nobody'") && err.contains("duel, rally, showdown, auction"),
        "{err}"
    );
    assert_eq!(asked(&g).0, "main", "the game goes on");
}

#[test]
fn a_step_must_do_one_thing_and_name_functions_that_exist() {
    let bad = MANIFEST
        .replace(
            r#"{"name": "clash", "run": "duel_clash"}"#,
            r#"{"name": "clash", "run": "duel_clash", "window": {"players": "everyone", "actions": "bid_actions"}}"#,
        )
        .replace(r#""run": "duel_after""#, r#""run": "no_such_function""#);
    let all = load_errors(&content(&bad));
    assert!(
        all.contains("procedure 'duel': step 'clash' needs either `run` or `window`"),
        "{all}"
    );
    assert!(
        all.contains("procedure 'duel': step 'after'") && all.contains("no_such_function"),
        "{all}"
    );
}

#[test]
fn a_fork_made_while_a_script_is_suspended_shows_the_game_and_answers_alike() {
    let mut g = two_boards();
    pick(&mut g, "challenge brute with ace");
    pick(&mut g, "no guard");
    pick(&mut g, "rally");
    // The rally runs inside P2's boost action, a script that waits for it.
    assert!(!g.quiescent());
    let mut f = g.fork();
    let mut ff = f.fork();
    for copy in [&f, &ff] {
        assert_eq!(copy.request(), g.request());
        assert_eq!(copy.log_hash(), g.log_hash());
        assert!(
            !copy.quiescent(),
            "an unbuilt fork is not a plain copy either"
        );
    }
    let answers = ["cheer", "stay silent", "pass", "pass"];
    for a in answers {
        pick(&mut g, a);
        pick(&mut f, a);
        pick(&mut ff, a);
    }
    assert_eq!(f.log_hash(), g.log_hash());
    assert_eq!(ff.log_hash(), g.log_hash());
    assert_eq!(asked(&f), asked(&g));
}

#[test]
fn kernel_listed_actions_come_first_with_labels_costs_and_conditions() {
    let mut g = two_boards();
    let (prompt, player, labels) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("main", 0));
    assert_eq!(
        labels,
        [
            // `challenge`: each ready card of P1 against each card of the others.
            "challenge brute with ace",
            "challenge watcher with ace",
            // `recruit`: cub's power 1 is at most P1's one board card.
            "recruit cub (1)",
            "recruit cub (1)",
            "end turn",
            // Then the ruleset's own list.
            "play cub",
            "play cub",
            "auction",
            "call nobody",
            "showdown",
            "botched showdown"
        ]
    );
    // The options carry their kind and cards, as a ruleset's would.
    let Some(Request::Choose { options, .. }) = g.request() else {
        panic!()
    };
    assert_eq!(options[0].kind.as_deref(), Some("challenge"));
    assert_eq!(g.card_id(options[0].card.unwrap()), "ace");
    assert_eq!(g.card_id(options[0].target.unwrap()), "brute");
    pick(&mut g, "recruit cub");
    let (_, _, labels) = asked(&g);
    assert!(labels.iter().any(|l| l == "recruit cub (1)"), "{labels:?}");
}

#[test]
fn a_kernel_listed_action_respects_its_cost_allowed_and_condition() {
    // P2: brute (power 2) and a dummy in hand, nothing on the board: brute costs more than
    // the board pays; the dummy's condition refuses it.
    let mut g = game(vec![
        deck(&[("ace", 1), ("cub", 2)]),
        deck(&[("brute", 1), ("dummy", 1), ("cub", 1)]),
    ]);
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    let (_, _, labels) = asked(&g);
    assert!(
        labels.iter().all(|l| !l.starts_with("recruit")),
        "{labels:?}"
    );
    pick(&mut g, "play cub");
    // One card on the board now: cub would cost 1 but none is left in hand; brute costs 2.
    let (_, _, labels) = asked(&g);
    assert!(
        labels.iter().all(|l| !l.starts_with("recruit")),
        "{labels:?}"
    );
    pick(&mut g, "play brute");
    pick(&mut g, "end turn");
    // P1 (board: ace) recruits cubs while fewer than 3 are on the board (`allowed`).
    pick(&mut g, "recruit cub");
    pick(&mut g, "recruit cub");
    let (_, _, labels) = asked(&g);
    assert!(
        labels.iter().all(|l| !l.starts_with("recruit")),
        "{labels:?}"
    );
}

#[test]
fn an_action_kind_naming_what_is_not_declared_is_a_load_error() {
    let bad = MANIFEST
        .replace(r#""zones": ["hand"]}"#, r#""zones": ["pocket"]}"#)
        .replace(
            r#""kinds": ["challenge", "recruit", "use", "end"]"#,
            r#""kinds": ["challenge", "recruit", "fly"]"#,
        )
        .replace(
            r#""label": "use {card}""#,
            r#""label": "use {card} at {speed}""#,
        );
    let errors = load_errors(&content(&bad));
    assert!(
        errors.contains("action 'recruit'") && errors.contains("pocket"),
        "{errors}"
    );
    assert!(
        errors.contains("phase 'main' lists action 'fly'"),
        "{errors}"
    );
    assert!(
        errors.contains("action 'use'") && errors.contains("{speed}"),
        "{errors}"
    );
}

/// Answers these options in turn.
fn picks(g: &mut Game, labels: &[&str]) {
    for l in labels {
        pick(g, l);
    }
}

/// Options whose label starts with `prefix`.
fn offered(g: &Game, prefix: &str) -> Vec<String> {
    let (_, _, labels) = asked(g);
    labels
        .into_iter()
        .filter(|l| l.starts_with(prefix))
        .collect()
}

#[test]
fn a_requirement_counts_its_cards_and_pays_nothing() {
    // `requires`: a card's power at most the number of the player's tired board cards (a
    // level met by cards already used), tested in Rust after the cost; nothing is paid.
    let manifest = MANIFEST.replace(
        r#""cost": {"value": "power", "payable": {"zones": ["board"]}},"#,
        r#""requires": {"value": "power", "count": {"zones": ["board"], "orientation": "tired"}},"#,
    )
    .replace(r#""recruit {card} ({value})""#, r#""recruit {card} ({power})""#);
    assert_ne!(manifest, MANIFEST);
    let mut g = two_boards_of(&engine_of(&content(&manifest)));
    // P1's ace is ready: no tired card meets cub's power 1.
    assert_eq!(offered(&g, "recruit"), Vec::<String>::new());
    // The challenge tires ace (ace 3 beats brute 2 and stays): one tired card now.
    picks(
        &mut g,
        &["challenge brute with ace", "no guard", "pass", "pass"],
    );
    assert_eq!(
        offered(&g, "recruit"),
        ["recruit cub (1)", "recruit cub (1)"]
    );
    // Recruiting paid nothing: ace is still the one tired card, and the other cub follows.
    pick(&mut g, "recruit cub");
    assert_eq!(offered(&g, "recruit"), ["recruit cub (1)"]);
}

/// The manifest with the recruit action's `with_ability: main` and its `condition`.
fn recruit_with_main_ability(condition: &str) -> String {
    let manifest = MANIFEST.replace(
        r#""allowed": "may_recruit", "condition": "not_a_dummy","#,
        &format!(
            r#""allowed": "may_recruit", "condition": "{condition}", "with_ability": "main","#
        ),
    );
    assert_ne!(manifest, MANIFEST);
    manifest
}

#[test]
fn with_ability_offers_only_cards_that_have_an_ability_of_the_timing() {
    // `with_ability: main`: of two cards in hand of power 1, only bugler (a `main` ability)
    // may be recruited; cub has none, and no Lua condition is asked of it.
    let manifest = recruit_with_main_ability("not_a_dummy");
    let mut g = new_game(
        &engine_of(&content(&manifest)),
        7,
        vec![
            deck(&[("ace", 1), ("bugler", 1), ("cub", 1)]),
            deck(&[("brute", 1), ("cub", 2)]),
        ],
    );
    pick(&mut g, "play ace");
    assert_eq!(offered(&g, "recruit"), ["recruit bugler (1)"]);
}

#[test]
fn with_ability_hands_its_condition_the_first_ability_the_card_lists() {
    // `with_ability: main`: the condition gets, after the card, the first ability
    // `ctx:abilities{card, timing = "main"}` lists, or nil. In hand, bugler's ability (which
    // works on the board) is not listed, so bugler is not offered; flare's (usable from hand)
    // is, and it is flare's own.
    let manifest = recruit_with_main_ability("usable_as_listed");
    let lua = r#"
function usable_as_listed(ctx, c, ab)
  local listed = ctx:abilities({ card = c, timing = "main" })[1]
  assert((ab == nil) == (listed == nil), "the ability handed differs from the listed one")
  if ab == nil then return false end
  assert(ab.source == c and ab.key == listed.key and ab.def == listed.def and ab.index == 1)
  return true
end
"#;
    let mut g = new_game(
        &engine_of(&common::content(
            &manifest,
            |_| {},
            &[("duel.lua", &format!("{RULES_LUA}{lua}"))],
            content(&manifest).cards,
        )),
        7,
        vec![
            deck(&[("ace", 1), ("bugler", 1), ("flare", 1)]),
            deck(&[("brute", 1), ("cub", 2)]),
        ],
    );
    pick(&mut g, "play ace");
    assert_eq!(offered(&g, "recruit"), ["recruit flare (1)"]);
}

#[test]
fn data_tests_bar_an_action_in_a_players_first_turn_and_while_they_have_a_grant() {
    // `from_own_turn: 2`: no challenge in a player's first turn, even with haste; and
    // `unless_player_has`: no recruiting while the player is exhausted. Both are tested in
    // Rust before `allowed`.
    let manifest = MANIFEST
        .replace(
            r#""label": "challenge {target} with {card}","#,
            r#""label": "challenge {target} with {card}", "from_own_turn": 2,"#,
        )
        .replace(
            r#""allowed": "may_recruit","#,
            r#""allowed": "may_recruit", "unless_player_has": ["exhausted"],"#,
        );
    let mut g = new_game(
        &engine_of(&content(&manifest)),
        7,
        vec![
            deck(&[("ace", 1), ("cub", 2), ("jinx", 1)]),
            deck(&[("sprinter", 1), ("cub", 2)]),
        ],
    );
    picks(&mut g, &["play jinx", "play ace", "end turn"]);
    // P2's first turn: sprinter has haste, ace is there to challenge, but it is turn one of
    // P2's own.
    pick(&mut g, "play sprinter");
    assert_eq!(offered(&g, "challenge"), Vec::<String>::new());
    pick(&mut g, "end turn");
    // P1's second turn: ace challenges; cub can be recruited (power 1, two cards on the
    // board) until P1 exhausts themself with jinx, for the rest of the turn.
    let challenges = [
        "challenge sprinter with jinx",
        "challenge sprinter with ace",
    ];
    assert_eq!(offered(&g, "challenge"), challenges);
    assert_eq!(
        offered(&g, "recruit"),
        ["recruit cub (1)", "recruit cub (1)"]
    );
    pick(&mut g, "use jinx");
    assert_eq!(offered(&g, "recruit"), Vec::<String>::new());
    assert_eq!(offered(&g, "challenge"), challenges);
    pick(&mut g, "end turn");
    // P2's second turn: sprinter may challenge now.
    assert_eq!(
        offered(&g, "challenge"),
        [
            "challenge jinx with sprinter",
            "challenge ace with sprinter"
        ]
    );
}

#[test]
fn a_target_selector_with_if_card_has_counts_only_for_a_card_holding_the_name() {
    // A hasty fighter may also challenge the cards in its opponents' hands (a permission a
    // card holds); the others challenge the board only.
    let manifest = MANIFEST.replace(
        r#""targets": [{"zones": ["board"], "of": "opponents"}],"#,
        r#""targets": [{"zones": ["board"], "of": "opponents"},
                     {"zones": ["hand"], "of": "opponents", "if_card_has": {"tags": ["haste"]}}],"#,
    );
    assert_ne!(manifest, MANIFEST);
    let mut g = new_game(
        &engine_of(&content(&manifest)),
        7,
        vec![
            deck(&[("ace", 1), ("cub", 2)]),
            deck(&[("brute", 1), ("lamb", 1), ("sprinter", 1)]),
        ],
    );
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    pick(&mut g, "play brute");
    pick(&mut g, "play sprinter");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    // P2's second turn: brute challenges the board; sprinter the board and P1's two cubs,
    // which P2 cannot see: they are told by where they are (blind).
    assert_eq!(
        offered(&g, "challenge"),
        [
            "challenge ace with brute",
            "challenge ace with sprinter",
            "challenge hidden card 2 of 2 in hand of player 1 with sprinter",
            "challenge hidden card 1 of 2 in hand of player 1 with sprinter"
        ]
    );
    // It reads the acting card: on a card selector it is a load error.
    let bad = MANIFEST.replace(
        r#""unless_it_has": {"tags": ["haste"]}, "without""#,
        r#""unless_it_has": {"tags": ["haste"]}, "if_card_has": {"tags": ["haste"]}, "without""#,
    );
    assert_ne!(bad, MANIFEST);
    let errors = load_errors(&content(&bad));
    assert!(
        errors.contains("action 'challenge'") && errors.contains("`if_card_has` is for `targets`"),
        "{errors}"
    );
}

#[test]
fn a_target_condition_leaves_out_the_pairs_it_forbids() {
    // A prohibition on one pair (brute may not challenge ace): that option alone is not
    // offered; the same target stays open to another card.
    let manifest = MANIFEST.replace(
        r#""label": "challenge {target} with {card}","#,
        r#""target_condition": "brute_spares_ace", "label": "challenge {target} with {card}","#,
    );
    assert_ne!(manifest, MANIFEST);
    let mut g = new_game(
        &engine_of(&content(&manifest)),
        7,
        vec![
            deck(&[("ace", 1), ("cub", 2)]),
            deck(&[("brute", 1), ("lamb", 1), ("sprinter", 1)]),
        ],
    );
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    pick(&mut g, "play brute");
    pick(&mut g, "play sprinter");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    assert_eq!(offered(&g, "challenge"), ["challenge ace with sprinter"]);
    // It is asked of pairs: an action without `targets` cannot have one.
    let bad = MANIFEST.replace(
        r#""allowed": "may_recruit","#,
        r#""allowed": "may_recruit", "target_condition": "brute_spares_ace","#,
    );
    assert_ne!(bad, MANIFEST);
    let errors = load_errors(&content(&bad));
    assert!(
        errors.contains("`target_condition` needs `targets`"),
        "{errors}"
    );
}

#[test]
fn a_card_that_entered_this_turn_challenges_only_with_haste_and_never_when_meek() {
    let mut g = game(vec![
        deck(&[("ace", 1), ("cub", 2)]),
        deck(&[("brute", 1), ("lamb", 1), ("sprinter", 1)]),
    ]);
    pick(&mut g, "play ace");
    pick(&mut g, "end turn");
    pick(&mut g, "play brute");
    pick(&mut g, "play sprinter");
    pick(&mut g, "play lamb");
    let (_, _, labels) = asked(&g);
    let challenges: Vec<&String> = labels
        .iter()
        .filter(|l| l.starts_with("challenge"))
        .collect();
    assert_eq!(
        challenges,
        ["challenge ace with sprinter"],
        "brute is new, lamb is meek"
    );
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    let (_, _, labels) = asked(&g);
    let challenges: Vec<&String> = labels
        .iter()
        .filter(|l| l.starts_with("challenge"))
        .collect();
    assert_eq!(
        challenges,
        ["challenge ace with brute", "challenge ace with sprinter"],
        "a turn later brute may; lamb never"
    );
}

#[test]
fn an_action_kind_lists_activated_abilities_and_runs_the_one_chosen() {
    let mut g = game(vec![
        deck(&[("bugler", 1), ("cub", 1), ("flare", 1)]),
        deck(&[("cub", 3)]),
    ]);
    assert!(
        asked(&g).2.iter().all(|l| !l.starts_with("use")),
        "in hand: nothing to use (flare's ability works in hand, but `use` lists the board's)"
    );
    pick(&mut g, "play bugler");
    pick(&mut g, "use bugler");
    assert_eq!(story(&g), ["boosted:bugle@1"]);
    let Some(Request::Choose { options, .. }) = g.request() else {
        panic!()
    };
    let o = options
        .iter()
        .find(|o| o.label == "use bugler")
        .expect("still usable");
    assert_eq!(o.kind.as_deref(), Some("use"));
}

/// Duel whose end phase is a procedure: an auction window everyone may bid in, then the
/// end of the turn's effects.
fn closing_manifest() -> String {
    MANIFEST
        .replace(
            r#"{"name": "end", "run": "end_phase"}"#,
            r#"{"name": "end", "procedure": "closing"}"#,
        )
        .replace(
            r#""procedures": ["#,
            r#""procedures": [
    {"name": "closing", "steps": [
      {"name": "bids", "window": {"players": "everyone", "model": "alternating", "actions": "bid_actions", "prompt": "bid"}},
      {"name": "expire", "run": "end_phase"}
    ]},"#,
        )
}

#[test]
fn a_phase_that_is_a_procedure_asks_in_its_windows_with_no_script_suspended() {
    let mut g = new_game(
        &engine_of(&content(&closing_manifest())),
        7,
        vec![deck(&[("cub", 4)]), deck(&[("cub", 4)])],
    );
    pick(&mut g, "end turn");
    // The end phase's window: P1 (the turn player) first, then P2, until both pass in a row.
    let answers = ["bid", "bid", "pass", "pass"];
    let mut forks = Vec::new();
    let mut seats = Vec::new();
    for a in answers {
        let (prompt, p, _) = asked(&g);
        assert_eq!(prompt, "bid");
        assert!(g.quiescent(), "a script is suspended at '{a}'");
        seats.push(p);
        forks.push(g.fork());
        pick(&mut g, a);
    }
    assert_eq!(seats, [0, 1, 0, 1]);
    assert_eq!(story(&g), ["boosted:bid@1", "boosted:bid@2"]);
    let (prompt, p, _) = asked(&g);
    assert_eq!(
        (prompt.as_str(), p),
        ("main", 1),
        "the turn passed after the phase's procedure"
    );
    for (i, mut f) in forks.into_iter().enumerate() {
        for a in &answers[i..] {
            pick(&mut f, a);
        }
        assert_eq!(f.log_hash(), g.log_hash(), "fork made before answer {i}");
    }
}

#[test]
fn a_phase_runs_a_declared_procedure_or_a_script_never_both() {
    let both = closing_manifest().replace(
        r#"{"name": "end", "procedure": "closing"}"#,
        r#"{"name": "end", "procedure": "closing", "run": "end_phase"}"#,
    );
    let e = load_errors(&content(&both));
    assert!(
        e.contains("phase 'end' has both `run` and `procedure`"),
        "{e}"
    );
    let unknown = closing_manifest().replace(
        r#"{"name": "end", "procedure": "closing"}"#,
        r#"{"name": "end", "procedure": "closng"}"#,
    );
    let e = load_errors(&content(&unknown));
    assert!(
        e.contains("phase 'end' runs procedure 'closng', which `procedures` does not declare"),
        "{e}"
    );
}

/// Duel with a window whose second player can only pass.
fn quiet_manifest(auto_pass: bool) -> String {
    MANIFEST.replace(
        r#""procedures": ["#,
        &format!(
            r#""procedures": [
    {{"name": "hush", "steps": [
      {{"name": "talk", "window": {{"players": "everyone", "model": "alternating", "actions": "hush_actions", "prompt": "hush", "auto_pass": {auto_pass}}}}}
    ]}},"#
        ),
    )
}

const HUSH_LUA: &str = r#"
-- Only player 1 may speak (twice at most); anyone may pass.
function hush_actions(ctx, p, d)
  local out = {}
  if p == 1 and (d.spoken or 0) < 2 then
    out[#out + 1] = { label = "speak", run = function(ctx, o, d)
      d.spoken = (d.spoken or 0) + 1
      ctx:emit("boosted", { player = p, key = "speak" })
    end }
  end
  out[#out + 1] = { label = "pass", pass = true }
  return out
end
local listed = main_actions
function main_actions(ctx)
  local out = listed(ctx)
  table.insert(out, 1, { label = "hush", procedure = "hush" })
  return out
end
"#;

#[test]
fn a_window_may_pass_for_a_player_who_can_only_pass() {
    let run = |auto_pass: bool| {
        let mut c = content(&quiet_manifest(auto_pass));
        c.ruleset.scripts.push(Source {
            name: "hush.lua".into(),
            text: HUSH_LUA.into(),
        });
        let e = engine_of(&c);
        let mut g = new_game(&e, 7, vec![deck(&[("cub", 4)]), deck(&[("cub", 4)])]);
        let mut asked_seats = Vec::new();
        pick(&mut g, "hush");
        while asked(&g).0 == "hush" {
            let (_, p, labels) = asked(&g);
            asked_seats.push(p);
            let answer = if labels.iter().any(|l| l == "speak") {
                "speak"
            } else {
                "pass"
            };
            pick(&mut g, answer);
        }
        (asked_seats, story(&g))
    };
    // Asked every time: P1 speaks, P2 passes, P1 speaks, P2 passes, P1 passes: closed.
    let (seats, said) = run(false);
    assert_eq!(seats, [0, 1, 0, 1, 0]);
    assert_eq!(said, ["boosted:speak@1", "boosted:speak@1"]);
    // With auto_pass, P2 (who can only pass) is never asked, nor is P1 once silenced; the
    // window still closes after everyone passed in a row, with the same outcome.
    let (seats, said) = run(true);
    assert_eq!(seats, [0, 0]);
    assert_eq!(said, ["boosted:speak@1", "boosted:speak@1"]);
}

/// Duel with player targets: `taunt` (each board card of the acting player at each opponent,
/// the target condition sparing P3), `hail` (the players a Lua list gives, one named by it),
/// and `challenge` saying whose card it targets when there are several opponents.
fn with_player_targets() -> String {
    let manifest = MANIFEST
        .replace(
            r#""kinds": ["challenge", "recruit", "use", "end"]"#,
            r#""kinds": ["challenge", "taunt", "hail", "end"]"#,
        )
        .replace(
            r#""targets": [{"zones": ["board"], "of": "opponents"}],"#,
            r#""targets": [{"zones": ["board"], "of": "opponents",
                           "label_if_several_opponents": "challenge {target} with {card} ({target_controller}'s)"}],"#,
        )
        .replace(
            r#"{"name": "end", "ends_phase": true, "label": "end turn"},"#,
            r#"{"name": "end", "ends_phase": true, "label": "end turn"},
    {"name": "taunt", "cards": {"zones": ["board"]}, "targets": [{"players": "opponents"}],
     "target_condition": "spares_p3", "label": "taunt {target} with {card}", "run": "taunt"},
    {"name": "hail", "targets": [{"players": "listed_players"}], "label": "hail {target}", "run": "hail"},"#,
        )
        .replace(
            r#""scripts": ["duel.lua"],"#,
            r#""scripts": ["duel.lua", "targets.lua"],"#,
        );
    assert_ne!(manifest, MANIFEST);
    manifest
}

const TARGETS_LUA: &str = r#"
-- A player target reaches `target_condition` and `run` as a seat (from 1).
function spares_p3(ctx, c, t) return t ~= 3 end
function taunt(ctx, o) ctx:emit("boosted", { player = o.target_player, key = "taunt" }) end
function listed_players(ctx, p) return { { seat = 3, label = "the third" }, p } end
function hail(ctx, o) ctx:emit("boosted", { player = o.target_player, key = "hail" }) end
"#;

#[test]
fn kernel_listed_targets_may_be_players_by_relation_or_from_a_lua_list() {
    let c = content_with_targets(&with_player_targets(), TARGETS_LUA);
    let mut g = new_game(
        &engine_of(&c),
        7,
        vec![
            deck(&[("ace", 1), ("cub", 2)]),
            deck(&[("brute", 1), ("cub", 2)]),
            deck(&[("watcher", 1), ("cub", 2)]),
        ],
    );
    picks(&mut g, &["play ace", "end turn", "play brute", "end turn"]);
    picks(&mut g, &["play watcher", "end turn"]);
    let (_, player, labels) = asked(&g);
    assert_eq!(player, 0);
    assert_eq!(
        labels[..6],
        [
            // Several opponents: the challenge says whose card it is.
            "challenge brute with ace (P2's)",
            "challenge watcher with ace (P3's)",
            // Players in turn order from P1; P3 spared by the target condition.
            "taunt P2 with ace",
            // The Lua list's order and names; its seat without a name is `P<n>`.
            "hail the third",
            "hail P1",
            "end turn"
        ]
    );
    // The option has its card and no target card; `run` gets the seat.
    let Some(Request::Choose { options, .. }) = g.request() else {
        panic!()
    };
    assert_eq!(options[2].kind.as_deref(), Some("taunt"));
    assert_eq!(options[2].target, None);
    picks(&mut g, &["taunt P2 with ace", "hail the third"]);
    assert_eq!(story(&g), ["boosted:taunt@2", "boosted:hail@3"]);
    assert!(g.errors().is_empty(), "{:?}", g.errors());
}

/// `hail` asks its Lua list only in a game with teams (seats 1 and 3 against 2 and 4 with
/// four players, everyone alone otherwise); without teams it lists `opponents`.
fn with_team_hail() -> (String, String) {
    let manifest = with_player_targets()
        .replace(
            r#""targets": [{"players": "listed_players"}],"#,
            r#""targets": [{"players": "opposing_sides", "players_without_teams": "opponents"}],"#,
        )
        .replace(
            r#""hooks": {"activate": "activate", "validate_deck": "validate_deck"},"#,
            r#""hooks": {"activate": "activate", "validate_deck": "validate_deck", "teams": "teams"},"#,
        );
    let lua = format!(
        "{TARGETS_LUA}{}",
        r#"
function teams(options, n)
  if n == 4 then return { { 1, 3 }, { 2, 4 } } end
  local out = {}
  for p = 1, n do out[p] = { p } end
  return out
end
-- One option for the opposing team, named as the team.
function opposing_sides(ctx, p) return { { seat = 2, label = "team P2+P4" } } end
"#
    );
    (manifest, lua)
}

#[test]
fn a_lua_player_list_is_asked_only_with_teams_and_a_relation_stands_for_it_without() {
    let (manifest, lua) = with_team_hail();
    assert!(manifest.contains("players_without_teams"), "{manifest}");
    let c = content_with_targets(&manifest, &lua);
    let e = engine_of(&c);
    // Everyone alone: the opponents in turn order, with no Lua call (its list names a team).
    assert_eq!(hails(&e, 3), ["hail P2", "hail P3"]);
    // Two teams of two: the Lua list.
    assert_eq!(hails(&e, 4), ["hail team P2+P4"]);
    // It stands for a Lua function, and names a relation.
    for (players, error) in [
        (
            r#""players": "opponents", "players_without_teams": "opponents""#,
            "goes with `players` a Lua function",
        ),
        (
            r#""players": "opposing_sides", "players_without_teams": "foes""#,
            "'foes' is none of self, allies, opponents, any",
        ),
    ] {
        let bad = with_team_hail().0.replace(
            r#""players": "opposing_sides", "players_without_teams": "opponents""#,
            players,
        );
        let c = content_with_targets(&bad, &with_team_hail().1);
        let errors = load_errors(&c);
        assert!(
            errors.contains("action 'hail'") && errors.contains(error),
            "{errors}"
        );
    }
}

#[test]
fn player_targets_and_selector_labels_are_for_targets_and_load_errors_otherwise() {
    let bad = with_player_targets().replace(
        r#""cards": {"zones": ["board"]}, "targets": [{"players": "opponents"}],"#,
        r#""cards": {"zones": ["board"], "players": "opponents"}, "targets": [{"players": "opponents", "zones": ["board"]}],"#,
    );
    let c = content_with_targets(&bad, TARGETS_LUA);
    let errors = load_errors(&c);
    assert!(
        errors.contains("action 'taunt'") && errors.contains("`cards`: `players` is for `targets`"),
        "{errors}"
    );
    let bad = with_player_targets().replace(
        r#""targets": [{"players": "opponents"}],"#,
        r#""targets": [{"players": "opponents", "zones": ["board"]}],"#,
    );
    let c = content_with_targets(&bad, TARGETS_LUA);
    let errors = load_errors(&c);
    assert!(
        errors.contains("action 'taunt'")
            && errors.contains("`zones` (cards) or `players`, not both"),
        "{errors}"
    );
}

#[test]
fn a_target_condition_while_a_timing_is_asked_only_while_such_a_static_ability_is_about() {
    // The prohibition check `brute_spares_ace` is asked only while some static ability with
    // the `main` timing is about (warden's, once on the board): before, every pair passes.
    let manifest = MANIFEST.replace(
        r#""label": "challenge {target} with {card}","#,
        r#""target_condition": "brute_spares_ace", "target_condition_while": "main",
           "label": "challenge {target} with {card}","#,
    );
    assert_ne!(manifest, MANIFEST);
    let mut g = new_game(
        &engine_of(&content(&manifest)),
        7,
        vec![
            deck(&[("ace", 1), ("cub", 2)]),
            deck(&[("brute", 1), ("warden", 1), ("sprinter", 1)]),
        ],
    );
    picks(
        &mut g,
        &[
            "play ace",
            "end turn",
            "play brute",
            "play sprinter",
            "end turn",
            "end turn",
        ],
    );
    assert_eq!(
        offered(&g, "challenge"),
        ["challenge ace with brute", "challenge ace with sprinter"]
    );
    pick(&mut g, "play warden");
    assert_eq!(offered(&g, "challenge"), ["challenge ace with sprinter"]);
    // It goes with a `target_condition`.
    let bad = MANIFEST.replace(
        r#""label": "challenge {target} with {card}","#,
        r#""target_condition_while": "main", "label": "challenge {target} with {card}","#,
    );
    let errors = load_errors(&content(&bad));
    assert!(
        errors.contains("`target_condition_while` goes with a `target_condition`"),
        "{errors}"
    );
}

/// Duel with an option, `start`, and the auction's window in turn order from the next
/// player unless `start` is `turn`.
fn auction_in_turn_order() -> String {
    let m = MANIFEST
        .replace(
            r#""players": "everyone", "model": "alternating", "actions": "bid_actions""#,
            r#""players": {"turn_order": "next", "by_option": [{"option": "start", "is": "turn", "turn_order": "turn_player"}]}, "model": "alternating", "actions": "bid_actions""#,
        )
        .replace(
            r#""players": {"min": 2, "max": 4},"#,
            r#""players": {"min": 2, "max": 4},
  "options": [{"name": "start", "values": ["next", "turn"], "default": "next"}],"#,
        );
    assert_ne!(m, MANIFEST);
    m
}

#[test]
fn a_window_in_turn_order_starts_where_the_options_say_with_no_lua() {
    let e = engine_of(&content(&auction_in_turn_order()));
    let seats = |start: &str| {
        let mut opts = Options::new();
        opts.insert("start".into(), OptionValue::Name(start.into()));
        let mut g = Game::with_options(
            e.clone(),
            GameConfig {
                seed: 7,
                decks: vec![deck(&[("cub", 4)]); 3],
                keep_log: true,
            },
            &opts,
        )
        .expect("game starts");
        pick(&mut g, "auction");
        let mut seats = Vec::new();
        for _ in 0..3 {
            seats.push(asked(&g).1);
            pick(&mut g, "pass");
        }
        assert_eq!(asked(&g).0, "main", "three passes in a row closed it");
        seats
    };
    // P1's turn: from P2, P1 last; with `start: turn` from P1.
    assert_eq!(seats("next"), [1, 2, 0]);
    assert_eq!(seats("turn"), [0, 1, 2]);
    // An option or a value the manifest does not declare is a load error naming the step.
    for (bad, says) in [
        (
            r#""option": "start", "is": "last""#,
            "'last' is not allowed",
        ),
        (
            r#""option": "begin", "is": "turn""#,
            "no declared option 'begin'",
        ),
    ] {
        let m = auction_in_turn_order().replace(r#""option": "start", "is": "turn""#, bad);
        let errors = load_errors(&content(&m));
        assert!(
            errors.contains("step 'bids'") && errors.contains(says),
            "{errors}"
        );
    }
}

#[test]
fn a_window_may_seat_the_side_of_a_record_player() {
    // The guard window's `players: {side_of: defending}`: the side of the player the record
    // names (the target's controller, a seat from 1 as Lua gives it), read by the kernel; a
    // field that holds no player is an error naming the step.
    let seat = |field: &str| {
        let manifest = MANIFEST
            .replace(
                r#""data": {"attacker": "card", "defender": "target"}"#,
                r#""data": {"attacker": "card", "defender": "target", "defending": "target_player"}"#,
            )
            .replace(
                r#""players": "defending_player""#,
                &format!(r#""players": {{"side_of": "{field}"}}"#),
            );
        challenged_with(&manifest)
    };
    assert_guard_asked_of_the_defender(&seat("defending"));
    assert_the_guard_step_failed(&seat("attacker"), "'attacker', which is not a player");
}

#[test]
fn opposing_teams_lists_each_opposing_teams_first_player_named_as_the_team_with_no_lua() {
    // `opposing_teams` where the Lua list was: in turn order from the acting player, the
    // first player of each other team, named as the team when it has several seats.
    let (manifest, lua) = with_team_hail();
    let manifest = manifest.replace(
        r#""players": "opposing_sides", "players_without_teams": "opponents""#,
        r#""players": "opposing_teams""#,
    );
    assert!(manifest.contains("opposing_teams"), "{manifest}");
    // No Lua is asked: the function that would fail if it were.
    let lua = lua.replace(
        "function opposing_sides(ctx, p) return",
        "function opposing_sides(ctx, p) error('asked') return",
    );
    let c = content_with_targets(&manifest, &lua);
    let e = engine_of(&c);
    // Everyone alone: each opponent, as `opponents` lists them.
    assert_eq!(hails(&e, 3), ["hail P2", "hail P3"]);
    // Two teams of two (seats 1 and 3 against 2 and 4): P2 stands for its team.
    assert_eq!(hails(&e, 4), ["hail team P2+P4"]);
}
