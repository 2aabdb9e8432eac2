//! Characteristics: a card's current values, computed on demand from its printed data,
//! the continuous effects on it (`ctx:modify`) and the static abilities in play.
//!
//! Order: base-setting effects (combined by the characteristic's rule: highest, or newest),
//! then additions, then overriding sets; within a layer by timestamp. A lower bound declared
//! by the ruleset (`min`) applies when the value is read; the raw value stays available for
//! arithmetic. Set characteristics apply grants and revocations by timestamp. The effects on
//! an attached card whose attachment rule pauses them do not apply while it is attached.
//!
//! Which abilities are live where (the sources of an ability, attachment rules,
//! suppression) is `live.rs`: a characteristic depends on the static abilities that work,
//! and whether an ability works depends on a characteristic (suppression), so the two
//! live in one module.

mod live;

pub use live::{NEVER_SUPPRESSED, SUPPRESSES_LATER_GAINS, ability_works, suppressed_since};

use std::cell::Cell;

use mlua::{Lua, Result, Value};

use crate::content::BaseCombine;
use crate::db::{Ability, Affects, Db, ModOp, ModValue};

use crate::names::Sym;
use crate::sandbox::handle::Handle;
use crate::sandbox::numbers;
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
}

/// The raw (unclamped) integer value of characteristic `ci` of object `id`.
pub fn int_raw(lua: &Lua, db: &Db, st: &State, id: ObjId, ci: usize) -> Result<i64> {
    let o = st.obj(id);
    if !o.alive
        && let Some(lk) = &o.last_known
        && let Some(crate::state::LastKnown::Int(v)) = lk.get(ci)
    {
        return Ok(*v);
    }
    let card = &db.cards[o.card as usize];
    let mut value = card.ints[ci].unwrap_or(0);
    let sym = db.rules.chars[ci].sym;
    let found = collect(lua, db, st, id, sym)?;
    let combine = db.rules.chars[ci].decl.base;
    let mut base_set: Option<i64> = None;
    let mut add = 0i64;
    let mut set: Option<i64> = None;
    for f in &found {
        match f.modify {
            Modify::SetBase(v) => {
                base_set = Some(match (combine, base_set) {
                    (BaseCombine::Max, Some(b)) => b.max(v),
                    _ => v,
                })
            }
            Modify::Add(v) => add = add.saturating_add(v),
            Modify::Set(v) => set = Some(v),
            _ => {}
        }
    }
    if let Some(b) = base_set {
        value = b;
    }
    value = value.saturating_add(add);
    if let Some(s) = set {
        value = s;
    }
    // Never beyond what a script can read exactly, however many effects pile up.
    Ok(numbers::saturate(value))
}

/// The integer value as read: the raw value brought within the declared bounds.
pub fn int_value(lua: &Lua, db: &Db, st: &State, id: ObjId, ci: usize) -> Result<i64> {
    let raw = int_raw(lua, db, st, id, ci)?;
    let decl = &db.rules.chars[ci].decl;
    let raised = decl.min.map_or(raw, |m| raw.max(m));
    Ok(decl.max.map_or(raised, |m| raised.min(m)))
}

/// The value of set characteristic `ci`.
pub fn set_value(lua: &Lua, db: &Db, st: &State, id: ObjId, ci: usize) -> Result<Vec<Sym>> {
    let o = st.obj(id);
    if !o.alive
        && let Some(lk) = &o.last_known
        && let Some(crate::state::LastKnown::Set(v)) = lk.get(ci)
    {
        return Ok(v.clone());
    }
    let mut value = db.cards[o.card as usize].sets[ci].clone();
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
    for f in collect(lua, db, st, id, sym)? {
        match f.modify {
            Modify::Grant(s)
                if since.is_some_and(|t| f.ts <= t) && db.rules.ability_keywords.contains(&s) => {}
            Modify::Grant(s) if !value.contains(&s) => value.push(s),
            Modify::Revoke(s) => value.retain(|x| *x != s),
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
        for_each_static(lua, db, st, ps, &mut |ctx, ab, _src| {
            if let Affects::Players(f) = &ab.affects
                && f.call::<bool>((ctx.clone(), p as i64 + 1))?
            {
                for m in ab.mods.iter().filter(|m| m.characteristic == ps) {
                    if let ModValue::Name(s) = m.value
                        && s == name
                    {
                        has = m.op == ModOp::Grant;
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok(has)
}

/// Every modification of `sym` that applies to `id`, sorted by layer then timestamp.
pub(crate) fn collect(lua: &Lua, db: &Db, st: &State, id: ObjId, sym: Sym) -> Result<Vec<Found>> {
    // Effects on an attached card whose rule pauses them do not apply while it is attached.
    let paused = db.effects_paused(st, id);
    let mut found: Vec<Found> = st
        .effects
        .iter()
        .filter(|e| !paused && e.target == Target::Obj(id) && e.characteristic == sym)
        .map(|e| Found {
            layer: e.modify.layer(),
            ts: e.timestamp,
            modify: e.modify,
        })
        .collect();
    if DEPTH.with(|d| d.get()) < MAX_DEPTH {
        DEPTH.with(|d| d.set(d.get() + 1));
        let r = for_each_static(lua, db, st, sym, &mut |ctx, ab, src| {
            let applies = match &ab.affects {
                Affects::Source => src == Some(id),
                Affects::Cards(f) => f.call::<bool>((ctx.clone(), Handle(id)))?,
                Affects::Players(_) => false,
            };
            if !applies {
                return Ok(());
            }
            let ts = src.map(|s| st.obj(s).timestamp).unwrap_or(0);
            for m in ab.mods.iter().filter(|m| m.characteristic == sym) {
                let n = || -> Result<i64> {
                    Ok(match &m.value {
                        ModValue::Int(i) => *i,
                        ModValue::Fn(f) => match f.call::<Value>((ctx.clone(), Handle(id)))? {
                            Value::Nil => 0,
                            v => numbers::int(&v, "a static ability's amount")?,
                        },
                        ModValue::Name(_) => 0,
                    })
                };
                let modify = match (m.op, &m.value) {
                    (ModOp::Grant, ModValue::Name(s)) => Modify::Grant(*s),
                    (ModOp::Revoke, ModValue::Name(s)) => Modify::Revoke(*s),
                    (ModOp::SetBase, _) => Modify::SetBase(n()?),
                    (ModOp::Add, _) => Modify::Add(n()?),
                    (ModOp::Set, _) => Modify::Set(n()?),
                    _ => continue,
                };
                found.push(Found {
                    layer: modify.layer(),
                    ts,
                    modify,
                });
            }
            Ok(())
        });
        DEPTH.with(|d| d.set(d.get() - 1));
        r?;
    }
    found.sort_by_key(|f| (f.layer, f.ts));
    Ok(found)
}

/// What `for_each_static` calls for each active static ability: (ctx, ability, source).
type StaticVisitor<'a> = dyn FnMut(&Value, &Ability, Option<ObjId>) -> Result<()> + 'a;

/// One static ability of one source: (card index or `None` for a rule ability, ability
/// index, source object).
type StaticKey = (Option<u32>, usize, Option<ObjId>);

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
/// and whose condition holds.
///
/// A static ability whose condition or value reads a value it changes itself (directly, or
/// through another static ability) is decided on the game as it is without it: while it is
/// being decided, nested reads leave it out. So a cycle ends, and every read agrees
/// (rulings: OP 8-1-3-3-5, "taking already-applied effects as given").
fn for_each_static(lua: &Lua, db: &Db, st: &State, sym: Sym, f: &mut StaticVisitor) -> Result<()> {
    // Conditions, filters and amounts are Lua: the running game's allowance applies.
    let _lua = db.memory.enter(lua);
    let Some(list) = db.statics_by_char.get(&sym) else {
        return Ok(());
    };
    let busy = |key: &StaticKey| DECIDING.with(|d| d.borrow().contains(key));
    for &(card, ai) in list {
        match card {
            None => {
                let key = (None, ai, None);
                if busy(&key) {
                    continue;
                }
                let ab = &db.rule_abilities[ai];
                deciding(key, || {
                    let ctx = db.ctx(lua, None, None, Some(&ab.table))?;
                    if check_condition(&ctx, ab)? {
                        f(&ctx, ab, None)?;
                    }
                    Ok(())
                })?;
            }
            Some(c) => {
                let ab = &db.cards[c as usize].abilities[ai];
                for src in db.sources(st, c, ab) {
                    let key = (Some(c), ai, Some(src));
                    if busy(&key) || !ability_works(lua, db, st, src, 0)? {
                        continue;
                    }
                    let r = db.budget.slice(|| {
                        deciding(key, || {
                            let o = st.obj(src);
                            let ctx =
                                db.ctx(lua, Some(o.controller), Some(src), Some(&ab.table))?;
                            if check_condition(&ctx, ab)? {
                                f(&ctx, ab, Some(src))?;
                            }
                            Ok(())
                        })
                    });
                    // A card's failing static ability fails alone: it applies nothing.
                    if let Err(e) = r {
                        db.contain(e, Some(c), &format!("static ability {}", ai + 1))?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn check_condition(ctx: &Value, ab: &Ability) -> Result<bool> {
    match &ab.condition {
        Some(c) => c.call::<bool>(ctx.clone()),
        None => Ok(true),
    }
}
