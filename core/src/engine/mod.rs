//! The engine: content compiled once (rules, cards, the Lua VM with every script loaded),
//! shared by all the games it runs.

use std::collections::HashSet;

use rustc_hash::FxHashMap;
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value};

use crate::card_index::CardIndex;
use crate::content::{
    ActionDecl, CheckReads, CheckTime, CheckWhen, Content, DeckList, OptionValue, Options,
    PlayersCondition, Selector, Source, Whose,
};
use crate::db::{
    AbilityOutline, ActionDoes, ActionKind, CardCheck, CardSel, CheckFns, CheckMarks, CheckTest,
    Counted, Db, Hooks, LabelPart, PhaseFns, PlayerCheck, PlayerSel, ProcedureFns, StepFn, StepFns,
    WindowFns, parse_ability,
};
use crate::names::{Interning, Names};
use crate::rules::Rules;
use crate::sandbox::freeze::freeze;
use crate::sandbox::source_checks::{GlobalRead, StringArg};
use crate::sandbox::vm::new_vm;
use crate::state::PlayerId;
use crate::state::seats::Seats;

mod cards;
mod indexes;
mod legality;
mod reload;

use cards::CardCompiler;
use indexes::AbilityIndexes;
pub use legality::{CardLegality, CountedBy};
pub use reload::{CardChange, ReloadError, Reloaded};

/// A problem found while loading content into the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file at fault, when known.
    pub file: Option<String>,
    /// The line, when known.
    pub line: Option<u32>,
    /// The column, when known (1 otherwise).
    pub col: Option<u32>,
    /// The card at fault, when it is one.
    pub card: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}:{}: ", self.col.unwrap_or(1))?,
            (Some(file), None) => write!(f, "{file}:1:1: ")?,
            _ => {}
        }
        write!(f, "{}", self.message)?;
        if let Some(c) = &self.card {
            write!(f, " (card {c})")?;
        }
        Ok(())
    }
}

/// The items of a vector in order, reversed beforehand: taken from its end, with its buffer
/// halved whenever half of it is free. Each card definition moves into the engine's card
/// data, and the buffer of those moved out need not be held until the last one has.
struct Shrinking<T>(Vec<T>);

impl<T> Iterator for Shrinking<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let item = self.0.pop();
        if self.0.len() < self.0.capacity() / 2 {
            self.0.shrink_to_fit();
        }
        item
    }
}

/// How many cards are compiled between two collections of the VM's garbage while content
/// loads: about half a megabyte of it. Against 500, the peak of validating 10,000 cards was
/// 0.4 MiB lower for the same time (5 pairs).
const CARDS_PER_COLLECTION: usize = 200;

/// Compiled content, ready to run games.
pub struct Engine {
    pub(crate) lua: Lua,
    pub(crate) db: Rc<Db>,
    /// What compiles a card script: a hot reload compiles changed cards with it (the
    /// database loads cards' scripts with it too).
    compiler: Rc<CardCompiler>,
    /// The engine a hot reload made from this one (`reload.rs`): games move to it at their
    /// next quiescent decision.
    pub(crate) next: std::cell::RefCell<Option<Rc<Engine>>>,
    /// The cards this engine changed from the one it was made from.
    reloaded: Vec<reload::Reloaded>,
    /// A reload made this engine or one from it: its VM is shared with another engine, so a
    /// game makes its own engine's cards the VM's before it runs.
    chained: std::cell::Cell<bool>,
}

fn err(file: Option<&str>, card: Option<&str>, message: String) -> LoadError {
    // Lua messages start with "file:line:" when they come from a chunk; errors raised from
    // Rust have no prefix, and then the traceback's first frame in the file has the line.
    let (head, trace) = match message.find("\nstack traceback") {
        Some(i) => (&message[..i], &message[i..]),
        None => (message.as_str(), ""),
    };
    let line_at = |text: &str| -> Option<(u32, usize)> {
        let f = file?;
        let i = text.find(&format!("{f}:"))?;
        let rest = &text[i + f.len() + 1..];
        let (n, _) = rest.split_once(':')?;
        Some((n.trim().parse().ok()?, i + f.len() + 1 + n.len() + 1))
    };
    let (line, msg) = match line_at(head) {
        Some((n, end)) => (Some(n), head[end..].trim().to_string()),
        None => (line_at(trace).map(|(n, _)| n), head.trim().to_string()),
    };
    let msg = msg
        .strip_prefix("runtime error: ")
        .unwrap_or(&msg)
        .to_string();
    LoadError {
        file: file.map(String::from),
        line,
        col: None,
        card: card.map(String::from),
        message: msg,
    }
}

/// The index of integer characteristic `ch`.
fn int_char(rules: &Rules, names: &Names, ch: &str) -> Result<usize, String> {
    rules
        .char_index(names, ch)
        .filter(|i| rules.chars[*i].decl.kind == crate::content::CharKind::Int)
        .ok_or_else(|| format!("'{ch}' is not an integer characteristic"))
}

/// A label template in pieces: `{card}`, `{target}`, `{value}` and `{<int characteristic>}`.
fn label_parts(rules: &Rules, names: &Names, label: &str) -> Result<Vec<LabelPart>, String> {
    let mut out = Vec::new();
    let mut rest = label;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else {
            break;
        };
        if i > 0 {
            out.push(LabelPart::Text(rest[..i].to_string()));
        }
        let name = &rest[i + 1..i + j];
        out.push(match name {
            "card" => LabelPart::Card,
            "target" => LabelPart::Target,
            "value" => LabelPart::Value,
            "target_controller" => LabelPart::TargetController,
            ch => LabelPart::Char(int_char(rules, names, ch).map_err(|e| {
                format!("label '{label}': {{{ch}}} is not card, target, target_controller, value or an integer characteristic ({e})")
            })?),
        });
        rest = &rest[i + j + 1..];
    }
    if !rest.is_empty() {
        out.push(LabelPart::Text(rest.to_string()));
    }
    Ok(out)
}

/// A selector with its names resolved.
fn card_sel(rules: &Rules, names: &Names, s: &Selector) -> Result<CardSel, String> {
    let mut zones = Vec::new();
    for z in &s.zones {
        zones.push(rules.zone_index(names, z)?);
    }
    let mut categories = Vec::new();
    for c in &s.categories {
        let i = Rules::lookup(names, &rules.categories, c)?;
        categories.push(rules.categories.syms[i]);
    }
    let orientation = match &s.orientation {
        Some(o) => Some(rules.orientations.syms[Rules::lookup(names, &rules.orientations, o)?]),
        None => None,
    };
    let names_of = |m: &std::collections::BTreeMap<String, Vec<String>>| {
        let mut out = Vec::new();
        for (ch, list) in m {
            let ci = rules
                .char_index(names, ch)
                .filter(|i| rules.chars[*i].decl.kind == crate::content::CharKind::Set)
                .ok_or_else(|| format!("'{ch}' is not a set characteristic"))?;
            let mut syms = Vec::new();
            for n in list {
                // A name nothing declares could never be held: a typo, not a rule.
                syms.push(names.get(n).ok_or_else(|| {
                    format!("'{ch}': no card can hold '{n}' (a name no content declares)")
                })?);
            }
            out.push((ci, syms));
        }
        Ok::<_, String>(out)
    };
    let any_orientation_if_card_has = names_of(&s.any_orientation_if_card_has)?;
    if !any_orientation_if_card_has.is_empty() && orientation.is_none() {
        return Err(
            "`any_orientation_if_card_has` goes with an `orientation` (that it lifts)".into(),
        );
    }
    let template = |l: &Option<String>| {
        l.as_deref()
            .map(|l| label_parts(rules, names, l))
            .transpose()
    };
    Ok(CardSel {
        zones,
        of: s.of,
        categories,
        orientation,
        without: names_of(&s.without)?,
        entered_before_this_turn: s.entered_before_this_turn,
        unless_it_has: names_of(&s.unless_it_has)?,
        if_card_has: names_of(&s.if_card_has)?,
        players: None,
        without_attachments: s.without_attachments,
        any_orientation_if_card_has,
        label: template(&s.label)?,
        label_several: template(&s.label_if_several_opponents)?,
    })
}

/// A target selector: cards (`card_sel`), or players (`players`: a relation, or a Lua
/// function `need` resolves; None when that function is missing, already reported).
fn target_sel(
    rules: &Rules,
    names: &Names,
    s: &Selector,
    need: &mut impl FnMut(&str) -> Option<Function>,
) -> Result<Option<CardSel>, String> {
    let mut sel = card_sel(rules, names, s)?;
    let Some(p) = &s.players else {
        if s.zones.is_empty() {
            return Err("`targets`: a selector needs `zones` (cards) or `players`".into());
        }
        return Ok(Some(sel));
    };
    if !s.zones.is_empty() {
        return Err("`targets`: a selector takes `zones` (cards) or `players`, not both".into());
    }
    let without_teams = s
        .players_without_teams
        .as_deref()
        .map(relation)
        .transpose()?;
    sel.players = Some(match (relation(p), without_teams) {
        (_, None) if p == "opposing_teams" => PlayerSel::OpposingTeams,
        (Ok(w), None) => PlayerSel::Whose(w),
        (Ok(_), Some(_)) => {
            return Err("`players_without_teams` goes with `players` a Lua function".into());
        }
        (_, Some(_)) if p == "opposing_teams" => {
            return Err("`players_without_teams` goes with `players` a Lua function".into());
        }
        (Err(_), w) => match need(p) {
            Some(f) => PlayerSel::Lua(f, w),
            None => return Ok(None),
        },
    });
    Ok(Some(sel))
}

/// A relation of players to the acting player, by its name in a selector.
fn relation(name: &str) -> Result<Whose, String> {
    Ok(match name {
        "self" => Whose::Own,
        "allies" => Whose::Allies,
        "opponents" => Whose::Opponents,
        "any" => Whose::Any,
        other => {
            return Err(format!(
                "`players_without_teams`: '{other}' is none of self, allies, opponents, any"
            ));
        }
    })
}

/// An action kind with its names resolved (None when a function it names is missing: that
/// error is already reported).
fn action_kind(
    rules: &Rules,
    names: &Names,
    manifest: &crate::content::RulesetManifest,
    a: &ActionDecl,
    need: &mut impl FnMut(&str) -> Option<Function>,
) -> Result<Option<ActionKind>, String> {
    // `if_card_has` reads the acting card: it means something for targets only; so do a
    // selector's players and labels.
    for (what, s) in [("cards", a.cards.as_ref()), ("needs", a.needs.as_ref())]
        .into_iter()
        .chain([("cost.payable", a.cost.as_ref().map(|c| &c.payable))])
        .chain([("requires.count", a.requires.as_ref().map(|c| &c.count))])
    {
        let Some(s) = s else { continue };
        for (field, used) in [
            ("if_card_has", !s.if_card_has.is_empty()),
            (
                "any_orientation_if_card_has",
                !s.any_orientation_if_card_has.is_empty(),
            ),
            ("players", s.players.is_some()),
            ("players_without_teams", s.players_without_teams.is_some()),
            ("label", s.label.is_some()),
            (
                "label_if_several_opponents",
                s.label_if_several_opponents.is_some(),
            ),
        ] {
            if used {
                return Err(format!("`{what}`: `{field}` is for `targets`"));
            }
        }
        if s.zones.is_empty() {
            return Err(format!("`{what}`: a selector needs `zones`"));
        }
    }
    let cards = a
        .cards
        .as_ref()
        .map(|s| card_sel(rules, names, s))
        .transpose()?;
    let mut targets = Vec::new();
    for t in &a.targets {
        match target_sel(rules, names, t, need)? {
            Some(t) => targets.push(t),
            None => return Ok(None),
        }
    }
    if cards.is_none()
        && targets
            .iter()
            .any(|t| !t.if_card_has.is_empty() || !t.any_orientation_if_card_has.is_empty())
    {
        return Err("`targets`: `if_card_has` needs `cards` (the acting card it reads)".into());
    }
    let needs = a
        .needs
        .as_ref()
        .map(|s| card_sel(rules, names, s))
        .transpose()?;
    let cost = match &a.cost {
        Some(c) => {
            let ci = int_char(rules, names, &c.value).map_err(|e| format!("`cost.value`: {e}"))?;
            if cards.is_none() {
                return Err("a `cost` needs `cards` (whose value is the cost)".into());
            }
            Some((ci, card_sel(rules, names, &c.payable)?))
        }
        None => None,
    };
    let requires = match &a.requires {
        Some(r) => {
            let ci =
                int_char(rules, names, &r.value).map_err(|e| format!("`requires.value`: {e}"))?;
            if cards.is_none() {
                return Err("`requires` needs `cards` (whose value is required)".into());
            }
            Some((ci, card_sel(rules, names, &r.count)?))
        }
        None => None,
    };
    let with_ability = match &a.with_ability {
        Some(_) if cards.is_none() => {
            return Err("`with_ability` needs `cards` (whose abilities are looked at)".into());
        }
        Some(t) => Some(rules.timings.syms[Rules::lookup(names, &rules.timings, t)?]),
        None => None,
    };
    let does = match (&a.run, &a.procedure) {
        (None, None) if a.ends_phase => ActionDoes::EndsPhase,
        _ if a.ends_phase => {
            return Err("an action that ends the phase has no `run` or `procedure`".into());
        }
        (Some(run), None) => match need(run) {
            Some(f) => ActionDoes::Run(f),
            None => return Ok(None),
        },
        (None, Some(p)) => {
            if !manifest.procedures.iter().any(|q| &q.name == p) {
                return Err(format!("no procedure '{p}' is declared"));
            }
            let data = a.data.iter().map(|(k, v)| (k.clone(), *v)).collect();
            ActionDoes::Procedure {
                name: p.clone(),
                data,
            }
        }
        _ => return Err("give either `run` or `procedure`".into()),
    };
    let allowed = a.allowed.as_deref().and_then(&mut *need);
    let condition = a.condition.as_deref().and_then(&mut *need);
    let target_condition = a.target_condition.as_deref().and_then(&mut *need);
    if target_condition.is_some() && a.targets.is_empty() {
        return Err("`target_condition` needs `targets` (the pairs it is asked of)".into());
    }
    let target_condition_while = match &a.target_condition_while {
        Some(_) if a.target_condition.is_none() => {
            return Err("`target_condition_while` goes with a `target_condition`".into());
        }
        Some(t) => Some(rules.timings.syms[Rules::lookup(names, &rules.timings, t)?]),
        None => None,
    };
    let abilities = match &a.abilities {
        Some(t) => {
            let i = Rules::lookup(names, &rules.timings, t)?;
            if a.cards.is_some() {
                return Err("an action lists `abilities` or `cards`, not both".into());
            }
            Some(rules.timings.syms[i])
        }
        None => None,
    };
    let mut abilities_in = Vec::new();
    for z in &a.abilities_in {
        abilities_in.push(rules.zone_index(names, z)?);
    }
    Ok(Some(ActionKind {
        kind: a.kind.clone().unwrap_or_else(|| a.name.clone()),
        abilities,
        abilities_in,
        name: a.name.clone(),
        cards,
        targets,
        needs,
        cost,
        requires,
        with_ability,
        unless_player_has: a
            .unless_player_has
            .iter()
            .map(|n| names.get(n).expect("interned with the rules"))
            .collect(),
        from_own_turn: a.from_own_turn.unwrap_or(0),
        allowed,
        condition,
        target_condition,
        target_condition_while,
        label: label_parts(rules, names, &a.label)?,
        at_least: {
            let mut out = Vec::new();
            for (ch, min) in &a.at_least {
                out.push((int_char(rules, names, ch)?, *min));
            }
            out
        },
        does,
    }))
}

/// Notes what check number `bit` reads (`reads`) in `marks`.
fn check_reads(
    rules: &Rules,
    names: &Names,
    reads: &CheckReads,
    bit: usize,
    marks: &mut CheckMarks,
) -> Result<(), String> {
    if bit >= 64 {
        return Err("at most the first 64 checks may declare what they read".into());
    }
    let b = 1u64 << bit;
    marks.declared |= b;
    for z in &reads.zones {
        marks.zones[rules.zone_index(names, z)?] |= b;
    }
    for v in &reads.values {
        // A player value, a game value, or both of that name.
        let p = Rules::lookup(names, &rules.player_values, v);
        let g = Rules::lookup(names, &rules.game_values, v);
        if let Ok(i) = p {
            marks.player_values[i] |= b;
        }
        if let Ok(i) = g {
            marks.game_values[i] |= b;
        }
        if let (Err(m), Err(_)) = (p, g) {
            return Err(m.replace("player value", "player or game value"));
        }
    }
    for c in &reads.counters {
        marks.counters[Rules::lookup(names, &rules.counters, c)?] |= b;
    }
    for f in &reads.flags {
        marks.flags[Rules::lookup(names, &rules.flags, f)?] |= b;
    }
    for p in &reads.parts {
        marks.parts[*p as usize] |= b;
    }
    Ok(())
}

/// A check condition the kernel tests itself, with its names resolved.
fn players_check(rules: &Rules, names: &Names, pc: &PlayersCondition) -> Result<CheckTest, String> {
    let mut any = Vec::new();
    for t in &pc.any_player {
        let what = match (&t.count, &t.value) {
            (Some(z), None) => Counted::Zone(rules.zone_index(names, z)?),
            (None, Some(v)) => Counted::Value(Rules::lookup(names, &rules.player_values, v)?),
            _ => {
                return Err(
                    "each test names either a zone (`count`) or a player value (`value`)".into(),
                );
            }
        };
        if t.at_least.is_none() && t.at_most.is_none() {
            return Err("each test needs `at_least` or `at_most`".into());
        }
        any.push(PlayerCheck {
            what,
            at_least: t.at_least,
            at_most: t.at_most,
        });
    }
    let mut cards = Vec::new();
    for t in &pc.any_card {
        let mut zones = Vec::new();
        for z in &t.zones {
            zones.push(rules.zone_index(names, z)?);
        }
        let counter = Rules::lookup(names, &rules.counters, &t.counter)?;
        let reaches = match &t.reaches {
            Some(ch) => Some(int_char(rules, names, ch)?),
            None => None,
        };
        if t.at_least.is_none() == reaches.is_none() {
            return Err(
                "each card test needs one of `at_least` (a number) and `reaches` (an \
                        integer characteristic)"
                    .into(),
            );
        }
        let unless_flag = match &t.unless_flag {
            Some(f) => Some(Rules::lookup(names, &rules.flags, f)? as u32),
            None => None,
        };
        cards.push(CardCheck {
            zones,
            counter,
            at_least: t.at_least,
            reaches,
            unless_flag,
        });
    }
    if any.is_empty() && cards.is_empty() {
        return Err("a condition needs tests: `any_player`, `any_card` or both".into());
    }
    Ok(CheckTest::Players {
        from_turn: pc.from_turn,
        any,
        cards,
    })
}

/// A window's `{turn_order, by_option}` players, its options and their values checked.
fn turn_order_seats(
    t: &crate::content::TurnOrderSeats,
    options: &[crate::content::OptionDecl],
) -> Result<crate::db::WindowSeats, String> {
    use crate::content::TurnOrderStart;
    let mut by_option = Vec::new();
    for b in &t.by_option {
        let Some(i) = options.iter().position(|o| o.name == b.option) else {
            return Err(format!(
                "`by_option` names no declared option '{}'",
                b.option
            ));
        };
        let value = crate::rules::option_value(&options[i], &b.is)?;
        by_option.push((i, value, b.turn_order == TurnOrderStart::Next));
    }
    Ok(crate::db::WindowSeats::TurnOrder {
        next: t.turn_order == TurnOrderStart::Next,
        by_option,
    })
}

/// The declared procedures with their functions; a step must do one thing, and names must
/// be unique (a step's `run` jumps to a step by name).
fn procedure_fns(
    lua: &Lua,
    decls: &[crate::content::ProcedureDecl],
    actions: &[ActionDecl],
    options: &[crate::content::OptionDecl],
    errors: &mut Vec<LoadError>,
) -> Vec<ProcedureFns> {
    let mut out: Vec<ProcedureFns> = Vec::new();
    for p in decls {
        let mut problems = Vec::new();
        let mut window_problems = Vec::new();
        if out.iter().any(|q| q.name == p.name) {
            problems.push("declared twice".to_string());
        }
        let mut steps: Vec<StepFns> = Vec::new();
        for s in &p.steps {
            if steps.iter().any(|t| t.name == s.name) || s.name == "stop" {
                problems.push(format!(
                    "step '{}': the name is taken (step names are unique; `stop` is reserved)",
                    s.name
                ));
            }
            let mut need = |path: &str| match global_fn(lua, path) {
                Ok(f) => Some(f),
                Err(m) => {
                    problems.push(format!("step '{}': {m}", s.name));
                    None
                }
            };
            let stop_unless = match &s.stop_unless {
                None => None,
                Some(crate::content::StopUnless::Function(f)) => {
                    need(f).map(crate::db::StopTest::Lua)
                }
                Some(crate::content::StopUnless::Tests(t)) => {
                    Some(crate::db::StopTest::Alive(t.alive.clone()))
                }
            };
            let does = match (&s.run, &s.window) {
                (Some(run), None) => need(run).map(StepFn::Run),
                (None, Some(w)) => {
                    let mut kinds = Vec::new();
                    for k in &w.kinds {
                        match actions.iter().position(|a| &a.name == k) {
                            Some(i) => kinds.push(i),
                            None => window_problems.push(format!(
                                "step '{}' lists action '{k}', which `actions` does not declare",
                                s.name
                            )),
                        }
                    }
                    if w.actions.is_none() && w.kinds.is_empty() {
                        window_problems.push(format!(
                            "step '{}': a window needs `actions` or `kinds`",
                            s.name
                        ));
                    }
                    let listed = match &w.actions {
                        Some(a) => need(a).map(Some),
                        None => Some(None),
                    };
                    let seats = match &w.players {
                        crate::content::WindowPlayers::Function(f) => {
                            need(f).map(crate::db::WindowSeats::Lua)
                        }
                        crate::content::WindowPlayers::Record(r) => Some(
                            crate::db::WindowSeats::ControllerOf(r.controller_of.clone()),
                        ),
                        crate::content::WindowPlayers::TurnOrder(t) => {
                            match turn_order_seats(t, options) {
                                Ok(seats) => Some(seats),
                                Err(e) => {
                                    window_problems.push(format!("step '{}': {e}", s.name));
                                    None
                                }
                            }
                        }
                        crate::content::WindowPlayers::Side(side) => {
                            Some(crate::db::WindowSeats::SideOf(side.side_of.clone()))
                        }
                    };
                    match (seats, listed) {
                        (Some(players), Some(actions)) => Some(StepFn::Window(WindowFns {
                            players,
                            model: w.model,
                            actions,
                            kinds,
                            prompt: w.prompt.clone().unwrap_or_else(|| s.name.clone()),
                            auto_pass: w.auto_pass,
                        })),
                        _ => None,
                    }
                }
                _ => None,
            };
            if s.run.is_some() == s.window.is_some() {
                problems.push(format!(
                    "step '{}' needs either `run` or `window`, not both or neither",
                    s.name
                ));
            }
            if let Some(does) = does {
                steps.push(StepFns {
                    name: s.name.clone(),
                    does,
                    always: s.always,
                    stop_unless,
                });
            }
        }
        for m in problems.into_iter().chain(window_problems) {
            errors.push(err(
                None,
                None,
                format!("game.yaml: procedure '{}': {m}", p.name),
            ));
        }
        out.push(ProcedureFns {
            name: p.name.clone(),
            steps,
        });
    }
    out
}

/// What reading a script's source finds before it runs: locals of its top level that its
/// functions reassign (state that would last from one game to the next: refused), and the
/// globals it reads (checked by [`unknown_names`] once every name is defined).
fn read_source(src: &Source, card: Option<&str>) -> (Vec<LoadError>, Vec<GlobalRead>) {
    let (errors, reads, _) = read_source_strings(src, card);
    (errors, reads)
}

/// [`read_source`], and the string literals given to calls (a card's are checked against
/// the game's keywords: [`cards::keyword_typos`]).
fn read_source_strings(
    src: &Source,
    card: Option<&str>,
) -> (Vec<LoadError>, Vec<GlobalRead>, Vec<StringArg>) {
    let error = |line: Option<u32>, message: String| LoadError {
        file: Some(src.name.clone()),
        line,
        col: None,
        card: card.map(String::from),
        message,
    };
    // Read by the loader's `prepare_script` when it checked this text, else now.
    match crate::sandbox::syntax::source_facts(&src.text) {
        Ok(facts) => {
            let lasting = facts.lasting.into_iter();
            (
                lasting
                    .map(|a| error(Some(a.line), a.to_string()))
                    .collect(),
                facts.reads,
                facts.strings,
            )
        }
        // Luau reports its own syntax errors; a source Luau reads but the checks cannot is
        // refused rather than left unchecked.
        Err(m) if crate::sandbox::syntax::check_syntax(src).is_ok() => (
            vec![error(
                None,
                format!(
                    "this script uses syntax the source checks cannot read ({m}): please report it"
                ),
            )],
            Vec::new(),
            Vec::new(),
        ),
        Err(_) => (Vec::new(), Vec::new(), Vec::new()),
    }
}

/// A global a script reads that nothing defines would fail only when its line runs, maybe
/// in no test and one game in a thousand: an error at load instead, once per name at its
/// first read, with the nearest defined name. `scopes` are where names are defined, the
/// script's own environment first and the globals last.
fn unknown_names(
    src: &Source,
    card: Option<&str>,
    reads: &[GlobalRead],
    scopes: &[&Table],
) -> Vec<LoadError> {
    let defined = |name: &str| {
        scopes
            .iter()
            .any(|t| t.raw_get::<Value>(name).is_ok_and(|v| !v.is_nil()))
    };
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for r in reads {
        if let Some((base, field)) = r.name.split_once('.') {
            // A field of a table the ruleset or the set shares (frozen: what it holds now is
            // all it will hold): `Cost.rest`, `F.unitt`.
            if let Some(e) = unknown_field(src, card, r, base, field, &scopes[1..])
                && seen.insert(r.name.as_str())
            {
                out.push(e);
            }
            continue;
        }
        if defined(&r.name) || !seen.insert(r.name.as_str()) {
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        for t in scopes {
            names.extend(
                Table::clone(t)
                    .pairs::<Value, Value>()
                    .filter_map(|kv| match kv {
                        Ok((Value::String(k), _)) => Some(k.to_string_lossy()),
                        _ => None,
                    }),
            );
        }
        let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
        let hint = match crate::suggest::did_you_mean(&r.name, &candidates) {
            Some(n) => format!("did you mean '{n}'?"),
            None => "misspelt? the names a script can use are in docs/scripting.md".into(),
        };
        out.push(LoadError {
            file: Some(src.name.clone()),
            line: Some(r.line),
            col: Some(r.col),
            card: card.map(String::from),
            message: format!("unknown name '{}' ({hint})", r.name),
        });
    }
    out
}

/// A read of `base.field` where `base` is a table that `scopes` (the shared ones) define and
/// `field` is not one of its fields: an error naming the nearest field. Anything else (a base
/// the script defines itself, or that is not a table) is left to run time.
fn unknown_field(
    src: &Source,
    card: Option<&str>,
    r: &GlobalRead,
    base: &str,
    field: &str,
    scopes: &[&Table],
) -> Option<LoadError> {
    let table = scopes.iter().find_map(|t| match t.raw_get::<Value>(base) {
        Ok(Value::Table(t)) => Some(t),
        _ => None,
    })?;
    if !matches!(table.get::<Value>(field), Ok(Value::Nil)) {
        return None;
    }
    let keys: Vec<String> = table
        .pairs::<Value, Value>()
        .filter_map(|kv| match kv {
            Ok((Value::String(k), _)) => Some(k.to_string_lossy()),
            _ => None,
        })
        .collect();
    let candidates: Vec<&str> = keys.iter().map(String::as_str).collect();
    let hint = match crate::suggest::did_you_mean(field, &candidates) {
        Some(n) => format!("did you mean '{base}.{n}'?"),
        None => format!("'{base}' has no field '{field}'"),
    };
    Some(LoadError {
        file: Some(src.name.clone()),
        line: Some(r.line),
        col: Some(r.col),
        card: card.map(String::from),
        message: format!("unknown name '{}' ({hint})", r.name),
    })
}

/// Where the source writes the name an ability's error quotes last (`... 'rsh' is not ...`
/// names the string `"rsh"`): the ability table was built by constructors and carries no
/// position, but the literal the modder typed does. None when the source does not write
/// it as a string literal.
fn quoted_in_source(source: &str, message: &str) -> Option<(u32, u32)> {
    let mut parts = message.split('\'');
    let mut quoted = Vec::new();
    while let (Some(_), Some(q)) = (parts.next(), parts.next()) {
        quoted.push(q);
    }
    quoted.iter().rev().find_map(|q| {
        let at = [format!("\"{q}\""), format!("'{q}'")]
            .iter()
            .filter_map(|lit| source.find(lit.as_str()))
            .min()?;
        let before = &source[..at];
        let line = before.matches('\n').count() as u32 + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
        Some((line, col))
    })
}

/// A load failure's text; running out of memory says which allowance.
fn load_message(e: &mlua::Error) -> String {
    if crate::sandbox::blame::Failure::of(e).memory {
        "out of memory: a script may hold at most limits.script_memory while it loads".into()
    } else {
        e.to_string()
    }
}

/// The value at a dotted global path (`OP.setup`).
fn global_path(lua: &Lua, path: &str) -> Result<Value, String> {
    let mut v = Value::Table(lua.globals());
    for part in path.split('.') {
        v = match v {
            Value::Table(t) => t.get(part).map_err(|e| e.to_string())?,
            _ => Value::Nil,
        };
    }
    Ok(v)
}

fn global_fn(lua: &Lua, path: &str) -> Result<Function, String> {
    match global_path(lua, path)? {
        Value::Function(f) => Ok(f),
        Value::Nil => Err(format!(
            "the ruleset names '{path}' but no script defines it"
        )),
        other => Err(format!(
            "'{path}' should be a function, not a {}",
            other.type_name()
        )),
    }
}

/// Reading a global nobody defined is an error that names it: a misspelt `on_plya { ... }`
/// fails at load with "unknown name 'on_plya'" instead of "attempt to call a nil value".
fn strict_globals(lua: &Lua) -> mlua::Result<()> {
    let meta = lua.create_table()?;
    let index = lua.create_function(|_, (_, key): (Value, Value)| -> mlua::Result<Value> {
        let name = match &key {
            Value::String(s) => s.to_string_lossy(),
            other => format!("{other:?}"),
        };
        Err(mlua::Error::RuntimeError(format!(
            "unknown name '{name}' (misspelt? the names a script can use are in docs/scripting.md)"
        )))
    })?;
    meta.raw_set("__index", index)?;
    lua.globals().set_metatable(Some(meta))?;
    Ok(())
}

/// Runs a chunk with `env` as its global environment: what its top level defines stays in
/// `env` (a card's stray global cannot reach other cards), what it reads falls through to the
/// shared globals.
fn load_chunk(lua: &Lua, src: &Source, env: &Table) -> mlua::Result<Value> {
    let bytecode = crate::sandbox::syntax::bytecode(&src.text).map_err(|e| match e {
        // As loading the text would say it: `name:LINE: message`.
        mlua::Error::SyntaxError {
            message,
            incomplete_input,
        } => mlua::Error::SyntaxError {
            message: format!("{}:{message}", src.name),
            incomplete_input,
        },
        other => other,
    })?;
    lua.load(bytecode)
        .set_name(format!("={}", src.name))
        .set_environment(env.clone())
        .call::<Value>(())
}

/// A new environment whose reads fall through `meta` (`{__index = globals}`).
fn new_env(lua: &Lua, meta: &Table) -> mlua::Result<Table> {
    let env = lua.create_table()?;
    env.set_metatable(Some(meta.clone()))?;
    Ok(env)
}

/// A library as its cards see it: the metatable their environments read through, and the
/// library's own environment (for the load-time name check).
type LibraryEnv = (Table, Table);

/// Loads each library (a set's shared Lua) into an environment of its own between the
/// globals and its cards, and freezes it; returns, by card id, the metatable its cards'
/// environments read through and the library's environment. A library's top level may define new names only: shadowing a
/// ruleset name would change what that name means for its cards while the docs say
/// otherwise, so it is an error.
fn library_envs(
    lua: &Lua,
    seen: &Table,
    globals: &Table,
    card_meta: &Table,
    libraries: &[crate::content::Library],
    load: impl Fn(&Source, &Table) -> mlua::Result<Value>,
) -> mlua::Result<(FxHashMap<String, LibraryEnv>, Vec<LoadError>)> {
    let mut metas = FxHashMap::default();
    let mut errors = Vec::new();
    for lib in libraries {
        let env = new_env(lua, card_meta)?;
        env.set_safeenv(true);
        let mut reads = Vec::new();
        for src in &lib.scripts {
            let (problems, read) = read_source(src, None);
            errors.extend(problems);
            reads.push(read);
            if let Err(e) = load(src, &env) {
                errors.push(err(Some(&src.name), None, load_message(&e)));
            }
            for pair in env.clone().pairs::<Value, Value>() {
                let Ok((Value::String(k), _)) = pair else {
                    continue;
                };
                if !globals.raw_get::<Value>(k.clone())?.is_nil() {
                    let name = k.to_string_lossy();
                    errors.push(err(
                        Some(&src.name),
                        None,
                        format!(
                            "set {}: defines '{name}', which is already a global (built-in or \
                             the ruleset's): a set's shared Lua adds names, it cannot replace \
                             one; rename it",
                            lib.name
                        ),
                    ));
                    env.raw_set(k, Value::Nil)?;
                }
            }
        }
        // A helper may read a name a later file of the set defines.
        for (src, read) in lib.scripts.iter().zip(&reads) {
            errors.extend(unknown_names(src, None, read, &[&env, globals]));
        }
        freeze(lua, seen, vec![Value::Table(env.clone())])?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", env.clone())?;
        freeze(lua, seen, vec![Value::Table(meta.clone())])?;
        for id in &lib.cards {
            metas.insert(id.clone(), (meta.clone(), env.clone()));
        }
    }
    Ok((metas, errors))
}

/// Publishes what a ruleset or library file defined at its top level as shared globals, so
/// that later files and cards can use it. A later file may redefine an earlier file's global
/// (to wrap it: the ruleset is one author's); redefining a built-in is an error, said once.
#[derive(Default)]
struct Exports {
    /// Globals the ruleset's files defined.
    owned: HashSet<String>,
    /// Built-in names a file tried to redefine (already reported).
    refused: HashSet<String>,
}

impl Exports {
    fn publish(&mut self, globals: &Table, env: &Table, file: &str) -> Vec<LoadError> {
        let mut problems = Vec::new();
        for pair in env.pairs::<Value, Value>() {
            let (k, v) = match pair {
                Ok(kv) => kv,
                Err(e) => {
                    problems.push(err(Some(file), None, e.to_string()));
                    continue;
                }
            };
            let Value::String(name) = &k else { continue };
            let name = name.to_string_lossy();
            if self.refused.contains(&name) {
                continue;
            }
            let builtin = !self.owned.contains(&name)
                && !globals
                    .raw_get::<Value>(k.clone())
                    .is_ok_and(|v| v.is_nil());
            if builtin {
                problems.push(err(
                    Some(file),
                    None,
                    format!("defines the global '{name}', which is a built-in name: rename it"),
                ));
                self.refused.insert(name);
                continue;
            }
            if let Err(e) = globals.raw_set(k, v) {
                problems.push(err(Some(file), None, e.to_string()));
            }
            self.owned.insert(name);
        }
        problems
    }
}

impl Engine {
    /// Compiles content: resolves the manifest, loads the prelude and the ruleset's scripts,
    /// then every card script. Returns every problem found, not only the first.
    pub fn new(content: &Content) -> Result<Rc<Engine>, Vec<LoadError>> {
        Engine::build(content, content.cards.iter().cloned())
    }

    /// [`Engine::new`] taking the content: its card definitions move into the engine
    /// instead of being copied (with 10,000 cards, tens of megabytes a host that does not
    /// keep the content need not hold twice). `Engine::card_def` reads them.
    pub fn from_content(mut content: Content) -> Result<Rc<Engine>, Vec<LoadError>> {
        let mut cards = std::mem::take(&mut content.cards);
        cards.reverse();
        Engine::build(&content, Shrinking(cards))
    }

    /// Compiles `content`'s ruleset and libraries with `cards` (the content's cards).
    fn build(
        content: &Content,
        cards_in: impl Iterator<Item = crate::content::CardDef>,
    ) -> Result<Rc<Engine>, Vec<LoadError>> {
        let manifest = content.ruleset.manifest.clone();
        let mut names = Names::default();
        names.intern("player");
        // The characteristic name a definition redirect's effect carries (`ctx:effects`, `ended`).
        names.intern(crate::state::DEFINITION);
        let rules = Rules::new(manifest.clone(), &mut names).map_err(|es| {
            es.into_iter()
                .map(|m| err(None, None, format!("game.yaml: {m}")))
                .collect::<Vec<_>>()
        })?;
        let mut errors = Vec::new();
        let lm = &manifest.limits;
        let (lua, budget, memory) = new_vm(lm.script_memory, lm.script_budget)
            .map_err(|e| vec![err(None, None, format!("cannot start Lua: {e}"))])?;
        let fatal = |e: mlua::Error| vec![err(None, None, format!("kernel prelude: {e}"))];
        // The handle cache first: the kernel functions that read handles in place know them
        // by it (`sandbox::raw_args`).
        lua.set_app_data(crate::sandbox::handle::Handles::new(&lua).map_err(fatal)?);
        let k = crate::script::api::install(&lua).map_err(fatal)?;
        {
            // mlua builds a userdata type's metatable with a little Lua the first time one is
            // made: do it now, not inside a game's callback where no Lua may run.
            budget.reset();
            let _lua = memory.enter(&lua);
            lua.create_userdata(crate::sandbox::handle::CardUd(crate::state::ObjId(0)))
                .map_err(fatal)?;
        }
        let globals = lua.globals();
        // Every file gets an environment of its own; reads fall through to the globals.
        let file_meta = lua.create_table().map_err(fatal)?;
        file_meta
            .raw_set("__index", globals.clone())
            .map_err(fatal)?;
        let prelude_env = new_env(&lua, &file_meta).map_err(fatal)?;
        let prelude: Table = {
            let _lua = memory.enter(&lua);
            lua.load(include_str!("../script/prelude.lua"))
                .set_name("=riffle/prelude.lua")
                .set_environment(prelude_env.clone())
                .call(k.clone())
                .map_err(fatal)?
        };
        globals.raw_set("coroutine", mlua::Nil).map_err(fatal)?;
        // Printed data of any card by id, for deck checks and searches.
        let card_info: Function = k.get("card_info").map_err(fatal)?;
        globals.raw_set("card_info", card_info).map_err(fatal)?;
        // The ids of the loaded content's cards ("name a card that exists").
        let card_ids: Function = k.get("card_ids").map_err(fatal)?;
        globals.raw_set("card_ids", card_ids).map_err(fatal)?;
        let ctx_meta: Table = prelude.get("Ctx").map_err(fatal)?;
        if let (Some(fallback), Ok(getters)) =
            (ctx_meta.metatable(), prelude.get::<Table>("Getters"))
        {
            crate::sandbox::fast_index::install_ctx_fallback(&lua, &fallback, &getters)
                .map_err(fatal)?;
        }
        let ctx_keys = [
            lua.create_string("player").map_err(fatal)?,
            lua.create_string("source").map_err(fatal)?,
            lua.create_string("ability").map_err(fatal)?,
        ];
        let mut exports = Exports::default();
        let mut file_envs = Vec::new();
        let mut file_reads = Vec::new();
        for src in &content.ruleset.scripts {
            budget.reset();
            let (problems, reads) = read_source(src, None);
            errors.extend(problems);
            file_reads.push(reads);
            let env = new_env(&lua, &file_meta).map_err(fatal)?;
            // Each file has the whole allowance of one game while it loads.
            let loaded = {
                let _lua = memory.enter_alone(&lua);
                load_chunk(&lua, src, &env)
            };
            match loaded {
                Ok(_) => errors.extend(exports.publish(&globals, &env, &src.name)),
                Err(e) => errors.push(err(Some(&src.name), None, load_message(&e))),
            }
            file_envs.push((src, env));
        }
        // A file's function may have defined more globals while later files loaded.
        for (src, env) in &file_envs {
            errors.extend(exports.publish(&globals, env, &src.name));
        }
        for ((src, env), reads) in file_envs.iter().zip(&file_reads) {
            errors.extend(unknown_names(src, None, reads, &[env, &globals]));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        strict_globals(&lua).map_err(fatal)?;
        lua.sandbox(true).map_err(fatal)?;
        // From here on, everything the ruleset shares is read-only (docs/security.md).
        let seen = lua.create_table().map_err(fatal)?;
        // Weak keys: what it records does not outlive its last user (a card's old version
        // after a hot reload is collected).
        let weak = lua.create_table().map_err(fatal)?;
        weak.raw_set("__mode", "k").map_err(fatal)?;
        seen.set_metatable(Some(weak)).map_err(fatal)?;
        // The cached handles' table (kept alive by the kernel functions that push handles
        // themselves, `sandbox::raw_args`) is the kernel's to fill: not frozen. Scripts
        // cannot reach it.
        if let Some(handles) = crate::sandbox::handle::handle_table(&lua) {
            seen.raw_set(handles, true).map_err(fatal)?;
        }
        // Loaded and checked: no file defines a built-in name (`Exports::publish`), and once
        // frozen none can. So the ruleset's and the prelude's functions may take Luau's
        // fast paths for the built-ins (`ipairs`/`pairs` loops, `math`, `type`...), as
        // cards' and libraries' do. (Set after the load: imports were not resolved then,
        // the globals' environment not yet being safe, so every global is still read
        // where it is used.)
        prelude_env.set_safeenv(true);
        for (_, env) in &file_envs {
            env.set_safeenv(true);
        }
        let mut roots = vec![
            Value::Table(globals.clone()),
            Value::Table(prelude.clone()),
            Value::Table(k.clone()),
            Value::Table(prelude_env),
            Value::Table(file_meta),
        ];
        roots.extend(file_envs.into_iter().map(|(_, e)| Value::Table(e)));
        freeze(&lua, &seen, roots).map_err(fatal)?;
        let card_meta = lua.create_table().map_err(fatal)?;
        card_meta
            .raw_set("__index", globals.clone())
            .map_err(fatal)?;
        freeze(&lua, &seen, vec![Value::Table(card_meta.clone())]).map_err(fatal)?;
        let card_metas = {
            let load = |src: &Source, env: &Table| {
                budget.reset();
                let _lua = memory.enter_alone(&lua);
                load_chunk(&lua, src, env)
            };
            let (metas, problems) =
                library_envs(&lua, &seen, &globals, &card_meta, &content.libraries, load)
                    .map_err(fatal)?;
            errors.extend(problems);
            metas
        };

        let compiler = Rc::new(CardCompiler {
            seen: seen.clone(),
            globals: globals.clone(),
            card_meta,
            libraries: card_metas,
            budget: budget.clone(),
            memory: memory.clone(),
            tables: Default::default(),
        });
        let mut cards = Vec::new();
        for def in cards_in {
            let (data, problems) = compiler.compile(&lua, def, &rules, &mut names);
            errors.extend(problems);
            let Some(data) = data else { continue };
            cards.push(Rc::new(data));
            // What a compile ran is garbage (only an outline stays): collected now and then,
            // or the collector, tuned for playouts, lets it grow to four times what is live.
            if cards.len() % CARDS_PER_COLLECTION == 0 {
                let _ = lua.gc_collect();
            }
        }
        let (card_index, duplicates) = CardIndex::of(&cards);
        for c in duplicates {
            let id = &cards[c as usize].def.id;
            errors.push(err(None, Some(id), "duplicate card id".into()));
        }

        let mut rule_abilities = Vec::new();
        if let Some(name) = &manifest.hooks.rule_abilities {
            match global_path(&lua, name) {
                Ok(Value::Table(t)) => {
                    for (i, v) in t.sequence_values::<Table>().enumerate() {
                        match v.map_err(|e| e.to_string()).and_then(|at| {
                            parse_ability(at, &rules, &mut Interning::New(&mut names))
                        }) {
                            Ok(a) => rule_abilities.push(a),
                            Err(m) => {
                                errors.push(err(None, None, format!("{name}[{}]: {m}", i + 1)))
                            }
                        }
                    }
                }
                _ => errors.push(err(
                    None,
                    None,
                    format!("hooks.rule_abilities names '{name}', which is not a table"),
                )),
            }
        }

        let mut need = |path: &str| match global_fn(&lua, path) {
            Ok(f) => Some(f),
            Err(m) => {
                errors.push(err(None, None, format!("game.yaml: {m}")));
                None
            }
        };
        let setup = need(&manifest.setup);
        let activate = need(&manifest.hooks.activate);
        let validate_deck = need(&manifest.hooks.validate_deck);
        let next_player = manifest.hooks.next_player.as_deref().and_then(&mut need);
        let mut action_problems = Vec::new();
        let mut actions = Vec::new();
        for a in &manifest.actions {
            match action_kind(&rules, &names, &manifest, a, &mut need) {
                Ok(Some(k)) => actions.push(k),
                Ok(None) => {}
                Err(m) => action_problems.push(format!("game.yaml: action '{}': {m}", a.name)),
            }
        }
        let teams = manifest.hooks.teams.as_deref().and_then(&mut need);
        let card_legality = manifest.hooks.card_legality.as_deref().and_then(&mut need);
        let mut phases = Vec::new();
        for p in &manifest.turn.phases {
            let mut kinds = Vec::new();
            for k in &p.kinds {
                match manifest.actions.iter().position(|a| &a.name == k) {
                    Some(i) => kinds.push(i),
                    None => action_problems.push(format!(
                        "game.yaml: phase '{}' lists action '{k}', which `actions` does not declare",
                        p.name
                    )),
                }
            }
            if let Some(proc) = &p.procedure {
                if p.run.is_some() {
                    action_problems.push(format!(
                        "game.yaml: phase '{}' has both `run` and `procedure`: give one",
                        p.name
                    ));
                }
                if !manifest.procedures.iter().any(|d| &d.name == proc) {
                    action_problems.push(format!(
                        "game.yaml: phase '{}' runs procedure '{proc}', which `procedures` does \
                         not declare",
                        p.name
                    ));
                }
            }
            phases.push(PhaseFns {
                name: p.name.clone(),
                procedure: p.procedure.clone(),
                run: p.run.as_deref().and_then(&mut need),
                actions: p.actions.as_deref().and_then(&mut need),
                finish: p.finish.as_deref().and_then(&mut need),
                kinds,
            });
        }
        let mut checks = Vec::new();
        let mut check_problems = Vec::new();
        let mut check_marks = CheckMarks::for_rules(&rules);
        for c in &manifest.checks {
            let when = match &c.when {
                CheckWhen::Script(f) => need(f).map(CheckTest::Script),
                CheckWhen::Players(pc) => match players_check(&rules, &names, pc) {
                    Ok(t) => Some(t),
                    Err(m) => {
                        check_problems.push(format!("game.yaml: check '{}': {m}", c.name));
                        None
                    }
                },
            };
            if let Some(reads) = &c.reads {
                let bit = checks.len();
                if let Err(m) = check_reads(&rules, &names, reads, bit, &mut check_marks) {
                    check_problems.push(format!("game.yaml: check '{}': reads: {m}", c.name));
                }
            }
            if let (Some(when), Some(run)) = (when, need(&c.run)) {
                checks.push(CheckFns {
                    name: c.name.clone(),
                    when,
                    run,
                    each_op: c.at == CheckTime::AfterEachOperation,
                });
            }
        }
        for m in action_problems {
            errors.push(err(None, None, m));
        }
        for m in check_problems {
            errors.push(err(None, None, m));
        }
        // The characteristics that declare what they read: their values are kept between
        // the changes that touch those (and any change of the effects).
        let mut char_marks = CheckMarks::for_rules(&rules);
        for (ci, ch) in rules.chars.iter().enumerate() {
            if let Some(reads) = &ch.decl.reads
                && let Err(m) = check_reads(&rules, &names, reads, ci, &mut char_marks)
            {
                let m = m.replace("checks", "characteristics");
                errors.push(err(
                    None,
                    None,
                    format!("game.yaml: characteristic '{}': reads: {m}", ch.decl.name),
                ));
            }
        }
        // Player characteristics that declare what they read take the bits after the card
        // characteristics' (`Rules::player_char_bit`).
        for (pi, pc) in rules.player_chars.iter().enumerate() {
            let Some(reads) = &pc.decl.reads else {
                continue;
            };
            let bit = rules.player_char_bit(pi);
            let m = if bit >= 64 {
                Err(format!(
                    "at most 64 characteristics and player characteristics may declare what \
                     they read; this is number {}",
                    bit + 1
                ))
            } else {
                check_reads(&rules, &names, reads, bit, &mut char_marks)
            };
            if let Err(m) = m {
                let m = m.replace("checks", "characteristics");
                errors.push(err(
                    None,
                    None,
                    format!(
                        "game.yaml: player characteristic '{}': reads: {m}",
                        pc.decl.name
                    ),
                ));
            } else {
                // The player value it starts from is always read.
                if let Some(v) = pc.from {
                    char_marks.player_values[v] |= 1 << bit;
                }
                // The effects on cards as its record names them (`CharCache::bump`), or all
                // when it says so.
                if !reads.parts.contains(&crate::content::StatePart::Effects) {
                    char_marks.per_player |= 1 << bit;
                }
            }
        }
        // The effects on a card (or a player) are always read.
        char_marks.parts[crate::content::StatePart::Effects as usize] |= char_marks.declared;
        for (ci, ch) in rules.chars.iter().enumerate().take(64) {
            if ch.decl.stale == crate::content::Stale::PerCard {
                if ch.decl.reads.is_none() {
                    errors.push(err(
                        None,
                        None,
                        format!(
                            "game.yaml: characteristic '{}': stale: per_card needs `reads` \
                             (what its static abilities read): add it, or drop `stale`",
                            ch.decl.name
                        ),
                    ));
                }
                char_marks.per_card |= 1 << ci;
            }
        }
        let procedures = procedure_fns(
            &lua,
            &manifest.procedures,
            &manifest.actions,
            &manifest.options,
            &mut errors,
        );
        if !errors.is_empty() {
            return Err(errors);
        }
        let hooks = Hooks {
            setup: setup.expect("checked"),
            activate: activate.expect("checked"),
            validate_deck: validate_deck.expect("checked"),
            next_player,
            teams,
            card_legality,
            phases,
            checks,
            check_marks,
            char_marks,
            procedures,
            actions,
        };

        let indexes = AbilityIndexes::build(&rule_abilities, &cards);
        let in_play = rules
            .zones
            .iter()
            .enumerate()
            .filter(|(_, (_, z))| z.in_play)
            .map(|(i, _)| i)
            .collect();
        let by_name = crate::db::label_shared_names(&mut cards).into();
        let db = Rc::new(Db {
            names,
            rules,
            cards,
            card_index,
            rule_outlines: rule_abilities.iter().map(AbilityOutline::of).collect(),
            rule_abilities,
            statics_by_char: indexes.statics_by_char,
            triggers_by_event: indexes.triggers_by_event,
            replacements: indexes.replacements,
            cards_by_timing: indexes.cards_by_timing,
            script_cards: indexes.script_cards,
            by_name,
            in_play,
            ctx_meta,
            ctx_keys,
            interned: Default::default(),
            hooks,
            memory,
            current: Default::default(),
            stray_errors: Default::default(),
            budget,
            compiler: compiler.clone(),
        });
        lua.set_app_data(db.clone());
        crate::script::api::set_db(&lua, &db);
        lua.set_app_data(crate::script::card::Methods::new(&lua).map_err(fatal)?);
        crate::script::card::install_fast_index(&lua, &db).map_err(fatal)?;
        Ok(Rc::new(Engine {
            lua,
            db,
            compiler,
            next: Default::default(),
            reloaded: Vec::new(),
            chained: Default::default(),
        }))
    }

    /// Runs `f`, which calls into Lua, with a fresh work budget and the running game's memory
    /// allowance armed (see [`crate::sandbox::vm::Memory`]).
    pub(crate) fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        self.db.budget.reset();
        let _lua = self.db.memory.enter(&self.lua);
        f()
    }

    /// The ruleset manifest.
    pub fn manifest(&self) -> &crate::content::RulesetManifest {
        &self.db.rules.manifest
    }

    /// Whether a card id exists.
    pub fn has_card(&self, id: &str) -> bool {
        self.db.card_of(id).is_some()
    }

    /// Bytes the Lua VM holds (the ruleset, every card script, and what games hold now).
    pub fn script_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// The cards whose scripts the VM holds: a card's script is run once when the content
    /// loads, to check it, and loaded to stay only when a game first needs its abilities.
    pub fn loaded_cards(&self) -> impl Iterator<Item = &str> {
        self.db
            .cards
            .iter()
            .filter(|c| c.def.script.is_some() && c.abilities.get().is_some())
            .map(|c| c.def.id.as_str())
    }

    /// Runs a full garbage collection of the VM (after hot reloads, the cards' old versions
    /// that no game holds are freed).
    pub fn collect_garbage(&self) {
        let _ = self.lua.gc_collect();
    }

    /// A card's definition, as loaded (or as a hot reload last changed it).
    pub fn card_def(&self, id: &str) -> Option<&crate::content::CardDef> {
        let i = self.db.card_of(id)?;
        Some(&self.db.cards[i as usize].def)
    }

    /// Every card id, in load order.
    pub fn card_ids(&self) -> impl Iterator<Item = &str> {
        // A card a hot reload removed keeps its data for the games that hold it, not its id.
        self.db
            .cards
            .iter()
            .map(|c| c.def.id.as_str())
            .filter(|id| self.db.card_of(id).is_some())
    }

    /// Every card's label as options name it: its name, with its id when another card has the
    /// same name (`Name (ID)`).
    pub fn card_labels(&self) -> impl Iterator<Item = &str> {
        self.db.cards.iter().map(|c| c.label.as_str())
    }

    /// The deck-construction check of the ruleset with the options' defaults: a list of
    /// problems (empty when legal).
    pub fn validate_deck(&self, deck: &DeckList) -> Vec<String> {
        self.validate_deck_with(deck, &Options::new())
            .unwrap_or_else(|e| vec![e])
    }

    /// The deck-construction check of the ruleset for a game with these options (the hook
    /// gets them by name): a list of problems (empty when legal), or an error when the
    /// options themselves are wrong.
    pub fn validate_deck_with(
        &self,
        deck: &DeckList,
        options: &Options,
    ) -> Result<Vec<String>, String> {
        let values = self.db.rules.resolve_options(options)?;
        let run = || -> mlua::Result<Vec<String>> {
            let t = self.lua.create_table()?;
            for (section, cards) in &deck.sections {
                let s = self.lua.create_table()?;
                for (id, n) in cards {
                    s.set(id.as_str(), *n)?;
                }
                t.set(section.as_str(), s)?;
            }
            let opts = self.options_table(&values)?;
            self.db.budget.reset();
            let _lua = self.db.memory.enter_alone(&self.lua);
            let r: Option<Table> = self.db.hooks.validate_deck.call((t, opts))?;
            Ok(match r {
                Some(list) => list
                    .sequence_values::<String>()
                    .collect::<mlua::Result<_>>()?,
                None => Vec::new(),
            })
        };
        Ok(run().unwrap_or_else(|e| vec![format!("deck check failed: {e}")]))
    }

    /// One card's deck-construction limits, as the ruleset's `hooks.card_legality` gives
    /// them for a game with these options; `Ok(None)` when the ruleset declares no such hook.
    /// An unknown card, bad options or a hook that fails or answers in another shape is an
    /// error naming the hook.
    pub fn card_legality(
        &self,
        card_id: &str,
        options: &Options,
    ) -> Result<Option<CardLegality>, String> {
        let Some(hook) = &self.db.hooks.card_legality else {
            return Ok(None);
        };
        if self.db.card_of(card_id).is_none() {
            return Err(format!("no card {card_id}"));
        }
        let values = self.db.rules.resolve_options(options)?;
        let name = self
            .db
            .rules
            .manifest
            .hooks
            .card_legality
            .clone()
            .unwrap_or_default();
        let run = || -> mlua::Result<Table> {
            let opts = self.options_table(&values)?;
            self.db.budget.reset();
            let _lua = self.db.memory.enter_alone(&self.lua);
            hook.call((card_id, opts))
        };
        let t = run().map_err(|e| format!("{name}({card_id}): {e}"))?;
        CardLegality::from_table(&t)
            .map(Some)
            .map_err(|e| format!("{name}({card_id}): {e}"))
    }

    /// The options' values by name, as scripts get them.
    fn options_table(&self, values: &[OptionValue]) -> mlua::Result<Table> {
        let t = self.lua.create_table()?;
        for (decl, v) in self.db.rules.manifest.options.iter().zip(values) {
            match v {
                OptionValue::Int(i) => t.set(decl.name.as_str(), *i)?,
                OptionValue::Name(n) => t.set(decl.name.as_str(), n.as_str())?,
            }
        }
        Ok(t)
    }

    /// Who sits where in a game of `nplayers` with these options: the options' values, the
    /// direction of play (`turn.direction`, or its option), and the teams (`hooks.teams`;
    /// without it, every player alone). An unknown option, a bad value or bad teams is an
    /// error that says what is allowed.
    pub fn seats(&self, nplayers: u8, options: &Options) -> Result<Seats, String> {
        let values = self.db.rules.resolve_options(options)?;
        let direction = self.db.rules.direction(&values);
        let Some(hook) = &self.db.hooks.teams else {
            return Ok(Seats::alone(nplayers, direction, values));
        };
        let run = || -> mlua::Result<Vec<Vec<i64>>> {
            let opts = self.options_table(&values)?;
            self.db.budget.reset();
            let _lua = self.db.memory.enter_alone(&self.lua);
            let r: Table = hook.call((opts, nplayers))?;
            let mut teams = Vec::new();
            for t in r.sequence_values::<Table>() {
                teams.push(crate::sandbox::numbers::list(&t?, "a team")?);
            }
            Ok(teams)
        };
        let name = self
            .db
            .rules
            .manifest
            .hooks
            .teams
            .clone()
            .unwrap_or_default();
        let raw = run().map_err(|e| format!("{name}: {e}"))?;
        let mut teams = Vec::new();
        for (i, t) in raw.into_iter().enumerate() {
            let mut members = Vec::new();
            for p in t {
                if p < 1 || p > nplayers as i64 {
                    return Err(format!(
                        "{name}: team {}: no player {p} (players are 1..{nplayers})",
                        i + 1
                    ));
                }
                members.push((p - 1) as PlayerId);
            }
            teams.push(members);
        }
        Seats::with_teams(nplayers, teams, direction, values).map_err(|e| format!("{name}: {e}"))
    }
}
