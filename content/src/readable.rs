//! The readable log: a game told for people, as `riffle play` prints it, as a human
//! player reads it between decisions, and as the host tells a seat that asks for it
//! (`riffle_host`, `join` with `log: readable`). It tells the decisions (another player's only as far
//! as the viewer saw them: `Game::events_for`), where every moved card went, the events the
//! ruleset gives a `log` line in `game.yaml` (a battle and its result...), effects that
//! expired, and what `game.yaml`'s `log` asks to watch (zone counts such as Life, card values
//! such as power) whenever it changes. Nothing in it is game-specific: docs/content.md, "The
//! readable log".

use std::collections::BTreeMap;

use riffle_core::events::Event;
use riffle_core::values::Val;
use riffle_core::{Entry, Game, ObjId, PlayerId, Request, Response, Visibility, ZoneId};

/// Tells a game as it goes: each call to [`Narrator::lines`] gives what happened since the
/// previous one.
pub struct Narrator {
    viewer: Option<PlayerId>,
    lang: Option<String>,
    /// Entries of the full log already told (`Game::log_len`): each call reads only the
    /// new ones, so a long game is told in linear time.
    told: usize,
    turn: u32,
    last: Option<Watched>,
    /// The line of an ability that asked a question and has not ended yet: what follows the
    /// answer is told on a line of its own ("Nami's [On Play], continued: ...").
    going_on: Option<String>,
}

/// What `game.yaml` `log` watches, at one moment.
#[derive(Default)]
struct Watched {
    /// Card count per (zone, whose: `P2 `, `team 1 (P1+P3) `).
    counts: BTreeMap<(String, String), usize>,
    /// Per card in a watched zone: its label and watched values.
    values: BTreeMap<ObjId, (String, Vec<(String, i64)>)>,
    /// Per (player, value name): the player values `log.players` watches.
    players: BTreeMap<(PlayerId, String), i64>,
}

impl Narrator {
    /// A narrator for `viewer` (None: everything, as a spectator with the full log), card
    /// names in `lang` (None: the printed names).
    pub fn new(viewer: Option<PlayerId>, lang: Option<String>) -> Narrator {
        Narrator {
            viewer,
            lang,
            told: 0,
            turn: 0,
            last: None,
            going_on: None,
        }
    }

    /// What happened since the last call; the first call opens with what is on the table.
    pub fn lines(&mut self, game: &Game) -> Vec<String> {
        let mut out = Vec::new();
        if self.last.is_none() {
            out.extend(self.opening(game));
        }
        let log = match self.viewer {
            Some(p) => game.events_for_from(p, self.told),
            None => game.log_from(self.told),
        };
        let declared = &game.engine().manifest().log;
        let is_ability =
            |e: &Entry| matches!(e, Entry::Event(ev) if declared.abilities.contains(&ev.name));
        let is_end =
            |e: &Entry| matches!(e, Entry::Event(ev) if declared.ability_ends.contains(&ev.name));
        let mut moves = MoveGroup::default();
        // The line of the ability resolving now (`log.abilities`): what follows it up to the
        // next decision, ability, turn or end of the ability is told on it.
        let mut ability: Option<AbilityLine> = None;
        // The line of the ability that ended last: the values it changed are told on it when
        // nothing followed it.
        let mut ended: Option<AbilityLine> = None;
        let mut tally = self.tally(game);
        let mut i = 0;
        while i < log.len() {
            let entry = &log[i];
            i += 1;
            tally.count(entry);
            let turn_or_end = matches!(entry, Entry::Event(ev)
                if ["turn_began", "game_over", "eliminated"].contains(&ev.name.as_str()));
            if matches!(entry, Entry::Decision { .. })
                || is_ability(entry)
                || is_end(entry)
                || turn_or_end
            {
                out.extend(moves.take());
                // What the watched counts and values did up to here is told here: the
                // setup's before turn 1, what an ability did on its line.
                if let Some(last) = &mut self.last {
                    out.extend(tally.told_into(last));
                }
                if let Some(a) = ability.take() {
                    ended = a.fold(&mut out);
                }
                // A question the ability asks: the ability goes on after it, when the
                // ruleset says where abilities end; otherwise its line ends here.
                if is_end(entry) || turn_or_end || declared.ability_ends.is_empty() {
                    self.going_on = None;
                }
            }
            if is_end(entry) {
                continue;
            }
            if is_ability(entry) {
                let head = self.entry(game, entry);
                if let Some(last) = head.last() {
                    self.going_on = Some(last.clone());
                    ability = Some(AbilityLine::new(out.len() + head.len() - 1, false));
                }
                out.extend(head);
                continue;
            }
            // The lines that follow a question an ability asked are that ability's again.
            if ability.is_none()
                && !matches!(entry, Entry::Decision { .. })
                && let Some(head) = &self.going_on
            {
                out.extend(moves.take());
                out.push(format!("{head}, {}", self.word(game, "continued")));
                ability = Some(AbilityLine::new(out.len() - 1, true));
            }
            // A player leaving a game that goes on: one line, for them and all their cards.
            if let Entry::Event(ev) = entry
                && ev.name == "eliminated"
            {
                let (entries, leaving) = leaving_cards(&log[i..], ev.reason.as_deref());
                for e in &log[i..i + entries] {
                    tally.count(e);
                }
                i += entries;
                out.push(format!(
                    "  P{} is out of the game ({}){}",
                    ev.player.map_or(0, |p| p + 1),
                    self.word(game, ev.reason.as_deref().unwrap_or_default()),
                    match leaving {
                        0 => String::new(),
                        1 => ": 1 card of theirs leaves the game".into(),
                        n => format!(": {n} cards of theirs leave the game"),
                    }
                ));
                continue;
            }
            // Effects ending alike on one card, counted ("2 effects on its power ended").
            if let Entry::Event(ev) = entry
                && ev.name == "expired"
            {
                out.extend(moves.take());
                let alike = log[i..]
                    .iter()
                    .take_while(|e| matches!(e, Entry::Event(x) if x.name == "expired"
                        && (x.card, x.player, &x.key, &x.reason) == (ev.card, ev.player, &ev.key, &ev.reason)))
                    .count();
                i += alike;
                out.push(self.expired(game, ev, alike + 1));
                continue;
            }
            // Moves and turns, grouped when consecutive ones go alike ("Resource x2: rested
            // (cost)").
            if let Entry::Event(ev) = entry
                && (ev.name == "moved" || ev.name == "turned")
            {
                let key = if ev.name == "moved" {
                    self.move_key(game, ev)
                } else {
                    format!(
                        "{} ({})",
                        ev.key.as_deref().unwrap_or_default(),
                        ev.reason.as_deref().unwrap_or("turned")
                    )
                };
                if moves.key.as_ref() != Some(&key) {
                    out.extend(moves.take());
                    moves.key = Some(key);
                }
                moves.cards.push(self.card(game, ev.card.or(ev.old)));
                continue;
            }
            out.extend(moves.take());
            out.extend(self.entry(game, entry));
        }
        out.extend(moves.take());
        self.told = game.log_len();
        let now = self.watch(game);
        let told = out.len();
        if let Some(before) = &self.last {
            out.extend(changes(before, &now));
        }
        self.last = Some(now);
        // The ability the last to resolve (or to end, with nothing told after it): the values
        // it changed are told on its line too.
        if let Some(a) = ability.or(ended.filter(|a| a.at + 1 == told)) {
            a.fold(&mut out);
        }
        out
    }

    /// Goes on from `game` as it is, telling nothing of what led there: a game the reader
    /// jumped to (an undo, a loaded position) is told from here on.
    pub fn resume_at(&mut self, game: &Game) {
        self.told = game.log_len();
        self.turn = game.turn();
        self.last = Some(self.watch(game));
        self.going_on = None;
    }

    /// The cards each player has face up in public zones at the start (a Leader).
    fn opening(&self, game: &Game) -> Vec<String> {
        let manifest = game.engine().manifest();
        let public = |zone: &str| {
            manifest
                .zones
                .iter()
                .any(|z| z.name == zone && z.visibility == Visibility::Public)
        };
        let view = self.view(game);
        let mut out = Vec::new();
        // The teams first, when players play in teams ("teams: P1+P3 vs P2+P4").
        if !view.teams.is_empty() {
            let teams: Vec<String> = view
                .teams
                .iter()
                .map(|t| {
                    let seats: Vec<String> = t.iter().map(|p| format!("P{}", p + 1)).collect();
                    seats.join("+")
                })
                .collect();
            out.push(format!("teams: {}", teams.join(" vs ")));
        }
        for p in 0..game.players() {
            let mut zones = Vec::new();
            for z in view
                .zones
                .iter()
                .filter(|z| z.owner == Some(p) && public(&z.name))
            {
                let mut counted = Vec::new();
                for c in z.cards.iter().filter(|c| c.face_up && c.label.is_some()) {
                    count(&mut counted, described(game, &z.name, c));
                }
                if !counted.is_empty() {
                    zones.push(format!(
                        "{} {}",
                        self.word(game, &z.name),
                        counted_list(counted)
                    ));
                }
            }
            if !zones.is_empty() {
                out.push(format!("P{}: {}", p + 1, zones.join("; ")));
            }
        }
        out
    }

    fn view(&self, game: &Game) -> riffle_core::PlayerView {
        let p = self.viewer.unwrap_or(0);
        match &self.lang {
            Some(lang) => game.view_in(p, lang),
            None => game.view(p),
        }
    }

    /// A tally of the watched counts and values, from where the last call left them.
    fn tally(&self, game: &Game) -> Tally {
        let declared = &game.engine().manifest().log;
        let view = self.view(game);
        let keys = view
            .zones
            .iter()
            .map(|z| {
                declared
                    .counts
                    .contains(&z.name)
                    .then(|| (self.word(game, &z.name), whose(&view, z)))
            })
            .collect();
        let names = declared
            .players
            .iter()
            .map(|v| (v.clone(), self.word(game, v)))
            .collect();
        let counters = declared
            .values
            .keys()
            .filter(|v| game.engine().manifest().counters.contains(v))
            .map(|v| (v.clone(), self.word(game, v)))
            .collect();
        Tally {
            keys,
            names,
            counters,
            values: self
                .last
                .as_ref()
                .map(|l| l.values.clone())
                .unwrap_or_default(),
            counts: self
                .last
                .as_ref()
                .map(|l| l.counts.clone())
                .unwrap_or_default(),
            players: self
                .last
                .as_ref()
                .map(|l| l.players.clone())
                .unwrap_or_default(),
            on: self.last.is_some(),
        }
    }

    fn card(&self, game: &Game, id: Option<ObjId>) -> String {
        match id {
            Some(id) => game.card_label(id, self.lang.as_deref()),
            None => "a hidden card".into(),
        }
    }

    fn zone(&self, game: &Game, z: Option<ZoneId>) -> String {
        match z {
            Some(z) => match game.zone_of(z) {
                (name, Some(p)) => format!("P{} {}", p + 1, self.word(game, &name)),
                (name, None) => self.word(game, &name),
            },
            None => "nowhere".into(),
        }
    }

    /// `name` (a zone, prompt, reason, value name or a text an event carries) as readers of
    /// the viewer's language call it (`game.yaml` `log.languages`), or as it is.
    fn word(&self, game: &Game, name: &str) -> String {
        word(game, self.lang.as_deref(), name)
    }

    fn language<'g>(&self, game: &'g Game) -> Option<&'g riffle_core::LogLanguage> {
        language(game, self.lang.as_deref())
    }

    /// Where a move went, as the line of its group shows it.
    fn move_key(&self, game: &Game, ev: &Event) -> String {
        let to = match data(ev, "host") {
            Some(Val::Card(h)) => format!("under {}", self.card(game, Some(h.card))),
            _ => self.zone(game, ev.to),
        };
        format!(
            "{} -> {to} ({})",
            self.zone(game, ev.from),
            self.word(game, ev.reason.as_deref().unwrap_or("moved"))
        )
    }

    fn entry(&mut self, game: &Game, entry: &Entry) -> Vec<String> {
        match entry {
            Entry::Decision {
                player,
                request,
                response,
            } => {
                let request = match &self.lang {
                    Some(lang) => translated(game, lang, request),
                    None => request.clone(),
                };
                let prompt = |p: &str| match p.split_once(": ") {
                    Some((head, rest)) => format!("{}: {rest}", self.word(game, head)),
                    None => self.word(game, p),
                };
                decision(*player, &request, response, prompt)
                    .into_iter()
                    .collect()
            }
            Entry::ScriptError { message } => vec![format!("  script error: {message}")],
            Entry::CardReloaded {
                card,
                version,
                removed,
            } => vec![if *removed {
                format!("  reloaded: {card} was deleted (this game keeps the version it has)")
            } else {
                format!("  reloaded: {card} is now version {version}")
            }],
            Entry::Event(ev) => self.event(game, ev).into_iter().collect(),
        }
    }

    fn event(&mut self, game: &Game, ev: &Event) -> Option<String> {
        let player = |p: Option<PlayerId>| p.map_or("no one".into(), |p| format!("P{}", p + 1));
        match ev.name.as_str() {
            "turn_began" => {
                self.turn += 1;
                Some(format!("turn {}: {}", self.turn, player(ev.player)))
            }
            "game_over" => Some(format!(
                "game over: {}",
                self.word(game, ev.reason.as_deref().unwrap_or_default())
            )),
            "expired" => Some(self.expired(game, ev, 1)),
            "created" => Some(format!(
                "    {} created in {}",
                self.card(game, ev.card),
                self.zone(game, ev.to)
            )),
            "ceased" => Some(match ev.reason.as_deref() {
                Some(why) if !why.is_empty() => {
                    format!("    {} ceased to exist ({why})", self.card(game, ev.old))
                }
                _ => format!("    {} ceased to exist", self.card(game, ev.old)),
            }),
            name => {
                let line = game
                    .engine()
                    .manifest()
                    .events
                    .iter()
                    .find(|e| e.name() == name)?
                    .log()?;
                let line = self
                    .language(game)
                    .and_then(|l| l.events.get(name))
                    .map_or(line, String::as_str);
                Some(format!("    {}", self.fill(game, ev, line)))
            }
        }
    }

    /// `n` effects alike ending on one card or player.
    fn expired(&self, game: &Game, ev: &Event, n: usize) -> String {
        format!(
            "    {}: {} on its {} ended ({})",
            match ev.card {
                Some(c) => self.card(game, Some(c)),
                None => ev.player.map_or("no one".into(), |p| format!("P{}", p + 1)),
            },
            if n == 1 {
                "an effect".to_string()
            } else {
                format!("{n} effects")
            },
            self.word(game, ev.key.as_deref().unwrap_or("card")),
            self.word(game, ev.reason.as_deref().unwrap_or_default())
        )
    }

    /// A ruleset event's `log` line with its fields filled in.
    fn fill(&self, game: &Game, ev: &Event, line: &str) -> String {
        let mut out = String::new();
        let mut rest = line;
        while let Some(i) = rest.find('{') {
            out.push_str(&rest[..i]);
            let Some(j) = rest[i..].find('}') else { break };
            let field = &rest[i + 1..i + j];
            out.push_str(&self.field(game, ev, field));
            rest = &rest[i + j + 1..];
        }
        out.push_str(rest);
        out
    }

    fn field(&self, game: &Game, ev: &Event, field: &str) -> String {
        match field {
            "card" => self.card(game, ev.card),
            "player" => ev.player.map_or("no one".into(), |p| format!("P{}", p + 1)),
            "reason" => self.word(game, ev.reason.as_deref().unwrap_or_default()),
            "key" => ev.key.clone().unwrap_or_default(),
            "amount" => ev.amount.to_string(),
            _ => match data(ev, field) {
                Some(v) => self.value(game, &v),
                // A card the viewer could not see is left out of the data.
                None => "a hidden card".into(),
            },
        }
    }

    fn value(&self, game: &Game, v: &Val) -> String {
        match v {
            Val::Bool(b) => b.to_string(),
            Val::Int(i) => i.to_string(),
            Val::Card(c) => self.card(game, Some(c.card)),
            Val::Player(p) => format!("P{}", p.player + 1),
            Val::Str(s) => self.word(game, s),
            Val::List(l) => l
                .iter()
                .map(|x| self.value(game, x))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The zone counts and card values `game.yaml` `log` watches, now.
    fn watch(&self, game: &Game) -> Watched {
        let log = &game.engine().manifest().log;
        let mut w = Watched::default();
        let view = self.view(game);
        for (p, values) in view.values.iter().enumerate() {
            for v in &log.players {
                if let Some(n) = values.get(v) {
                    w.players.insert((p as PlayerId, self.word(game, v)), *n);
                }
            }
        }
        for z in &view.zones {
            if log.counts.contains(&z.name) {
                w.counts
                    .insert((self.word(game, &z.name), whose(&view, z)), z.count);
            }
            for c in &z.cards {
                let (Some(id), Some(label)) = (c.id, &c.label) else {
                    continue;
                };
                let values: Vec<(String, i64)> = shown_values(game, &z.name, c)
                    .into_iter()
                    .map(|(ch, v)| (self.word(game, &ch), v))
                    .collect();
                if !values.is_empty() {
                    w.values.insert(id, (label.clone(), values));
                }
            }
        }
        w
    }
}

/// `name` (a zone, prompt, reason, value name...) as readers of `lang` call it (`game.yaml`
/// `log.languages`), or as it is.
pub fn word(game: &Game, lang: Option<&str>, name: &str) -> String {
    language(game, lang)
        .and_then(|l| l.words.get(name))
        .cloned()
        .unwrap_or_else(|| name.to_string())
}

fn language<'g>(game: &'g Game, lang: Option<&str>) -> Option<&'g riffle_core::LogLanguage> {
    game.engine().manifest().log.languages.get(lang?)
}

/// An ability's line in the readable log, which the lines after it are told on.
#[derive(Clone, Copy)]
struct AbilityLine {
    at: usize,
    /// Lines were told on it already ("Nami's [On Play]: a").
    told: bool,
    /// It is the line of an ability going on after a question: without lines it goes.
    continued: bool,
}

impl AbilityLine {
    fn new(at: usize, continued: bool) -> AbilityLine {
        AbilityLine {
            at,
            told: false,
            continued,
        }
    }

    /// Tells the lines after it on it: "Nami's [On Play]: a; b". Returns the line if it stays.
    fn fold(self, out: &mut Vec<String>) -> Option<AbilityLine> {
        if self.at >= out.len() {
            return None;
        }
        let did: Vec<String> = out
            .drain(self.at + 1..)
            .map(|l| l.trim().to_string())
            .collect();
        if did.is_empty() {
            if self.continued && !self.told {
                out.remove(self.at);
                return None;
            }
            return Some(self);
        }
        let sep = if self.told { "; " } else { ": " };
        out[self.at] = format!("{}{sep}{}", out[self.at], did.join("; "));
        Some(AbilityLine { told: true, ..self })
    }
}

/// The counts and player values `game.yaml` `log` watches, followed through the log's
/// events between two calls of [`Narrator::lines`], so that what changed before a turn began
/// is told before it (the setup's Life before turn 1). The next call's look at the game
/// itself stays the truth: what the events do not say (a card attached) is told then.
struct Tally {
    /// By zone index: the key of a watched zone's count.
    keys: Vec<Option<(String, String)>>,
    /// The watched player values, as the readers' language names them.
    names: BTreeMap<String, String>,
    counts: BTreeMap<(String, String), usize>,
    players: BTreeMap<(PlayerId, String), i64>,
    /// The watched counters, as the readers' language names them, and the cards' values.
    counters: BTreeMap<String, String>,
    values: BTreeMap<ObjId, (String, Vec<(String, i64)>)>,
    /// Off before the first call has looked at the game.
    on: bool,
}

impl Tally {
    fn count(&mut self, entry: &Entry) {
        let Entry::Event(ev) = entry else { return };
        if !self.on {
            return;
        }
        let reason = ev.reason.as_deref();
        match ev.name.as_str() {
            "moved" if reason != Some("with_host") => {
                if reason != Some("host_left") {
                    self.add(ev.from, -1);
                }
                if data(ev, "host").is_none() {
                    self.add(ev.to, 1);
                }
            }
            "created" => self.add(ev.to, 1),
            "counter" => {
                let (Some(card), Some(name)) =
                    (ev.card, ev.key.as_ref().and_then(|k| self.counters.get(k)))
                else {
                    return;
                };
                let Some((_, values)) = self.values.get_mut(&card) else {
                    return;
                };
                match values.iter_mut().find(|(n, _)| n == name) {
                    Some((_, v)) => *v += ev.amount,
                    None => values.push((name.clone(), ev.amount)),
                }
            }
            "value" => {
                let (Some(p), Some(name)) =
                    (ev.player, ev.key.as_ref().and_then(|k| self.names.get(k)))
                else {
                    return;
                };
                *self.players.entry((p, name.clone())).or_default() += ev.amount;
            }
            _ => {}
        }
    }

    fn add(&mut self, zone: Option<ZoneId>, n: isize) {
        let Some(Some(key)) = zone.and_then(|z| self.keys.get(z.0 as usize)) else {
            return;
        };
        let c = self.counts.entry(key.clone()).or_default();
        *c = c.saturating_add_signed(n);
    }

    /// The lines for what changed since `last`, which then holds these counts and values.
    fn told_into(&self, last: &mut Watched) -> Vec<String> {
        if !self.on {
            return Vec::new();
        }
        let now = Watched {
            counts: self.counts.clone(),
            values: self.values.clone(),
            players: self.players.clone(),
        };
        let out = changes(last, &now);
        *last = now;
        out
    }
}

/// `req` as readers of `lang` read it: its options' card names in `lang`, and the labels
/// whose form `log.languages.<lang>.options` gives in its words ([`option_label`]).
pub fn translated(game: &Game, lang: &str, req: &Request) -> Request {
    let mut out = game.request_in(req, lang);
    if let (
        Request::Choose {
            options: printed, ..
        },
        Request::Choose { options, .. },
    ) = (req, &mut out)
    {
        for (o, p) in options.iter_mut().zip(printed) {
            if let Some(l) = option_label(game, lang, p) {
                o.label = l;
            }
        }
    }
    out
}

/// Option `o` (labelled as the ruleset labels it) in the words of `lang`, when the
/// language's `options` has its form: the label with `{card}` and `{target}` for its cards'
/// names and `{n}` for each number ("attack with {card} (Mp {n})").
pub fn option_label(game: &Game, lang: &str, o: &riffle_core::Choice) -> Option<String> {
    let forms = &language(game, Some(lang))?.options;
    if forms.is_empty() {
        return None;
    }
    let mut label = o.label.clone();
    for (slot, id) in [("\u{0}card\u{0}", o.card), ("\u{0}target\u{0}", o.target)] {
        if let Some(id) = id {
            let name = game.card_label(id, None);
            if !name.is_empty() && label.contains(&name) {
                label = label.replacen(&name, slot, 1);
            }
        }
    }
    // Numbers become `{n}`, kept in order.
    let (mut form, mut numbers, mut digits) = (String::new(), Vec::new(), String::new());
    for ch in label.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        if !digits.is_empty() {
            numbers.push(std::mem::take(&mut digits));
            form.push_str("{n}");
        }
        form.push(ch);
    }
    form.pop();
    let form = form
        .replace("\u{0}card\u{0}", "{card}")
        .replace("\u{0}target\u{0}", "{target}");
    let mut out = forms.get(&form)?.clone();
    for (slot, id) in [("{card}", o.card), ("{target}", o.target)] {
        if let Some(id) = id {
            out = out.replace(slot, &game.card_label(id, Some(lang)));
        }
    }
    for n in numbers {
        out = out.replacen("{n}", &n, 1);
    }
    Some(out)
}

/// "Nami (power 5000)": a card with the values `game.yaml` `log` shows in its zone.
fn described(game: &Game, zone: &str, c: &riffle_core::CardView) -> String {
    let label = c.label.clone().unwrap_or_else(|| "a hidden card".into());
    let values = shown_values(game, zone, c);
    if values.is_empty() {
        return label;
    }
    let vs: Vec<String> = values.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!("{label} ({})", vs.join(", "))
}

/// The values `game.yaml` `log` shows for a card in `zone`, in the order of its `values`.
fn shown_values(game: &Game, zone: &str, c: &riffle_core::CardView) -> Vec<(String, i64)> {
    game.engine()
        .manifest()
        .log
        .values
        .iter()
        .filter(|(_, zones)| zones.iter().any(|z| z == zone))
        .filter_map(|(ch, _)| match c.values.get(ch) {
            Some(v) => Some((ch.clone(), *v)),
            // A counter: shown while the card has some.
            None => c
                .counters
                .get(ch)
                .filter(|n| **n != 0)
                .map(|n| (ch.clone(), *n)),
        })
        .collect()
}

/// Lines for what changed between two moments: a watched zone's count, a watched value of a
/// card that stayed where it was.
fn changes(before: &Watched, now: &Watched) -> Vec<String> {
    let mut out = Vec::new();
    for ((p, name), n) in &now.players {
        let was = before
            .players
            .get(&(*p, name.clone()))
            .copied()
            .unwrap_or(0);
        if was != *n {
            out.push(format!("    P{} {name} {was} -> {n}", p + 1));
        }
    }
    for ((zone, who), n) in &now.counts {
        let was = before
            .counts
            .get(&(zone.clone(), who.clone()))
            .copied()
            .unwrap_or(0);
        if was != *n {
            out.push(format!("    {who}{zone} {was} -> {n}"));
        }
    }
    for (id, (label, values)) in &now.values {
        let Some((_, old)) = before.values.get(id) else {
            continue;
        };
        for (ch, v) in values {
            // A counter is shown only while the card has some: before, it had none.
            let was = old.iter().find(|(c, _)| c == ch).map_or(0, |(_, w)| *w);
            if was != *v {
                out.push(format!("    {label} {ch} {was} -> {v}"));
            }
        }
        // A counter the card no longer has.
        for (ch, was) in old {
            if *was != 0 && !values.iter().any(|(c, _)| c == ch) {
                out.push(format!("    {label} {ch} {was} -> 0"));
            }
        }
    }
    out
}

/// A decision as one line: who, the prompt, and what they chose.
fn decision(
    player: PlayerId,
    request: &Request,
    response: &Response,
    prompt_word: impl Fn(&str) -> String,
) -> Option<String> {
    let who = format!("  P{}", player + 1);
    match (request, response) {
        (
            Request::Choose {
                options, prompt, ..
            },
            Response::Choose { indices },
        ) => {
            let picked: Vec<&str> = indices
                .iter()
                .filter_map(|i| options.get(*i as usize))
                .map(|o| o.label.as_str())
                .collect();
            let picked = if picked.is_empty() {
                "nothing".to_string()
            } else {
                picked.join(", ")
            };
            Some(format!("{who} {}: {picked}", prompt_word(prompt)))
        }
        (Request::Number { prompt, .. }, Response::Number { value }) => {
            Some(format!("{who} {}: {value}", prompt_word(prompt)))
        }
        _ => None,
    }
}

fn data(ev: &Event, key: &str) -> Option<Val> {
    ev.data
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
}

/// Consecutive moves from the same place to the same place for the same reason, told as one
/// line ("DON!! x2: P1 don_deck -> P1 cost (don_phase)").
/// The entries following an `eliminated` event that are its player's cards leaving (moves and
/// ends of existence for `reason`, cards of others going back to their owners' control): how
/// many entries, and how many cards.
fn leaving_cards(after: &[Entry], reason: Option<&str>) -> (usize, usize) {
    let (mut entries, mut cards) = (0, 0);
    let mut last_moved = None;
    for e in after {
        let Entry::Event(x) = e else { break };
        let leaving = (matches!(x.name.as_str(), "moved" | "ceased")
            && x.reason.as_deref() == reason)
            || x.name == "controller";
        if !leaving {
            break;
        }
        entries += 1;
        // A card that moved and then ceased (a token leaving play) is one card leaving.
        if !(x.name == "ceased" && x.old.is_some() && x.old == last_moved) {
            cards += 1;
        }
        last_moved = if x.name == "moved" { x.card } else { None };
    }
    (entries, cards)
}

#[derive(Default)]
struct MoveGroup {
    key: Option<String>,
    cards: Vec<String>,
}

impl MoveGroup {
    fn take(&mut self) -> Option<String> {
        let key = self.key.take()?;
        let mut counted: Vec<(String, usize)> = Vec::new();
        for c in std::mem::take(&mut self.cards) {
            count(&mut counted, c);
        }
        Some(format!("    {}: {key}", counted_list(counted)))
    }
}

/// A seat's screen: each player's values `game.yaml` `log.players` watches, then one line per
/// non-empty zone it can see something of, each card with the
/// values `game.yaml` `log` shows in that zone (a cost in the hand, power on the field), its
/// orientation when it is not the first one the game declares ("rested"), and the cards
/// attached to it; identical cards are counted ("DON!! x3 rested"). A zone whose cards are
/// all hidden shows its count.
pub fn board(game: &Game, view: &riffle_core::PlayerView) -> Vec<String> {
    let manifest = game.engine().manifest();
    let default = manifest.orientations.first().cloned();
    let mut out = Vec::new();
    // The player values `game.yaml` `log.players` watches (Mp to pay with), one line each.
    for (p, values) in view.values.iter().enumerate() {
        let shown: Vec<String> = manifest
            .log
            .players
            .iter()
            .filter_map(|v| values.get(v).map(|n| format!("{v} {n}")))
            .collect();
        if !shown.is_empty() {
            out.push(format!("P{}: {}", p + 1, shown.join(", ")));
        }
    }
    for z in &view.zones {
        if z.count == 0 {
            continue;
        }
        let who = whose(view, z);
        if z.cards.iter().all(|c| c.label.is_none()) {
            out.push(format!("{who}{} ({})", z.name, z.count));
            continue;
        }
        let mut counted: Vec<(String, usize)> = Vec::new();
        for c in &z.cards {
            let mut text = match &c.label {
                Some(_) => described(game, &z.name, c),
                None => "?".into(),
            };
            if Some(&c.orientation) != default.as_ref() {
                text.push(' ');
                text.push_str(&c.orientation);
            }
            if !c.attachments.is_empty() {
                let mut under: Vec<(String, usize)> = Vec::new();
                for a in &c.attachments {
                    count(&mut under, a.label.clone().unwrap_or_else(|| "?".into()));
                }
                text.push_str(&format!(" [{}]", counted_list(under)));
            }
            count(&mut counted, text);
        }
        out.push(format!(
            "{who}{} ({}): {}",
            z.name,
            z.count,
            counted_list(counted)
        ));
    }
    out
}

/// Whose a zone is, as a line's prefix: `P2 `, a team's `team 1 (P1+P3) ` (without teams a
/// team zone is its one player's), or nothing for a shared zone.
fn whose(view: &riffle_core::PlayerView, z: &riffle_core::views::ZoneView) -> String {
    match (z.team, z.owner) {
        (Some(t), _) => match view.teams.get(t as usize) {
            Some(members) => {
                let ps: Vec<String> = members.iter().map(|p| format!("P{}", p + 1)).collect();
                format!("team {} ({}) ", t + 1, ps.join("+"))
            }
            None => format!("P{} ", t + 1),
        },
        (None, Some(o)) => format!("P{} ", o + 1),
        (None, None) => String::new(),
    }
}

fn count(list: &mut Vec<(String, usize)>, item: String) {
    match list.iter_mut().find(|(l, _)| *l == item) {
        Some((_, n)) => *n += 1,
        None => list.push((item, 1)),
    }
}

/// "a, b x2, c": each item with its count when above one, in first-seen order.
fn counted_list(list: Vec<(String, usize)>) -> String {
    list.into_iter()
        .map(|(l, n)| if n == 1 { l } else { format!("{l} x{n}") })
        .collect::<Vec<_>>()
        .join(", ")
}
