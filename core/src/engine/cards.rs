//! Compiling one card: its printed data resolved against the rules and its script run
//! in an environment of its own. `Engine::new` compiles every card with it, and a hot
//! reload (`reload.rs`) a changed card. Compiling checks the script and keeps only an
//! outline of its abilities; the script is loaded again, to stay, when a game first needs
//! the card's abilities (`Db::card_abilities`): most of a large card database is never met
//! by a game, and its Lua would be most of the engine's memory.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table, Value};
use rustc_hash::FxHashMap;

use super::{LibraryEnv, LoadError, err, load_chunk, load_message, new_env, quoted_in_source};
use super::{read_source_strings, unknown_names};
use crate::content::{CardDef, Source};
use crate::db::{Ability, AbilityOutline, CardData, parse_ability};
use crate::names::{Interning, Names};
use crate::rules::Rules;
use crate::sandbox::freeze::freeze;
use crate::sandbox::source_checks::StringArg;
use crate::sandbox::vm::{Budget, Memory};

/// What a card script is loaded against: kept by the engine so that a card can be compiled
/// again while games run.
#[derive(Clone)]
pub(crate) struct CardCompiler {
    /// Tables already frozen (shared by every freeze of this VM).
    pub seen: Table,
    /// The shared globals (read-only once the ruleset has loaded).
    pub globals: Table,
    /// The metatable of a card's environment: reads fall through to the globals.
    pub card_meta: Table,
    /// By card id: the set library its environment reads through.
    pub libraries: FxHashMap<String, LibraryEnv>,
    /// The script work budget and memory allowance every load runs under.
    pub budget: Budget,
    pub memory: Memory,
    /// Card ability (card index, ability index) by the address of its Lua table, for each
    /// card loaded in this VM; shared by the engines hot reloads make from this one.
    pub tables: Rc<RefCell<FxHashMap<usize, (u32, usize)>>>,
}

impl CardCompiler {
    /// Compiles `def`: its data resolved, and its script run once to check it and outline
    /// its abilities. The data is `None` only when the printed data cannot be resolved (an
    /// unknown category, no printed name); script problems come with the data.
    pub fn compile(
        &self,
        lua: &Lua,
        def: CardDef,
        rules: &Rules,
        names: &mut Names,
    ) -> (Option<CardData>, Vec<LoadError>) {
        let script = def.script.clone();
        let id = def.id.clone();
        let id = id.as_str();
        let mut errors = Vec::new();
        let mut data = match CardData::new(def, rules, names) {
            Ok(d) => d,
            Err(m) => return (None, vec![err(None, Some(id), m)]),
        };
        for (kw, _) in &data.keyword_values {
            if rules.keywords.index(*kw).is_none() {
                errors.push(err(
                    None,
                    Some(id),
                    format!("unknown keyword '{}'", names.name(*kw)),
                ));
            }
        }
        let Some(src) = &script else {
            let _ = data.abilities.set(Box::default());
            return (Some(data), errors);
        };
        self.budget.reset();
        let (problems, reads, strings) = read_source_strings(src, Some(id));
        errors.extend(problems);
        errors.extend(keyword_typos(src, id, &strings, rules, names));
        let ran = {
            let _lua = self.memory.enter_alone(lua);
            self.run(lua, id, src, &mut errors)
        };
        let Some((env, loaded)) = ran else {
            return (Some(data), errors);
        };
        if loaded.is_ok() {
            let library = self.libraries.get(id).map(|(_, e)| e);
            let scopes: Vec<&Table> = [Some(&env), library, Some(&self.globals)]
                .into_iter()
                .flatten()
                .collect();
            errors.extend(unknown_names(src, Some(id), &reads, &scopes));
        }
        let abilities = abilities_of(
            loaded,
            rules,
            &mut Interning::New(names),
            src,
            id,
            &mut errors,
        );
        data.outline = abilities.iter().map(AbilityOutline::of).collect();
        (Some(data), errors)
    }
}

impl crate::db::LoadCard for CardCompiler {
    /// Loads card `c`'s script to stay: run again, aside from the running call's budget and
    /// memory allowance (see [`Budget::aside`]), with the names the compile interned.
    fn load(
        &self,
        lua: &Lua,
        c: u32,
        card: &CardData,
        rules: &Rules,
        names: &Names,
    ) -> Result<Box<[Ability]>, String> {
        let Some(src) = &card.def.script else {
            return Ok(Box::default());
        };
        let id = card.def.id.as_str();
        let mut errors = Vec::new();
        let abilities = self.budget.aside(|| {
            self.memory.aside(lua, || {
                let (_, loaded) = self.run(lua, id, src, &mut errors)?;
                let known = &mut Interning::Known(names);
                Some(abilities_of(loaded, rules, known, src, id, &mut errors))
            })
        });
        if let Some(e) = errors.first() {
            return Err(e.to_string());
        }
        let abilities = abilities.unwrap_or_default();
        let outline: Vec<AbilityOutline> = abilities.iter().map(AbilityOutline::of).collect();
        if *outline != *card.outline {
            return Err(
                "its abilities are not the ones it had when the content was loaded (does the \
                 script's top level read something that changes?)"
                    .into(),
            );
        }
        let mut tables = self.tables.borrow_mut();
        for (i, a) in abilities.iter().enumerate() {
            tables.insert(a.table.to_pointer() as usize, (c, i));
        }
        Ok(abilities.into_boxed_slice())
    }

    fn ability_at(&self, address: usize) -> Option<(u32, usize)> {
        self.tables.borrow().get(&address).copied()
    }
}

impl CardCompiler {
    /// Runs `src` in a new environment that reads through its set's library (if any) and
    /// the globals, and freezes what it made: the card's tables are shared by every game.
    /// Returns the environment and what the script returned (or its error); None when no
    /// environment could be made.
    fn run(
        &self,
        lua: &Lua,
        id: &str,
        src: &Source,
        errors: &mut Vec<LoadError>,
    ) -> Option<(Table, mlua::Result<Value>)> {
        let meta = self
            .libraries
            .get(id)
            .map_or(&self.card_meta, |(meta, _)| meta);
        let env = match new_env(lua, meta) {
            Ok(env) => env,
            Err(e) => {
                errors.push(err(Some(&src.name), Some(id), e.to_string()));
                return None;
            }
        };
        env.set_safeenv(true);
        let loaded = load_chunk(lua, src, &env);
        let mut roots = vec![Value::Table(env.clone())];
        if let Ok(v) = &loaded {
            roots.push(v.clone());
        }
        if let Err(e) = freeze(lua, &self.seen, roots) {
            errors.push(err(Some(&src.name), Some(id), e.to_string()));
        }
        Some((env, loaded))
    }
}

/// A string a card script gives a call that is no name the game knows but one edit or two
/// from a keyword of game.yaml (`grant(ctx, c, "rsuh", "turn")`) would fail only when that line
/// runs, in the one game that reaches it: an error at load instead, at the string. Any name the
/// content interned (a keyword, an event, a zone, a trait...) is left alone.
pub(super) fn keyword_typos(
    src: &Source,
    id: &str,
    strings: &[StringArg],
    rules: &Rules,
    names: &Names,
) -> Vec<LoadError> {
    let keywords: Vec<&str> = rules.keywords.syms.iter().map(|s| names.name(*s)).collect();
    let mut out = Vec::new();
    for s in strings {
        if names.get(&s.text).is_some() {
            continue;
        }
        if let Some(k) = crate::suggest::did_you_mean(&s.text, &keywords) {
            out.push(LoadError {
                file: Some(src.name.clone()),
                line: Some(s.line),
                col: Some(s.col),
                card: Some(id.to_string()),
                message: format!(
                    "'{}' is not a keyword game.yaml declares (`keywords`): did you mean '{k}'?",
                    s.text
                ),
            });
        }
    }
    out
}

/// The abilities a card script returned (a list of ability tables); each problem is
/// reported, positioned in the script when its message quotes it.
fn abilities_of(
    loaded: mlua::Result<Value>,
    rules: &Rules,
    names: &mut Interning,
    src: &Source,
    id: &str,
    errors: &mut Vec<LoadError>,
) -> Vec<Ability> {
    let mut abilities = Vec::new();
    match loaded {
        Ok(Value::Table(t)) => {
            let list: Vec<Value> = t
                .sequence_values::<Value>()
                .filter_map(Result::ok)
                .collect();
            for (i, v) in list.into_iter().enumerate() {
                match v {
                    Value::Table(at) => match parse_ability(at, rules, names) {
                        Ok(a) => abilities.push(a),
                        Err(m) => {
                            let mut e =
                                err(Some(&src.name), Some(id), format!("ability {}: {m}", i + 1));
                            if let Some((line, col)) = quoted_in_source(&src.text, &m) {
                                (e.line, e.col) = (Some(line), Some(col));
                            }
                            errors.push(e);
                        }
                    },
                    other => errors.push(err(
                        Some(&src.name),
                        Some(id),
                        format!("ability {} is a {}, not a table", i + 1, other.type_name()),
                    )),
                }
            }
        }
        Ok(Value::Nil) => {}
        Ok(other) => errors.push(err(
            Some(&src.name),
            Some(id),
            format!(
                "a card script must return a table of abilities, not a {}",
                other.type_name()
            ),
        )),
        Err(e) => errors.push(err(Some(&src.name), Some(id), load_message(&e))),
    }
    abilities
}
