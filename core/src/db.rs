//! The compiled card database: every card's printed data and its abilities, read once
//! from the card scripts' tables.

use mlua::{Function, Table, Value};

use crate::sandbox::blame::{Failure, one_line};

use crate::content::{CardDef, CharKind, Localized};
use crate::names::{Interning, Names, Sym};
use crate::rules::Rules;

/// The kind of an ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbilityKind {
    /// Triggers on an event and waits in the pending set.
    Triggered,
    /// Used by a player at a timing.
    Activated,
    /// A continuous effect while its card is in one of its zones.
    Static,
    /// Changes an operation before it happens ("instead").
    Replacement,
}

/// What a static ability's modification applies to.
#[derive(Clone, Debug)]
pub enum Affects {
    /// Its own card.
    Source,
    /// Its bearer: the card its card is attached to, or its own card when not attached (an
    /// attached rider's "the card I ride gets +1").
    Bearer,
    /// Cards for which `(ctx, card)` returns true.
    Cards(Function),
    /// Players for which `(ctx, player)` returns true.
    Players(Function),
    /// Cards that pass tests the kernel makes itself (`affects` as a table).
    Select(CardTest),
}

impl Affects {
    /// Whether it changes only its source's own card or its bearer: a card's value can find
    /// such an ability only on itself or on a card attached to it.
    pub fn targeted(&self) -> bool {
        matches!(self, Affects::Source | Affects::Bearer)
    }

    /// For a targeted one (`targeted`), whether it may apply to `id` from `source`, tested
    /// as `characteristics::collect` tests it; true for any other.
    pub fn may_apply(
        &self,
        st: &crate::state::State,
        source: Option<crate::state::ObjId>,
        id: crate::state::ObjId,
    ) -> bool {
        match self {
            Affects::Source => source == Some(id),
            // (The source's host: the source moves with it, or moves off it.)
            Affects::Bearer => source.map(|s| st.obj(s).attached_to.unwrap_or(s)) == Some(id),
            _ => true,
        }
    }
}

/// How many names [`Db::lua_name`] keeps (a record's keys are a script's text: many
/// distinct ones must not grow the cache without bound).
pub const INTERNED_MAX: usize = 4096;

/// Which cards a static ability declared as data affects: each test given must pass.
#[derive(Clone, Debug, Default)]
pub struct CardTest {
    /// In a zone of these declarations (empty: any).
    pub zones: Vec<usize>,
    /// Whose card: relative to the ability's controller or to the turn.
    pub controller: Option<Whose>,
    /// At least this many cards attached to it.
    pub attached: usize,
}

/// A card's controller, as a static ability's data test names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// The ability's controller (`"self"`).
    Own,
    /// Another player (`"opponents"`).
    Others,
    /// The turn player (`"turn_player"`).
    TurnPlayer,
    /// Not the turn player (`"not_turn_player"`).
    NotTurnPlayer,
}

impl CardTest {
    /// Whether card `id` passes, for an ability controlled by `controller` (None: the rules').
    pub fn passes(
        &self,
        st: &crate::state::State,
        id: crate::state::ObjId,
        controller: Option<crate::state::PlayerId>,
    ) -> bool {
        // Where it is, its host, its attachments, its controller (a kept characteristic's
        // record: `char_cache::read_place`).
        crate::state::char_cache::read_place(id);
        let o = st.obj(id);
        if !self.zones.is_empty() {
            // An attached card is in its host's zone.
            let mut host = o;
            while let Some(h) = host.attached_to {
                crate::state::char_cache::read_place(h);
                host = st.obj(h);
            }
            if !self
                .zones
                .contains(&(st.zone_unnoted(host.zone).decl as usize))
            {
                return false;
            }
        }
        let mine = |p| Some(p) == controller;
        let whose_ok = match self.controller {
            None => true,
            Some(Whose::Own) => mine(o.controller),
            Some(Whose::Others) => controller.is_some() && !mine(o.controller),
            Some(Whose::TurnPlayer) => st.is_turn_of(o.controller),
            Some(Whose::NotTurnPlayer) => !st.is_turn_of(o.controller),
        };
        whose_ok && o.attachments.len() >= self.attached
    }
}

/// A static modification's amount.
#[derive(Clone, Debug)]
pub enum ModValue {
    /// A constant.
    Int(i64),
    /// A name (for grants).
    Name(Sym),
    /// Names (a whole set, or several grants).
    Names(Vec<Sym>),
    /// Computed by `(ctx, card) -> integer`, or for a set characteristic `-> name or list
    /// of names` (players: `(ctx, player)`).
    Fn(Function),
    /// This much per card attached to the card (`value = {per_attached = n}`).
    PerAttached(i64),
    /// The sum of an integer characteristic (an index into `Rules::chars`) over the cards
    /// attached to the card (`value = {of_attached = "power"}`): the riders' power added to their mount's.
    OfAttached(usize),
}

/// One modification of a static ability.
#[derive(Clone, Debug)]
pub struct StaticMod {
    /// The characteristic (or player-grant name space) it changes.
    pub characteristic: Sym,
    /// `set_base`, `add`, `set`, `grant`, `revoke`.
    pub op: ModOp,
    /// By how much, or which name.
    pub value: ModValue,
    /// The layer it applies in (an index into the characteristic's layers).
    pub layer: u8,
}

pub use crate::content::ModOp;

/// An ability, with the Lua pieces the kernel calls itself.
#[derive(Clone, Debug)]
pub struct Ability {
    /// Kind.
    pub kind: AbilityKind,
    /// The script's record, handed to the ruleset's hooks.
    pub table: Table,
    /// Triggered: the event it listens to.
    pub on: Option<Sym>,
    /// Triggered: `(ctx, event) -> bool` filter.
    pub when: Option<Function>,
    /// Activated: timings at which it may be used.
    pub timings: Vec<Sym>,
    /// Zone declarations where it works (empty: the rules' in-play zones).
    pub zones: Vec<usize>,
    /// Replacement: the operation kind it replaces (`move`, `turn`...).
    pub replaces: Option<String>,
    /// Replacement: `(ctx, op) -> bool`.
    pub applies: Option<Function>,
    /// Replacement: `(ctx, op) -> op or nil`, run as a procedure.
    pub replace: Option<Function>,
    /// Replacement: the player may decline it.
    pub optional: bool,
    /// Only works when given by an effect (`ctx:grant_ability`): never on its own card.
    pub dormant: bool,
    /// Cannot be lost: no suppression stops it, neither `abilities.suppressed_by` nor an
    /// attachment rule's `abilities: suppressed` (`unlosable = true`).
    pub unlosable: bool,
    /// Works on its card attached under a rule that suppresses abilities (`attached =
    /// "works"`: "while this card is a support"); `abilities.suppressed_by` still stops it.
    pub works_attached: bool,
    /// Static: `(ctx) -> bool`; the ability applies only while true.
    pub condition: Option<Function>,
    /// Static: what it applies to.
    pub affects: Affects,
    /// Static: modifications.
    pub mods: Vec<StaticMod>,
    /// Triggered: its priority class (an index into `triggers.classes`; None: after all).
    pub priority: Option<u8>,
    /// Triggered: what the event must be, tested by the kernel before `when` is called.
    pub matches: Option<Box<EventMatch>>,
}

/// A triggered ability's `match`: tests on its event the kernel makes itself, so that most
/// events never reach the ability's Lua `when`.
#[derive(Clone, Debug, Default)]
pub struct EventMatch {
    /// Event fields (`card`, `old`) or data fields (`target`...) that must be the ability's
    /// own card.
    pub own: Vec<String>,
    /// Event fields that must be the ability's bearer: the card its card is attached to, or
    /// its card itself when not attached (an attached rider's "the card I ride").
    pub bearer: Vec<String>,
    /// The zone it went to is one of these declarations.
    pub to: Vec<usize>,
    /// The zone it came from is one of these declarations.
    pub from: Vec<usize>,
    /// The reason is one of these.
    pub reason: Vec<String>,
    /// The event's player is the ability's controller (true) or another player (false).
    pub player_is_controller: Option<bool>,
    /// It is the controller's side's turn (true) or not (false).
    pub controllers_turn: Option<bool>,
    /// The acting card (the card whose ability made the operation) against the ability's.
    pub source: Option<SourceTest>,
}

/// A `match.source` test on the acting card of an event or an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceTest {
    /// `"self"`: the ability's own card acted.
    Own,
    /// `"other"`: a card other than the ability's own acted.
    Other,
    /// `"card"`: some card acted.
    Card,
    /// `"none"`: no card acted (the rules did it).
    None,
}

impl EventMatch {
    /// Whether event `e` passes, for an ability of `source` controlled by `controller`.
    pub fn passes(
        &self,
        st: &crate::state::State,
        e: &crate::state::events::Event,
        source: Option<crate::state::ObjId>,
        controller: crate::state::PlayerId,
    ) -> bool {
        let bearer = source.map(|s| st.obj(s).attached_to.unwrap_or(s));
        for (k, want) in self
            .own
            .iter()
            .map(|k| (k, source))
            .chain(self.bearer.iter().map(|k| (k, bearer)))
        {
            let v = match k.as_str() {
                "card" => e.card,
                "old" => e.old,
                key => e
                    .data
                    .iter()
                    .find(|(n, _)| n == key)
                    .and_then(|(_, v)| match v {
                        crate::state::values::Val::Card(c) => Some(c.card),
                        _ => None,
                    }),
            };
            if v.is_none() || v != want {
                return false;
            }
        }
        self.event_may_pass(st, e)
            && self.passes_source(e.source, source)
            && self.passes_who_and_why(st, e.reason.as_deref(), e.player, controller)
    }

    /// The `source` test: card `acting` did it, for an ability of card `own`.
    pub fn passes_source(
        &self,
        acting: Option<crate::state::ObjId>,
        own: Option<crate::state::ObjId>,
    ) -> bool {
        match self.source {
            None => true,
            Some(SourceTest::Own) => acting.is_some() && acting == own,
            Some(SourceTest::Other) => acting.is_some() && acting != own,
            Some(SourceTest::Card) => acting.is_some(),
            Some(SourceTest::None) => acting.is_none(),
        }
    }

    /// The tests on event `e` that do not depend on the ability's source or controller (the
    /// zones it went to and came from, the reason): when they fail, no source passes.
    pub fn event_may_pass(
        &self,
        st: &crate::state::State,
        e: &crate::state::events::Event,
    ) -> bool {
        let zone_in = |z: Option<crate::state::ZoneId>, decls: &[usize]| {
            decls.is_empty() || z.is_some_and(|z| decls.contains(&(st.zone(z).decl as usize)))
        };
        zone_in(e.to, &self.to)
            && zone_in(e.from, &self.from)
            && (self.reason.is_empty()
                || e.reason
                    .as_deref()
                    .is_some_and(|r| self.reason.iter().any(|x| x == r)))
    }

    /// Whether the ability's own card must be the event's (or operation's) `card`.
    pub fn pins_card(&self) -> bool {
        self.own.iter().any(|k| k == "card")
    }

    /// The tests events and operations share: the reason, who did it (`player`) against the
    /// controller, and whose turn it is.
    pub fn passes_who_and_why(
        &self,
        st: &crate::state::State,
        reason: Option<&str>,
        player: Option<crate::state::PlayerId>,
        controller: crate::state::PlayerId,
    ) -> bool {
        (self.reason.is_empty() || reason.is_some_and(|r| self.reason.iter().any(|x| x == r)))
            && self
                .player_is_controller
                .is_none_or(|same| (player == Some(controller)) == same)
            && self
                .controllers_turn
                .is_none_or(|mine| st.is_turn_of(controller) == mine)
    }
}

/// An ability's `zones = "everywhere"`: it works in every zone the game declares.
pub const EVERYWHERE: &str = "everywhere";

/// Reads a static ability's `affects` table: `zones` (names), `controller` ("self",
/// "opponents", "turn_player", "not_turn_player"), `attached` (at least that many).
fn card_test(rules: &Rules, names: &Names, t: &Table) -> Result<CardTest, String> {
    let mut out = CardTest::default();
    for pair in t.clone().pairs::<String, Value>() {
        let (k, v) = pair.map_err(|e| format!("`affects`: {e}"))?;
        match (k.as_str(), v) {
            ("zones", Value::Table(list)) => {
                for z in list.sequence_values::<String>() {
                    let z = z.map_err(|_| "`affects.zones` should list zone names".to_string())?;
                    out.zones.push(
                        rules
                            .zone_index(names, &z)
                            .map_err(|e| format!("`affects.zones`: {e}"))?,
                    );
                }
            }
            ("controller", Value::String(s)) => {
                out.controller = Some(match &*s.to_string_lossy() {
                    "self" => Whose::Own,
                    "opponents" => Whose::Others,
                    "turn_player" => Whose::TurnPlayer,
                    "not_turn_player" => Whose::NotTurnPlayer,
                    other => {
                        return Err(format!(
                            "`affects.controller`: '{other}' is not one of self, opponents, \
                             turn_player, not_turn_player"
                        ));
                    }
                })
            }
            ("attached", v @ (Value::Integer(_) | Value::Number(_))) => {
                let n = crate::sandbox::numbers::int(&v, "`affects.attached`")
                    .map_err(|e| e.to_string())?;
                out.attached = usize::try_from(n)
                    .map_err(|_| format!("`affects.attached` should be 0 or more, not {n}"))?;
            }
            (k @ ("zones" | "controller" | "attached"), v) => {
                return Err(format!(
                    "`affects.{k}` should be {}, not a {}",
                    match k {
                        "zones" => "a list of zone names",
                        "controller" => "a name",
                        _ => "a whole number from 0",
                    },
                    v.type_name()
                ));
            }
            (k, _) => {
                return Err(format!(
                    "`affects` has no test '{k}' (zones, controller, attached)"
                ));
            }
        }
    }
    Ok(out)
}

/// Reads an amount given as a table: `{per_attached = n}` (n per attached card) or
/// `{of_attached = "ap"}` (the sum of that integer characteristic over the attached cards).
fn table_amount(ch: &str, t: &Table, rules: &Rules, names: &Names) -> Result<ModValue, String> {
    let form = "a `value` table is {per_attached = n} (a whole number per attached card) or \
                {of_attached = \"<integer characteristic>\"} (the sum of the attached cards')";
    let mut out = None;
    for pair in t.clone().pairs::<String, Value>() {
        let (k, v) = pair.map_err(|e| format!("modification of '{ch}': {e}"))?;
        match (k.as_str(), v) {
            ("per_attached", v @ (Value::Integer(_) | Value::Number(_))) => {
                out = Some(ModValue::PerAttached(
                    crate::sandbox::numbers::int(&v, "`per_attached`")
                        .map_err(|e| format!("modification of '{ch}': {e}"))?,
                ))
            }
            ("of_attached", Value::String(s)) => {
                let want = s.to_string_lossy();
                let ci = names
                    .get(&want)
                    .and_then(|sym| rules.chars.iter().position(|c| c.sym == sym))
                    .filter(|ci| rules.chars[*ci].decl.kind == CharKind::Int)
                    .ok_or_else(|| {
                        format!(
                            "modification of '{ch}': `of_attached` names '{want}', which is not \
                             an integer characteristic ({})",
                            declared_list(
                                rules
                                    .chars
                                    .iter()
                                    .filter(|c| c.decl.kind == CharKind::Int)
                                    .map(|c| c.decl.name.as_str())
                            )
                        )
                    })?;
                out = Some(ModValue::OfAttached(ci))
            }
            (k, _) => return Err(format!("modification of '{ch}': {form}, not '{k}'")),
        }
    }
    out.ok_or_else(|| format!("modification of '{ch}': {form}"))
}

/// Reads an ability's `match` table.
fn parse_match(t: &Table, rules: &Rules, names: &Names) -> Result<Option<EventMatch>, String> {
    let Some(m) = t.get::<Option<Table>>("match").map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let mut out = EventMatch::default();
    let list = |v: Value| -> Result<Vec<String>, String> {
        match v {
            Value::String(s) => Ok(vec![s.to_string_lossy()]),
            Value::Table(l) => l
                .sequence_values::<String>()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string()),
            other => Err(format!(
                "expected a name or a list, not a {}",
                other.type_name()
            )),
        }
    };
    for pair in m.pairs::<String, Value>() {
        let (k, v) = pair.map_err(|e| format!("`match`: {e}"))?;
        let bad = |m: String| format!("`match.{k}`: {m}");
        match k.as_str() {
            "to" | "from" => {
                let mut zs = Vec::new();
                for z in list(v).map_err(bad)? {
                    zs.push(rules.zone_index(names, &z).map_err(bad)?);
                }
                if k == "to" {
                    out.to = zs;
                } else {
                    out.from = zs;
                }
            }
            "reason" => out.reason = list(v).map_err(bad)?,
            "source" => {
                out.source = Some(match &v {
                    Value::String(s) if s == "self" => SourceTest::Own,
                    Value::String(s) if s == "other" => SourceTest::Other,
                    Value::String(s) if s == "card" => SourceTest::Card,
                    Value::String(s) if s == "none" => SourceTest::None,
                    _ => {
                        return Err(bad(
                            "expected \"self\", \"other\", \"card\" or \"none\" (the card whose ability acted)".into(),
                        ));
                    }
                })
            }
            "player" | "turn" => {
                let which = match &v {
                    Value::String(s) if s == "self" => true,
                    Value::String(s) if s == "other" => false,
                    _ => return Err(bad("expected \"self\" or \"other\"".into())),
                };
                if k == "player" {
                    out.player_is_controller = Some(which);
                } else {
                    out.controllers_turn = Some(which);
                }
            }
            _ => match &v {
                Value::String(s) if s == "self" => out.own.push(k.clone()),
                Value::String(s) if s == "bearer" => out.bearer.push(k.clone()),
                _ => {
                    return Err(bad(
                        "expected \"self\" or \"bearer\" (this key names a card field of the \
                         event); the other keys are to, from, reason, player and turn"
                            .into(),
                    ));
                }
            },
        }
    }
    out.own.sort();
    out.bearer.sort();
    Ok(Some(out))
}

/// A card definition with its printed characteristics resolved.
#[derive(Clone, Debug)]
pub struct CardData {
    /// The definition.
    pub def: CardDef,
    /// Its name for the rules: its name in the ruleset's printed language (`names.printed`).
    pub name: String,
    /// Its name for people in labels and logs: `name`, followed by ` (ID)` when another card
    /// of the content has the same name (two different cards both called "Nami"), so
    /// that two options or log lines never read the same for different cards.
    pub label: String,
    /// Its category.
    pub category: Sym,
    /// Printed integer values by characteristic index, only those it prints (see
    /// [`CardData::int`]): an engine may hold tens of thousands of cards.
    ints: Box<[(u16, i64)]>,
    /// Printed set values by characteristic index, only those not empty (see
    /// [`CardData::set`]).
    sets: Box<[(u16, Box<[Sym]>)]>,
    /// Keyword values by keyword symbol.
    pub keyword_values: Vec<(Sym, i64)>,
    /// What the kernel's indexes need of each of its abilities, known from loading.
    pub outline: Box<[AbilityOutline]>,
    /// Its abilities, with their Lua: made when a game first needs them
    /// ([`Db::card_abilities`]), so that an engine with 10,000 cards holds in Lua only the
    /// cards its games met.
    pub(crate) abilities: std::cell::OnceCell<Box<[Ability]>>,
}

/// Loads a card's script to stay, the first time a game needs its abilities: the engine
/// does it (`engine/cards.rs`), for the database that cannot know how.
pub(crate) trait LoadCard {
    /// Card `c`'s abilities, from its script run again with the names the content's load
    /// interned; an error says why (a spent allowance, a script that changed its mind).
    fn load(
        &self,
        lua: &mlua::Lua,
        c: u32,
        card: &CardData,
        rules: &Rules,
        names: &Names,
    ) -> Result<Box<[Ability]>, String>;

    /// The loaded card ability (card index, ability index) whose table has this address.
    fn ability_at(&self, address: usize) -> Option<(u32, usize)>;
}

/// What the kernel knows of an ability without its Lua: enough for the indexes
/// (`triggers_by_event`, `statics_by_char`, `cards_by_timing`) and for `ctx:abilities`
/// to skip a card, so a card no game has met is never loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbilityOutline {
    /// Kind.
    pub kind: AbilityKind,
    /// Triggered: the event it listens to.
    pub on: Option<Sym>,
    /// Activated: its timings.
    pub timings: Box<[Sym]>,
    /// Static: the characteristics it modifies, each once.
    pub modifies: Box<[Sym]>,
    /// Triggered: its priority class (see [`Ability::priority`]).
    pub priority: Option<u8>,
    /// The zone declarations where it works (empty: those in play): [`Ability::zones`].
    pub zones: Box<[usize]>,
    /// It works only when an effect gives it: [`Ability::dormant`].
    pub dormant: bool,
    /// Static: it changes only its own card or its bearer (`affects` source or bearer), so
    /// only the values of those cards can find it ([`Affects::targeted`]).
    pub targeted: bool,
}

impl AbilityOutline {
    /// The outline of `ab`.
    pub fn of(ab: &Ability) -> AbilityOutline {
        let mut modifies: Vec<Sym> = Vec::new();
        for m in &ab.mods {
            if !modifies.contains(&m.characteristic) {
                modifies.push(m.characteristic);
            }
        }
        AbilityOutline {
            kind: ab.kind,
            on: ab.on,
            timings: ab.timings.as_slice().into(),
            modifies: modifies.into(),
            priority: ab.priority,
            zones: ab.zones.as_slice().into(),
            dormant: ab.dormant,
            targeted: ab.affects.targeted(),
        }
    }
}

impl crate::card_index::Identified for CardData {
    fn id(&self) -> &str {
        &self.def.id
    }
}

impl CardData {
    /// Resolves printed fields into characteristic values.
    pub fn new(def: CardDef, rules: &Rules, names: &mut Names) -> Result<CardData, String> {
        let category = names.intern(&def.category);
        if rules.categories.index(category).is_none() {
            return Err(format!("unknown category '{}'", def.category));
        }
        let name = printed_name(&def.name, &rules.manifest.names.printed)?.to_string();
        let mut ints = Vec::new();
        let mut sets = Vec::new();
        let mut keyword_values = Vec::new();
        for k in &def.keywords {
            let (n, v) = k.parts();
            keyword_values.push((names.intern(n), v));
        }
        for (ci, c) in rules.chars.iter().enumerate() {
            let raw = match c.field.as_str() {
                "name" => Some(serde_json::Value::String(name.clone())),
                "category" => Some(serde_json::Value::String(def.category.clone())),
                "keywords" => Some(serde_json::Value::Array(
                    keyword_values
                        .iter()
                        .map(|(s, _)| serde_json::Value::String(names.name(*s).to_string()))
                        .collect(),
                )),
                f => printed_path(&def.fields, &keyword_values, names, f),
            };
            match c.decl.kind {
                crate::content::CharKind::Int => {
                    let v = match &raw {
                        None | Some(serde_json::Value::Null) => None,
                        Some(serde_json::Value::Number(n)) => n.as_i64(),
                        Some(other) => {
                            return Err(format!(
                                "field '{}' should be an integer, not {other}",
                                c.field
                            ));
                        }
                    };
                    if let Some(v) = v {
                        ints.push((ci as u16, v));
                    }
                }
                crate::content::CharKind::Set => {
                    let v = match &raw {
                        None | Some(serde_json::Value::Null) => Vec::new(),
                        Some(serde_json::Value::String(s)) => vec![names.intern(s)],
                        Some(serde_json::Value::Array(a)) => {
                            let mut out = Vec::new();
                            for x in a {
                                match x {
                                    // A set: a name listed twice is there once.
                                    serde_json::Value::String(s) => {
                                        let n = names.intern(s);
                                        if !out.contains(&n) {
                                            out.push(n);
                                        }
                                    }
                                    other => {
                                        return Err(format!(
                                            "field '{}' should list strings, not {other}",
                                            c.field
                                        ));
                                    }
                                }
                            }
                            out
                        }
                        Some(other) => {
                            return Err(format!(
                                "field '{}' should be a list, not {other}",
                                c.field
                            ));
                        }
                    };
                    if !v.is_empty() {
                        sets.push((ci as u16, v.into_boxed_slice()));
                    }
                }
            }
        }
        Ok(CardData {
            def,
            label: name.clone(),
            name,
            category,
            ints: ints.into_boxed_slice(),
            sets: sets.into_boxed_slice(),
            keyword_values,
            outline: Box::default(),
            abilities: std::cell::OnceCell::new(),
        })
    }

    /// Its printed value of integer characteristic `ci`, if it prints one.
    pub fn int(&self, ci: usize) -> Option<i64> {
        self.ints
            .iter()
            .find(|(i, _)| *i as usize == ci)
            .map(|(_, v)| *v)
    }

    /// Its printed value of set characteristic `ci` (empty when it prints none).
    pub fn set(&self, ci: usize) -> &[Sym] {
        self.sets
            .iter()
            .find(|(i, _)| *i as usize == ci)
            .map_or(&[], |(_, v)| v)
    }

    /// Its name in `lang` for people, or its name for the rules when it has none in `lang`.
    pub fn name_in(&self, lang: &str) -> &str {
        match self.def.name.get(lang) {
            Some(n) if !n.trim().is_empty() => n,
            _ => &self.name,
        }
    }

    /// Its [`label`](CardData::label) in `lang`: its name there, with ` (ID)` when the
    /// printed name is shared.
    pub fn label_in(&self, lang: &str) -> String {
        match self.label.strip_prefix(self.name.as_str()) {
            Some(id) => format!("{}{id}", self.name_in(lang)),
            None => self.label.clone(),
        }
    }
}

/// The printed value a characteristic's `field` names: a top-level field (`cost`), a field
/// inside one (`rider.power`, `rider_name.en`: each dot goes one map deeper), or
/// `keywords.<name>`, the value of a valued keyword (`keywords: [{repair: 2}]` gives 2; a
/// plain `repair` gives 0, as `card:keyword` reads it; none gives nothing). So a keyword that adds up (Repair 1 and a
/// gained Repair 2 are Repair 3) can be an integer characteristic that effects `add` to.
fn printed_path(
    fields: &crate::content::PrintedFields,
    keywords: &[(Sym, i64)],
    names: &Names,
    path: &str,
) -> Option<serde_json::Value> {
    let mut parts = path.split('.');
    let first = parts.next()?;
    if first == "keywords"
        && let Some(k) = parts.next()
    {
        let sym = names.get(k)?;
        return keywords
            .iter()
            .find(|(s, _)| *s == sym)
            .map(|(_, v)| serde_json::Value::from(*v));
    }
    let mut at = fields.get(first)?;
    for p in parts {
        at = at.as_object()?.get(p)?;
    }
    Some(at.clone())
}

/// Gives every card that shares its printed name with another card id the label
/// `Name (ID)` (see [`CardData::label`]); the others keep their name.
pub fn label_shared_names(cards: &mut [std::rc::Rc<CardData>]) -> Vec<u32> {
    // Runs of the same name in the cards sorted by name (indexes only: with 10,000 cards, a
    // map of names was a tenth of the engine's build).
    let mut by_name: Vec<u32> = (0..cards.len() as u32).collect();
    by_name.sort_unstable_by(|a, b| by_name_key(cards, *a).cmp(&by_name_key(cards, *b)));
    let mut changes: Vec<(u32, String)> = Vec::new();
    for run in by_name.chunk_by(|a, b| cards[*a as usize].name == cards[*b as usize].name) {
        label_run(cards, run, &mut changes);
    }
    apply_labels(cards, changes);
    by_name
}

/// Where card `i` sorts in [`Db::by_name`].
fn by_name_key(cards: &[std::rc::Rc<CardData>], i: u32) -> (&str, u32) {
    (cards[i as usize].name.as_str(), i)
}

/// Takes card `i` out of `by_name` (as its name is now: before it changes).
pub fn by_name_remove(by_name: &mut Vec<u32>, cards: &[std::rc::Rc<CardData>], i: u32) {
    let key = by_name_key(cards, i);
    let at = by_name.partition_point(|&x| by_name_key(cards, x) < key);
    if by_name.get(at) == Some(&i) {
        by_name.remove(at);
    }
}

/// Puts card `i` into `by_name` where its name sorts.
pub fn by_name_insert(by_name: &mut Vec<u32>, cards: &[std::rc::Rc<CardData>], i: u32) {
    let key = by_name_key(cards, i);
    let at = by_name.partition_point(|&x| by_name_key(cards, x) < key);
    by_name.insert(at, i);
}

/// [`label_shared_names`] for a hot reload: only the cards named `names` (the changed
/// cards' names before and after) can have their labels change, and `by_name` (the cards
/// sorted by name, brought up to date) gives each name's cards: no pass over every card (a
/// sort of 100,000 cards by name, then a pass comparing every card's name, were most of a
/// reload's time).
pub fn label_shared_names_of(
    cards: &mut [std::rc::Rc<CardData>],
    by_name: &[u32],
    names: &[String],
) {
    let mut changes: Vec<(u32, String)> = Vec::new();
    let mut names: Vec<&String> = names.iter().collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let from = by_name.partition_point(|&x| cards[x as usize].name.as_str() < name.as_str());
        let to = from + by_name[from..].partition_point(|&x| cards[x as usize].name == **name);
        label_run(cards, &by_name[from..to], &mut changes);
    }
    apply_labels(cards, changes);
}

/// The labels that change among `run`, cards that all have one name.
fn label_run(cards: &[std::rc::Rc<CardData>], run: &[u32], changes: &mut Vec<(u32, String)>) {
    for &i in run {
        let c = &cards[i as usize];
        if run.len() > 1 {
            let label = format!("{} ({})", c.name, c.def.id);
            if label != c.label {
                changes.push((i, label));
            }
        } else if c.label != c.name {
            changes.push((i, c.name.clone()));
        }
    }
}

fn apply_labels(cards: &mut [std::rc::Rc<CardData>], changes: Vec<(u32, String)>) {
    // Only a card whose label changes is copied (a hot reload shares the others).
    for (i, label) in changes {
        std::rc::Rc::make_mut(&mut cards[i as usize]).label = label;
    }
}

/// A card's name in the printed language `lang`, from its localized `name`: an error, saying
/// what to add, when it has none (or only a blank one).
pub fn printed_name<'a>(name: &'a Localized, lang: &str) -> Result<&'a str, String> {
    match name.get(lang) {
        Some(n) if !n.trim().is_empty() => Ok(n),
        found => {
            let has: Vec<&str> = name
                .iter()
                .filter(|(_, n)| !n.trim().is_empty())
                .map(|(l, _)| l.as_str())
                .collect();
            let what = if found.is_some() {
                format!("its `{lang}` name is blank")
            } else if has.is_empty() {
                "it has no name".to_string()
            } else {
                format!("it has no `{lang}` name (only {})", has.join(", "))
            };
            Err(format!(
                "{what}: this game's cards are named for the rules in `{lang}` (the ruleset's \
                 `names.printed`); add `{lang}: <the printed name>` under `name`"
            ))
        }
    }
}

/// Reads one ability record from a script's table.
pub fn parse_ability(t: Table, rules: &Rules, names: &mut Interning) -> Result<Ability, String> {
    let kind: String = t
        .get("kind")
        .map_err(|_| "ability without a `kind`".to_string())?;
    let kind = match kind.as_str() {
        "triggered" => AbilityKind::Triggered,
        "activated" => AbilityKind::Activated,
        "static" => AbilityKind::Static,
        "replacement" => AbilityKind::Replacement,
        k => {
            return Err(format!(
                "unknown ability kind '{k}' (triggered, activated, static, replacement)"
            ));
        }
    };
    let get_fn = |key: &str| -> Result<Option<Function>, String> {
        match t.get::<Value>(key) {
            Ok(Value::Function(f)) => Ok(Some(f)),
            Ok(Value::Nil) => Ok(None),
            Ok(other) => Err(format!(
                "`{key}` should be a function, not a {}",
                other.type_name()
            )),
            Err(e) => Err(e.to_string()),
        }
    };
    let strings = |key: &str| -> Result<Vec<String>, String> {
        match t.get::<Value>(key) {
            Ok(Value::Nil) => Ok(Vec::new()),
            Ok(Value::String(s)) => Ok(vec![s.to_string_lossy()]),
            Ok(Value::Table(list)) => list
                .sequence_values::<String>()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("`{key}`: {e}")),
            Ok(other) => Err(format!(
                "`{key}` should be a name or a list, not {}",
                other.type_name()
            )),
            Err(e) => Err(e.to_string()),
        }
    };
    // `zones = "everywhere"`: every zone the game declares ("according to the rules" text
    // that holds in the deck, the hand and the trash as on the field).
    let listed = strings("zones")?;
    let mut zones = Vec::new();
    if let Ok(Value::String(_)) = t.get::<Value>("zones")
        && listed == [EVERYWHERE]
    {
        zones.extend(0..rules.zones.len());
    } else {
        for z in listed {
            zones.push(rules.zone_index(names.names(), &z)?);
        }
    }
    let on = match t.get::<Option<String>>("on").map_err(|e| e.to_string())? {
        Some(e) => {
            let s = names.intern(&e)?;
            if !rules.events.contains(&s) {
                return Err(format!(
                    "unknown event '{e}': declare it in game.yaml `events`"
                ));
            }
            Some(s)
        }
        None => None,
    };
    if kind == AbilityKind::Triggered && on.is_none() {
        return Err("a triggered ability needs `on` (the event it listens to)".into());
    }
    let mut timings = Vec::new();
    for tm in strings("timing")? {
        let i = Rules::lookup(names.names(), &rules.timings, &tm)?;
        timings.push(rules.timings.syms[i]);
    }
    let replaces: Option<String> = t.get("replaces").map_err(|e| e.to_string())?;
    let applies = get_fn("applies")?;
    let replace = get_fn("replace")?;
    if kind == AbilityKind::Replacement
        && (replaces.is_none() || applies.is_none() || replace.is_none())
    {
        return Err("a replacement ability needs `replaces`, `applies` and `replace`".into());
    }
    let affects = match t.get::<Value>("affects").map_err(|e| e.to_string())? {
        Value::Nil => Affects::Source,
        Value::String(s) if s.to_string_lossy() == "self" => Affects::Source,
        Value::String(s) if s.to_string_lossy() == "bearer" => Affects::Bearer,
        Value::Function(f) => {
            if t.get::<Option<String>>("target").ok().flatten().as_deref() == Some("players") {
                Affects::Players(f)
            } else {
                Affects::Cards(f)
            }
        }
        Value::Table(sel) => Affects::Select(card_test(rules, names.names(), &sel)?),
        other => {
            return Err(format!(
                "`affects` should be \"self\", a function or a table of tests (zones, \
                 controller, attached), not a {}",
                other.type_name()
            ));
        }
    };
    let mut mods = Vec::new();
    if let Ok(Some(list)) = t.get::<Option<Table>>("modify") {
        for m in list.sequence_values::<Table>() {
            let m = m.map_err(|e| e.to_string())?;
            let ch: String = m
                .get("char")
                .map_err(|_| "a modification needs `char`".to_string())?;
            let characteristic = names.intern(&ch)?;
            let op: String = m.get("op").unwrap_or_else(|_| "add".into());
            let op = match op.as_str() {
                "set_base" => ModOp::SetBase,
                "add" => ModOp::Add,
                "set" => ModOp::Set,
                "grant" => ModOp::Grant,
                "revoke" => ModOp::Revoke,
                o => {
                    return Err(format!(
                        "unknown modification '{o}' (set_base, add, set, grant, revoke)"
                    ));
                }
            };
            let layer_name: Option<String> = m
                .get("layer")
                .map_err(|_| "a modification's `layer` should be a layer's name".to_string())?;
            // What it changes: a card characteristic, a player characteristic, or the
            // player grants (`char = "player"`).
            let mut card_char = None;
            let (kind, layer) = if matches!(affects, Affects::Players(_)) {
                if ch == "player" {
                    if !matches!(op, ModOp::Grant | ModOp::Revoke) {
                        return Err(format!(
                            "player grants (`char = \"player\"`) take grant or revoke, not {}",
                            op.name()
                        ));
                    }
                    (CharKind::Set, 0)
                } else {
                    let Some(pi) = rules.player_char_index(names.names(), &ch) else {
                        return Err(format!(
                            "unknown player characteristic '{ch}' (game.yaml \
                             `player_characteristics`: {}; or `player` for player grants)",
                            declared_list(rules.player_chars.iter().map(|c| c.decl.name.as_str()))
                        ));
                    };
                    let layers = &rules.player_chars[pi].layers;
                    (
                        CharKind::Int,
                        crate::rules::layer_index(layers, &ch, op, layer_name.as_deref())?,
                    )
                }
            } else {
                let Some(ci) = rules.char_index(names.names(), &ch) else {
                    return Err(format!(
                        "unknown characteristic '{ch}' (declared: {})",
                        declared_list(rules.chars.iter().map(|c| c.decl.name.as_str()))
                    ));
                };
                let layers = &rules.chars[ci].layers;
                card_char = Some(ci);
                (
                    rules.chars[ci].decl.kind,
                    crate::rules::layer_index(layers, &ch, op, layer_name.as_deref())?,
                )
            };
            if !crate::rules::ops_of(kind).contains(&op) {
                return Err(format!(
                    "'{ch}' is {} characteristic: {} does not apply to it ({})",
                    match kind {
                        CharKind::Int => "an integer",
                        CharKind::Set => "a set",
                    },
                    op.name(),
                    crate::rules::ops_of(kind)
                        .iter()
                        .map(|o| o.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            let value = match (kind, m.get::<Value>("value").map_err(|e| e.to_string())?) {
                (_, Value::Function(f)) => ModValue::Fn(f),
                (CharKind::Int, Value::Integer(i)) => ModValue::Int(i),
                (CharKind::Int, Value::Table(v)) => table_amount(&ch, &v, rules, names.names())?,
                (CharKind::Int, Value::Number(n)) => ModValue::Int(n as i64),
                (CharKind::Set, Value::String(s)) => {
                    ModValue::Name(names.intern(&s.to_string_lossy())?)
                }
                (CharKind::Set, Value::Table(list)) => {
                    let mut out = Vec::new();
                    for n in list.sequence_values::<String>() {
                        let n = n.map_err(|_| {
                            format!("modification of '{ch}': `value` should list names")
                        })?;
                        out.push(names.intern(&n)?);
                    }
                    ModValue::Names(out)
                }
                (kind, other) => {
                    return Err(format!(
                        "modification of '{ch}': `value` should be {}, not {}",
                        match kind {
                            CharKind::Int => "an integer or a function",
                            CharKind::Set => "a name, a list of names or a function",
                        },
                        other.type_name()
                    ));
                }
            };
            if let Some(ci) = card_char {
                let given: Vec<&str> = match &value {
                    ModValue::Name(n) => vec![names.names().name(*n)],
                    ModValue::Names(ns) => ns.iter().map(|n| names.names().name(*n)).collect(),
                    _ => Vec::new(),
                };
                rules.check_keyword_values(names.names(), ci, &given)?;
            }
            mods.push(StaticMod {
                characteristic,
                op,
                value,
                layer,
            });
        }
    }
    let optional: bool = t
        .get::<Option<bool>>("optional")
        .ok()
        .flatten()
        .unwrap_or(false);
    let dormant: bool = t
        .get::<Option<bool>>("dormant")
        .ok()
        .flatten()
        .unwrap_or(false);
    let unlosable = match t.get::<Value>("unlosable").map_err(|e| e.to_string())? {
        Value::Nil => false,
        Value::Boolean(b) => b,
        other => {
            return Err(format!(
                "`unlosable` should be true or false, not a {}",
                other.type_name()
            ));
        }
    };
    let works_attached = match t.get::<Value>("attached").map_err(|e| e.to_string())? {
        Value::Nil => false,
        Value::String(s) if s.to_string_lossy() == "works" => true,
        other => {
            return Err(format!(
                "`attached` should be \"works\" (it works while its card is attached under a rule that suppresses abilities), not {}",
                match &other {
                    Value::String(s) => format!("'{}'", s.to_string_lossy()),
                    o => format!("a {}", o.type_name()),
                }
            ));
        }
    };
    let classes = &rules.manifest.triggers.classes;
    let priority = match t.get::<Value>("priority").map_err(|e| e.to_string())? {
        Value::Nil => None,
        Value::String(s) => {
            let s = s.to_string_lossy();
            match classes.iter().position(|c| *c == s) {
                Some(i) => Some(i as u8),
                None => {
                    return Err(format!(
                        "unknown priority '{s}' (game.yaml `triggers.classes`: {})",
                        if classes.is_empty() {
                            "none declared".to_string()
                        } else {
                            classes.join(", ")
                        }
                    ));
                }
            }
        }
        other => {
            return Err(format!(
                "`priority` should be a class name, not a {}",
                other.type_name()
            ));
        }
    };
    let matches = parse_match(&t, rules, names.names())?;
    Ok(Ability {
        matches: matches.map(Box::new),
        priority,
        kind,
        when: get_fn("when")?,
        condition: get_fn("condition")?,
        table: t,
        on,
        timings,
        zones,
        replaces,
        applies,
        replace,
        optional,
        dormant,
        unlosable,
        works_attached,
        affects,
        mods,
    })
}

/// Declared names for an error message ("none declared" when there are none).
pub(crate) fn declared_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none declared".to_string()
    } else {
        v.join(", ")
    }
}

/// Lua functions the ruleset names in its manifest.
#[derive(Clone, Debug)]
pub struct Hooks {
    /// `(ctx)`: the setup procedure.
    pub setup: Function,
    /// `(ctx, ability, args) -> bool`.
    pub activate: Function,
    /// `(deck, options) -> {errors}`.
    pub validate_deck: Function,
    /// `(ctx, player) -> player`.
    pub next_player: Option<Function>,
    /// `(options, nplayers) -> {{seats}, ...}`.
    pub teams: Option<Function>,
    /// `(card_id, options) -> {copies, by, banned, note}`.
    pub card_legality: Option<Function>,
    /// Per phase: (run, actions, finish).
    pub phases: Vec<PhaseFns>,
    /// Checks: (name, when, run, after each operation?).
    pub checks: Vec<CheckFns>,
    /// Which checks each kind of change marks for testing again (their `reads`).
    pub check_marks: CheckMarks,
    /// Which characteristics each kind of change makes stale (their `reads`; bit `i` is
    /// `rules.chars[i]`; `declared`: those whose values are kept).
    pub char_marks: CheckMarks,
    /// Procedures the kernel runs step by step, in manifest order.
    pub procedures: Vec<ProcedureFns>,
    /// Action kinds the kernel lists itself, in manifest order.
    pub actions: Vec<ActionKind>,
}

/// A procedure's steps.
#[derive(Clone, Debug)]
pub struct ProcedureFns {
    /// The procedure's name.
    pub name: String,
    /// Its steps in order.
    pub steps: Vec<StepFns>,
}

/// One step of a procedure.
#[derive(Clone, Debug)]
pub struct StepFns {
    /// The step's name.
    pub name: String,
    /// What the step does.
    pub does: StepFn,
    /// Runs even after a step returned `"stop"`.
    pub always: bool,
    /// False stops the procedure before this step.
    pub stop_unless: Option<StopTest>,
}

/// A procedure step's `stop_unless`, resolved.
#[derive(Clone, Debug)]
pub enum StopTest {
    /// `(ctx, data) -> bool`.
    Lua(Function),
    /// These record fields must name cards still alive.
    Alive(Vec<String>),
}

/// What a procedure step does.
#[derive(Clone, Debug)]
pub enum StepFn {
    /// `(ctx, data)`, run as a procedure.
    Run(Function),
    /// A window the kernel runs.
    Window(WindowFns),
}

/// Who acts in a declared window.
#[derive(Clone, Debug)]
pub enum WindowSeats {
    /// `(ctx, data) -> {seats}`.
    Lua(Function),
    /// The controller of the record's card in this field.
    ControllerOf(String),
    /// The players in turn order from the turn player, or from the next player when
    /// `next`; the first `(option index, value, next)` whose option has that value decides
    /// instead.
    TurnOrder {
        /// From the player after the turn player.
        next: bool,
        /// Option index, value, and whether it starts from the next player.
        by_option: Vec<(usize, crate::content::OptionValue, bool)>,
    },
    /// The side of the player in this record field (nobody once that player left).
    SideOf(String),
}

/// A declared window's functions.
#[derive(Clone, Debug)]
pub struct WindowFns {
    /// Who acts.
    pub players: WindowSeats,
    /// How turns go round.
    pub model: crate::content::WindowModel,
    /// `(ctx, player, data) -> options`.
    pub actions: Option<Function>,
    /// Kernel-listed action kinds (indices into `Hooks::actions`), listed first.
    pub kinds: Vec<usize>,
    /// The requests' prompt.
    pub prompt: String,
    /// A player with nothing but passes to choose is not asked.
    pub auto_pass: bool,
}

/// An action kind the kernel lists itself (`game.yaml` `actions`), resolved.
#[derive(Clone, Debug)]
pub struct ActionKind {
    /// Its name (the options' `kind`).
    pub name: String,
    /// The acting player's cards it uses.
    pub cards: Option<CardSel>,
    /// Its targets (a union).
    pub targets: Vec<CardSel>,
    /// Cards that must exist for it to be offered.
    pub needs: Option<CardSel>,
    /// The cost: a characteristic index, and what pays it.
    pub cost: Option<(usize, CardSel)>,
    /// A requirement (`requires`): a characteristic index, and what counts towards it.
    pub requires: Option<(usize, CardSel)>,
    /// Only cards with an ability of this timing (`with_ability`).
    pub with_ability: Option<Sym>,
    /// Player grants that bar it (`unless_player_has`).
    pub unless_player_has: Vec<Sym>,
    /// Offered from the player's Nth turn on (`from_own_turn`; 0 or 1: always).
    pub from_own_turn: u32,
    /// `(ctx, player) -> bool`.
    pub allowed: Option<Function>,
    /// `(ctx, card) -> bool`.
    pub condition: Option<Function>,
    /// `(ctx, card, target) -> bool`.
    pub target_condition: Option<Function>,
    /// Asked only while a static ability of this timing is about.
    pub target_condition_while: Option<Sym>,
    /// The label template, in pieces.
    pub label: Vec<LabelPart>,
    /// (int characteristic index, minimum): the card's values must be at least these.
    pub at_least: Vec<(usize, i64)>,
    /// What it does.
    pub does: ActionDoes,
    /// The options' kind.
    pub kind: String,
    /// Lists activated abilities of this timing instead of cards.
    pub abilities: Option<Sym>,
    /// Only of cards in these zone declarations (empty: anywhere).
    pub abilities_in: Vec<usize>,
}

/// A piece of an action's label template.
#[derive(Clone, Debug)]
pub enum LabelPart {
    /// Text as written.
    Text(String),
    /// The card's name.
    Card,
    /// The target's name.
    Target,
    /// The cost value.
    Value,
    /// The card's value of this integer characteristic.
    Char(usize),
    /// The target card's controller (`P<n>`).
    TargetController,
}

/// What a chosen action does.
#[derive(Clone, Debug)]
pub enum ActionDoes {
    /// It ends the open phase.
    EndsPhase,
    /// `run(ctx, option)`.
    Run(Function),
    /// Start this procedure with a record of the option's cards.
    Procedure {
        /// The procedure's name.
        name: String,
        /// Record field → which card or player.
        data: Vec<(String, crate::content::OptionField)>,
    },
}

/// A card selector, resolved.
#[derive(Clone, Debug)]
pub struct CardSel {
    /// Zone declarations, in order.
    pub zones: Vec<usize>,
    /// Whose.
    pub of: crate::content::Whose,
    /// Categories (empty: any).
    pub categories: Vec<Sym>,
    /// Orientation.
    pub orientation: Option<Sym>,
    /// (set characteristic index, names): the card must hold none.
    pub without: Vec<(usize, Vec<Sym>)>,
    /// Entered its zone before this turn...
    pub entered_before_this_turn: bool,
    /// ...unless it holds one of these.
    pub unless_it_has: Vec<(usize, Vec<Sym>)>,
    /// (Targets) only for an acting card that holds one of these (empty: for every card).
    pub if_card_has: Vec<(usize, Vec<Sym>)>,
    /// (Targets) players instead of cards.
    pub players: Option<PlayerSel>,
    /// Only cards with nothing attached.
    pub without_attachments: bool,
    /// (Targets) any orientation for an acting card that holds one of these.
    pub any_orientation_if_card_has: Vec<(usize, Vec<Sym>)>,
    /// (Targets) this selector's label template (None: the action's).
    pub label: Option<Vec<LabelPart>>,
    /// (Targets) the label template when the acting player has several opponents.
    pub label_several: Option<Vec<LabelPart>>,
}

/// Players as targets: by relation to the acting player, or as a Lua function lists them.
#[derive(Clone, Debug)]
pub enum PlayerSel {
    /// `self`, `allies`, `opponents`, `any`.
    Whose(crate::content::Whose),
    /// `(ctx, player) -> {seat | {seat, label}}`; in a game without teams, the relation
    /// given (`players_without_teams`) instead, if any.
    Lua(Function, Option<crate::content::Whose>),
    /// `opposing_teams`: one target per opposing team, its first player still in the game
    /// in turn order from the acting player, named as the team (`team P2+P4`) when it has
    /// several seats.
    OpposingTeams,
}

/// A phase's procedures.
#[derive(Clone, Debug)]
pub struct PhaseFns {
    /// The phase's name.
    pub name: String,
    /// Run at the start.
    pub run: Option<Function>,
    /// Run at the start instead of `run`: a declared procedure's name.
    pub procedure: Option<String>,
    /// Lists the open phase's actions.
    pub actions: Option<Function>,
    /// Run at the end.
    pub finish: Option<Function>,
    /// The action kinds the kernel lists in it (indices into `Hooks::actions`).
    pub kinds: Vec<usize>,
}

/// Which checks a change marks for testing again: bit `i` is `hooks.checks[i]`, for the
/// checks that declared what their test reads (`reads`); the others are tested every time.
#[derive(Clone, Debug, Default)]
pub struct CheckMarks {
    /// The checks that declared what they read.
    pub declared: u64,
    /// By part, in `StatePart::ALL`'s order.
    pub parts: [u64; crate::content::StatePart::ALL.len()],
    /// By zone declaration.
    pub zones: Vec<u64>,
    /// By player value.
    pub player_values: Vec<u64>,
    /// By game value.
    pub game_values: Vec<u64>,
    /// By counter.
    pub counters: Vec<u64>,
    /// By flag.
    pub flags: Vec<u64>,
    /// Characteristics only: those made stale per card by a change of a card's effects,
    /// counters or flags (`stale: per_card`).
    pub per_card: u64,
    /// Player characteristics only: those an effect on a card leaves kept unless their
    /// working-out read that card's effects (their `reads` does not name the part
    /// `effects`); an effect on a player, or an ability given, still makes them stale.
    pub per_player: u64,
}

impl CheckMarks {
    /// No marks yet, sized for `rules`' zones, values, counters and flags.
    pub fn for_rules(rules: &crate::rules::Rules) -> CheckMarks {
        CheckMarks {
            zones: vec![0; rules.zones.len()],
            player_values: vec![0; rules.player_values.syms.len()],
            game_values: vec![0; rules.game_values.syms.len()],
            counters: vec![0; rules.counters.syms.len()],
            flags: vec![0; rules.flags.syms.len()],
            ..CheckMarks::default()
        }
    }

    /// The checks reading part `p`.
    pub fn part(&self, p: crate::content::StatePart) -> u64 {
        self.parts[p as usize]
    }
}

/// A check's functions.
#[derive(Clone, Debug)]
pub struct CheckFns {
    /// For logs.
    pub name: String,
    /// Pure test.
    pub when: CheckTest,
    /// The procedure.
    pub run: Function,
    /// After every operation (else at checkpoints).
    pub each_op: bool,
}

/// A check's test.
#[derive(Clone, Debug)]
pub enum CheckTest {
    /// `(ctx) -> bool` in Lua.
    Script(Function),
    /// Tested by the kernel: from this turn on, some player still in the game passes one of
    /// these.
    Players {
        /// Not before this turn.
        from_turn: u32,
        /// The tests on players.
        any: Vec<PlayerCheck>,
        /// The tests on cards.
        cards: Vec<CardCheck>,
    },
}

/// One test on the cards of some zones, resolved to indices.
#[derive(Clone, Debug)]
pub struct CardCheck {
    /// Zone declarations whose cards are tested.
    pub zones: Vec<usize>,
    /// The counter's index.
    pub counter: usize,
    /// Passes at this count or more.
    pub at_least: Option<i64>,
    /// Passes when the counter is at least this integer characteristic (an index into
    /// `Rules::chars`).
    pub reaches: Option<usize>,
    /// Cards with this flag (its bit) are not tested.
    pub unless_flag: Option<u32>,
}

/// One test on a player, resolved to indices.
#[derive(Clone, Copy, Debug)]
pub struct PlayerCheck {
    /// What is counted.
    pub what: Counted,
    /// Inclusive bounds.
    pub at_least: Option<i64>,
    /// Inclusive bounds.
    pub at_most: Option<i64>,
}

/// What a player test counts.
#[derive(Clone, Copy, Debug)]
pub enum Counted {
    /// The cards in the player's zone of this declaration.
    Zone(usize),
    /// The player value of this index.
    Value(usize),
}

impl CheckTest {
    /// Whether the test passes now (a Lua test is called through `call`; a card test reads
    /// a card's integer characteristic through `int_of(card, index)`).
    pub fn holds(
        &self,
        st: &crate::state::State,
        call: impl FnOnce(&Function) -> mlua::Result<bool>,
        mut int_of: impl FnMut(crate::state::ObjId, usize) -> mlua::Result<i64>,
    ) -> mlua::Result<bool> {
        match self {
            CheckTest::Script(f) => call(f),
            CheckTest::Players {
                from_turn,
                any,
                cards,
            } => {
                if st.turn < *from_turn {
                    return Ok(false);
                }
                let player_passes = (0..st.nplayers)
                    .filter(|p| !st.players[*p as usize].out)
                    .any(|p| {
                        any.iter().any(|t| {
                            let n = match t.what {
                                Counted::Zone(d) => st.zone(st.zone_id(d, p)).cards.len() as i64,
                                Counted::Value(i) => st.players[p as usize].values[i],
                            };
                            t.at_least.is_none_or(|m| n >= m) && t.at_most.is_none_or(|m| n <= m)
                        })
                    });
                if player_passes {
                    return Ok(true);
                }
                for t in cards {
                    for &d in &t.zones {
                        for &z in st.zone_ids[d].iter() {
                            for &id in &st.zone(z).cards {
                                let o = st.obj(id);
                                if t.unless_flag.is_some_and(|f| o.flags & (1 << f) != 0) {
                                    continue;
                                }
                                let n = o.counters[t.counter];
                                if t.at_least.is_some_and(|m| n >= m) {
                                    return Ok(true);
                                }
                                if let Some(ci) = t.reaches
                                    && n >= int_of(id, ci)?
                                {
                                    return Ok(true);
                                }
                            }
                        }
                    }
                }
                Ok(false)
            }
        }
    }
}

pub use crate::state::AbilityRef;

/// The compiled content: rules, cards, abilities and indexes. Immutable while games run;
/// shared by every game of an engine.
pub struct Db {
    /// Interned names.
    pub names: Names,
    /// The ruleset.
    pub rules: Rules,
    /// Cards by index (shared with the engines a hot reload makes from this one).
    pub cards: Vec<std::rc::Rc<CardData>>,
    /// Card index by id.
    pub card_index: crate::card_index::CardIndex,
    /// The rules' own abilities.
    pub rule_abilities: Vec<Ability>,
    /// Their outlines, as cards have (see [`Db::outline`]).
    pub rule_outlines: Box<[AbilityOutline]>,
    /// Static abilities by the characteristic they modify.
    pub statics_by_char: rustc_hash::FxHashMap<Sym, Vec<AbilityRef>>,
    /// Triggered abilities by event.
    pub triggers_by_event: rustc_hash::FxHashMap<Sym, Vec<AbilityRef>>,
    /// Replacement abilities.
    pub replacements: Vec<AbilityRef>,
    /// The cards (bits by card index, as `State::present`) with an ability of this kind and
    /// timing: `ctx:abilities{kind, timing}` looks in no zone when no card of the game has one.
    pub cards_by_timing: rustc_hash::FxHashMap<(AbilityKind, Sym), Vec<u64>>,
    /// What loads a card's script when a game first needs its abilities (the engine's
    /// card compiler).
    pub(crate) compiler: std::rc::Rc<dyn LoadCard>,
    /// Zone declarations that are in play.
    pub in_play: Vec<usize>,
    /// The prelude's `Ctx`: the metatable of every `ctx`.
    pub ctx_meta: Table,
    /// The keys of a new `ctx`: `player`, `source`, `ability` (made once).
    pub ctx_keys: [mlua::LuaString; 3],
    /// Lua strings of names the content declares (zones, categories, orientations, card
    /// ids, the keys of the tables the kernel makes and of procedures' records), each made
    /// once: reading `card.zone` does not intern the same text again. Bounded
    /// ([`INTERNED_MAX`]): past it, names are made as before.
    pub interned: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, mlua::LuaString>>,
    /// The ruleset's hooks.
    pub hooks: Hooks,
    /// The games' script memory allowance; every entry into Lua goes through it.
    pub memory: crate::sandbox::vm::Memory,
    /// The work budget of the running call (shared with the engine).
    pub budget: crate::sandbox::vm::Budget,
    /// The cards with a script, sorted by the script's file name, to name the card whose
    /// frame an error passed ([`Db::card_of_script`]).
    pub script_cards: Box<[u32]>,
    /// Every card's index, sorted by name then index: the cards of one name are a run of it
    /// (a hot reload relabels them without a pass over every card).
    pub by_name: Box<[u32]>,
    /// The state of the game being driven (`Game::enter`), for scripts' reads.
    pub current: std::cell::RefCell<Option<std::rc::Rc<std::cell::RefCell<crate::state::State>>>>,
    /// Errors raised where no coroutine can take them (a static ability's condition read
    /// in the middle of a kernel callback): the running game reports them after its step.
    pub stray_errors: std::cell::RefCell<Vec<String>>,
}

impl Db {
    /// A script failed where the kernel can carry on without it (a static ability's
    /// condition, a trigger's filter, a `ctx:guard`): the error is reported against `card`
    /// and the caller goes on as if the piece did not apply. A spent work budget or memory
    /// allowance is not contained: the whole call must stop.
    pub fn contain(&self, e: mlua::Error, card: Option<u32>, what: &str) -> mlua::Result<()> {
        let f = Failure::of(&e);
        if f.memory || self.budget.exceeded() {
            return Err(e);
        }
        let label = match card {
            Some(c) => format!("card {}, {what}", self.cards[c as usize].def.id),
            None => what.to_string(),
        };
        let message = self.describe(&label, card, &f);
        self.stray_errors.borrow_mut().push(message);
        Ok(())
    }

    /// The card whose script a failure passed through (the innermost), if any.
    pub fn card_at_fault(&self, f: &Failure) -> Option<u32> {
        f.locations
            .iter()
            .find_map(|(file, _)| self.card_of_script(file))
    }

    /// The card ability a failure happened in, found by its lines: of the card script the
    /// failure passed through, innermost first, the first line that follows the start of one
    /// of the card's ability functions (the nearest start above it). None when no card script
    /// is in the failure, or its line is above every ability (a helper of the card that no
    /// frame of the failure reached from an ability).
    pub fn ability_at_fault(&self, lua: &mlua::Lua, f: &Failure) -> Option<AbilityRef> {
        for (file, line) in &f.locations {
            let Some(card) = self.card_of_script(file) else {
                continue;
            };
            let abilities = self.card_abilities(lua, card).ok()?;
            let mut best: Option<(usize, usize)> = None; // (line defined, ability index)
            for (i, ab) in abilities.iter().enumerate() {
                for pair in ab.table.pairs::<Value, Value>() {
                    let Ok((_, Value::Function(func))) = pair else {
                        continue;
                    };
                    if let Some(at) = func.info().line_defined
                        && at <= *line as usize
                        && best.is_none_or(|(b, _)| at > b)
                    {
                        best = Some((at, i));
                    }
                }
            }
            if let Some((_, i)) = best {
                return Some((Some(card), i));
            }
        }
        None
    }

    /// One line saying who failed, where, and what: `card X-1, ability 2 at
    /// cardsets/x/X-1.lua:3: message`. The card is the first card script in the failure's
    /// traceback, else `card` (the frame's source or guarded card); the place is that card's
    /// line, then the line that failed if it is elsewhere (a ruleset helper the card called).
    pub fn describe(&self, label: &str, card: Option<u32>, f: &Failure) -> String {
        let card_frame = f
            .locations
            .iter()
            .find_map(|(file, line)| self.card_of_script(file).map(|c| (c, file, *line)));
        // The card whose script the failure passed through is the one at fault, whoever
        // ran it; else the card the frame or guard ran for.
        let card = card_frame.map(|c| c.0).or(card);
        let mut who = match card {
            Some(c) => {
                let id = &self.cards[c as usize].def.id;
                let named = format!("card {id}");
                match label.strip_prefix(&named) {
                    Some(rest) => format!("{named}{rest}"),
                    None if label.is_empty() => named,
                    None => format!("{named} (in {label})"),
                }
            }
            None if label.is_empty() => "script".to_string(),
            None => label.to_string(),
        };
        let mut at: Vec<String> = Vec::new();
        match (card_frame, card) {
            (Some((_, file, line)), _) => at.push(format!("{file}:{line}")),
            (None, Some(c)) => {
                if let Some(s) = &self.cards[c as usize].def.script {
                    at.push(s.name.clone());
                }
            }
            _ => {}
        }
        // The kernel's own prelude is where every operation yields: not worth naming.
        if let Some((file, line)) = f.locations.iter().find(|(f, _)| !f.starts_with("riffle/")) {
            let origin = format!("{file}:{line}");
            if !at.contains(&origin) {
                at.push(if at.is_empty() {
                    origin
                } else {
                    format!("in {origin}")
                });
            }
        }
        if !at.is_empty() {
            who = format!("{who} at {}", at.join(", "));
        }
        one_line(&format!("{who}: {}", f.message))
    }

    /// The card with this id (none for a card a hot reload removed).
    pub fn card_of(&self, id: &str) -> Option<u32> {
        self.card_index.get(&self.cards, id)
    }

    /// The card whose script file is `file` (see [`Db::script_cards`]).
    pub fn card_of_script(&self, file: &str) -> Option<u32> {
        let name = |c: &u32| {
            self.cards[*c as usize]
                .def
                .script
                .as_ref()
                .map(|s| s.name.as_str())
        };
        let i = self.script_cards.partition_point(|c| name(c) < Some(file));
        let c = *self.script_cards.get(i)?;
        (name(&c) == Some(file)).then_some(c)
    }

    /// An ability by reference (its card's script is loaded if no game met the card yet).
    pub fn ability(&self, lua: &mlua::Lua, r: AbilityRef) -> mlua::Result<&Ability> {
        match r.0 {
            Some(c) => {
                let abilities = self.card_abilities(lua, c)?;
                abilities.get(r.1).ok_or_else(|| {
                    mlua::Error::RuntimeError(format!(
                        "card {} has no ability {}",
                        self.cards[c as usize].def.id,
                        r.1 + 1
                    ))
                })
            }
            None => Ok(&self.rule_abilities[r.1]),
        }
    }

    /// What the kernel knows of an ability without loading its card's script.
    pub fn outline(&self, r: AbilityRef) -> &AbilityOutline {
        match r.0 {
            Some(c) => &self.cards[c as usize].outline[r.1],
            None => &self.rule_outlines[r.1],
        }
    }

    /// Card `c`'s abilities, its script loaded the first time any game of the engine needs
    /// them. Loading runs aside from the running call's budget and memory allowance, so a
    /// game does the same whether or not an earlier game loaded the card.
    pub fn card_abilities(&self, lua: &mlua::Lua, c: u32) -> mlua::Result<&[Ability]> {
        let card = &self.cards[c as usize];
        if let Some(a) = card.abilities.get() {
            return Ok(a);
        }
        let loaded = self
            .compiler
            .load(lua, c, card, &self.rules, &self.names)
            .map_err(|m| {
                mlua::Error::RuntimeError(format!(
                    "card {}: its script could not be loaded: {m}",
                    card.def.id
                ))
            })?;
        // (A load the script started itself may have set it already: the first one stays.)
        Ok(card.abilities.get_or_init(|| loaded))
    }

    /// The card ability whose Lua table is `table` (a script names an ability by its
    /// table: `ctx:grant_ability`), if it is one of a card of this engine.
    pub fn ability_of_table(&self, table: &Table) -> Option<AbilityRef> {
        let (c, i) = self.compiler.ability_at(table.to_pointer() as usize)?;
        // The address is checked against this engine's version of the card: a hot reload
        // changes the card's tables, and the collector reuses addresses.
        let ab = self.cards.get(c as usize)?.abilities.get()?.get(i)?;
        (ab.table.to_pointer() == table.to_pointer()).then_some((Some(c), i))
    }

    /// The Lua string of a declared name (see [`Db::interned`]).
    pub fn lua_name(&self, lua: &mlua::Lua, name: &str) -> mlua::Result<mlua::LuaString> {
        if let Some(s) = self.interned.borrow().get(name) {
            return Ok(s.clone());
        }
        let s = lua.create_string(name)?;
        // (Busy: a value `set_named` is storing is being made; the name is interned later.)
        if let Ok(mut interned) = self.interned.try_borrow_mut()
            && interned.len() < INTERNED_MAX
        {
            interned.insert(name.into(), s.clone());
        }
        Ok(s)
    }

    /// Sets `t[name] = v` with the interned key: no copy of the key's Lua reference is made
    /// (each costs as much as the key's own hashing).
    pub fn set_named(
        &self,
        lua: &mlua::Lua,
        t: &Table,
        name: &str,
        v: impl mlua::IntoLua,
    ) -> mlua::Result<()> {
        if let Some(s) = self.interned.borrow().get(name) {
            return t.raw_set(s, v);
        }
        t.raw_set(self.lua_name(lua, name)?, v)
    }

    /// A `ctx` table for a controller (0-based), source and ability.
    pub fn ctx(
        &self,
        lua: &mlua::Lua,
        controller: Option<crate::state::PlayerId>,
        source: Option<crate::state::ObjId>,
        ability: Option<&Table>,
    ) -> mlua::Result<Value> {
        // What the prelude's `make_ctx` makes, made here without a call into Lua.
        // (One protected call for the table, its fields and its metatable: with the game's
        // memory limit armed, each mlua call that may allocate is a protected call of its own.)
        self.memory.charge(lua, || {
            let source = match source {
                Some(s) => Some(mlua::IntoLua::into_lua(
                    crate::sandbox::handle::Handle(s),
                    lua,
                )?),
                None => None,
            };
            let fields = [
                controller.map(|p| Value::Integer(p as i64 + 1)),
                source,
                ability.map(|a| Value::Table(a.clone())),
            ];
            // (With no memory limit set, as between the kernel's calls into Lua, it is made
            // without a protected call, as mlua makes its own tables then.)
            if self.memory.armed() {
                crate::sandbox::fast_index::record_with_meta(
                    lua,
                    &self.ctx_keys,
                    fields,
                    &self.ctx_meta,
                )
            } else {
                crate::sandbox::fast_index::record_with_meta_unlimited(
                    lua,
                    &self.ctx_keys,
                    fields,
                    &self.ctx_meta,
                )
            }
            .map(Value::Table)
        })
    }
}
