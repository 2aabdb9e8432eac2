//! The names the kernel itself gives, each with a line for designers: its events and their
//! fields, its prompts and the option kinds it builds. Rulesets declare their own in
//! `game.yaml` (`events`, `prompts`); `riffle docs` prints both in each game's reference, so
//! a designer never has to read the kernel to learn what `on = "moved"` gives or how to
//! answer `order_triggers`.

use crate::content::RulesetManifest;

/// The prompt of the kernel's "how many more times does the loop run?" request (`loops/`).
pub const DECLARE_PROMPT: &str = "loop_count";

/// An event the kernel emits.
#[derive(Clone, Copy, Debug)]
pub struct KernelEvent {
    /// Its name, as `on = name` listens to it.
    pub name: &'static str,
    /// When it happens.
    pub doc: &'static str,
    /// The fields it carries (`ev.card`...), each with what it holds.
    pub fields: &'static [(&'static str, &'static str)],
}

/// The kernel's own events. Every event also carries `source`: the card whose ability made
/// the operation that caused it (nil when the rules did; not in the log).
pub const KERNEL_EVENTS: &[KernelEvent] = &[
    KernelEvent {
        name: "moved",
        doc: "a card changed zone, or was attached to another card",
        fields: &[
            (
                "card",
                "the card where it arrived (a new object unless the move kept it)",
            ),
            ("old", "the object that left"),
            ("from", "the zone it left"),
            ("to", "the zone it entered"),
            (
                "reason",
                "the move's reason (the ruleset's: `draw`, `play`...; the kernel's: \
                 `with_host` for a card carried along by its host, `host_left` for one that \
                 leaves its host)",
            ),
            ("player", "who moved it"),
            ("host", "the card it is attached to, when attached"),
        ],
    },
    KernelEvent {
        name: "turned",
        doc: "a card's orientation changed",
        fields: &[
            ("card", "the card"),
            ("key", "its new orientation"),
            ("reason", "why"),
            ("player", "who turned it"),
        ],
    },
    KernelEvent {
        name: "flipped",
        doc: "a card turned face up or face down",
        fields: &[
            ("card", "the card"),
            ("amount", "1: now face up; 0: face down"),
        ],
    },
    KernelEvent {
        name: "counter",
        doc: "a counter on a card changed",
        fields: &[
            ("card", "the card"),
            ("key", "the counter"),
            ("amount", "the change"),
            ("reason", "why"),
            ("player", "who changed it"),
        ],
    },
    KernelEvent {
        name: "flag",
        doc: "a flag on a card was set or cleared",
        fields: &[
            ("card", "the card"),
            ("key", "the flag"),
            ("amount", "1: set; 0: cleared"),
        ],
    },
    KernelEvent {
        name: "created",
        doc: "a token was made",
        fields: &[
            ("card", "the token"),
            ("to", "its zone"),
            ("player", "its owner"),
        ],
    },
    KernelEvent {
        name: "ceased",
        doc: "a card stopped existing: a token that left play, or a card removed from the game",
        fields: &[("old", "the object that ceased"), ("reason", "why")],
    },
    KernelEvent {
        name: "eliminated",
        doc: "a player left a game that goes on without them (`ctx:eliminate`); the moves of their cards follow it, with the same reason",
        fields: &[("player", "who left"), ("reason", "why")],
    },
    KernelEvent {
        name: "revealed",
        doc: "a card was revealed (`ctx:reveal`) or looked at (`ctx:look`)",
        fields: &[
            ("card", "the card"),
            ("amount", "who saw it: bit p set for seat p (from 0)"),
        ],
    },
    KernelEvent {
        name: "shuffled",
        doc: "a zone was shuffled",
        fields: &[("to", "the zone"), ("player", "its owner")],
    },
    KernelEvent {
        name: "controller",
        doc: "a card's controller changed",
        fields: &[("card", "the card"), ("player", "its new controller")],
    },
    KernelEvent {
        name: "value",
        doc: "a player value or a game value changed",
        fields: &[
            ("player", "whose value (none: a game value)"),
            ("key", "the value"),
            ("amount", "the change"),
        ],
    },
    KernelEvent {
        name: "expired",
        doc: "a continuous effect or a granted ability ended when its duration's point passed",
        fields: &[
            ("card", "what it applied to (none: a player)"),
            ("player", "who controlled it"),
            ("reason", "the point that passed (a `durations` name)"),
            ("key", "what ended: the characteristic, or `ability`"),
        ],
    },
    KernelEvent {
        name: "game_over",
        doc: "the game ended",
        fields: &[
            ("reason", "why"),
            ("winners", "the winning players (empty: a draw)"),
        ],
    },
    KernelEvent {
        name: "turn_began",
        doc: "a turn began",
        fields: &[("player", "the turn player")],
    },
    KernelEvent {
        name: "phase_began",
        doc: "a phase began, before its procedure runs",
        fields: &[("key", "the phase")],
    },
    KernelEvent {
        name: "phase_ended",
        doc: "a phase ended",
        fields: &[("key", "the phase")],
    },
    KernelEvent {
        name: "turn_ended",
        doc: "a turn ended",
        fields: &[("player", "the turn player")],
    },
];

/// The name of the event `ctx:log(message)` writes: in the log, but no ability listens to it.
pub const LOG_EVENT: &str = "log";

/// An option kind the kernel builds, and its label.
#[derive(Clone, Copy, Debug)]
pub struct KernelChoice {
    /// The option's `kind`.
    pub kind: &'static str,
    /// Its label (`{...}` stands for a name or a number).
    pub label: &'static str,
    /// What it means.
    pub doc: &'static str,
}

/// A prompt the kernel asks with.
#[derive(Clone, Copy, Debug)]
pub struct KernelPrompt {
    /// The request's `prompt`.
    pub name: &'static str,
    /// What is asked, and how to answer it.
    pub doc: &'static str,
    /// The options it offers (none listed: the caller's; a number when it says so).
    pub options: &'static [KernelChoice],
}

/// The prompts the kernel asks with by itself, or gives a script's question that names none.
/// (An open phase asks with its phase's name, and a declared window with its `prompt` or its
/// step's name: those are the ruleset's.)
pub const KERNEL_PROMPTS: &[KernelPrompt] = &[
    KernelPrompt {
        name: "replacement",
        doc: "which replacement effect applies to an operation, when several may or one is \
              optional: answer by label",
        options: &[
            KernelChoice {
                kind: "replacement",
                label: "apply {card id}",
                doc: "apply this card's replacement effect",
            },
            KernelChoice {
                kind: "replacement",
                label: "apply rule {n}",
                doc: "apply the rules' replacement `hooks.rule_abilities` lists n-th",
            },
            KernelChoice {
                kind: "decline",
                label: "decline",
                doc: "apply none (offered when all of them are optional)",
            },
        ],
    },
    KernelPrompt {
        name: "order_triggers",
        doc: "which of a player's triggered abilities waiting together resolves next (when \
              `triggers.player_orders` is on)",
        options: &[
            KernelChoice {
                kind: "trigger",
                label: "{card} ({event})",
                doc: "a card's ability and the event it answers",
            },
            KernelChoice {
                kind: "trigger",
                label: "rule ({event})",
                doc: "a rules' ability (`hooks.rule_abilities`)",
            },
        ],
    },
    KernelPrompt {
        name: DECLARE_PROMPT,
        doc: "with `loops: {declare: true}`: how many more times a loop the player can stop \
              runs (a number, 0 to `loops.max_count`; scenarios answer `number: N`)",
        options: &[],
    },
    KernelPrompt {
        name: "choose",
        doc: "`ctx:choose` or `ctx:choose_cards` without a prompt",
        options: &[],
    },
    KernelPrompt {
        name: "yes_no",
        doc: "`ctx:yes_no` without a prompt",
        options: &[],
    },
    KernelPrompt {
        name: "number",
        doc: "`ctx:choose_number` without a prompt (scenarios answer `number: N`)",
        options: &[],
    },
    KernelPrompt {
        name: "window",
        doc: "`ctx:window` without a prompt",
        options: &[],
    },
];

/// The options the kernel's question helpers build, whatever the prompt.
pub const HELPER_CHOICES: &[KernelChoice] = &[
    KernelChoice {
        kind: "card",
        label: "{card}",
        doc: "`ctx:choose_cards`: one option per card, labelled with its name (and its id \
              when another card has the same name: `card.label`); scenarios answer \
              `choose: {card: ID}`",
    },
    KernelChoice {
        kind: "yes",
        label: "yes",
        doc: "`ctx:yes_no`",
    },
    KernelChoice {
        kind: "no",
        label: "no",
        doc: "`ctx:yes_no`",
    },
];

/// The name of a request's prompt: the whole prompt, or what comes before its first `": "`
/// (the rest is text for people: `search: {Crew}` is prompt `search`).
pub fn prompt_name(prompt: &str) -> &str {
    prompt.split_once(": ").map_or(prompt, |(name, _)| name)
}

/// Whether `label` fits `template`, where each `{...}` of the template stands for any text
/// (possibly empty) and the rest must match exactly.
pub fn label_fits(template: &str, label: &str) -> bool {
    // Literal pieces between the placeholders, in order.
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        pieces.push(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    pieces.push(rest);
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return label == first;
    }
    if !label.starts_with(first) || label.len() < first.len() + last.len() {
        return false;
    }
    let mut at = first.len();
    let end = label.len() - last.len();
    if !label[end..].eq(last) {
        return false;
    }
    for p in &pieces[1..pieces.len() - 1] {
        match label[at..end].find(p) {
            Some(i) => at += i + p.len(),
            None => return false,
        }
    }
    true
}

/// Problems with the manifest's `evaluation`: a zone, value or characteristic the game does
/// not declare, or a weight that is not a finite number.
pub(crate) fn check_evaluation(m: &RulesetManifest) -> Vec<String> {
    let Some(e) = &m.evaluation else {
        return Vec::new();
    };
    let mut errors = Vec::new();
    let zone = |z: &str| m.zones.iter().any(|d| d.name == z);
    let mut weight = |at: String, w: f64| {
        if !w.is_finite() {
            errors.push(format!("{at}: the weight must be a finite number, not {w}"));
        }
    };
    for (z, w) in &e.zones {
        weight(format!("evaluation.zones.{z}"), *w);
    }
    for (v, w) in &e.players {
        weight(format!("evaluation.players.{v}"), *w);
    }
    for (i, c) in e.cards.iter().enumerate() {
        weight(format!("evaluation.cards[{i}]"), c.weight);
    }
    for z in e.zones.keys() {
        if !zone(z) {
            errors.push(format!("evaluation.zones: unknown zone '{z}'"));
        }
    }
    for v in e.players.keys() {
        let known =
            m.player_values.contains(v) || m.player_characteristics.iter().any(|c| &c.name == v);
        if !known {
            errors.push(format!(
                "evaluation.players: '{v}' is neither a player value nor a player characteristic of the game"
            ));
        }
    }
    for (i, c) in e.cards.iter().enumerate() {
        let int = m
            .characteristics
            .iter()
            .any(|ch| ch.name == c.value && ch.kind == crate::content::CharKind::Int);
        if !int && !m.counters.contains(&c.value) {
            errors.push(format!(
                "evaluation.cards[{i}]: '{}' is neither an integer characteristic nor a counter of the game",
                c.value
            ));
        }
        for z in &c.zones {
            if !zone(z) {
                errors.push(format!("evaluation.cards[{i}]: unknown zone '{z}'"));
            }
        }
    }
    errors
}

/// The fields every event's log line may name besides its declared ones.
pub const LOG_FIELDS: &[&str] = &["card", "target", "player", "reason", "key", "amount"];

/// Problems with the manifest's `log` and its events' log lines: a zone or an integer
/// characteristic the game does not declare, or a `{field}` an event does not carry.
pub(crate) fn check_log(m: &RulesetManifest) -> Vec<String> {
    let mut errors = Vec::new();
    let zone = |z: &str| m.zones.iter().any(|d| d.name == z);
    for z in &m.log.counts {
        if !zone(z) {
            errors.push(format!("log.counts: unknown zone '{z}'"));
        }
    }
    for (ch, zones) in &m.log.values {
        let int = m
            .characteristics
            .iter()
            .any(|c| &c.name == ch && c.kind == crate::content::CharKind::Int);
        if !int && !m.counters.contains(ch) {
            errors.push(format!(
                "log.values: '{ch}' is neither an integer characteristic nor a counter of the game"
            ));
        }
        for z in zones {
            if !zone(z) {
                errors.push(format!("log.values.{ch}: unknown zone '{z}'"));
            }
        }
    }
    for v in &m.log.players {
        let known =
            m.player_values.contains(v) || m.player_characteristics.iter().any(|c| &c.name == v);
        if !known {
            errors.push(format!(
                "log.players: '{v}' is neither a player value nor a player characteristic of the game"
            ));
        }
    }
    for a in &m.log.abilities {
        match m.events.iter().find(|e| e.name() == a) {
            Some(e) if e.log().is_some() => {}
            Some(_) => errors.push(format!(
                "log.abilities: the event '{a}' has no `log` line to tell the ability with"
            )),
            None => errors.push(format!(
                "log.abilities: no event '{a}' is declared in `events`"
            )),
        }
    }
    for a in &m.log.ability_ends {
        if !m.events.iter().any(|e| e.name() == a) {
            errors.push(format!(
                "log.ability_ends: no event '{a}' is declared in `events`"
            ));
        }
    }
    for (lang, l) in &m.log.languages {
        for (form, label) in &l.options {
            let known = |f: &&str| matches!(*f, "card" | "target" | "n");
            if let Some(f) = placeholders(form)
                .chain(placeholders(label))
                .find(|f| !known(f))
            {
                errors.push(format!(
                    "log.languages.{lang}.options.{form}: '{{{f}}}' is not one of {{card}}, {{target}}, {{n}}"
                ));
            }
        }
    }
    let check_line =
        |errors: &mut Vec<String>, e: &crate::content::EventDecl, at: &str, line: &str| {
            for field in placeholders(line) {
                let declared = e.fields().is_none_or(|f| f.contains_key(field));
                if !(LOG_FIELDS.contains(&field) || declared) {
                    errors.push(format!("{at}: '{{{field}}}' is not one of its fields"));
                }
            }
        };
    for e in &m.events {
        let Some(line) = e.log() else { continue };
        check_line(&mut errors, e, &format!("events.{}.log", e.name()), line);
    }
    for (lang, l) in &m.log.languages {
        for (name, line) in &l.events {
            let at = format!("log.languages.{lang}.events.{name}");
            match m.events.iter().find(|e| e.name() == name) {
                Some(e) if e.log().is_some() => check_line(&mut errors, e, &at, line),
                Some(_) => errors.push(format!(
                    "{at}: the event has no `log` line to translate: give it one in `events`"
                )),
                None => errors.push(format!("{at}: no event '{name}' is declared in `events`")),
            }
        }
    }
    errors
}

/// The `{name}`s of a log line or label template, in order.
pub fn placeholders(template: &str) -> impl Iterator<Item = &str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(name, _)| name))
}

/// Problems with the manifest's `prompts`: a name declared twice, empty, holding `": "` or
/// already the kernel's; and, once any is declared, an open phase or a window whose prompt
/// is not (they are the ruleset's questions too).
pub(crate) fn check_prompts(m: &RulesetManifest) -> Vec<String> {
    let mut errors = Vec::new();
    for (i, p) in m.prompts.iter().enumerate() {
        let at = format!("prompts.{}", p.name);
        if m.prompts[..i].iter().any(|q| q.name == p.name) {
            errors.push(format!("{at}: declared twice"));
        }
        if p.name.is_empty() || p.name.contains(": ") {
            errors.push(format!(
                "{at}: a prompt's name is not empty and holds no \": \" (what follows \": \" in a \
                 request's prompt is text for people, not part of its name)"
            ));
        }
        if KERNEL_PROMPTS.iter().any(|k| k.name == p.name) {
            errors.push(format!(
                "{at}: '{}' is one of the kernel's prompts; name the ruleset's own otherwise",
                p.name
            ));
        }
    }
    if m.prompts.is_empty() {
        return errors;
    }
    let declared = |name: &str| m.prompts.iter().any(|p| p.name == name);
    for ph in &m.turn.phases {
        let open = !ph.kinds.is_empty() || ph.actions.is_some();
        if open && !declared(&ph.name) {
            errors.push(format!(
                "turn.phases.{0}: an open phase asks with its name as the prompt: declare '{0}' \
                 in `prompts`",
                ph.name
            ));
        }
    }
    for pr in &m.procedures {
        for st in &pr.steps {
            let Some(w) = &st.window else { continue };
            let prompt = w.prompt.as_deref().unwrap_or(&st.name);
            if !declared(prompt) {
                errors.push(format!(
                    "procedures.{}.{}: the window asks with prompt '{prompt}': declare it in \
                     `prompts`",
                    pr.name, st.name
                ));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompts_name_is_what_comes_before_its_first_colon() {
        assert_eq!(prompt_name("search: {A}: b"), "search");
        assert_eq!(prompt_name("counter"), "counter");
        assert_eq!(prompt_name("a:b"), "a:b");
    }

    #[test]
    fn labels_fit_templates_whose_placeholders_stand_for_any_text() {
        assert!(label_fits(
            "attack {target} with {card}",
            "attack Bob with Al"
        ));
        assert!(label_fits("no more counters", "no more counters"));
        assert!(!label_fits("no more counters", "no more counter"));
        assert!(label_fits("{card}", "Anything at all"));
        assert!(label_fits("use {card} (cost {cost})", "use X (cost 2)"));
        assert!(!label_fits("use {card} (cost {cost})", "play X (cost 2)"));
        assert!(!label_fits("a {x} b", "a b"));
        assert!(label_fits("a {x}b", "a b"));
        assert!(!label_fits("{x} (y)", "(y"));
    }
}
