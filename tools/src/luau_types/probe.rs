//! What a card script really sees, asked of the kernel itself: the game's content is
//! compiled with one extra card whose script lists the globals (`_G`, as the kernel left
//! it after the prelude and the ruleset's files) and the fields of each global table, and
//! stops with that list as its error. The kernel offers no other way to read its globals,
//! and this way the list is exactly what a card's environment reads through to.

use std::collections::BTreeMap;

use riffle_core::{Content, Engine, Source};

/// What a value is, as far as a type needs to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A function.
    Function,
    /// A table: its string keys (one level down) and whether a metatable answers reads
    /// of other keys (then any key may be valid).
    Table {
        /// Its string keys, each with its value's kind.
        fields: BTreeMap<String, Kind>,
        /// Whether its metatable has an `__index`.
        dynamic: bool,
    },
    /// A number, string or boolean.
    Plain(&'static str),
    /// Anything else (userdata...).
    Other,
}

/// The id of the probe card: no real card has it.
const PROBE_ID: &str = "RIFFLE-EDITOR-PROBE";
/// The first line of the probe's report, so that no other error is taken for it.
const HEADER: &str = "riffle-editor-globals";

/// The probe script: one line per name, `path<TAB>kind[<TAB>dynamic]`, two levels deep.
const PROBE: &str = r#"
local out = {}
local function kind(v)
  local t = type(v)
  if t == "function" or t == "table" or t == "number" or t == "string" or t == "boolean" then
    return t
  end
  return "other"
end
local function dynamic(t)
  local m = getmetatable(t)
  return type(m) == "table" and rawget(m, "__index") ~= nil
end
local function list(prefix, t, depth)
  for k, v in pairs(t) do
    if type(k) == "string" then
      local line = prefix .. k .. "\t" .. kind(v)
      if type(v) == "table" and dynamic(v) then line = line .. "\tdynamic" end
      out[#out + 1] = line
      if type(v) == "table" and depth > 0 and v ~= _G then list(prefix .. k .. ".", v, depth - 1) end
    end
  end
end
list("", _G, 2)
table.sort(out)
error("riffle-editor-globals\n" .. table.concat(out, "\n"), 0)
"#;

/// The globals of `content`'s ruleset as a card sees them, by name.
pub fn globals(content: &Content) -> Result<BTreeMap<String, Kind>, String> {
    let Some(model) = content.cards.first() else {
        return Err("the game has no card to model the probe card on".into());
    };
    let mut probe = model.clone();
    probe.id = PROBE_ID.into();
    probe.script = Some(Source {
        name: "riffle-editor-probe.lua".into(),
        text: PROBE.into(),
    });
    let mut content = content.clone();
    // The other cards are not needed: what they define stays in their own environments.
    content.cards = vec![probe];
    for lib in &mut content.libraries {
        lib.cards.clear();
    }
    let errors = match Engine::new(&content) {
        Ok(_) => return Err("the probe card loaded without reporting: nothing learnt".into()),
        Err(errors) => errors,
    };
    let report = errors
        .iter()
        .find(|e| e.card.as_deref() == Some(PROBE_ID) && e.message.starts_with(HEADER))
        .ok_or_else(|| {
            let first = errors.first().map(|e| e.to_string()).unwrap_or_default();
            format!("the ruleset does not load, so its globals cannot be listed: {first}")
        })?;
    Ok(parse(&report.message))
}

/// Reads the probe's report into a tree.
fn parse(report: &str) -> BTreeMap<String, Kind> {
    let mut top = BTreeMap::new();
    // Sorted, so a table's line comes before its fields'.
    for line in report.lines().skip(1) {
        let mut parts = line.split('\t');
        let (Some(path), Some(kind)) = (parts.next(), parts.next()) else {
            continue;
        };
        let dynamic = parts.next() == Some("dynamic");
        let kind = match kind {
            "function" => Kind::Function,
            "table" => Kind::Table {
                fields: BTreeMap::new(),
                dynamic,
            },
            "number" => Kind::Plain("number"),
            "string" => Kind::Plain("string"),
            "boolean" => Kind::Plain("boolean"),
            _ => Kind::Other,
        };
        insert(&mut top, path, kind);
    }
    top
}

fn insert(map: &mut BTreeMap<String, Kind>, path: &str, kind: Kind) {
    match path.split_once('.') {
        None => {
            map.entry(path.to_string()).or_insert(kind);
        }
        Some((head, rest)) => {
            if let Some(Kind::Table { fields, .. }) = map.get_mut(head) {
                insert(fields, rest, kind);
            }
        }
    }
}
