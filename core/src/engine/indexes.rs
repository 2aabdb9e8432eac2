//! The abilities' indexes the kernel looks things up in: built with the engine, and again
//! for the engine a hot reload makes.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::db::{Ability, AbilityKind, AbilityOutline, AbilityRef, CardData};
use crate::names::Sym;

/// Indexes over the rule abilities and every card's abilities (fields of `Db`).
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
}
