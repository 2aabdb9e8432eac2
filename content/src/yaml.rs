//! YAML with positions: saphyr's `MarkedYaml` turned into a `serde_json::Value` plus a map
//! from JSON pointer to the position of each key and value.

use std::collections::BTreeMap;

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use serde_json::Value;

/// Deepest nesting accepted. Content files are shallow; the cap keeps a hostile file from
/// overflowing the stack (converting, validating and dropping values all recurse).
pub const MAX_DEPTH: usize = 64;

/// A position in a text file: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

impl Pos {
    /// The start of a file.
    pub const START: Pos = Pos { line: 1, col: 1 };

    fn of(marker: &saphyr::Marker) -> Pos {
        Pos {
            line: u32::try_from(marker.line()).unwrap_or(u32::MAX).max(1),
            col: u32::try_from(marker.col())
                .unwrap_or(u32::MAX - 1)
                .saturating_add(1),
        }
    }
}

/// Where a node is: its value, and its key when it is a mapping entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeSpan {
    /// Where the key starts (mapping entries only).
    pub key: Option<Pos>,
    /// Where the value starts.
    pub value: Pos,
}

/// JSON pointer (RFC 6901, `/a/0/b`) → position. The root document is `""`.
#[derive(Clone, Debug, Default)]
pub struct SpanMap {
    spans: BTreeMap<String, NodeSpan>,
}

impl SpanMap {
    /// The exact span recorded for `pointer`, if any.
    pub fn get(&self, pointer: &str) -> Option<NodeSpan> {
        self.spans.get(pointer).copied()
    }

    /// The position of the value at `pointer`, or of its nearest ancestor that has one.
    pub fn value_pos(&self, pointer: &str) -> Pos {
        self.nearest(pointer).map_or(Pos::START, |s| s.value)
    }

    /// The position of the key at `pointer` (falling back to its value, then to the nearest
    /// ancestor).
    pub fn key_pos(&self, pointer: &str) -> Pos {
        self.nearest(pointer)
            .map_or(Pos::START, |s| s.key.unwrap_or(s.value))
    }

    fn nearest(&self, pointer: &str) -> Option<NodeSpan> {
        let mut p = pointer;
        loop {
            if let Some(s) = self.spans.get(p) {
                return Some(*s);
            }
            if p.is_empty() {
                return None;
            }
            p = match p.rfind('/') {
                Some(i) => &p[..i],
                None => "",
            };
        }
    }

    /// Number of recorded nodes.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

/// Escapes one reference token of a JSON pointer (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A problem found while reading a YAML file: a position and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlProblem {
    /// Where.
    pub pos: Pos,
    /// The JSON pointer of the node concerned, when there is one.
    pub pointer: Option<String>,
    /// What is wrong, for a person.
    pub message: String,
}

/// A parsed YAML document.
#[derive(Clone, Debug)]
pub struct YamlDoc {
    /// The document as JSON data.
    pub value: Value,
    /// Positions of every key and value.
    pub spans: SpanMap,
}

/// Parses one YAML document. Syntax errors stop parsing (with saphyr's position); problems
/// converting to JSON (non-text keys, NaN, too deep) are all collected and the offending node
/// becomes `null`.
pub fn parse(text: &str) -> Result<YamlDoc, Vec<YamlProblem>> {
    let docs = match MarkedYaml::load_from_str(text) {
        Ok(docs) => docs,
        Err(e) => {
            return Err(vec![YamlProblem {
                pos: Pos::of(e.marker()),
                pointer: None,
                message: format!("YAML syntax error: {}", e.info()),
            }]);
        }
    };
    let mut docs = docs.into_iter();
    let Some(first) = docs.next() else {
        return Err(vec![YamlProblem {
            pos: Pos::START,
            pointer: None,
            message: "the file is empty: expected a YAML mapping".into(),
        }]);
    };
    if let Some(second) = docs.next() {
        return Err(vec![YamlProblem {
            pos: Pos::of(&second.span.start),
            pointer: None,
            message: "expected one YAML document, found several (remove the `---` separator)"
                .into(),
        }]);
    }
    let mut conv = Converter::default();
    let value = conv.node(&first, String::new(), None, 0);
    if conv.problems.is_empty() {
        Ok(YamlDoc {
            value,
            spans: conv.spans,
        })
    } else {
        Err(conv.problems)
    }
}

#[derive(Default)]
struct Converter {
    spans: SpanMap,
    problems: Vec<YamlProblem>,
}

impl Converter {
    fn problem(&mut self, pos: Pos, pointer: &str, message: impl Into<String>) {
        self.problems.push(YamlProblem {
            pos,
            pointer: Some(pointer.to_string()),
            message: message.into(),
        });
    }

    fn node(&mut self, node: &MarkedYaml, ptr: String, key: Option<Pos>, depth: usize) -> Value {
        let mut pos = Pos::of(&node.span.start);
        if let (Some(k), true) = (key, node.span.start.index() == node.span.end.index()) {
            // An empty value (`cost:`): point at its key, not at the colon.
            if matches!(node.data, YamlData::Value(Scalar::Null)) {
                pos = k;
            }
        }
        self.spans
            .spans
            .insert(ptr.clone(), NodeSpan { key, value: pos });
        if depth > MAX_DEPTH {
            self.problem(
                pos,
                &ptr,
                format!("nested more than {MAX_DEPTH} levels deep"),
            );
            return Value::Null;
        }
        self.data(&node.data, pos, ptr, depth)
    }

    fn data<'a>(
        &mut self,
        data: &YamlData<'a, MarkedYaml<'a>>,
        pos: Pos,
        ptr: String,
        depth: usize,
    ) -> Value {
        match data {
            YamlData::Value(s) => self.scalar(s, pos, &ptr),
            YamlData::Representation(text, _, _) => Value::String(text.to_string()),
            YamlData::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(self.node(item, format!("{ptr}/{i}"), None, depth + 1));
                }
                Value::Array(out)
            }
            YamlData::Mapping(map) => {
                let mut out = serde_json::Map::new();
                for (k, v) in map {
                    let kpos = Pos::of(&k.span.start);
                    let Some(name) = key_text(&k.data) else {
                        self.problem(
                            kpos,
                            &ptr,
                            "a key must be plain text (a number or a word), not a list or mapping",
                        );
                        continue;
                    };
                    let child = format!("{ptr}/{}", escape_token(&name));
                    let value = self.node(v, child, Some(kpos), depth + 1);
                    out.insert(name, value);
                }
                Value::Object(out)
            }
            // Tags carry no meaning in content files: read through them.
            YamlData::Tagged(_, inner) => self.data(&inner.data, pos, ptr, depth),
            YamlData::Alias(_) => {
                self.problem(pos, &ptr, "unresolved alias");
                Value::Null
            }
            YamlData::BadValue => {
                self.problem(pos, &ptr, "this value does not match its tag");
                Value::Null
            }
        }
    }

    fn scalar(&mut self, s: &Scalar<'_>, pos: Pos, ptr: &str) -> Value {
        match s {
            Scalar::Null => Value::Null,
            Scalar::Boolean(b) => Value::Bool(*b),
            Scalar::Integer(i) => Value::from(*i),
            Scalar::FloatingPoint(f) => match serde_json::Number::from_f64(f.into_inner()) {
                Some(n) => Value::Number(n),
                None => {
                    self.problem(
                        pos,
                        ptr,
                        "not a finite number (.nan and .inf are not allowed)",
                    );
                    Value::Null
                }
            },
            Scalar::String(t) => Value::String(t.to_string()),
        }
    }
}

/// The text of a mapping key, when it is a scalar (numbers and booleans become their text).
fn key_text<'a>(data: &YamlData<'a, MarkedYaml<'a>>) -> Option<String> {
    match data {
        YamlData::Value(Scalar::String(s)) => Some(s.to_string()),
        YamlData::Value(Scalar::Integer(i)) => Some(i.to_string()),
        YamlData::Value(Scalar::Boolean(b)) => Some(b.to_string()),
        YamlData::Value(Scalar::FloatingPoint(f)) => Some(f.into_inner().to_string()),
        YamlData::Value(Scalar::Null) => Some("null".into()),
        YamlData::Representation(t, _, _) => Some(t.to_string()),
        YamlData::Tagged(_, inner) => key_text(&inner.data),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: u32, col: u32) -> Pos {
        Pos { line, col }
    }

    #[test]
    fn maps_pointers_to_keys_and_values() {
        let doc =
            parse("id: RF01-001\nname:\n  en: Fire Imp\nkeywords:\n  - blocker\n  - repair: 2\n")
                .unwrap();
        assert_eq!(doc.value["name"]["en"], "Fire Imp");
        let s = &doc.spans;
        assert_eq!(s.get("").unwrap().value, p(1, 1));
        assert_eq!(
            s.get("/id").unwrap(),
            NodeSpan {
                key: Some(p(1, 1)),
                value: p(1, 5)
            }
        );
        assert_eq!(
            s.get("/name/en").unwrap(),
            NodeSpan {
                key: Some(p(3, 3)),
                value: p(3, 7)
            }
        );
        assert_eq!(
            s.get("/keywords/0").unwrap(),
            NodeSpan {
                key: None,
                value: p(5, 5)
            }
        );
        assert_eq!(s.get("/keywords/1/repair").unwrap().value, p(6, 13));
    }

    #[test]
    fn empty_values_point_at_their_key() {
        let doc = parse("a:\nb: 1\n").unwrap();
        assert_eq!(doc.spans.get("/a").unwrap().value, p(1, 1));
    }

    #[test]
    fn falls_back_to_nearest_parent() {
        let doc = parse("a:\n  b: 1\n").unwrap();
        assert_eq!(doc.spans.value_pos("/a/b/c/d"), p(2, 6));
        assert_eq!(doc.spans.value_pos("/zzz"), p(1, 1));
        assert_eq!(doc.spans.key_pos("/a/b"), p(2, 3));
    }

    #[test]
    fn escapes_pointer_tokens() {
        let doc = parse("\"a/b\": 1\n\"c~d\": 2\n").unwrap();
        assert!(doc.spans.get("/a~1b").is_some());
        assert!(doc.spans.get("/c~0d").is_some());
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let doc = parse("name: {ja: ルフィ, en: Luffy}\n").unwrap();
        assert_eq!(doc.spans.get("/name/en").unwrap().key, Some(p(1, 17)));
    }

    #[test]
    fn flow_and_numeric_keys() {
        let doc = parse("sections: {main: {RF01-001: 4, 7: 1}}\n").unwrap();
        assert_eq!(doc.value["sections"]["main"]["7"], 1);
        assert!(doc.spans.get("/sections/main/RF01-001").is_some());
    }

    #[test]
    fn syntax_error_has_position() {
        let err = parse("a: 1\nb: [1, 2\n").unwrap_err();
        assert_eq!(err.len(), 1);
        assert!(err[0].message.starts_with("YAML syntax error"), "{err:?}");
        assert!(err[0].pos.line >= 2, "{err:?}");
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let err = parse("a: 1\na: 2\n").unwrap_err();
        assert_eq!(err[0].pos.line, 2, "{err:?}");
        assert!(err[0].message.contains("duplicate"), "{err:?}");
    }

    #[test]
    fn empty_and_multi_document_files() {
        assert!(parse("").unwrap_err()[0].message.contains("empty"));
        assert!(
            parse("# only a comment\n").unwrap_err()[0]
                .message
                .contains("empty")
        );
        let err = parse("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(err[0].pos.line, 3, "{err:?}");
    }

    #[test]
    fn anchors_are_resolved() {
        let doc = parse("a: &x {k: 1}\nb: *x\n").unwrap();
        assert_eq!(doc.value["b"]["k"], 1);
    }

    #[test]
    fn non_scalar_keys_and_nan_are_reported() {
        let err = parse("? [a, b]\n: 1\nc: .nan\n").unwrap_err();
        assert_eq!(err.len(), 2, "{err:?}");
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        assert!(parse(&deep).is_err());
        let deep_block: String = (0..200)
            .map(|i| format!("{}k:\n", "  ".repeat(i)))
            .collect();
        assert!(parse(&deep_block).is_err());
    }

    #[test]
    fn garbage_never_panics() {
        let samples = [
            "\0\0\0",
            ":",
            "- - - -",
            "{",
            "}",
            "[",
            "]]",
            "&a *a",
            "*b",
            "!!int x",
            "a: !!int x",
            "\t- x",
            "? ",
            "---\n...\n---",
            "%YAML 9.9\n---\na: 1",
            "a: 'unterminated",
            "a: \"\\u{zz}\"",
            "\u{feff}a: 1",
            "a:\n\t- b",
            "key: |\n  x\n y",
            "&a [*a]",
            "a: &a b\nc: *zz",
            "- !<tag:yaml.org,2002:str> x",
            "'",
            "!",
            "?",
            "|",
            ">",
            "@",
            "`",
            "a: b: c",
            "- a\nb: c",
            "[a, b]: c",
            "{? a}",
            "!!binary xyz",
            "a: 1e99999",
        ];
        for s in samples {
            let _ = parse(s);
        }
        // A tiny xorshift over printable YAML-ish bytes.
        let alphabet = b"ab:-[]{},&*!?|>'\"#%@` \n\t0123456789.~";
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let len = (x % 40) as usize;
            let mut s = String::new();
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(alphabet[(x % alphabet.len() as u64) as usize] as char);
            }
            let _ = parse(&s);
        }
    }
}
