//! The ruleset manifest resolved into symbols and indices the kernel uses at run time.

use std::collections::HashSet;

use rustc_hash::FxHashMap;

use crate::content::{
    AttachedAbilities, AttachedEffects, CharKind, CharacteristicDecl, Direction, EliminatedCards,
    LayerDecl, ModOp, OptionDecl, OptionValue, Options, PlayerCharacteristicDecl, RulesetManifest,
    ZoneDecl,
};
use crate::names::{Declared, Names, Sym, UnknownName};
use crate::vocabulary::{self, KERNEL_EVENTS};

/// A characteristic with its symbol.
#[derive(Clone, Debug)]
pub struct CharInfo {
    /// Its name.
    pub sym: Sym,
    /// The declaration.
    pub decl: CharacteristicDecl,
    /// The printed field it reads.
    pub field: String,
    /// Its layers, in order (its own, the game's, or the default ones).
    pub layers: Vec<Layer>,
}

/// A player characteristic, resolved.
#[derive(Clone, Debug)]
pub struct PlayerCharInfo {
    /// Its name.
    pub sym: Sym,
    /// The declaration.
    pub decl: PlayerCharacteristicDecl,
    /// The player value it starts from (an index into `player_values`).
    pub from: Option<usize>,
    /// Its layers, in order.
    pub layers: Vec<Layer>,
}

/// One layer of value computation, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Its name.
    pub name: String,
    /// The operations it holds.
    pub ops: Vec<ModOp>,
    /// A bound applied right after it.
    pub min: Option<i64>,
    /// A bound applied right after it.
    pub max: Option<i64>,
}

/// The layers when the ruleset declares none: base-setting, then additions, then
/// overriding sets (for sets of names: replacing sets, grants and revocations, by
/// timestamp).
pub fn default_layers() -> Vec<Layer> {
    let layer = |name: &str, ops: &[ModOp]| Layer {
        name: name.to_string(),
        ops: ops.to_vec(),
        min: None,
        max: None,
    };
    vec![
        layer("base", &[ModOp::SetBase]),
        layer("add", &[ModOp::Add]),
        layer("set", &[ModOp::Set, ModOp::Grant, ModOp::Revoke]),
    ]
}

/// The operations a characteristic of this kind takes.
pub fn ops_of(kind: CharKind) -> &'static [ModOp] {
    match kind {
        CharKind::Int => &[ModOp::SetBase, ModOp::Add, ModOp::Set],
        CharKind::Set => &[ModOp::Set, ModOp::Grant, ModOp::Revoke],
    }
}

/// The layer of `layers` (those of characteristic `what`) an effect with operation `op`
/// goes to: the one named `name`, which must hold `op`, or else the last that holds it
/// (earlier layers holding the same operation are for the effects that name them: a
/// replacement of the printed value before the ordinary set-value effects).
/// Errors name the characteristic and list the declared layers.
pub fn layer_index(
    layers: &[Layer],
    what: &str,
    op: ModOp,
    name: Option<&str>,
) -> Result<u8, String> {
    let listed = || {
        layers
            .iter()
            .map(|l| {
                let ops: Vec<&str> = l.ops.iter().map(|o| o.name()).collect();
                format!("{} ({})", l.name, ops.join(", "))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match name {
        Some(n) => match layers.iter().position(|l| l.name == n) {
            Some(i) if layers[i].ops.contains(&op) => Ok(i as u8),
            Some(_) => Err(format!(
                "layer '{n}' of '{what}' does not hold {} (layers: {})",
                op.name(),
                listed()
            )),
            None => Err(format!(
                "unknown layer '{n}' for '{what}' (layers: {})",
                listed()
            )),
        },
        None => layers
            .iter()
            .rposition(|l| l.ops.contains(&op))
            .map(|i| i as u8)
            .ok_or_else(|| {
                format!(
                    "no layer of '{what}' holds {} (layers: {})",
                    op.name(),
                    listed()
                )
            }),
    }
}

/// Checks a list of layer declarations (`where_` names it in errors): unique names, at
/// least one operation each, bounds in order.
fn check_layers(decls: &[LayerDecl], where_: &str, errors: &mut Vec<String>) {
    for (i, d) in decls.iter().enumerate() {
        if decls[..i].iter().any(|l| l.name == d.name) {
            errors.push(format!("{where_}: layer '{}' is declared twice", d.name));
        }
        if d.ops.is_empty() {
            errors.push(format!(
                "{where_}: layer '{}' holds no operation (ops: set_base, add, set, grant, revoke)",
                d.name
            ));
        }
        if let (Some(lo), Some(hi)) = (d.min, d.max)
            && lo > hi
        {
            errors.push(format!(
                "{where_}: layer '{}' has min {lo} above max {hi}",
                d.name
            ));
        }
    }
}

/// Resolves the layers of characteristic `what` of kind `kind`: `own` if any, else the
/// game's `game`, else the default ones. Problems go to `errors`, naming `at`.
fn resolve_layers(
    own: &[LayerDecl],
    game: &[LayerDecl],
    kind: CharKind,
    at: &str,
    errors: &mut Vec<String>,
) -> Vec<Layer> {
    let (decls, where_) = if !own.is_empty() {
        (own, format!("{at}.layers"))
    } else if !game.is_empty() {
        (game, "layers".to_string())
    } else {
        return default_layers();
    };
    if !own.is_empty() {
        check_layers(own, &where_, errors);
    }
    let mut out: Vec<Layer> = Vec::new();
    for d in decls {
        if !own.is_empty()
            && let Some(o) = d.ops.iter().find(|o| !ops_of(kind).contains(o))
        {
            errors.push(format!(
                "{where_}: layer '{}' holds {}, which {} characteristics do not take",
                d.name,
                o.name(),
                match kind {
                    CharKind::Int => "integer",
                    CharKind::Set => "set",
                }
            ));
        }
        out.push(Layer {
            name: d.name.clone(),
            ops: d.ops.clone(),
            min: d.min,
            max: d.max,
        });
    }
    for o in ops_of(kind) {
        if !out.iter().any(|l| l.ops.contains(o)) {
            errors.push(format!(
                "{where_}: no layer holds {} for '{}' (every {} operation needs a layer: add it \
                 to one, or give '{}' its own `layers`)",
                o.name(),
                at.rsplit('.').next().unwrap_or(at),
                match kind {
                    CharKind::Int => "integer",
                    CharKind::Set => "set",
                },
                at.rsplit('.').next().unwrap_or(at),
            ));
        }
    }
    out
}

/// Where an attached card goes when its host leaves.
#[derive(Clone, Debug)]
pub struct AttachRule {
    /// The attached card's category.
    pub category: Sym,
    /// Zone declaration index (None: follow the host).
    pub to: Option<usize>,
    /// Orientation there.
    pub orientation: Option<Sym>,
    /// Attaching and detaching keep the object where the zones allow it.
    pub keep_identity: bool,
    /// Effects on the attached card are paused while it is attached.
    pub pause_effects: bool,
    /// Its abilities work while it is attached.
    pub abilities_work: bool,
    /// A card holding this name in this set characteristic (an index into `chars`) keeps
    /// its abilities while attached under a rule that suppresses them.
    pub unless: Option<(usize, Sym)>,
    /// Zone declarations into which the host takes it along, still attached.
    pub stay_in: Vec<usize>,
}

/// The resolved ruleset.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The manifest as given.
    pub manifest: RulesetManifest,
    /// Zone declarations, with symbols.
    pub zones: Vec<(Sym, ZoneDecl)>,
    /// Card categories.
    pub categories: Declared,
    /// Characteristics.
    pub chars: Vec<CharInfo>,
    /// Orientations; the first is the default.
    pub orientations: Declared,
    /// Counters.
    pub counters: Declared,
    /// Flags (at most 64).
    pub flags: Declared,
    /// Player values.
    pub player_values: Declared,
    /// Player characteristics.
    pub player_chars: Vec<PlayerCharInfo>,
    /// Game values.
    pub game_values: Declared,
    /// Every event name (kernel + ruleset).
    pub events: HashSet<Sym>,
    /// The fields of the ruleset's events that declare them (the only ones `ctx:emit` may
    /// pass for those events).
    pub event_fields: FxHashMap<Sym, Box<[Box<str>]>>,
    /// Activated-ability timings.
    pub timings: Declared,
    /// Duration expiry points.
    pub durations: Declared,
    /// Tags of continuous effects.
    pub effect_tags: Declared,
    /// Plain keywords.
    pub keywords: Declared,
    /// Attachment rules.
    pub attachments: Vec<AttachRule>,
    /// `abilities.suppressed_by`: (set characteristic index, name, `including_later` name).
    pub suppression: Option<(usize, Sym, Option<Sym>)>,
    /// `abilities.keywords`: keywords that are abilities.
    pub ability_keywords: Vec<Sym>,
    /// `elimination.cards`, resolved: the zone an eliminated player's cards go to.
    pub elimination_zone: Option<usize>,
    /// The `identity` group of each zone declaration, if it is in one.
    pub identity_groups: Vec<Option<u16>>,
    /// `stand_ins`, resolved: zone declarations whose cards stand in for their owner's cards
    /// of the same name (`operations::refresh_definitions`).
    pub stand_in_zones: Vec<usize>,
}

impl Rules {
    /// The bit of player characteristic `pi` in the characteristics' change marks and kept
    /// values (`Hooks::char_marks`, `State::chars`): after the card characteristics'.
    pub fn player_char_bit(&self, pi: usize) -> usize {
        self.chars.len() + pi
    }

    /// A set characteristic read from the printed `keywords` holds keyword names: one that
    /// the ruleset does not declare would be granted or tested and do nothing, silently (a
    /// misspelt `gains("rsh")`), so naming one is an error.
    pub fn check_keyword_values(
        &self,
        names: &Names,
        ci: usize,
        values: &[&str],
    ) -> Result<(), String> {
        if self.chars[ci].field != "keywords" {
            return Ok(());
        }
        for v in values {
            if names.get(v).and_then(|s| self.keywords.index(s)).is_none() {
                let declared: Vec<&str> =
                    self.keywords.syms.iter().map(|s| names.name(*s)).collect();
                let hint = match crate::suggest::did_you_mean(v, &declared) {
                    Some(n) => format!("did you mean '{n}'?"),
                    None => format!("declared: {}", declared.join(", ")),
                };
                return Err(format!(
                    "'{}' holds keywords, and '{v}' is not one the game declares ({hint})",
                    self.chars[ci].decl.name
                ));
            }
        }
        Ok(())
    }

    /// Resolves a manifest, interning every name. Errors name the field at fault.
    pub fn new(manifest: RulesetManifest, names: &mut Names) -> Result<Rules, Vec<String>> {
        let mut errors = Vec::new();
        let mut declared = |kind: &'static str, list: &[String], names: &mut Names| {
            let mut d = Declared {
                kind,
                syms: Vec::new(),
            };
            for n in list {
                let s = names.intern(n);
                if d.syms.contains(&s) {
                    errors.push(format!("{kind} '{n}' is declared twice"));
                }
                d.syms.push(s);
            }
            d
        };
        let zone_names: Vec<String> = manifest.zones.iter().map(|z| z.name.clone()).collect();
        let zone_decl = declared("zone", &zone_names, names);
        let categories = declared("category", &manifest.categories, names);
        let orientations = declared("orientation", &manifest.orientations, names);
        let counters = declared("counter", &manifest.counters, names);
        let flags = declared("flag", &manifest.flags, names);
        let player_values = declared("player value", &manifest.player_values, names);
        let game_values = declared("game value", &manifest.game_values, names);
        let timing_names: Vec<String> = manifest.timings.iter().map(|t| t.name().into()).collect();
        let timings = declared("timing", &timing_names, names);
        let duration_names: Vec<String> =
            manifest.durations.iter().map(|d| d.name().into()).collect();
        let durations = declared("duration", &duration_names, names);
        let effect_tags = declared("effect tag", &manifest.effect_tags, names);
        let kw: Vec<String> = manifest.keywords.iter().map(|k| k.name.clone()).collect();
        let keywords = declared("keyword", &kw, names);
        let ch: Vec<String> = manifest
            .characteristics
            .iter()
            .map(|c| c.name.clone())
            .collect();
        let char_decl = declared("characteristic", &ch, names);
        let ev: Vec<String> = manifest.events.iter().map(|e| e.name().into()).collect();
        let ev_decl = declared("event", &ev, names);
        // The fields of the events that declare them: `ctx:emit` passes no others.
        let event_fields: FxHashMap<Sym, Box<[Box<str>]>> = manifest
            .events
            .iter()
            .zip(&ev_decl.syms)
            .filter_map(|(e, s)| {
                Some((*s, e.fields()?.keys().map(|k| k.as_str().into()).collect()))
            })
            .collect();

        let mut errors2 = Vec::new();
        if orientations.syms.is_empty() {
            errors2.push("orientations: declare at least one orientation".to_string());
        }
        if flags.syms.len() > 64 {
            errors2.push("flags: at most 64 flags".to_string());
        }
        let mut events: HashSet<Sym> = ev_decl.syms.iter().copied().collect();
        for e in KERNEL_EVENTS {
            events.insert(names.intern(e.name));
        }
        let zones = manifest
            .zones
            .iter()
            .zip(&zone_decl.syms)
            .map(|(z, s)| (*s, z.clone()))
            .collect::<Vec<_>>();
        check_layers(&manifest.layers, "layers", &mut errors2);
        let mut chars = Vec::new();
        for (c, s) in manifest.characteristics.iter().zip(&char_decl.syms) {
            let at = format!("characteristics.{}", c.name);
            if let (Some(lo), Some(hi)) = (c.min, c.max)
                && lo > hi
            {
                errors2.push(format!("{at}: min {lo} is above max {hi}"));
            }
            chars.push(CharInfo {
                sym: *s,
                decl: c.clone(),
                field: c.field.clone().unwrap_or_else(|| c.name.clone()),
                layers: resolve_layers(&c.layers, &manifest.layers, c.kind, &at, &mut errors2),
            });
        }
        let mut player_chars = Vec::new();
        for c in &manifest.player_characteristics {
            let at = format!("player_characteristics.{}", c.name);
            let sym = names.intern(&c.name);
            if player_chars.iter().any(|p: &PlayerCharInfo| p.sym == sym) {
                errors2.push(format!("{at}: declared twice"));
            }
            if player_values.index(sym).is_some() {
                errors2.push(format!(
                    "{at}: '{}' is also a player value; `ctx:value` reads both, so name the \
                     characteristic or the value it starts from differently",
                    c.name
                ));
            }
            if c.name == "player" {
                errors2.push(format!(
                    "{at}: 'player' names the player grants (`ctx:has`); choose another name"
                ));
            }
            if let (Some(lo), Some(hi)) = (c.min, c.max)
                && lo > hi
            {
                errors2.push(format!("{at}: min {lo} is above max {hi}"));
            }
            let from = match (&c.from, c.start) {
                (Some(_), Some(_)) => {
                    errors2.push(format!(
                        "{at}: give `from` (a player value) or `start` (a constant), not both"
                    ));
                    None
                }
                (Some(v), None) => match names.get(v).and_then(|s| player_values.index(s)) {
                    Some(i) => Some(i),
                    None => {
                        errors2.push(format!(
                            "{at}.from: unknown player value '{v}' (declared: {})",
                            manifest.player_values.join(", ")
                        ));
                        None
                    }
                },
                _ => None,
            };
            // Player characteristics are integers: set operations have no place in them.
            let game_int: Vec<LayerDecl> = manifest
                .layers
                .iter()
                .filter(|l| l.ops.iter().any(|o| ops_of(CharKind::Int).contains(o)))
                .cloned()
                .collect();
            player_chars.push(PlayerCharInfo {
                sym,
                decl: c.clone(),
                from,
                layers: resolve_layers(&c.layers, &game_int, CharKind::Int, &at, &mut errors2),
            });
        }
        let mut attachments = Vec::new();
        for a in &manifest.attachments {
            let category = names.intern(&a.category);
            if categories.index(category).is_none() {
                errors2.push(format!("attachments: unknown category '{}'", a.category));
            }
            let to = match &a.to {
                Some(z) => {
                    let idx = manifest.zones.iter().position(|d| &d.name == z);
                    if idx.is_none() {
                        errors2.push(format!("attachments: unknown zone '{z}'"));
                    }
                    idx
                }
                None => None,
            };
            let orientation = a.orientation.as_ref().map(|o| names.intern(o));
            if attachments
                .iter()
                .any(|r: &AttachRule| r.category == category)
            {
                errors2.push(format!(
                    "attachments: category '{}' has two rules",
                    a.category
                ));
            }
            let mut stay_in = Vec::new();
            for z in &a.stay_in {
                match manifest.zones.iter().position(|d| &d.name == z) {
                    Some(i) => stay_in.push(i),
                    None => errors2.push(format!(
                        "attachments ({}): stay_in: unknown zone '{z}'",
                        a.category
                    )),
                }
            }
            let unless = match &a.unless {
                None => None,
                Some(u) => match manifest
                    .characteristics
                    .iter()
                    .position(|c| c.name == u.char)
                {
                    Some(ci) if manifest.characteristics[ci].kind == CharKind::Set => {
                        Some((ci, names.intern(&u.name)))
                    }
                    _ => {
                        errors2.push(format!(
                            "attachments ({}): unless: '{}' is not a set characteristic",
                            a.category, u.char
                        ));
                        None
                    }
                },
            };
            if unless.is_some() && a.abilities == AttachedAbilities::Work {
                errors2.push(format!(
                    "attachments ({}): `unless` exempts cards from `abilities: suppressed`: this rule's abilities work already",
                    a.category
                ));
            }
            attachments.push(AttachRule {
                unless,
                category,
                to,
                orientation,
                keep_identity: a.keep_identity,
                pause_effects: a.effects == AttachedEffects::Pause,
                abilities_work: a.abilities == AttachedAbilities::Work,
                stay_in,
            });
        }
        let mut identity_groups: Vec<Option<u16>> = vec![None; manifest.zones.len()];
        for (gi, g) in manifest.identity.iter().enumerate() {
            if g.zones.is_empty() {
                errors2.push(format!("identity[{gi}].zones: name at least one zone"));
            }
            for z in &g.zones {
                match manifest.zones.iter().position(|d| &d.name == z) {
                    None => errors2.push(format!("identity[{gi}].zones: unknown zone '{z}'")),
                    Some(i) if identity_groups[i].is_some() => errors2.push(format!(
                        "identity[{gi}].zones: zone '{z}' is already in an identity group"
                    )),
                    Some(i) => identity_groups[i] = Some(gi as u16),
                }
            }
        }
        let mut stand_in_zones = Vec::new();
        for z in &manifest.stand_ins {
            match manifest.zones.iter().position(|d| &d.name == z) {
                None => errors2.push(format!("stand_ins: unknown zone '{z}'")),
                Some(i) => stand_in_zones.push(i),
            }
        }
        for p in &manifest.turn.phases {
            names.intern(&p.name);
        }
        // The player grants an action's data tests (a card may grant them later).
        for a in &manifest.actions {
            for g in &a.unless_player_has {
                names.intern(g);
            }
        }
        for s in &manifest.deck.sections {
            if !manifest.zones.iter().any(|z| z.name == s.zone) {
                errors2.push(format!(
                    "deck.sections.{}: unknown zone '{}'",
                    s.name, s.zone
                ));
            }
        }
        let mut suppression = None;
        if let Some(sup) = &manifest.abilities.suppressed_by {
            match manifest
                .characteristics
                .iter()
                .position(|c| c.name == sup.char)
            {
                Some(ci) if manifest.characteristics[ci].kind == CharKind::Set => {
                    let later = sup.including_later.as_deref().map(|n| names.intern(n));
                    suppression = Some((ci, names.intern(&sup.name), later));
                }
                _ => errors2.push(format!(
                    "abilities.suppressed_by: '{}' is not a set characteristic",
                    sup.char
                )),
            }
        }
        let printed = &manifest.names.printed;
        if printed.is_empty()
            || printed.starts_with('-')
            || !printed
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            errors2.push(format!(
                "names.printed: '{printed}' is not a language tag (`en`, `th`, `zh-Hant`...)"
            ));
        }
        let mut ability_keywords = Vec::new();
        for k in &manifest.abilities.keywords {
            let s = names.intern(k);
            if keywords.index(s).is_none() {
                errors2.push(format!("abilities.keywords: unknown keyword '{k}'"));
            }
            ability_keywords.push(s);
        }
        errors2.extend(check_options(&manifest));
        errors2.extend(vocabulary::check_prompts(&manifest));
        errors2.extend(vocabulary::check_log(&manifest));
        errors2.extend(vocabulary::check_evaluation(&manifest));
        if manifest.loops.declare && manifest.loops.forbid {
            errors2.push(
                "loops: `declare` (players declare how often a loop runs) and `forbid` (a loop's restarting answer is barred) are two policies: choose one".into(),
            );
        }
        let elimination_zone = match &manifest.elimination.cards {
            EliminatedCards::Zone(z) => {
                let idx = manifest.zones.iter().position(|d| &d.name == z);
                if idx.is_none() {
                    errors2.push(format!("elimination.cards: unknown zone '{z}'"));
                }
                idx
            }
            _ => None,
        };
        errors.extend(errors2);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Rules {
            manifest,
            zones,
            categories,
            chars,
            orientations,
            counters,
            flags,
            player_values,
            player_chars,
            game_values,
            events,
            event_fields,
            timings,
            durations,
            effect_tags,
            keywords,
            attachments,
            suppression,
            ability_keywords,
            elimination_zone,
            identity_groups,
            stand_in_zones,
        })
    }

    /// The index of a declared option, or an error listing the declared ones.
    pub fn option_index(&self, name: &str) -> Result<usize, String> {
        let options = &self.manifest.options;
        options.iter().position(|o| o.name == name).ok_or_else(|| {
            UnknownName {
                kind: "option",
                name,
                declared: options.iter().map(|o| o.name.as_str()).collect(),
            }
            .to_string()
        })
    }

    /// The value of every declared option for a game, in declaration order: the chosen one,
    /// else the default. An undeclared option or a value the option does not allow is an
    /// error naming what is allowed. A name that reads as an integer is accepted for an
    /// integer option (command lines give text).
    pub fn resolve_options(&self, chosen: &Options) -> Result<Vec<OptionValue>, String> {
        let mut errors = Vec::new();
        for name in chosen.keys() {
            if let Err(e) = self.option_index(name) {
                errors.push(e);
            }
        }
        let mut out = Vec::new();
        for decl in &self.manifest.options {
            let v = match chosen.get(&decl.name) {
                None => decl.default.clone(),
                Some(v) => match option_value(decl, v) {
                    Ok(v) => v,
                    Err(e) => {
                        errors.push(e);
                        continue;
                    }
                },
            };
            out.push(v);
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors.join("; "))
        }
    }

    /// The direction of play for these option values (`turn.direction`, or the value of
    /// `turn.direction_option`).
    pub fn direction(&self, options: &[OptionValue]) -> Direction {
        let turn = &self.manifest.turn;
        let chosen = turn
            .direction_option
            .as_deref()
            .and_then(|n| self.option_index(n).ok())
            .and_then(|i| options.get(i));
        match chosen {
            Some(OptionValue::Name(n)) if n == "counterclockwise" => Direction::Counterclockwise,
            Some(OptionValue::Name(n)) if n == "clockwise" => Direction::Clockwise,
            _ => turn.direction,
        }
    }

    /// Index of a zone declaration by name.
    pub fn zone_index(&self, names: &Names, name: &str) -> Result<usize, String> {
        names
            .get(name)
            .and_then(|s| self.zones.iter().position(|(z, _)| *z == s))
            .ok_or_else(|| {
                UnknownName {
                    kind: "zone",
                    name,
                    declared: self.zones.iter().map(|(_, d)| d.name.as_str()).collect(),
                }
                .to_string()
            })
    }

    /// Index of a characteristic by name.
    pub fn char_index(&self, names: &Names, name: &str) -> Option<usize> {
        let s = names.get(name)?;
        self.chars.iter().position(|c| c.sym == s)
    }

    /// Looks a name up in a declared list, with an error listing the declared names.
    pub fn lookup(names: &Names, list: &Declared, name: &str) -> Result<usize, String> {
        names.get(name).and_then(|s| list.index(s)).ok_or_else(|| {
            UnknownName {
                kind: list.kind,
                name,
                declared: list.syms.iter().map(|s| names.name(*s)).collect(),
            }
            .to_string()
        })
    }

    /// The attachment rule for cards of category `cat`, if the manifest has one.
    pub fn attach_rule(&self, cat: Sym) -> Option<&AttachRule> {
        self.attachments.iter().find(|r| r.category == cat)
    }

    /// Whether a move between zone declarations `from` and `to` stays within one
    /// `identity` group (the object is kept, and keeps its entry turn and timestamp).
    pub fn same_identity_group(&self, from: usize, to: usize) -> bool {
        self.identity_groups[from].is_some()
            && self.identity_groups[from] == self.identity_groups[to]
    }

    /// Whether a card moving from zone declaration `from` into `to` keeps its object: the
    /// two are in one `identity` group, or `to` keeps identity.
    pub fn move_keeps_identity(&self, from: usize, to: usize) -> bool {
        self.same_identity_group(from, to) || self.zones[to].1.keeps_identity
    }

    /// Index of a player characteristic by name.
    pub fn player_char_index(&self, names: &Names, name: &str) -> Option<usize> {
        let s = names.get(name)?;
        self.player_chars.iter().position(|c| c.sym == s)
    }

    /// Whether a characteristic is an integer.
    pub fn is_int(&self, ci: usize) -> bool {
        self.chars[ci].decl.kind == CharKind::Int
    }
}

/// What the option `decl` allows, in words.
fn allowed(decl: &OptionDecl) -> String {
    match (&decl.values, decl.min, decl.max) {
        (Some(v), _, _) => format!("one of {}", v.join(", ")),
        (None, Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
        _ => "nothing (its declaration is incomplete)".into(),
    }
}

/// `v` as a value of option `decl`, or an error saying what it allows.
pub(crate) fn option_value(decl: &OptionDecl, v: &OptionValue) -> Result<OptionValue, String> {
    let bad = || {
        format!(
            "option '{}': '{v}' is not allowed ({})",
            decl.name,
            allowed(decl)
        )
    };
    match (&decl.values, decl.min, decl.max) {
        (Some(values), _, _) => {
            let name = v.to_string();
            if values.contains(&name) {
                Ok(OptionValue::Name(name))
            } else {
                Err(bad())
            }
        }
        (None, Some(lo), Some(hi)) => {
            let n = match v {
                OptionValue::Int(n) => Some(*n),
                OptionValue::Name(s) => s.trim().parse::<i64>().ok(),
            };
            match n {
                Some(n) if (lo..=hi).contains(&n) => Ok(OptionValue::Int(n)),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

/// The option declarations' own errors: names twice, values or a range (not both), a
/// default they allow, a direction option with the two directions.
fn check_options(m: &RulesetManifest) -> Vec<String> {
    let mut errors = Vec::new();
    for (i, o) in m.options.iter().enumerate() {
        if m.options[..i].iter().any(|p| p.name == o.name) {
            errors.push(format!("option '{}' is declared twice", o.name));
        }
        match (&o.values, o.min, o.max) {
            (Some(v), None, None) if !v.is_empty() => {}
            (None, Some(lo), Some(hi)) if lo <= hi => {}
            _ => {
                errors.push(format!(
                    "options.{}: give either `values` (a non-empty list) or `min` <= `max`",
                    o.name
                ));
                continue;
            }
        }
        if let Err(e) = option_value(o, &o.default) {
            errors.push(format!("options.{}: default: {e}", o.name));
        }
    }
    if let Some(name) = &m.turn.direction_option {
        match m.options.iter().find(|o| &o.name == name) {
            None => errors.push(format!(
                "turn.direction_option: unknown option '{name}' (declared: {})",
                m.options
                    .iter()
                    .map(|o| o.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some(o) => {
                let ok = o.values.as_ref().is_some_and(|v| {
                    v.iter()
                        .all(|x| x == "clockwise" || x == "counterclockwise")
                });
                if !ok {
                    errors.push(format!(
                        "turn.direction_option: option '{name}' must take the values clockwise and counterclockwise"
                    ));
                }
            }
        }
    }
    errors
}
