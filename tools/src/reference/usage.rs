//! What games really asked and emitted, held against what the ruleset declares: every prompt
//! asked is declared (the ruleset's or the kernel's) and every declared one is asked; every
//! option offered has a known kind and a label that fits its template, and every declared
//! option is offered; every declared event is emitted with each of its declared fields.
//!
//! The kernel checks an event's fields at each emit; prompts are held to their declaration
//! here, by tests over the scenarios and seeded games, since at run time a mod's card may
//! ask with a prompt of its own.

use std::collections::{BTreeMap, BTreeSet};

use riffle_core::events::Event;
use riffle_core::vocabulary::{HELPER_CHOICES, KERNEL_PROMPTS, label_fits, prompt_name};
use riffle_core::{Entry, Game, Request, RulesetManifest};

use super::render::{action_kind, listed_actions};

/// The label templates each option kind may have under prompt `name`: the kernel's helper
/// choices, the kernel prompt's options, and the ruleset's declared options and the actions
/// its phase or window lists. Empty when neither the ruleset nor the kernel declares it.
pub fn option_templates<'m>(m: &'m RulesetManifest, name: &str) -> BTreeMap<&'m str, Vec<&'m str>> {
    let declared = m.prompts.iter().find(|p| p.name == name);
    let kernel = KERNEL_PROMPTS.iter().find(|p| p.name == name);
    let mut templates: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    if declared.is_none() && kernel.is_none() {
        return templates;
    }
    for c in HELPER_CHOICES {
        templates.entry(c.kind).or_default().push(c.label);
    }
    if let Some(k) = kernel {
        for c in k.options {
            templates.entry(c.kind).or_default().push(c.label);
        }
    }
    if let Some(d) = declared {
        for c in &d.options {
            templates.entry(&c.kind).or_default().push(&c.label);
        }
        for a in listed_actions(m, name) {
            templates.entry(action_kind(a)).or_default().push(&a.label);
        }
    }
    templates
}

/// The label templates of every option kind any prompt of the game may offer (the union of
/// [`option_templates`] over the declared prompts, the kernel's, and every action).
pub fn all_option_templates(m: &RulesetManifest) -> BTreeMap<&str, Vec<&str>> {
    let mut all: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let names = m.prompts.iter().map(|p| p.name.as_str());
    for name in names.chain(KERNEL_PROMPTS.iter().map(|p| p.name)) {
        for (k, ts) in option_templates(m, name) {
            all.entry(k).or_default().extend(ts);
        }
    }
    for a in &m.actions {
        all.entry(action_kind(a)).or_default().push(&a.label);
    }
    for ts in all.values_mut() {
        ts.sort_unstable();
        ts.dedup();
    }
    all
}

/// Labels kept per option kind: enough to show what was offered.
const LABELS_KEPT: usize = 3;

/// What one prompt asked with: the option kinds offered, and labels for each.
#[derive(Clone, Debug, Default)]
struct Asked {
    /// Option kind (`None`: an option without one) to the labels offered under it whose
    /// fit is still to check (distinct; all of them, so that none goes unchecked).
    options: BTreeMap<Option<String>, BTreeSet<String>>,
}

/// The prompts, options and events seen in games.
#[derive(Clone, Debug, Default)]
pub struct Usage {
    /// By prompt name.
    prompts: BTreeMap<String, Asked>,
    /// Event name to the fields seen on it.
    events: BTreeMap<String, BTreeSet<String>>,
}

/// The fields an event carries: its set kernel fields and its data keys.
fn fields_of(e: &Event) -> impl Iterator<Item = &str> {
    let set = [
        ("card", e.card.is_some()),
        ("old", e.old.is_some()),
        ("from", e.from.is_some()),
        ("to", e.to.is_some()),
        ("player", e.player.is_some()),
        ("reason", e.reason.is_some()),
        ("key", e.key.is_some()),
        ("amount", e.amount != 0),
    ];
    set.into_iter()
        .filter(|(_, on)| *on)
        .map(|(k, _)| k)
        .chain(e.data.iter().map(|(k, _)| k.as_str()))
}

impl Usage {
    /// A new, empty record.
    pub fn new() -> Usage {
        Usage::default()
    }

    /// Records what `game` asked (its log's decisions and the request pending now) and
    /// emitted (its log's events).
    pub fn observe(&mut self, game: &Game) {
        for e in game.log() {
            match e {
                Entry::Decision { request, .. } => self.asked(&request),
                Entry::Event(ev) => {
                    let seen = self.events.entry(ev.name.clone()).or_default();
                    for f in fields_of(&ev) {
                        if !seen.contains(f) {
                            seen.insert(f.to_string());
                        }
                    }
                }
                Entry::ScriptError { .. } | Entry::CardReloaded { .. } => {}
            }
        }
        if let Some(r) = game.request() {
            self.asked(r);
        }
    }

    fn asked(&mut self, r: &Request) {
        let asked = self
            .prompts
            .entry(prompt_name(r.prompt()).to_string())
            .or_default();
        if let Request::Choose { options, .. } = r {
            for o in options {
                let labels = asked.options.entry(o.kind.clone()).or_default();
                if !labels.contains(&o.label) {
                    labels.insert(o.label.clone());
                }
            }
        }
    }

    /// Where what was seen departs from what `m` (and the kernel) declare, one line each.
    pub fn problems(&self, m: &RulesetManifest) -> Vec<String> {
        let mut out = Vec::new();
        self.prompt_problems(m, &mut out);
        self.event_problems(m, &mut out);
        out
    }

    fn prompt_problems(&self, m: &RulesetManifest, out: &mut Vec<String>) {
        for (name, asked) in &self.prompts {
            let declared = m.prompts.iter().find(|p| &p.name == name);
            let kernel = KERNEL_PROMPTS.iter().find(|p| p.name == name);
            if declared.is_none() && kernel.is_none() {
                let kinds: Vec<String> = asked
                    .options
                    .keys()
                    .map(|k| k.clone().unwrap_or_else(|| "(none)".into()))
                    .collect();
                out.push(format!(
                    "prompt '{name}' was asked (options of kinds: {}) but is not declared: add \
                     it to game.yaml `prompts` with a line saying what it asks",
                    kinds.join(", ")
                ));
                continue;
            }
            let templates = option_templates(m, name);
            for (kind, labels) in &asked.options {
                // A few of the labels, to find the options by.
                let some = || {
                    let kept: Vec<&str> = labels
                        .iter()
                        .take(LABELS_KEPT)
                        .map(String::as_str)
                        .collect();
                    kept.join(", ")
                };
                let Some(kind) = kind else {
                    out.push(format!(
                        "prompt '{name}': options without a kind ({}): give each option a kind",
                        some()
                    ));
                    continue;
                };
                let Some(ts) = templates.get(kind.as_str()) else {
                    out.push(format!(
                        "prompt '{name}': option kind '{kind}' (labels: {}) is not declared: add \
                         it to the prompt's `options` in game.yaml, or list its action in the \
                         phase's or window's `kinds`",
                        some()
                    ));
                    continue;
                };
                for l in labels {
                    if !ts.iter().any(|t| label_fits(t, l)) {
                        out.push(format!(
                            "prompt '{name}': option '{l}' of kind '{kind}' fits none of its \
                             labels ({})",
                            ts.join(", ")
                        ));
                    }
                }
            }
        }
        for p in &m.prompts {
            let Some(asked) = self.prompts.get(&p.name) else {
                out.push(format!(
                    "prompt '{}' is declared in game.yaml `prompts` but no scenario or game \
                     asked it: remove it, or cover it with a scenario",
                    p.name
                ));
                continue;
            };
            let offered = |kind: &str| asked.options.contains_key(&Some(kind.to_string()));
            for c in &p.options {
                if !offered(&c.kind) {
                    out.push(format!(
                        "prompt '{}': option kind '{}' is declared but was never offered",
                        p.name, c.kind
                    ));
                }
            }
            for a in listed_actions(m, &p.name) {
                if !offered(action_kind(a)) {
                    out.push(format!(
                        "prompt '{}': action '{}' (kind '{}') was never offered",
                        p.name,
                        a.name,
                        action_kind(a)
                    ));
                }
            }
        }
    }

    fn event_problems(&self, m: &RulesetManifest, out: &mut Vec<String>) {
        for e in &m.events {
            let Some(seen) = self.events.get(e.name()) else {
                out.push(format!(
                    "event '{}' is declared in game.yaml `events` but no scenario or game \
                     emitted it",
                    e.name()
                ));
                continue;
            };
            for f in e.fields().into_iter().flat_map(|f| f.keys()) {
                if !seen.contains(f) {
                    out.push(format!(
                        "event '{}': field '{f}' is declared but was never emitted",
                        e.name()
                    ));
                }
            }
        }
    }
}
