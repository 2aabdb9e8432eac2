//! Characteristics: a card's current values, computed on demand from its printed data,
//! the continuous effects on it (`ctx:modify`) and the static abilities in play; and player
//! characteristics, computed the same way from a player's start value.
//!
//! Order: layer by layer, as the ruleset declares them (`layers`, game-wide or per
//! characteristic; by default base-setting effects, combined by the characteristic's rule:
//! highest or newest, then additions, then overriding sets); within a layer by timestamp.
//! In a layer, `set_base` and `set` replace the running value and `add` adds to it; a
//! layer's own bounds apply right after it. A characteristic's bounds (`min`, `max`) apply
//! when the value is read, and the raw value is kept: every later change starts from it
//! (a value read as 0 from a raw −2 reads 0 again after +2, and 1 after +3). Set
//! characteristics apply replacing sets, grants and revocations by layer and timestamp. The
//! effects on an attached card whose attachment rule pauses them do not apply while it is
//! attached. Static abilities an effect gave a card (`ctx:grant_ability`) apply like its
//! own while the grant lasts.
//!
//! Which abilities are live where (the sources of an ability, attachment rules,
//! suppression) is `live.rs`: a characteristic depends on the static abilities that work,
//! and whether an ability works depends on a characteristic (suppression), so the two
//! live in one module.

mod live;

pub(crate) use live::Indexed;
pub use live::{NEVER_SUPPRESSED, SUPPRESSES_LATER_GAINS, ability_works, suppressed_since};

use std::cell::Cell;

use mlua::{Lua, Result, Value};

use crate::content::{BaseCombine, CharKind};
use crate::db::{Ability, AbilityKind, Affects, Db, ModOp, ModValue};
use crate::names::Sym;
use crate::rules::Layer;
use crate::sandbox::handle::Handle;
use crate::sandbox::numbers;
use crate::state::char_cache::{read_obj, read_place, read_statics, recording};
use crate::state::effects::{Modify, Target};
use crate::state::{ObjId, PlayerId, State};

thread_local! {
    // Static abilities whose values read other characteristics could recurse forever;
    // past this depth statics are left out (the printed value is used).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}
const MAX_DEPTH: u32 = 8;

/// A modification found for an object, with its ordering key.
pub(crate) struct Found {
    pub(crate) layer: u8,
    pub(crate) ts: u64,
    pub(crate) modify: Modify,
    /// Who controls it: the effect's controller, or the controller of the static ability's
    /// source (None: the rules' own abilities, effects no player made).
    pub(crate) controller: Option<PlayerId>,
}

/// The continuous effects on `target` that modify `sym`, as found modifications.
fn effects_on(st: &State, target: Target, sym: Sym) -> Vec<Found> {
    st.effects
        .iter()
        .filter(|e| e.target == target && e.characteristic == sym)
        .map(|e| Found {
            layer: e.layer,
            ts: e.timestamp,
            modify: e.modify.clone(),
            controller: e.controller,
        })
        .collect()
}

/// An integer modification by a static ability: `n` with its operation (None for the
/// operations of set characteristics).
fn int_modify(op: ModOp, n: i64) -> Option<Modify> {
    match op {
        ModOp::SetBase => Some(Modify::SetBase(n)),
        ModOp::Add => Some(Modify::Add(n)),
        ModOp::Set => Some(Modify::Set(n)),
        _ => None,
    }
}

/// Which modifications a read leaves out (`card:value_without`): those that match every
/// field given. The default leaves out nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Without {
    /// Those this player controls.
    pub controller: Option<PlayerId>,
    /// Those that raise the value where they apply (integers only).
    pub increases: bool,
}

impl Without {
    fn leaves_out(&self, f: &Found, raises: impl FnOnce() -> bool) -> bool {
        (self.controller.is_some() || self.increases)
            && self.controller.is_none_or(|p| f.controller == Some(p))
            && (!self.increases || raises())
    }
}

/// Whether the value of characteristic `ci` of `id` read now is kept (`State::chars`): the
/// characteristic declared what it reads, the object is in the game, and the read is not
/// made while a static ability is being decided (such a read leaves that ability out, so
/// it is not the card's value).
fn kept(db: &Db, st: &State, id: ObjId, ci: usize) -> bool {
    declared(db, ci) && st.obj(id).alive && deciding_none()
}

/// Whether characteristic bit `ci` (a card's, or a player's after them) declared what it
/// reads.
fn declared(db: &Db, ci: usize) -> bool {
    ci < 64 && db.hooks.char_marks.declared & (1 << ci) != 0
}

/// Whether no static ability is being decided (a read made then leaves that ability out,
/// so it is not the value to keep).
fn deciding_none() -> bool {
    DEPTH.with(|d| d.get()) == 0
        && DECIDING.with(|d| d.borrow().is_empty())
        && live::suppress_depth() == 0
}

/// Works a kept value out with `f`, and whether it may be kept: no static ability failed
/// on the way (a failure is reported at every read, as without the kept values).
fn compute<T>(db: &Db, f: impl FnOnce() -> Result<T>) -> Result<(T, bool)> {
    let errors = db.stray_errors.borrow().len();
    let v = f()?;
    Ok((v, db.stray_errors.borrow().len() == errors))
}

/// A debug build works a kept value out again at every read: a `reads` that misses
/// something the value depends on is a script error naming the characteristic.
fn verify<T: PartialEq + std::fmt::Debug>(
    db: &Db,
    what: impl FnOnce() -> String,
    held: &T,
    f: impl FnOnce() -> Result<T>,
) -> Result<()> {
    let errors = db.stray_errors.borrow().len();
    let now = f()?;
    db.stray_errors.borrow_mut().truncate(errors);
    if &now == held {
        return Ok(());
    }
    Err(mlua::Error::runtime(format!(
        "{} was kept, as nothing its `reads` names changed since it was worked out, but it \
         is now {now:?} (kept: {held:?}): its static abilities read something its `reads` \
         does not name",
        what()
    )))
}

/// The raw (unclamped) integer value of characteristic `ci` of object `id`.
pub fn int_raw(lua: &Lua, db: &Db, st: &State, id: ObjId, ci: usize) -> Result<i64> {
    let width = db.rules.chars.len();
    kept_or_worked_out(
        db,
        st,
        id,
        ci,
        || st.chars.int(id, ci, width),
        |v, deps| st.chars.put_int(id, ci, width, *v, deps),
        || int_raw_without(lua, db, st, id, ci, &Without::default()),
    )
}

/// A characteristic's value kept in `State::chars` (`get`), checked again in a debug build;
/// else worked out (`work`) and kept (`put`, with the cards its computation read) when it
/// may be. A characteristic that is not kept is worked out at every read.
fn kept_or_worked_out<T: PartialEq + std::fmt::Debug>(
    db: &Db,
    st: &State,
    id: ObjId,
    ci: usize,
    get: impl FnOnce() -> Option<T>,
    put: impl FnOnce(&T, &[u32]),
    work: impl Fn() -> Result<T>,
) -> Result<T> {
    if !kept(db, st, id, ci) {
        return work();
    }
    let what = || {
        let card = &db.cards[st.obj(id).definition as usize].def.id;
        format!(
            "characteristic '{}' of {card}",
            db.rules.chars[ci].decl.name
        )
    };
    kept_or_put(db, what, get, put, work)
}

/// The kept value (`get`), checked again in a debug build (`what` names it in the error);
/// else worked out (`work`) with a record of what it read, and kept (`put`) if no static
/// ability failed on the way.
fn kept_or_put<T: PartialEq + std::fmt::Debug>(
    db: &Db,
    what: impl FnOnce() -> String,
    get: impl FnOnce() -> Option<T>,
    put: impl FnOnce(&T, &[u32]),
    work: impl Fn() -> Result<T>,
) -> Result<T> {
    if let Some(v) = get() {
        if cfg!(debug_assertions) {
            verify(db, what, &v, &work)?;
        }
        return Ok(v);
    }
    let (v, _) = recording(
        || compute(db, &work),
        |r, deps| {
            if let Ok((v, true)) = r {
                put(v, deps);
            }
        },
    )?;
    Ok(v)
}

fn int_raw_without(
    lua: &Lua,
    db: &Db,
    st: &State,
    id: ObjId,
    ci: usize,
    without: &Without,
) -> Result<i64> {
    let o = st.obj(id);
    if !o.alive
        && let Some(lk) = &o.last_known
        && let Some(crate::state::LastKnown::Int(v)) = lk.get(ci)
    {
        return Ok(*v);
    }
    let card = &db.cards[o.definition as usize];
    let info = &db.rules.chars[ci];
    let found = collect(lua, db, st, id, info.sym, CharKind::Int)?;
    let printed = card.int(ci).unwrap_or(0);
    Ok(apply_int(
        printed,
        &found,
        &info.layers,
        info.decl.base,
        without,
    ))
}

/// Applies `found` (sorted by layer, then timestamp) to `value`, layer by layer.
fn apply_int(
    mut value: i64,
    found: &[Found],
    layers: &[Layer],
    combine: BaseCombine,
    without: &Without,
) -> i64 {
    let mut i = 0;
    for (li, layer) in layers.iter().enumerate() {
        // Base-setting effects in this layer combine by the characteristic's rule.
        let mut base: Option<i64> = None;
        // Additions since the last set, summed first (so they saturate as one step).
        let mut add = 0i64;
        while let Some(f) = found.get(i).filter(|f| f.layer as usize == li) {
            i += 1;
            let now = value.saturating_add(add);
            let set = match f.modify {
                Modify::Add(v) if !without.leaves_out(f, || v > 0) => {
                    add = add.saturating_add(v);
                    None
                }
                Modify::SetBase(v) => {
                    let b = match (combine, base) {
                        (BaseCombine::Max, Some(b)) => b.max(v),
                        _ => v,
                    };
                    (!without.leaves_out(f, || b > now)).then(|| {
                        base = Some(b);
                        b
                    })
                }
                Modify::Set(v) => (!without.leaves_out(f, || v > now)).then_some(v),
                _ => None,
            };
            // A set replaces the value and what was added before it in this layer.
            if let Some(v) = set {
                value = v;
                add = 0;
            }
        }
        value = value.saturating_add(add);
        if let Some(m) = layer.min {
            value = value.max(m);
        }
        if let Some(m) = layer.max {
            value = value.min(m);
        }
    }
    // Never beyond what a script can read exactly, however many effects pile up.
    numbers::saturate(value)
}

/// A raw value brought within bounds.
fn bounded(raw: i64, min: Option<i64>, max: Option<i64>) -> i64 {
    let raised = min.map_or(raw, |m| raw.max(m));
    max.map_or(raised, |m| raised.min(m))
}

/// The integer value as read: the raw value brought within the declared bounds.
pub fn int_value(lua: &Lua, db: &Db, st: &State, id: ObjId, ci: usize) -> Result<i64> {
    let raw = int_raw(lua, db, st, id, ci)?;
    let decl = &db.rules.chars[ci].decl;
    Ok(bounded(raw, decl.min, decl.max))
}

/// The integer value as read, leaving out the modifications `without` matches (the value
/// a player sees when their own increases do not count, say).
pub fn int_value_without(
    lua: &Lua,
    db: &Db,
    st: &State,
    id: ObjId,
    ci: usize,
    without: &Without,
) -> Result<i64> {
    let raw = int_raw_without(lua, db, st, id, ci, without)?;
    let decl = &db.rules.chars[ci].decl;
    Ok(bounded(raw, decl.min, decl.max))
}

/// The value of set characteristic `ci`.
pub fn set_value(lua: &Lua, db: &Db, st: &State, id: ObjId, ci: usize) -> Result<Vec<Sym>> {
    let width = db.rules.chars.len();
    kept_or_worked_out(
        db,
        st,
        id,
        ci,
        || st.chars.set(id, ci, width),
        |v, deps| st.chars.put_set(id, ci, width, v, deps),
        || set_value_without(lua, db, st, id, ci, &Without::default()),
    )
}

/// The value of set characteristic `ci`, leaving out the modifications `without` matches.
pub fn set_value_without(
    lua: &Lua,
    db: &Db,
    st: &State,
    id: ObjId,
    ci: usize,
    without: &Without,
) -> Result<Vec<Sym>> {
    let o = st.obj(id);
    if !o.alive
        && let Some(lk) = &o.last_known
        && let Some(crate::state::LastKnown::Set(v)) = lk.get(ci)
    {
        return Ok(v.clone());
    }
    let mut value = db.cards[o.definition as usize].set(ci).to_vec();
    let sym = db.rules.chars[ci].sym;
    // A suppressed card loses its printed keywords (card text) and the ability keywords it
    // gained before the suppression began; those gained later stay.
    let since = if db.rules.chars[ci].field == "keywords" {
        suppressed_since(lua, db, st, id)?
    } else {
        None
    };
    if since.is_some() {
        value.clear();
    }
    let lost =
        |s: &Sym, ts: u64| since.is_some_and(|t| ts <= t) && db.rules.ability_keywords.contains(s);
    for f in collect(lua, db, st, id, sym, CharKind::Set)? {
        if without.leaves_out(&f, || false) {
            continue;
        }
        match &f.modify {
            Modify::Grant(s) if lost(s, f.ts) => {}
            Modify::Grant(s) if !value.contains(s) => value.push(*s),
            Modify::Revoke(s) => value.retain(|x| x != s),
            Modify::SetNames(list) => {
                value.clear();
                for s in list.iter() {
                    if !lost(s, f.ts) && !value.contains(s) {
                        value.push(*s);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(value)
}

/// Whether player `p` has been granted `name` (by an effect or a static ability).
pub fn player_has(lua: &Lua, db: &Db, st: &State, p: PlayerId, name: Sym) -> Result<bool> {
    let player_sym = db.names.get("player");
    let mut has = false;
    for e in st.effects.iter() {
        if e.target == Target::Player(p) && Some(e.characteristic) == player_sym {
            match e.modify {
                Modify::Grant(s) if s == name => has = true,
                Modify::Revoke(s) if s == name => has = false,
                _ => {}
            }
        }
    }
    if let Some(ps) = player_sym {
        for_each_static(lua, db, st, ps, None, &mut |ctx, ab, _src| {
            if let Affects::Players(f) = &ab.affects
                && f.call::<bool>((ctx.get()?, p as i64 + 1))?
            {
                for m in ab.mods.iter().filter(|m| m.characteristic == ps) {
                    let names = match &m.value {
                        ModValue::Name(s) => std::slice::from_ref(s),
                        ModValue::Names(v) => v.as_slice(),
                        _ => &[],
                    };
                    if names.contains(&name) {
                        has = m.op == ModOp::Grant;
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok(has)
}

/// The raw (unbounded) value of player characteristic `pi` of player `p`: its start (a
/// player value or a constant), then the effects on the player and the static abilities
/// that affect players, layer by layer.
pub fn player_raw(lua: &Lua, db: &Db, st: &State, p: PlayerId, pi: usize) -> Result<i64> {
    let bit = db.rules.player_char_bit(pi);
    let work = || player_raw_worked_out(lua, db, st, p, pi);
    if !(declared(db, bit) && deciding_none()) {
        return work();
    }
    let what = || {
        let name = &db.rules.player_chars[pi].decl.name;
        format!("player characteristic '{name}' of player {}", p + 1)
    };
    kept_or_put(
        db,
        what,
        || st.chars.player(p, bit),
        |v, deps| st.chars.put_player(p, bit, *v, deps),
        work,
    )
}

/// `player_raw`, worked out.
fn player_raw_worked_out(lua: &Lua, db: &Db, st: &State, p: PlayerId, pi: usize) -> Result<i64> {
    let info = &db.rules.player_chars[pi];
    let start = match info.from {
        Some(v) => st.players[p as usize].values[v],
        None => info.decl.start.unwrap_or(0),
    };
    let sym = info.sym;
    let mut found = effects_on(st, Target::Player(p), sym);
    if DEPTH.with(|d| d.get()) < MAX_DEPTH {
        DEPTH.with(|d| d.set(d.get() + 1));
        let r = for_each_static(lua, db, st, sym, None, &mut |ctx, ab, src| {
            let Affects::Players(f) = &ab.affects else {
                return Ok(());
            };
            if !f.call::<bool>((ctx.get()?, p as i64 + 1))? {
                return Ok(());
            }
            for m in ab.mods.iter().filter(|m| m.characteristic == sym) {
                let n = match &m.value {
                    ModValue::Int(i) => *i,
                    ModValue::Fn(f) => match f.call::<Value>((ctx.get()?, p as i64 + 1))? {
                        Value::Nil => 0,
                        v => numbers::int(&v, "a static ability's amount")?,
                    },
                    _ => 0,
                };
                let Some(modify) = int_modify(m.op, n) else {
                    continue;
                };
                found.push(Found {
                    layer: m.layer,
                    ts: src.ts,
                    modify,
                    controller: src.controller,
                });
            }
            Ok(())
        });
        DEPTH.with(|d| d.set(d.get() - 1));
        r?;
    }
    found.sort_by_key(|f| (f.layer, f.ts));
    Ok(apply_int(
        start,
        &found,
        &info.layers,
        BaseCombine::Latest,
        &Without::default(),
    ))
}

/// Player characteristic `pi` of player `p` as read: its raw value within its bounds.
pub fn player_value(lua: &Lua, db: &Db, st: &State, p: PlayerId, pi: usize) -> Result<i64> {
    let raw = player_raw(lua, db, st, p, pi)?;
    let decl = &db.rules.player_chars[pi].decl;
    Ok(bounded(raw, decl.min, decl.max))
}

/// Names from a static ability's value function: a name, a list of names, or nil (none).
/// Every name must be one the game knows (a card's, or one the ruleset or a script uses).
fn names_of(db: &Db, v: Value) -> Result<Vec<Sym>> {
    let one = |v: &Value| -> Result<Sym> {
        match v {
            Value::String(s) => {
                let n = s.to_string_lossy();
                db.names.get(&n).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "a static ability's names: unknown name '{n}' (no card, ruleset or \
                         script uses it)"
                    ))
                })
            }
            other => Err(mlua::Error::runtime(format!(
                "a static ability's names: expected a name, not a {}",
                other.type_name()
            ))),
        }
    };
    match v {
        Value::Nil => Ok(Vec::new()),
        Value::Table(t) => t
            .sequence_values::<Value>()
            .map(|v| one(&v?))
            .collect::<Result<Vec<_>>>(),
        v => Ok(vec![one(&v)?]),
    }
}

/// Every modification of `sym` (a characteristic of kind `kind`) that applies to `id`,
/// sorted by layer then timestamp.
pub(crate) fn collect(
    lua: &Lua,
    db: &Db,
    st: &State,
    id: ObjId,
    sym: Sym,
    kind: CharKind,
) -> Result<Vec<Found>> {
    // The value being worked out read the effects on `id` (`State::chars`).
    read_obj(id);
    // Effects on an attached card whose rule pauses them do not apply while it is attached.
    let paused = db.effects_paused(st, id);
    let mut found = if paused {
        Vec::new()
    } else {
        effects_on(st, Target::Obj(id), sym)
    };
    if DEPTH.with(|d| d.get()) < MAX_DEPTH {
        DEPTH.with(|d| d.set(d.get() + 1));
        let r = for_each_static(lua, db, st, sym, Some(id), &mut |ctx, ab, src| {
            let applies = match &ab.affects {
                Affects::Source | Affects::Bearer => ab.affects.may_apply(st, src.source, id),
                Affects::Cards(f) => f.call::<bool>((ctx.get()?, Handle(id)))?,
                Affects::Select(t) => t.passes(st, id, src.controller),
                Affects::Players(_) => false,
            };
            if !applies {
                return Ok(());
            }
            for m in ab.mods.iter().filter(|m| m.characteristic == sym) {
                let mut push = |modify: Modify| {
                    found.push(Found {
                        layer: m.layer,
                        ts: src.ts,
                        modify,
                        controller: src.controller,
                    })
                };
                let call = || -> Result<Value> {
                    match &m.value {
                        ModValue::Fn(f) => f.call::<Value>((ctx.get()?, Handle(id))),
                        _ => Ok(Value::Nil),
                    }
                };
                match kind {
                    CharKind::Int => {
                        let n = match &m.value {
                            ModValue::Int(i) => *i,
                            ModValue::PerAttached(n) => {
                                read_place(id);
                                n.saturating_mul(st.obj(id).attachments.len() as i64)
                            }
                            ModValue::OfAttached(ci) => {
                                read_place(id);
                                let mut sum: i64 = 0;
                                for &a in st.obj(id).attachments.iter() {
                                    sum = sum.saturating_add(int_value(lua, db, st, a, *ci)?);
                                }
                                sum
                            }
                            ModValue::Fn(_) => match call()? {
                                Value::Nil => 0,
                                v => numbers::int(&v, "a static ability's amount")?,
                            },
                            _ => 0,
                        };
                        let Some(modify) = int_modify(m.op, n) else {
                            continue;
                        };
                        push(modify);
                    }
                    CharKind::Set => {
                        let names = match &m.value {
                            ModValue::Name(s) => vec![*s],
                            ModValue::Names(v) => v.clone(),
                            ModValue::Fn(_) => names_of(db, call()?)?,
                            ModValue::Int(_)
                            | ModValue::PerAttached(_)
                            | ModValue::OfAttached(_) => Vec::new(),
                        };
                        match m.op {
                            ModOp::Set => push(Modify::SetNames(names.into())),
                            ModOp::Grant => names.into_iter().for_each(|s| push(Modify::Grant(s))),
                            ModOp::Revoke => {
                                names.into_iter().for_each(|s| push(Modify::Revoke(s)))
                            }
                            _ => {}
                        }
                    }
                }
            }
            Ok(())
        });
        DEPTH.with(|d| d.set(d.get() - 1));
        r?;
    }
    found.sort_by_key(|f| (f.layer, f.ts));
    Ok(found)
}

/// Where a static ability applies from: its source (None: a rule ability, or a delayed
/// one with no host), its timestamp, who controls it.
#[derive(Clone, Copy, Debug)]
struct StaticSrc {
    source: Option<ObjId>,
    ts: u64,
    controller: Option<PlayerId>,
}

/// What `for_each_static` calls for each active static ability: (ctx, ability, source).
type StaticVisitor<'a> = dyn FnMut(&LazyCtx, &Ability, StaticSrc) -> Result<()> + 'a;

/// A static ability's `ctx`, made when a Lua function first needs it: one declared as data
/// (no condition, `affects` and amounts as data) runs with none made.
pub(crate) struct LazyCtx<'a> {
    lua: &'a Lua,
    db: &'a Db,
    controller: Option<PlayerId>,
    source: Option<ObjId>,
    ability: &'a mlua::Table,
    made: std::cell::OnceCell<Value>,
}

impl<'a> LazyCtx<'a> {
    fn new(
        lua: &'a Lua,
        db: &'a Db,
        controller: Option<PlayerId>,
        source: Option<ObjId>,
        ability: &'a Ability,
    ) -> LazyCtx<'a> {
        LazyCtx {
            lua,
            db,
            controller,
            source,
            ability: &ability.table,
            made: std::cell::OnceCell::new(),
        }
    }

    /// The `ctx` (made once).
    pub(crate) fn get(&self) -> Result<Value> {
        if let Some(v) = self.made.get() {
            return Ok(v.clone());
        }
        let v = self
            .db
            .ctx(self.lua, self.controller, self.source, Some(self.ability))?;
        let _ = self.made.set(v.clone());
        Ok(v)
    }
}

/// One static ability of one source: (card index or `None` for a rule ability, ability
/// index, source object, the timestamp of the grant that gave it, 0 for a card's own).
type StaticKey = (Option<u32>, usize, Option<ObjId>, u64);

thread_local! {
    // The static abilities whose condition or values are being worked out right now.
    static DECIDING: std::cell::RefCell<Vec<StaticKey>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with `key` marked as being decided; unmarks it even when `f` fails.
fn deciding<T>(key: StaticKey, f: impl FnOnce() -> Result<T>) -> Result<T> {
    DECIDING.with(|d| d.borrow_mut().push(key));
    let r = f();
    DECIDING.with(|d| d.borrow_mut().pop());
    r
}

/// Calls `f(ctx, ability, source)` for every active static ability that modifies `sym`
/// and whose condition holds: the rules' own, those of cards in their zones, and those
/// effects gave cards (`ctx:grant_ability`), while the grant lasts. For the value of card
/// `target`, a static ability that changes only its own card or its bearer is left out
/// before its condition runs when it cannot apply to `target` (`Affects::may_apply`): the
/// value then reads `target`'s place, which changes when such a source joins or leaves it.
///
/// A static ability whose condition or value reads a value it changes itself (directly, or
/// through another static ability) is decided on the game as it is without it: while it is
/// being decided, nested reads leave it out. So a cycle ends, and every read agrees
/// (rulings: OP 8-1-3-3-5, "taking already-applied effects as given").
fn for_each_static(
    lua: &Lua,
    db: &Db,
    st: &State,
    sym: Sym,
    target: Option<ObjId>,
    f: &mut StaticVisitor,
) -> Result<()> {
    // Most characteristics no static ability modifies: those enter no Lua.
    if st.grants.is_empty() && !db.statics_by_char.contains_key(&sym) {
        return Ok(());
    }
    // Which cards holding one are where: a move of such a card makes the value stale.
    read_statics(sym);
    // Which cards are the target's own or attached to it: those whose static abilities
    // that change only their own card or bearer may apply (`out_of_reach`); their moves
    // bump the target's place, not the walk's.
    if let Some(id) = target {
        read_place(id);
    }
    // Conditions, filters and amounts are Lua: the running game's allowance applies.
    let _lua = db.memory.enter(lua);
    let busy = |key: &StaticKey| DECIDING.with(|d| d.borrow().contains(key));
    // Whether `ab` from `source` cannot apply to the target (and so is left out unrun).
    let out_of_reach = |ab: &Ability, source: Option<ObjId>| match target {
        Some(id) if ab.affects.targeted() => !ab.affects.may_apply(st, source, id),
        _ => false,
    };
    if let Some(list) = db.statics_by_char.get(&sym) {
        for (card, ai) in db.held_abilities(st, list, Indexed::Static(sym)) {
            match card {
                None => {
                    let key = (None, ai, None, 0);
                    if busy(&key) {
                        continue;
                    }
                    let ab = &db.rule_abilities[ai];
                    if out_of_reach(ab, None) {
                        continue;
                    }
                    deciding(key, || {
                        let ctx = LazyCtx::new(lua, db, None, None, ab);
                        if check_condition(&ctx, ab)? {
                            let src = StaticSrc {
                                source: None,
                                ts: 0,
                                controller: None,
                            };
                            f(&ctx, ab, src)?;
                        }
                        Ok(())
                    })?;
                }
                // (Only the game's cards are listed: no need to load another.)
                Some(c) => {
                    let ab = db.ability(lua, (Some(c), ai))?;
                    for src in db.sources(st, c, ab) {
                        let key = (Some(c), ai, Some(src), 0);
                        if out_of_reach(ab, Some(src))
                            || busy(&key)
                            || !ability_works(lua, db, st, src, 0, ab)?
                        {
                            continue;
                        }
                        let o = st.obj(src);
                        let from = StaticSrc {
                            source: Some(src),
                            ts: o.timestamp,
                            controller: Some(o.controller),
                        };
                        run_static(lua, db, key, ab, Some(o.controller), Some(src), from, f)?;
                    }
                }
            }
        }
    }
    // Static abilities effects gave: to a card (it has the ability while the grant lasts
    // and its abilities work), or to no card (a lasting effect of a resolved ability).
    for g in st.grants.iter() {
        let ab = db.ability(lua, g.ability)?;
        if ab.kind != AbilityKind::Static || !ab.mods.iter().any(|m| m.characteristic == sym) {
            continue;
        }
        // Whether the host is still there, and where (its abilities may pause attached).
        if let Some(h) = g.host {
            read_place(h);
        }
        let source = match g.host {
            Some(h) if !st.obj(h).alive => continue,
            host => host,
        };
        if out_of_reach(ab, source) {
            continue;
        }
        if let Some(h) = source
            && !ability_works(lua, db, st, h, g.timestamp, ab)?
        {
            continue;
        }
        let key = (g.ability.0, g.ability.1, source.or(g.source), g.timestamp);
        if busy(&key) {
            continue;
        }
        let from = StaticSrc {
            source,
            ts: g.timestamp,
            controller: Some(g.controller),
        };
        // A delayed one's `ctx.source` is the card whose effect armed it.
        let ctx_source = source.or(g.source);
        run_static(lua, db, key, ab, Some(g.controller), ctx_source, from, f)?;
    }
    Ok(())
}

/// Runs one card's static ability `ab` for source `from` (its condition, then `f`), with
/// a `ctx` for `controller` and `ctx_source`; a failing static ability fails alone: it
/// applies nothing, and the error is reported.
#[allow(clippy::too_many_arguments)]
fn run_static(
    lua: &Lua,
    db: &Db,
    key: StaticKey,
    ab: &Ability,
    controller: Option<PlayerId>,
    ctx_source: Option<ObjId>,
    from: StaticSrc,
    f: &mut StaticVisitor,
) -> Result<()> {
    let r = db.budget.slice(|| {
        deciding(key, || {
            let ctx = LazyCtx::new(lua, db, controller, ctx_source, ab);
            if check_condition(&ctx, ab)? {
                f(&ctx, ab, from)?;
            }
            Ok(())
        })
    });
    if let Err(e) = r {
        db.contain(e, key.0, &format!("static ability {}", key.1 + 1))?;
    }
    Ok(())
}

fn check_condition(ctx: &LazyCtx, ab: &Ability) -> Result<bool> {
    match &ab.condition {
        Some(c) => c.call::<bool>(ctx.get()?),
        None => Ok(true),
    }
}
