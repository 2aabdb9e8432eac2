//! The Gundam Card Game's public "gcg-api" dataset: `cards.ndjson`, one printing a line
//! (`product_id` per printing, `card_number` shared by reprints and parallels), beside it
//! `sets/en/index.json` (set titles) and `rulings.json` (official questions and answers by
//! card number). English only.
//!
//! A card lives in the set of its card number (`GD01-001` → `GD01`, tokens `T-011` → `T`);
//! a printing sold in another set names it. The dataset writes keywords in ASCII brackets
//! (`<Blocker>`, sometimes `[Suppression]`); the cards print them `〈Blocker〉`, as the
//! ruleset spells them, and the importer writes them so.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use riffle_core::RulesetManifest;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::text::{optional, plain};
use super::{
    DataCard, DataSet, Dataset, MAX_LINE_BYTES, MAX_PRINTINGS, is_safe_id, json_error_pos, one,
    problem, read_bounded, set_of_card,
};
use crate::diagnostic::Diagnostic;
use crate::yaml::Pos;

/// One printing as the dataset writes it (fields it adds later are ignored).
#[derive(Clone, Debug, Deserialize, PartialEq)]
struct Raw {
    product_id: String,
    card_number: String,
    name: String,
    set_code: String,
    rarity: Option<String>,
    card_type: String,
    color: Option<String>,
    level: Option<i64>,
    cost: Option<i64>,
    ap: Option<i64>,
    hp: Option<i64>,
    zone: Option<String>,
    link: Option<String>,
    traits: Vec<String>,
    effect: Option<String>,
    #[serde(default)]
    image_url: Option<String>,
}

#[derive(Clone, Debug)]
struct Read {
    raw: Raw,
    line: u32,
}

#[derive(Deserialize)]
struct RawSet {
    set_code: String,
    set_name: String,
}

#[derive(Deserialize)]
struct RawRuling {
    card_number: String,
    num: String,
    #[serde(default)]
    date: Option<String>,
    question: String,
    answer: String,
    #[serde(default)]
    source_url: Option<String>,
}

/// Reads `cards.ndjson` at `file` (and the sets and rulings beside it) for the Gundam
/// ruleset `manifest` (its keyword spellings).
pub fn read(file: &Path, manifest: &RulesetManifest) -> Result<Dataset, Vec<Diagnostic>> {
    let text = read_bounded(file).map_err(|e| vec![*e])?;
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    let mut printings: BTreeMap<String, Read> = BTreeMap::new();
    let mut offset = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let lineno = i as u32 + 1;
        let pos = Pos {
            line: lineno,
            col: 1,
        };
        if line.len() > MAX_LINE_BYTES {
            errors.push(problem(
                file,
                pos,
                format!(
                    "a line of {} bytes: a printing is under {} KiB; is it the right file?",
                    line.len(),
                    MAX_LINE_BYTES / 1024
                ),
            ));
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        if printings.len() >= MAX_PRINTINGS {
            errors.push(problem(
                file,
                pos,
                format!("more than {MAX_PRINTINGS} printings: is it the right file?"),
            ));
            break;
        }
        let raw: Raw = match serde_json::from_str(line.trim_end_matches(['\n', '\r'])) {
            Ok(r) => r,
            Err(e) => {
                errors.push(problem(
                    file,
                    json_error_pos(&text, start, &e),
                    format!("a card printing: {e}"),
                ));
                continue;
            }
        };
        for id in [&raw.product_id, &raw.card_number] {
            if !is_safe_id(id) || set_of_card(&raw.card_number).is_none() {
                errors.push(problem(
                    file,
                    pos,
                    format!(
                        "{id:?} is not a card number or printing id (like GD01-001, GD01-001_p1)"
                    ),
                ));
            }
        }
        if !is_safe_id(&raw.set_code) {
            errors.push(problem(
                file,
                pos,
                format!("set code {:?} is not a set code (like GD01)", raw.set_code),
            ));
        }
        if !raw.product_id.starts_with(&raw.card_number) {
            errors.push(problem(
                file,
                pos,
                format!(
                    "printing {} is not of card {}: a printing id is its card number and a suffix",
                    raw.product_id, raw.card_number
                ),
            ));
        }
        match printings.get(&raw.product_id) {
            Some(first) if first.raw == raw => notes.push(format!(
                "{}:{lineno}: printing {} listed again (as at line {}): kept once",
                file.display(),
                raw.product_id,
                first.line
            )),
            Some(first) => errors.push(problem(
                file,
                pos,
                format!(
                    "duplicate printing id {}: also at line {}, with other data",
                    raw.product_id, first.line
                ),
            )),
            None => {
                printings.insert(raw.product_id.clone(), Read { raw, line: lineno });
            }
        }
    }
    let data_dir = file.parent().unwrap_or(Path::new("."));
    let set_names = read_sets(
        &data_dir.join("sets").join("en").join("index.json"),
        &mut errors,
        &mut notes,
    );
    let rulings = read_rulings(&data_dir.join("rulings.json"), &mut errors, &mut notes);
    // The cards are read on even after a bad line, so that one run reports every problem.
    let mut by_card: BTreeMap<&str, Vec<&Read>> = BTreeMap::new();
    for p in printings.values() {
        by_card
            .entry(p.raw.card_number.as_str())
            .or_default()
            .push(p);
    }
    let spellings = ascii_spellings(manifest);
    let mut cards = Vec::new();
    for (number, list) in &by_card {
        match card(number, list, &spellings, rulings.get(*number), file) {
            Ok(c) => cards.push(c),
            Err(e) => errors.push(*e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut ids: BTreeSet<String> = cards.iter().map(|c| c.set.clone()).collect();
    for c in &cards {
        for p in c.fields["printings"].as_array().into_iter().flatten() {
            if let Some(s) = p.get("set").and_then(Value::as_str) {
                ids.insert(s.to_string());
            }
        }
    }
    let sets = ids
        .into_iter()
        .map(|id| DataSet {
            name: one(
                "en",
                set_names.get(&id).cloned().unwrap_or_else(|| id.clone()),
            ),
            description: None,
            id,
        })
        .collect();
    let unknown_rulings: Vec<&String> = rulings
        .keys()
        .filter(|k| !by_card.contains_key(k.as_str()))
        .collect();
    if !unknown_rulings.is_empty() {
        notes.push(format!(
            "rulings of {} card number(s) not in cards.ndjson were left out: {}",
            unknown_rulings.len(),
            unknown_rulings
                .iter()
                .take(12)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(Dataset {
        game: "gundam".into(),
        source: "gcg-api".into(),
        version: version(data_dir),
        sets,
        cards,
        notes,
    })
}

/// The dataset's version (`manifest.json` `dataset_version`), or `1`.
fn version(data_dir: &Path) -> String {
    let from = |p: PathBuf| -> Option<String> {
        let v: Value = serde_json::from_str(&crate::read::read_text(p).ok()?).ok()?;
        Some(v.get("dataset_version")?.as_str()?.to_string())
    };
    from(data_dir.join("manifest.json"))
        .or_else(|| from(data_dir.join("..").join("manifest.json")))
        .unwrap_or_else(|| "1".into())
}

/// A JSON file beside `cards.ndjson`: None when it is missing (with `missing` as a note) or
/// does not read (an error at its position).
fn read_beside<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &str,
    missing: &str,
    errors: &mut Vec<Diagnostic>,
    notes: &mut Vec<String>,
) -> Option<T> {
    if !path.is_file() {
        notes.push(format!("no {}: {missing}", path.display()));
        return None;
    }
    let text = read_bounded(path).map_err(|e| errors.push(*e)).ok()?;
    serde_json::from_str(&text)
        .map_err(|e| {
            errors.push(problem(
                path,
                json_error_pos(&text, 0, &e),
                format!("{what}: {e}"),
            ));
        })
        .ok()
}

fn read_sets(
    path: &Path,
    errors: &mut Vec<Diagnostic>,
    notes: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let list: Vec<RawSet> =
        read_beside(path, "sets", "sets are named by their codes", errors, notes)
            .unwrap_or_default();
    list.into_iter()
        .map(|s| (s.set_code, plain(&s.set_name)))
        .collect()
}

fn read_rulings(
    path: &Path,
    errors: &mut Vec<Diagnostic>,
    notes: &mut Vec<String>,
) -> BTreeMap<String, Vec<Value>> {
    let list: Vec<RawRuling> =
        read_beside(path, "rulings", "no rulings imported", errors, notes).unwrap_or_default();
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for r in list {
        let mut m = Map::new();
        m.insert("id".into(), json!(r.num));
        if let Some(d) = r.date.as_deref().and_then(iso_date) {
            m.insert("date".into(), json!(d));
        }
        m.insert("question".into(), json!({"en": plain(&r.question)}));
        m.insert("answer".into(), json!({"en": plain(&r.answer)}));
        if let Some(s) = r.source_url {
            m.insert("source".into(), json!(s));
        }
        let list = out.entry(r.card_number).or_default();
        if !list.iter().any(|x| x["id"] == m["id"]) {
            list.push(Value::Object(m));
        }
    }
    out
}

/// `July 11, 2025` (or already `2025-07-11`) as `2025-07-11`.
fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() == 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-' {
        return Some(s.to_string());
    }
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let (month, rest) = s.split_once(' ')?;
    let m = MONTHS.iter().position(|x| *x == month)? + 1;
    let (day, year) = rest.split_once(',')?;
    let d: u32 = day.trim().parse().ok()?;
    let y: u32 = year.trim().parse().ok()?;
    (1..=31)
        .contains(&d)
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// For each keyword the ruleset spells `〈Name〉` or `〈Name {n}〉` in English: the name, whether
/// it has a number, and the spelling's brackets.
fn ascii_spellings(m: &RulesetManifest) -> Vec<(String, bool, String, String)> {
    let mut out = Vec::new();
    for k in &m.keywords {
        let Some(t) = k.text.get("en") else { continue };
        let (open, close) = ("〈", "〉");
        let Some(inner) = t.strip_prefix(open).and_then(|x| x.strip_suffix(close)) else {
            continue;
        };
        let (name, valued) = match inner.strip_suffix(" {n}") {
            Some(n) => (n.to_string(), true),
            None => (inner.to_string(), false),
        };
        out.push((name, valued, open.to_string(), close.to_string()));
    }
    out.sort_by_key(|(n, ..)| std::cmp::Reverse(n.len()));
    out
}

/// The dataset's `<Blocker>`, `<Repair 2>`, `[Suppression]` written as the ruleset spells
/// them (`〈Blocker〉`); other brackets stay as they are.
fn keywords_as_printed(text: &str, spellings: &[(String, bool, String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'scan: while let Some(i) = rest.find(['<', '[']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let close = if tail.starts_with('<') { '>' } else { ']' };
        if let Some(end) = tail.find(close) {
            let inner = &tail[1..end];
            for (name, valued, open, shut) in spellings {
                let Some(after) = inner.strip_prefix(name.as_str()) else {
                    continue;
                };
                let ok = if *valued {
                    after.is_empty()
                        || (after.starts_with(' ')
                            && after[1..].chars().all(|c| c.is_ascii_digit())
                            && after.len() > 1)
                } else {
                    after.is_empty()
                };
                if ok {
                    out.push_str(&format!("{open}{inner}{shut}"));
                    rest = &tail[end + 1..];
                    continue 'scan;
                }
            }
        }
        out.push_str(&tail[..1]);
        rest = &tail[1..];
    }
    out.push_str(rest);
    out
}

/// `[Amuro Ray] / (Zeon) Trait / Trait [Enhanced Human]` → pilots and traits.
fn link(text: &str) -> (Vec<String>, Vec<String>) {
    let mut pilots = Vec::new();
    let mut traits = Vec::new();
    for part in text.split(" / ").map(str::trim) {
        if let Some(t) = part
            .strip_prefix('(')
            .and_then(|x| x.split_once(')'))
            .map(|(t, _)| t)
        {
            traits.push(t.trim().to_string());
        } else if let Some(t) = part
            .strip_prefix("Trait")
            .map(str::trim)
            .and_then(|x| x.strip_prefix('['))
            .and_then(|x| x.strip_suffix(']'))
        {
            traits.push(t.to_string());
        } else if let Some(p) = part.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            pilots.push(p.to_string());
        }
    }
    (pilots, traits)
}

fn card(
    number: &str,
    list: &[&Read],
    spellings: &[(String, bool, String, String)],
    rulings: Option<&Vec<Value>>,
    file: &Path,
) -> Result<DataCard, Box<Diagnostic>> {
    let main = list
        .iter()
        .find(|p| p.raw.product_id == number)
        .or_else(|| list.first())
        .expect("a card has a printing");
    let r = &main.raw;
    let err = |msg: String| {
        Box::new(problem(
            file,
            Pos {
                line: main.line,
                col: 1,
            },
            format!("{}: {msg}", r.product_id),
        ))
    };
    let (category, token) = match r.card_type.as_str() {
        "UNIT" => ("unit", false),
        "PILOT" => ("pilot", false),
        "COMMAND" => ("command", false),
        "BASE" => ("base", false),
        "RESOURCE" => ("resource", false),
        "UNIT TOKEN" => ("unit", true),
        "EX BASE" => ("base", true),
        "EX RESOURCE" => ("resource", true),
        other => {
            return Err(err(format!(
                "unknown card type {other:?} (UNIT, PILOT, COMMAND, BASE, RESOURCE, UNIT TOKEN, EX BASE, EX RESOURCE)"
            )));
        }
    };
    let home = set_of_card(number).unwrap_or(number).to_string();
    let mut f = Map::new();
    f.insert("id".into(), json!(number));
    f.insert("category".into(), json!(category));
    let name = plain(&r.name);
    if name.is_empty() {
        return Err(err("no name".into()));
    }
    f.insert("name".into(), json!({ "en": name }));
    let effect = optional(r.effect.as_deref()).map(|t| keywords_as_printed(&t, spellings));
    if let Some(t) = &effect {
        f.insert("text".into(), json!({ "en": t }));
    }
    if !token && let Some(c) = &r.color {
        let c = c.trim().to_ascii_lowercase();
        if !matches!(c.as_str(), "blue" | "green" | "red" | "white" | "purple") {
            return Err(err(format!(
                "unknown color {:?} (colors: Blue, Green, Red, White, Purple)",
                r.color.as_deref().unwrap_or_default()
            )));
        }
        f.insert("colors".into(), json!([c]));
    }
    // The dataset writes a printed 0 as null (a Base's AP, a token's Lv. and cost): a
    // number a card type has is 0 when null; a negative one is an error.
    let need = |v: Option<i64>, what: &str| -> Result<i64, Box<Diagnostic>> {
        match v.unwrap_or(0) {
            n if n >= 0 => Ok(n),
            n => Err(err(format!("a {category}'s {what} cannot be {n}"))),
        }
    };
    if category != "resource" {
        f.insert("lv".into(), json!(need(r.level, "Lv.")?));
        f.insert("cost".into(), json!(need(r.cost, "cost")?));
    }
    let pilot = effect.as_deref().and_then(|t| {
        let after = t.split("【Pilot】").nth(1)?;
        let name = after.trim_start().strip_prefix('[')?.split(']').next()?;
        Some(name.to_string())
    });
    match category {
        "unit" | "base" | "pilot" => {
            f.insert("ap".into(), json!(need(r.ap, "AP")?));
            f.insert("hp".into(), json!(need(r.hp, "HP")?));
        }
        "command" if pilot.is_some() => {
            f.insert("ap".into(), json!(r.ap.unwrap_or(0).max(0)));
            f.insert("hp".into(), json!(r.hp.unwrap_or(0).max(0)));
        }
        _ => {}
    }
    let mut traits: Vec<String> = Vec::new();
    for t in &r.traits {
        let t = plain(t);
        if !t.is_empty() && !traits.contains(&t) {
            traits.push(t);
        }
    }
    if !traits.is_empty() && category != "resource" {
        f.insert("traits".into(), json!(traits));
    }
    if matches!(category, "unit" | "base") {
        let terrain: Vec<&str> = r
            .zone
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|z| match z {
                "Space" => Some("space"),
                "Earth" => Some("earth"),
                _ => None,
            })
            .collect();
        if !terrain.is_empty() {
            f.insert("terrain".into(), json!(terrain));
        }
    }
    if category == "unit"
        && let Some(l) = r.link.as_deref().filter(|l| *l != "-")
    {
        let (pilots, link_traits) = link(l);
        let mut m = Map::new();
        if !pilots.is_empty() {
            m.insert("pilots".into(), json!(pilots));
        }
        if !link_traits.is_empty() {
            m.insert("traits".into(), json!(link_traits));
        }
        if !m.is_empty() {
            f.insert("link".into(), Value::Object(m));
        }
    }
    if category == "command"
        && let Some(p) = pilot
    {
        f.insert("pilot".into(), json!({ "name": { "en": p } }));
    }
    if token {
        f.insert("token".into(), json!(true));
    }
    if let Some(rar) = &r.rarity {
        f.insert("rarity".into(), json!(rar.trim()));
    }
    let mut printings = Vec::new();
    for p in list {
        let mut e = Map::new();
        e.insert("code".into(), json!(p.raw.product_id));
        if let Some(rar) = &p.raw.rarity {
            e.insert("rarity".into(), json!(rar.trim()));
        }
        if p.raw.set_code != home {
            e.insert("set".into(), json!(p.raw.set_code));
        }
        if p.raw.product_id.contains("_p") {
            e.insert("alternate".into(), json!(true));
        }
        if let Some(img) = &p.raw.image_url {
            e.insert("image".into(), json!(img));
        }
        printings.push(Value::Object(e));
    }
    f.insert("printings".into(), Value::Array(printings));
    if let Some(rs) = rulings {
        f.insert("rulings".into(), Value::Array(rs.clone()));
    }
    Ok(DataCard {
        id: number.to_string(),
        set: home,
        fields: f,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_keywords_become_the_printed_spelling() {
        let sp = vec![
            (
                "Repair".to_string(),
                true,
                "〈".to_string(),
                "〉".to_string(),
            ),
            (
                "Blocker".to_string(),
                false,
                "〈".to_string(),
                "〉".to_string(),
            ),
            (
                "Suppression".to_string(),
                false,
                "〈".to_string(),
                "〉".to_string(),
            ),
        ];
        assert_eq!(
            keywords_as_printed(
                "<Blocker> (Rest it.)\nGains <Repair 2> and <Repair>. [Suppression] [Amuro Ray] <Unknown>",
                &sp
            ),
            "〈Blocker〉 (Rest it.)\nGains 〈Repair 2〉 and 〈Repair〉. 〈Suppression〉 [Amuro Ray] <Unknown>"
        );
        assert_eq!(keywords_as_printed("<Blocker", &sp), "<Blocker");
    }

    #[test]
    fn links_name_pilots_and_traits() {
        assert_eq!(
            link("[Amate Yuzuriha (Machu)] / [Nyaan]"),
            (
                vec!["Amate Yuzuriha (Machu)".to_string(), "Nyaan".to_string()],
                vec![]
            )
        );
        assert_eq!(
            link("(Newtype) Trait / (Cyber-Newtype) Trait"),
            (
                vec![],
                vec!["Newtype".to_string(), "Cyber-Newtype".to_string()]
            )
        );
        assert_eq!(
            link("Trait [Enhanced Human]"),
            (vec![], vec!["Enhanced Human".to_string()])
        );
    }

    #[test]
    fn dates_are_written_iso() {
        assert_eq!(iso_date("July 11, 2025").as_deref(), Some("2025-07-11"));
        assert_eq!(iso_date("2026-01-09").as_deref(), Some("2026-01-09"));
        assert_eq!(iso_date("Someday"), None);
    }
}
