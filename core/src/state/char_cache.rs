//! Characteristics as last computed, per (object, characteristic), for the characteristics
//! whose declaration says what they read (`reads` in game.yaml): a value stays good until an
//! operation changes something it reads, which bumps that characteristic's epoch
//! (`CharCache::invalidate`); an entry of another epoch is stale. Player characteristics
//! that declare `reads` are kept the same way per (player, characteristic), their epochs
//! after the card characteristics' (`Rules::player_char_bit`).
//!
//! Finer, per card: while a value is worked out, the kernel records the objects whose
//! effects, counters or flags it read (`read_obj`: the effects on a card are read in one
//! place, `characteristics::collect`, and Lua reads a card's counters and flags through
//! `c:counter_value` and `c:flag_on`), with each object's version (`CharCache::bump`). A
//! change to one card's effects, counters or flags bumps that card's version only, and
//! makes stale only the values whose record names it (for a characteristic declared
//! `stale: per_card`; the others still take the epoch). A read of every effect
//! (`ctx:effects`) records all objects (`read_all`).
//!
//! Where cards are is recorded the same way: the zones whose contents a value listed or
//! counted (`read_zone`, which `State::zone` calls: a zone read anywhere while a value is
//! worked out is noted, unless the caller knows better), the objects whose own place it read
//! (`read_place`: a card's zone, host, attachments, entry...), and, per characteristic,
//! the walk over the static abilities in play (`read_statics`: which cards holding one are
//! where). A move bumps the zones it left and entered, the places of the cards that moved
//! and of the hosts they left or joined, and the statics of what the moved cards' own
//! static abilities modify (`CharCache::moved`), but for those that change only their own
//! card or bearer: a value's walk reads its card's place for those; a read it cannot name
//! precisely notes any move (`read_any_move`).
//!
//! The cache is not part of the game: a copy of the state (a fork, a snapshot) starts with
//! an empty one, so a fork stays a handful of reference-count increments. Reads fill it
//! through a shared reference (it sits in a `RefCell`), which is why it is kept apart from
//! the data the game is made of.

use std::cell::{Cell, RefCell};

use crate::names::Sym;
use crate::state::{ObjId, ZoneId};

/// Stands for every object in a record (a read of every effect).
const ALL: u32 = u32::MAX;
/// Stands for any move in a record (a read of where cards are not named more precisely).
const MOVES: u32 = u32::MAX - 1;

/// A record entry is a key: its kind in the top 3 bits, an index below.
const SHIFT: u32 = 29;
/// An object's effects, counters and flags.
const OBJ: u32 = 0;
/// An object's own place (its zone, host, attachments, entry).
const PLACE: u32 = 1;
/// A zone instance's contents.
const ZONE: u32 = 2;
/// Which cards holding a static ability that modifies a characteristic (a `Sym`) are where.
const STATICS: u32 = 3;
const INDEX: u32 = (1 << SHIFT) - 1;

#[inline]
fn key(kind: u32, i: u32) -> u32 {
    if i > INDEX {
        // Out of the key's range (never in a real game): conservatively, everything.
        return ALL;
    }
    (kind << SHIFT) | i
}

/// One cached value with the epoch it was computed in (0: none), and what it read (the
/// record's keys), with their versions then.
#[derive(Clone, Debug, Default)]
struct Slot<T> {
    epoch: u64,
    value: T,
    deps: Vec<(u32, u64)>,
}

thread_local! {
    // The records of the values being worked out now, innermost last (each a list of
    // keys); `depth` of them are in use, the rest kept for their room.
    static RECORDS: RefCell<(usize, Vec<Vec<u32>>)> = const { RefCell::new((0, Vec::new())) };
    // Whether a value is being worked out (the zone reads of the rest of the kernel ask
    // this first: one thread-local read).
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
}

/// Notes in the record of the value being worked out (if any) that it read the effects,
/// counters or flags of `id`.
#[inline]
pub fn read_obj(id: ObjId) {
    note(key(OBJ, id.0));
}

/// Notes that the value being worked out read the effects of every object.
#[inline]
pub fn read_all() {
    note(ALL);
}

/// Notes that the value being worked out read where object `id` is: its zone, host,
/// attachments, entry, and what a move changes on it.
#[inline]
pub fn read_place(id: ObjId) {
    note(key(PLACE, id.0));
}

/// Notes that the value being worked out read the contents of zone instance `z`.
#[inline]
pub fn read_zone(z: ZoneId) {
    note(key(ZONE, z.0 as u32));
}

/// Notes that the value being worked out walked the static abilities that modify `sym`
/// (which of the cards holding one are where).
#[inline]
pub fn read_statics(sym: Sym) {
    note(key(STATICS, sym.0));
}

/// Notes that the value being worked out read where cards are in a way no finer key names:
/// any move makes it stale.
#[inline]
pub fn read_any_move() {
    note(MOVES);
}

/// Notes `x` in the record of the value being worked out, if any (the test inlined: the
/// kernel's reads outside a value's working-out pay one thread-local read).
#[inline]
fn note(x: u32) {
    if ACTIVE.with(|a| a.get()) {
        note_in_record(x);
    }
}

fn note_in_record(x: u32) {
    RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        let (depth, frames) = &mut *r;
        if *depth > 0 {
            let f = &mut frames[*depth - 1];
            if !f.contains(&x) {
                f.push(x);
            }
        }
    })
}

/// Runs `f` with a record of what it reads, which is handed to `keep` (`deps`, for the
/// `put_*` calls) and then added to the enclosing record, if any: whatever a nested value
/// read, the value that read it read too.
pub fn recording<T>(f: impl FnOnce() -> T, keep: impl FnOnce(&T, &[u32])) -> T {
    RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        let (depth, frames) = &mut *r;
        if frames.len() == *depth {
            frames.push(Vec::new());
        }
        frames[*depth].clear();
        *depth += 1;
    });
    ACTIVE.with(|a| a.set(true));
    let v = f();
    let deps = RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        r.0 -= 1;
        let d = r.0;
        ACTIVE.with(|a| a.set(d > 0));
        std::mem::take(&mut r.1[d])
    });
    keep(&v, &deps);
    RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        let (depth, frames) = &mut *r;
        if *depth > 0 {
            let f = &mut frames[*depth - 1];
            for &x in &deps {
                if !f.contains(&x) {
                    f.push(x);
                }
            }
        }
        // Give the room back for the next value.
        frames[*depth] = deps;
    });
    v
}

#[derive(Debug, Default)]
struct Inner {
    /// The epoch of each characteristic (by bit: card characteristics, then player ones);
    /// 0 until the first invalidation, and entries start stale at epoch 0 as they are
    /// stamped `epoch + 1`.
    epochs: Vec<u64>,
    /// Characteristics per object (the row width).
    width: usize,
    /// Integer values (raw, before the read bounds), `[object * width + characteristic]`.
    ints: Vec<Slot<i64>>,
    /// Set values, likewise.
    sets: Vec<Slot<Vec<Sym>>>,
    /// Player characteristics' raw values, `[player * 64 + bit]`.
    players: Vec<Slot<i64>>,
    /// Each object's version: bumped when its effects, counters or flags change.
    versions: Vec<u64>,
    /// Bumped with any object's version (the version of `ALL`).
    all: u64,
    /// Each object's place's version, each zone instance's, and each characteristic's
    /// statics' (by `Sym`): bumped by moves.
    places: Vec<u64>,
    zones: Vec<u64>,
    statics: Vec<u64>,
    /// Bumped by every move (the version of `MOVES`).
    moves: u64,
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
                epochs: vec![0; 64],
                width,
                ..Inner::default()
            };
        }
        id.0 as usize * width + ci
    }

    fn version(&self, x: u32) -> u64 {
        let of = |v: &Vec<u64>| v.get((x & INDEX) as usize).copied().unwrap_or(0);
        match x >> SHIFT {
            OBJ => of(&self.versions),
            PLACE => of(&self.places),
            ZONE => of(&self.zones),
            STATICS => of(&self.statics),
            _ if x == MOVES => self.moves,
            _ => self.all,
        }
    }

    /// The epoch of characteristic bit `ci`.
    fn epoch(&self, ci: usize) -> u64 {
        self.epochs.get(ci).copied().unwrap_or(0)
    }

    /// Whether `slot` is good: of the characteristic's epoch, and nothing it read changed.
    fn good<T>(&self, slot: &Slot<T>, ci: usize) -> bool {
        slot.epoch == self.epoch(ci) + 1 && slot.deps.iter().all(|&(x, v)| self.version(x) == v)
    }

    /// `deps` with their versions now, into `out`.
    fn stamp(&self, deps: &[u32], out: &mut Vec<(u32, u64)>) {
        out.clear();
        out.extend(deps.iter().map(|&x| (x, self.version(x))));
    }
}

/// Adds a good slot's record to the record of the value being worked out, if any (a
/// nested read that found a kept value read what that value read).
fn pass_on(deps: &[(u32, u64)]) {
    if deps.is_empty() {
        return;
    }
    RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        let (depth, frames) = &mut *r;
        if *depth > 0 {
            let f = &mut frames[*depth - 1];
            for &(x, _) in deps {
                if !f.contains(&x) {
                    f.push(x);
                }
            }
        }
    })
}

impl CharCache {
    /// The cached raw integer value of characteristic `ci` (of `width`) of `id`, if good.
    pub fn int(&self, id: ObjId, ci: usize, width: usize) -> Option<i64> {
        let inner = self.inner.borrow();
        if inner.width != width {
            return None;
        }
        let slot = inner.ints.get(id.0 as usize * width + ci)?;
        inner.good(slot, ci).then(|| {
            pass_on(&slot.deps);
            slot.value
        })
    }

    /// Keeps `value` as the raw integer value of characteristic `ci` of `id`, worked out
    /// reading the objects `deps` (`recording`).
    pub fn put_int(&self, id: ObjId, ci: usize, width: usize, value: i64, deps: &[u32]) {
        let mut inner = self.inner.borrow_mut();
        let i = inner.at(id, ci, width);
        if inner.ints.len() <= i {
            // Made in place: `resize` would clone a default slot (its vectors) for each.
            inner.ints.resize_with(i + width, Slot::default);
        }
        let epoch = inner.epoch(ci) + 1;
        let mut stamped = std::mem::take(&mut inner.ints[i].deps);
        inner.stamp(deps, &mut stamped);
        inner.ints[i] = Slot {
            epoch,
            value,
            deps: stamped,
        };
    }

    /// The cached value of set characteristic `ci` of `id`, if good.
    pub fn set(&self, id: ObjId, ci: usize, width: usize) -> Option<Vec<Sym>> {
        let inner = self.inner.borrow();
        if inner.width != width {
            return None;
        }
        let slot = inner.sets.get(id.0 as usize * width + ci)?;
        inner.good(slot, ci).then(|| {
            pass_on(&slot.deps);
            slot.value.clone()
        })
    }

    /// Keeps `value` as the value of set characteristic `ci` of `id`, worked out reading
    /// the objects `deps` (`recording`).
    pub fn put_set(&self, id: ObjId, ci: usize, width: usize, value: &[Sym], deps: &[u32]) {
        let mut inner = self.inner.borrow_mut();
        let i = inner.at(id, ci, width);
        if inner.sets.len() <= i {
            inner.sets.resize_with(i + width, Slot::default);
        }
        let epoch = inner.epoch(ci) + 1;
        let mut stamped = std::mem::take(&mut inner.sets[i].deps);
        inner.stamp(deps, &mut stamped);
        let slot = &mut inner.sets[i];
        slot.epoch = epoch;
        slot.deps = stamped;
        slot.value.clear();
        slot.value.extend_from_slice(value);
    }

    /// The cached raw value of player characteristic bit `bit` of player `p`, if good.
    pub fn player(&self, p: u8, bit: usize) -> Option<i64> {
        let inner = self.inner.borrow();
        let slot = inner.players.get(p as usize * 64 + bit)?;
        inner.good(slot, bit).then(|| {
            pass_on(&slot.deps);
            slot.value
        })
    }

    /// Keeps `value` as the raw value of player characteristic bit `bit` (below 64) of
    /// player `p`, worked out reading `deps` (`recording`: passed on to a value that reads
    /// it, such as a card's).
    pub fn put_player(&self, p: u8, bit: usize, value: i64, deps: &[u32]) {
        let mut inner = self.inner.borrow_mut();
        if inner.epochs.len() < 64 {
            inner.epochs.resize(64, 0);
        }
        let i = p as usize * 64 + bit;
        if inner.players.len() <= i {
            inner.players.resize_with(i + 1, Slot::default);
        }
        let epoch = inner.epoch(bit) + 1;
        let mut stamped = std::mem::take(&mut inner.players[i].deps);
        inner.stamp(deps, &mut stamped);
        inner.players[i] = Slot {
            epoch,
            value,
            deps: stamped,
        };
    }

    /// Makes stale the values whose working-out read the effects, counters or flags of
    /// `id` (they changed).
    pub fn bump(&mut self, id: ObjId) {
        let inner = self.inner.get_mut();
        let i = id.0 as usize;
        if inner.versions.len() <= i {
            inner.versions.resize(i + 1, 0);
        }
        inner.versions[i] += 1;
        inner.all += 1;
    }

    /// Makes stale the values whose working-out read where the cards a move changed are:
    /// those in `zones` (it left or entered them), the places of `places` (the cards that
    /// moved, the hosts they left or joined) and the statics of `statics` (the
    /// characteristics the moved cards' static abilities modify). Also bumps the moved
    /// cards' own versions (`objects`): a new object's old one is gone, with its effects,
    /// counters and flags.
    pub fn moved(
        &mut self,
        zones: &[ZoneId],
        places: &[ObjId],
        objects: &[ObjId],
        statics: &[Sym],
    ) {
        let inner = self.inner.get_mut();
        fn up(v: &mut Vec<u64>, i: usize) {
            if v.len() <= i {
                v.resize(i + 1, 0);
            }
            v[i] += 1;
        }
        for z in zones {
            up(&mut inner.zones, z.0 as usize);
        }
        for p in places {
            up(&mut inner.places, p.0 as usize);
        }
        for s in statics {
            up(&mut inner.statics, s.0 as usize);
        }
        inner.moves += 1;
        for &o in objects {
            self.bump(o);
        }
    }

    /// Makes stale every value of the characteristics whose bit is set in `chars` (bit `i`:
    /// characteristic `i`, or a player characteristic after them).
    pub fn invalidate(&mut self, chars: u64) {
        if chars == 0 {
            return;
        }
        let inner = self.inner.get_mut();
        if inner.epochs.len() < 64 {
            inner.epochs.resize(64, 0);
        }
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
