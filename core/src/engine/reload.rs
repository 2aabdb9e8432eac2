//! Hot reload: an engine with some cards changed, made from a running one.
//!
//! The new engine shares the old one's Lua VM, ruleset and every card that did not change;
//! a changed card keeps its index, so the state of a running game (which names cards by
//! index) is valid for both. Games move to the new engine at their next quiescent decision
//! ([`crate::Game::follow_reloads`]): a script suspended in the middle of an effect finishes
//! with the version it started with. See docs/kernel.md, "Hot reload".

use std::rc::Rc;

use super::{AbilityIndexes, Engine, LoadError, err};
use crate::content::CardDef;
use crate::db::Db;

/// A change to one card.
#[derive(Clone, Debug)]
pub enum CardChange {
    /// A new or changed definition: replaces the card of the same id, or adds it.
    Set {
        /// The definition.
        def: CardDef,
        /// What the log records as its version (a content hash of its files).
        version: String,
    },
    /// The card's files are gone: new games and scripts' `card_ids` no longer find it; games
    /// that hold it keep the version they have.
    Remove {
        /// Its id.
        id: String,
    },
}

/// A card an engine changed from the engine it was made from, as a game's log records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloaded {
    /// The card's id.
    pub card: String,
    /// Its new version (empty when removed).
    pub version: String,
    /// Its files were deleted.
    pub removed: bool,
}

/// Why a reload was refused: every problem, and nothing changed.
pub type ReloadError = Vec<LoadError>;

impl Engine {
    /// A new engine with `changes` applied, or every problem found (and this engine stays
    /// as it was). Reloads always start from the newest engine of the chain this one began,
    /// so that an old handle cannot fork the content. This engine's games move to the new
    /// one at their next quiescent decision.
    pub fn reload(self: &Rc<Self>, changes: &[CardChange]) -> Result<Rc<Engine>, ReloadError> {
        let base = self.latest();
        let old = &base.db;
        let mut names = old.names.clone();
        let mut cards = old.cards.clone();
        let mut card_index = old.card_index.clone();
        let mut by_name = old.by_name.to_vec();
        let mut errors = Vec::new();
        let mut reloaded = Vec::new();
        // The cards set, and their names before and after: what the labels and the
        // indexes are brought up to date for (not made again over every card).
        let mut changed: Vec<u32> = Vec::new();
        let mut names_touched: Vec<String> = Vec::new();
        for change in changes {
            match change {
                CardChange::Set { def, version } => {
                    let (data, problems) =
                        base.compiler
                            .compile(&base.lua, def.clone(), &old.rules, &mut names);
                    if !problems.is_empty() {
                        errors.extend(problems);
                        continue;
                    }
                    let Some(data) = data else { continue };
                    // A card removed earlier and added again takes its old index back.
                    let index = card_index.get(&cards, &def.id).or_else(|| {
                        cards
                            .iter()
                            .position(|c| c.def.id == def.id)
                            .map(|i| i as u32)
                    });
                    names_touched.push(data.name.clone());
                    let index = match index {
                        Some(i) => {
                            names_touched.push(cards[i as usize].name.clone());
                            crate::db::by_name_remove(&mut by_name, &cards, i);
                            cards[i as usize] = Rc::new(data);
                            crate::db::by_name_insert(&mut by_name, &cards, i);
                            i
                        }
                        None => {
                            cards.push(Rc::new(data));
                            let i = cards.len() as u32 - 1;
                            crate::db::by_name_insert(&mut by_name, &cards, i);
                            i
                        }
                    };
                    changed.push(index);
                    // (False when it had its id already: a changed card.)
                    card_index.insert(&cards, index);
                    reloaded.push(Reloaded {
                        card: def.id.clone(),
                        version: version.clone(),
                        removed: false,
                    });
                }
                CardChange::Remove { id } => {
                    if card_index.remove(&cards, id).is_none() {
                        errors.push(err(None, Some(id), "no such card to remove".into()));
                        continue;
                    }
                    reloaded.push(Reloaded {
                        card: id.clone(),
                        version: String::new(),
                        removed: true,
                    });
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        crate::db::label_shared_names_of(&mut cards, &by_name, &names_touched);
        let indexes = AbilityIndexes::updated(old, &cards, &changed);
        #[cfg(debug_assertions)]
        {
            let mut all = cards.clone();
            let all_by_name = crate::db::label_shared_names(&mut all);
            let same = all.iter().zip(&cards).all(|(a, b)| a.label == b.label);
            debug_assert!(same, "a reload's labels are those of a load");
            debug_assert!(
                all_by_name == by_name,
                "a reload's cards by name are those of a load"
            );
            let built = AbilityIndexes::build(&old.rule_abilities, &cards);
            debug_assert!(built == indexes, "a reload's indexes are those of a load");
        }
        let db = Rc::new(Db {
            names,
            rules: old.rules.clone(),
            cards,
            card_index,
            rule_abilities: old.rule_abilities.clone(),
            rule_outlines: old.rule_outlines.clone(),
            statics_by_char: indexes.statics_by_char,
            triggers_by_event: indexes.triggers_by_event,
            replacements: indexes.replacements,
            cards_by_timing: indexes.cards_by_timing,
            script_cards: indexes.script_cards,
            by_name: by_name.into(),
            in_play: old.in_play.clone(),
            ctx_meta: old.ctx_meta.clone(),
            ctx_keys: old.ctx_keys.clone(),
            interned: old.interned.clone(),
            hooks: old.hooks.clone(),
            memory: old.memory.clone(),
            budget: old.budget.clone(),
            compiler: old.compiler.clone(),
            current: Default::default(),
            stray_errors: Default::default(),
        });
        let engine = Rc::new(Engine {
            lua: base.lua.clone(),
            db,
            compiler: base.compiler.clone(),
            next: Default::default(),
            reloaded,
            chained: std::cell::Cell::new(true),
        });
        base.chained.set(true);
        *base.next.borrow_mut() = Some(engine.clone());
        Ok(engine)
    }

    /// The newest engine hot reloads made from this one (itself when none).
    pub fn latest(self: &Rc<Self>) -> Rc<Engine> {
        let mut e = self.clone();
        loop {
            let next = e.next.borrow().clone();
            match next {
                Some(n) => e = n,
                None => return e,
            }
        }
    }

    /// The cards this engine changed from the one it was made from (empty for an engine
    /// made from content).
    pub fn reloaded(&self) -> &[Reloaded] {
        &self.reloaded
    }

    /// Makes this engine's database the one the shared VM's callbacks read: engines of one
    /// reload chain share a VM, and each game runs with its own engine's cards.
    pub(crate) fn make_current(&self) {
        if !self.chained.get() {
            return;
        }
        let same = self
            .lua
            .app_data_ref::<Rc<Db>>()
            .is_some_and(|d| Rc::ptr_eq(&d, &self.db));
        if !same {
            self.lua.set_app_data(self.db.clone());
            crate::script::card::set_db(&self.lua, &self.db);
            crate::script::api::set_db(&self.lua, &self.db);
        }
    }
}
