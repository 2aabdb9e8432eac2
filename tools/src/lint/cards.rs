//! The checks of one card: its text against its script, keywords and data, and whether a
//! scenario tests it.

use std::path::Path;

use serde_json::Value;

use super::{
    ABILITIES_WITHOUT_TEXT, KEYWORD_NOT_IN_DATA, NEEDS_SCRIPT, NO_SCENARIO, RULES_TEXT_ANNOTATION,
    TEXT_WITHOUT_ABILITIES, position_of,
};
use riffle_content::diagnostic::display_path;
use riffle_content::keywords::listed;
use riffle_content::playability::Judge;
use riffle_content::yaml::{Pos, YamlDoc};
use riffle_content::{CardInfo, Diagnostic, Severity};
use riffle_core::CardDef;

/// What every card of a game is checked against.
pub struct Game<'a> {
    /// How card text writes the keywords, and which fields carry or hold rules text.
    pub judge: &'a Judge,
    /// The language the rules read (`names.printed`).
    pub printed: &'a str,
    /// Whether a scenario names each card id.
    pub tested: &'a dyn Fn(&str) -> bool,
}

/// The findings about one card, whose file reads as `source` and parses as `doc`; `def` is
/// the card as it loaded (None when it did not: `riffle validate` reports why).
pub fn check(
    game: &Game<'_>,
    info: &CardInfo,
    def: Option<&CardDef>,
    source: &str,
    doc: &YamlDoc,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let id = info.id.as_deref();
    let at = |severity, pos: Pos, code: &str, message: String, hint: String| {
        Diagnostic::new(severity, &info.path, pos, message)
            .for_card(id)
            .with_code(code)
            .with_hint(hint)
    };
    let texts = texts(doc.value.get("text"), game.printed);
    let own = listed(doc.value.get("keywords"));
    let has_text = texts.iter().any(|(_, t)| !t.trim().is_empty());
    let id_pos = doc.spans.value_pos("/id");

    if !has_text && (info.script.is_some() || !own.is_empty()) {
        let what = match &info.script {
            Some(s) => format!("its script {} gives it abilities", display_path(s)),
            None => "its `keywords` give it abilities".to_string(),
        };
        let pos = match doc.spans.get("/text") {
            Some(span) => span.value,
            None => id_pos,
        };
        out.push(at(
            Severity::Error,
            pos,
            ABILITIES_WITHOUT_TEXT,
            format!("the card has no rules text, but {what}"),
            format!(
                "write what it does in `text:` (`text: {{{}: \"...\"}}`): players read the text, not the script",
                game.printed
            ),
        ));
    }

    let marked = doc.value.get("needs_script") == Some(&Value::Bool(true));
    if marked && info.script.is_none() {
        out.push(at(
            Severity::Warning,
            doc.spans.key_pos("/needs_script"),
            NEEDS_SCRIPT,
            "the card is marked as needing a script: games refuse decks that hold it".into(),
            format!(
                "write its script ({}.lua beside the card, docs/scripting.md), then remove `needs_script: true`",
                stem(&info.path)
            ),
        ));
    }
    if let Some(ptr) = def
        .filter(|_| !marked)
        .and_then(|d| game.judge.unimplemented(d))
    {
        out.push(at(
            Severity::Error,
            doc.spans.value_pos(&ptr),
            TEXT_WITHOUT_ABILITIES,
            "the card's text says more than its keywords, but no script or data does it".into(),
            format!(
                "write a script ({}.lua beside the card, docs/scripting.md), or mark the card `needs_script: true` until you do; if it is only keywords, list them in `keywords:`; if the ruleset reads it from a field, mark that field `\"{RULES_TEXT_ANNOTATION}\": true` in the game's card schema",
                stem(&info.path)
            ),
        ));
    }

    for (lang, text) in &texts {
        for claim in game.judge.spellings().claims(lang, text) {
            let written = &text[claim.start..claim.end];
            let listed_as = own.get(&claim.keyword);
            let problem = match (listed_as, claim.value) {
                (None, _) => format!(
                    "the text gives the keyword `{}` ({written}), but `keywords` does not list it",
                    claim.keyword
                ),
                (Some(Some(n)), Some(m)) if *n != m => format!(
                    "the text gives {written}, but `keywords` has `{{{}: {n}}}`",
                    claim.keyword
                ),
                _ => continue,
            };
            let entry = match claim.value {
                Some(n) => format!("{{{}: {n}}}", claim.keyword),
                None => claim.keyword.clone(),
            };
            let from = doc.spans.value_pos(&format!("/text/{lang}"));
            let nth = text[..claim.start].matches(written).count();
            let pos = position_of(source, from, written, nth).unwrap_or(from);
            out.push(at(
                Severity::Error,
                pos,
                KEYWORD_NOT_IN_DATA,
                problem,
                format!(
                    "list `{entry}` in `keywords:`; if the text only names the keyword (a script grants it), start the line with something else"
                ),
            ));
        }
    }

    if let (Some(script), Some(id)) = (&info.script, id)
        && !(game.tested)(id)
    {
        let set = info.path.parent().map(display_path).unwrap_or_default();
        out.push(at(
            Severity::Warning,
            id_pos,
            NO_SCENARIO,
            format!(
                "no scenario names this scripted card (its script: {})",
                display_path(script)
            ),
            format!(
                "write {set}/{id}.test.yaml with a scenario that plays it and checks its effect (docs/scenarios.md)"
            ),
        ));
    }
    out
}

/// A card's texts by language: the rules language's first. A plain string is in the rules
/// language.
fn texts(text: Option<&Value>, printed: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = match text {
        Some(Value::String(s)) => vec![(printed.to_string(), s.clone())],
        Some(Value::Object(map)) => map
            .iter()
            .filter_map(|(l, v)| Some((l.clone(), v.as_str()?.to_string())))
            .collect(),
        _ => Vec::new(),
    };
    out.sort_by_key(|(l, _)| l != printed);
    out
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
