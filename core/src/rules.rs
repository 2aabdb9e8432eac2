//! The ruleset manifest resolved into symbols and indices the kernel uses at run time.

use std::collections::HashSet;

use crate::content::{CharKind, CharacteristicDecl, RulesetManifest, ZoneDecl};
use crate::names::{Declared, Names, Sym, UnknownName};
use crate::state::events::KERNEL_EVENTS;

/// A characteristic with its symbol.
#[derive(Clone, Debug)]
pub struct CharInfo {
    /// Its name.
    pub sym: Sym,
    /// The declaration.
    pub decl: CharacteristicDecl,
    /// The printed field it reads.
    pub field: String,
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
    /// Game values.
    pub game_values: Declared,
    /// Every event name (kernel + ruleset).
    pub events: HashSet<Sym>,
    /// Activated-ability timings.
    pub timings: Declared,
    /// Duration expiry points.
    pub durations: Declared,
    /// Plain keywords.
    pub keywords: Declared,
    /// Attachment rules.
    pub attachments: Vec<AttachRule>,
    /// `abilities.suppressed_by`: (set characteristic index, name, `including_later` name).
    pub suppression: Option<(usize, Sym, Option<Sym>)>,
    /// `abilities.keywords`: keywords that are abilities.
    pub ability_keywords: Vec<Sym>,
}

impl Rules {
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
        let timings = declared("timing", &manifest.timings, names);
        let durations = declared("duration", &manifest.durations, names);
        let kw: Vec<String> = manifest.keywords.iter().map(|k| k.name.clone()).collect();
        let keywords = declared("keyword", &kw, names);
        let ch: Vec<String> = manifest
            .characteristics
            .iter()
            .map(|c| c.name.clone())
            .collect();
        let char_decl = declared("characteristic", &ch, names);
        let ev: Vec<String> = manifest.events.clone();
        let ev_decl = declared("event", &ev, names);

        let mut errors2 = Vec::new();
        if orientations.syms.is_empty() {
            errors2.push("orientations: declare at least one orientation".to_string());
        }
        if flags.syms.len() > 64 {
            errors2.push("flags: at most 64 flags".to_string());
        }
        let mut events: HashSet<Sym> = ev_decl.syms.iter().copied().collect();
        for e in KERNEL_EVENTS {
            events.insert(names.intern(e));
        }
        let zones = manifest
            .zones
            .iter()
            .zip(&zone_decl.syms)
            .map(|(z, s)| (*s, z.clone()))
            .collect::<Vec<_>>();
        let chars = manifest
            .characteristics
            .iter()
            .zip(&char_decl.syms)
            .map(|(c, s)| CharInfo {
                sym: *s,
                decl: c.clone(),
                field: c.field.clone().unwrap_or_else(|| c.name.clone()),
            })
            .collect();
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
            attachments.push(AttachRule {
                category,
                to,
                orientation,
            });
        }
        for p in &manifest.turn.phases {
            names.intern(&p.name);
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
            game_values,
            events,
            timings,
            durations,
            keywords,
            attachments,
            suppression,
            ability_keywords,
        })
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

    /// Whether a characteristic is an integer.
    pub fn is_int(&self, ci: usize) -> bool {
        self.chars[ci].decl.kind == CharKind::Int
    }
}
