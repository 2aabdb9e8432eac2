//! The scenario file format (`*.test.yaml`) as Rust types: the source of
//! `schema/scenario.schema.json` (schemars). Every file is checked against that schema before
//! it runs, so that a misspelt key is an error at its line and column instead of being
//! ignored. Doc comments are the schema's descriptions; `docs/scenarios.md` is the guide.
//!
//! The runner itself reads the checked JSON: `defaults:` merge under each scenario map by
//! map, which typed structs would not keep apart.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::limits::MAX_CARDS_PER_LINE;

/// Keys that are player numbers: 1, 2... (no 0, no sign, at most three digits).
pub const PLAYER_NUMBER_PATTERN: &str = "^[1-9][0-9]{0,2}$";

/// A scenario file.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Riffle scenario file (*.test.yaml)")]
pub struct ScenarioFile {
    /// The game. Default: the folder after `cardsets/` or `scripts/` in the file's path.
    #[serde(default)]
    pub game: Option<String>,
    /// Merged under every scenario: maps merge key by key, and the scenario's value wins.
    #[serde(default)]
    pub defaults: Scenario,
    /// The scenarios, run in order.
    pub scenarios: Vec<Scenario>,
}

/// One scenario: a position, answers to the game's requests, and what must hold.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What it checks; `riffle test --filter TEXT` runs those whose name contains TEXT.
    #[serde(default)]
    pub name: Option<String>,
    /// Rule numbers it checks, with the game's prefix (`OP 7-1-4-1`).
    #[serde(default)]
    pub rules: Vec<String>,
    /// Card ids it covers.
    #[serde(default)]
    pub cards: Vec<String>,
    /// The seed of the game's random numbers (default 1).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Where the game starts: the beginning of a phase (`{turn, player, phase}`; default
    /// turn 3, player 1, phase `main`), or `setup`: the ruleset's own setup on deck lists
    /// made from the players' zones.
    #[serde(default)]
    pub start: Option<Start>,
    /// Each player's zones (`zone: [cards]`, the ruleset's zone names) and `values`, by
    /// player number (1, 2...).
    #[serde(default)]
    #[schemars(extend("propertyNames" = {"pattern": PLAYER_NUMBER_PATTERN}))]
    pub players: BTreeMap<String, PlayerSetup>,
    /// Game values by name.
    #[serde(default)]
    pub game_values: BTreeMap<String, i64>,
    /// Game options by name (the ruleset's `options`: a name or an integer); the others take
    /// their defaults. They decide the teams, and `validate_deck` sees them too.
    #[serde(default)]
    pub options: BTreeMap<String, riffle_core::OptionValue>,
    /// The earlier games of the match, for a setup that reads `ctx:match()`.
    #[serde(default, rename = "match")]
    pub match_context: Option<MatchSetup>,
    /// Answers to the game's requests, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// What must hold once the steps are done. A scenario must assert something.
    #[serde(default)]
    pub expect: Option<Expect>,
    /// Not written yet: what it is to check. The scenario fails with this text until the key
    /// is removed (its setup and steps still run, so that a script error shows), and its
    /// cards count as untested (`riffle lint`, `riffle coverage`). `riffle new card` writes
    /// one.
    #[serde(default)]
    pub todo: Option<String>,
    /// Run no game: check this deck list (`section: [cards]` or `section: {ID: n}`) with the
    /// ruleset's deck rules; then `expect` has only `deck_errors`.
    #[serde(default)]
    pub validate_deck: Option<BTreeMap<String, DeckSection>>,
}

/// `start:`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Start {
    /// `setup`: the ruleset's setup procedure runs (shuffles, opening hands...).
    Setup(SetupWord),
    /// The beginning of a phase of a turn.
    At(StartAt),
}

/// The word `setup`.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SetupWord {
    /// Start with the ruleset's setup.
    Setup,
}

/// `start: {turn, player, phase}`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartAt {
    /// The turn number (default 3).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub turn: Option<u32>,
    /// Whose turn it is: a player number (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub player: Option<u64>,
    /// The phase, by the ruleset's name (default `main`).
    #[serde(default)]
    pub phase: Option<String>,
}

/// `match: {previous: [...]}`: the games of the match before this one, oldest first.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchSetup {
    /// Their results.
    pub previous: Vec<PreviousGame>,
}

/// One earlier game of the match.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviousGame {
    /// Its winners by player number (none for a draw).
    pub winners: Vec<u64>,
    /// Why it ended (`defeat`, `concession`...).
    #[serde(default)]
    pub reason: Option<String>,
}

/// One player's starting position.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct PlayerSetup {
    /// Player values by name.
    #[serde(default)]
    pub values: BTreeMap<String, i64>,
    /// Zone name → the cards in it, bottom to top.
    #[serde(flatten)]
    pub zones: BTreeMap<String, Option<Cards>>,
}

/// The cards of a zone: a list, or one card.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Cards {
    /// Several lines.
    List(Vec<CardLine>),
    /// One line.
    One(CardLine),
}

/// A card in a setup: `ID`, `ID xN` (N copies), or a map.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CardLine {
    /// `ID` or `ID xN`.
    Id(String),
    /// A card with its state.
    Placed(PlacedCard),
}

/// `{card: ID, count, orientation, face, attach, counters, flags, entered, token}`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlacedCard {
    /// The card id.
    pub card: String,
    /// How many copies (default 1).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_CARDS_PER_LINE))]
    pub count: Option<u32>,
    /// Its orientation, by the ruleset's name (`rested`).
    #[serde(default)]
    pub orientation: Option<String>,
    /// Face up or down (default: the zone's).
    #[serde(default)]
    pub face: Option<Face>,
    /// Cards attached under it.
    #[serde(default)]
    pub attach: Option<Box<Cards>>,
    /// Counters by name.
    #[serde(default)]
    pub counters: BTreeMap<String, i64>,
    /// Flags by name.
    #[serde(default)]
    pub flags: Vec<String>,
    /// When it entered: `earlier` (default) or `this_turn`.
    #[serde(default)]
    pub entered: Option<Entered>,
    /// A token (it stops existing when it leaves play), as if an effect or the rules had
    /// made it.
    #[serde(default)]
    pub token: bool,
}

/// `face:`.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// Face up.
    Up,
    /// Face down.
    Down,
}

/// `entered:`.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Entered {
    /// On the start turn.
    ThisTurn,
    /// On an earlier turn.
    Earlier,
}

/// A deck section of `validate_deck`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DeckSection {
    /// `[ID, "ID xN"]`.
    List(Vec<String>),
    /// `{ID: n}`.
    Counts(BTreeMap<String, Copies>),
    /// One line.
    One(String),
}

/// A number of copies.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Copies(#[schemars(range(min = 1, max = MAX_CARDS_PER_LINE))] pub u32);

/// One step. Its keys act in this order: `choose` (with `player`), `number`, `concede`,
/// `expect`; `repeat` runs the rest several times.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Answer the pending choice: a label (exact, else the first option starting with it), a
    /// map `{label, kind, card, target, nth}`, a list of those, or `none`.
    #[serde(default)]
    pub choose: Option<Choice>,
    /// Beside `choose`: the player who must be deciding.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub player: Option<u64>,
    /// Answer the pending number request.
    #[serde(default)]
    pub number: Option<i64>,
    /// This player concedes.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub concede: Option<u64>,
    /// Assert now (the keys of a scenario's `expect`).
    #[serde(default)]
    pub expect: Option<Expect>,
    /// Run this step N times, or until the game is over.
    #[serde(default)]
    #[schemars(range(min = 0, max = super::limits::MAX_REPEAT))]
    pub repeat: Option<u64>,
}

/// `choose:`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Choice {
    /// A label (`none`: choose nothing).
    Label(String),
    /// Several options at once.
    Several(Vec<OneChoice>),
    /// The first option matching every field.
    Match(OptionMatch),
}

/// One option of a `choose` list.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneChoice {
    /// A label.
    Label(String),
    /// The first option matching every field.
    Match(OptionMatch),
}

/// An option by its fields.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionMatch {
    /// The label (exact, else the first option starting with it).
    #[serde(default)]
    pub label: Option<String>,
    /// The option's kind (`attack`, `play`...).
    #[serde(default)]
    pub kind: Option<String>,
    /// The card id of the option's card.
    #[serde(default)]
    pub card: Option<String>,
    /// The card id of the option's target.
    #[serde(default)]
    pub target: Option<String>,
    /// The N-th matching option (from 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub nth: Option<u64>,
}

/// What must hold. Player numbers count from 1.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The result: a player number, `draw`, or `none` (not over).
    #[serde(default)]
    pub winner: Option<Winner>,
    /// Whether the game is over.
    #[serde(default)]
    pub over: Option<bool>,
    /// Why it ended (`defeat`, `concession`...).
    #[serde(default)]
    pub reason: Option<String>,
    /// What is being asked.
    #[serde(default)]
    pub request: Option<RequestExpect>,
    /// Zone contents, by player number then zone: a count, a list of ids (a multiset), or a
    /// map.
    #[serde(default)]
    #[schemars(extend("propertyNames" = {"pattern": PLAYER_NUMBER_PATTERN}))]
    pub zones: BTreeMap<String, BTreeMap<String, ZoneExpect>>,
    /// Single cards' state.
    #[serde(default)]
    pub cards: Vec<CardExpect>,
    /// Player values, by player number then name.
    #[serde(default)]
    #[schemars(extend("propertyNames" = {"pattern": PLAYER_NUMBER_PATTERN}))]
    pub values: BTreeMap<String, BTreeMap<String, i64>>,
    /// These events happened, in this order.
    #[serde(default)]
    pub events: Vec<EventPattern>,
    /// These events did not happen.
    #[serde(default)]
    pub no_events: Vec<EventPattern>,
    /// Exactly `count` events of the log match each pattern.
    #[serde(default)]
    pub event_counts: Vec<EventCount>,
    /// What a seat sees of a zone: a map, or a list of maps.
    #[serde(default)]
    pub view: Option<OneOrMany<ViewExpect>>,
    /// The log as a seat may see it: a map, or a list of maps.
    #[serde(default)]
    pub events_for: Option<OneOrMany<EventsForExpect>>,
    /// Script errors expected, by part of their text (otherwise any script error fails).
    #[serde(default)]
    pub errors: Option<Vec<String>>,
    /// `validate_deck` scenarios: the deck errors, by part of their text (`[]`: legal).
    #[serde(default)]
    pub deck_errors: Option<Vec<String>>,
}

/// `winner:`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Winner {
    /// A player number.
    Player(#[schemars(range(min = 1))] u64),
    /// `draw`, `none`, or several winners (`"1,2"`).
    Text(String),
}

/// A map, or a list of such maps.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    /// One.
    One(T),
    /// Several, each checked.
    Many(Vec<T>),
}

/// `request:`.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestExpect {
    /// Who decides.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub player: Option<u64>,
    /// The request's prompt.
    #[serde(default)]
    pub prompt: Option<String>,
    /// Options that must be offered: each a label prefix, or a map as in `choose`
    /// (`{card: ID}`, `{kind: attack, target: ID}`...).
    #[serde(default)]
    pub options: Vec<OneChoice>,
    /// Options that must not be offered, as in `options`. A label that no option of this
    /// prompt could ever have is an error (the check could never fail).
    #[serde(default)]
    pub not_options: Vec<OneChoice>,
    /// How many options must be chosen at least, or the number's minimum.
    #[serde(default)]
    pub min: Option<i64>,
    /// How many options may be chosen at most, or the number's maximum.
    #[serde(default)]
    pub max: Option<i64>,
}

/// A zone's expected contents.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ZoneExpect {
    /// How many cards.
    Count(u64),
    /// Exactly these ids (`ID` or `ID xN`), in any order.
    Ids(Vec<String>),
    /// Details.
    Detail(ZoneDetail),
}

/// `{count, contains, excludes, top, bottom, order}`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneDetail {
    /// How many cards.
    #[serde(default)]
    pub count: Option<u64>,
    /// Ids it holds (at least).
    #[serde(default)]
    pub contains: Vec<String>,
    /// Ids it does not hold.
    #[serde(default)]
    pub excludes: Vec<String>,
    /// The id on top.
    #[serde(default)]
    pub top: Option<String>,
    /// The id at the bottom.
    #[serde(default)]
    pub bottom: Option<String>,
    /// Exactly these ids, bottom to top.
    #[serde(default)]
    pub order: Option<Vec<String>>,
}

/// One card's expected state. Any other key is a characteristic or counter of the card
/// (`power: 6000`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct CardExpect {
    /// Whose zone (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub player: Option<u64>,
    /// The zone.
    pub zone: String,
    /// The card id.
    pub card: String,
    /// The N-th card with that id in the zone (from 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub nth: Option<u64>,
    /// Its orientation.
    #[serde(default)]
    pub orientation: Option<String>,
    /// Whether it is face up.
    #[serde(default)]
    pub face_up: Option<bool>,
    /// How many cards are attached to it.
    #[serde(default)]
    pub attachments: Option<u64>,
    /// Names it has (in any of its sets: types, granted keywords...).
    #[serde(default)]
    pub has: Vec<String>,
    /// Names it lacks.
    #[serde(default)]
    pub lacks: Vec<String>,
    /// Characteristics and counters by name.
    #[serde(flatten)]
    pub values: BTreeMap<String, i64>,
}

/// An event pattern: every given field must match. Any other key is a data field of the
/// ruleset's event.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct EventPattern {
    /// The event's name.
    #[serde(default)]
    pub name: Option<String>,
    /// The card it names (`?`: a card hidden from the seat whose log this is).
    #[serde(default)]
    pub card: Option<String>,
    /// The card's previous identity.
    #[serde(default)]
    pub old: Option<String>,
    /// Why it happened (`draw`, `battle`...).
    #[serde(default)]
    pub reason: Option<String>,
    /// The event's key.
    #[serde(default)]
    pub key: Option<String>,
    /// Who caused it.
    #[serde(default)]
    pub player: Option<u64>,
    /// Its amount.
    #[serde(default)]
    pub amount: Option<i64>,
    /// The zone a card left.
    #[serde(default)]
    pub from: Option<String>,
    /// The zone a card entered.
    #[serde(default)]
    pub to: Option<String>,
    /// Who owns the zone it left.
    #[serde(default)]
    pub from_player: Option<u64>,
    /// Who owns the zone it entered.
    #[serde(default)]
    pub to_player: Option<u64>,
    /// Data fields of the event.
    #[serde(flatten)]
    pub data: BTreeMap<String, Value>,
}

/// An event pattern with `count: n`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct EventCount {
    /// Exactly this many events match.
    pub count: u64,
    /// The pattern.
    #[serde(flatten)]
    pub pattern: EventPattern,
}

/// `view:`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewExpect {
    /// The seat looking.
    #[schemars(range(min = 1))]
    pub player: u64,
    /// Whose zone (default: their own).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub of: Option<u64>,
    /// The zone.
    pub zone: String,
    /// How many cards.
    #[serde(default)]
    pub count: Option<u64>,
    /// `true`: every card hidden from them; `false`: none.
    #[serde(default)]
    pub hidden: Option<bool>,
    /// Exactly these (`?` for a hidden card, `"? x3"`), in any order.
    #[serde(default)]
    pub cards: Option<Vec<String>>,
    /// Ids they see (at least).
    #[serde(default)]
    pub contains: Vec<String>,
    /// Ids they do not see.
    #[serde(default)]
    pub excludes: Vec<String>,
    /// Exactly these, bottom to top.
    #[serde(default)]
    pub order: Option<Vec<String>>,
}

/// `events_for:`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventsForExpect {
    /// The seat whose log it is.
    #[schemars(range(min = 1))]
    pub player: u64,
    /// Card ids some event names.
    #[serde(default)]
    pub shows: Vec<String>,
    /// Card ids no event names.
    #[serde(default)]
    pub hides: Vec<String>,
    /// These events, in this order.
    #[serde(default)]
    pub events: Vec<EventPattern>,
    /// These did not happen.
    #[serde(default)]
    pub no_events: Vec<EventPattern>,
    /// Exactly `count` events match each pattern.
    #[serde(default)]
    pub event_counts: Vec<EventCount>,
}
