//! The canary content: the game's cards and deck lists, plus for each seat a copy of its deck
//! in which every physical card is a card of its own (id `<id>-CS<seat>N<k>`) whose name, in
//! every language, ends with the marker `⟦<that id>⟧`. A marker in a message names one card
//! of one seat, wherever it went.

use riffle_content::{Deck, LoadOptions, Loader};
use riffle_core::{CardDef, DeckList};
use riffle_host::{Library, Loaded};

/// The marker's brackets: characters no card name of the content uses.
pub const OPEN: char = '⟦';
pub const CLOSE: char = '⟧';

/// The canary deck id of `seat`.
pub fn deck_id(seat: usize) -> String {
    format!("canary-s{seat}")
}

/// The seat whose card a canary id names (`RF01-016-CS1N3`: seat 1).
pub fn seat_of(id: &str) -> Option<usize> {
    let (_, rest) = id.rsplit_once("-CS")?;
    rest.split('N').next()?.parse().ok()
}

/// Every marker in `text`: the canary ids between the brackets.
pub fn markers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        rest = &rest[i + OPEN.len_utf8()..];
        let Some(j) = rest.find(CLOSE) else { break };
        out.push(&rest[..j]);
        rest = &rest[j..];
    }
    out
}

/// A library holding `game` with canary decks for `players` seats: seat `s` plays a copy of
/// the game's deck list `(first + s) mod n`.
pub fn library(game: &str, players: usize, first: usize) -> Library {
    let mut loaded = Loader::new(vec![crate::common::repo()])
        .load_valid(game, LoadOptions::default())
        .unwrap_or_else(|e| panic!("{game}: {e}"));
    let n = loaded.decks.len();
    for seat in 0..players {
        let deck = loaded.decks[(first + seat) % n].clone();
        let mut list = DeckList::default();
        for (section, cards) in &deck.list.sections {
            let copies = list.sections.entry(section.clone()).or_default();
            for (id, count) in cards {
                let def = loaded
                    .content
                    .cards
                    .iter()
                    .find(|c| c.id == *id)
                    .unwrap_or_else(|| panic!("{game}: deck {} names {id}", deck.id))
                    .clone();
                for k in 0..*count {
                    let canary = canary_card(&def, seat, k);
                    for lib in &mut loaded.content.libraries {
                        if lib.cards.contains(id) {
                            lib.cards.push(canary.id.clone());
                        }
                    }
                    copies.insert(canary.id.clone(), 1);
                    loaded.content.cards.push(canary);
                }
            }
        }
        loaded.decks.push(Deck {
            id: deck_id(seat),
            list,
            ..deck
        });
    }
    let engine = riffle_content::setup::engine(&mut loaded).unwrap_or_else(|e| panic!("{e}"));
    let mut library = Library::default();
    library.add(
        game.to_string(),
        Loaded {
            content: loaded,
            engine,
        },
    );
    library
}

/// Copy `k` of `def` for `seat`: its own id, and its name marked in every language.
fn canary_card(def: &CardDef, seat: usize, k: u32) -> CardDef {
    let id = format!("{}-CS{seat}N{k}", def.id);
    let name = def
        .name
        .iter()
        .map(|(lang, text)| (lang.clone(), format!("{text} {OPEN}{id}{CLOSE}")))
        .collect();
    CardDef {
        id,
        name,
        ..def.clone()
    }
}
