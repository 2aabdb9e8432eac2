//! Compiling one card: its printed data resolved against the rules and its script loaded
//! into an environment of its own. `Engine::new` compiles every card with it; a hot reload
//! (`reload.rs`) compiles a changed card with the same pieces, kept in the engine.

use mlua::{Lua, Table, Value};
use rustc_hash::FxHashMap;

use super::{LibraryEnv, LoadError, err, load_chunk, load_message, new_env, quoted_in_source};
use super::{read_source, unknown_names};
use crate::content::CardDef;
use crate::db::{CardData, parse_ability};
use crate::names::Names;
use crate::rules::Rules;
use crate::sandbox::freeze::freeze;
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
}

impl CardCompiler {
    /// Compiles `def`. The data is `None` only when the printed data cannot be resolved
    /// (an unknown category, no printed name); script problems come with the data.
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
            return (Some(data), errors);
        };
        self.budget.reset();
        let (problems, reads) = read_source(src, Some(id));
        errors.extend(problems);
        let library = self.libraries.get(id);
        let meta = library.map_or(&self.card_meta, |(meta, _)| meta);
        let env = match new_env(lua, meta) {
            Ok(env) => env,
            Err(e) => {
                errors.push(err(Some(&src.name), Some(id), e.to_string()));
                return (Some(data), errors);
            }
        };
        env.set_safeenv(true);
        let loaded = {
            let _lua = self.memory.enter_alone(lua);
            load_chunk(lua, src, &env)
        };
        if loaded.is_ok() {
            let scopes: Vec<&Table> = [Some(&env), library.map(|(_, e)| e), Some(&self.globals)]
                .into_iter()
                .flatten()
                .collect();
            errors.extend(unknown_names(src, Some(id), &reads, &scopes));
        }
        // The card's own tables are shared by every game: frozen like the rest.
        let mut roots = vec![Value::Table(env)];
        if let Ok(v) = &loaded {
            roots.push(v.clone());
        }
        if let Err(e) = freeze(lua, &self.seen, roots) {
            errors.push(err(Some(&src.name), Some(id), e.to_string()));
        }
        match loaded {
            Ok(Value::Table(t)) => {
                let list: Vec<Value> = t
                    .clone()
                    .sequence_values::<Value>()
                    .filter_map(Result::ok)
                    .collect();
                for (i, v) in list.into_iter().enumerate() {
                    match v {
                        Value::Table(at) => match parse_ability(at, rules, names) {
                            Ok(a) => data.abilities.push(a),
                            Err(m) => {
                                let mut e = err(
                                    Some(&src.name),
                                    Some(id),
                                    format!("ability {}: {m}", i + 1),
                                );
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
                // Most cards have one or two abilities: no spare capacity for 10,000 cards.
                data.abilities.shrink_to_fit();
                data.table = Some(t);
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
        (Some(data), errors)
    }
}
