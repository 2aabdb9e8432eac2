//! How card text writes a game's keywords: the spellings its `game.yaml` declares
//! (`keywords: [{name: blocker, text: {en: "[Blocker]"}}]`, `{n}` for a valued keyword's
//! number), and the keywords a text gives its card.
//!
//! A text *gives* a keyword when a line starts with its spelling, or with a run of keywords
//! (`〈Blocker〉 〈Repair 2〉`, `Interfere. Wisdom ...`), each maybe followed by its reminder
//! text in parentheses. A keyword named further on is a reference (`This Character gains
//! [Rush].`, `cannot activate [Blocker]`): a script grants or reads it.

use std::collections::BTreeMap;

use riffle_core::content::{KeywordDecl, RulesetManifest};

/// One way a language writes a keyword.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Spelling {
    keyword: String,
    /// The text before `{n}`, or all of it.
    prefix: String,
    /// The text after `{n}`, when the spelling has one.
    suffix: Option<String>,
}

/// A keyword a card's text gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The keyword's name.
    pub keyword: String,
    /// Its number, for a valued spelling.
    pub value: Option<i64>,
    /// Byte range in the text.
    pub start: usize,
    /// End of the byte range (exclusive).
    pub end: usize,
}

/// Every declared spelling, by language.
#[derive(Clone, Debug, Default)]
pub struct Spellings {
    by_lang: BTreeMap<String, Vec<Spelling>>,
}

impl Spellings {
    /// The spellings `manifest` declares.
    pub fn of(manifest: &RulesetManifest) -> Spellings {
        Spellings::from_keywords(&manifest.keywords)
    }

    /// The spellings of these keyword declarations.
    pub fn from_keywords(keywords: &[KeywordDecl]) -> Spellings {
        let mut by_lang: BTreeMap<String, Vec<Spelling>> = BTreeMap::new();
        for k in keywords {
            for (lang, text) in &k.text {
                let (prefix, suffix) = match text.split_once("{n}") {
                    Some((p, s)) => (p.to_string(), Some(s.to_string())),
                    None => (text.clone(), None),
                };
                if prefix.is_empty() && suffix.as_deref().is_none_or(str::is_empty) {
                    continue;
                }
                by_lang.entry(lang.clone()).or_default().push(Spelling {
                    keyword: k.name.clone(),
                    prefix,
                    suffix,
                });
            }
        }
        // The longest first: `Fixed Charging {n}` before `Charging {n}` were they to overlap.
        for list in by_lang.values_mut() {
            list.sort_by_key(|s| std::cmp::Reverse(s.prefix.len()));
        }
        Spellings { by_lang }
    }

    /// Whether `lang` has any spelling.
    pub fn knows(&self, lang: &str) -> bool {
        self.by_lang.contains_key(lang)
    }

    /// The spelling of `lang` that `s` starts with: the keyword, its number, the length.
    fn match_at(&self, lang: &str, s: &str) -> Option<(&str, Option<i64>, usize)> {
        for sp in self.by_lang.get(lang)? {
            let Some(rest) = s.strip_prefix(sp.prefix.as_str()) else {
                continue;
            };
            let Some(suffix) = &sp.suffix else {
                return Some((&sp.keyword, None, sp.prefix.len()));
            };
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let Ok(n) = rest[..digits].parse::<i64>() else {
                continue;
            };
            if rest[digits..].starts_with(suffix.as_str()) {
                return Some((
                    &sp.keyword,
                    Some(n),
                    sp.prefix.len() + digits + suffix.len(),
                ));
            }
        }
        None
    }

    /// The keywords `text` (in `lang`) gives its card, in order.
    pub fn claims(&self, lang: &str, text: &str) -> Vec<Claim> {
        let mut out = Vec::new();
        let mut line_start = 0;
        for line in text.split_inclusive('\n') {
            let mut i = skip_space(line, 0);
            while let Some((keyword, value, len)) = self.match_at(lang, &line[i..]) {
                out.push(Claim {
                    keyword: keyword.to_string(),
                    value,
                    start: line_start + i,
                    end: line_start + i + len,
                });
                i = skip_space(line, i + len);
                i = skip_space(line, skip_reminder(line, i));
                if let Some(sep) = [".", "/", ",", "、", "・"]
                    .iter()
                    .find(|s| line[i..].starts_with(**s))
                {
                    i = skip_space(line, i + sep.len());
                }
            }
            line_start += line.len();
        }
        out
    }

    /// `text` without keyword spellings (anywhere) and reminder text (parentheses): what
    /// else the text says. (A keyword the card's data lacks is another finding.)
    pub fn rest(&self, lang: &str, text: &str) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < text.len() {
            if let Some((_, _, len)) = self.match_at(lang, &text[i..]) {
                i += len;
                continue;
            }
            let after = skip_reminder(text, i);
            if after > i {
                i = after;
                continue;
            }
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
        out
    }
}

/// Whether `s` says anything: a letter or a digit (not only punctuation and spaces).
pub fn says_something(s: &str) -> bool {
    s.chars().any(char::is_alphanumeric)
}

fn skip_space(s: &str, mut i: usize) -> usize {
    while let Some(c) = s[i..].chars().next().filter(|c| c.is_whitespace()) {
        i += c.len_utf8();
    }
    i
}

/// Past the reminder text starting at `i` (`(...)` or `（...）`, nested), or `i` when none
/// starts there. An unclosed one runs to the end.
fn skip_reminder(s: &str, i: usize) -> usize {
    let rest = &s[i..];
    if !(rest.starts_with('(') || rest.starts_with('（')) {
        return i;
    }
    let mut depth = 0usize;
    for (j, c) in rest.char_indices() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => {
                depth -= 1;
                if depth == 0 {
                    return i + j + c.len_utf8();
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// A card's `keywords` data: each name and its number, if valued.
pub fn listed(keywords: Option<&serde_json::Value>) -> BTreeMap<String, Option<i64>> {
    let mut out = BTreeMap::new();
    for k in keywords.and_then(|v| v.as_array()).into_iter().flatten() {
        match k {
            serde_json::Value::String(name) => {
                out.insert(name.clone(), None);
            }
            serde_json::Value::Object(map) => {
                for (name, n) in map {
                    out.insert(name.clone(), n.as_i64());
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spellings(list: &[(&str, &str, &str)]) -> Spellings {
        let mut decls: Vec<KeywordDecl> = Vec::new();
        for (name, lang, text) in list {
            if !decls.iter().any(|k| k.name == *name) {
                decls.push(KeywordDecl {
                    name: name.to_string(),
                    valued: text.contains("{n}"),
                    doc: String::new(),
                    text: Default::default(),
                });
            }
            let k = decls.iter_mut().find(|k| k.name == *name).unwrap();
            k.text.insert(lang.to_string(), text.to_string());
        }
        Spellings::from_keywords(&decls)
    }

    fn names(claims: &[Claim]) -> Vec<(String, Option<i64>)> {
        claims
            .iter()
            .map(|c| (c.keyword.clone(), c.value))
            .collect()
    }

    #[test]
    fn a_line_that_starts_with_keywords_gives_them_and_a_later_mention_does_not() {
        let s = spellings(&[
            ("blocker", "en", "〈Blocker〉"),
            ("repair", "en", "〈Repair {n}〉"),
            ("blocker", "th", "〈บล็อกเกอร์〉"),
        ]);
        let text = "〈Blocker〉 〈Repair 2〉\n【During Link】 This unit gains 〈Repair 3〉.";
        let c = s.claims("en", text);
        assert_eq!(
            names(&c),
            [("blocker".into(), None), ("repair".into(), Some(2))]
        );
        assert_eq!(&text[c[1].start..c[1].end], "〈Repair 2〉");
        assert_eq!(
            names(&s.claims("th", "〈บล็อกเกอร์〉")),
            [("blocker".into(), None)]
        );
        // A language without spellings gives nothing.
        assert!(s.claims("ja", "〈Blocker〉").is_empty());
    }

    #[test]
    fn reminder_text_and_separators_between_keywords_are_skipped() {
        let s = spellings(&[
            ("rush", "en", "[Rush]"),
            ("blocker", "en", "[Blocker]"),
            ("interfere", "en", "Interfere."),
            ("wisdom", "en", "Wisdom"),
        ]);
        assert_eq!(
            names(&s.claims("en", "[Rush] (It can attack at once.) [Blocker]")),
            [("rush".into(), None), ("blocker".into(), None)]
        );
        assert_eq!(
            names(&s.claims("en", "Interfere. Wisdom Seal Card [Water].")),
            [("interfere".into(), None), ("wisdom".into(), None)]
        );
        // `Interfere Skill` is not the keyword `Interfere.`.
        assert!(
            s.claims("en", "Interfere Skill (Mp 1): cure a Seal.")
                .is_empty()
        );
        assert!(
            s.claims("en", "[DON!! x1] This Character gains [Rush].")
                .is_empty()
        );
    }

    #[test]
    fn the_rest_of_a_text_is_what_its_keywords_and_reminders_leave() {
        let s = spellings(&[("blocker", "en", "[Blocker]")]);
        let rest = s.rest("en", "[Blocker] (Rest it to block.)");
        assert!(!says_something(&rest), "{rest:?}");
        let rest = s.rest("en", "[Blocker]\n[On Play] Draw 1 card.");
        assert!(says_something(&rest), "{rest:?}");
        let rest = s.rest("en", "This Character gains [Blocker].");
        assert_eq!(rest, "This Character gains .");
    }

    #[test]
    fn keyword_data_reads_names_and_numbers() {
        let l = listed(Some(&serde_json::json!(["blocker", {"repair": 2}])));
        assert_eq!(l.get("blocker"), Some(&None));
        assert_eq!(l.get("repair"), Some(&Some(2)));
    }
}
