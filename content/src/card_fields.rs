//! A game's own card fields (`cost`, `power`, `colors`...) as its card schema
//! (`schema/<game>/card.schema.json`) declares them: name, kind, description, and whether the
//! ruleset reads rules text from it. Clients get them with the card database export.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The annotation on a property of a game's card schema saying that the field carries rules
/// text the ruleset implements (`deck_limit`, `protect`): a card with it needs no script for
/// that text.
pub const RULES_TEXT_ANNOTATION: &str = "x-rules-text";

/// The annotation on a property of a game's card schema saying that the field holds the text
/// of an ability of its own (One Piece's `trigger`): like the card's `text`, it needs a
/// script unless it is only keywords.
pub const ABILITY_TEXT_ANNOTATION: &str = "x-ability-text";

/// The fields every card has (`CardFile`'s own): not game fields.
pub const COMMON_FIELDS: &[&str] = &[
    "id",
    "category",
    "name",
    "text",
    "keywords",
    "script",
    "printings",
    "needs_script",
    "rulings",
];

/// What kind of value a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    /// A whole number.
    Integer,
    /// Text (a name from a list, or free text).
    Text,
    /// True or false.
    Boolean,
    /// A list of values.
    List,
    /// A text per language.
    Localized,
    /// Anything else: a mapping of its own shape.
    Object,
}

/// One game field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardField {
    /// Its key in card files.
    pub name: String,
    /// What it holds.
    pub kind: FieldKind,
    /// The schema's description (rule numbers included).
    pub description: String,
    /// The values it may take, when the schema lists them (for a list: its items').
    pub values: Vec<String>,
    /// Whether the ruleset reads rules text from it ([`RULES_TEXT_ANNOTATION`]).
    pub rules_text: bool,
    /// Whether it holds an ability's text ([`ABILITY_TEXT_ANNOTATION`]).
    pub ability_text: bool,
}

/// The game fields a card schema declares, by name (its `properties` less the common
/// fields); `$ref`s inside the schema (`#/$defs/...`) are followed to find kinds and values.
pub fn declared(schema: &Value) -> Vec<CardField> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    props
        .iter()
        .filter(|(name, _)| !COMMON_FIELDS.contains(&name.as_str()))
        .map(|(name, p)| {
            let resolved = resolve(schema, p);
            let items = resolved.get("items").map(|i| resolve(schema, i));
            let kind = kind_of(schema, resolved);
            let values = match kind {
                FieldKind::List => items.map(enum_values).unwrap_or_default(),
                _ => enum_values(resolved),
            };
            CardField {
                name: name.clone(),
                kind,
                description: p
                    .get("description")
                    .or_else(|| resolved.get("description"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                values,
                rules_text: p.get(RULES_TEXT_ANNOTATION) == Some(&Value::Bool(true)),
                ability_text: p.get(ABILITY_TEXT_ANNOTATION) == Some(&Value::Bool(true)),
            }
        })
        .collect()
}

/// The names of the fields marked [`RULES_TEXT_ANNOTATION`].
pub fn rules_text_fields(fields: &[CardField]) -> std::collections::BTreeSet<String> {
    fields
        .iter()
        .filter(|f| f.rules_text)
        .map(|f| f.name.clone())
        .collect()
}

/// A subschema with a local `$ref` (`#/$defs/x`), or a lone `allOf: [{$ref}]`, followed.
fn resolve<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    let mut cur = s;
    for _ in 0..8 {
        let next = cur
            .get("$ref")
            .and_then(Value::as_str)
            .or_else(|| {
                let all = cur.get("allOf")?.as_array()?;
                all.first()?.get("$ref")?.as_str()
            })
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|ptr| root.pointer(ptr));
        match next {
            Some(n) => cur = n,
            None => break,
        }
    }
    cur
}

fn kind_of(root: &Value, s: &Value) -> FieldKind {
    match s.get("type").and_then(Value::as_str) {
        Some("integer") | Some("number") => FieldKind::Integer,
        Some("string") => FieldKind::Text,
        Some("boolean") => FieldKind::Boolean,
        Some("array") => FieldKind::List,
        Some("object") if s.get("propertyNames").is_some() && s.get("properties").is_none() => {
            FieldKind::Localized
        }
        Some("object") => FieldKind::Object,
        _ => match s.get("enum").and_then(Value::as_array) {
            Some(vals) if vals.iter().all(Value::is_string) => FieldKind::Text,
            Some(vals) if vals.iter().all(Value::is_i64) => FieldKind::Integer,
            _ => {
                // `anyOf`/`oneOf` of one kind is that kind.
                let branches = s
                    .get("anyOf")
                    .or_else(|| s.get("oneOf"))
                    .and_then(Value::as_array);
                match branches {
                    Some(b) if !b.is_empty() => {
                        let first = kind_of(root, resolve(root, &b[0]));
                        if b.iter().all(|x| kind_of(root, resolve(root, x)) == first) {
                            first
                        } else {
                            FieldKind::Object
                        }
                    }
                    _ => FieldKind::Object,
                }
            }
        },
    }
}

fn enum_values(s: &Value) -> Vec<String> {
    s.get("enum")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|v| match v {
                    Value::String(t) => t.clone(),
                    other => other.to_string(),
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_with_their_kinds_values_and_marks() {
        let schema = serde_json::json!({
            "properties": {
                "id": true, "name": true, "rulings": true,
                "cost": {"type": "integer", "description": "Cost (2-7)."},
                "colors": {"type": "array", "items": {"$ref": "#/$defs/color"}},
                "trigger": {"description": "Its [Trigger].", "$ref": "#/$defs/localized", "x-ability-text": true},
                "deck_limit": {"type": "integer", "x-rules-text": true},
                "pilot": {"type": "object", "properties": {"name": true}},
                "rarity": {"type": "string"}
            },
            "$defs": {
                "color": {"enum": ["red", "blue"]},
                "localized": {"type": "object", "propertyNames": {"pattern": "x"}}
            }
        });
        let f = declared(&schema);
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        // serde_json keeps keys sorted: the order is the schema's keys', sorted.
        assert_eq!(
            names,
            ["colors", "cost", "deck_limit", "pilot", "rarity", "trigger"]
        );
        let by = |n: &str| f.iter().find(|f| f.name == n).unwrap();
        assert_eq!(by("cost").kind, FieldKind::Integer);
        assert_eq!(by("cost").description, "Cost (2-7).");
        assert_eq!(by("colors").kind, FieldKind::List);
        assert_eq!(by("colors").values, ["red", "blue"]);
        assert_eq!(by("trigger").kind, FieldKind::Localized);
        assert_eq!(by("trigger").description, "Its [Trigger].");
        assert_eq!(by("pilot").kind, FieldKind::Object);
        assert!(by("deck_limit").rules_text && !by("cost").rules_text);
        assert!(by("trigger").ability_text && !by("deck_limit").ability_text);
        assert_eq!(
            rules_text_fields(&f).into_iter().collect::<Vec<_>>(),
            ["deck_limit"]
        );
    }
}
