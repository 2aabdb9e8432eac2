//! A game's position as a scenario file: the playtest table's `save`, so that a position
//! found while playing becomes a test.
//!
//! What a scenario can set up is saved: every card where it is (bottom to top), with its
//! orientation, face, counters, flags, attached cards, whether it is a token and entered
//! this turn; players' and the game's values; the turn, its player and the phase. What it
//! cannot is said in the file's header: effects in force, abilities used this turn, what
//! was decided earlier in the phase (the scenario starts at the phase's beginning), and the
//! random generator's state (the scenario's `seed` starts a new one).

use std::collections::BTreeSet;
use std::fmt::Write;

use riffle_core::{CardView, Game};

/// The scenario file text for `game`'s position now: one scenario named `name`, with an
/// `expect:` that the zones hold what they hold now (so the file passes as saved; edit the
/// steps and the expectation into the test you want).
pub fn position_scenario(game: &Game, game_id: &str, name: &str, seed: u64) -> String {
    let view = game.view(0);
    let teams = game.teams();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Saved by `riffle play` at turn {}, player {}'s turn, phase {}.",
        view.turn,
        view.turn_player + 1,
        view.phase.as_deref().unwrap_or("(none)")
    );
    out.push_str(
        "# Kept: every card where it is, its orientation, face, counters, flags, attached cards;\n\
         # players' and the game's values. Not kept: effects in force, abilities used this\n\
         # turn, what was decided earlier in this phase (the scenario starts at its beginning),\n\
         # the random generator's state (`seed` starts a new one). Add `steps:` and turn the\n\
         # `expect:` into what should happen, then run `riffle test` on this file.\n",
    );
    let _ = writeln!(out, "game: {game_id}");
    out.push_str("scenarios:\n");
    let _ = writeln!(out, "  - name: {}", quote(name));
    let _ = writeln!(out, "    seed: {seed}");
    let _ = writeln!(
        out,
        "    start: {{turn: {}, player: {}, phase: {}}}",
        view.turn,
        view.turn_player + 1,
        quote(view.phase.as_deref().unwrap_or("main"))
    );
    // The game's options (a Gundam Team Battle's mode): the same game again, not the default.
    let manifest = game.engine().manifest();
    let options: Vec<String> = game.with_state(|st| {
        manifest
            .options
            .iter()
            .zip(st.seats.options.iter())
            .map(|(d, v)| format!("{}: {}", quote(&d.name), quote(&v.to_string())))
            .collect()
    });
    if !options.is_empty() {
        let _ = writeln!(out, "    options: {{{}}}", options.join(", "));
    }
    let gv: Vec<String> = game
        .game_values()
        .into_iter()
        .filter(|(_, v)| *v != 0)
        .map(|(k, v)| format!("{}: {v}", quote(&k)))
        .collect();
    if !gv.is_empty() {
        let _ = writeln!(out, "    game_values: {{{}}}", gv.join(", "));
    }
    // Zones by the player key the scenario places them under: a shared zone under player 1,
    // a team's under its first member.
    let nplayers = view.values.len();
    let mut players: Vec<Vec<(String, Vec<CardView>)>> = vec![Vec::new(); nplayers];
    let mut done = BTreeSet::new();
    for z in &view.zones {
        let seat = match (z.owner, z.team) {
            (Some(p), _) => p as usize,
            (None, Some(t)) => teams
                .get(t as usize)
                .and_then(|m| m.iter().min())
                .map_or(0, |p| *p as usize),
            (None, None) => 0,
        };
        if z.count == 0 || !done.insert((seat, z.name.clone())) {
            continue;
        }
        let cards = game
            .inspect_zone(z.owner.unwrap_or(seat as u8), &z.name)
            .unwrap_or_default();
        players[seat].push((z.name.clone(), cards));
    }
    out.push_str("    players:\n");
    for (p, zones) in players.iter().enumerate() {
        // Player values only: a view also lists player characteristics (Summoner Master's
        // Mp Max), which are computed, not set.
        let values: Vec<String> = view.values[p]
            .iter()
            .filter(|(k, v)| **v != 0 && manifest.player_values.iter().any(|n| n == *k))
            .map(|(k, v)| format!("{}: {v}", quote(k)))
            .collect();
        if zones.is_empty() && values.is_empty() {
            continue;
        }
        let _ = writeln!(out, "      {}:", p + 1);
        if !values.is_empty() {
            let _ = writeln!(out, "        values: {{{}}}", values.join(", "));
        }
        for (zone, cards) in zones {
            let _ = writeln!(out, "        {}:", quote(zone));
            let plain = Plain::of(game, zone);
            let lines: Vec<String> = cards
                .iter()
                .map(|c| card_line(c, view.turn, &plain))
                .collect();
            // Runs of the same plain card are one `ID xN` line.
            let mut i = 0;
            while i < lines.len() {
                let run = lines[i..].iter().take_while(|l| **l == lines[i]).count();
                if run > 1 && !lines[i].starts_with('{') {
                    let _ = writeln!(
                        out,
                        "          - {}",
                        quote(&format!("{} x{run}", unquote(&lines[i])))
                    );
                } else {
                    for l in &lines[i..i + run] {
                        let _ = writeln!(out, "          - {l}");
                    }
                }
                i += run;
            }
        }
    }
    // The expectation the saved position meets: each zone's card count.
    out.push_str("    expect:\n      zones:\n");
    for (p, zones) in players.iter().enumerate() {
        if zones.is_empty() {
            continue;
        }
        let counts: Vec<String> = zones
            .iter()
            .map(|(z, cards)| format!("{}: {}", quote(z), cards.len()))
            .collect();
        let _ = writeln!(out, "        {}: {{{}}}", p + 1, counts.join(", "));
    }
    out
}

/// How a card a scenario names by its id alone is placed in a zone: the ruleset's first
/// orientation, the zone's face.
struct Plain {
    orientation: String,
    face_up: bool,
}

impl Plain {
    fn of(game: &Game, zone: &str) -> Plain {
        let m = game.engine().manifest();
        Plain {
            orientation: m.orientations.first().cloned().unwrap_or_default(),
            face_up: !m.zones.iter().any(|z| z.name == zone && z.face_down),
        }
    }
}

/// One card as a scenario line: its quoted id when it is placed as a plain card would be,
/// else a map with what differs.
fn card_line(c: &CardView, turn: u32, plain: &Plain) -> String {
    let id = c.card.clone().unwrap_or_default();
    let mut parts = Vec::new();
    if c.orientation != plain.orientation {
        parts.push(format!("orientation: {}", quote(&c.orientation)));
    }
    if c.face_up != plain.face_up {
        parts.push(format!("face: {}", if c.face_up { "up" } else { "down" }));
    }
    if !c.counters.is_empty() {
        let cs: Vec<String> = c
            .counters
            .iter()
            .map(|(k, v)| format!("{}: {v}", quote(k)))
            .collect();
        parts.push(format!("counters: {{{}}}", cs.join(", ")));
    }
    if !c.flags.is_empty() {
        let fs: Vec<String> = c.flags.iter().map(|f| quote(f)).collect();
        parts.push(format!("flags: [{}]", fs.join(", ")));
    }
    if c.token {
        parts.push("token: true".into());
    }
    if c.entered_turn == turn {
        parts.push("entered: this_turn".into());
    }
    if !c.attachments.is_empty() {
        let at: Vec<String> = c
            .attachments
            .iter()
            .map(|a| card_line(a, turn, plain))
            .collect();
        parts.push(format!("attach: [{}]", at.join(", ")));
    }
    if parts.is_empty() {
        return quote(&id);
    }
    format!("{{card: {}, {}}}", quote(&id), parts.join(", "))
}

/// A quoted id's text.
fn unquote(s: &str) -> String {
    serde_json::from_str::<String>(s).unwrap_or_else(|_| s.to_string())
}

/// A YAML scalar that reads back as this string: JSON's quoting, which YAML accepts.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}
