//! JSON Schemas: the generated ones (from Rust types, via schemars) and the compiled
//! validators, plus the translation of validation errors into messages designers understand.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Registry, ValidationError, Validator};
use riffle_core::RulesetManifest;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

use super::files::{CardFile, DeckFile, LANGUAGE_TAG_PATTERN, SetFile};
use super::suggest::did_you_mean;
use super::yaml::{Pos, YamlDoc, escape_token};
use crate::scenario::format::{PLAYER_NUMBER_PATTERN, ScenarioFile};

/// The base URI of every schema's `$id`. Per-game card schemas live under `<base><game>/`.
pub const SCHEMA_BASE: &str = "https://example.invalid/riffle/schema/";

/// The generated schema files, in `schema/`.
pub const RULESET_SCHEMA: &str = "ruleset.schema.json";
/// `set.yaml`.
pub const SET_SCHEMA: &str = "set.schema.json";
/// Card files (the fields common to every game).
pub const CARD_SCHEMA: &str = "card.schema.json";
/// Deck lists.
pub const DECK_SCHEMA: &str = "deck.schema.json";
/// Scenario files (`*.test.yaml`).
pub const SCENARIO_SCHEMA: &str = "scenario.schema.json";
/// The card database export's JSON (`riffle export --format json`).
pub const CARD_DATABASE_SCHEMA: &str = "card-database.schema.json";
/// The card database export's SQLite tables (`riffle export --format sqlite`).
pub const CARD_DATABASE_DDL: &str = "card-database.sql";

/// The schema of a game's own card fields, by convention: `schema/<game>/card.schema.json`.
pub fn game_card_schema_path(game: &str) -> String {
    format!("schema/{game}/{CARD_SCHEMA}")
}

/// The `$id` of a schema file, from its path under `schema/`.
pub fn schema_id(file: &str) -> String {
    format!("{SCHEMA_BASE}{file}")
}

fn generate<T: JsonSchema>(file: &str) -> Value {
    let schema = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut v = schema.to_value();
    if let Value::Object(m) = &mut v {
        m.insert("$id".into(), Value::String(schema_id(file)));
    }
    canonical(v)
}

/// Every generated schema of content files (compiled to check them): its file name in
/// `schema/` and its content.
pub fn generated_schemas() -> Vec<(&'static str, Value)> {
    vec![
        (RULESET_SCHEMA, generate::<RulesetManifest>(RULESET_SCHEMA)),
        (SET_SCHEMA, generate::<SetFile>(SET_SCHEMA)),
        (CARD_SCHEMA, generate::<CardFile>(CARD_SCHEMA)),
        (DECK_SCHEMA, generate::<DeckFile>(DECK_SCHEMA)),
        (SCENARIO_SCHEMA, generate::<ScenarioFile>(SCENARIO_SCHEMA)),
    ]
}

/// Every generated file of `schema/` with its text: the schemas, rendered, and the card
/// database's SQLite DDL.
pub fn generated_files() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = generated_schemas()
        .into_iter()
        .map(|(name, v)| (name, render(&v)))
        .collect();
    // The export's schema is for clients: content is never checked against it, so it is not
    // compiled with the others.
    let db = generate::<crate::database::CardDatabase>(CARD_DATABASE_SCHEMA);
    out.push((CARD_DATABASE_SCHEMA, render(&db)));
    #[cfg(feature = "sqlite")]
    out.push((CARD_DATABASE_DDL, crate::database::sqlite::DDL.to_string()));
    out
}

/// Objects with their keys sorted, whatever serde_json's map order is.
fn canonical(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let sorted: BTreeMap<String, Value> =
                m.into_iter().map(|(k, v)| (k, canonical(v))).collect();
            Value::Object(sorted.into_iter().collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(canonical).collect()),
        other => other,
    }
}

/// The stable text of a schema file: pretty JSON (two-space indent), sorted keys, a trailing
/// newline.
pub fn render(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// Generated schema files under `schema_dir` that are missing or differ from what the code
/// generates now.
pub fn stale_schemas(schema_dir: &Path) -> Vec<String> {
    generated_files()
        .into_iter()
        .filter(|(name, text)| {
            crate::read::read_text(schema_dir.join(name))
                .ok()
                .as_deref()
                != Some(text.as_str())
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Writes every generated schema into `schema_dir` (created if needed) with
/// [`crate::write::write_file`]; returns the files that changed. A destination that is not a
/// regular file (a symbolic link...) is refused before anything is written.
pub fn write_schemas(schema_dir: &Path) -> std::io::Result<Vec<String>> {
    // `schema/` a link out of the repository: not written through.
    if let Some(root) = schema_dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::write::check_inside(root, &schema_dir.join("x"))?;
    }
    std::fs::create_dir_all(schema_dir)?;
    let stale = stale_schemas(schema_dir);
    // Every destination is checked before the first is written: all or nothing.
    for name in &stale {
        crate::write::check_destination(&schema_dir.join(name))?;
    }
    let mut changed = Vec::new();
    let files = generated_files();
    for name in stale {
        let text = files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
            .unwrap_or_default();
        crate::write::write_file(&schema_dir.join(&name), text.as_bytes())?;
        changed.push(name);
    }
    Ok(changed)
}

/// Which generated schema a file is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `game.yaml`.
    Ruleset,
    /// `set.yaml`.
    Set,
    /// A card.
    Card,
    /// A deck list.
    Deck,
    /// A scenario file.
    Scenario,
}

/// A schema violation, ready to become a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaError {
    /// JSON pointer of the offending value (or key).
    pub pointer: String,
    /// Its position in the YAML file.
    pub pos: Pos,
    /// The message.
    pub message: String,
}

/// A compiled schema.
struct Compiled {
    validator: Validator,
}

/// The generated schemas, compiled once per run.
pub struct Schemas {
    docs: BTreeMap<String, Value>,
    ruleset: Compiled,
    set: Compiled,
    card: Compiled,
    deck: Compiled,
    scenario: Compiled,
}

impl std::fmt::Debug for Schemas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schemas")
            .field("docs", &self.docs.keys())
            .finish_non_exhaustive()
    }
}

/// A game's card schema, compiled against the generated ones.
pub struct GameCardSchema {
    compiled: Compiled,
    doc_id: String,
    doc: Value,
}

impl std::fmt::Debug for GameCardSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameCardSchema")
            .field("id", &self.doc_id)
            .finish_non_exhaustive()
    }
}

impl GameCardSchema {
    /// The game's own card fields it declares.
    pub fn fields(&self) -> Vec<crate::card_fields::CardField> {
        crate::card_fields::declared(&self.doc)
    }

    /// The property names its top level lists (the game's card fields and the common ones).
    pub fn properties(&self) -> Vec<String> {
        self.doc
            .get("properties")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }
}

fn compile(docs: &BTreeMap<String, Value>, schema: &Value) -> Result<Compiled, String> {
    let registry = Registry::new()
        .extend(docs.iter().map(|(id, v)| (id.as_str(), v)))
        .and_then(|b| b.prepare())
        .map_err(|e| e.to_string())?;
    let validator = jsonschema::options()
        .with_registry(&registry)
        .offline()
        .build(schema)
        .map_err(|e| e.to_string())?;
    Ok(Compiled { validator })
}

impl Schemas {
    /// Compiles the generated schemas. Fails only if the code generates an invalid schema.
    pub fn new() -> Result<Schemas, String> {
        let docs: BTreeMap<String, Value> = generated_schemas()
            .into_iter()
            .map(|(name, v)| (schema_id(name), v))
            .collect();
        let get = |name: &str| -> Result<Compiled, String> {
            let v = &docs[&schema_id(name)];
            compile(&docs, v).map_err(|e| format!("{name}: {e}"))
        };
        Ok(Schemas {
            ruleset: get(RULESET_SCHEMA)?,
            set: get(SET_SCHEMA)?,
            card: get(CARD_SCHEMA)?,
            deck: get(DECK_SCHEMA)?,
            scenario: get(SCENARIO_SCHEMA)?,
            docs,
        })
    }

    /// Compiles a game's card schema (its `$id` should be under [`SCHEMA_BASE`]; it may `$ref`
    /// the generated schemas by `$id`). Errors are one line each.
    pub fn compile_game_card_schema(&self, schema: Value) -> Result<GameCardSchema, String> {
        let Some(id) = schema
            .get("$id")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return Err(format!(
                "the schema has no `$id`: add `\"$id\": \"{SCHEMA_BASE}<game>/{CARD_SCHEMA}\"`"
            ));
        };
        let mut docs = self.docs.clone();
        docs.insert(id.clone(), schema.clone());
        let compiled = compile(&docs, &schema)?;
        Ok(GameCardSchema {
            compiled,
            doc_id: id,
            doc: schema,
        })
    }

    /// Validates a parsed file; one error per violation, positioned by the file's spans.
    pub fn check(
        &self,
        kind: FileKind,
        game: Option<&GameCardSchema>,
        doc: &YamlDoc,
    ) -> Vec<SchemaError> {
        let compiled = match (kind, game) {
            (FileKind::Card, Some(g)) => &g.compiled,
            (FileKind::Card, None) => &self.card,
            (FileKind::Ruleset, _) => &self.ruleset,
            (FileKind::Set, _) => &self.set,
            (FileKind::Deck, _) => &self.deck,
            (FileKind::Scenario, _) => &self.scenario,
        };
        let mut out: Vec<SchemaError> = Vec::new();
        // A set, not `out.contains`: a file with 100,000 unknown fields has as many errors.
        let mut seen: HashSet<SchemaError> = HashSet::new();
        for err in compiled.validator.iter_errors(&doc.value) {
            for e in self.translate(&err, doc, game) {
                if seen.insert(e.clone()) {
                    out.push(e);
                }
            }
        }
        out.sort_by(|a, b| (a.pos, &a.pointer).cmp(&(b.pos, &b.pointer)));
        out
    }

    /// The property names listed next to the `additionalProperties` keyword that failed,
    /// found through the error's absolute keyword location (`<$id>#/pointer`).
    fn allowed_properties(
        &self,
        err: &ValidationError,
        game: Option<&GameCardSchema>,
    ) -> Vec<String> {
        let Some(uri) = err.absolute_keyword_location() else {
            return Vec::new();
        };
        let uri = uri.as_str();
        let (base, fragment) = uri.split_once('#').unwrap_or((uri, ""));
        let doc = match game {
            Some(g) if g.doc_id == base => Some(&g.doc),
            _ => self.docs.get(base),
        };
        let Some(doc) = doc else { return Vec::new() };
        let parent = fragment.rsplit_once('/').map_or("", |(p, _)| p);
        let decoded = percent_decode(parent);
        doc.pointer(&decoded)
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn translate(
        &self,
        err: &ValidationError,
        doc: &YamlDoc,
        game: Option<&GameCardSchema>,
    ) -> Vec<SchemaError> {
        let ptr = err.instance_path().as_str().to_string();
        let at_value = |pointer: String, message: String| SchemaError {
            pos: doc.spans.value_pos(&pointer),
            pointer,
            message,
        };
        let at_key = |pointer: String, message: String| SchemaError {
            pos: doc.spans.key_pos(&pointer),
            pointer,
            message,
        };
        let in_branch = err.evaluation_path().as_str().contains("/then")
            || err.evaluation_path().as_str().contains("/else");
        let category_note = || -> String {
            match doc.value.get("category").and_then(Value::as_str) {
                Some(c) if in_branch => format!(" on a `{c}` card"),
                _ => String::new(),
            }
        };
        let instance = err.instance();
        match err.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                let allowed = self.allowed_properties(err, game);
                unexpected
                    .iter()
                    .map(|name| {
                        let mut msg = format!("unknown field `{name}`");
                        let refs: Vec<&str> = allowed.iter().map(String::as_str).collect();
                        if let Some(s) = did_you_mean(name, &refs) {
                            msg.push_str(&format!(": did you mean `{s}`?"));
                        } else if !allowed.is_empty() && allowed.len() <= 16 {
                            msg.push_str(&format!(" (allowed: {})", allowed.join(", ")));
                        }
                        at_key(format!("{ptr}/{}", escape_token(name)), msg)
                    })
                    .collect()
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                let msg = if name == "en" {
                    "missing the English text: add `en: ...` (other languages are optional)"
                        .to_string()
                } else {
                    format!("missing required field `{name}`{}", category_note())
                };
                vec![at_value(ptr, msg)]
            }
            ValidationErrorKind::FalseSchema => {
                let last = ptr.rsplit('/').next().unwrap_or_default();
                let msg = if last.parse::<usize>().is_ok() || ptr.is_empty() {
                    "this value is not allowed here".to_string()
                } else {
                    format!(
                        "`{}` is not allowed{}: remove it",
                        unescape(last),
                        category_note()
                    )
                };
                vec![at_key(ptr, msg)]
            }
            ValidationErrorKind::Enum { options } => {
                let opts: Vec<String> = options
                    .as_array()
                    .map(|a| a.iter().map(short_json).collect())
                    .unwrap_or_default();
                let mut msg = format!(
                    "{} is not one of: {}",
                    short_json(instance),
                    opts.join(", ")
                );
                if let Some(text) = instance.as_str() {
                    let strs: Vec<&str> = options
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    if let Some(s) = did_you_mean(text, &strs) {
                        msg.push_str(&format!(": did you mean `{s}`?"));
                    }
                }
                vec![at_value(ptr, msg)]
            }
            ValidationErrorKind::Type { kind } => {
                let expected = format!("{kind:?}").to_lowercase();
                let expected = type_name(&expected);
                let mut msg = format!(
                    "expected {expected}, found {} {}",
                    json_type(instance),
                    short_json(instance)
                );
                if expected.contains("string") && (instance.is_number() || instance.is_boolean()) {
                    msg.push_str(": quote it to make it text");
                }
                vec![at_value(ptr, msg)]
            }
            ValidationErrorKind::PropertyNames { error } => {
                let key = error.instance().as_str().unwrap_or_default().to_string();
                let msg = match error.kind() {
                    ValidationErrorKind::Pattern { pattern } if pattern == LANGUAGE_TAG_PATTERN => {
                        format!("`{key}` is not a language tag: use `en`, `ja`, `th`, `zh-Hant`...")
                    }
                    ValidationErrorKind::Pattern { pattern }
                        if pattern == PLAYER_NUMBER_PATTERN =>
                    {
                        format!("`{key}` is not a player number: players are numbered 1, 2...")
                    }
                    _ => format!("key `{key}` is not allowed: {error}"),
                };
                vec![at_key(format!("{ptr}/{}", escape_token(&key)), msg)]
            }
            ValidationErrorKind::MinItems { limit } => {
                vec![at_value(
                    ptr,
                    format!("needs at least {limit} item(s){}", category_note()),
                )]
            }
            ValidationErrorKind::MaxItems { limit } => {
                vec![at_value(ptr, format!("has more than {limit} item(s)"))]
            }
            ValidationErrorKind::UniqueItems => {
                vec![at_value(ptr, "lists the same item twice".to_string())]
            }
            ValidationErrorKind::MinProperties { .. } if ptr == "/name" => vec![at_value(
                ptr,
                "a card needs a name: add its printed name, like `en: ...` (the language of \
                 game.yaml `names.printed`)"
                    .to_string(),
            )],
            ValidationErrorKind::MinProperties { limit } => {
                vec![at_value(ptr, format!("needs at least {limit} entry(ies)"))]
            }
            ValidationErrorKind::Pattern { pattern } if pattern == LANGUAGE_TAG_PATTERN => {
                vec![at_value(
                    ptr,
                    format!(
                        "{} is not a language tag: use `en`, `ja`, `th`, `zh-Hant`...",
                        short_json(instance)
                    ),
                )]
            }
            ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. }
                if ptr.starts_with("/keywords/") =>
            {
                vec![at_value(
                    ptr,
                    format!(
                        "{} is not a keyword: write a name (`blocker`) or a name with a number (`{{repair: 2}}`)",
                        short_json(instance)
                    ),
                )]
            }
            ValidationErrorKind::AnyOf { context }
            | ValidationErrorKind::OneOfNotValid { context } => {
                // When the value has the shape of exactly one form (a mapping where the
                // forms are a text or a mapping), that form's errors say what is wrong.
                let fitting: Vec<&Vec<ValidationError>> =
                    context.iter().filter(|branch| fits(branch, &ptr)).collect();
                if let [branch] = fitting.as_slice() {
                    return branch
                        .iter()
                        .flat_map(|e| self.translate(e, doc, game))
                        .collect();
                }
                vec![at_value(
                    ptr,
                    format!("{} matches none of the allowed forms", short_json(instance)),
                )]
            }
            _ => vec![at_value(ptr, truncate(&err.to_string(), 200))],
        }
    }
}

/// Whether the value at `ptr` has the shape of the form whose errors are `branch`: none of
/// them rejects the value itself for its type or value (nested forms alike).
fn fits(branch: &[ValidationError], ptr: &str) -> bool {
    branch.iter().all(|e| {
        if e.instance_path().as_str() != ptr {
            return true;
        }
        match e.kind() {
            ValidationErrorKind::Type { .. }
            | ValidationErrorKind::Enum { .. }
            | ValidationErrorKind::Constant { .. }
            | ValidationErrorKind::FalseSchema => false,
            ValidationErrorKind::AnyOf { context }
            | ValidationErrorKind::OneOfNotValid { context } => {
                context.iter().any(|b| fits(b, ptr))
            }
            _ => true,
        }
    })
}

fn type_name(debug: &str) -> String {
    // `single(string)` / `multiple(...)`: keep the words.
    let words: Vec<&str> = debug
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| {
            !w.is_empty()
                && !matches!(
                    *w,
                    "single" | "multiple" | "jsontypeset" | "jsontype" | "inner"
                )
        })
        .collect();
    if words.is_empty() {
        debug.to_string()
    } else {
        words.join(" or ")
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// A value as compact JSON, cut to a readable length.
pub fn short_json(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        _ => truncate(&v.to_string(), 60),
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}…")
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
