-- Card verbs: what card scripts say, on top of lib.lua. Rules: OP 4 (terms: draw, K.O., up to
-- N, base), 4-2 (verbs the rules leave to card text: return to hand, add to Life, give DON!!,
-- set active, play from trash/deck), 8-3-1 (costs), 8-6 (durations), 11-2/11-3 (reveal, look).
-- Every verb takes `ctx` first and accepts nil (nothing chosen), one card or a list of cards.

-- Lists ---------------------------------------------------------------------------------------

--- nil, a card or a list of cards, as a list.
function as_list(x)
  if x == nil then return {} end
  if type(x) == "userdata" then return { x } end
  return x
end

-- Filters -------------------------------------------------------------------------------------
-- A filter is a named predicate on a card: `f(card) -> bool`; `tostring(f)` is its name, shown
-- in the prompt of choices (`pick: <name>`) and in logs. Compose with `*` (and), `+` (or) and `-f` (not):
-- `F.character * F.cost_max(3) * F.type("Kelpwood Crew")` reads "Character & cost<=3 & {Kelpwood Crew}".

-- (`filter` and the operators: scripts/lib/filter.lua.)

F = {}
F.any = filter("any card", function() return true end)
F.character = filter("Character", function(c) return c.category == "character" end) -- OP 2-2-4
F.event = filter("Event", function(c) return c.category == "event" end)             -- OP 2-2-5
F.stage = filter("Stage", function(c) return c.category == "stage" end)             -- OP 2-2-6
F.active = filter("active", function(c) return c.orientation == "active" end)       -- OP 4-4-1
F.rested = filter("rested", function(c) return c.orientation == "rested" end)
--- Has type `t` (OP 2-4-3: text writes it {t}).
function F.type(t) return filter("{" .. t .. "}", function(c) return c:has("types", t) end) end
--- Is named `n` (OP 2-1-2: text writes it [n]).
function F.named(n) return filter("[" .. n .. "]", function(c) return c:has("names", n) end) end
--- "other than [n]".
function F.other_than(n) return -F.named(n) end
function F.color(col) return filter(col, function(c) return c:has("colors", col) end) end
function F.cost_max(n) return filter("cost<=" .. n, function(c) return c.cost <= n end) end
function F.cost_min(n) return filter("cost>=" .. n, function(c) return c.cost >= n end) end
function F.power_max(n) return filter("power<=" .. n, function(c) return c.power <= n end) end
function F.power_min(n) return filter("power>=" .. n, function(c) return c.power >= n end) end
function F.keyword(k) return filter("[" .. k .. "]", function(c) return c:has("keywords", k) end) end
--- Has attribute `a` (OP 2-5: text writes it <a>; game.yaml names: strike, slash, ...).
function F.attribute(a) return filter("<" .. a .. ">", function(c) return c:has("attributes", a) end) end

-- Counting ------------------------------------------------------------------------------------

--- Cards in a player's Life area (default: yours).
function life_count(ctx, p) return ctx:count("life", p or ctx.player) end
--- Cards in a player's hand.
function hand_count(ctx, p) return ctx:count("hand", p or ctx.player) end
--- DON!! cards on a player's field: cost area and attached (OP 3-1-2, 8-3-1-6).
function field_don_count(ctx, p) return #OP.field_don(ctx, p or ctx.player) end
--- The opponent of the ability's player.
function opponent(ctx) return OP.opponent(ctx, ctx.player) end
--- The battle going on now, or nil (OP 7-1): {attacker, target (the card attacked now: the
--- Blocker after a block), attacked (the card the attack was declared on), blocker (nil
--- without a block)}, as the last battle step left it. A copy: changing it changes nothing.
function current_battle(ctx) return ctx:running("battle") end
--- Whether card `c` is battling now: it attacks, or is the card attacked (OP 7-1).
function is_battling(ctx, c)
  local b = ctx:running("battle")
  return b ~= nil and (b.attacker == c or b.target == c)
end

-- Choosing (OP 8-4-4: choices are made on resolution; 4-8: "up to N" may choose none) ----------

--- Up to `opts.max` (default 1) cards of `pool` that pass `f`, chosen by the ability's player.
--- opts.min makes some compulsory. The prompt is `pick: <f's name>`, or opts.prompt (a declared
--- prompt's name, then ": " and text for people). Returns a card or nil when max is 1, else a list.
--- In an ability that declares `up_to = {n1, n2, ...}`, each "up to" pick (no opts.min) takes
--- the next declared count in order (OP 4-8-1): the player chooses exactly that many, or as
--- many as there are (8-4-4-1).
function choose_from(ctx, pool, f, opts)
  opts = opts or {}
  f = f or F.any
  local cands = util.filter(pool, function(c) return f(c) end)
  local max = opts.max or 1
  if ctx.declared and not opts.min then
    local d = ctx.declared
    d.picks = (d.picks or 0) + 1
    local chosen = OP.choose_declared(ctx, d.picks, cands, max, opts.player)
    if max == 1 then return chosen[1] end
    return chosen
  end
  return ctx:choose_cards(opts.player or ctx.player, cands,
    { min = opts.min or 0, max = max, prompt = opts.prompt or ("pick: " .. tostring(f)) })
end

--- "up to 1 of your Characters [f]".
function pick_character(ctx, f, opts) return choose_from(ctx, OP.characters(ctx, ctx.player), f, opts) end
--- "up to 1 of your opponent's Characters [f]".
function pick_opponent_character(ctx, f, opts) return choose_from(ctx, OP.characters(ctx, opponent(ctx)), f, opts) end
--- "up to 1 Character [f]": either player's.
function pick_any_character(ctx, f, opts)
  return choose_from(ctx, util.concat(OP.characters(ctx, ctx.player), OP.characters(ctx, opponent(ctx))), f, opts)
end
--- "up to 1 of your Leader or Character cards".
function pick_fighter(ctx, f, opts) return choose_from(ctx, OP.fighters(ctx, ctx.player), f, opts) end
--- Up to 1 card of one of your zones ("from your trash", "from your hand").
--- Searching your deck, you look at it first: the choice shows you the cards (a pick among
--- cards you cannot see is blind); the shuffle that follows a search hides them again.
function pick_in(ctx, zone, f, opts)
  local pool = ctx:cards(zone, ctx.player)
  if zone == "deck" then ctx:look(pool, ctx.player) end
  return choose_from(ctx, pool, f, opts)
end

-- Counts ("N" or "up to N", OP 4-8) -------------------------------------------------------------

local UpTo = {}
UpTo.__tostring = function(u) return "up to " .. u.n end

--- "up to n" as the count of a numbered verb (`add_don(ctx, up_to(1))`): the player chooses how
--- many, 0 to n (OP 4-8-1). A plain number means that many, as many as possible (OP 1-3-5-1).
function up_to(n)
  if type(n) ~= "number" or n < 0 or n ~= math.floor(n) then
    error("up_to(n) needs a whole number of 0 or more, got " .. tostring(n), 2)
  end
  return setmetatable({ n = n }, UpTo)
end

--- Whether `x` is an `up_to(n)` count.
function is_up_to(x) return getmetatable(x) == UpTo end

--- How many times a numbered verb acts, when `have` cards are there for it now: a number `n`
--- is n times, the verb stopping when it runs out (as many as possible); `up_to(n)` is the
--- player's choice of 0 to min(n, have), or the count they declared on activation (an
--- ability's `up_to = {...}`, OP 4-8-1: the next one in order, then as many as possible up to
--- it, 8-4-4-1). Nothing to do asks nothing.
function OP.how_many(ctx, n, have, player)
  if n == nil then return 1 end
  if not is_up_to(n) then return n end
  local d = ctx.declared
  if d then
    d.picks = (d.picks or 0) + 1
    if d[d.picks] then return math.min(d[d.picks], n.n, have) end
  end
  local most = math.min(n.n, have)
  if most <= 0 then return 0 end
  return ctx:choose_number(player or ctx.player, 0, most, "up_to")
end

-- Durations (OP 8-6 table) ----------------------------------------------------------------------

local LASTS = {
  -- OP 7-1-5-3/4: "during this battle" ends at the End of Battle.
  battle = function(ctx) return { ["until"] = "end_of_battle" } end,
  -- OP 6-6-1-3: "during this turn": after the End Phase's other processing, the turn
  -- player's effects first, then the other player's (each player's own, `player`).
  turn = function(ctx) return { ["until"] = "this_turn", player = ctx.player } end,
  -- OP 6-6-1-2: "until the end of the turn" (or "of the End Phase"): the turn player's end in
  -- step (I), after their "at the end of this turn" processing; the other player's in (II).
  end_of_turn = function(ctx) return { ["until"] = "end_of_turn", player = ctx.player } end,
  -- OP 6-2-1: "until the start of your next turn" ends in your next Refresh Phase.
  your_next_turn = function(ctx) return { ["until"] = "start_of_turn", player = ctx.player } end,
  -- "until the end of your opponent's next turn" (OP 8-6 table: not named by the rules): the
  -- first End Phase after this turn that is the opponent's, in its step (II), where the
  -- non-turn player's "until the end of the turn" effects end (digest 6-6 note).
  opponents_next_turn = function(ctx)
    local after = ctx.turn
    if ctx.turn_player ~= ctx.player then after = after + 1 end
    return { ["until"] = "end_of_turn", after_turn = after, player = ctx.player }
  end,
}

--- A duration name as a kernel duration: "battle", "turn", "end_of_turn", "your_next_turn",
--- "opponents_next_turn", or nil (while the card stays where it is).
function lasts(ctx, name)
  if name == nil then return nil end
  local d = LASTS[name]
  if d == nil then error("unknown duration '" .. tostring(name) .. "' (battle, turn, end_of_turn, your_next_turn, opponents_next_turn)", 2) end
  return d(ctx)
end

-- Continuous changes ------------------------------------------------------------------------------

local function modify(ctx, cards, spec, duration)
  local list = as_list(cards)
  if #list == 0 then return end
  ctx:modify(list, spec, lasts(ctx, duration))
end

--- "+N power" (negative: −N) for a duration (OP 2-6-3).
function give_power(ctx, cards, n, duration) modify(ctx, cards, { char = "power", op = "add", value = n }, duration) end
--- "+N cost" (negative: −N); reads as 0 at least (OP 1-3-6-2).
function give_cost(ctx, cards, n, duration) modify(ctx, cards, { char = "cost", op = "add", value = n }, duration) end
--- "its base power becomes N" (OP 4-9-2; several: the highest, 4-9-2-1).
function set_base_power(ctx, cards, n, duration) modify(ctx, cards, { char = "power", op = "set_base", value = n }, duration) end
--- Grants a keyword or prohibition (`rush`, `blocker`, `cannot_attack`, `cannot_be_ko`,
--- `cannot_block`, `unblockable`) for a duration (OP 1-3-3: a prohibition beats an instruction).
function grant(ctx, cards, name, duration) modify(ctx, cards, { char = "keywords", op = "grant", value = name }, duration) end

--- "During this turn, ... abilities cost/need ... more": arms a `dormant` added_cost or
--- added_condition of this card for a duration (OP 8-3-1-2, 8-3-2-2; paid in resolution order).
function add_rules(ctx, def, duration) ctx:grant_ability(def, nil, lasts(ctx, duration)) end

--- For permanent{}: "+N power".
function plus_power(n) return { char = "power", op = "add", value = n } end
--- For permanent{}: "gains [keyword]" / a prohibition.
function gains(name) return { char = "keywords", op = "grant", value = name } end
--- For permanent{ affects = ... }: your cards in `zone` that pass `f`.
function your_cards(zone, f)
  return function(ctx, c) return c.zone == zone and c.controller == ctx.player and (f == nil or f(c)) end
end

-- Negation (OP 8-2) and "no base effect" (2-8-5). A negated card has the status `negated`
-- (game.yaml `abilities`): the kernel then ignores its card text and the effects it gained
-- before (docs/rulings OP 8-2). -------------------------------------------------------------

-- `negated_all` (game.yaml `including_later`) negates also the effects gained afterwards: the
-- "unless specified" of OP 8-2-4.
local function negation(opts) return { char = "status", op = "grant", value = (opts or {}).including_later and "negated_all" or "negated" } end
--- "Negate the effects of" cards for a duration (`lasts`; nil: while they stay where they are);
--- opts `{ including_later = true }`: effects they gain afterwards too (OP 8-2-4).
function negate(ctx, cards, duration, opts) modify(ctx, cards, negation(opts), duration) end
--- For permanent{}: "the effects of [affected cards] are negated" while this card is on the
--- field; opts as for negate.
function negates(opts) return negation(opts) end
--- Whether a card's effects are negated now.
function is_negated(c) return c:has("status", "negated") or c:has("status", "negated_all") end
--- "A card with no base effect" (OP 2-8-5): it prints no card text, keywords included; a
--- negated card still has its base effects (8-2-2).
function has_no_base_effect(c) return c.printed_abilities == 0 end
F.no_base_effect = filter("no base effect", has_no_base_effect)

-- One-shot verbs ----------------------------------------------------------------------------

--- Draws n cards (OP 4-5-3); `up_to(n)`: "draw up to n", the player may stop before each (4-5-4).
function draw(ctx, n)
  if is_up_to(n) then return OP.draw_up_to(ctx, ctx.player, n.n) end -- OP 4-8-2: 4-5-4, card by card
  return OP.draw(ctx, ctx.player, n or 1)
end

--- Player `p` trashes n cards passing `f` from their hand, chosen by them: as many as
--- possible. The effect stays ctx.player's (events name them).
local function trash_chosen(ctx, p, n, f)
  local cands = util.filter(ctx:cards("hand", p), function(c) return (f or F.any)(c) end)
  n = math.min(n or 1, #cands)
  if n == 0 then return 0 end
  local chosen = as_list(ctx:choose_cards(p, cands, { min = n, max = n, prompt = "trash_from_hand" }))
  for _, c in ipairs(chosen) do OP.trash(ctx, c, "trash") end
  return #chosen
end

--- "Each player draws n cards" (OP 4-5-3): the turn player draws, then the other player
--- (OP 1-3-10), each card its own event with rule processing after it (9-1-2): when it would
--- empty both decks, the turn player loses first and the other player does not draw (docs/
--- rulings OP 1-2-1). Unlike Gundam's, One Piece's rules make "both players act" sequential.
function each_player_draws(ctx, n)
  for _, p in ipairs(ctx:turn_order()) do OP.draw(ctx, p, n or 1) end
end

--- Trash n cards from your hand (OP 10-2-14): as many as possible, chosen by you.
function trash_from_hand(ctx, n, f) return trash_chosen(ctx, ctx.player, n, f) end

--- "Your opponent trashes n cards from their hand": your opponent chooses them, from their
--- own hand (a choice the text gives the player who does it: docs/rulings OP 10-2-14). Returns how many.
function opponent_trashes_from_hand(ctx, n, f) return trash_chosen(ctx, opponent(ctx), n, f) end

--- K.O.s (OP 10-2-1-2), unless a card cannot be K.O.'d. Returns how many were K.O.'d.
function ko(ctx, cards)
  local n = 0
  for _, c in ipairs(as_list(cards)) do
    if OP.ko(ctx, c) then n = n + 1 end
  end
  return n
end

--- Rests cards (OP 4-4-1; resting a rested card does nothing, 1-3-2-1).
function rest(ctx, cards)
  for _, c in ipairs(as_list(cards)) do ctx:set_orientation(c, "rested", "effect") end
end

--- Sets cards as active.
function set_active(ctx, cards)
  for _, c in ipairs(as_list(cards)) do ctx:set_orientation(c, "active", "effect") end
end

--- Returns cards to their owner's hand (digest §4.2: not defined by the rules; OP 3-1-6 new card).
--- A card a prohibition keeps where it is stays (OP 1-3-3, prohibitions.lua `cannot_be_returned`).
function return_to_hand(ctx, cards)
  for _, c in ipairs(as_list(cards)) do
    if OP.may_move(ctx, c, "hand") then ctx:move(c, "hand", { player = c.owner, reason = "return" }) end
  end
end

--- Adds cards from a secret or public zone to your hand; a card chosen by a condition from a
--- secret zone is revealed first (OP 11-2-1).
function add_to_hand(ctx, cards)
  local list = as_list(cards)
  if #list == 0 then return end
  if list[1].zone == "deck" or list[1].zone == "life" then ctx:reveal(list) end
  ctx:move(list, "hand", { player = ctx.player, reason = "add" })
end

--- Plays a Character or Stage card from any zone (OP 3-7-3, 3-8-3: "play" whatever the
--- origin; not a use, 4-7-1), active unless opts.rested; [On Play] triggers. A full area first
--- loses one of its cards to the trash (3-7-6-1, 3-8-5-1: OP.play_card, play.lua).
--- Returns the played card.
function play_from(ctx, card, opts)
  return OP.play_card(ctx, card, ctx.player, (opts or {}).rested and "rested" or "active")
end

--- "Look at the top n cards of your deck; reveal up to opts.max (1) card(s) passing `f` and
--- add them to your hand. Then place the rest at the bottom of your deck" (OP 11-3, 11-2-1).
--- The rest keep their order (one of the orders "in any order" allows). Returns the added cards.
function search_top(ctx, n, f, opts)
  opts = opts or {}
  local p = ctx.player
  local top = ctx:top("deck", p, n)
  if #top == 0 then return {} end
  ctx:look(top, p) -- 11-3-1: only you see them
  local picked = as_list(choose_from(ctx, top, f, { max = opts.max or 1, prompt = "search: " .. tostring(f or F.any) }))
  if #picked > 0 then
    ctx:reveal(picked) -- 11-2-1
    ctx:move(picked, "hand", { player = p, reason = "search" })
  end
  local rest = util.filter(top, function(c) return c.alive end)
  ctx:conceal(rest) -- 11-3-3
  if #rest > 0 then ctx:move(rest, "deck", { player = p, position = "bottom", reason = "search" }) end
  return picked
end

--- Places cards at the bottom of their owner's deck "in any order": the owner picks them one
--- by one, bottom card first (OP 3-1-7), then they move together. Only the owner learns the
--- order (3-1-8: their opponent's log shows blank cards).
--- A card a prohibition keeps where it is stays (OP 1-3-3).
function to_deck_bottom(ctx, cards)
  local left, picked = util.filter(as_list(cards), function(c) return c.alive and OP.may_move(ctx, c, "deck") end), {}
  while #left > 1 do
    local c = ctx:choose_cards(left[1].owner, left, { min = 1, max = 1, prompt = "bottom_order" })
    picked[#picked + 1] = c
    left = util.filter(left, function(x) return x ~= c end)
  end
  picked[#picked + 1] = left[1]
  -- Each card moved goes under the previous ones: move the last picked first.
  local order = {}
  for i = #picked, 1, -1 do order[#order + 1] = picked[i] end
  if #order > 0 then ctx:move(order, "deck", { position = "bottom", reason = "to_deck" }) end
end

--- "Look at the top n cards of your deck and place them at the top or bottom of the deck in
--- any order" (OP 11-3-1: only you see them). You choose which go to the bottom (prompt
--- `arrange_bottom`), then the order of those staying on top, top card first (`top_order`),
--- then of those going under, bottom card first (`bottom_order`, 3-1-7). Only you learn the
--- order (3-1-8). Returns the cards on top, top first, and those at the bottom, bottom first.
function arrange_top(ctx, n)
  local p = ctx.player
  local top = ctx:top("deck", p, n)
  if #top == 0 then return {}, {} end
  ctx:look(top, p) -- OP 11-3-1
  local under = as_list(ctx:choose_cards(p, top, { min = 0, max = #top, prompt = "arrange_bottom" }))
  local is_under = {}
  for _, c in ipairs(under) do is_under[c] = true end
  local function ordered(cards, prompt)
    local left, out = cards, {}
    while #left > 1 do
      local c = ctx:choose_cards(p, left, { min = 1, max = 1, prompt = prompt })
      out[#out + 1] = c
      left = util.filter(left, function(x) return x ~= c end)
    end
    out[#out + 1] = left[1]
    return out
  end
  local above = ordered(util.filter(top, function(c) return not is_under[c] end), "top_order")
  local below = ordered(util.filter(top, function(c) return is_under[c] end), "bottom_order")
  ctx:conceal(top)
  -- Each card moved goes over (under) the previous ones: the chosen top (bottom) card last.
  local function reversed(list)
    local out = {}
    for i = #list, 1, -1 do out[#out + 1] = list[i] end
    return out
  end
  if #above > 0 then ctx:move(reversed(above), "deck", { player = p, position = "top", reason = "arrange" }) end
  if #below > 0 then ctx:move(reversed(below), "deck", { player = p, position = "bottom", reason = "arrange" }) end
  return above, below
end

--- Trashes the top n (default 1; or `up_to(n)`) cards of your deck, one at a time; fewer if it runs out.
function trash_deck_top(ctx, n)
  for _ = 1, OP.how_many(ctx, n, ctx:count("deck", ctx.player)) do
    local top = ctx:top("deck", ctx.player, 1)[1]
    if top == nil then return end
    OP.trash(ctx, top)
  end
end

--- Trashes the bottom card of your deck, if any.
function trash_deck_bottom(ctx)
  local bottom = ctx:cards("deck", ctx.player)[1]
  if bottom then OP.trash(ctx, bottom) end
end

-- Life (OP 3-10; 4-2: adding to Life is defined by card text) -------------------------------------

--- Adds the top n (or `up_to(n)`: the player may add fewer, none included, OP 4-8-1) cards of
--- your deck to the top of your Life cards, face "up" (OP 3-10-2-1: a public card then) or
--- "down" (default).
function add_life_from_deck(ctx, n, face)
  for _ = 1, OP.how_many(ctx, n, ctx:count("deck", ctx.player)) do
    local top = ctx:top("deck", ctx.player, 1)[1]
    if top == nil then return end
    ctx:move(top, "life", { player = ctx.player, position = "top", face = face or "down", reason = "add_life" })
  end
end

--- Adds the top n (or `up_to(n)`) of your Life cards to your hand: not damage, so no [Trigger]
--- (OP 4-6-3).
function take_life(ctx, n)
  for _ = 1, OP.how_many(ctx, n, life_count(ctx)) do
    local top = ctx:top("life", ctx.player, 1)[1]
    if top == nil then return end
    ctx:move(top, "hand", { player = ctx.player, reason = "take_life" })
  end
end

-- DON!! (OP 3-3, 3-9, 6-5-5) ---------------------------------------------------------------------

--- Adds n DON!! (or `up_to(n)`) from your DON!! deck to your cost area, "active" or "rested";
--- fewer when the DON!! deck runs out.
function add_don(ctx, n, orientation)
  for _ = 1, OP.how_many(ctx, n, ctx:count("don_deck", ctx.player)) do
    local top = ctx:top("don_deck", ctx.player, 1)[1]
    if top == nil then return end
    ctx:move(top, "cost", { player = ctx.player, orientation = orientation or "rested", reason = "add_don" })
  end
end

--- Gives n DON!! (or `up_to(n)`) to your Leader or Character `target` (attached: +1000 each on your turn,
--- OP 6-5-5-2). opts.from: "rested" (default: rested DON!! of your cost area) or "don_deck".
function give_don(ctx, target, n, opts)
  if target == nil then return 0 end
  local from = (opts or {}).from or "rested"
  local have = from == "don_deck" and ctx:count("don_deck", ctx.player) or #OP.rested_don(ctx, ctx.player)
  local given = 0
  for _ = 1, OP.how_many(ctx, n, have) do
    local d
    if from == "don_deck" then
      d = ctx:top("don_deck", ctx.player, 1)[1]
    else
      d = OP.rested_don(ctx, ctx.player)[1]
    end
    if d == nil then break end
    ctx:attach(d, target, { reason = "give_don" })
    given = given + 1
  end
  return given
end

--- Sets n (or `up_to(n)`) of your rested DON!! (cost area) as active; fewer when fewer are rested.
function set_don_active(ctx, n)
  local rested = OP.rested_don(ctx, ctx.player)
  for i = 1, math.min(OP.how_many(ctx, n, #rested), #rested) do ctx:set_orientation(rested[i], "active", "effect") end
end

-- Costs (OP 8-3-1): {name, can_pay(ctx), pay(ctx) -> bool}; the constructors of cards.lua turn
-- a cost into the ability's `cost` and add `can_pay` to its conditions (8-3-1-3). -------------

Cost = {}

--- What a cost uses up, by kind: how many the player has now (OP 8-3-1-3: the costs of one
--- activation are payable together only if, per kind, they need no more than there is).
Cost.HAVE = {
  active_don = function(ctx) return OP.active_don_count(ctx, ctx.player) end,
  field_don = function(ctx) return #OP.field_don(ctx, ctx.player) end,
  active_self = function(ctx) return ctx.source.orientation == "active" and 1 or 0 end,
  hand = function(ctx) return #ctx:cards("hand", ctx.player) end,
  life = function(ctx) return life_count(ctx) end,
}

--- Kinds whose cards differ, so a filtered cost takes particular ones: the cards on offer.
Cost.CARDS = {
  hand = function(ctx) return ctx:cards("hand", ctx.player) end,
  field_don = function(ctx) return OP.field_don(ctx, ctx.player) end,
}

--- Kinds that draw on the cards of another kind (`pool`), each card fitting only if `fits`:
--- a ① rests an active DON!! of the cost area, which a DON!! −1 could return as well, so one
--- DON!! cannot pay both (OP 8-3-1-3).
Cost.SHARED = {
  active_don = { pool = "field_don", fits = function(c) return c.zone == "cost" and c.orientation == "active" end },
}

-- `needs`: {kind = n} of Cost.HAVE, what paying it uses up (summed by Cost.payable_together);
-- `filters`: {kind = f} when only cards passing `f` will do (Cost.CARDS kinds). Every cost
-- made here can pay (`can_pay`) only when the player has what it needs (`alone`): alone, it
-- needs no other test.
local function cost(name, can_pay, pay, needs, filters)
  return { name = name, can_pay = can_pay, pay = pay, needs = needs or {}, filters = filters or {}, alone = true }
end

-- The single costs inside `costs` (a Cost.all is its parts).
local function flatten(costs, out)
  out = out or {}
  for _, c in pairs(costs) do
    if c.parts then flatten(c.parts, out) else out[#out + 1] = c end
  end
  return out
end

-- Whether every slot (a filter) gets a card of its own that passes it: a bipartite matching
-- by augmenting paths (a hand is small).
local function matchable(slots, cards)
  local owner = {} -- card index -> slot index
  local function place(s, seen)
    for i, c in ipairs(cards) do
      if not seen[i] and slots[s](c) then
        seen[i] = true
        if owner[i] == nil or place(owner[i], seen) then
          owner[i] = s
          return true
        end
      end
    end
    return false
  end
  for s = 1, #slots do
    if not place(s, {}) then return false end
  end
  return true
end

--- Whether costs (nil entries skipped) can be paid together (OP 8-3-1-3): each one alone,
--- their needs summed per kind (two "trash 1 card from your hand" need 2 cards), and where a
--- cost wants particular cards ("trash 1 {Type} card"), a different card for each.
function Cost.payable_together(ctx, costs)
  -- The common case, one cost of this file (Cost.all checks its parts together itself).
  local only = costs[1]
  if only and costs[2] == nil and only.alone then return only.can_pay(ctx) end
  local sum, slots, filtered = {}, {}, {}
  for _, c in ipairs(flatten(costs)) do
    if not c.can_pay(ctx) then return false end
    for k, n in pairs(c.needs) do
      sum[k] = (sum[k] or 0) + n
      slots[k] = slots[k] or {}
      local f = c.filters[k]
      if f then filtered[k] = true end
      for _ = 1, n do slots[k][#slots[k] + 1] = f or F.any end
    end
  end
  for k, n in pairs(sum) do
    if Cost.HAVE[k](ctx) < n then return false end
  end
  -- Where costs want particular cards, or kinds draw on the same cards, each slot needs a
  -- card of its own: one matching per pool of cards.
  local pools = {}
  for k in pairs(sum) do
    local shared = Cost.SHARED[k]
    local name = shared and shared.pool or k
    local pool = pools[name] or { slots = {}, matched = false }
    pools[name] = pool
    pool.matched = pool.matched or filtered[k] or shared ~= nil
    for _, f in ipairs(slots[k]) do
      pool.slots[#pool.slots + 1] = shared and function(c) return shared.fits(c) and f(c) end or f
    end
  end
  for name, pool in pairs(pools) do
    if pool.matched and not matchable(pool.slots, Cost.CARDS[name](ctx)) then return false end
  end
  return true
end

--- ①②...: rest n active DON!! of your cost area (OP 8-3-1-5).
function Cost.don(n)
  return cost("(" .. n .. ")", function(ctx) return OP.active_don_count(ctx, ctx.player) >= n end,
    function(ctx) return OP.pay_don(ctx, ctx.player, n) end, { active_don = n })
end

--- DON!! −n: return n DON!! of your field to your DON!! deck (OP 8-3-1-6, 10-2-10).
function Cost.don_minus(n)
  return cost("DON!! -" .. n, function(ctx) return #OP.field_don(ctx, ctx.player) >= n end,
    function(ctx) return OP.return_don(ctx, ctx.player, n) end, { field_don = n })
end

--- "Rest this card" (OP 8-3-1; an active card only, 1-3-2-1).
function Cost.rest_self()
  return cost("rest this", function(ctx) return ctx.source.orientation == "active" end,
    function(ctx)
      ctx:set_orientation(ctx.source, "rested", "cost")
      return true
    end, { active_self = 1 })
end

--- "Trash n cards [f] from your hand" (OP 10-2-14).
function Cost.trash_from_hand(n, f)
  n = n or 1
  local function cands(ctx) return util.filter(ctx:cards("hand", ctx.player), function(c) return (f or F.any)(c) end) end
  return cost("trash " .. n .. " from hand", function(ctx) return #cands(ctx) >= n end,
    function(ctx) return trash_from_hand(ctx, n, f) == n end, { hand = n }, { hand = f })
end

--- "Add n cards from the top of your Life cards to your hand".
function Cost.take_life(n)
  n = n or 1
  return cost("life -" .. n, function(ctx) return life_count(ctx) >= n end,
    function(ctx) take_life(ctx, n) return true end, { life = n })
end

--- Several costs, paid in written order (OP 8-3-1-1); stops at the first that fails (8-3-1-3-1).
function Cost.all(...)
  local parts = { ... }
  local names = util.map(parts, function(c) return c.name end)
  local all = cost(table.concat(names, " + "),
    function(ctx) return Cost.payable_together(ctx, parts) end, -- OP 8-3-1-3
    function(ctx)
      for _, c in ipairs(parts) do
        if not c.pay(ctx) then return false end
      end
      return true
    end)
  all.parts = parts -- Cost.payable_together looks at each part
  return all
end

-- Events for on_event{} ("when ..." texts without a keyword, OP 8-1-3-1-1) ----------------------

Happened = {}

--- "When a DON!! card on your field is returned to your DON!! deck" (DON!! −N, OP 10-2-10-1).
function Happened.don_returned(ctx, ev)
  return ev.to == "don_deck" and ev.to_player == ctx.player and ev.reason == "don_minus"
end

--- "When a card is placed in a trash from a deck" (either player's; `yours`: your trash only).
function Happened.deck_to_trash(ctx, ev, yours)
  return ev.from == "deck" and ev.to == "trash" and (not yours or ev.to_player == ctx.player)
end

--- "When a card is placed in your deck from your trash".
function Happened.trash_to_your_deck(ctx, ev)
  return ev.from == "trash" and ev.to == "deck" and ev.to_player == ctx.player
end

--- "When your opponent's Character is K.O.'d" (OP 10-2-1).
function Happened.opponent_character_ko(ctx, ev)
  return ev.reason == "ko" and ev.from == "character" and ev.from_player ~= ctx.player
end

-- What the kernel can test of each event above before any Lua runs (an on_event's `match`):
-- a part of the function's own test, so a move that cannot pass costs no call into Lua. The
-- function still decides.
Happened.MATCH = {
  [Happened.don_returned] = { to = "don_deck", reason = "don_minus" },
  [Happened.deck_to_trash] = { from = "deck", to = "trash" },
  [Happened.trash_to_your_deck] = { from = "trash", to = "deck" },
  [Happened.opponent_character_ko] = { from = "character", reason = "ko" },
}

--- "When this Character is K.O.'d by your opponent's effect" (OP 10-2-1; an "instead" counts as
--- its owner's effect, 8-1-3-4-7): for on_ko, whose ctx.event is the K.O.
function Happened.ko_by_opponent(ctx, ev)
  return ev ~= nil and ev.reason == "ko" and ev.player ~= nil and ev.player ~= ctx.player
end

-- Choices of both players, Events activated by effects ---------------------------------------

--- OP 1-3-4: a choice both players make "at the same time": the turn player chooses first,
--- then the other. `choose(pctx, p)` makes player p's choice (pctx.player is p). Returns the
--- choices by player.
function each_player_chooses(ctx, choose)
  local out = {}
  for _, p in ipairs(ctx:turn_order()) do out[p] = choose(ctx:with({ player = p }), p) end
  return out
end

--- Activates Event `card`'s [Main] or [Counter] ability by an effect (OP 10-2-3-1-1,
--- 10-2-4-1-1): its printed cost is not paid; from the hand it is revealed and goes to the trash
--- first, as a used Event would (2-7-3); a resolving [Trigger] card stays where it is. Only the
--- timing named runs (10-2-4-1-2). Returns whether it resolved.
function activate_event(ctx, card, timing)
  if card == nil or card.category ~= "event" then return false end
  local ab = OP.event_ability(ctx, card, timing)
  if ab == nil then return false end
  local src = card
  if card.zone == "hand" then
    ctx:reveal(card)
    src = OP.trash(ctx, card, "activate")
  end
  return OP.activate(ctx:with({ source = src }), { source = src, def = ab.def, key = ab.key }, {})
end

--- "Activate the [Counter] of `card`" (OP 10-2-4-1-1): the only way besides the Counter Step.
function activate_counter(ctx, card) return activate_event(ctx, card, "counter") end
--- "Activate the [Main] of `card`" (OP 10-2-3-1-1); never its [Counter] (10-2-4-1-2).
function activate_main_of(ctx, card) return activate_event(ctx, card, "main") end
