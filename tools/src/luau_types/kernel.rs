//! The kernel's part of the API as types: the card handle (`core/src/script/card.rs`, whose
//! fields and methods are Rust and so are listed here by hand; a test compares these lists
//! with card.rs) and what the prelude's `ctx` methods return (the prelude is Lua with no
//! types; its names and parameters are read from it, see [`super::source`]).

/// Card handle fields: name, type, doc. Besides these, every characteristic of game.yaml.
pub const CARD_FIELDS: &[(&str, &str, &str)] = &[
    (
        "id",
        "number",
        "The object's id (a new one each time the card changes zone).",
    ),
    (
        "card_id",
        "string",
        "The card definition it uses now (`take_definition` may change it).",
    ),
    ("own_card_id", "string", "The card it is physically."),
    (
        "category",
        "string",
        "Its category (game.yaml `categories`).",
    ),
    ("name", "string", "Its rules name, in the printed language."),
    ("label", "string", "Its name for people (logs, prompts)."),
    ("owner", "number", "Its owner (a player number)."),
    ("controller", "number", "Its controller (a player number)."),
    ("zone", "string", "The zone it is in."),
    (
        "zone_owner",
        "number",
        "The player whose zone it is in (nil for a shared zone).",
    ),
    ("face_up", "boolean", "Whether it is face up."),
    (
        "orientation",
        "string",
        "Its orientation (game.yaml `orientations`).",
    ),
    (
        "position",
        "number",
        "Its position in its zone, 1 = bottom (nil when in none).",
    ),
    (
        "host",
        "Card",
        "The card it is attached to (nil when none).",
    ),
    ("attachments", "{Card}", "The cards attached to it."),
    (
        "alive",
        "boolean",
        "False once it left its zone (it became a new object).",
    ),
    (
        "successor",
        "Card",
        "The object it became after leaving its zone (nil while alive).",
    ),
    ("token", "boolean", "Whether it is a token."),
    ("entered_turn", "number", "The turn it entered its zone."),
    (
        "timestamp",
        "number",
        "When it entered its zone (orders effects).",
    ),
    (
        "out_of_game",
        "boolean",
        "Whether its owner has left the game.",
    ),
    (
        "printed_abilities",
        "number",
        "How many abilities its definition prints.",
    ),
    (
        "suppressed",
        "boolean",
        "Whether its abilities are suppressed.",
    ),
];

/// Card handle methods: name, parameters after `self`, return type (Luau), doc.
pub const CARD_METHODS: &[(&str, &str, &str, &str)] = &[
    (
        "has",
        "characteristic: string, name: string",
        "boolean",
        "Whether a set characteristic contains a name: `c:has(\"types\", \"Navy\")`.",
    ),
    (
        "keyword",
        "name: string",
        "any",
        "The keyword's value (true for a plain one), nil when it lacks it.",
    ),
    (
        "flag_on",
        "flag: string",
        "boolean",
        "Whether a flag (game.yaml `flags`) is set.",
    ),
    (
        "counter_value",
        "counter: string",
        "number",
        "The count of a counter (game.yaml `counters`).",
    ),
    (
        "printed",
        "field: string",
        "any",
        "A printed field, untouched by effects (nil when it has none).",
    ),
    (
        "name_in",
        "language: string",
        "string",
        "Its name in a language, for people.",
    ),
    (
        "raw",
        "characteristic: string",
        "number",
        "An integer characteristic before its bounds.",
    ),
    (
        "value_without",
        "characteristic: string, filter: {controller: number?, increases: boolean?}",
        "any",
        "The value leaving out the effects that match every field of `filter`.",
    ),
    (
        "revealed_to",
        "player: number",
        "boolean",
        "Whether it is revealed to a player.",
    ),
];

/// The fields every ctx has that the prelude gives it types for: name, type, doc.
pub const CTX_FIELDS: &[(&str, &str, &str)] = &[
    (
        "player",
        "number",
        "The player the ability acts for (its controller).",
    ),
    (
        "source",
        "Card",
        "The card whose ability this is (nil for the rules).",
    ),
    ("ability", "any", "The running ability."),
    (
        "event",
        "any",
        "The event a triggered ability answers (its fields: docs/reference).",
    ),
    ("args", "any", "What the ability was activated with."),
    ("turn_player", "number", "Whose turn it is."),
    ("turn", "number", "The turn number."),
    ("phase", "string", "The current phase's name."),
    ("players", "number", "How many players the game has."),
];

/// Return types of the `ctx` methods that have a useful one (the rest return `any`).
pub const CTX_RETURNS: &[(&str, &str)] = &[
    ("cards", "{Card}"),
    ("top", "{Card}"),
    ("count", "number"),
    ("has", "boolean"),
    ("in_game", "boolean"),
    ("is_turn_of", "boolean"),
    ("yes_no", "boolean"),
    ("others", "{number}"),
    ("turn_order", "{number}"),
    ("players_from", "{number}"),
    ("allies", "{number}"),
    ("opponents", "{number}"),
    ("turn_side", "{number}"),
    ("team", "number"),
    ("pending", "number"),
    ("uses", "number"),
    ("current", "Card"),
    ("with", "Ctx"),
    ("direction", "string"),
];

/// Globals the kernel itself adds (engine.rs), with their types.
pub const KERNEL_GLOBALS: &[(&str, &str, &str)] = &[
    (
        "card_info",
        "(id: string): any",
        "Printed data of a card definition by id: {id, category, name, label, keywords, abilities, fields...}.",
    ),
    (
        "card_ids",
        "(): {string}",
        "The ids of the loaded content's cards.",
    ),
];

/// The ability record's fields the kernel calls with a ctx (core/src/db.rs `parse_ability`,
/// and the rulesets' `operate`), with their function types.
pub const ABILITY_CALLBACKS: &[(&str, &str)] = &[
    ("operate", "(ctx: Ctx, args: any) -> ...any"),
    ("condition", "(ctx: Ctx) -> ...any"),
    ("when", "(ctx: Ctx, ev: any) -> ...any"),
    ("applies", "(ctx: Ctx, op: any) -> ...any"),
    ("replace", "(ctx: Ctx, op: any) -> ...any"),
];

/// Luau's standard globals: what luau-lsp knows already. Those the kernel's sandbox removes
/// are the ones missing from what a card sees (see [`super::probe`]).
pub const LUAU_STANDARD: &[&str] = &[
    "_G",
    "_VERSION",
    "assert",
    "bit32",
    "buffer",
    "collectgarbage",
    "coroutine",
    "debug",
    "error",
    "gcinfo",
    "getfenv",
    "getmetatable",
    "ipairs",
    "loadstring",
    "math",
    "newproxy",
    "next",
    "os",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "require",
    "select",
    "setfenv",
    "setmetatable",
    "string",
    "table",
    "tonumber",
    "tostring",
    "type",
    "typeof",
    "unpack",
    "utf8",
    "vector",
    "xpcall",
];

/// Standard library functions the sandbox removes from a table that stays.
pub const REMOVED_FIELDS: &[&str] = &["math.random", "math.randomseed"];
