//! Cards by id: the indexes of the engine's cards sorted by id, found by binary search.
//! A map from id to index would hold every id a second time (about 70 bytes a card with
//! its table: most of a megabyte at 10,000 cards); the ids are in the cards already.

use std::rc::Rc;

/// What has an id: a card's data (`db::CardData`).
pub trait Identified {
    /// Its id.
    fn id(&self) -> &str;
}

/// The cards that have an id in the engine (a card a hot reload removed keeps its data for
/// the games holding it, not its id), sorted by id.
#[derive(Clone, Debug, Default)]
pub struct CardIndex(Vec<u32>);

impl CardIndex {
    /// Every card of `cards`; of two with one id, the first. Returns the index and the
    /// cards left out.
    pub fn of<C: Identified>(cards: &[Rc<C>]) -> (CardIndex, Vec<u32>) {
        let mut by_id: Vec<u32> = (0..cards.len() as u32).collect();
        // Stable: of equal ids, the first card comes first and stays.
        by_id.sort_by(|a, b| id(cards, *a).cmp(id(cards, *b)));
        let mut left_out = Vec::new();
        by_id.dedup_by(|later, first| {
            let same = id(cards, *later) == id(cards, *first);
            if same {
                left_out.push(*later);
            }
            same
        });
        left_out.sort_unstable();
        (CardIndex(by_id), left_out)
    }

    fn position<C: Identified>(&self, cards: &[Rc<C>], card_id: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|c| id(cards, *c).cmp(card_id))
    }

    /// The card with this id.
    pub fn get<C: Identified>(&self, cards: &[Rc<C>], card_id: &str) -> Option<u32> {
        self.position(cards, card_id).ok().map(|i| self.0[i])
    }

    /// Adds card `c` (its id is `cards[c]`'s); false when a card has that id already.
    pub fn insert<C: Identified>(&mut self, cards: &[Rc<C>], c: u32) -> bool {
        match self.position(cards, id(cards, c)) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, c);
                true
            }
        }
    }

    /// Takes the card with this id out; returns it.
    pub fn remove<C: Identified>(&mut self, cards: &[Rc<C>], card_id: &str) -> Option<u32> {
        let i = self.position(cards, card_id).ok()?;
        Some(self.0.remove(i))
    }
}

fn id<C: Identified>(cards: &[Rc<C>], c: u32) -> &str {
    cards[c as usize].id()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Card(&'static str);

    impl Identified for Card {
        fn id(&self) -> &str {
            self.0
        }
    }

    fn cards(ids: &[&'static str]) -> Vec<Rc<Card>> {
        ids.iter().map(|i| Rc::new(Card(i))).collect()
    }

    #[test]
    fn finds_each_id_and_leaves_out_a_later_card_with_an_id_taken() {
        let cs = cards(&["B-2", "A-1", "B-2", "C-3"]);
        let (index, left_out) = CardIndex::of(&cs);
        assert_eq!(left_out, [2], "the second B-2");
        assert_eq!(index.get(&cs, "B-2"), Some(0));
        assert_eq!(index.get(&cs, "A-1"), Some(1));
        assert_eq!(index.get(&cs, "C-3"), Some(3));
        assert_eq!(index.get(&cs, "D-4"), None);
    }

    #[test]
    fn takes_new_cards_in_and_removed_ones_out() {
        let mut cs = cards(&["M-1", "K-1"]);
        let (mut index, _) = CardIndex::of(&cs);
        cs.push(Rc::new(Card("L-1")));
        assert!(index.insert(&cs, 2));
        assert!(!index.insert(&cs, 0), "M-1 has its place");
        assert_eq!(index.get(&cs, "L-1"), Some(2));
        assert_eq!(index.remove(&cs, "K-1"), Some(1));
        assert_eq!(index.get(&cs, "K-1"), None);
        assert_eq!(index.get(&cs, "M-1"), Some(0));
        assert_eq!(index.remove(&cs, "K-1"), None);
    }
}
