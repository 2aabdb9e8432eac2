//! A decision's fingerprint (see the module above), and the cheap *shape* that lets the
//! kernel compute it only when it can matter. Most decisions of a turn never repeat: each
//! keeps its shape (a hash of what equal fingerprints share: zone sizes, the cards in each
//! zone as a sum, the driver's frames, the request without its cards) and a copy of what the
//! fingerprint reads; the fingerprint itself is computed when a later decision has the same
//! shape, when an answer may be barred there, or when a declared loop is replayed.

use std::cell::{OnceCell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::content::Visibility;
use crate::game::driver::{Frame, TriggerStage, TurnStage};
use crate::rules::Rules;
use crate::state::decisions::{Choice, Request};
use crate::state::loops::{FramesSig, Print};
use crate::state::values::Val;
use crate::state::{ObjId, State, ZoneInst};
use rustc_hash::FxHasher;

/// What a fingerprint reads of the driver's `frames`.
fn frames_sig(frames: &[Frame]) -> FramesSig {
    let mut h = FxHasher::default();
    let mut records = Vec::new();
    for f in frames {
        match f {
            Frame::Turns(s) => {
                let (k, i) = match s {
                    TurnStage::Setup => (0, 0),
                    TurnStage::SetupDone => (1, 0),
                    TurnStage::TurnStart => (2, 0),
                    TurnStage::PhaseStart(i) => (3, *i),
                    TurnStage::PhaseRan(i) => (4, *i),
                    TurnStage::PhaseAsk(i) => (5, *i),
                    TurnStage::ActionDone(i) => (6, *i),
                    TurnStage::PhaseFinish(i) => (7, *i),
                    TurnStage::PhaseFinished(i) => (8, *i),
                };
                (0u8, k as u8, i).hash(&mut h);
            }
            Frame::Lua(l) => (1u8, &l.label, l.resumes).hash(&mut h),
            Frame::Ops(o) => (2u8, o.ops.len(), o.next).hash(&mut h),
            Frame::Triggers(t) => {
                let (k, p) = match t {
                    TriggerStage::Pick => (0u8, 0),
                    TriggerStage::Asked(p) => (1, *p),
                    TriggerStage::Resolving => (2, 0),
                };
                (3u8, k, p).hash(&mut h);
            }
            Frame::Checks(c) => (4u8, c.each_op, c.next).hash(&mut h),
            Frame::Window(w) => (5u8, &w.prompt, w.turn, w.passes).hash(&mut h),
            Frame::Procedure(p) => {
                (6u8, p.proc, p.step, p.stage as u8, p.stopping).hash(&mut h);
                records.push(p.data.clone());
            }
        }
    }
    FramesSig {
        head: h.finish(),
        records,
    }
}

/// A decision's shape: a hash of what two decisions with equal fingerprints share, with no
/// object numbers in it (a loop brings cards back as new objects).
fn shape(st: &State, rules: &Rules, frames: &FramesSig, req: &Request) -> u64 {
    let mut h = FxHasher::default();
    (st.turn, st.turn_player, st.phase).hash(&mut h);
    (st.round, st.seats.direction).hash(&mut h);
    for z in st.zones.iter() {
        (z.cards.len(), zone_sum(st, rules, z)).hash(&mut h);
    }
    for p in st.players.iter() {
        (&p.values, p.out).hash(&mut h);
    }
    st.game_values.hash(&mut h);
    let pending: usize = st.pending.iter().map(|b| b.items.len()).sum();
    (st.effects.len(), st.grants.len(), st.usage.len(), pending).hash(&mut h);
    frames.head.hash(&mut h);
    frames.records.len().hash(&mut h);
    hash_request(req, &mut h, |o, h| (&o.label, &o.kind).hash(h));
    h.finish()
}

/// A zone's cards as a sum: the same in any order (a zone that is not `ordered`). Zero for a
/// hidden zone (a deck: most of the game's cards, one object read each), whose size is
/// filter enough: the shape only spares the fingerprint, which reads every card.
fn zone_sum(st: &State, rules: &Rules, z: &ZoneInst) -> u64 {
    if rules.zones[z.decl as usize].1.visibility == Visibility::Hidden {
        return 0;
    }
    let mut sum = 0u64;
    for &id in &z.cards {
        let o = st.obj(id);
        let x = o.card as u64
            | (o.orientation.0 as u64) << 32
            | (o.attachments.len() as u64 & 0xff) << 48
            | (o.face_up as u64) << 56
            | (o.controller as u64 & 0x7f) << 57;
        sum = sum.wrapping_add(x.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (x >> 29));
    }
    sum
}

/// Hashes a request: who is asked what, and each option as `option` hashes it.
fn hash_request(req: &Request, h: &mut FxHasher, mut option: impl FnMut(&Choice, &mut FxHasher)) {
    match req {
        Request::Choose {
            player,
            prompt,
            options,
            min,
            max,
        } => {
            (0u8, player, prompt, min, max, options.len()).hash(h);
            for o in options {
                option(o, h);
            }
        }
        Request::Number {
            player,
            prompt,
            min,
            max,
        } => (1u8, player, prompt, min, max).hash(h),
    }
}

impl Print {
    /// The print of the decision `req` the driver stopped at. A copy of the state costs what
    /// a fork costs (its objects are shared until written).
    pub(crate) fn new(st: &State, rules: &Rules, frames: &[Frame], req: Rc<Request>) -> Print {
        let frames = frames_sig(frames);
        let mut state = st.clone();
        // Not read by the fingerprint; and the copy would hold every earlier print.
        state.loops = Default::default();
        Print {
            shape: shape(st, rules, &frames, &req),
            full: OnceCell::new(),
            parts: RefCell::new(Some((state, frames, req))),
        }
    }

    /// Its shape: decisions with different shapes have different fingerprints.
    pub(crate) fn shape(&self) -> u64 {
        self.shape
    }

    /// The fingerprint.
    pub(crate) fn full(&self, rules: &Rules) -> u64 {
        *self.full.get_or_init(|| {
            let (st, frames, req) = self.parts.borrow_mut().take().expect("not computed yet");
            fingerprint(rules, &st, &frames, &req)
        })
    }

    /// Whether two decisions (None: one without a choice) have the same fingerprint.
    pub(crate) fn same(a: Option<&Print>, b: Option<&Print>, rules: &Rules) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => a.shape == b.shape && a.full(rules) == b.full(rules),
            _ => false,
        }
    }
}

/// Hashes the state and a request, with card objects identified by card id and place. In
/// a zone the ruleset does not declare `ordered`, the cards' order is not game information:
/// they count in an order of their own contents, so a loop that only reorders them repeats.
pub(crate) fn fingerprint(rules: &Rules, st: &State, frames: &FramesSig, req: &Request) -> u64 {
    let mut h = FxHasher::default();
    // An ordered zone's cards as they are; an unordered one's sorted (a copy).
    let zones: Vec<std::borrow::Cow<[ObjId]>> = st
        .zones
        .iter()
        .map(|z| {
            if rules.zones[z.decl as usize].1.ordered || z.cards.len() < 2 {
                return std::borrow::Cow::Borrowed(z.cards.as_slice());
            }
            // Contents without places: the card ids of the object and its attachments.
            let mut cards = z.cards.clone();
            let by_card = |id: ObjId| (0, st.obj(id).card);
            cards.sort_by_cached_key(|id| {
                let mut d = FxHasher::default();
                hash_object(st, &by_card, *id, &mut d);
                d.finish()
            });
            std::borrow::Cow::Owned(cards)
        })
        .collect();
    // Canonical numbers: zones in order, each card then its attachments.
    let mut canon = vec![u32::MAX; st.objects.len()];
    let mut next = 0u32;
    fn number(st: &State, canon: &mut [u32], next: &mut u32, id: ObjId) {
        if canon[id.0 as usize] != u32::MAX {
            return;
        }
        canon[id.0 as usize] = *next;
        *next += 1;
        for a in &st.obj(id).attachments {
            number(st, canon, next, *a);
        }
    }
    for cards in &zones {
        for id in cards.iter() {
            number(st, &mut canon, &mut next, *id);
        }
    }
    // An object off the board (gone) counts by its card id alone.
    let key = |id: ObjId| -> (u32, u32) {
        let c = canon.get(id.0 as usize).copied().unwrap_or(u32::MAX);
        (
            c,
            st.objects.get(id.0 as usize).map_or(u32::MAX, |o| o.card),
        )
    };
    (st.turn, st.turn_player, st.phase).hash(&mut h);
    (st.round, st.seats.direction).hash(&mut h);
    for cards in &zones {
        cards.len().hash(&mut h);
        for id in cards.iter() {
            hash_object(st, &key, *id, &mut h);
        }
    }
    for p in st.players.iter() {
        (&p.values, p.out).hash(&mut h);
    }
    st.game_values.hash(&mut h);
    for e in st.effects.iter() {
        (e.controller, e.source.map(key), e.characteristic.0).hash(&mut h);
        match e.target {
            crate::state::effects::Target::Obj(o) => (0u8, key(o)).hash(&mut h),
            crate::state::effects::Target::Player(p) => (1u8, p).hash(&mut h),
        }
        use crate::state::effects::Modify::*;
        match &e.modify {
            SetBase(v) => (0u8, v).hash(&mut h),
            Add(v) => (1u8, v).hash(&mut h),
            Set(v) => (2u8, v).hash(&mut h),
            Grant(s) => (3u8, s.0).hash(&mut h),
            Revoke(s) => (4u8, s.0).hash(&mut h),
            SetNames(l) => (5u8, l).hash(&mut h),
            Definition(c) => (6u8, c).hash(&mut h),
        }
        e.layer.hash(&mut h);
        hash_lifetime(e.expiry.as_ref(), &e.persists_in, &mut h);
    }
    for g in st.grants.iter() {
        (g.ability, g.host.map(key), g.source.map(key)).hash(&mut h);
        (g.controller, g.once).hash(&mut h);
        hash_lifetime(g.expiry.as_ref(), &g.persists_in, &mut h);
    }
    for u in st.usage.iter() {
        u.hash(&mut h);
    }
    for b in st.pending.iter() {
        b.items.len().hash(&mut h);
        for p in &b.items {
            (p.ability, p.source.map(key), p.controller).hash(&mut h);
            let e = &p.event;
            (&e.name, e.card.map(key), e.old.map(key), e.from, e.to).hash(&mut h);
            (e.player, &e.reason, &e.key, e.amount).hash(&mut h);
            for (k, v) in &e.data {
                k.hash(&mut h);
                hash_val(v, &key, &mut h);
            }
        }
    }
    // The driver's stack, as far as Rust sees it (a coroutine's locals are not hashed; the
    // replay checks that the game follows the recording).
    frames.head.hash(&mut h);
    for record in &frames.records {
        record.len().hash(&mut h);
        for (k, v) in record.iter() {
            k.hash(&mut h);
            hash_val(v, &key, &mut h);
        }
    }
    hash_request(req, &mut h, |o, h| {
        (&o.label, &o.kind, o.card.map(key), o.target.map(key)).hash(h);
        for (k, v) in &o.data {
            k.hash(h);
            hash_val(v, &key, h);
        }
    });
    h.finish()
}

/// When an effect or a grant ends, and the zones it persists in.
fn hash_lifetime(
    expiry: Option<&crate::state::effects::Expiry>,
    persists_in: &[u16],
    h: &mut FxHasher,
) {
    expiry.map(|x| (x.point.0, x.player, x.after_turn)).hash(h);
    if !persists_in.is_empty() {
        persists_in.hash(h);
    }
}

fn hash_object(st: &State, key: &impl Fn(ObjId) -> (u32, u32), id: ObjId, h: &mut impl Hasher) {
    let o = st.obj(id);
    // The small fields packed into words: fewer hasher rounds per card.
    h.write_u64(
        o.card as u64
            | (o.owner as u64) << 32
            | (o.controller as u64) << 40
            | (o.face_up as u64) << 48
            | (o.token as u64) << 49,
    );
    h.write_u64(o.orientation.0 as u64 | (o.entered_turn as u64) << 32);
    h.write_u64(o.flags);
    h.write_u32(o.revealed);
    if !o.counters.is_empty() {
        o.counters.hash(h);
    }
    for (k, t, n) in &o.uses {
        if *t == st.turn {
            (k, n).hash(h);
        }
    }
    o.attachments.len().hash(h);
    for a in &o.attachments {
        key(*a).hash(h);
        hash_object(st, key, *a, h);
    }
}

fn hash_val(v: &Val, key: &impl Fn(ObjId) -> (u32, u32), h: &mut impl Hasher) {
    match v {
        Val::Bool(b) => (0u8, b).hash(h),
        Val::Int(i) => (1u8, i).hash(h),
        Val::Card(c) => (2u8, key(c.card)).hash(h),
        Val::Player(p) => (3u8, p.player).hash(h),
        Val::Str(s) => (4u8, s).hash(h),
        Val::List(l) => {
            (5u8, l.len()).hash(h);
            for x in l {
                hash_val(x, key, h);
            }
        }
    }
}
