//! A new card's fields, found in the game's card schema (`schema/<game>/card.schema.json`):
//! the fields its category requires, each with a placeholder its schema allows (the first of
//! a list of names, 1 for a number...). Nothing here knows a game: the schema says it all.

use std::path::Path;

use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

use riffle_content::schema::{game_card_schema_path, generated_schemas, schema_id};

/// A YAML value that keeps the order its keys were added in (the schema's `required`
/// order), for a file that reads like the repository's cards.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A number, a boolean or a string.
    Scalar(Value),
    /// A string always written in quotes (names and texts).
    Text(String),
    /// A list.
    List(Vec<Node>),
    /// A mapping, in order.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// As JSON data, to validate.
    pub fn to_value(&self) -> Value {
        match self {
            Node::Scalar(v) => v.clone(),
            Node::Text(s) => Value::String(s.clone()),
            Node::List(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// From JSON data (keys in its order).
    fn from_value(v: &Value) -> Node {
        match v {
            Value::Array(items) => Node::List(items.iter().map(Node::from_value).collect()),
            Value::Object(m) => Node::Map(
                m.iter()
                    .map(|(k, v)| (k.clone(), Node::from_value(v)))
                    .collect(),
            ),
            other => Node::Scalar(other.clone()),
        }
    }

    /// The mapping at `path` (keys from the top), if there is one.
    fn map_at(&mut self, path: &[String]) -> Option<&mut Vec<(String, Node)>> {
        let Node::Map(entries) = self else {
            return None;
        };
        match path.split_first() {
            None => Some(entries),
            Some((key, rest)) => entries
                .iter_mut()
                .find(|(k, _)| k == key)
                .and_then(|(_, v)| v.map_at(rest)),
        }
    }

    /// The value written in YAML flow style (`[red]`, `{cast: 1, attack: 1}`, `"Text"`).
    pub fn flow(&self) -> String {
        match self {
            Node::Scalar(Value::String(s)) => plain_or_quoted(s),
            Node::Scalar(v) => v.to_string(),
            Node::Text(s) => Value::String(s.clone()).to_string(),
            Node::List(items) => {
                let parts: Vec<String> = items.iter().map(Node::flow).collect();
                format!("[{}]", parts.join(", "))
            }
            Node::Map(entries) => {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", plain_or_quoted(k), v.flow()))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }
}

/// A name as YAML writes it bare when that reads the same (`red`, `Knight`), else quoted.
fn plain_or_quoted(s: &str) -> String {
    let word = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let special = matches!(
        s.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n" | "inf"
    );
    if word && !special {
        s.to_string()
    } else {
        Value::String(s.to_string()).to_string()
    }
}

/// A game's card schema, compiled with the generated schemas it refers to.
pub struct CardSchema {
    /// Its path relative to the repository root.
    pub path: String,
    doc: Value,
    validator: Validator,
}

impl CardSchema {
    /// Reads and compiles `schema/<game>/card.schema.json` of the repository at `root`.
    pub fn load(root: &Path, game: &str) -> Result<CardSchema, String> {
        let path = game_card_schema_path(game);
        let text = riffle_content::read::read_text(root.join(&path))
            .map_err(|e| format!("cannot read {path}: {e}"))?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("{path}: not JSON: {e}"))?;
        let mut registry = jsonschema::Registry::new().extend(
            generated_schemas()
                .into_iter()
                .map(|(name, v)| (schema_id(name), v)),
        );
        if let Some(id) = doc.get("$id").and_then(Value::as_str) {
            registry = registry.and_then(|r| r.add(id, doc.clone()));
        }
        let registry = registry
            .and_then(|r| r.prepare())
            .map_err(|e| format!("{path}: {e}"))?;
        let validator = jsonschema::options()
            .with_registry(&registry)
            .offline()
            .build(&doc)
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(CardSchema {
            path,
            doc,
            validator,
        })
    }

    /// The schema's complaints about `card`, one line each.
    pub fn problems(&self, card: &Value) -> Vec<String> {
        self.validator
            .iter_errors(card)
            .map(|e| format!("{}: {e}", e.instance_path().as_str()))
            .collect()
    }

    /// `card` (id, category, name...) with every field its schema requires, each with a
    /// placeholder the schema allows. Fails, saying why, when the schema wants more than a
    /// placeholder can give.
    pub fn fill(&self, mut card: Node) -> Result<Node, String> {
        // Each round adds what one `required` asks; a schema has a handful of them.
        for _ in 0..64 {
            let value = card.to_value();
            let wanted = self.validator.iter_errors(&value).find_map(|e| {
                let ValidationErrorKind::Required { .. } = e.kind() else {
                    return None;
                };
                let at: Vec<String> = e
                    .instance_path()
                    .as_str()
                    .split('/')
                    .skip(1)
                    .map(unescape)
                    .collect();
                let keyword = e.absolute_keyword_location()?.as_str().to_string();
                Some((at, keyword))
            });
            let Some((at, keyword)) = wanted else {
                break;
            };
            let Some(branch) = self.keyword_parent(&keyword) else {
                break;
            };
            let names: Vec<String> = branch
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            let property_of_root = self.property_along(&at);
            let Some(entries) = card.map_at(&at) else {
                break;
            };
            let before = entries.len();
            for name in names {
                if entries.iter().any(|(k, _)| *k == name) {
                    continue;
                }
                let mut schema = property_of_root
                    .as_ref()
                    .and_then(|p| p.get("properties"))
                    .and_then(|p| p.get(&name))
                    .map(|s| self.resolve(s))
                    .unwrap_or(Value::Bool(true));
                if let Some(s) = branch.get("properties").and_then(|p| p.get(&name)) {
                    schema = overlay(schema, self.resolve(s));
                }
                entries.push((name, self.placeholder(&schema)));
            }
            if entries.len() == before {
                break;
            }
        }
        let problems = self.problems(&card.to_value());
        if problems.is_empty() {
            Ok(card)
        } else {
            Err(format!(
                "{} asks for more than placeholders can give ({}): write this card by hand",
                self.path,
                problems.join("; ")
            ))
        }
    }

    /// The game's own fields `card` may also have (not required, not forbidden for its
    /// category), sorted.
    pub fn optional_fields(&self, card: &Value) -> Vec<String> {
        let mut forbidden: Vec<String> = Vec::new();
        for branch in self.branches_that_apply(card) {
            if let Some(props) = branch.get("properties").and_then(Value::as_object) {
                forbidden.extend(
                    props
                        .iter()
                        .filter(|(_, v)| **v == Value::Bool(false))
                        .map(|(k, _)| k.clone()),
                );
            }
        }
        let has = card.as_object();
        self.doc
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .filter(|k| !forbidden.contains(k))
            .filter(|k| has.is_none_or(|m| !m.contains_key(k)))
            .collect()
    }

    /// The `then` of each top-level `allOf` entry whose `if` the card meets.
    fn branches_that_apply(&self, card: &Value) -> Vec<&Value> {
        self.doc
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|entry| {
                let cond = entry.get("if")?;
                let then = entry.get("then")?;
                let holds = jsonschema::validator_for(cond)
                    .map(|v| v.is_valid(card))
                    .unwrap_or(false);
                holds.then_some(then)
            })
            .collect()
    }

    /// The schema object holding the keyword at `location` (`<$id>#/allOf/1/then/required`),
    /// when it is in this game's schema.
    fn keyword_parent(&self, location: &str) -> Option<&Value> {
        let (base, fragment) = location.split_once('#')?;
        let own = self.doc.get("$id").and_then(Value::as_str);
        if own != Some(base) {
            return None;
        }
        let parent = fragment.rsplit_once('/').map_or("", |(p, _)| p);
        self.doc.pointer(&percent_decode(parent))
    }

    /// The root schema's definition of the object at `path` (`[]`: the card itself).
    fn property_along(&self, path: &[String]) -> Option<Value> {
        let mut cur = self.resolve(&self.doc);
        for key in path {
            let next = cur.get("properties")?.get(key)?;
            cur = self.resolve(next);
        }
        Some(cur)
    }

    /// A schema with its local `$ref` and `allOf` members folded in (enough for
    /// placeholders: the other keywords of the members are constraints to meet).
    fn resolve(&self, schema: &Value) -> Value {
        let Value::Object(m) = schema else {
            return schema.clone();
        };
        let mut out = Map::new();
        if let Some(r) = m.get("$ref").and_then(Value::as_str)
            && let Some(target) = r.strip_prefix('#').and_then(|p| self.doc.pointer(p))
            && let Value::Object(t) = self.resolve(target)
        {
            out.extend(t);
        }
        for member in m
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Value::Object(t) = self.resolve(member) {
                out.extend(t);
            }
        }
        for (k, v) in m {
            if k != "$ref" && k != "allOf" {
                out.insert(k.clone(), v.clone());
            }
        }
        Value::Object(out)
    }

    /// A value the (resolved) schema allows: its `const`, its first `enum` value, the first
    /// alternative, 1 for a number (within its bounds), `false`, the fewest list items (one
    /// at least), an object with its required keys.
    fn placeholder(&self, schema: &Value) -> Node {
        let s = self.resolve(schema);
        if let Some(c) = s.get("const") {
            return Node::Scalar(c.clone());
        }
        if let Some(first) = s
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return Node::Scalar(first.clone());
        }
        for alt in ["oneOf", "anyOf"] {
            if let Some(first) = s.get(alt).and_then(Value::as_array).and_then(|a| a.first()) {
                return self.placeholder(first);
            }
        }
        let kind = match s.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .unwrap_or("null"),
            _ if s.get("properties").is_some() => "object",
            _ => "null",
        };
        let int = |k: &str| s.get(k).and_then(Value::as_i64);
        match kind {
            "integer" | "number" => {
                let mut n = int("minimum").map_or(1, |m| m.max(1));
                if let Some(max) = int("maximum") {
                    n = n.min(max);
                }
                Node::Scalar(Value::from(n))
            }
            "boolean" => Node::Scalar(Value::Bool(false)),
            "string" => Node::Text("?".into()),
            "array" => {
                let n = int("minItems").unwrap_or(1).max(1) as usize;
                let items = s.get("items").map(|i| self.resolve(i));
                let choices: Vec<Value> = items
                    .as_ref()
                    .and_then(|i| i.get("enum"))
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                if choices.len() >= n {
                    // Distinct values: lists of names are usually `uniqueItems`.
                    Node::List(choices.into_iter().take(n).map(Node::Scalar).collect())
                } else {
                    let one = items.map_or(Node::Text("?".into()), |i| self.placeholder(&i));
                    Node::List(vec![one; n])
                }
            }
            "object" => {
                let props = s.get("properties").cloned().unwrap_or(Value::Null);
                let entries = s
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(|k| {
                        let sub = props.get(k).cloned().unwrap_or(Value::Bool(true));
                        (k.to_string(), self.placeholder(&sub))
                    })
                    .collect();
                Node::Map(entries)
            }
            _ => Node::from_value(&Value::Null),
        }
    }
}

/// `base` with `over`'s keywords added: objects (`properties`) merged key by key, `required`
/// lists joined, anything else replaced.
fn overlay(base: Value, over: Value) -> Value {
    match (base, over) {
        (Value::Object(mut b), Value::Object(o)) => {
            for (k, v) in o {
                let merged = match (b.remove(&k), v) {
                    (Some(Value::Array(mut old)), Value::Array(new)) if k == "required" => {
                        old.extend(
                            new.into_iter()
                                .filter(|n| !old.contains(n))
                                .collect::<Vec<_>>(),
                        );
                        Value::Array(old)
                    }
                    (Some(old @ Value::Object(_)), new @ Value::Object(_)) => overlay(old, new),
                    (_, new) => new,
                };
                b.insert(k, merged);
            }
            Value::Object(b)
        }
        (b, Value::Bool(true)) => b,
        (_, o) => o,
    }
}

/// A JSON pointer token as a key (`~1` is `/`, `~0` is `~`).
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// `%XX` escapes of a URI fragment decoded.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
