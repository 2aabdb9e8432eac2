//! Seats, sides and options, on a made-up game ("Circle") for 2 to 4 players, never a real
//! one. Circle is shaped like the kernel tests' Sprint: each turn the players of the turn
//! side draw a card and take turns playing cards from hand (to their board, or to their
//! team's stash pile); a player with total power 10 or more on the board wins for their
//! side; a player who must draw from an empty deck is eliminated. Its options: `format`
//! (every player alone, or two teams of two), `seating` (the direction of play) and `level`
//! (1..3: a deck needs 2 × level cards).
//!
//! What is checked (docs/kernel.md G13–G16): options (defaults, errors, deck checks), the
//! direction of play, one order for turns, triggers and windows that skips players who left,
//! elimination (cards moved, turn ended, the game going on until one side is left), teams
//! (a team zone shared, both members acting in the open phase by round robin, each such
//! decision quiescent, sides alternating, the winning team listing both members), and who
//! controls the rules' own abilities.

mod common;

use std::rc::Rc;

use common::engine_of;
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "circle", "name": {"en": "Circle"}, "version": "1",
  "players": {"min": 2, "max": 4},
  "options": [
    {"name": "format", "values": ["free_for_all", "teams", "teams_led_by_3"], "default": "free_for_all",
     "doc": "Every player alone, or two teams of two (seats 1 and 3 against 2 and 4)."},
    {"name": "seating", "values": ["clockwise", "counterclockwise"], "default": "clockwise"},
    {"name": "level", "min": 1, "max": 3, "default": 2, "doc": "A deck needs 2 x level cards."}
  ],
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "stash", "scope": "team", "visibility": "owner", "ordered": true},
    {"name": "removed", "scope": "player", "visibility": "public"}
  ],
  "categories": ["runner"],
  "characteristics": [{"name": "power", "kind": "int", "min": 0}],
  "orientations": ["ready"],
  "player_values": ["drew_from_empty"],
  "game_values": ["level", "ally_of_1", "foes_of_1", "team_of_3", "match_game", "previous_games"],
  "events": ["pinged", "ruled", "poked"],
  "durations": ["end_of_turn"],
  "setup": "setup",
  "turn": {"phases": [
    {"name": "draw", "run": "draw_phase"},
    {"name": "main", "actions": "main_actions", "players": "turn_side"},
    {"name": "end", "run": "end_phase"}
  ], "direction_option": "seating"},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "checks": [{"name": "win", "when": "win_due", "run": "win_run", "at": "after_each_operation"}],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck", "teams": "teams",
            "rule_abilities": "RULES"},
  "elimination": {"cards": {"zone": "removed"}},
  "deck": {"sections": [{"name": "main", "zone": "deck"}]},
  "scripts": ["circle.lua"],
  "limits": {"script_memory": 33554432}
}"#;

const RULES_LUA: &str = r#"
function teams(options, n)
  if options.format == "teams" then return { { 1, 3 }, { 2, 4 } } end
  if options.format == "teams_led_by_3" then return { { 3, 1 }, { 2, 4 } } end
  local out = {}
  for p = 1, n do out[p] = { p } end
  return out
end

function setup(ctx)
  ctx:set_game_value("level", ctx:option("level"))
  ctx:set_game_value("ally_of_1", ctx:allies(1)[2] or 0)
  ctx:set_game_value("foes_of_1", #ctx:opponents(1))
  ctx:set_game_value("team_of_3", ctx.players >= 3 and ctx:team(3) or 0)
  -- A match: the first player of a later game is the first seat that did not win the game
  -- before (after a draw, seat 1).
  local m = ctx:match()
  ctx:set_game_value("match_game", m.game)
  ctx:set_game_value("previous_games", #m.previous)
  local last = m.previous[#m.previous]
  if last ~= nil and #last.winners > 0 then
    for p = 1, ctx.players do
      local won = false
      for _, w in ipairs(last.winners) do if w == p then won = true end end
      if not won then ctx:set_first_player(p) break end
    end
  end
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

function draw_phase(ctx)
  for _, p in ipairs(ctx:turn_side()) do draw(ctx, p) end
end

-- The actions of the player asked (ctx.player): one of the turn side.
function main_actions(ctx)
  local me = ctx.player
  local out = {}
  for _, c in ipairs(ctx:cards("hand", me)) do
    out[#out + 1] = { label = "play " .. c.name, kind = "play", card = c,
      run = function(ctx, o) ctx:move(o.card, "board", { reason = "play" }) end }
    out[#out + 1] = { label = "stash " .. c.name, kind = "stash", card = c,
      run = function(ctx, o) ctx:move(o.card, "stash", { reason = "stash" }) end }
  end
  out[#out + 1] = { label = "call", kind = "call", run = function(ctx)
    local everyone = {}
    for p = 1, ctx.players do everyone[p] = p end
    ctx:window{ players = everyone, model = "alternating", prompt = "call",
      actions = function(wctx, p)
        return { { label = "pass", pass = true },
                 { label = "poke", run = function(c) c:emit("poked", {}) end } }
      end }
  end }
  out[#out + 1] = { label = "reverse", kind = "reverse", run = function(ctx)
    if ctx:direction() == "clockwise" then ctx:set_direction("counterclockwise")
    else ctx:set_direction("clockwise") end
  end }
  out[#out + 1] = { label = "give up", kind = "give_up",
    run = function(ctx) ctx:eliminate(ctx.player, "gave_up") end }
  -- An option per other player still in the game: options that change when one leaves.
  for q = 1, ctx.players do
    if q ~= me and ctx:in_game(q) then out[#out + 1] = { label = "greet P" .. q, run = function() end } end
  end
  out[#out + 1] = { label = "end", kind = "end", ends_phase = true }
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
    if ctx:in_game(p) and (total(ctx, p) >= 10 or ctx:value(p, "drew_from_empty") > 0) then
      return true
    end
  end
  return false
end

function win_run(ctx)
  for p = 1, ctx.players do
    if ctx:in_game(p) and ctx:value(p, "drew_from_empty") > 0 then ctx:eliminate(p, "deck_out") end
  end
  for p = 1, ctx.players do
    if ctx:in_game(p) and total(ctx, p) >= 10 then ctx:end_game({ p }, "circle") end
  end
end

function activate(ctx, ab, args)
  ab.def.operate(ctx, args)
  return true
end

function validate_deck(deck, options)
  local n = 0
  for _, c in pairs(deck.main or {}) do n = n + c end
  local need = 2 * options.level
  if n < need then
    return { "level " .. options.level .. ": a deck needs at least " .. need .. " cards" }
  end
  return {}
end

-- A rule's own triggered ability: controlled by the turn player.
RULES = {
  { kind = "triggered", on = "turn_began", operate = function(ctx) ctx:emit("ruled", {}) end },
}
"#;

fn card(id: &str, power: i64, script: Option<&str>) -> CardDef {
    common::card(id, "runner", serde_json::json!({ "power": power }), script)
}

fn content_with(tweak: impl FnOnce(&mut serde_json::Value)) -> Content {
    common::content(
        MANIFEST,
        tweak,
        &[("circle.lua", RULES_LUA)],
        vec![
            card("plain", 2, None),
            card("big", 5, None),
            // Watcher: when a turn begins, its controller pings (the order shows who went first).
            card(
                "watcher",
                0,
                Some(
                    r#"return { { kind = "triggered", on = "turn_began", zones = {"board"},
                       operate = function(ctx) ctx:emit("pinged", {}) end } }"#,
                ),
            ),
        ],
    )
}

fn engine_with(tweak: impl FnOnce(&mut serde_json::Value)) -> Rc<Engine> {
    engine_of(&content_with(tweak))
}

fn engine() -> Rc<Engine> {
    engine_with(|_| {})
}

/// Circle with the eliminated player's cards left where they are.
fn engine_cards_stay() -> Rc<Engine> {
    engine_with(|m| m["elimination"] = serde_json::json!({"cards": "stay"}))
}

fn deck(cards: &[(&str, u32)]) -> DeckList {
    common::deck("main", cards)
}

fn options(pairs: &[(&str, &str)]) -> Options {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), OptionValue::Name(v.to_string())))
        .collect()
}

fn game_with(e: &Rc<Engine>, decks: Vec<DeckList>, opts: &Options) -> Game {
    Game::with_options(
        e.clone(),
        GameConfig {
            seed: 1,
            decks,
            keep_log: true,
        },
        opts,
    )
    .expect("game starts")
}

/// A 2-seat Circle game played after the games in `context`.
fn game_in_match(e: &Rc<Engine>, context: &MatchContext) -> Result<Game, SetupError> {
    Game::in_match(
        e.clone(),
        GameConfig {
            seed: 1,
            decks: vec![deck(&[("plain", 4)]), deck(&[("plain", 4)])],
            keep_log: true,
        },
        &Options::new(),
        context,
    )
}

/// `n` players with a deck of `plain` cards each.
fn plain_game(e: &Rc<Engine>, n: usize, opts: &Options) -> Game {
    game_with(e, vec![deck(&[("plain", 8)]); n], opts)
}

/// Answers the pending choice with the option whose label starts with `label`; the
/// decider must be `player` (0-based).
fn pick(g: &mut Game, player: PlayerId, label: &str) {
    let req = g.request().expect("a request").clone();
    let Request::Choose { options, .. } = &req else {
        panic!("not a choice")
    };
    assert_eq!(
        req.player(),
        player,
        "expected player {} to decide {label}, asked: {req:?}",
        player + 1
    );
    let i = options
        .iter()
        .position(|o| o.label.starts_with(label))
        .unwrap_or_else(|| {
            panic!(
                "no option '{label}' in {:?}",
                options.iter().map(|o| &o.label).collect::<Vec<_>>()
            )
        });
    g.respond(
        player,
        Response::Choose {
            indices: vec![i as u32],
        },
    )
    .expect("legal");
}

/// The players (0-based) of the log's events named `name`, in order.
fn event_players(g: &Game, name: &str) -> Vec<PlayerId> {
    g.log()
        .into_iter()
        .filter_map(|e| match e {
            Entry::Event(ev) if ev.name == name => ev.player,
            _ => None,
        })
        .collect()
}

fn card_ids(cards: Option<Vec<CardView>>) -> Vec<String> {
    cards
        .expect("zone")
        .into_iter()
        .map(|c| c.card.unwrap_or_else(|| "?".into()))
        .collect()
}

fn game_value(g: &Game, i: usize) -> i64 {
    g.with_state(|st| st.game_values[i])
}

/// A three-seat position at the start of player `tp`'s (0-based) turn, each player with a
/// watcher on the board and plain cards in deck and hand.
fn three_seats_at_turn_end(e: &Rc<Engine>, opts: &Options, tp: PlayerId) -> Game {
    let mut b = Builder::with_options(e.clone(), 3, 1, opts).expect("builder");
    for p in 0..3 {
        b.place(p, "board", "watcher", &Place::default()).unwrap();
        for _ in 0..4 {
            b.place(p, "deck", "plain", &Place::default()).unwrap();
        }
        b.place(p, "hand", "plain", &Place::default()).unwrap();
    }
    // The end phase of `tp`'s turn: the next turn begins when it is over.
    b.start(2, tp, "end").expect("start")
}

// ---------------------------------------------------------------------------------------
// Options

#[test]
fn options_take_their_defaults_and_scripts_read_them() {
    let e = engine();
    let g = plain_game(&e, 2, &Options::new());
    assert_eq!(game_value(&g, 0), 2, "ctx:option('level') read its default");
    // An integer option given as text (as a command line gives it) is read as a number.
    let g = plain_game(&e, 2, &options(&[("level", "3")]));
    assert_eq!(game_value(&g, 0), 3);
    let mut chosen = Options::new();
    chosen.insert("level".into(), OptionValue::Int(1));
    let g = plain_game(&e, 2, &chosen);
    assert_eq!(game_value(&g, 0), 1);
}

#[test]
fn unknown_options_and_bad_values_are_setup_errors_naming_what_is_declared() {
    let e = engine();
    let start = |opts: &Options, n: usize| {
        Game::with_options(
            e.clone(),
            GameConfig {
                seed: 1,
                decks: vec![deck(&[("plain", 8)]); n],
                keep_log: false,
            },
            opts,
        )
        .err()
        .map(|err| err.to_string())
    };
    assert_eq!(
        start(&options(&[("colour", "red")]), 2).as_deref(),
        Some("unknown option 'colour' (declared: format, seating, level)")
    );
    assert_eq!(
        start(&options(&[("level", "9")]), 2).as_deref(),
        Some("option 'level': '9' is not allowed (an integer from 1 to 3)")
    );
    assert_eq!(
        start(&options(&[("format", "duel")]), 2).as_deref(),
        Some("option 'format': 'duel' is not allowed (one of free_for_all, teams, teams_led_by_3)")
    );
    // The ruleset's teams must fit the table: two teams of two need four players.
    assert_eq!(
        start(&options(&[("format", "teams")]), 3).as_deref(),
        Some("teams: team 2: no player 4 (players are 1..3)")
    );
    // A scenario's builder says the same.
    let err = Builder::with_options(e.clone(), 2, 1, &options(&[("level", "0")]))
        .err()
        .expect("refused");
    assert!(err.contains("'0' is not allowed"), "{err}");
}

#[test]
fn option_declarations_are_checked_when_the_rules_load() {
    let errors = |tweak: fn(&mut serde_json::Value)| -> String {
        match Engine::new(&content_with(tweak)) {
            Ok(_) => String::new(),
            Err(es) => es
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        }
    };
    let e = errors(|m| m["options"][2]["default"] = serde_json::json!(7));
    assert!(
        e.contains("options.level: default: option 'level': '7' is not allowed"),
        "{e}"
    );
    let e = errors(|m| m["turn"]["direction_option"] = serde_json::json!("level"));
    assert!(
        e.contains("option 'level' must take the values clockwise and counterclockwise"),
        "{e}"
    );
    let e = errors(|m| m["options"][1]["name"] = serde_json::json!("format"));
    assert!(e.contains("option 'format' is declared twice"), "{e}");
    let e = errors(|m| m["elimination"] = serde_json::json!({"cards": {"zone": "void"}}));
    assert!(e.contains("elimination.cards: unknown zone 'void'"), "{e}");
}

#[test]
fn deck_validation_sees_the_options() {
    let e = engine();
    let four = deck(&[("plain", 4)]);
    assert_eq!(
        e.validate_deck(&four),
        Vec::<String>::new(),
        "level 2: 4 cards"
    );
    assert_eq!(
        e.validate_deck_with(&four, &options(&[("level", "3")])),
        Ok(vec!["level 3: a deck needs at least 6 cards".to_string()])
    );
    assert_eq!(
        e.validate_deck_with(&four, &options(&[("level", "1")])),
        Ok(vec![])
    );
    assert!(
        e.validate_deck_with(&four, &options(&[("levl", "1")]))
            .unwrap_err()
            .contains("unknown option 'levl'")
    );
}

// ---------------------------------------------------------------------------------------
// Three seats, every player alone

#[test]
fn three_seats_take_turns_clockwise_by_default_and_counterclockwise_by_option() {
    let e = engine();
    let mut g = plain_game(&e, 3, &Options::new());
    for p in [0, 1, 2, 0, 1] {
        pick(&mut g, p, "end");
    }
    assert_eq!(event_players(&g, "turn_began"), vec![0, 1, 2, 0, 1, 2]);

    let mut g = plain_game(&e, 3, &options(&[("seating", "counterclockwise")]));
    for p in [0, 2, 1, 0] {
        pick(&mut g, p, "end");
    }
    assert_eq!(event_players(&g, "turn_began"), vec![0, 2, 1, 0, 2]);

    // `ctx:set_direction` turns play around mid-game (GD 12-2-1: a player chooses it).
    let mut g = plain_game(&e, 3, &Options::new());
    pick(&mut g, 0, "end");
    pick(&mut g, 1, "reverse");
    pick(&mut g, 1, "end");
    pick(&mut g, 0, "end");
    assert_eq!(event_players(&g, "turn_began"), vec![0, 1, 0, 2]);
}

#[test]
fn triggers_resolve_in_turn_order_following_the_direction() {
    // Each player's watcher triggers when player 1's turn begins: player 1's resolves
    // first, then the others in the direction of play (12-2-4).
    let e = engine();
    let mut g = three_seats_at_turn_end(&e, &Options::new(), 2);
    assert_eq!(g.request().unwrap().player(), 0);
    assert_eq!(event_players(&g, "pinged"), vec![0, 1, 2]);
    pick(&mut g, 0, "end");
    assert_eq!(event_players(&g, "pinged"), vec![0, 1, 2, 1, 2, 0]);

    let e = engine();
    let g = three_seats_at_turn_end(&e, &options(&[("seating", "counterclockwise")]), 1);
    assert_eq!(
        g.request().unwrap().player(),
        0,
        "after seat 2 comes seat 1"
    );
    assert_eq!(event_players(&g, "pinged"), vec![0, 2, 1]);
}

#[test]
fn an_eliminated_player_is_skipped_by_turns_trigger_order_and_windows() {
    // Their cards stay on the board here, so their watcher is still there: it no longer
    // triggers.
    let e = engine_cards_stay();
    let mut g = three_seats_at_turn_end(&e, &Options::new(), 2);
    assert_eq!(g.request().unwrap().player(), 0);
    g.concede(1).unwrap();
    assert_eq!(g.result(), None, "a three-seat game goes on (GD 12-2-5)");
    assert_eq!(g.view(0).out, vec![1]);
    assert_eq!(
        card_ids(g.inspect_zone(1, "board")),
        vec!["watcher"],
        "cards stay where the rule says"
    );
    // A window for everyone: the seat that left is never asked.
    pick(&mut g, 0, "call");
    assert_eq!(g.request().unwrap().prompt(), "call");
    pick(&mut g, 0, "poke");
    pick(&mut g, 2, "pass");
    pick(&mut g, 0, "pass");
    assert_eq!(
        g.request().unwrap().prompt(),
        "main",
        "two passes in a row close it"
    );
    pick(&mut g, 0, "end");
    // Turns skip player 2: player 3 is next, and only players 3 and 1 ping, in that order.
    assert_eq!(g.request().unwrap().player(), 2);
    assert_eq!(event_players(&g, "turn_began"), vec![0, 2]);
    let pings = event_players(&g, "pinged");
    assert_eq!(pings[3..], [2, 0]);
    pick(&mut g, 2, "end");
    assert_eq!(event_players(&g, "turn_began"), vec![0, 2, 0]);
    g.check_invariants().unwrap();
}

#[test]
fn an_eliminated_players_cards_go_where_the_ruleset_says() {
    // Circle: to their `removed` zone, with the reason of the elimination.
    let e = engine();
    let mut g = three_seats_at_turn_end(&e, &Options::new(), 2);
    g.concede(1).unwrap();
    assert!(card_ids(g.inspect_zone(1, "board")).is_empty());
    assert!(card_ids(g.inspect_zone(1, "hand")).is_empty());
    let mut removed = card_ids(g.inspect_zone(1, "removed"));
    removed.sort();
    assert_eq!(
        removed,
        vec!["plain"; 5]
            .into_iter()
            .chain(["watcher"])
            .collect::<Vec<_>>()
    );
    let moved = g
        .log()
        .into_iter()
        .filter(|e| {
            matches!(e, Entry::Event(ev) if ev.name == "moved" && ev.reason.as_deref() == Some("concession"))
        })
        .count();
    assert_eq!(moved, 6);
    // The zone is public: another player's log names the cards that arrived there.
    let shown = g
        .events_for(0)
        .into_iter()
        .filter(|e| {
            matches!(e, Entry::Event(ev) if ev.name == "moved"
                && ev.reason.as_deref() == Some("concession") && ev.card.is_some())
        })
        .count();
    assert_eq!(shown, 6);
    g.check_invariants().unwrap();

    // `remove`: out of every zone, each card ceasing.
    let e = engine_with(|m| m["elimination"] = serde_json::json!({"cards": "remove"}));
    let mut g = three_seats_at_turn_end(&e, &Options::new(), 2);
    g.concede(1).unwrap();
    for zone in ["board", "hand", "deck", "removed"] {
        assert!(card_ids(g.inspect_zone(1, zone)).is_empty(), "{zone}");
    }
    let ceased = g
        .log()
        .into_iter()
        .filter(|e| matches!(e, Entry::Event(ev) if ev.name == "ceased"))
        .count();
    assert_eq!(ceased, 6);
    // Said once, before the cards go: who left and why (readers tell it in one line).
    let log = g.log();
    let said: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(e, Entry::Event(ev) if ev.name == "eliminated"
            && ev.player == Some(1) && ev.reason.as_deref() == Some("concession"))
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(said.len(), 1, "one eliminated event");
    let first_ceased = log
        .iter()
        .position(|e| matches!(e, Entry::Event(ev) if ev.name == "ceased"))
        .unwrap();
    assert!(said[0] < first_ceased);
    g.check_invariants().unwrap();
}

#[test]
fn a_turn_player_who_leaves_ends_the_turn_at_once() {
    let e = engine();
    let mut g = plain_game(&e, 4, &Options::new());
    // By an operation in their own main phase: no end phase for them.
    pick(&mut g, 0, "give up");
    assert_eq!(g.result(), None);
    assert_eq!(g.request().unwrap().player(), 1);
    let log = g.log();
    let after: Vec<String> = log
        .iter()
        .skip_while(|e| !matches!(e, Entry::Decision { .. }))
        .filter_map(|e| match e {
            Entry::Event(ev) => Some(format!(
                "{} {}",
                ev.name,
                ev.key
                    .clone()
                    .or(ev.player.map(|p| (p + 1).to_string()))
                    .unwrap_or_default()
            )),
            _ => None,
        })
        .filter(|s| !s.starts_with("moved") && !s.starts_with("pinged"))
        .collect();
    assert_eq!(
        after[..5],
        [
            "eliminated 1",
            "turn_ended 1",
            "turn_began 2",
            "phase_began draw",
            "ruled 2"
        ],
        "{after:?}"
    );
    // By a concession in their own turn, while they are being asked.
    g.concede(1).unwrap();
    assert_eq!(g.result(), None);
    assert_eq!(g.request().unwrap().player(), 2);
    assert_eq!(event_players(&g, "turn_began"), vec![0, 1, 2]);
}

#[test]
fn the_game_goes_on_until_one_side_is_left_and_that_side_wins() {
    let e = engine();
    let mut g = plain_game(&e, 3, &Options::new());
    g.concede(1).unwrap();
    assert_eq!(g.result(), None);
    pick(&mut g, 0, "end");
    pick(&mut g, 2, "give up");
    let r = g.result().expect("over");
    assert_eq!(r.winners, vec![0]);
    assert_eq!(r.reason, "gave_up");
    assert_eq!(g.view(1).result, Some(r));

    // A concession that leaves one player ends the game too.
    let mut g = plain_game(&e, 3, &Options::new());
    g.concede(2).unwrap();
    g.concede(0).unwrap();
    let r = g.result().expect("over");
    assert_eq!((r.winners, r.reason.as_str()), (vec![1], "concession"));
}

// ---------------------------------------------------------------------------------------
// Two teams of two

fn teams_game(e: &Rc<Engine>, format: &str, decks: Vec<DeckList>) -> Game {
    game_with(e, decks, &options(&[("format", format)]))
}

#[test]
fn teams_come_from_an_option_and_scripts_see_them() {
    let e = engine();
    let g = teams_game(&e, "teams", vec![deck(&[("plain", 8)]); 4]);
    assert_eq!(g.teams(), vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(g.view(3).teams, vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(game_value(&g, 1), 3, "ctx:allies(1) = {{1, 3}}");
    assert_eq!(game_value(&g, 2), 2, "ctx:opponents(1) = {{2, 4}}");
    assert_eq!(game_value(&g, 3), 1, "ctx:team(3) = 1");
    // Without the option, every player is alone.
    let g = plain_game(&e, 4, &Options::new());
    assert_eq!(g.teams(), vec![vec![0], vec![1], vec![2], vec![3]]);
    assert!(g.view(0).teams.is_empty());
    assert_eq!(game_value(&g, 1), 0);
    assert_eq!(game_value(&g, 2), 3);
}

#[test]
fn a_team_zone_is_one_pile_for_both_members() {
    let e = engine();
    let mut g = teams_game(&e, "teams", vec![deck(&[("plain", 8)]); 4]);
    pick(&mut g, 0, "stash plain");
    // One instance: player 3 reads the pile player 1 put a card in (GD 12-3-7).
    assert_eq!(card_ids(g.inspect_zone(0, "stash")), vec!["plain"]);
    assert_eq!(card_ids(g.inspect_zone(2, "stash")), vec!["plain"]);
    assert!(card_ids(g.inspect_zone(1, "stash")).is_empty());
    // `visibility: owner` on a team zone: both members see it, the other team does not.
    let seen_by = |g: &Game, viewer: PlayerId| -> Vec<String> {
        g.view(viewer)
            .zones
            .into_iter()
            .filter(|z| z.name == "stash" && z.team == Some(0))
            .flat_map(|z| z.cards)
            .map(|c| c.card.unwrap_or_else(|| "?".into()))
            .collect()
    };
    assert_eq!(seen_by(&g, 2), vec!["plain"]);
    assert_eq!(seen_by(&g, 1), vec!["?"]);
    g.check_invariants().unwrap();
}

#[test]
fn both_members_of_the_turn_side_act_in_the_open_phase_by_round_robin() {
    let e = engine();
    let mut g = teams_game(&e, "teams", vec![deck(&[("plain", 8)]); 4]);
    // Team A (players 1 and 3) acts, one action each in turn; each decision is quiescent
    // (no script suspended: a fork is a plain copy).
    let mut asked = Vec::new();
    let mut step = |g: &mut Game, p: PlayerId, label: &str| {
        assert!(
            g.quiescent(),
            "the decision of player {} is quiescent",
            p + 1
        );
        let fork = g.fork();
        assert_eq!(fork.request(), g.request());
        asked.push(g.request().unwrap().player());
        pick(g, p, label);
    };
    step(&mut g, 0, "end"); // player 1 passes
    step(&mut g, 2, "play plain"); // player 3 acts: the passes start again
    step(&mut g, 0, "end"); // player 1 passes
    assert_eq!(
        g.request().unwrap().player(),
        2,
        "one pass is not all of them"
    );
    step(&mut g, 2, "end"); // player 3 passes: both in a row, the phase ends
    assert_eq!(asked, vec![0, 2, 0, 2]);
    // Team B's turn: its first seat is asked first.
    assert_eq!(g.request().unwrap().player(), 1);
    assert_eq!(g.request().unwrap().prompt(), "main");
    assert_eq!(card_ids(g.inspect_zone(2, "board")), vec!["plain"]);
    // Both members of the turn side drew in the draw phase.
    assert_eq!(card_ids(g.inspect_zone(1, "hand")).len(), 3);
    assert_eq!(card_ids(g.inspect_zone(3, "hand")).len(), 3);
    assert_eq!(card_ids(g.inspect_zone(0, "hand")).len(), 3);
}

#[test]
fn sides_alternate_and_the_turn_player_is_the_sides_first_seat() {
    // Seats 1 2 3 4 are A B A B; team A's first seat is 3.
    let e = engine();
    let mut g = teams_game(&e, "teams_led_by_3", vec![deck(&[("plain", 8)]); 4]);
    for p in [2, 0, 1, 3, 2, 0] {
        pick(&mut g, p, "end");
    }
    assert_eq!(event_players(&g, "turn_began"), vec![2, 1, 2, 1]);
    // The rules' own abilities are controlled by the turn player: the side's first seat.
    assert_eq!(event_players(&g, "ruled"), vec![2, 1, 2, 1]);
    assert_eq!(g.view(0).turn_side, vec![1, 3]);
}

#[test]
fn the_winning_team_lists_both_members() {
    let e = engine();
    let mut g = teams_game(&e, "teams", vec![deck(&[("big", 8)]); 4]);
    pick(&mut g, 0, "play big");
    pick(&mut g, 2, "end");
    pick(&mut g, 0, "play big"); // 10 power: Circle ends the game with player 1 the winner
    let r = g.result().expect("over");
    assert_eq!(r.winners, vec![0, 2]);
    assert_eq!(r.reason, "circle");
    let over = g
        .log()
        .into_iter()
        .find_map(|e| match e {
            Entry::Event(ev) if ev.name == "game_over" => Some(ev.data),
            _ => None,
        })
        .expect("game_over");
    assert_eq!(
        over[0].1,
        riffle_core::values::Val::List(vec![
            riffle_core::values::Val::Player(riffle_core::values::PlayerRef { player: 0 }),
            riffle_core::values::Val::Player(riffle_core::values::PlayerRef { player: 2 }),
        ])
    );
}

#[test]
fn a_team_loses_when_its_last_member_leaves() {
    let e = engine();
    let mut g = teams_game(&e, "teams", vec![deck(&[("plain", 8)]); 4]);
    g.concede(2).unwrap();
    assert_eq!(g.result(), None, "player 1 plays on for team A");
    // Player 3 is no longer asked in team A's main phase.
    pick(&mut g, 0, "end");
    assert_eq!(g.request().unwrap().player(), 1);
    g.concede(0).unwrap();
    let r = g.result().expect("over");
    assert_eq!(r.winners, vec![1, 3]);
}

#[test]
fn a_question_to_a_player_who_concedes_goes_to_the_next_player() {
    // In the open phase's round robin.
    let e = engine();
    let mut g = teams_game(&e, "teams", vec![deck(&[("plain", 8)]); 4]);
    pick(&mut g, 0, "play plain");
    assert_eq!(g.request().unwrap().player(), 2);
    g.concede(2).unwrap();
    assert_eq!(
        g.request().unwrap().player(),
        0,
        "player 1 acts alone for team A"
    );
    pick(&mut g, 0, "end");
    assert_eq!(g.request().unwrap().player(), 1, "team B's turn");

    // In a window: a concession while a script is suspended, and a fork after it, which
    // replays the answers and the concession from the last quiescent point.
    let mut g = plain_game(&e, 4, &Options::new());
    pick(&mut g, 0, "call");
    pick(&mut g, 0, "poke");
    assert_eq!(g.request().unwrap().player(), 1);
    assert!(!g.quiescent());
    g.concede(1).unwrap();
    assert_eq!(
        g.request().unwrap().player(),
        2,
        "the window asks the next seat"
    );
    let mut fork = g.fork();
    assert_eq!(fork.request(), g.request());
    assert_eq!(fork.log_hash(), g.log_hash());
    for game in [&mut g, &mut fork] {
        pick(game, 2, "pass");
        pick(game, 3, "pass");
        pick(game, 0, "pass");
        assert_eq!(game.request().unwrap().prompt(), "main");
    }
    assert_eq!(fork.log_hash(), g.log_hash());
}

#[test]
fn a_player_asked_when_another_concedes_is_asked_again_from_the_game_as_it_is() {
    let e = engine();
    let labels = |g: &Game| match g.request() {
        Some(Request::Choose { options, .. }) => {
            options.iter().map(|o| o.label.clone()).collect::<Vec<_>>()
        }
        other => panic!("not a choice: {other:?}"),
    };
    let mut g = teams_game(&e, "teams", vec![deck(&[("plain", 8)]); 4]);
    assert!(labels(&g).contains(&"greet P2".to_string()));
    g.concede(1).unwrap();
    assert_eq!(g.request().unwrap().player(), 0, "player 1 is still asked");
    let now = labels(&g);
    assert!(
        !now.contains(&"greet P2".to_string()),
        "an option about the player who left is not offered: {now:?}"
    );
    // A fork lists the options again: the same, and the same answer does the same.
    let mut fork = g.fork();
    assert_eq!(labels(&fork), now);
    for game in [&mut g, &mut fork] {
        pick(game, 0, "greet P3");
        pick(game, 2, "end");
    }
    assert_eq!(fork.request(), g.request());
    assert_eq!(fork.log_hash(), g.log_hash());
}

// The match context (G14, rows GD77 and SM88: 102.4 "the loser of the previous game
// chooses"): a game knows its number and the results before it, and setup acts on them.
#[test]
fn a_later_game_of_a_match_sees_the_earlier_results_and_setup_acts_on_them() {
    let e = engine();
    let first = game_in_match(&e, &MatchContext::default()).expect("game 1");
    assert_eq!(
        game_value(&first, 4),
        1,
        "the first game of a match is game 1"
    );
    assert_eq!(game_value(&first, 5), 0);
    assert_eq!(first.with_state(|s| s.turn_player), 0);

    let won_by_1 = GameResult {
        winners: vec![0],
        reason: "circle".into(),
    };
    let second = game_in_match(&e, &MatchContext::after(vec![won_by_1.clone()])).expect("game 2");
    assert_eq!(game_value(&second, 4), 2);
    assert_eq!(game_value(&second, 5), 1);
    assert_eq!(
        second.with_state(|s| s.turn_player),
        1,
        "seat 2 lost game 1, so seat 2 starts game 2"
    );

    let draw = GameResult {
        winners: vec![],
        reason: "turn_limit".into(),
    };
    let third = game_in_match(&e, &MatchContext::after(vec![won_by_1, draw])).expect("game 3");
    assert_eq!(game_value(&third, 4), 3);
    assert_eq!(
        third.with_state(|s| s.turn_player),
        0,
        "after a draw the ruleset's default first player starts"
    );
}

#[test]
fn a_match_result_naming_a_seat_the_game_lacks_is_a_setup_error() {
    let e = engine();
    let bad = MatchContext::after(vec![GameResult {
        winners: vec![2],
        reason: "circle".into(),
    }]);
    let err = game_in_match(&e, &bad)
        .err()
        .expect("seat 3 in a 2-seat game");
    assert!(
        err.0.contains("game 1 lists player 3") && err.0.contains("2 players"),
        "{err}"
    );
}
