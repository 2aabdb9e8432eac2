//! The One Piece Card Game's public "punk-records" dataset: a folder per language
//! (`english/`, `japanese/`, `thai/`, `chinese-hongkong/`, `french/`), each with
//! `packs.json` (pack id → titles) and `data/<pack-id>.json` (an array of printings).
//!
//! A printing's id is its card number plus, for a parallel or a reprint, a suffix
//! (`OP01-001_p1`, `ST01-012_r1`); every language's printings of one card number become one
//! card, its printings the printings. A card lives in the set of its card number
//! (`OP01-001` → `OP01`); packs match across languages by their id's last three digits
//! (`569101`, `550101`: OP-01). The rules read English data; the other languages give names
//! and texts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use riffle_core::Localized;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::text::{optional, plain};
use super::{
    DataCard, DataSet, Dataset, MAX_PRINTINGS, is_safe_id, json_error_pos, pos_at, problem,
    read_bounded, set_of_card,
};
use crate::diagnostic::Diagnostic;
use crate::yaml::Pos;

/// The dataset's language folders and the language tags Riffle gives them.
pub const LANGUAGES: &[(&str, &str)] = &[
    ("english", "en"),
    ("japanese", "ja"),
    ("thai", "th"),
    ("chinese-hongkong", "zh-Hant"),
    ("french", "fr"),
];

/// What a name carries in a language to mark a parallel printing, removed for the card's
/// name (`Monkey.D.Luffy (Parallel)`).
const PARALLEL_MARKS: &[&str] = &["(Parallel)", "(異圖卡)", "(パラレル)"];

/// One printing as the dataset writes it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
struct Raw {
    id: String,
    pack_id: String,
    name: String,
    rarity: String,
    category: String,
    colors: Vec<String>,
    cost: Option<i64>,
    attributes: Vec<String>,
    power: Option<i64>,
    counter: Option<i64>,
    types: Vec<String>,
    effect: Option<String>,
    trigger: Option<String>,
    block_number: Option<i64>,
    #[serde(default)]
    img_full_url: Option<String>,
}

/// A pack's titles.
#[derive(Clone, Debug, Deserialize)]
struct RawPack {
    #[serde(default)]
    raw_title: Option<String>,
    #[serde(default)]
    title_parts: Option<TitleParts>,
}

#[derive(Clone, Debug, Deserialize)]
struct TitleParts {
    label: Option<String>,
    title: Option<String>,
}

/// A printing read, with where.
#[derive(Clone, Debug)]
struct Read {
    raw: Raw,
    file: PathBuf,
    pos: Pos,
}

/// One language's printings by id, and its packs by their three-digit key.
#[derive(Default)]
struct Language {
    printings: BTreeMap<String, Read>,
    packs: BTreeMap<String, Pack>,
}

#[derive(Clone, Debug, Default)]
struct Pack {
    label: Option<String>,
    title: Option<String>,
    raw_title: Option<String>,
}

/// Reads the dataset at `dir` for a game whose rules read `printed` (a language tag: `en`).
pub fn read(dir: &Path, printed: &str) -> Result<Dataset, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    if !dir.is_dir() {
        return Err(vec![problem(
            dir,
            Pos::START,
            "no such folder: give the dataset's folder (the one holding english/, japanese/...)",
        )]);
    }
    let mut langs: BTreeMap<&str, Language> = BTreeMap::new();
    let mut entries: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| vec![problem(dir, Pos::START, format!("cannot read it: {e}"))])?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    entries.sort();
    let mut total = 0usize;
    for folder in entries {
        let Some(&(_, tag)) = LANGUAGES.iter().find(|(f, _)| *f == folder) else {
            notes.push(format!(
                "skipped {}: not a language folder Riffle knows ({})",
                dir.join(&folder).display(),
                LANGUAGES
                    .iter()
                    .map(|(f, _)| *f)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            continue;
        };
        let lang = read_language(&dir.join(&folder), &mut errors, &mut total);
        langs.insert(tag, lang);
    }
    if langs.is_empty() && errors.is_empty() {
        errors.push(problem(
            dir,
            Pos::START,
            format!(
                "no language folder here: the dataset has {}",
                LANGUAGES
                    .iter()
                    .map(|(f, _)| format!("{f}/"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    // The cards are put together even after bad input, so that one run reports every problem.
    let Some(rules) = langs.get(printed) else {
        if !errors.is_empty() {
            return Err(errors);
        }
        return Err(vec![problem(
            dir,
            Pos::START,
            format!(
                "no {} folder: the rules read cards in `{printed}`, so the dataset needs it",
                LANGUAGES
                    .iter()
                    .find(|(_, t)| *t == printed)
                    .map_or(printed, |(f, _)| *f)
            ),
        )]);
    };

    // Card numbers and their printings, from every language.
    let mut cards: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for lang in langs.values() {
        for code in lang.printings.keys() {
            cards
                .entry(card_number(code).to_string())
                .or_default()
                .insert(code.clone());
        }
    }
    let products = products(&langs);
    let mut out_cards = Vec::new();
    let mut without_rules_language = Vec::new();
    for (number, codes) in &cards {
        // The printing the rules read: the regular one, else the first in the rules language.
        let main = codes
            .iter()
            .filter(|c| rules.printings.contains_key(*c))
            .min_by_key(|c| (c.contains('_'), (*c).clone()));
        let Some(main) = main else {
            without_rules_language.push(number.clone());
            continue;
        };
        let r = &rules.printings[main];
        match card(number, codes, r, &langs, printed, &products) {
            Ok(c) => out_cards.push(c),
            Err(e) => errors.push(*e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if !without_rules_language.is_empty() {
        notes.push(format!(
            "{} card(s) have no `{printed}` printing yet and were left out (the rules read `{printed}` names): {}",
            without_rules_language.len(),
            list(&without_rules_language)
        ));
    }
    let sets = sets(&out_cards, &products, printed);
    let version = version(dir);
    Ok(Dataset {
        game: "onepiece".into(),
        source: "punk-records".into(),
        version,
        sets,
        cards: out_cards,
        notes,
    })
}

fn list(ids: &[String]) -> String {
    if ids.len() <= 12 {
        ids.join(", ")
    } else {
        format!("{}, ... ({} more)", ids[..12].join(", "), ids.len() - 12)
    }
}

/// The dataset's date (`manifest.json` `generated_at`, a Unix time) as `YYYY-MM-DD`, or `1`.
fn version(dir: &Path) -> String {
    let at = LANGUAGES.iter().find_map(|(f, _)| {
        let text = crate::read::read_text(dir.join(f).join("manifest.json")).ok()?;
        let v: Value = serde_json::from_str(&text).ok()?;
        v.get("generated_at")?.as_i64()
    });
    at.map(|t| date_of(t.div_euclid(86_400)))
        .unwrap_or_else(|| "1".into())
}

/// Days since 1970-01-01 as `YYYY-MM-DD` (the civil calendar).
fn date_of(days: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}

fn read_language(folder: &Path, errors: &mut Vec<Diagnostic>, total: &mut usize) -> Language {
    let mut lang = Language::default();
    let packs_path = folder.join("packs.json");
    match read_bounded(&packs_path) {
        Ok(text) => match serde_json::from_str::<BTreeMap<String, RawPack>>(&text) {
            Ok(packs) => {
                for (id, p) in packs {
                    let parts = p.title_parts.clone();
                    let label = parts
                        .as_ref()
                        .and_then(|t| t.label.clone())
                        .or_else(|| p.raw_title.as_deref().and_then(label_in_title));
                    lang.packs.insert(
                        pack_key(&id),
                        Pack {
                            label: label.map(|l| plain(&l)),
                            title: parts
                                .and_then(|t| t.title)
                                .map(|t| without_label(&plain(&t))),
                            raw_title: p.raw_title.map(|t| plain(&t)),
                        },
                    );
                }
            }
            Err(e) => errors.push(problem(
                &packs_path,
                json_error_pos(&text, 0, &e),
                format!("packs.json: {e}"),
            )),
        },
        Err(e) => errors.push(*e),
    }
    let data = folder.join("data");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&data) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(e) => {
            errors.push(problem(
                &data,
                Pos::START,
                format!("cannot read the folder: {e}"),
            ));
            return lang;
        }
    };
    files.sort();
    for file in files {
        let text = match read_bounded(&file) {
            Ok(t) => t,
            Err(e) => {
                errors.push(*e);
                continue;
            }
        };
        let items: Vec<&RawValue> = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                errors.push(problem(
                    &file,
                    json_error_pos(&text, 0, &e),
                    format!("not a list of cards: {e}"),
                ));
                continue;
            }
        };
        for item in items {
            let start = item.get().as_ptr() as usize - text.as_ptr() as usize;
            let pos = pos_at(&text, start);
            *total += 1;
            if *total > MAX_PRINTINGS {
                errors.push(problem(
                    &file,
                    pos,
                    format!("more than {MAX_PRINTINGS} printings: is it the right dataset?"),
                ));
                return lang;
            }
            let raw: Raw = match serde_json::from_str(item.get()) {
                Ok(r) => r,
                Err(e) => {
                    errors.push(problem(
                        &file,
                        json_error_pos(&text, start, &e),
                        format!("a card: {e}"),
                    ));
                    continue;
                }
            };
            if !is_safe_id(&raw.id) || set_of_card(card_number(&raw.id)).is_none() {
                errors.push(problem(
                    &file,
                    pos,
                    format!(
                        "card id {:?} is not a card number (like OP01-001, or OP01-001_p1 for a parallel)",
                        raw.id
                    ),
                ));
                continue;
            }
            match lang.printings.get(&raw.id) {
                Some(first) if same_printing(&first.raw, &raw) => {}
                Some(first) => errors.push(problem(
                    &file,
                    pos,
                    format!(
                        "duplicate card id {}: also at {}:{}:{}, with other data",
                        raw.id,
                        first.file.display(),
                        first.pos.line,
                        first.pos.col
                    ),
                )),
                None => {
                    lang.printings.insert(
                        raw.id.clone(),
                        Read {
                            raw,
                            file: file.clone(),
                            pos,
                        },
                    );
                }
            }
        }
    }
    lang
}

/// The same printing listed in two packs (a card sold in two products): equal but for the
/// pack.
fn same_printing(a: &Raw, b: &Raw) -> bool {
    let mut b = b.clone();
    b.pack_id = a.pack_id.clone();
    b.img_full_url = a.img_full_url.clone();
    *a == b
}

/// `OP01-001_p1` → `OP01-001`.
fn card_number(code: &str) -> &str {
    code.split('_').next().unwrap_or(code)
}

/// A pack id's key across languages: its last three digits (`569101` → `101`).
fn pack_key(id: &str) -> String {
    if id.len() > 3 && id.bytes().all(|b| b.is_ascii_digit()) {
        id[id.len() - 3..].to_string()
    } else {
        id.to_string()
    }
}

/// `【ST-01】` or `[ST-01]` at a title's end.
fn label_in_title(title: &str) -> Option<String> {
    let t = title.trim_end();
    let (open, close) = if t.ends_with('】') {
        ('【', '】')
    } else if t.ends_with(']') {
        ('[', ']')
    } else {
        return None;
    };
    let inner = &t[t.rfind(open)? + open.len_utf8()..t.len() - close.len_utf8()];
    (!inner.is_empty() && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then(|| inner.to_string())
}

/// A title without the label at its end (`ROMANCE DAWN【OP-01】` → `ROMANCE DAWN`).
fn without_label(title: &str) -> String {
    if label_in_title(title).is_none() {
        return title.to_string();
    }
    let t = title.trim_end();
    let open = if t.ends_with('】') { '【' } else { '[' };
    t.rfind(open).map_or(t, |i| &t[..i]).trim_end().to_string()
}

/// A pack's label as a set id: `ST-01` → `ST01`, `OP14-EB04` as it is.
fn label_set_id(label: &str) -> String {
    let parts: Vec<&str> = label.split('-').collect();
    if parts.len() == 2
        && parts[0].chars().all(|c| c.is_ascii_alphabetic())
        && parts[1].chars().all(|c| c.is_ascii_digit())
    {
        format!("{}{}", parts[0], parts[1])
    } else {
        label.to_string()
    }
}

/// A product (pack) in every language, by key.
#[derive(Clone, Debug, Default)]
struct Product {
    /// Its set id, when it has a label.
    set: Option<String>,
    /// The set ids it holds the regular printings of (`OP14-EB04` → OP14, EB04).
    parts: Vec<String>,
    /// Its title per language.
    title: Localized,
    /// Its full title per language.
    raw_title: Localized,
}

fn products(langs: &BTreeMap<&str, Language>) -> BTreeMap<String, Product> {
    let mut out: BTreeMap<String, Product> = BTreeMap::new();
    for (tag, lang) in langs {
        for (key, p) in &lang.packs {
            let e = out.entry(key.clone()).or_default();
            // A label becomes a folder's name: one that is not a plain code (`../x`) is no
            // set's.
            if e.set.is_none()
                && let Some(l) = p.label.as_ref().filter(|l| is_safe_id(&label_set_id(l)))
            {
                e.set = Some(label_set_id(l));
                e.parts = l.split('-').map(str::to_string).collect::<Vec<_>>();
                if e.parts.len() == 2 && e.parts[1].chars().all(|c| c.is_ascii_digit()) {
                    e.parts = vec![label_set_id(l)];
                }
            }
            if let Some(t) = &p.title {
                e.title.insert(tag.to_string(), t.clone());
            }
            if let Some(t) = &p.raw_title {
                e.raw_title.insert(tag.to_string(), t.clone());
            }
        }
    }
    out
}

fn lower(s: &str) -> String {
    s.trim().to_ascii_lowercase()
}

/// One card from its printings.
fn card(
    number: &str,
    codes: &BTreeSet<String>,
    main: &Read,
    langs: &BTreeMap<&str, Language>,
    printed: &str,
    products: &BTreeMap<String, Product>,
) -> Result<DataCard, Box<Diagnostic>> {
    let r = &main.raw;
    let err = |msg: String| Box::new(problem(&main.file, main.pos, format!("{}: {msg}", r.id)));
    let category = match r.category.as_str() {
        "Leader" => "leader",
        "Character" => "character",
        "Event" => "event",
        "Stage" => "stage",
        other => {
            return Err(err(format!(
                "unknown category {other:?} (categories: Leader, Character, Event, Stage)"
            )));
        }
    };
    let home = set_of_card(number).unwrap_or(number).to_string();
    let mut f = Map::new();
    f.insert("id".into(), json!(number));
    f.insert("category".into(), json!(category));

    // Names and texts: each language's regular printing, else its first.
    let mut name = Localized::default();
    let mut text = Localized::default();
    let mut trigger = Localized::default();
    for (tag, lang) in langs {
        let pick = codes
            .iter()
            .filter_map(|c| lang.printings.get(c))
            .min_by_key(|p| (p.raw.id.contains('_'), p.raw.id.clone()));
        let Some(p) = pick else { continue };
        let mut n = plain(&p.raw.name);
        for mark in PARALLEL_MARKS {
            if let Some(stripped) = n.strip_suffix(mark) {
                n = stripped.trim_end().to_string();
            }
        }
        if !n.is_empty() {
            name.insert(tag.to_string(), n);
        }
        if let Some(t) = optional(p.raw.effect.as_deref()) {
            text.insert(tag.to_string(), t);
        }
        if let Some(t) = optional(p.raw.trigger.as_deref()) {
            trigger.insert(tag.to_string(), t);
        }
    }
    if name.get(printed).is_none() {
        return Err(err(format!("no `{printed}` name")));
    }
    f.insert("name".into(), serde_json::to_value(&name).expect("names"));
    if !text.is_empty() {
        f.insert("text".into(), serde_json::to_value(&text).expect("texts"));
    }

    let colors: Result<Vec<String>, String> = r
        .colors
        .iter()
        .map(|c| match lower(c).as_str() {
            x @ ("red" | "green" | "blue" | "purple" | "black" | "yellow") => Ok(x.to_string()),
            _ => Err(format!(
                "unknown color {c:?} (colors: Red, Green, Blue, Purple, Black, Yellow)"
            )),
        })
        .collect();
    let colors = colors.map_err(err)?;
    if colors.is_empty() {
        return Err(err("no colors: every card has one or two".into()));
    }
    f.insert("colors".into(), json!(colors));
    // The dataset writes a printed 0 as null (a 0-cost Event, Otama's 0 power): a number a
    // category has is 0 when null; a negative one is an error.
    let need = |v: Option<i64>, what: &str| -> Result<i64, Box<Diagnostic>> {
        match v.unwrap_or(0) {
            n if n >= 0 => Ok(n),
            n => Err(err(format!("a {category}'s {what} cannot be {n}"))),
        }
    };
    match category {
        "leader" => {
            // OP 2-9: a Leader's life is printed where other cards print their cost.
            f.insert("power".into(), json!(need(r.power, "power")?));
            match r.cost {
                Some(life) if life >= 1 => f.insert("life".into(), json!(life)),
                _ => {
                    return Err(err(format!(
                        "a leader needs its life (its `cost`), got {:?}",
                        r.cost
                    )));
                }
            };
        }
        "character" => {
            f.insert("cost".into(), json!(need(r.cost, "cost")?));
            f.insert("power".into(), json!(need(r.power, "power")?));
            if let Some(c) = r.counter.filter(|c| *c > 0) {
                f.insert("counter".into(), json!(c));
            }
        }
        _ => {
            f.insert("cost".into(), json!(need(r.cost, "cost")?));
        }
    }
    if matches!(category, "leader" | "character") && !r.attributes.is_empty() {
        let attrs: Result<Vec<String>, String> = r
            .attributes
            .iter()
            .map(|a| match lower(a).as_str() {
                x @ ("slash" | "strike" | "ranged" | "special" | "wisdom" | "unknown") => {
                    Ok(x.to_string())
                }
                "?" => Ok("unknown".into()),
                _ => Err(format!(
                    "unknown attribute {a:?} (attributes: Slash, Strike, Ranged, Special, Wisdom, Unknown)"
                )),
            })
            .collect();
        let mut attrs = attrs.map_err(err)?;
        attrs.dedup();
        f.insert("attributes".into(), json!(attrs));
    }
    let mut types: Vec<String> = Vec::new();
    for t in &r.types {
        let t = plain(t);
        if !t.is_empty() && !types.contains(&t) {
            types.push(t);
        }
    }
    if !types.is_empty() {
        f.insert("types".into(), json!(types));
    }
    if !trigger.is_empty() {
        f.insert(
            "trigger".into(),
            serde_json::to_value(&trigger).expect("texts"),
        );
    }
    f.insert("rarity".into(), json!(rarity(&r.rarity)));
    if let Some(b) = r.block_number {
        f.insert("block".into(), json!(b));
    }

    // Printings: each code once, from the rules language's record where it has one.
    let mut printings = Vec::new();
    for code in codes {
        let p = langs
            .get(printed)
            .and_then(|l| l.printings.get(code))
            .or_else(|| langs.values().find_map(|l| l.printings.get(code)))
            .expect("a code comes from some language");
        let mut entry = Map::new();
        entry.insert("code".into(), json!(code));
        entry.insert("rarity".into(), json!(rarity(&p.raw.rarity)));
        let product = products.get(&pack_key(&p.raw.pack_id));
        match product.and_then(|pr| pr.set.clone().map(|s| (s, pr))) {
            Some((_, pr)) if pr.parts.contains(&home) => {}
            Some((set, _)) => {
                entry.insert("set".into(), json!(set));
            }
            None => {
                let title = product.and_then(|pr| {
                    pr.title
                        .get(printed)
                        .or_else(|| pr.title.iter().next().map(|(_, t)| t))
                        .cloned()
                });
                if let Some(t) = title {
                    entry.insert("product".into(), json!(t));
                }
            }
        }
        if code.contains('_') && !code.contains("_r") {
            entry.insert("alternate".into(), json!(true));
        }
        if let Some(img) = &p.raw.img_full_url {
            entry.insert("image".into(), json!(img));
        }
        printings.push(Value::Object(entry));
    }
    f.insert("printings".into(), Value::Array(printings));
    Ok(DataCard {
        id: number.to_string(),
        set: home,
        fields: f,
    })
}

/// The dataset's rarity names as the cards print them.
fn rarity(r: &str) -> String {
    match r {
        "Common" => "C",
        "Uncommon" => "UC",
        "Rare" => "R",
        "SuperRare" => "SR",
        "SecretRare" => "SEC",
        "Leader" => "L",
        "Promo" => "P",
        "Special" => "SP",
        "TreasureRare" => "TR",
        other => other,
    }
    .to_string()
}

/// The sets: every card's home set and every product set a printing names, with their titles.
fn sets(cards: &[DataCard], products: &BTreeMap<String, Product>, printed: &str) -> Vec<DataSet> {
    let mut ids: BTreeSet<String> = cards.iter().map(|c| c.set.clone()).collect();
    for c in cards {
        for p in c.fields["printings"].as_array().into_iter().flatten() {
            if let Some(s) = p.get("set").and_then(Value::as_str) {
                ids.insert(s.to_string());
            }
        }
    }
    ids.into_iter()
        .map(|id| {
            let exact = products
                .values()
                .find(|p| p.set.as_deref() == Some(id.as_str()));
            let part = || products.values().find(|p| p.parts.contains(&id));
            let product = exact.or_else(part);
            let (mut name, description) = match product {
                Some(p) => (
                    p.title.clone(),
                    Some(p.raw_title.clone()).filter(|d| !d.is_empty()),
                ),
                // Promotion cards (P-001) come in an unlabeled pack.
                None if id == "P" => {
                    let promo = products.values().find(|p| {
                        p.set.is_none()
                            && p.title
                                .get(printed)
                                .is_some_and(|t| t.to_lowercase().starts_with("promotion"))
                    });
                    (promo.map(|p| p.title.clone()).unwrap_or_default(), None)
                }
                None => (Localized::default(), None),
            };
            if name.get("en").is_none() {
                name.insert("en".into(), id.clone());
            }
            DataSet {
                id,
                name,
                description,
            }
        })
        .collect()
}
