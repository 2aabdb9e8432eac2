//! The abilities' indexes the kernel looks things up in: built with the engine, and again
//! for the engine a hot reload makes.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::db::{Ability, AbilityKind, AbilityOutline, AbilityRef, CardData, Db};
use crate::names::Sym;

/// Indexes over the rule abilities and every card's abilities (fields of `Db`).
#[derive(PartialEq, Debug)]
pub(crate) struct AbilityIndexes {
    pub statics_by_char: FxHashMap<Sym, Vec<AbilityRef>>,
    pub triggers_by_event: FxHashMap<Sym, Vec<AbilityRef>>,
    pub replacements: Vec<AbilityRef>,
    pub cards_by_timing: FxHashMap<(AbilityKind, Sym), Vec<u64>>,
    pub script_cards: Box<[u32]>,
}

impl AbilityIndexes {
    pub fn build(rule_abilities: &[Ability], cards: &[Rc<CardData>]) -> AbilityIndexes {
        let mut statics_by_char: FxHashMap<_, Vec<_>> = FxHashMap::default();
        let mut triggers_by_event: FxHashMap<_, Vec<_>> = FxHashMap::default();
        let mut replacements = Vec::new();
        // Built from outlines: no card's script needs loading for its place in an index.
        let rules: Vec<AbilityOutline> = rule_abilities.iter().map(AbilityOutline::of).collect();
        let all = rules.iter().enumerate().map(|(i, a)| ((None, i), a)).chain(
            cards.iter().enumerate().flat_map(|(c, d)| {
                d.outline
                    .iter()
                    .enumerate()
                    .map(move |(i, a)| ((Some(c as u32), i), a))
            }),
        );
        for (r, a) in all {
            match a.kind {
                AbilityKind::Static => {
                    for &m in &a.modifies {
                        statics_by_char.entry(m).or_default().push(r);
                    }
                }
                AbilityKind::Triggered => triggers_by_event
                    .entry(a.on.expect("checked"))
                    .or_default()
                    .push(r),
                AbilityKind::Replacement => replacements.push(r),
                AbilityKind::Activated => {}
            }
        }
        let mut cards_by_timing: FxHashMap<_, Vec<u64>> = FxHashMap::default();
        for (c, d) in cards.iter().enumerate() {
            for a in &d.outline {
                for &t in &a.timings {
                    let bits = cards_by_timing.entry((a.kind, t)).or_default();
                    bits.resize(cards.len().div_ceil(64), 0);
                    bits[c / 64] |= 1 << (c % 64);
                }
            }
        }
        let script = |i: &u32| cards[*i as usize].def.script.as_ref().map(|s| &s.name);
        let mut script_cards: Vec<u32> = (0..cards.len() as u32)
            .filter(|i| script(i).is_some())
            .collect();
        // (Stable: of two cards with one script file, the first loaded is found first.)
        script_cards.sort_by(|a, b| script(a).cmp(&script(b)));
        AbilityIndexes {
            statics_by_char,
            triggers_by_event,
            replacements,
            cards_by_timing,
            script_cards: script_cards.into(),
        }
    }

    /// The indexes of `cards`, made from `old`'s (those of the cards before a hot reload)
    /// where only the cards `changed` differ or were added: what [`Self::build`] gives,
    /// without a pass over every card (at 100,000 cards that pass and its sort were most
    /// of a reload's time). Each list keeps the order `build` gives it: the rules'
    /// abilities first, then by card, then by ability (`AbilityRef`'s own order).
    pub fn updated(old: &Db, cards: &[Rc<CardData>], changed: &[u32]) -> AbilityIndexes {
        let mut changed = changed.to_vec();
        changed.sort_unstable();
        changed.dedup();
        let mut statics_by_char = old.statics_by_char.clone();
        let mut triggers_by_event = old.triggers_by_event.clone();
        let mut replacements = old.replacements.clone();
        let mut cards_by_timing = old.cards_by_timing.clone();
        let words = cards.len().div_ceil(64);
        for bits in cards_by_timing.values_mut() {
            bits.resize(words, 0);
        }
        let drop_card = |list: &mut Vec<AbilityRef>, c: u32| {
            let from = list.partition_point(|r| *r < (Some(c), 0));
            let to = list.partition_point(|r| r.0.is_none() || r.0 <= Some(c));
            list.drain(from..to);
        };
        let add = |list: &mut Vec<AbilityRef>, r: AbilityRef| {
            let at = list.partition_point(|x| *x < r);
            list.insert(at, r);
        };
        for &c in &changed {
            for list in statics_by_char.values_mut() {
                drop_card(list, c);
            }
            for list in triggers_by_event.values_mut() {
                drop_card(list, c);
            }
            drop_card(&mut replacements, c);
            for bits in cards_by_timing.values_mut() {
                bits[c as usize / 64] &= !(1 << (c % 64));
            }
            for (ai, a) in cards[c as usize].outline.iter().enumerate() {
                let r = (Some(c), ai);
                match a.kind {
                    AbilityKind::Static => {
                        for &m in &a.modifies {
                            add(statics_by_char.entry(m).or_default(), r);
                        }
                    }
                    AbilityKind::Triggered => add(
                        triggers_by_event.entry(a.on.expect("checked")).or_default(),
                        r,
                    ),
                    AbilityKind::Replacement => add(&mut replacements, r),
                    AbilityKind::Activated => {}
                }
                for &t in &a.timings {
                    let bits = cards_by_timing
                        .entry((a.kind, t))
                        .or_insert_with(|| vec![0; words]);
                    bits[c as usize / 64] |= 1 << (c % 64);
                }
            }
        }
        // A list or bit set left empty is no entry, as `build` makes none.
        statics_by_char.retain(|_, l| !l.is_empty());
        triggers_by_event.retain(|_, l| !l.is_empty());
        cards_by_timing.retain(|_, b| b.iter().any(|w| *w != 0));
        let script = |i: u32| cards[i as usize].def.script.as_ref().map(|s| &s.name);
        // Sorted by script, then by card (the stable sort of `build`).
        let mut script_cards: Vec<u32> = old
            .script_cards
            .iter()
            .copied()
            .filter(|i| changed.binary_search(i).is_err())
            .collect();
        for &c in &changed {
            if script(c).is_some() {
                let at = script_cards.partition_point(|&x| (script(x), x) < (script(c), c));
                script_cards.insert(at, c);
            }
        }
        AbilityIndexes {
            statics_by_char,
            triggers_by_event,
            replacements,
            cards_by_timing,
            script_cards: script_cards.into(),
        }
    }
}
