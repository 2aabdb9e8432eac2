-- Riffle kernel prelude: the `ctx` object every procedure, condition and filter receives.
--
-- Reads (ctx:cards, card.power...) call straight into the kernel. Operations (ctx:move,
-- ctx:choose...) are yields to the kernel's driver, which performs them outside this
-- coroutine (replacement effects, triggers, rule processing, other players' decisions) and
-- resumes it with the result. So card text reads as straight-line code.
--
-- This file is game-agnostic: it knows zones, cards and players, never a game's words.

local K = ...
local yield = coroutine.yield
local isyieldable = coroutine.isyieldable

local Ctx = {}
local Getters = {}

-- A method (ctx:move) is found in Ctx itself: a table __index, so the lookup calls nothing.
-- The read-only fields (ctx.turn, ctx.phase...) come through Ctx's own __index; they read
-- the game, not the ctx. (The kernel answers that __index in C, as this function does:
-- `fast_index::install_ctx_fallback`; a field absent from a ctx then costs no Lua call.)
Ctx.__index = Ctx
setmetatable(Ctx, {
  __index = function(_, k)
    local g = Getters[k]
    if g ~= nil then return g() end
    return nil
  end,
})

-- Every operation carries the card whose ability does it (`ctx.source`, nil for the rules):
-- replacements see it as `op.source`, and the events it causes as `ev.source`.
local function op(ctx, t)
  if not isyieldable() then
    error("game operations (" .. t.kind .. ") can only run in procedures, not in conditions, filters or static values", 3)
  end
  t.source = ctx.source
  return yield("op", t)
end

-- The common operations go to the kernel as their kind, the acting card and their fields in
-- a fixed order (the kernel's `operations::positional_fields`), without a table.
local function opk(ctx, kind, ...)
  if not isyieldable() then
    error("game operations (" .. kind .. ") can only run in procedures, not in conditions, filters or static values", 3)
  end
  return yield("op", kind, ctx.source, ...)
end

local function list(x)
  if x == nil then return {} end
  if type(x) == "userdata" then return { x } end
  return x
end

-- Reads ---------------------------------------------------------------------------------------

Getters.turn_player = function() return K.turn_player() end
Getters.turn = function() return K.turn() end
Getters.phase = function() return K.phase() end
Getters.players = function() return K.nplayers() end

--- Cards in a zone, bottom to top. `player` defaults to the context's player. `filter`
--- keeps the cards with every property it names: {orientation = name, category = name}.
function Ctx:cards(zone, player, filter) return K.cards(zone, player or self.player, filter) end
--- Number of cards in a zone (that pass `filter`, as for ctx:cards).
function Ctx:count(zone, player, filter) return K.count(zone, player or self.player, filter) end
--- The top `n` cards of a zone (top first).
function Ctx:top(zone, player, n)
  n = n or 1
  -- A whole count: the kernel lists just those cards (not the whole zone).
  if type(n) == "number" and n >= 0 and n <= 1e9 and n == math.floor(n) then
    return K.top(zone, player or self.player, n)
  end
  local all = K.cards(zone, player or self.player)
  local out = {}
  for i = #all, math.max(1, #all - n + 1), -1 do out[#out + 1] = all[i] end
  return out
end
--- A player's named value, or a player characteristic (game.yaml `player_characteristics`)
--- as read: its start, the effects on the player and the static abilities affecting players,
--- within its bounds.
function Ctx:value(player, name) return K.value(player, name) end
--- A player characteristic's raw value: before its bounds (`min`, `max`) are applied.
function Ctx:raw_value(player, name) return K.value(player, name, true) end
--- A game-wide named value.
function Ctx:game_value(name) return K.game_value(name) end
--- Whether a player has been granted `name` by a continuous effect ("cannot use cards").
function Ctx:has(player, name) return K.player_has(player, name) end
--- Whether a player is still in the game.
function Ctx:in_game(player) return K.in_game(player) end
--- Every other player still in the game, in turn order after `player`.
function Ctx:others(player)
  player = player or self.player
  local out = {}
  for _, p in ipairs(K.players_from(player)) do
    if p ~= player then out[#out + 1] = p end
  end
  return out
end
--- Players still in the game in turn order, starting with the turn player.
function Ctx:turn_order() return K.turn_order() end
--- Players still in the game in turn order (the direction of play), starting with `player`
--- (left out when they have left the game).
function Ctx:players_from(player) return K.players_from(player or self.player) end
--- The value of a game option (a name or an integer), as chosen for this game or its default.
function Ctx:option(name) return K.option(name) end
--- Where this game stands in its match: {game = n (1-based), previous = {{winners =
--- {players}, reason = "..."}, ...}}, the earlier games oldest first (a draw has no
--- winners). Seats are the same people in every game of a match.
function Ctx:match() return K.match_context() end
--- A player's team number (1-based; with no teams every player is a team alone).
function Ctx:team(player) return K.team(player or self.player) end
--- Every team: a list of lists of players, each team's first seat first.
function Ctx:teams() return K.teams() end
--- The players of `player`'s team still in the game, `player` first, in turn order.
function Ctx:allies(player) return K.allies(player or self.player) end
--- The players of the other teams still in the game, in turn order after `player`.
function Ctx:opponents(player) return K.opponents(player or self.player) end
--- Whether it is `player`'s side's turn (every member of the turn side is a turn player).
function Ctx:is_turn_of(player) return K.is_turn_of(player or self.player) end
--- The members of the side whose turn it is, still in the game, turn player first.
function Ctx:turn_side() return K.turn_side() end
--- The direction of play: "clockwise" or "counterclockwise".
function Ctx:direction() return K.direction() end
--- Abilities of cards in their zones: filter {kind=, timing=, player=, card=, delayed=}. Each
--- has source, def, key, granted and timestamp (card entered its zone / effect gave it);
--- `delayed = true` adds host-less abilities armed by effects (ctx:delay, ctx:grant_ability
--- without a card), with `delayed` and `controller` set.
function Ctx:abilities(filter) return K.abilities(filter or {}) end
--- How many times the limit `key` was used: by `subject` (a card object, a player, or
--- "game"; with opts.name, a player and that card name) this turn, or over opts.over
--- ("turn", "game" or a number of turns: this one and those before it).
function Ctx:uses(subject, key, opts) return K.uses(subject, key, opts) end
--- Printed data of a card definition by id: {id, category, name, fields...}.
function Ctx:card_info(id) return K.card_info(id) end
--- The object a card became after leaving its zone (or the card itself if still there).
function Ctx:current(card) return K.current(card) end
--- A copy of the record of the innermost running procedure `name` (game.yaml `procedures`),
--- as its last step or window action left it, or nil when none runs: any script may read a
--- battle's attacker and target. Changing the copy changes nothing.
function Ctx:running(name) return K.running(name) end
--- Number of triggered abilities waiting.
function Ctx:pending() return K.pending() end
--- Runs `fn(...)` on behalf of `card` (a card, or nil) and returns its first result; if it
--- fails, the error is reported naming the card and its file:line, and guard returns nil, so
--- one broken card does not stop what the ruleset was doing for every card (listing the
--- actions of a phase, say). A spent work budget or memory allowance still stops the call.
--- `fn` cannot ask players anything (no yields inside).
function Ctx:guard(card, fn, ...) return K.guard(card, fn, ...) end
--- A new context for another player or source (for the ruleset's hooks).
function Ctx:with(fields)
  local c = table.clone(self) -- its fields and its metatable (Ctx), copied in C
  for k, v in pairs(fields) do rawset(c, k, v) end
  return c
end

-- Operations ----------------------------------------------------------------------------------

--- Moves cards (one at a time, in the given order) to `zone`.
--- opts: player (whose zone; default each card's owner), position ("top" | "bottom" | n),
--- face ("up" | "down"), orientation, reason (a name triggers can filter on), by (who does
--- it: default the context's player; false: no player, the rules themselves).
--- Returns the new objects, in order (nil where a card could not move).
function Ctx:move(cards, zone, opts)
  opts = opts or {}
  local by = self.player
  if opts.by ~= nil then by = opts.by or nil end
  -- One card goes as itself (the kernel takes a card or a list of cards).
  if type(cards) ~= "userdata" then cards = list(cards) end
  return opk(self, "move", cards, zone, opts.player, opts.position, opts.face,
    opts.orientation, opts.reason, by, opts.host)
end
--- Puts `card` under `host` (an attachment). Returns the new object.
function Ctx:attach(card, host, opts)
  opts = opts or {}
  if type(card) ~= "userdata" then card = { card } end
  return opk(self, "move", card, nil, nil, nil, nil, opts.orientation,
    opts.reason or "attach", self.player, host)
end
--- Shuffles a zone.
function Ctx:shuffle(zone, player) return op(self, { kind = "shuffle", zone = zone, player = player or self.player }) end
--- Sets a card's orientation; false when it already had it (nothing happens then). Given a
--- list of cards, turns them all as one simultaneous step (one trigger batch, one round of
--- rule checks after the last) and returns a list: true or false per card.
function Ctx:set_orientation(cards, o, reason)
  if type(cards) == "table" then
    return opk(self, "orientation", nil, cards, o, reason, self.player)
  end
  return opk(self, "orientation", cards, nil, o, reason, self.player)
end
--- Turns a card face up (true) or down (false); false when already so.
function Ctx:set_face(card, up) return op(self, { kind = "face", card = card, up = up, by = self.player }) end
--- Sets or clears a flag.
function Ctx:set_flag(card, flag, on) return op(self, { kind = "flag", card = card, flag = flag, on = on ~= false }) end
--- Adds `n` (may be negative) to a counter; it never goes below 0. Returns the new count (false
--- when nothing changed). Given a list of cards, adds to them all as one simultaneous step
--- (as set_orientation) and returns a list: the new count or false per card.
function Ctx:add_counter(cards, name, n, reason)
  local t = { kind = "counter", counter = name, amount = n, reason = reason, by = self.player }
  if type(cards) == "table" then t.cards = cards else t.card = cards end
  return op(self, t)
end
--- Reveals cards to players (default: everyone) until concealed or moved.
function Ctx:reveal(cards, players) return opk(self, "reveal", list(cards), players) end
--- Lets one player look at cards (a reveal to that player only).
function Ctx:look(cards, player) return opk(self, "reveal", list(cards), { player or self.player }) end
--- Ends reveals and looks of cards.
function Ctx:conceal(cards) return opk(self, "conceal", list(cards)) end
--- Makes a token of card definition `id` in a zone. Returns it.
function Ctx:create_token(id, zone, player, opts)
  opts = opts or {}
  return op(self, { kind = "token", id = id, zone = zone, player = player or self.player,
    orientation = opts.orientation, face = opts.face })
end
--- Gives control of a card to a player.
function Ctx:set_controller(card, player) return op(self, { kind = "control", card = card, player = player }) end
--- Sets a player's value.
function Ctx:set_value(player, name, v) return op(self, { kind = "value", player = player, key = name, value = v }) end
--- Adds to a player's value.
function Ctx:add_value(player, name, d) return op(self, { kind = "value", player = player, key = name, add = d }) end
--- Sets a game-wide value.
function Ctx:set_game_value(name, v) return op(self, { kind = "value", key = name, value = v }) end
--- A continuous effect on cards or players (a card, a player number, or a list of them):
--- spec {char, op = "add"|"set_base"|"set"|"grant"|"revoke", value, layer}: for a set
--- characteristic `set` replaces the whole set (value: a name or a list of names); `layer`
--- names one of the characteristic's layers (default: the last that holds the op); on
--- players `char` is a player characteristic (or "player" for a grant, see ctx:grant_player).
--- duration {until = point, player = p, after_turn = n, times = n (it ends
--- the nth time the point passes), tag = name, uncancellable = true, persists_in = zone or
--- {zones} (when the card becomes a new object by entering one of them, the effect follows
--- it)} or nil (lasts while the target stays in its zone). Returns the list of the effects'
--- handles (one per target still there), for ctx:end_effect.
function Ctx:modify(targets, spec, duration)
  duration = duration or {}
  local cards, players = {}, {}
  if type(targets) == "number" then targets = { targets } end
  for _, t in ipairs(list(targets)) do
    if type(t) == "number" then players[#players + 1] = t else cards[#cards + 1] = t end
  end
  return opk(self, "effect", cards, players, spec.char, spec.op or "add", spec.layer, spec.value,
    duration["until"], duration.player, duration.after_turn, duration.times, self.player,
    duration.tag, duration.uncancellable, duration.persists_in)
end
--- The continuous effects in play (oldest first), each {handle, target or player, source,
--- controller, char, op, value, layer, tag, cancellable, persists_in, until, times (passes
--- left), until_player, after_turn, duration (the whole, as ctx:modify takes it)}; `filter`
--- keeps those of a `target` (card or player), `source`, `tag` or `controller`.
function Ctx:effects(filter) return K.effects(filter) end
--- A definition redirect: `card` takes its printed data (`c:printed`, the printed values
--- of its characteristics), its abilities and its name (`c.name`, `c.label`, views, logs)
--- from the card definition `card_id` (a card id; nil: its own again) instead of its own,
--- in whatever zones the duration says ("this card is treated as X", a copy, a card that
--- becomes the card it names). `c.own_card_id` stays the card's own. duration: as for
--- ctx:modify (until, player, after_turn, times, tag, uncancellable, persists_in); the
--- latest redirect on a card wins. Returns the effect's handle, for ctx:end_effect.
function Ctx:take_definition(card, card_id, duration)
  duration = duration or {}
  local handles = op(self, { kind = "take_definition", target = card, definition = card_id,
    ["until"] = duration["until"], until_player = duration.player, after_turn = duration.after_turn,
    times = duration.times, by = self.player, source = self.source, tag = duration.tag,
    uncancellable = duration.uncancellable, persists_in = duration.persists_in })
  return type(handles) == "table" and handles[1] or nil
end
--- Ends a continuous effect by its handle (what ctx:modify returns, or `handle` from
--- ctx:effects). Returns false when it is gone already or cannot be cancelled.
function Ctx:end_effect(handle) return op(self, { kind = "end_effect", handle = handle }) end
--- Grants `name` to players (a player number or a list of them): a player-level prohibition
--- or permission.
function Ctx:grant_player(players, name, duration)
  duration = duration or {}
  if type(players) == "number" then players = { players } end
  return op(self, { kind = "effect", players = players, char = "player", op = "grant", value = name,
    ["until"] = duration["until"], until_player = duration.player, after_turn = duration.after_turn,
    times = duration.times, by = self.player, source = self.source })
end
--- Passes the expiry point `point` (for `player` when given): effects whose duration names it
--- end, or count down when their duration says `times = n`. `count` passes it that many
--- times at once ("counts as N turns passed"; default 1). `player` may instead be a table
--- {card = c, player = p}: the point passes only for the effects and granted abilities on
--- card `c` ("this card counts as N turns passed").
function Ctx:expire(point, player, count)
  local card
  if type(player) == "table" then
    card, player = player.card, player.player
    -- Not every effect at once because a card was nil.
    if card == nil then error("expire: the table form needs a card ({card = c})", 2) end
  end
  return opk(self, "expire", point, player, count, card)
end
--- Emits a ruleset event with data (triggered abilities listen to it).
function Ctx:emit(name, data) return opk(self, "emit", name, data or {}, self.player) end
--- Records one use of a limited ability (`key`) this turn: for a card object (it ends with
--- the object), a player, a player and a card name (opts.name), or the whole game ("game").
function Ctx:use(subject, key, opts) return opk(self, "use", subject, key, opts) end
--- A random integer in 1..n from the game's seeded generator.
function Ctx:random(n) return op(self, { kind = "random", n = n }) end
--- Ends the game. winners: list of players (empty = draw); with teams, a winner stands for
--- its team: the result lists every member.
function Ctx:end_game(winners, reason) return op(self, { kind = "end_game", winners = winners or {}, reason = reason }) end
--- Takes a player out of the game (the game ends when one side or none is left).
function Ctx:eliminate(player, reason) return op(self, { kind = "eliminate", player = player, reason = reason }) end
--- Gives `card` an ability declared on the source card with `dormant = true` (it works
--- only when given); with `card` nil, arms it with no host (see Ctx:abilities `delayed`).
--- opts: until, player, after_turn, times (a duration), once, persists_in (zones where it
--- follows the card, as for ctx:modify).
function Ctx:grant_ability(def, card, opts)
  opts = opts or {}
  return op(self, { kind = "grant_ability", def = def, target = card, once = opts.once,
    ["until"] = opts["until"], until_player = opts.player, after_turn = opts.after_turn,
    times = opts.times, by = self.player, source = self.source, persists_in = opts.persists_in })
end
--- Arms a delayed ability ("at the end of this turn, do X"): a `dormant` ability of the
--- source card that fires once on its event. opts: until, player, after_turn.
function Ctx:delay(def, opts)
  opts = opts or {}
  return op(self, { kind = "grant_ability", def = def, once = true, ["until"] = opts["until"],
    until_player = opts.player, after_turn = opts.after_turn, times = opts.times, by = self.player,
    source = self.source })
end
--- Performs `fn(ctx)` as one simultaneous step: the triggered abilities of everything it
--- does form one batch.
function Ctx:together(fn)
  op(self, { kind = "group", open = true })
  local r = fn(self)
  op(self, { kind = "group", open = false })
  return r
end
--- Performs `fn(ctx)` and returns its result and whether a replacement effect was applied to
--- an operation it asked for (the operation was replaced: done otherwise, or not at all).
function Ctx:track_replacements(fn)
  local before = K.replacements_applied()
  local r = fn(self)
  return r, K.replacements_applied() > before
end
--- Says who takes the first turn (during setup).
function Ctx:set_first_player(player) return op(self, { kind = "first_player", player = player }) end
--- Sets the direction of play, "clockwise" or "counterclockwise" (false when it already is).
function Ctx:set_direction(direction) return op(self, { kind = "direction", direction = direction }) end
--- Sets the current phase name (for views and logs; the turn structure itself is game.yaml's).
function Ctx:log(message) return op(self, { kind = "emit", name = "log", data = { message = tostring(message) } }) end

-- Timing -------------------------------------------------------------------------------------

--- Resolves pending triggered abilities now, in the ruleset's order.
function Ctx:resolve_triggers()
  if not isyieldable() then error("resolve_triggers can only run in procedures", 2) end
  return yield("triggers")
end
--- Runs rule processing (checkpoint checks) now.
function Ctx:check()
  if not isyieldable() then error("check can only run in procedures", 2) end
  return yield("check")
end
--- Runs procedure `name` (declared in game.yaml `procedures`) with record `data`, step by
--- step, and returns its record as its steps left it. An action option can start one
--- without a script waiting on it: `{label = ..., procedure = name, data = {...}}`.
function Ctx:procedure(name, data)
  if not isyieldable() then error("procedure can only run in procedures", 2) end
  return yield("procedure", { name = name, data = data, player = self.player })
end
--- A response window: spec {players = {...}, model = "single"|"once"|"alternating", actions =
--- function(ctx, player) -> options, prompt = "..."}; an option with `pass = true` passes;
--- a chosen option's `run(ctx)` is performed. Returns when the window closes.
function Ctx:window(spec)
  if not isyieldable() then error("window can only run in procedures", 2) end
  return yield("window", spec)
end

-- Decisions ----------------------------------------------------------------------------------

--- Asks `player` to choose among `options` (tables with label, kind, card, target, and
--- anything else). opts: min (default 1), max (default 1), prompt.
--- With max == 1 returns the chosen option (or nil when min == 0 and none was chosen);
--- otherwise a list of the chosen options. With no options and min == 0, returns at once.
function Ctx:choose(player, options, opts)
  opts = opts or {}
  local min = opts.min or 1
  local max = opts.max or 1
  if max > #options then max = #options end
  if min > max then min = max end
  local single = (opts.max or 1) == 1
  if #options == 0 then
    if single then return nil end
    return {}
  end
  if not isyieldable() then error("choose can only run in procedures", 2) end
  local picked = yield("ask", { player = player, options = options, min = min, max = max,
    prompt = opts.prompt or "choose" })
  local out = {}
  for _, i in ipairs(picked) do out[#out + 1] = options[i] end
  if single then return out[1] end
  return out
end
--- Chooses cards: returns the chosen cards (a card when max == 1).
function Ctx:choose_cards(player, cards, opts)
  opts = opts or {}
  local options = {}
  for i, c in ipairs(cards) do options[i] = { label = c.label, kind = "card", card = c } end
  local r = self:choose(player, options, opts)
  if r == nil then return nil end
  if r.card then return r.card end
  local out = {}
  for i, o in ipairs(r) do out[i] = o.card end
  return out
end
--- Yes or no.
function Ctx:yes_no(player, prompt)
  local r = self:choose(player, { { label = "yes", kind = "yes" }, { label = "no", kind = "no" } },
    { prompt = prompt or "yes_no" })
  return r.kind == "yes"
end
--- Chooses an integer in min..max.
function Ctx:choose_number(player, min, max, prompt)
  if min == max then return min end
  if not isyieldable() then error("choose_number can only run in procedures", 2) end
  return yield("ask", { player = player, number = true, min = min, max = max, prompt = prompt or "number" })
end

local function make_ctx(player, source, ability, event, args)
  return setmetatable({ player = player, source = source, ability = ability, event = event, args = args }, Ctx)
end

return { make_ctx = make_ctx, Ctx = Ctx, Getters = Getters }
