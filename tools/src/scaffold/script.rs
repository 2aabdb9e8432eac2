//! A new card's Lua script: the header line, a commented example taken from the game's
//! scripting guide (a card of the same category when the guide has one), and an empty
//! `return card { }` that loads as it is.

use std::path::Path;

/// A worked example of the guide: the card it shows and the block's lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The guide, relative to the repository root (`docs/scripting.md`).
    pub guide: String,
    /// The card the example is (its first line `-- <ID> <name>`).
    pub card: String,
    /// The Lua lines.
    pub lines: Vec<String>,
}

/// The scripting guide of `game` in the repository at `root`, relative to it:
/// `docs/scripting-<game>.md`, or `docs/scripting.md` when that one is about the game (it
/// names `scripts/<game>/`).
pub fn guide(root: &Path, game: &str) -> Option<String> {
    let own = format!("docs/scripting-{game}.md");
    if root.join(&own).is_file() {
        return Some(own);
    }
    let general = "docs/scripting.md";
    let text = riffle_content::read::read_text(root.join(general)).ok()?;
    text.contains(&format!("scripts/{game}/"))
        .then(|| general.to_string())
}

/// The guide's complete card scripts (```` ```lua ```` blocks starting `-- <ID> <name>` and
/// returning `card { ... }`), in page order.
pub fn examples(root: &Path, guide: &str) -> Vec<Example> {
    let Ok(text) = riffle_content::read::read_text(root.join(guide)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.trim_end() != "```lua" {
            continue;
        }
        let block: Vec<String> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .map(String::from)
            .collect();
        let card = block
            .first()
            .and_then(|l| l.strip_prefix("-- "))
            .and_then(|l| l.split_whitespace().next())
            .map(String::from);
        if let Some(card) = card
            && block.iter().any(|l| l.starts_with("return card {"))
        {
            out.push(Example {
                guide: guide.to_string(),
                card,
                lines: block,
            });
        }
    }
    out
}

/// The script of card `id` named `name`: its header, the example (commented out) and an
/// empty card. `example_category` says what the example card is, when known.
pub fn skeleton(
    id: &str,
    name: &str,
    game: &str,
    guide: Option<&str>,
    example: Option<(&Example, Option<&str>)>,
) -> String {
    let mut s = match name == id {
        true => format!("-- {id}\n"),
        false => format!("-- {id} {name}\n"),
    };
    let guide_name = guide.unwrap_or("docs/scripting.md");
    s.push_str(
        "-- The card's abilities, in printed order: one constructor each, with a comment line\n",
    );
    s.push_str(&format!(
        "-- above it quoting its text ({guide_name}; every name: docs/reference/{game}.md).\n"
    ));
    if let Some((ex, category)) = example {
        let what = category.map(|c| format!(" ({c})")).unwrap_or_default();
        s.push_str(&format!(
            "-- For example {}{what}, from {}:\n--\n",
            ex.card, ex.guide
        ));
        for l in &ex.lines {
            if l.is_empty() {
                s.push_str("--\n");
            } else {
                s.push_str(&format!("--   {l}\n"));
            }
        }
    }
    s.push_str("return card {\n}\n");
    s
}
