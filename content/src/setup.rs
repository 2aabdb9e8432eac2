//! From a loaded game to what a game starts from: its compiled engine and a deck list per
//! seat. Shared by every host of games (`riffle play`, `riffle serve`, a server) so that they
//! deal decks, and refuse unplayable ones, alike.

use std::rc::Rc;

use riffle_core::{Content, DeckList, Engine, Options};

use crate::{Deck, LoadedGame};

/// The compiled engine of `loaded`. The card definitions move into the engine
/// (`Engine::card_def`, `card_ids`; `loaded.content.cards` is left empty): with many cards,
/// holding them twice is most of the memory. An error names the first problem.
pub fn engine(loaded: &mut LoadedGame) -> Result<Rc<Engine>, String> {
    let game = loaded.manifest.game.clone();
    let content = Content {
        ruleset: loaded.content.ruleset.clone(),
        libraries: loaded.content.libraries.clone(),
        cards: std::mem::take(&mut loaded.content.cards),
    };
    Engine::from_content(content).map_err(|es| {
        format!(
            "the {game} scripts have {} error(s), the first: {} (run `riffle validate`)",
            es.len(),
            es.first().map(|e| e.to_string()).unwrap_or_default()
        )
    })
}

/// The game's first deck lists, one per seat of its smallest table.
pub fn default_decks(loaded: &LoadedGame) -> Result<Vec<DeckList>, String> {
    let n = loaded.content.ruleset.manifest.players.min as usize;
    if loaded.decks.len() < n {
        return Err(format!(
            "the game has {} deck lists; give --deck FILE for each of {n} players",
            loaded.decks.len()
        ));
    }
    Ok(loaded
        .decks
        .iter()
        .take(n)
        .map(|d| d.list.clone())
        .collect())
}

/// The game's deck lists dealt to `n` seats in turn (seat k gets list k mod their number).
pub fn dealt_decks(loaded: &LoadedGame, n: usize) -> Result<Vec<DeckList>, String> {
    if loaded.decks.is_empty() {
        return Err(format!(
            "the game has no deck lists; give --deck FILE for each of {n} players"
        ));
    }
    Ok((0..n)
        .map(|i| loaded.decks[i % loaded.decks.len()].list.clone())
        .collect())
}

/// The decks a game seats, by id: `ids` as given (one per seat; `players`, when given too,
/// must be their number), else the game's deck lists dealt to `players` seats in turn (seat k
/// gets list k mod their number; by default the smallest table, `smallest`). Each seat's deck
/// comes with its id, which a replay or a record names. The one dealing every host of games
/// by id does (`riffle sim`, the Python package, `riffle serve`).
pub fn seat_decks(
    decks: &[Deck],
    smallest: u8,
    ids: &[String],
    players: Option<u8>,
) -> Result<Vec<(String, DeckList)>, String> {
    if ids.is_empty() {
        if decks.is_empty() {
            return Err("the game has no deck lists: give decks".into());
        }
        let n = usize::from(players.unwrap_or(smallest));
        return Ok((0..n)
            .map(|i| {
                let d = &decks[i % decks.len()];
                (d.id.clone(), d.list.clone())
            })
            .collect());
    }
    if let Some(p) = players.filter(|p| usize::from(*p) != ids.len()) {
        return Err(format!(
            "players {p}: give one deck per seat, or none (got {} decks)",
            ids.len()
        ));
    }
    ids.iter()
        .map(|id| {
            find_deck(decks, id)
                .map(|d| (d.id.clone(), d.list.clone()))
                .ok_or_else(|| unknown_deck(decks, id))
        })
        .collect()
}

fn find_deck<'a>(decks: &'a [Deck], id: &str) -> Option<&'a Deck> {
    decks.iter().find(|d| d.id == id)
}

fn unknown_deck(decks: &[Deck], id: &str) -> String {
    let ids: Vec<&str> = decks.iter().map(|d| d.id.as_str()).collect();
    format!("no deck '{id}' (decks: {})", ids.join(", "))
}

/// Refuses decks that hold a card whose text still needs a script (`needs_script: true`):
/// a game would play it as if its text were blank. Names every such card, by deck.
pub fn refuse_unscripted(
    loaded: &LoadedGame,
    engine: &Engine,
    decks: &[DeckList],
) -> Result<(), String> {
    let mut found = Vec::new();
    for (i, d) in decks.iter().enumerate() {
        let mut ids: Vec<&str> = d
            .sections
            .values()
            .flat_map(|cards| cards.keys())
            .map(String::as_str)
            .filter(|id| {
                loaded
                    .needs_script
                    .binary_search_by(|n| n.as_str().cmp(id))
                    .is_ok()
            })
            .collect();
        ids.sort();
        ids.dedup();
        for id in ids {
            let name = engine
                .card_def(id)
                .and_then(|c| c.name.get(&engine.manifest().names.printed).cloned())
                .unwrap_or_default();
            found.push(format!("deck {} holds {id} ({name})", i + 1));
        }
    }
    if !found.is_empty() {
        return Err(format!(
            "{}: its text needs a script it does not have yet (`needs_script: true`), and a game would play it as if the text were blank; write the script (docs/scripting.md) or take the card out of the deck",
            found.join(", ")
        ));
    }
    Ok(())
}

/// Why the decks and options of a game to start were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unseated {
    /// The ruleset refused the number of seats or the options: the first line of its reason.
    Rules(String),
    /// A deck the rules do not allow: its index (from 0) and every problem.
    IllegalDeck {
        /// The deck's index, from 0.
        deck: usize,
        /// What is wrong with it.
        problems: Vec<String>,
    },
}

impl std::fmt::Display for Unseated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unseated::Rules(why) => f.write_str(why),
            Unseated::IllegalDeck { deck, problems } => {
                write!(f, "deck {} is not legal: {}", deck + 1, problems.join("; "))
            }
        }
    }
}

/// Checks that `decks` may sit down to a game with `options`: the ruleset allows that many
/// seats with these options (options first: the deck rules and the teams may depend on
/// them), and every deck is legal under them.
pub fn check_seating(
    engine: &Engine,
    decks: &[DeckList],
    options: &Options,
) -> Result<(), Unseated> {
    // The first line of the ruleset's message is the reason (a traceback helps no one).
    let rules = |e: String| {
        let why = e.lines().next().unwrap_or_default();
        let why = why
            .split_once("runtime error: ")
            .map_or(why, |(_, w)| w)
            .to_string();
        Unseated::Rules(why)
    };
    engine
        .seats(decks.len() as u8, options)
        .map_err(|e| rules(e.to_string()))?;
    for (i, d) in decks.iter().enumerate() {
        let problems = engine
            .validate_deck_with(d, options)
            .map_err(|e| rules(e.to_string()))?;
        if !problems.is_empty() {
            return Err(Unseated::IllegalDeck { deck: i, problems });
        }
    }
    Ok(())
}
