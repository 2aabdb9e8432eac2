//! Writing content files from JSON values: YAML as people write it here (short mappings and
//! lists inline, long texts on a line per language), every string that could be misread
//! quoted. What it writes reads back (`crate::yaml::parse`) as the same value.

use serde_json::{Map, Value};

/// The widest line the emitter puts a mapping or list on inline.
const INLINE_WIDTH: usize = 100;

/// Keys a nested mapping lists first, in this order (a printing's `code`, a ruling's `id`).
const FIRST_KEYS: &[&str] = &["id", "code", "name", "date", "question", "answer"];

/// A mapping's entries: [`FIRST_KEYS`] first, then the rest in the map's order.
fn entries(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut out: Vec<(&String, &Value)> = FIRST_KEYS
        .iter()
        .filter_map(|k| m.get_key_value(*k))
        .collect();
    out.extend(m.iter().filter(|(k, _)| !FIRST_KEYS.contains(&k.as_str())));
    out
}

/// A YAML document of `value`'s keys: those in `order` first, in that order, then the rest
/// in the map's order.
pub fn document(value: &Map<String, Value>, order: &[&str]) -> String {
    let mut keys: Vec<&String> = order
        .iter()
        .filter_map(|k| value.get_key_value(*k).map(|(k, _)| k))
        .collect();
    keys.extend(value.keys().filter(|k| !order.contains(&k.as_str())));
    let mut out = String::new();
    for k in keys {
        entry(&mut out, 0, k, &value[k.as_str()]);
    }
    out
}

fn entry(out: &mut String, indent: usize, key: &str, v: &Value) {
    let pad = " ".repeat(indent);
    let head = format!("{pad}{}:", scalar_key(key));
    let line = inline(v);
    if head.len() + 1 + line.len() <= INLINE_WIDTH || !is_container(v) || is_empty(v) {
        out.push_str(&format!("{head} {line}\n"));
        return;
    }
    out.push_str(&head);
    out.push('\n');
    block(out, indent + 2, v);
}

fn block(out: &mut String, indent: usize, v: &Value) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, x) in entries(m) {
                entry(out, indent, k, x);
            }
        }
        Value::Array(items) => {
            for item in items {
                let line = inline(item);
                if pad.len() + 2 + line.len() <= INLINE_WIDTH || !is_container(item) {
                    out.push_str(&format!("{pad}- {line}\n"));
                } else if let Value::Object(m) = item {
                    // `- key: value` then the other keys under it.
                    let mut first = true;
                    for (k, x) in entries(m) {
                        let mut one = String::new();
                        entry(&mut one, indent + 2, k, x);
                        if first {
                            out.push_str(&format!("{pad}- {}", &one[indent + 2..]));
                            first = false;
                        } else {
                            out.push_str(&one);
                        }
                    }
                    if first {
                        out.push_str(&format!("{pad}- {{}}\n"));
                    }
                } else {
                    out.push_str(&format!("{pad}-\n"));
                    block(out, indent + 2, item);
                }
            }
        }
        other => out.push_str(&format!("{pad}{}\n", inline(other))),
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// `v` on one line, in flow style.
fn inline(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar(s),
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(m) => {
            let items: Vec<String> = entries(m)
                .into_iter()
                .map(|(k, x)| format!("{}: {}", scalar_key(k), inline(x)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

fn scalar_key(k: &str) -> String {
    scalar(k)
}

/// A string plain when nothing could misread it (a name-like word), else double-quoted with
/// JSON's escapes, which YAML's double-quoted style reads the same.
fn scalar(s: &str) -> String {
    if is_plain(s) {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("a string serializes")
    }
}

fn is_plain(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == '_') {
        return false;
    }
    if !s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    !matches!(
        lower.as_str(),
        "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "nan" | "inf"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: Value, order: &[&str]) -> String {
        let text = document(v.as_object().unwrap(), order);
        let back = crate::yaml::parse(&text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
        assert_eq!(back.value, v, "{text}");
        text
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let text = round_trip(
            json!({
                "id": "OP01-001", "category": "leader",
                "name": {"en": "Roronoa Zoro", "ja": "ロロノア・ゾロ", "zh-Hant": "羅羅亞・索隆"},
                "text": {"en": "[DON!! x1] [Your Turn] All of your Characters gain +1000 power.\n(Reminder: \"quoted\")",
                         "th": "ไม่มี: # not a comment, 'single' and {braces} [brackets]"},
                "colors": ["red"], "power": 5000, "life": 5, "token": true,
                "weird": ["yes", "no", "null", "1.5", "007", "-x", "a: b", "", " lead"],
                "printings": [{"code": "OP01-001", "rarity": "L"},
                              {"code": "OP01-001_p1", "alternate": true, "image": "https://example.invalid/OP01-001_p1.png?260715"}],
                "rulings": [{"id": "Q1", "date": "2025-07-11",
                             "question": {"en": "A long question that does not fit on one line with everything else around it?"},
                             "answer": {"en": "Yes."}}],
                "empty": {}, "none": []
            }),
            &["id", "category", "name", "text"],
        );
        assert!(
            text.starts_with("id: OP01-001\ncategory: leader\nname: {en: \"Roronoa Zoro\""),
            "{text}"
        );
        assert!(text.contains("\ncolors: [red]\n"), "{text}");
        assert!(
            text.contains("\n  - {code: OP01-001, rarity: L}\n"),
            "{text}"
        );
        assert!(
            text.contains("\n  - id: Q1\n    date: \"2025-07-11\"\n"),
            "{text}"
        );
    }

    proptest::proptest! {
        /// Whatever a dataset's strings hold (quotes, colons, `#`, line breaks, control
        /// characters, any script), the file reads back as the same value.
        #[test]
        fn any_text_reads_back_the_same(
            key in "[a-z][a-z_-]{0,8}",
            texts in proptest::collection::vec(proptest::prelude::any::<String>(), 1..4),
            n in proptest::prelude::any::<i64>(),
        ) {
            let mut lang = Map::new();
            for (i, t) in texts.iter().enumerate() {
                lang.insert(format!("l{i}"), Value::String(t.clone()));
            }
            let v = json!({
                "id": texts[0].clone(), key.clone(): Value::Object(lang),
                "list": texts.clone(), "n": n,
                "items": [{"code": texts[0].clone(), "x": texts.clone()}]
            });
            let text = document(v.as_object().unwrap(), &["id"]);
            let back = crate::yaml::parse(&text).map_err(|e| format!("{text}\n{e:?}"));
            proptest::prop_assert_eq!(back.map(|d| d.value), Ok(v));
        }
    }

    #[test]
    fn long_texts_go_one_language_a_line() {
        let long = "word ".repeat(30);
        let text = round_trip(json!({"text": {"en": long, "ja": "短い"}}), &[]);
        assert!(text.starts_with("text:\n  en: \"word word"), "{text}");
        assert!(text.contains("\n  ja: \"短い\"\n"), "{text}");
    }
}
