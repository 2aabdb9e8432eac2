//! Characteristics as last computed, per (object, characteristic), for the characteristics
//! whose declaration says what they read (`reads` in game.yaml): a value stays good until an
//! operation changes something it reads, which bumps that characteristic's epoch
//! (`CharCache::invalidate`); an entry of another epoch is stale.
//!
//! The cache is not part of the game: a copy of the state (a fork, a snapshot) starts with
//! an empty one, so a fork stays a handful of reference-count increments. Reads fill it
//! through a shared reference (it sits in a `RefCell`), which is why it is kept apart from
//! the data the game is made of.

use std::cell::RefCell;

use crate::names::Sym;
use crate::state::ObjId;

/// One cached value with the epoch it was computed in (0: none).
#[derive(Clone, Debug, Default)]
struct Slot<T> {
    epoch: u64,
    value: T,
}

#[derive(Debug, Default)]
struct Inner {
    /// The epoch of each characteristic (by index); 0 until the first invalidation, and
    /// entries start stale at epoch 0 as they are stamped `epoch + 1`.
    epochs: Vec<u64>,
    /// Characteristics per object (the row width).
    width: usize,
    /// Integer values (raw, before the read bounds), `[object * width + characteristic]`.
    ints: Vec<Slot<i64>>,
    /// Set values, likewise.
    sets: Vec<Slot<Vec<Sym>>>,
}

/// See the module's documentation.
#[derive(Debug, Default)]
pub struct CharCache {
    inner: RefCell<Inner>,
}

impl Clone for CharCache {
    /// A copy starts empty: copying the values would make every fork pay for them.
    fn clone(&self) -> Self {
        CharCache::default()
    }
}

impl Inner {
    /// The slot index for (`id`, `ci`), growing the tables as needed.
    fn at(&mut self, id: ObjId, ci: usize, width: usize) -> usize {
        if self.width != width {
            // First use (or a new engine with other characteristics): start again.
            *self = Inner {
                epochs: vec![0; width],
                width,
                ..Inner::default()
            };
        }
        id.0 as usize * width + ci
    }
}

impl CharCache {
    /// The cached raw integer value of characteristic `ci` (of `width`) of `id`, if good.
    pub fn int(&self, id: ObjId, ci: usize, width: usize) -> Option<i64> {
        let inner = self.inner.borrow();
        if inner.width != width {
            return None;
        }
        let slot = inner.ints.get(id.0 as usize * width + ci)?;
        (slot.epoch == inner.epochs[ci] + 1).then_some(slot.value)
    }

    /// Keeps `value` as the raw integer value of characteristic `ci` of `id`.
    pub fn put_int(&self, id: ObjId, ci: usize, width: usize, value: i64) {
        let mut inner = self.inner.borrow_mut();
        let i = inner.at(id, ci, width);
        if inner.ints.len() <= i {
            inner.ints.resize(i + width, Slot::default());
        }
        let epoch = inner.epochs[ci] + 1;
        inner.ints[i] = Slot { epoch, value };
    }

    /// The cached value of set characteristic `ci` of `id`, if good.
    pub fn set(&self, id: ObjId, ci: usize, width: usize) -> Option<Vec<Sym>> {
        let inner = self.inner.borrow();
        if inner.width != width {
            return None;
        }
        let slot = inner.sets.get(id.0 as usize * width + ci)?;
        (slot.epoch == inner.epochs[ci] + 1).then(|| slot.value.clone())
    }

    /// Keeps `value` as the value of set characteristic `ci` of `id`.
    pub fn put_set(&self, id: ObjId, ci: usize, width: usize, value: &[Sym]) {
        let mut inner = self.inner.borrow_mut();
        let i = inner.at(id, ci, width);
        if inner.sets.len() <= i {
            inner.sets.resize(i + width, Slot::default());
        }
        let epoch = inner.epochs[ci] + 1;
        let slot = &mut inner.sets[i];
        slot.epoch = epoch;
        slot.value.clear();
        slot.value.extend_from_slice(value);
    }

    /// Makes stale every value of the characteristics whose bit is set in `chars` (bit `i`:
    /// characteristic `i`).
    pub fn invalidate(&mut self, chars: u64) {
        if chars == 0 {
            return;
        }
        let inner = self.inner.get_mut();
        for (i, e) in inner.epochs.iter_mut().enumerate().take(64) {
            if chars & (1 << i) != 0 {
                *e += 1;
            }
        }
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        *self.inner.get_mut() = Inner::default();
    }
}
