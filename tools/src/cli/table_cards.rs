//! Reading cards at the table: `text N` (the cards option N names) and `card NAME` (a card
//! by its name). Everything comes from the person's own view (`Game::view`): a card their
//! seat cannot see is never read, so these commands cannot tell what a hidden card is, nor
//! whether a card is somewhere hidden.

use riffle_core::views::CardView;
use riffle_core::visibility::BLIND_LABEL;
use riffle_core::{Game, KeywordUse, PlayerId, PlayerView, Request};

use riffle::readable::word;

/// A card the view shows with its identity, and where it is ("P1 hand").
struct Seen<'v> {
    card: &'v CardView,
    place: String,
}

/// Every card of the view with its identity, attached cards too.
fn seen<'v>(view: &'v PlayerView, lang: Option<&str>, game: &Game) -> Vec<Seen<'v>> {
    fn walk<'v>(c: &'v CardView, place: &str, out: &mut Vec<Seen<'v>>) {
        if c.id.is_some() && c.card.is_some() {
            out.push(Seen {
                card: c,
                place: place.to_string(),
            });
        }
        for a in &c.attachments {
            walk(a, &format!("{place}, attached"), out);
        }
    }
    let mut out = Vec::new();
    for z in &view.zones {
        let zone = word(game, lang, &z.name);
        let place = match z.owner {
            Some(p) => format!("P{} {zone}", p + 1),
            None => zone,
        };
        for c in &z.cards {
            walk(c, &place, &mut out);
        }
    }
    out
}

/// `text N`: the cards option `n` (1-based) of `req` names, as `viewer` sees them.
pub(super) fn option_text(
    game: &Game,
    viewer: PlayerId,
    lang: Option<&str>,
    req: &Request,
    n: usize,
) -> Vec<String> {
    let view = view(game, viewer, lang);
    // The view's copy of the request: blind options there name no card.
    let options = match view.request.as_ref().unwrap_or(req) {
        Request::Choose { options, .. } => options,
        Request::Number { .. } => {
            return vec!["this request is a number: no option names a card".into()];
        }
    };
    let Some(o) = n.checked_sub(1).and_then(|i| options.get(i)) else {
        return vec![format!(
            "text N: there is no option {n}: type a number from 1 to {}",
            options.len()
        )];
    };
    let ids: Vec<_> = [o.card, o.target].into_iter().flatten().collect();
    if ids.is_empty() {
        return vec![if o.label.contains(BLIND_LABEL) {
            format!("option {n} ({}): a card you cannot see", o.label)
        } else {
            format!("option {n} ({}) names no card", o.label)
        }];
    }
    let cards = seen(&view, lang, game);
    let mut out = Vec::new();
    for id in ids {
        match cards.iter().find(|s| s.card.id == Some(id)) {
            Some(s) => out.extend(describe(game, lang, s)),
            None => out.push(format!("option {n} ({}): a card you cannot see", o.label)),
        }
    }
    out
}

/// `card NAME`: the visible card whose name is `name` (any case), or starts with it, or holds
/// it; the candidates when several cards match.
pub(super) fn card_text(
    game: &Game,
    viewer: PlayerId,
    lang: Option<&str>,
    name: &str,
) -> Vec<String> {
    let view = view(game, viewer, lang);
    let cards = seen(&view, lang, game);
    let wanted = name.trim().to_lowercase();
    let names = |s: &Seen| {
        let c = s.card;
        [c.name.as_deref(), c.label.as_deref(), c.card.as_deref()]
            .into_iter()
            .flatten()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    // The closest kind of match wins: the whole name, then its start, then any part.
    let tiers: [&dyn Fn(&str) -> bool; 3] = [&|n| n == wanted, &|n| n.starts_with(&wanted), &|n| {
        n.contains(&wanted)
    }];
    for tier in tiers {
        let mut found: Vec<&Seen> = cards
            .iter()
            .filter(|s| names(s).iter().any(|n| tier(n)))
            .collect();
        // Copies of one card read alike: one of them.
        let mut kinds: Vec<&str> = Vec::new();
        found.retain(|s| {
            let k = s.card.label.as_deref().unwrap_or_default();
            let new = !kinds.contains(&k);
            kinds.push(k);
            new
        });
        match found.as_slice() {
            [] => continue,
            [one] => return describe(game, lang, one),
            many => {
                let mut out = vec![format!(
                    "{} cards match '{}': which one?",
                    many.len(),
                    name.trim()
                )];
                out.extend(many.iter().map(|s| {
                    format!(
                        "  {} ({})",
                        s.card.label.as_deref().unwrap_or_default(),
                        s.place
                    )
                }));
                return out;
            }
        }
    }
    // The same answer whether the card is hidden somewhere or nowhere at all.
    vec![format!(
        "no card '{}' is visible to you",
        super::play::quoted(name.trim())
    )]
}

fn view(game: &Game, viewer: PlayerId, lang: Option<&str>) -> PlayerView {
    match lang {
        Some(l) => game.view_in(viewer, l),
        None => game.view(viewer),
    }
}

/// A card's name, place, values, sets, counters and printed text.
fn describe(game: &Game, lang: Option<&str>, s: &Seen) -> Vec<String> {
    let c = s.card;
    let engine = game.engine();
    let manifest = engine.manifest();
    let id = c
        .definition
        .as_deref()
        .or(c.card.as_deref())
        .unwrap_or_default();
    let def = engine.card_def(id);
    let mut head = format!("{} [{id}]", c.label.as_deref().unwrap_or_default());
    if let Some(d) = def {
        head.push_str(&format!(" {}", word(game, lang, &d.category)));
    }
    head.push_str(&format!(", {}", s.place));
    if !c.face_up {
        head.push_str(", face down");
    }
    let mut out = vec![head];
    let values: Vec<String> = c
        .values
        .iter()
        .map(|(k, v)| format!("{} {v}", word(game, lang, k)))
        .collect();
    if !values.is_empty() {
        out.push(format!("  {}", values.join(", ")));
    }
    for (k, set) in &c.sets {
        if set.is_empty() {
            continue;
        }
        let items: Vec<String> = set
            .iter()
            .map(|x| keyword(game, lang, def.map(|d| &d.keywords[..]), x))
            .collect();
        out.push(format!("  {}: {}", word(game, lang, k), items.join(", ")));
    }
    // A game without a `keywords` characteristic: the keywords its card data prints.
    if let Some(d) = def.filter(|d| !d.keywords.is_empty() && !c.sets.contains_key("keywords")) {
        let items: Vec<String> = d
            .keywords
            .iter()
            .map(|k| keyword(game, lang, Some(&d.keywords), k.parts().0))
            .collect();
        out.push(format!(
            "  {}: {}",
            word(game, lang, "keywords"),
            items.join(", ")
        ));
    }
    let marks: Vec<String> = c
        .counters
        .iter()
        .map(|(k, v)| format!("{} {v}", word(game, lang, k)))
        .chain(c.flags.iter().map(|f| word(game, lang, f)))
        .collect();
    if !marks.is_empty() {
        out.push(format!("  now: {}", marks.join(", ")));
    }
    let printed = &manifest.names.printed;
    let text = def.and_then(|d| {
        lang.and_then(|l| d.text.get(l))
            .or_else(|| d.text.get(printed))
            .or_else(|| d.text.values().next())
    });
    match text.map(|t| t.trim()).filter(|t| !t.is_empty()) {
        Some(t) => out.extend(t.lines().map(|l| format!("  | {l}"))),
        None => out.push("  (no text)".into()),
    }
    out
}

/// A keyword as card text writes it (`[Blocker]`, `〈Repair 2〉`), or `x` as it is.
fn keyword(game: &Game, lang: Option<&str>, printed: Option<&[KeywordUse]>, x: &str) -> String {
    let manifest = game.engine().manifest();
    let Some(decl) = manifest.keywords.iter().find(|k| k.name == x) else {
        return word(game, lang, x);
    };
    let spelt = lang
        .and_then(|l| decl.text.get(l))
        .or_else(|| decl.text.get(&manifest.names.printed))
        .or_else(|| decl.text.values().next());
    let n = printed
        .into_iter()
        .flatten()
        .map(KeywordUse::parts)
        .find(|(name, _)| *name == x)
        .map_or(0, |(_, n)| n);
    match spelt {
        Some(s) => s.replace("{n}", &n.to_string()),
        None if decl.valued => format!("{x} {n}"),
        None => x.to_string(),
    }
}
