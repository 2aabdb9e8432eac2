//! What the kernel is given: a ruleset manifest, the ruleset's Lua sources and card
//! definitions. These are plain data, already read and validated by the content pipeline
//! (`tools/`); the kernel never touches the file system.
//!
//! The manifest types double as the source of `schema/ruleset.schema.json` (schemars), so
//! every field carries a doc comment: it becomes the schema's description.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A text in several languages, keyed by language tag (`en`, `ja`, `th`, `zh-Hant`, ...).
pub type Localized = crate::sorted_map::SortedMap<String>;

/// A card's game-specific printed fields (`cost`, `power`, `colors`...) by name.
pub type PrintedFields = crate::sorted_map::SortedMap<serde_json::Value>;

/// Language tags accepted as keys of localized texts and as `names.printed`: `en`, `ja`,
/// `th`, `zh-Hant`, `pt-BR`...
pub const LANGUAGE_TAG_PATTERN: &str = "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$";

/// Which of a card's localized names is its name for the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamePolicy {
    /// The language tag of the printed, rules-relevant name (`en`, `th`, `ja`...): the
    /// language the game's cards are printed in, and matched in. "Same name" and
    /// `card:has("names", n)` (a characteristic with `field: name`), `card.name` in scripts
    /// and `card_info(id).name` read the card's name in this language, and every card must
    /// have one (a card without it is a content error). Names in other languages are for
    /// display only. Default: `en`.
    #[serde(default = "default_printed_language")]
    #[schemars(pattern(LANGUAGE_TAG_PATTERN))]
    pub printed: String,
}

impl Default for NamePolicy {
    fn default() -> Self {
        NamePolicy {
            printed: default_printed_language(),
        }
    }
}

fn default_printed_language() -> String {
    "en".into()
}

/// One Lua source file: its text and the name errors should cite (a path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The path shown in errors and tracebacks, e.g. `cardsets/<game>/<set>/<card>.lua`.
    pub name: String,
    /// The Lua (Luau) text.
    pub text: String,
}

/// A game's rules: the manifest (`game.yaml`) plus the Lua files it names.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The parsed `game.yaml`.
    pub manifest: RulesetManifest,
    /// Shared helpers (`scripts/lib/*.lua`) followed by the ruleset's own files, in load order.
    pub scripts: Vec<Source>,
}

/// Everything a game is made of: one ruleset and the card database.
#[derive(Clone, Debug)]
pub struct Content {
    /// The rules.
    pub ruleset: Ruleset,
    /// Every card the game may use, ids unique.
    pub cards: Vec<CardDef>,
    /// Lua that groups of cards share (a set's `scripts:`), loaded after the ruleset.
    pub libraries: Vec<Library>,
}

/// Lua shared by some cards only (a set's helpers): it runs after the ruleset's files in an
/// environment of its own, reads the ruleset's globals, and what it defines is seen by its
/// cards alone. It cannot change the ruleset's names, nor a card outside it.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// Who owns it, for errors (a set's id).
    pub name: String,
    /// Its files, in load order.
    pub scripts: Vec<Source>,
    /// The ids of the cards that see it.
    pub cards: Vec<String>,
}

/// A card as the kernel sees it: identity, printed fields and the script.
#[derive(Clone, Debug)]
pub struct CardDef {
    /// The card number, unique per game (`SET-001`).
    pub id: String,
    /// One of the ruleset's `categories`.
    pub category: String,
    /// Printed name, localized: at least the ruleset's printed language (`names.printed`),
    /// which is the card's name for the rules; other languages are for display.
    pub name: Localized,
    /// Printed text, localized (for people; the script is what runs).
    pub text: Localized,
    /// Game-specific printed fields (`cost`, `power`, `colors`...), as validated by the game's
    /// card schema. Integers, strings and lists of strings are what characteristics read.
    pub fields: PrintedFields,
    /// Plain keywords, e.g. `blocker` or `repair` with a value.
    pub keywords: Vec<KeywordUse>,
    /// The card's Lua script, if it has abilities beyond plain keywords.
    pub script: Option<Source>,
}

/// A plain keyword on a card: `blocker`, or `{repair: 2}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum KeywordUse {
    /// A keyword without a value.
    Plain(String),
    /// A keyword with a numeric value: a one-entry map.
    Valued(BTreeMap<String, i64>),
}

impl KeywordUse {
    /// The keyword's name and value (0 when it has none).
    pub fn parts(&self) -> (&str, i64) {
        match self {
            KeywordUse::Plain(n) => (n, 0),
            KeywordUse::Valued(m) => m
                .iter()
                .next()
                .map(|(k, v)| (k.as_str(), *v))
                .unwrap_or(("", 0)),
        }
    }
}

/// `game.yaml`: a game's rules as data. Lua supplies only the procedures it names.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetManifest {
    /// The game's id, used in folder names and deck lists (`sprint` in the kernel's tests).
    pub game: String,
    /// The game's display name.
    pub name: Localized,
    /// The ruleset's version; part of the content hash.
    pub version: String,
    /// How many seats the game supports.
    pub players: PlayerCount,
    /// Every zone of the game.
    pub zones: Vec<ZoneDecl>,
    /// Card categories (card types) a card may declare.
    pub categories: Vec<String>,
    /// Card names: which language's name the rules read (`{printed: th}`); default `en`.
    #[serde(default)]
    pub names: NamePolicy,
    /// Values computed per card from printed fields and continuous effects.
    pub characteristics: Vec<CharacteristicDecl>,
    /// Plain keywords cards may list as data.
    #[serde(default)]
    pub keywords: Vec<KeywordDecl>,
    /// Orientation states of a card; the first is the state a card enters with.
    pub orientations: Vec<String>,
    /// Named counters a card may carry (damage, charge...).
    #[serde(default)]
    pub counters: Vec<String>,
    /// Named per-card flags (played this turn...).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Named per-player integer values.
    #[serde(default)]
    pub player_values: Vec<String>,
    /// Per-player integers computed like card characteristics: a start (a player value or
    /// a constant), then continuous effects on the player and static abilities that affect
    /// players, within declared bounds (Mp max, hand size...).
    #[serde(default)]
    pub player_characteristics: Vec<PlayerCharacteristicDecl>,
    /// The order in which continuous effects apply to a characteristic: layers, each
    /// holding some operations, applied first to last (within a layer, by timestamp). Every
    /// characteristic without its own `layers` uses these. None declared: `base`
    /// (set_base), `add` (add), `set` (set, grant, revoke).
    #[serde(default)]
    pub layers: Vec<LayerDecl>,
    /// Named game-wide integer values.
    #[serde(default)]
    pub game_values: Vec<String>,
    /// Events the ruleset emits itself, besides the kernel's own (`moved`, `turned`...): a
    /// name, or `{name, doc, fields}` (the fields are then the only ones `ctx:emit` may pass).
    #[serde(default)]
    pub events: Vec<EventDecl>,
    /// Timings at which activated abilities may be used (`main`, `counter`...): a name, or
    /// `{name, doc}`.
    #[serde(default)]
    pub timings: Vec<NameDecl>,
    /// Named expiry points of durations (`end_of_battle`, `end_of_turn`...): a name, or
    /// `{name, doc}`.
    #[serde(default)]
    pub durations: Vec<NameDecl>,
    /// The prompts the ruleset's own Lua and declared windows and open phases ask with, each
    /// with a line saying what is asked and how to answer it, and the options its Lua builds
    /// for it. Declared (non-empty), every window's prompt and every open phase's name must
    /// be among them. Card scripts may ask with prompts of their own.
    #[serde(default)]
    pub prompts: Vec<PromptDecl>,
    /// How a game reads to people (`riffle play`'s log and a human player's screen): which
    /// zone counts and card values are shown. The kernel only checks the names; clients
    /// read it.
    #[serde(default)]
    pub log: LogDecl,
    /// What a position is worth to a player, for agents that search (`riffle play --agents
    /// greedy,mcts`; docs/agents.md): weights on what the player sees. The kernel only
    /// checks the names; without it agents go by who has won and by cards in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluation: Option<EvaluationDecl>,
    /// Tags continuous effects may carry (`curse`, `control`...), so scripts can find them
    /// (`ctx:effects{tag = ...}`) and end them (`ctx:end_effect`).
    #[serde(default)]
    pub effect_tags: Vec<String>,
    /// What happens to attached cards when their host leaves, per attached card's category.
    #[serde(default)]
    pub attachments: Vec<AttachmentRule>,
    /// Groups of zones between which a move keeps the object (see `IdentityGroup`).
    #[serde(default)]
    pub identity: Vec<IdentityGroup>,
    /// Zones whose cards stand in for their owner's cards of the same printed name: in
    /// every other zone those take the stand-in's printed data, abilities and name (a
    /// definition redirect that lasts while the stand-in is there: an errata or Reflection
    /// card kept beside the deck). A redirect an effect makes comes first.
    #[serde(default)]
    pub stand_ins: Vec<String>,
    /// The name of the Lua procedure that sets the game up (shuffle, draw, mulligan...).
    pub setup: String,
    /// The turn: its phases in order.
    pub turn: TurnDecl,
    /// How simultaneous triggered abilities are ordered.
    pub triggers: TriggerPolicy,
    /// Rule processing: checks the kernel runs by itself.
    #[serde(default)]
    pub checks: Vec<CheckDecl>,
    /// Lua procedures the kernel calls at fixed points.
    pub hooks: Hooks,
    /// Deck lists: their sections and where each starts.
    pub deck: DeckDecl,
    /// The ruleset's Lua files, relative to its folder, in load order.
    pub scripts: Vec<String>,
    /// Protection against endless games and loops.
    #[serde(default)]
    pub limits: Limits,
    /// Loops that players can stop: declared iteration counts (off unless asked).
    #[serde(default)]
    pub loops: LoopPolicy,
    /// When cards' abilities stop working ("its effects are negated").
    #[serde(default)]
    pub abilities: AbilityPolicy,
    /// Action kinds the kernel lists itself in the open phases that name them.
    #[serde(default)]
    pub actions: Vec<ActionDecl>,
    /// How replacement effects are ordered (default: the affected card's own first).
    #[serde(default)]
    pub replacements: ReplacementPolicy,
    /// Procedures the kernel runs step by step (a battle, a command): between steps the
    /// procedure's data is the kernel's, so a decision at a step boundary, in a declared
    /// window or while triggers are ordered is quiescent (a fork is a plain copy).
    #[serde(default)]
    pub procedures: Vec<ProcedureDecl>,
    /// Game options chosen before a game starts (a format, a level, a victory rule): scripts
    /// read them with `ctx:option(name)`, `hooks.teams` and `hooks.validate_deck` get them.
    #[serde(default)]
    pub options: Vec<OptionDecl>,
    /// What happens when a player leaves the game (op `eliminate`, a concession) while
    /// others play on.
    #[serde(default)]
    pub elimination: EliminationDecl,
}

/// A game option: its name, the values it allows, its default.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionDecl {
    /// Its name, as `ctx:option(name)`, `--option name=value` and scenario `options:` give it.
    pub name: String,
    /// The names it may take (`[free_for_all, teams]`). Give either `values` or
    /// `min` and `max`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// For an integer option: its least value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// For an integer option: its greatest value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// The value a game gets when nobody chooses one.
    pub default: OptionValue,
    /// One line for players: what it changes.
    #[serde(default)]
    pub doc: String,
}

/// The value of a game option: a name or an integer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OptionValue {
    /// An integer (for an option with `min` and `max`).
    Int(i64),
    /// A name (for an option with `values`).
    Name(String),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Name(n) => f.write_str(n),
        }
    }
}

/// Options chosen for one game, by name; an option not given takes its declared default.
pub type Options = BTreeMap<String, OptionValue>;

/// What happens to a player who leaves the game while the others play on.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EliminationDecl {
    /// Where the cards the player owns go, wherever they are.
    #[serde(default)]
    pub cards: EliminatedCards,
}

/// Where an eliminated player's cards go.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EliminatedCards {
    /// They stay where they are (their abilities no longer trigger for anyone).
    #[default]
    Stay,
    /// They leave the game: out of every zone (each emits `ceased`).
    Remove,
    /// They move to this zone (the owner's copy of it), one by one, as a move with the
    /// elimination's reason; replacement effects do not apply.
    Zone(String),
}

/// When a card's own abilities are suppressed, and what counts as an ability.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AbilityPolicy {
    /// While a card's set characteristic `char` contains `name` (granted by an effect or a
    /// static ability), its printed abilities and the abilities it gained before that moment
    /// do nothing: no triggers, statics, replacements or activated abilities. Abilities it
    /// gains later keep working.
    #[serde(default)]
    pub suppressed_by: Option<Suppression>,
    /// Keywords that are abilities: a suppressed card loses them from its `keywords`
    /// characteristic when printed or gained before the suppression (other keywords, such
    /// as prohibitions put on the card by effects, stay). Printed keywords are card text and
    /// are always lost.
    #[serde(default)]
    pub keywords: Vec<String>,
}

/// A name in a set characteristic of a card (`{char: keywords, name: hyper_drive}`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CharEntry {
    /// A set characteristic.
    pub char: String,
    /// The name in it.
    pub name: String,
}

/// The name whose presence suppresses a card's abilities.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Suppression {
    /// A set characteristic.
    pub char: String,
    /// The name in it.
    pub name: String,
    /// A second name in the same characteristic that suppresses also the abilities and
    /// keywords the card gains after it began ("unless specified", e.g. OP 8-2-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub including_later: Option<String>,
}

/// Seat count bounds.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerCount {
    /// Fewest seats.
    pub min: u8,
    /// Most seats.
    pub max: u8,
}

/// Who may see the cards of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Everyone sees every card (face-down cards excepted).
    Public,
    /// Only the zone's owner sees its cards (a hand).
    Owner,
    /// Nobody sees the cards unless they are face up or revealed (a deck).
    Hidden,
}

/// Whether a zone exists once per player or once for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ZoneScope {
    /// One copy per player.
    Player,
    /// One copy for the whole game.
    Shared,
    /// One copy per team (`hooks.teams`), shared by its members; one per player when the
    /// game has no teams.
    Team,
}

/// A zone of the game.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneDecl {
    /// The zone's name, used by scripts (`hand`, `deck`...).
    pub name: String,
    /// One per player, or one shared.
    pub scope: ZoneScope,
    /// Who sees its cards.
    pub visibility: Visibility,
    /// Whether the order of its cards matters (and is kept).
    #[serde(default)]
    pub ordered: bool,
    /// Most cards it may hold (attached cards not counted); none means unbounded.
    #[serde(default)]
    pub capacity: Option<u32>,
    /// Whether cards enter it face down (they enter face up otherwise).
    #[serde(default)]
    pub face_down: bool,
    /// Whether a card entering this zone from anywhere keeps its object identity (false: a
    /// new object, unless the move is within one of the manifest's `identity` groups). A
    /// move into such a zone from another zone counts as entering it: the object gets a new
    /// timestamp and entry turn; a move within an `identity` group keeps both. Attaching and
    /// detaching follow the attachment rule's `keep_identity`.
    #[serde(default)]
    pub keeps_identity: bool,
    /// Whether this zone is "in play" (a card's abilities work here by default).
    #[serde(default)]
    pub in_play: bool,
    /// Whether a token leaving play to this zone stops existing.
    #[serde(default)]
    pub removes_tokens: bool,
    /// Whether a card in this zone stays there: no operation moves it out (a `move` of it
    /// does nothing and gives nil). Cards attached to it still come and go.
    #[serde(default)]
    pub keeps_cards: bool,
    /// One line for people: what the zone is, with its rule (the reference and the card
    /// database export show it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
}

/// The kind of a characteristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CharKind {
    /// An integer (power, cost).
    Int,
    /// A set of names (colors, types, keywords).
    Set,
}

/// How several "set the base value" effects combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BaseCombine {
    /// The highest base wins.
    Max,
    /// The newest effect wins.
    #[default]
    Latest,
}

/// A characteristic: computed from a printed field plus continuous effects.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CharacteristicDecl {
    /// Its name, as scripts read it (`card.power`).
    pub name: String,
    /// Integer or set.
    pub kind: CharKind,
    /// The printed field it starts from; defaults to the characteristic's own name. The
    /// special fields `name` (the card's name in the printed language, `names.printed`) and
    /// `keywords` are always available. A dotted path reads inside a field (`rider.power`,
    /// `rider_name.en`), and `keywords.<k>` the value of valued keyword `k` (`{repair: 2}`).
    #[serde(default)]
    pub field: Option<String>,
    /// A lower bound applied when the value is read (the raw value is kept for arithmetic).
    #[serde(default)]
    pub min: Option<i64>,
    /// An upper bound applied when the value is read. Without bounds, values saturate at
    /// ±(2^53 − 1), the integers scripts read exactly.
    #[serde(default)]
    pub max: Option<i64>,
    /// How several base-setting effects combine.
    #[serde(default)]
    pub base: BaseCombine,
    /// This characteristic's own layers, instead of the game's `layers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerDecl>,
    /// What the static abilities that change it read (their conditions, `affects` and
    /// values, and the characteristics those read), besides the card's printed data and the
    /// effects on it. Declared, a value read is kept per card until an operation changes one
    /// of these (or makes, ends or expires an effect, or gives an ability); without it the
    /// value is worked out at every read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<CheckReads>,
    /// With `reads`: what a change of the effects on a card, or of a flag or counter it
    /// declares reading, makes stale. `characteristic` (the default): every card's value.
    /// `per_card`: only the values whose working-out read that card's effects, counters or
    /// flags (the kernel records them as it works a value out).
    #[serde(default)]
    pub stale: Stale,
    /// The ruleset's own bookkeeping (a value its checks and listings read, such as a kept
    /// test result), not a property of the card a player looks at: left out of card views
    /// (what clients and the table show) and of the agents' encodings. Scripts and data
    /// tests read it as any other characteristic.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub internal: bool,
}

/// What a change of one card's effects, counters or flags makes stale of a kept
/// characteristic (`stale`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stale {
    /// Every card's value of the characteristic.
    #[default]
    Characteristic,
    /// The values whose working-out read that card's effects, counters or flags.
    PerCard,
}

/// An operation of a continuous effect or a static ability's modification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModOp {
    /// Integers: set the base value (several combine by the characteristic's `base` rule).
    SetBase,
    /// Integers: add (negative to subtract).
    Add,
    /// Integers: set the value. Sets of names: replace the whole set.
    Set,
    /// Sets of names: add a name.
    Grant,
    /// Sets of names: remove a name.
    Revoke,
}

impl ModOp {
    /// Its name, as scripts and game.yaml write it.
    pub fn name(self) -> &'static str {
        match self {
            ModOp::SetBase => "set_base",
            ModOp::Add => "add",
            ModOp::Set => "set",
            ModOp::Grant => "grant",
            ModOp::Revoke => "revoke",
        }
    }
}

/// A layer of value computation: the operations it holds, applied together in timestamp
/// order after the layers before it (`{name: printed_override, ops: [set]}`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayerDecl {
    /// Its name, as `ctx:modify{layer = ...}` and a static's modification name it.
    pub name: String,
    /// The operations it holds. An effect that names no layer goes to the last layer that
    /// holds its operation (so earlier layers with the same operation take only the effects
    /// that name them).
    pub ops: Vec<ModOp>,
    /// A lower bound applied right after this layer (no memory: later layers start from
    /// the bounded value). The characteristic's own `min` is the bound with memory.
    #[serde(default)]
    pub min: Option<i64>,
    /// An upper bound applied right after this layer, as `min`.
    #[serde(default)]
    pub max: Option<i64>,
}

/// A player characteristic: an integer per player, computed from a start value and the
/// continuous effects and static abilities on players.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerCharacteristicDecl {
    /// Its name, as `ctx:value(player, name)` reads it (it may not be a player value's).
    pub name: String,
    /// The player value it starts from (one of `player_values`).
    #[serde(default)]
    pub from: Option<String>,
    /// The constant it starts from, when it has no `from` (default 0).
    #[serde(default)]
    pub start: Option<i64>,
    /// A lower bound applied when the value is read (the raw value is kept).
    #[serde(default)]
    pub min: Option<i64>,
    /// An upper bound applied when the value is read.
    #[serde(default)]
    pub max: Option<i64>,
    /// Its own layers, instead of the game's `layers` (integer operations only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerDecl>,
    /// What the static abilities that change it read (their conditions, `affects` and
    /// values, and the characteristics those read), besides its start and the effects on
    /// the player: the shape of a card characteristic's `reads` (`{}`: nothing else).
    /// Declared, a value read is kept per player until an operation changes one of these
    /// (or makes, ends or expires an effect, or gives an ability); without it the value is
    /// worked out at every read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<CheckReads>,
}

/// A plain keyword.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeywordDecl {
    /// Its name as written in card YAML.
    pub name: String,
    /// Whether it carries a number (`repair: 2`).
    #[serde(default)]
    pub valued: bool,
    /// One line for designers.
    #[serde(default)]
    pub doc: String,
    /// How card text writes it, by language (`en: "[Blocker]"`, `th: "〈บล็อกเกอร์〉"`); `{n}`
    /// stands for a valued keyword's number (`"〈Repair {n}〉"`). Only tools read it (`riffle
    /// lint` finds a keyword a card's text gives and its `keywords` lack); declare a
    /// language's spelling only where card text cannot use it for anything else.
    #[serde(default, skip_serializing_if = "Localized::is_empty")]
    pub text: Localized,
}

/// A declared name: alone (`end_of_turn`), or with a line for designers.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum NameDecl {
    /// Just the name.
    Name(String),
    /// The name and what it means.
    Documented(DocumentedName),
}

/// A name with a line for designers.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentedName {
    /// The name.
    pub name: String,
    /// One line for designers.
    pub doc: String,
}

impl NameDecl {
    /// The name.
    pub fn name(&self) -> &str {
        match self {
            NameDecl::Name(n) => n,
            NameDecl::Documented(d) => &d.name,
        }
    }

    /// Its line for designers ("" when it has none).
    pub fn doc(&self) -> &str {
        match self {
            NameDecl::Name(_) => "",
            NameDecl::Documented(d) => &d.doc,
        }
    }
}

/// A ruleset event: its name alone (`attack_declared`), or with a line for designers and
/// the fields its `ctx:emit` passes.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum EventDecl {
    /// Just the name: any fields may be passed.
    Name(String),
    /// The name, what it means and its fields.
    Documented(DocumentedEvent),
}

/// A ruleset event with its documentation.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentedEvent {
    /// The event's name, as `ctx:emit(name, data)` and `on = name` give it.
    pub name: String,
    /// One line for designers: when it happens.
    pub doc: String,
    /// The data fields `ctx:emit` passes, each with what it holds (`card: the attacker`).
    /// Given, they are the only ones: an emit with any other field is a script error
    /// naming the script's file and line. A field may be left out (nil). Without it, any
    /// fields may be passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, String>>,
    /// Its line in the readable log, with `{field}` for the event's fields (`card`,
    /// `target`, `player`, `reason`, `key`, `amount` and its declared fields): `{card}
    /// attacks {target}`. Without it the log does not show the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
}

/// What the readable log and a person's screen show of a game besides its decisions and
/// events (`game.yaml` `log`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogDecl {
    /// Zones whose card count is reported whenever it changes (`life`: "P2 life 4 -> 3").
    #[serde(default)]
    pub counts: Vec<String>,
    /// Integer characteristics shown beside a card's name, each for cards in the zones
    /// listed (`power: [board]`, `cost: [hand]`); a change of one on a card
    /// that stays in such a zone is reported ("Nami power 5000 -> 7000"). A counter may be
    /// listed too (`damage: [battle_area]`): shown while the card has some.
    #[serde(default)]
    pub values: BTreeMap<String, Vec<String>>,
    /// Player values and player characteristics reported whenever they change (`mp`: "P1
    /// mp 8 -> 5").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// Events that say an ability is resolving (`resolving`: "Nami's [On Play]"): the
    /// readable log tells what happens next, up to the next decision or ability, on the
    /// event's line ("Nami's [On Play]: a hidden card x2: P1 deck -> P1 hand (draw)").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<String>,
    /// Events that say an ability finished resolving (`resolved`). A ruleset that declares
    /// them lets an ability's line go on after a question its ability asked ("Nami's [On
    /// Play], going on: ..."), up to this event; without them a question ends the line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ability_ends: Vec<String>,
    /// The log in other languages, by language code (`th`): a viewer reading one (`riffle
    /// play --lang th`) reads its words and event lines; what it leaves out stays as
    /// declared.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub languages: BTreeMap<String, LogLanguage>,
}

/// What a position is worth to a player (`game.yaml` `evaluation`), read by the agents
/// that search. Each weight counts a side's own minus the best opposing side's: a player's
/// worth is `Σ weight × amount` over what is theirs, as they see it (a hidden zone only by
/// its size).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluationDecl {
    /// Per card in the player's zone, by zone name (`life: 4`: each life card is worth 4).
    #[serde(default)]
    pub zones: BTreeMap<String, f64>,
    /// Per unit of a player value or characteristic (`mp: 0.5`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, f64>,
    /// Per unit of a card's integer characteristic or counter, summed over the player's
    /// face-up cards in the listed zones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<CardWorth>,
}

/// A card value's weight in the evaluation (`{value: power, zones: [character_area],
/// weight: 0.001}`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardWorth {
    /// An integer characteristic or a counter.
    pub value: String,
    /// The zones whose cards count.
    pub zones: Vec<String>,
    /// Per unit (negative: a counter that hurts, such as damage).
    pub weight: f64,
}

/// The readable log in one language (`game.yaml` `log.languages.<code>`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogLanguage {
    /// What people reading this language call the ruleset's names and texts: zones,
    /// prompts, move reasons, characteristics, counters, player values, and the text values
    /// its events carry for people (`discard_pile: กองทิ้ง`, `the attacker loses: ...`). A name or text not listed is shown as it is.
    #[serde(default)]
    pub words: BTreeMap<String, String>,
    /// Event log lines in this language, by event name: the `{field}`s of the event's own
    /// `log` line.
    #[serde(default)]
    pub events: BTreeMap<String, String>,
    /// Option labels in this language, by their form in the ruleset's labels with `{card}`
    /// and `{target}` for the names of the option's cards and `{n}` for each number, in order
    /// (`attack with {card} (Mp {n})`: `สั่ง {card} โจมตี (Mp {n})`). A label of another
    /// form keeps its words, its card names in this language.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

impl EventDecl {
    /// The event's name.
    pub fn name(&self) -> &str {
        match self {
            EventDecl::Name(n) => n,
            EventDecl::Documented(d) => &d.name,
        }
    }

    /// Its line for designers ("" when it has none).
    pub fn doc(&self) -> &str {
        match self {
            EventDecl::Name(_) => "",
            EventDecl::Documented(d) => &d.doc,
        }
    }

    /// Its declared fields, if they are declared (then they are the only ones allowed).
    pub fn fields(&self) -> Option<&BTreeMap<String, String>> {
        match self {
            EventDecl::Name(_) => None,
            EventDecl::Documented(d) => d.fields.as_ref(),
        }
    }

    /// Its line in the readable log, if it has one.
    pub fn log(&self) -> Option<&str> {
        match self {
            EventDecl::Name(_) => None,
            EventDecl::Documented(d) => d.log.as_deref(),
        }
    }
}

/// A prompt the ruleset asks with: a request's whole `prompt`, or what comes before its
/// first `": "` (the rest is text for people: `search: {Straw Hat Crew}` is prompt `search`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptDecl {
    /// The prompt's name.
    pub name: String,
    /// One line for designers: what the player is asked, and how a scenario answers it.
    pub doc: String,
    /// The options the ruleset's Lua builds for it (`ctx:choose`, a window's `actions`),
    /// besides the action kinds its window or phase lists and the kernel's own (`card`,
    /// `yes`, `no`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<ChoiceDecl>,
}

/// An option kind the ruleset's Lua builds, and its label.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChoiceDecl {
    /// The option's `kind`.
    pub kind: String,
    /// Its label; `{card}` (the card's name) and other `{...}` stand for any text.
    pub label: String,
    /// One line for designers, when the label does not say it all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
}

/// How attached cards of one category behave: where they go when their host leaves its
/// zone, whether attaching keeps the object, whether their effects and abilities work
/// while attached, and the zones into which they move along with their host.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachmentRule {
    /// The attached card's category this rule is for.
    pub category: String,
    /// The zone they go to when the host leaves (the owner's copy); none means they
    /// follow the host. Not used when the host keeps its object or moves into a `stay_in`
    /// zone: they stay attached then.
    #[serde(default)]
    pub to: Option<String>,
    /// The orientation they take there.
    #[serde(default)]
    pub orientation: Option<String>,
    /// Attaching a card of this category, detaching it and moving it to another host keep
    /// its object where a move between the two zones would keep it (an `identity` group, a
    /// `keeps_identity` destination) or when it stays in the same zone. Default: attaching
    /// and detaching make a new object.
    #[serde(default)]
    pub keep_identity: bool,
    /// The continuous effects on an attached card: `apply` (default) or `pause` (while it
    /// is attached they, and the abilities effects gave it, do not apply and their
    /// durations do not end them; they apply again once it is detached keeping its object).
    #[serde(default)]
    pub effects: AttachedEffects,
    /// The abilities of an attached card: `work` (default: in its host's zone, at any
    /// depth of attachment) or `suppressed` (none work while it is attached: no triggers,
    /// statics, replacements or activated abilities, printed or gained, nor those of the
    /// cards attached to it).
    #[serde(default)]
    pub abilities: AttachedAbilities,
    /// With `abilities: suppressed`: a card whose set characteristic holds this name keeps
    /// its abilities while attached ("a Hyper Drive card's abilities cannot be lost").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless: Option<CharEntry>,
    /// Zones into which a host takes its attachments along, still attached (a composite
    /// moves whole): they become new objects with it, or keep theirs when it keeps its. A
    /// host that keeps its object keeps its attachments wherever it goes.
    #[serde(default)]
    pub stay_in: Vec<String>,
}

// --- Identity and composite objects -------------------------------------------------------

/// Zones between which a move keeps the object: its id, the continuous effects on it, its
/// counters, flags, usage counts, entry turn and timestamp (the card stays where it
/// entered: a Line of a shared area, a sub-state of one place). A move between any two
/// zones of one group (in either direction, the same zone included, any player's copy)
/// keeps the object; a move anywhere else makes a new object, unless the destination is
/// `keeps_identity`. A zone belongs to at most one group.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdentityGroup {
    /// The zones of the group.
    pub zones: Vec<String>,
}

/// What happens to the continuous effects on an attached card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttachedEffects {
    /// They keep applying.
    #[default]
    Apply,
    /// They are paused while it is attached: no effect, no expiry.
    Pause,
}

/// Whether an attached card's abilities work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttachedAbilities {
    /// They work in the host's zone.
    #[default]
    Work,
    /// They do not work while it is attached.
    Suppressed,
}

// --- end of identity and composite objects ------------------------------------------------

/// The turn.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnDecl {
    /// Phases in order.
    pub phases: Vec<PhaseDecl>,
    /// Which way play goes around the table: the next turn, and "in turn order" everywhere
    /// (triggers, replacements, `ctx:turn_order`). Seats are numbered clockwise.
    #[serde(default)]
    pub direction: Direction,
    /// An option (declared under `options`, with the values `clockwise` and
    /// `counterclockwise`) whose value is the direction instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction_option: Option<String>,
}

/// Which way play goes around the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Seat 1, 2, 3...
    #[default]
    Clockwise,
    /// Seat 1, then the last seat, and down.
    Counterclockwise,
}

/// One phase of the turn.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseDecl {
    /// The phase's name.
    pub name: String,
    /// The procedure run when the phase begins.
    #[serde(default)]
    pub run: Option<String>,
    /// Instead of `run`: a procedure of `procedures`, run by the kernel step by step when
    /// the phase begins (record: empty; `ctx.player` the turn player). Its windows and the
    /// decisions at its step boundaries need no suspended script: a phase whose players
    /// answer in a window (an end-of-turn action step) can be forked there as cheaply as
    /// anywhere.
    #[serde(default)]
    pub procedure: Option<String>,
    /// For an open phase: a function `(ctx)` listing the actions of the player asked
    /// (`ctx.player`). With one player asked, the phase loops until an action marked
    /// `ends_phase` is chosen; with several (`players`), see there.
    #[serde(default)]
    pub actions: Option<String>,
    /// Who is asked for actions in an open phase: the turn player (default), every member
    /// of the turn side, or every player. With several, the kernel asks them in turn order
    /// from the turn player, one action each in turn; an `ends_phase` answer (or no action
    /// to offer) is a pass, and the phase ends when all have passed in a row.
    #[serde(default)]
    pub players: PhasePlayers,
    /// The procedure run when the phase ends (after its actions).
    #[serde(default)]
    pub finish: Option<String>,
    /// Action kinds (`actions` of the manifest) the kernel lists itself in this open
    /// phase, in this order, before the options the `actions` function lists.
    #[serde(default)]
    pub kinds: Vec<String>,
}

/// An action kind the kernel lists in Rust at every decision of the open phases that name
/// it: one option per card the acting player may use (times each target, when it has
/// targets), with Lua only for the exceptions (`allowed`, `condition`). The option's
/// `kind` is the action's name; its `card` and `target` are the cards.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionDecl {
    /// The action's name: what a phase's `kinds` lists, and the `kind` of its options unless
    /// `kind` says otherwise.
    pub name: String,
    /// The options' `kind`, when several actions share one (default: the name).
    #[serde(default)]
    pub kind: Option<String>,
    /// Activated abilities with this timing that the acting player controls: one option
    /// per ability (its card is the ability's source, its `ability` the ability's handle,
    /// as `ctx:abilities` gives it); `condition` gets `(ctx, ability)`.
    #[serde(default)]
    pub abilities: Option<String>,
    /// With `abilities`: only abilities of cards in these zones (and abilities effects
    /// gave them), so the others are not even offered to `condition`.
    #[serde(default)]
    pub abilities_in: Vec<String>,
    /// The option ends the phase (no `run`); in a window, it passes.
    #[serde(default)]
    pub ends_phase: bool,
    /// Only cards whose integer characteristics are at least these (`{counter: 1}`).
    #[serde(default)]
    pub at_least: BTreeMap<String, i64>,
    /// The cards of the acting player it uses (one option each). Without it, the action has
    /// one option per target, or one option.
    #[serde(default)]
    pub cards: Option<Selector>,
    /// Targets: one option per card and target (the union of the selectors, in order).
    #[serde(default)]
    pub targets: Vec<Selector>,
    /// At least one card must match, or the action is not offered (a resource to spend).
    #[serde(default)]
    pub needs: Option<Selector>,
    /// A cost the card's value must not exceed.
    #[serde(default)]
    pub cost: Option<CostDecl>,
    /// A requirement the card's value must not exceed, paying nothing: the number of cards
    /// matching `count` (a level met by the cards a player has, active or not). Tested in
    /// Rust after `cost`, before `condition`.
    #[serde(default)]
    pub requires: Option<RequiresDecl>,
    /// Only cards that have an ability with this timing, their own or one an effect gave
    /// them (tested in Rust before `condition`, which still says whether it may be used
    /// now: its zones, its suppression, its costs; it gets, after the card, the first
    /// ability `ctx:abilities{card, timing}` lists, or nil).
    #[serde(default)]
    pub with_ability: Option<String>,
    /// Player grants (`ctx:grant_player`) that bar it: a player who has any of them is not
    /// offered it ("cannot use cards"). Tested in Rust, before `allowed`.
    #[serde(default)]
    pub unless_player_has: Vec<String>,
    /// Offered from the acting player's Nth turn on (`2`: not in their first turn), counting
    /// the turns they have begun as the turn player. Tested in Rust, before `allowed`.
    #[serde(default)]
    pub from_own_turn: Option<u32>,
    /// `(ctx, player) -> bool`, asked once per listing: may the player take it at all?
    #[serde(default)]
    pub allowed: Option<String>,
    /// `(ctx, card) -> bool`, asked per card: the exceptions data cannot say.
    #[serde(default)]
    pub condition: Option<String>,
    /// `(ctx, card, target) -> bool`, asked per card and target (after `targets` listed
    /// them; a player target is its seat, from 1): a pair it says false of is not offered (a prohibition read when options are
    /// listed: "this card cannot be attacked", "may attack only this card").
    #[serde(default)]
    pub target_condition: Option<String>,
    /// A timing: `target_condition` is asked only while some static ability with it is
    /// about (what `ctx:abilities{kind = "static", timing = ..., delayed = true}` lists,
    /// looked up once per listing); with none, every pair passes. For a condition that is a
    /// prohibition check (prohibitions tagged with that timing): none about, none to ask.
    #[serde(default)]
    pub target_condition_while: Option<String>,
    /// The option's label: `{card}` and `{target}` (their names; a player target's name),
    /// `{target_controller}` (the target card's controller, `P<n>`), `{value}` (the cost
    /// value) and `{<characteristic>}` (the card's value of an integer characteristic, e.g.
    /// `{counter}`) are filled in.
    pub label: String,
    /// `(ctx, option)`: what the action does.
    #[serde(default)]
    pub run: Option<String>,
    /// Or a procedure to start, with a record made of the option's cards.
    #[serde(default)]
    pub procedure: Option<String>,
    /// The procedure's record: each name to `card`, `target` or `target_player`.
    #[serde(default)]
    pub data: BTreeMap<String, OptionField>,
}

/// A field of an action option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OptionField {
    /// The card it uses.
    Card,
    /// Its target (a card; absent when a player is targeted).
    Target,
    /// The player targeted (a seat, from 1), or the targeted card's controller.
    TargetPlayer,
}

/// Cards an action may use or target; or, as a target, players (`players`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Selector {
    /// Zones, in the order their cards are listed (each from bottom to top).
    #[serde(default)]
    pub zones: Vec<String>,
    /// Whose zones: the acting player's (`self`, default), the acting player's side
    /// (`allies`: them and their teammates), the other sides' players still in the game
    /// (`opponents`), or everyone's.
    #[serde(default)]
    pub of: Whose,
    /// Targets only, instead of `zones`: players as targets. `self`, `allies`, `opponents` or
    /// `any` (in turn order from the acting player, players still in the game), or a Lua
    /// function `(ctx, player) -> list` asked once per listing, each entry a seat or `{seat =
    /// n, label = "..."}` (the name `{target}` shows; default `P<n>`), or `opposing_teams`:
    /// one per opposing team, its first player in turn order from the acting player, named
    /// `team P2+P4` when the team has several seats.
    #[serde(default)]
    pub players: Option<String>,
    /// Targets only, with `players` a Lua function: in a game without teams (every team one
    /// player), these players instead (`self`, `allies`, `opponents` or `any`), with no Lua
    /// call; the function is asked only when some team has several players.
    #[serde(default)]
    pub players_without_teams: Option<String>,
    /// Only cards with no card attached to them.
    #[serde(default)]
    pub without_attachments: bool,
    /// Targets only: with `orientation`, an acting card holding one of these names (set
    /// characteristics) may target this selector's cards in any orientation, listed in
    /// place ("can also attack active Units").
    #[serde(default)]
    pub any_orientation_if_card_has: BTreeMap<String, Vec<String>>,
    /// Targets only: the label template of this selector's options (default: the action's).
    #[serde(default)]
    pub label: Option<String>,
    /// Targets only: the label template when the acting player has more than one opponent
    /// (to say whose card it is: `{target_controller}`).
    #[serde(default)]
    pub label_if_several_opponents: Option<String>,
    /// Only cards of these categories (empty: any).
    #[serde(default)]
    pub categories: Vec<String>,
    /// Only cards in this orientation.
    #[serde(default)]
    pub orientation: Option<String>,
    /// Only cards whose set characteristics hold none of these names (`{keywords:
    /// [cannot_attack]}`).
    #[serde(default)]
    pub without: BTreeMap<String, Vec<String>>,
    /// Only cards that entered their zone before this turn...
    #[serde(default)]
    pub entered_before_this_turn: bool,
    /// ...unless their set characteristics hold one of these names (`{keywords: [rush]}`).
    #[serde(default)]
    pub unless_it_has: BTreeMap<String, Vec<String>>,
    /// Targets only: this selector's cards are targets only for an acting card whose set
    /// characteristics hold one of these names (`{keywords: [can_attack_active]}`): a
    /// permission that card text gives ("can also attack active Characters").
    #[serde(default)]
    pub if_card_has: BTreeMap<String, Vec<String>>,
}

/// Whose cards a selector takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Whose {
    /// The acting player's.
    #[default]
    #[serde(rename = "self")]
    Own,
    /// The other sides' players still in the game, in turn order from the acting player.
    Opponents,
    /// The acting player's side (them and their teammates), in turn order from them.
    Allies,
    /// Everyone's, in turn order from the acting player.
    Any,
}

/// A cost an action checks before offering a card: the card's value of a characteristic
/// must not exceed the number of cards matching `payable`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CostDecl {
    /// The integer characteristic that is the cost.
    pub value: String,
    /// What pays it: one card each.
    pub payable: Selector,
}

/// A requirement an action checks before offering a card: the card's value of a
/// characteristic must not exceed the number of cards matching `count` (nothing is paid).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequiresDecl {
    /// The integer characteristic that is required (a level).
    pub value: String,
    /// What meets it: one card each.
    pub count: Selector,
}

/// A procedure the kernel runs step by step. Start it from an action option
/// (`procedure = "name", data = {...}`) or from any script (`ctx:procedure(name, data)`).
/// Its data is a record (names to numbers, strings, booleans, cards, players and lists of
/// them) that every step may read and change; the kernel keeps it between steps.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProcedureDecl {
    /// The procedure's name.
    pub name: String,
    /// The steps, in order. After each step the pending triggered abilities resolve.
    pub steps: Vec<StepDecl>,
}

/// One step of a procedure: a Lua procedure (`run`) or a response window (`window`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepDecl {
    /// The step's name: a step's `run` may return it to go there next.
    pub name: String,
    /// `(ctx, data)`: runs as a procedure; may perform operations and ask questions. Returns
    /// nothing (go on), a step name (jump there) or `"stop"`.
    #[serde(default)]
    pub run: Option<String>,
    /// A response window the kernel runs; no script is suspended while it asks.
    #[serde(default)]
    pub window: Option<WindowDecl>,
    /// Runs even when an earlier step returned `"stop"` (the end of a battle that must come
    /// however the battle went).
    #[serde(default)]
    pub always: bool,
    /// Asked before the step: when it fails, the procedure stops here (only `always` steps
    /// run), as if the step before had returned `"stop"`. A function `(ctx, data) -> bool`, or
    /// `{alive: [fields]}`: the record's fields must name cards still alive (the same objects;
    /// tested in Rust).
    #[serde(default)]
    pub stop_unless: Option<StopUnless>,
}

/// A procedure step's `stop_unless`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StopUnless {
    /// `(ctx, data) -> bool`: the name of a function.
    Function(String),
    /// Tests the kernel makes on the record.
    Tests(StopTests),
}

/// The record tests of a `stop_unless` the kernel makes itself.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StopTests {
    /// Fields of the record that must name cards still alive (not moved to a new object).
    pub alive: Vec<String>,
}

/// A response window declared as a procedure step.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowDecl {
    /// Who may act, in order: a function `(ctx, data) -> {seats}`, `{controller_of:
    /// field}`, the controller of the record's card in that field (tested in Rust),
    /// `{turn_order: start, by_option: [...]}`, the players in turn order, or `{side_of:
    /// field}`, the side of the record's player.
    pub players: WindowPlayers,
    /// How turns go round.
    #[serde(default)]
    pub model: WindowModel,
    /// `(ctx, player, data) -> options`: what `player` may do now. Each option has a
    /// `label` and a `run(ctx, option, data)`, or `pass = true`. Listed once per decision,
    /// after the options of `kinds`.
    #[serde(default)]
    pub actions: Option<String>,
    /// Action kinds (the manifest's `actions`) the kernel lists itself for the player, first;
    /// their `run(ctx, option, data)` gets the procedure's record.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// The prompt of the window's requests.
    #[serde(default)]
    pub prompt: Option<String>,
    /// A player whose only options are passes passes without being asked (an action step
    /// where they have nothing to play). Default: they are asked.
    #[serde(default)]
    pub auto_pass: bool,
}

/// A declared window's `players`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum WindowPlayers {
    /// `(ctx, data) -> {seats}`: the name of a function.
    Function(String),
    /// Read from the record by the kernel.
    Record(RecordSeat),
    /// The players still in the game in turn order, from a start the game's options choose.
    TurnOrder(TurnOrderSeats),
    /// The side of a player the record names.
    Side(SideSeats),
}

/// A window's players in turn order (no Lua): `{turn_order: next}`, or with a start some
/// options choose, `{turn_order: next, by_option: [{option: mode, is: solo, turn_order:
/// turn_player}]}`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnOrderSeats {
    /// Who acts first when no `by_option` entry holds.
    pub turn_order: TurnOrderStart,
    /// Entries tried in order: the first whose option has the value `is` gives the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_option: Vec<StartByOption>,
}

/// A `by_option` entry of [`TurnOrderSeats`].
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartByOption {
    /// A game option's name (the manifest's `options`).
    pub option: String,
    /// One of its values.
    pub is: OptionValue,
    /// Who acts first while the option has that value.
    pub turn_order: TurnOrderStart,
}

/// Where a window's turn order starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrderStart {
    /// The turn player first.
    TurnPlayer,
    /// The player after the turn player first, the turn player last (when the turn player
    /// has left the game, the order starts with the next player already).
    Next,
}

/// A window's players: the side (the player and their teammates, in turn order from them)
/// of the player in a record field (a seat, or a player value); nobody when that player has
/// left the game.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSeats {
    /// The record field that holds the player (the player attacked: `defender`).
    pub side_of: String,
}

/// A window's player read from the procedure's record.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordSeat {
    /// The record field whose card's controller acts (the defending player of a battle:
    /// `target`).
    pub controller_of: String,
}

/// How players take turns in a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WindowModel {
    /// The first player acts until they pass.
    #[default]
    Single,
    /// Each player answers once, in order (a choice that is made once: a block).
    Once,
    /// Players take one action each in turn; the window closes when all pass in a row.
    Alternating,
}

/// Who acts in an open phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhasePlayers {
    /// The turn player alone.
    #[default]
    TurnPlayer,
    /// Every member of the side whose turn it is, still in the game.
    TurnSide,
    /// Every player still in the game.
    All,
}

/// Order of simultaneous triggered abilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriggerOrder {
    /// Batches first-in first-out: abilities that trigger while one resolves wait behind
    /// every ability that was already waiting.
    FifoBatches,
    /// Newest first: abilities that trigger while one resolves go before older ones.
    NewestFirst,
}

/// How pending triggered abilities are ordered.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggerPolicy {
    /// Between batches.
    pub order: TriggerOrder,
    /// Within a batch, players in turn order starting with the turn player; each player
    /// orders their own abilities when they have more than one (true), or they go in
    /// timestamp order (false).
    #[serde(default = "yes")]
    pub player_orders: bool,
    /// An ability triggers at most once per batch, however many of its events the batch
    /// holds (a rule some games have); it resolves with all of them in `args.events`.
    #[serde(default)]
    pub once_per_batch: bool,
    /// What makes one batch.
    #[serde(default)]
    pub batch: BatchPolicy,
    /// Priority classes, first resolves first: an ability's `priority` names one. Pending
    /// abilities of an earlier class resolve before any of a later class, whatever their
    /// batch; abilities without a priority come after every class. Empty: no classes.
    #[serde(default)]
    pub classes: Vec<String>,
}

/// What makes one trigger batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BatchPolicy {
    /// What one primitive operation caused (or one `ctx:together` group).
    #[default]
    PerOperation,
    /// What one resolution caused: a triggered ability, an action, a procedure step, a
    /// phase procedure (as if each were wrapped in `ctx:together`).
    PerResolution,
}

/// The order in which applicable replacement effects are offered for one operation.
/// Cards' replacement effects always come before the rules' own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReplacementOrder {
    /// The affected card's own replacement effects first; then each player's in turn order
    /// from the turn player, each choosing among their own.
    #[default]
    AffectedCardFirst,
    /// Each player's in turn order from the turn player, each choosing among their own.
    TurnOrder,
    /// The affected card's controller (the affected player, for an operation on a player)
    /// chooses among all that apply.
    AffectedControllerChooses,
}

/// How replacement effects are ordered.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementPolicy {
    /// Who chooses which applies first.
    #[serde(default)]
    pub order: ReplacementOrder,
}

fn yes() -> bool {
    true
}

/// When a check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckTime {
    /// After every primitive operation, even in the middle of an effect.
    AfterEachOperation,
    /// Only where a procedure calls `ctx:check()`.
    Checkpoint,
}

/// A rule-processing check.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckDecl {
    /// A name for logs.
    pub name: String,
    /// Is there anything to do? Runs often (after every operation for `at:
    /// after_each_operation`): a pure Lua function `(ctx) -> bool`, or a condition the
    /// kernel tests itself, with no call into Lua.
    pub when: CheckWhen,
    /// The Lua procedure that does it (may perform operations).
    pub run: String,
    /// When the check runs.
    pub at: CheckTime,
    /// What the test reads. Declared, the kernel tests the check again only once one of
    /// these changed since its test last found nothing to do; left out, it tests it every
    /// time. A static ability's condition or value reads too: declare what those read for
    /// the characteristics the test reads. (A debug build still tests a check it skips, and
    /// fails if the test then finds something to do: a declaration that misses something.)
    #[serde(default)]
    pub reads: Option<CheckReads>,
}

/// What a check's test (or a characteristic's static abilities) reads, for the kernel's
/// change marks: an operation that changes one of these marks every check that declared it
/// for testing again, and makes stale the values kept of every characteristic that did.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckReads {
    /// Zones whose cards it looks at (any player's copy): a card entering or leaving (or
    /// moving under a card there), a token made there, a shuffle, a change of control of a
    /// card there.
    #[serde(default)]
    pub zones: Vec<String>,
    /// Player values and game values, by name.
    #[serde(default)]
    pub values: Vec<String>,
    /// Card counters, by name.
    #[serde(default)]
    pub counters: Vec<String>,
    /// Card flags, by name.
    #[serde(default)]
    pub flags: Vec<String>,
    /// Other parts of the game it reads.
    #[serde(default)]
    pub parts: Vec<StatePart>,
}

/// A part of the game a check's test may read, beside zones, values, counters and flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatePart {
    /// Continuous effects (made, ended, expired) and the abilities effects give: every
    /// characteristic an effect changes.
    Effects,
    /// Cards' orientations.
    Orientation,
    /// Cards' faces (up or down).
    Face,
    /// What players may see: reveals and their end.
    Visibility,
    /// The uses of limited abilities.
    Usage,
    /// The turn, the phase, whose turn it is and the direction of play.
    Turn,
    /// The players still in the game, and the game's result.
    Players,
}

impl StatePart {
    /// Every part, in the order of the kernel's marks.
    pub const ALL: [StatePart; 7] = [
        StatePart::Effects,
        StatePart::Orientation,
        StatePart::Face,
        StatePart::Visibility,
        StatePart::Usage,
        StatePart::Turn,
        StatePart::Players,
    ];
}

/// When a check has something to do.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CheckWhen {
    /// A pure Lua function `(ctx) -> bool`.
    Script(String),
    /// A condition on the players, tested by the kernel.
    Players(PlayersCondition),
}

/// True when some player still in the game passes one of the player tests, or some card
/// passes one of the card tests.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayersCondition {
    /// Not before this turn (0: during setup too).
    #[serde(default)]
    pub from_turn: u32,
    /// Tests on players; any one passing is enough.
    #[serde(default)]
    pub any_player: Vec<PlayerTest>,
    /// Tests on cards; any card passing one is enough.
    #[serde(default)]
    pub any_card: Vec<CardCheckDecl>,
}

/// A test on the cards of some zones: a counter against a number, or against one of the
/// card's own integer characteristics ("damage reaches HP"). The kernel reads the value
/// with every effect applied, so a card whose HP an expiring effect lowers is found too.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardCheckDecl {
    /// The zones whose cards are tested, every player's (and every team's) copy.
    pub zones: Vec<String>,
    /// The counter tested.
    pub counter: String,
    /// Passes when the counter is at least this.
    #[serde(default)]
    pub at_least: Option<i64>,
    /// Passes when the counter is at least the card's value of this integer
    /// characteristic, as read (within its bounds).
    #[serde(default)]
    pub reaches: Option<String>,
    /// Cards with this flag on are not tested: the check's procedure sets it on a card it
    /// chose not to act on (its destruction was prevented), so that rule processing does
    /// not try the same card again and again; clear it when the card changes.
    #[serde(default)]
    pub unless_flag: Option<String>,
}

/// A test on one player: the number of cards in one of their zones, or one of their
/// values, against bounds (both inclusive).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerTest {
    /// A zone: its number of cards is tested.
    #[serde(default)]
    pub count: Option<String>,
    /// A player value: it is tested.
    #[serde(default)]
    pub value: Option<String>,
    /// Passes when the number is at least this.
    #[serde(default)]
    pub at_least: Option<i64>,
    /// Passes when the number is at most this.
    #[serde(default)]
    pub at_most: Option<i64>,
}

/// Lua procedures the kernel calls.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hooks {
    /// `(ctx, ability, args) -> bool`: activate and resolve an ability (conditions, costs,
    /// usage limits, the operation). Used for triggered and activated abilities.
    pub activate: String,
    /// `(deck, options) -> {errors}`: deck construction rules (`options`: the game's
    /// options by name).
    pub validate_deck: String,
    /// `(ctx, player) -> player`: whose turn is next (that player's side takes it); default:
    /// the side of the nearest seat of another side, in the turn direction.
    #[serde(default)]
    pub next_player: Option<String>,
    /// `(options, nplayers) -> {{seats}, ...}`: the teams, each a list of seats (1-based), its
    /// first seat first (the side's turn player). Runs before any zone is made. Without it,
    /// every player is a team alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<String>,
    /// A global Lua table of abilities that belong to the rules themselves, not to a card
    /// (a rule's continuous effect, a rule's triggered ability).
    #[serde(default)]
    pub rule_abilities: Option<String>,
    /// `(card_id, options) -> {copies = N, by = "id"|"name", banned = bool, note = "..."}`:
    /// one card's deck-construction limits, for deck builders and the card database export
    /// (`Engine::card_legality`). `copies` nil: any number; `by`: what copies are counted by
    /// (default `id`, the card number); `banned`: on the banned list; `note`: the rule for
    /// people. Without it the export lists no limits. Keep `validate_deck` and it reading the
    /// same function, so the two cannot disagree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_legality: Option<String>,
}

/// Deck lists of this game.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckDecl {
    /// The sections of a deck list and the zone each starts in.
    pub sections: Vec<DeckSection>,
}

/// A section of a deck list (`main`, `sideboard`, ...).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckSection {
    /// The section's key in deck files.
    pub name: String,
    /// The zone its cards start in.
    pub zone: String,
}

/// Guards against runaway games.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Most primitive operations between two decisions before the game is declared a draw
    /// (an unstoppable loop).
    #[serde(default = "default_ops")]
    pub operations_per_decision: u32,
    /// Most turns before the game is declared a draw.
    #[serde(default = "default_turns")]
    pub turns: u32,
    /// Work budget per script call, counted, not timed: interrupts (calls and loop turns)
    /// plus one per 64 bytes of Lua objects made.
    #[serde(default = "default_budget")]
    pub script_budget: u32,
    /// Lua memory one game's scripts may hold, in bytes (each game has its own; given back
    /// when the game ends).
    #[serde(default = "default_memory")]
    pub script_memory: usize,
    /// How a game ends when a card's script exhausts `script_memory`.
    #[serde(default)]
    pub memory_exhausted: Exhausted,
}

/// How a game ends when a script exhausts the game's memory allowance. A script that runs
/// out of memory cannot be resumed, and the state it was changing may be half done, so the
/// game cannot go on either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    /// A draw.
    #[default]
    Draw,
    /// The owner of the card whose script exhausted it loses (a draw when the script was
    /// the ruleset's own).
    OwnerLoses,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            operations_per_decision: default_ops(),
            turns: default_turns(),
            script_budget: default_budget(),
            script_memory: default_memory(),
            memory_exhausted: Exhausted::default(),
        }
    }
}

fn default_ops() -> u32 {
    100_000
}
fn default_turns() -> u32 {
    500
}
fn default_budget() -> u32 {
    1_000_000
}
// 64 MiB: far above what card scripts need. (Measured: a table-of-strings bomb against a
// 256 MiB cap took minutes of GC work before the cap stopped it; against 32 MiB, 0.1 s.)
fn default_memory() -> usize {
    64 << 20
}

/// Infinite loops that pass through decisions (`loops/`; docs/kernel.md G19).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoopPolicy {
    /// When a decision repeats within a turn (same state and request, cards counted by card
    /// id and place), the players who had a choice since declare how many more times the
    /// loop runs; the kernel runs it, stops at the smallest declarer's choice and bars the
    /// answer that would start it again.
    #[serde(default)]
    pub declare: bool,
    /// Loops are forbidden instead: when a decision repeats within a turn, the player asked
    /// may not give the answer they gave there before (unless it is their only legal one),
    /// for the rest of the turn. No declaration is asked. Not with `declare`.
    #[serde(default)]
    pub forbid: bool,
    /// The largest count a player may declare.
    #[serde(default = "default_loop_count")]
    pub max_count: u32,
}

impl Default for LoopPolicy {
    fn default() -> Self {
        LoopPolicy {
            declare: false,
            forbid: false,
            max_count: default_loop_count(),
        }
    }
}

fn default_loop_count() -> u32 {
    100
}

/// A deck list: sections of card ids with counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeckList {
    /// Section name → card id → copies.
    pub sections: BTreeMap<String, BTreeMap<String, u32>>,
}
