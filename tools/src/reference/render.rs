//! The reference of one game as Markdown: its events and their fields, its prompts, the
//! option kinds and labels, and its declared names, each with its line from `game.yaml`,
//! followed by the kernel's own from `riffle_core::vocabulary`.

use std::fmt::Write;

use riffle_core::vocabulary::{
    HELPER_CHOICES, KERNEL_EVENTS, KERNEL_PROMPTS, KernelChoice, LOG_EVENT,
};
use riffle_core::{ActionDecl, RulesetManifest};

/// Text safe in a Markdown table cell: `|` escaped, line breaks as spaces.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// `name` as code in a table cell.
fn code(s: &str) -> String {
    format!("`{}`", cell(s))
}

/// A field list: `card`: the attacker<br>`target`: ...
fn fields<'a>(list: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let out: Vec<String> = list
        .into_iter()
        .map(|(k, v)| format!("{}: {}", code(k), cell(v)))
        .collect();
    if out.is_empty() {
        "(none)".into()
    } else {
        out.join("<br>")
    }
}

/// Where the ruleset asks with prompt `name`: its open phase of that name, its windows with
/// that prompt (a window without one asks with its step's name).
pub(super) fn asked_in(m: &RulesetManifest, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for ph in &m.turn.phases {
        if ph.name == name && (!ph.kinds.is_empty() || ph.actions.is_some()) {
            out.push(format!("the open phase `{}`", ph.name));
        }
    }
    for pr in &m.procedures {
        for st in &pr.steps {
            if let Some(w) = &st.window
                && w.prompt.as_deref().unwrap_or(&st.name) == name
            {
                out.push(format!(
                    "the window `{}` of procedure `{}`",
                    st.name, pr.name
                ));
            }
        }
    }
    out
}

/// The action kinds (`actions` of the manifest) the phase or windows asking with prompt
/// `name` list, in their order.
pub(super) fn listed_actions<'m>(m: &'m RulesetManifest, name: &str) -> Vec<&'m ActionDecl> {
    let mut kinds: Vec<&str> = Vec::new();
    for ph in &m.turn.phases {
        if ph.name == name {
            kinds.extend(ph.kinds.iter().map(String::as_str));
        }
    }
    for pr in &m.procedures {
        for st in &pr.steps {
            if let Some(w) = &st.window
                && w.prompt.as_deref().unwrap_or(&st.name) == name
            {
                kinds.extend(w.kinds.iter().map(String::as_str));
            }
        }
    }
    kinds
        .iter()
        .filter_map(|k| m.actions.iter().find(|a| a.name == *k))
        .collect()
}

/// An action's option kind: its `kind`, or its name.
pub(super) fn action_kind(a: &ActionDecl) -> &str {
    a.kind.as_deref().unwrap_or(&a.name)
}

/// Where an action is offered: the open phases and windows whose `kinds` name it.
fn offered_in(m: &RulesetManifest, action: &str) -> Vec<String> {
    let mut out = Vec::new();
    for ph in &m.turn.phases {
        if ph.kinds.iter().any(|k| k == action) {
            out.push(format!("phase `{}` (prompt `{}`)", ph.name, ph.name));
        }
    }
    for pr in &m.procedures {
        for st in &pr.steps {
            if let Some(w) = &st.window
                && w.kinds.iter().any(|k| k == action)
            {
                out.push(format!(
                    "window `{}` of procedure `{}` (prompt `{}`)",
                    st.name,
                    pr.name,
                    w.prompt.as_deref().unwrap_or(&st.name)
                ));
            }
        }
    }
    out
}

fn kernel_choices(list: &[KernelChoice]) -> String {
    list.iter()
        .map(|c| format!("{} {}", code(c.kind), code(c.label)))
        .collect::<Vec<_>>()
        .join("<br>")
}

/// The reference of the game `m` declares, as Markdown. `source` names its `game.yaml` (a
/// path relative to the repository) in the header.
pub fn render(m: &RulesetManifest, source: &str) -> String {
    let mut o = String::new();
    let name = m.name.get("en").or_else(|| m.name.values().next());
    let title = name.map_or(m.game.as_str(), String::as_str);
    // Writing to a String cannot fail.
    let _ = write_all(&mut o, m, source, title);
    o
}

fn write_all(o: &mut String, m: &RulesetManifest, source: &str, title: &str) -> std::fmt::Result {
    writeln!(o, "# {title}: names for scripts and scenarios")?;
    writeln!(o)?;
    writeln!(
        o,
        "Generated from `{source}` and the kernel's tables (`core/src/vocabulary.rs`) by \
         `riffle docs --write`: do not edit; change those and run it again (a test fails \
         while this file differs from what they give)."
    )?;
    writeln!(o)?;
    writeln!(
        o,
        "The names a card script, a mod and a scenario use with this game, each with what \
         it means: the events abilities listen to and their fields, the prompts players \
         are asked with, the options they choose among, and the names the game declares. \
         The game's scripting guide shows how scripts use them ({guide}) and \
         [scenarios.md](../scenarios.md) how scenarios answer.",
        // One Piece's guide is the first and general one; another game's is its own.
        guide = if m.game == "onepiece" {
            "[scripting.md](../scripting.md)".to_string()
        } else {
            format!(
                "[scripting-{0}.md](../scripting-{0}.md), with [scripting.md](../scripting.md) \
                 for what every game shares",
                m.game
            )
        }
    )?;
    writeln!(o)?;
    writeln!(
        o,
        "Contents: [Events](#events) · [Prompts](#prompts) · \
         [Options](#options-kinds-and-labels) · [Declared names](#declared-names)"
    )?;
    events(o, m)?;
    prompts(o, m)?;
    options(o, m)?;
    declared(o, m)
}

fn events(o: &mut String, m: &RulesetManifest) -> std::fmt::Result {
    writeln!(o)?;
    writeln!(o, "## Events")?;
    writeln!(o)?;
    writeln!(
        o,
        "A triggered ability listens to an event by name (`on = \"attack_declared\"`, or \
         `on_event {{ on = ... }}`) and reads its fields as `ev.card`, `ev.target`... in \
         `when(ctx, ev)` and as `ctx.event` when it resolves. Every event also has `name` \
         and `source` (the card whose ability caused it; nil when the rules did). A \
         scenario checks events with `events: [{{name, <field>: ...}}]`: cards by id."
    )?;
    writeln!(o)?;
    writeln!(o, "### The game's events")?;
    writeln!(o)?;
    writeln!(
        o,
        "Emitted by the ruleset's Lua (`ctx:emit(name, {{fields}})`), declared in `game.yaml` \
         `events`. Where the fields are listed they are the only ones: an emit with another \
         is a script error. `player` is always set: the emitting script's player unless the \
         fields give one."
    )?;
    writeln!(o)?;
    if m.events.is_empty() {
        writeln!(o, "None.")?;
    } else {
        writeln!(o, "| event | when | fields |")?;
        writeln!(o, "|---|---|---|")?;
        for e in &m.events {
            let f = match e.fields() {
                Some(f) => fields(f.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
                None => "(not declared)".into(),
            };
            let doc = match e.log() {
                Some(line) => format!("{} (log: {})", cell(e.doc()), code(line)),
                None => cell(e.doc()),
            };
            writeln!(o, "| {} | {doc} | {f} |", code(e.name()))?;
        }
    }
    writeln!(o)?;
    writeln!(o, "### The kernel's events")?;
    writeln!(o)?;
    writeln!(
        o,
        "Every game has these. The log also holds `{LOG_EVENT}` events (`ctx:log(message)`: \
         field `message`), which no ability listens to."
    )?;
    writeln!(o)?;
    writeln!(o, "| event | when | fields |")?;
    writeln!(o, "|---|---|---|")?;
    for e in KERNEL_EVENTS {
        writeln!(
            o,
            "| {} | {} | {} |",
            code(e.name),
            cell(e.doc),
            fields(e.fields.iter().copied())
        )?;
    }
    Ok(())
}

fn prompts(o: &mut String, m: &RulesetManifest) -> std::fmt::Result {
    writeln!(o)?;
    writeln!(o, "## Prompts")?;
    writeln!(o)?;
    writeln!(
        o,
        "Each request names what it asks with its `prompt`: one of the names below, or a \
         name, `\": \"` and text for people (`pick: <what is chosen>` is prompt `pick`). \
         A scenario checks it with `expect: {{request: {{prompt: ...}}}}` (the whole prompt) \
         and answers with `choose:` (a label, or `{{kind, card, target}}`; see \
         [Options](#options-kinds-and-labels)) or, for a number, `number: N`. Card scripts \
         may ask with prompts of their own."
    )?;
    writeln!(o)?;
    writeln!(o, "### The game's prompts")?;
    writeln!(o)?;
    if m.prompts.is_empty() {
        writeln!(
            o,
            "None declared (`game.yaml` `prompts`). Its open phases ask with their names, its \
             windows with their `prompt` or their step's name."
        )?;
    } else {
        writeln!(o, "| prompt | asks | asked in | options |")?;
        writeln!(o, "|---|---|---|---|")?;
        for p in &m.prompts {
            let mut opts: Vec<String> = listed_actions(m, &p.name)
                .iter()
                .map(|a| format!("{} {}", code(action_kind(a)), code(&a.label)))
                .collect();
            opts.extend(
                p.options
                    .iter()
                    .map(|c| format!("{} {}", code(&c.kind), code(&c.label))),
            );
            // Two actions may share a kind and a label (one menu entry, two card categories).
            let mut seen = std::collections::HashSet::new();
            opts.retain(|x| seen.insert(x.clone()));
            let opts = if opts.is_empty() {
                "the kernel's (see [its options](#the-kernels-options)), or a number".to_string()
            } else {
                opts.join("<br>")
            };
            let inn = asked_in(m, &p.name);
            let inn = if inn.is_empty() {
                "the ruleset's Lua".to_string()
            } else {
                inn.join("<br>")
            };
            writeln!(
                o,
                "| {} | {} | {inn} | {opts} |",
                code(&p.name),
                cell(&p.doc)
            )?;
        }
    }
    writeln!(o)?;
    writeln!(o, "### The kernel's prompts")?;
    writeln!(o)?;
    writeln!(
        o,
        "The kernel asks these itself, or gives them to a script's question that names no \
         prompt."
    )?;
    writeln!(o)?;
    writeln!(o, "| prompt | asks | options |")?;
    writeln!(o, "|---|---|---|")?;
    for p in KERNEL_PROMPTS {
        let opts = if p.options.is_empty() {
            "the caller's".to_string()
        } else {
            kernel_choices(p.options)
        };
        writeln!(o, "| {} | {} | {opts} |", code(p.name), cell(p.doc))?;
    }
    Ok(())
}

fn options(o: &mut String, m: &RulesetManifest) -> std::fmt::Result {
    writeln!(o)?;
    writeln!(o, "## Options: kinds and labels")?;
    writeln!(o)?;
    writeln!(
        o,
        "Each option of a choice has a `kind` (what it does) and a `label` (what people \
         read). In a label `{{card}}` and `{{target}}` stand for card names, `{{value}}` for \
         the cost, `{{<characteristic>}}` for the card's value of it, and any other `{{...}}` \
         for a name or a number. A scenario answers by label (`choose: \"end main phase\"`, \
         or a label's start) or by kind and cards (`choose: {{kind: attack, card: ID, \
         target: ID}}`)."
    )?;
    writeln!(o)?;
    writeln!(o, "### Actions the kernel lists (`game.yaml` `actions`)")?;
    writeln!(o)?;
    if m.actions.is_empty() {
        writeln!(o, "None.")?;
    } else {
        writeln!(o, "| kind | action | label | offered in |")?;
        writeln!(o, "|---|---|---|---|")?;
        for a in &m.actions {
            let inn = offered_in(m, &a.name);
            let inn = if inn.is_empty() {
                "no phase or window lists it".to_string()
            } else {
                inn.join("<br>")
            };
            let ends = if a.ends_phase {
                " (ends the phase; in a window, passes)"
            } else {
                ""
            };
            writeln!(
                o,
                "| {} | {} | {}{ends} | {inn} |",
                code(action_kind(a)),
                code(&a.name),
                code(&a.label)
            )?;
        }
    }
    writeln!(o)?;
    writeln!(
        o,
        "### Options the game's Lua builds (`game.yaml` `prompts`)"
    )?;
    writeln!(o)?;
    let built: Vec<_> = m
        .prompts
        .iter()
        .flat_map(|p| p.options.iter().map(move |c| (p, c)))
        .collect();
    if built.is_empty() {
        writeln!(o, "None declared.")?;
    } else {
        writeln!(o, "| kind | label | prompt | meaning |")?;
        writeln!(o, "|---|---|---|---|")?;
        for (p, c) in built {
            writeln!(
                o,
                "| {} | {} | {} | {} |",
                code(&c.kind),
                code(&c.label),
                code(&p.name),
                cell(&c.doc)
            )?;
        }
    }
    writeln!(o)?;
    writeln!(o, "### The kernel's options")?;
    writeln!(o)?;
    writeln!(o, "| kind | label | prompt | meaning |")?;
    writeln!(o, "|---|---|---|---|")?;
    for c in HELPER_CHOICES {
        writeln!(
            o,
            "| {} | {} | any | {} |",
            code(c.kind),
            code(c.label),
            cell(c.doc)
        )?;
    }
    for p in KERNEL_PROMPTS {
        for c in p.options {
            writeln!(
                o,
                "| {} | {} | {} | {} |",
                code(c.kind),
                code(c.label),
                code(p.name),
                cell(c.doc)
            )?;
        }
    }
    Ok(())
}

/// A table of names with their lines (a name without one shows none).
fn named<'a>(
    o: &mut String,
    title: &str,
    what: &str,
    list: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> std::fmt::Result {
    let list: Vec<_> = list.into_iter().collect();
    if list.is_empty() {
        return Ok(());
    }
    writeln!(o)?;
    writeln!(o, "### {title}")?;
    writeln!(o)?;
    writeln!(o, "{what}")?;
    writeln!(o)?;
    writeln!(o, "| name | meaning |")?;
    writeln!(o, "|---|---|")?;
    for (n, d) in list {
        writeln!(o, "| {} | {} |", code(n), cell(d))?;
    }
    Ok(())
}

/// A one-line list of plain names, when there are any.
fn plain(o: &mut String, title: &str, list: &[String]) -> std::fmt::Result {
    if list.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = list.iter().map(|n| format!("`{n}`")).collect();
    writeln!(o, "- {title}: {}", names.join(", "))
}

fn declared(o: &mut String, m: &RulesetManifest) -> std::fmt::Result {
    writeln!(o)?;
    writeln!(o, "## Declared names")?;
    writeln!(o)?;
    writeln!(
        o,
        "Scripts name these as strings; a misspelt one is an error that lists the declared \
         ones."
    )?;
    writeln!(o)?;
    writeln!(o, "### Zones")?;
    writeln!(o)?;
    writeln!(o, "| zone | one per | visible to | | what |")?;
    writeln!(o, "|---|---|---|---|---|")?;
    for z in &m.zones {
        let mut notes = Vec::new();
        if z.ordered {
            notes.push("ordered".to_string());
        }
        if z.in_play {
            notes.push("in play".to_string());
        }
        if let Some(c) = z.capacity {
            notes.push(format!("at most {c}"));
        }
        if z.face_down {
            notes.push("face down".to_string());
        }
        let scope = serde_json::to_value(z.scope).unwrap_or_default();
        let vis = serde_json::to_value(z.visibility).unwrap_or_default();
        writeln!(
            o,
            "| {} | {} | {} | {} | {} |",
            code(&z.name),
            scope.as_str().unwrap_or(""),
            vis.as_str().unwrap_or(""),
            notes.join(", "),
            cell(&z.doc)
        )?;
    }
    named(
        o,
        "Keywords",
        "Plain keywords cards list as data (`keywords: [...]`); `grant` and `gains` give them \
         too.",
        m.keywords.iter().map(|k| (k.name.as_str(), k.doc.as_str())),
    )?;
    named(
        o,
        "Timings",
        "Activated abilities' `timing`.",
        m.timings.iter().map(|t| (t.name(), t.doc())),
    )?;
    named(
        o,
        "Durations",
        "The points at which effects end (`until` of a duration, `ctx:expire`).",
        m.durations.iter().map(|d| (d.name(), d.doc())),
    )?;
    writeln!(o)?;
    writeln!(o, "### Other names")?;
    writeln!(o)?;
    plain(o, "categories", &m.categories)?;
    let chars: Vec<String> = m.characteristics.iter().map(|c| c.name.clone()).collect();
    plain(o, "characteristics", &chars)?;
    plain(o, "orientations", &m.orientations)?;
    plain(o, "counters", &m.counters)?;
    plain(o, "flags", &m.flags)?;
    plain(o, "player values", &m.player_values)?;
    let pchars: Vec<String> = m
        .player_characteristics
        .iter()
        .map(|c| c.name.clone())
        .collect();
    plain(o, "player characteristics", &pchars)?;
    plain(o, "game values", &m.game_values)?;
    plain(o, "effect tags", &m.effect_tags)?;
    let procs: Vec<String> = m.procedures.iter().map(|p| p.name.clone()).collect();
    plain(o, "procedures", &procs)?;
    let phases: Vec<String> = m.turn.phases.iter().map(|p| p.name.clone()).collect();
    plain(o, "phases", &phases)
}
