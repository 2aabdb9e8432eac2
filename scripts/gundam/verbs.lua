-- Card verbs: what card scripts say, on top of lib.lua. Rules: GD 5 (terms: deal damage,
-- recover, destroy, discard, remove, draw, shuffle, tokens), 10-3-3 (choosing), 10-3-5 (deck
-- search), durations (7-6-6-1, 8-6-1). Every verb takes `ctx` first and accepts nil (nothing
-- chosen), one card or a list of cards.

-- Filters ---------------------------------------------------------------------------------------
-- A filter is a named predicate on a card, `f(card) -> bool`; `tostring(f)` is its name, shown
-- in the prompt of a choice (`pick: <name>`). Compose with `*` (and), `+` (or, GD 5-19 "/")
-- and `-f` (not): `F.unit * F.rested * F.ap_max(3)` reads "Unit & rested & AP<=3".

-- (`filter` and the operators: scripts/lib/filter.lua.)

F = {}
F.any = filter("any card", function() return true end)
F.unit = filter("Unit", function(c) return c.category == "unit" end)          -- GD 3-2
F.pilot = filter("Pilot", function(c) return c.category == "pilot" end)       -- GD 3-3
F.command = filter("Command", function(c) return c.category == "command" end) -- GD 3-4
F.base = filter("Base", function(c) return c.category == "base" end)          -- GD 3-5
F.active = filter("active", function(c) return c.orientation == "active" end) -- GD 5-4
F.rested = filter("rested", function(c) return c.orientation == "rested" end)
F.damaged = filter("damaged", function(c) return GD.damaged(c) end)           -- GD 5-6-3
F.paired = filter("paired", function(c) return #c.attachments > 0 end)        -- GD 3-3
F.unpaired = filter("unpaired", function(c) return #c.attachments == 0 end)
F.link = filter("Link Unit", function(c) return GD.is_link(c) end)            -- GD 3-2-6-2
F.token = filter("token", function(c) return c.token end)                     -- GD 5-17
F.resource = filter("Resource", function(c) return c.category == "resource" end) -- GD 3-6
F.ex_resource = filter("EX Resource", function(c) return GD.is_ex_resource(c) end) -- GD 5-17-3-2
--- Has trait `t` (GD 2-5; text writes it 〔t〕).
function F.trait(t) return filter("(" .. t .. ")", function(c) return c:has("traits", t) end) end
--- Is named `n` (GD 2-2-2: text writes it “n”).
function F.named(n) return filter("\"" .. n .. "\"", function(c) return c:has("names", n) end) end
--- Its name includes `s` (GD 2-2-3).
function F.name_has(s)
  return filter("name with \"" .. s .. "\"", function(c)
    for _, n in ipairs(c.names) do
      if string.find(n, s, 1, true) then return true end
    end
    return false
  end)
end
function F.color(col) return filter(col, function(c) return c:has("colors", col) end) end
function F.keyword(k) return filter("<" .. k .. ">", function(c) return c:has("keywords", k) or (c[k] or 0) > 0 end) end
function F.ap_max(n) return filter("AP<=" .. n, function(c) return c.ap <= n end) end
function F.ap_min(n) return filter("AP>=" .. n, function(c) return c.ap >= n end) end
function F.hp_max(n) return filter("HP<=" .. n, function(c) return c.hp <= n end) end
function F.lv_max(n) return filter("Lv<=" .. n, function(c) return c.lv <= n end) end
function F.cost_max(n) return filter("cost<=" .. n, function(c) return c.cost <= n end) end

-- Choosing (GD 10-3-3: on resolution; no target, nothing happens: 10-3-3-1) -------------------------

--- Up to `opts.max` (default 1) cards of `pool` that pass `f`, chosen by the ability's player
--- (docs/rulings 10-3-3: "choose up to N" may choose none; `opts.min` makes some compulsory).
--- The prompt is `pick: <f's name>`, or opts.prompt. Returns a card or nil when max is 1, else
--- a list.
function choose_from(ctx, pool, f, opts)
  opts = opts or {}
  f = f or F.any
  local cands = util.filter(pool, function(c) return f(c) end)
  return ctx:choose_cards(opts.player or ctx.player, cands,
    { min = opts.min or 0, max = opts.max or 1, prompt = opts.prompt or ("pick: " .. tostring(f)) })
end

--- "Choose 1 enemy unit [f]" (GD 12-2-6: every opponent's).
function pick_enemy_unit(ctx, f, opts) return choose_from(ctx, GD.enemy_units(ctx, ctx.player), f, opts) end
--- "Choose 1 friendly unit [f]" (GD 12-3-10: a teammate's too).
function pick_friendly_unit(ctx, f, opts) return choose_from(ctx, GD.friendly_units(ctx, ctx.player), f, opts) end
--- "Choose 1 of your units [f]" (GD 12-3-11: "your own" is the owner only).
function pick_your_unit(ctx, f, opts) return choose_from(ctx, GD.units(ctx, ctx.player), f, opts) end
--- "Choose 1 unit [f]": anyone's.
function pick_any_unit(ctx, f, opts) return choose_from(ctx, GD.units_of(ctx, ctx:turn_order()), f, opts) end
--- Your resources (a Resource card or an EX Resource, active or rested) passing `f`; of
--- player `p` if given (GD 3-6, 2-9-4).
function resources(ctx, f, p)
  return util.filter(ctx:cards("resource_area", p or ctx.player), function(c) return (f or F.any)(c) end)
end
--- How many resources pass `f` ("if you have 5 or more rested resources").
function resource_count(ctx, f, p) return #resources(ctx, f, p) end
--- "Choose 1 of your (rested...) resources [f]"; `opts.of = p`: player p's (an enemy's).
function pick_resource(ctx, f, opts)
  return choose_from(ctx, ctx:cards("resource_area", (opts or {}).of or ctx.player), f, opts)
end
--- "Choose 1 card [f] from your <zone>" (hand, trash...).
--- Searching your deck, you look at it first: the choice shows you the cards (a pick among
--- cards you cannot see is blind); the shuffle that follows a search hides them again.
function pick_in(ctx, zone, f, opts)
  local pool = ctx:cards(zone, ctx.player)
  if zone == "deck" then ctx:look(pool, ctx.player) end
  return choose_from(ctx, pool, f, opts)
end

--- "This unit" (GD 3-3-9-2: a Pilot's text speaks of its Unit).
function this_unit(ctx) return GD.this_unit(ctx) end
--- The battle going on, or nil (battle.lua: {attacker, target, attacked, defender, blocker}).
function current_battle(ctx) return GD.current_battle(ctx) end
--- The unit attacking now, or nil.
function attacking_unit(ctx)
  local b = GD.current_battle(ctx)
  return b and b.attacker
end
--- Whether `p` (default: the ability's player) has the turn (GD 5-3; a team's: 12-3-1).
function my_turn(ctx, p) return GD.my_turn(ctx, p) end
--- A player's Lv. (GD 2-9-4).
function level(ctx, p) return GD.level(ctx, p or ctx.player) end

-- Durations ----------------------------------------------------------------------------------------

local LASTS = {
  -- GD 8-6-1: "during this battle" ends at the battle's end.
  battle = function(ctx) return { ["until"] = "this_battle", player = ctx.player } end,
  -- GD 7-6-6-1: "during this turn" ends in the Cleanup Step.
  turn = function(ctx) return { ["until"] = "this_turn", player = ctx.player } end,
}
-- game.yaml's names for them (docs/reference/gundam.md) are accepted too.
LASTS.this_battle, LASTS.this_turn = LASTS.battle, LASTS.turn

--- A duration name as a kernel duration: "battle" (or "this_battle"), "turn" (or
--- "this_turn"), or nil (while the card stays on the field).
function lasts(ctx, name)
  if name == nil then return nil end
  local d = LASTS[name]
  if d == nil then error("unknown duration '" .. tostring(name) .. "' (battle, turn)", 2) end
  return d(ctx)
end

-- Continuous changes ---------------------------------------------------------------------------------

local function modify(ctx, cards, spec, duration)
  local list = util.filter(GD.list(cards), function(c) return c.alive end)
  if #list == 0 then return end
  -- GD 8-2-3, 8-6-1: "during this battle" lasts from the Attack Step to Battle End; outside a
  -- battle (an End Phase action step) there is no battle for it to last, so nothing happens
  -- (1-3-2), rather than lasting until some later battle ends.
  if duration == "battle" and GD.current_battle(ctx) == nil then return end
  ctx:modify(list, spec, lasts(ctx, duration))
end

--- "AP+N" (negative: −N) for a duration ("turn", "battle"; nil: while it stays). The sum may go
--- below 0; the value reads 0 at least (GD 1-3-6).
function give_ap(ctx, cards, n, duration) modify(ctx, cards, { char = "ap", op = "add", value = n }, duration) end
--- "HP+N" (negative: −N). A unit whose damage then reaches its HP is destroyed (11-3).
function give_hp(ctx, cards, n, duration) modify(ctx, cards, { char = "hp", op = "add", value = n }, duration) end
--- "Costs N more" (negative: "N less") for a duration: cards in the hand, usually. A cost
--- reads 0 at least (GD 2-10).
function give_cost(ctx, cards, n, duration) modify(ctx, cards, { char = "cost", op = "add", value = n }, duration) end
--- Grants a keyword that does not add up (blocker, first_strike, high_maneuver,
--- suppression) or a prohibition (cannot_attack, cannot_block...) for a duration (GD 1-3-3).
function grant(ctx, cards, keyword, duration) modify(ctx, cards, { char = "keywords", op = "grant", value = keyword }, duration) end
--- Grants 〈Repair N〉, 〈Breach N〉 or 〈Support N〉 for a duration: values add up (13-1-1-2).
function grant_value(ctx, cards, keyword, n, duration) modify(ctx, cards, { char = keyword, op = "add", value = n }, duration) end

-- One-shot verbs -----------------------------------------------------------------------------------

--- Deals N effect damage (GD 5-5-4) to each card, all at once: "deal 2 damage to each enemy
--- unit" is one event, so the units it destroys are destroyed together (one batch of
--- triggers: 10-1-6-3). Returns how many took damage.
function deal_damage(ctx, cards, n) return GD.deal_damage_all(ctx, GD.list(cards), n, "effect") end

--- Deals N effect damage to the first card of player `p`'s Shield Area: their Base, else
--- their top shield (GD 3-5-3, 5-5-6). Returns the card hit, or nil.
function damage_shield_area(ctx, p, n) return GD.damage_shield_area(ctx, p, n, "effect") end

--- "Deal N damage to the enemy player" (GD 5-5-4: effect damage to a player): it hits the
--- first card of their Shield Area (their Base, else their top shield: 3-5-3, 5-5-6); with
--- the Shield Area empty it hits nothing, nobody loses (1-2-2-1: only a Unit's battle
--- damage), and the event `damage_to_empty_shield_area` says so. Returns the card hit, or nil.
function damage_player(ctx, p, n) return GD.damage_shield_area(ctx, p, n, "effect") end

--- Destroys cards (GD 5-10; a shield goes through its 【Burst】: 5-10-3). Returns how many.
function destroy(ctx, cards) return GD.destroy(ctx, cards) end

--- Recovers N HP of each card (GD 5-6; a card with no damage does not recover: 5-6-3).
function recover(ctx, cards, n)
  for _, c in ipairs(GD.list(cards)) do GD.recover(ctx, c, n) end
end

--- Rests cards (GD 5-4; resting a rested card does nothing: 1-3-2-1).
function rest(ctx, cards)
  for _, c in ipairs(GD.list(cards)) do ctx:set_orientation(c, "rested", "effect") end
end

--- Sets cards active.
function set_active(ctx, cards)
  for _, c in ipairs(GD.list(cards)) do ctx:set_orientation(c, "active", "effect") end
end

--- Returns cards on the field to their owner's hand (its Pilot goes along: 3-3-6; a token
--- ceases to exist there: 5-17-2-5).
--- A card a prohibition keeps where it is stays (GD 1-3-3, prohibitions.lua `cannot_be_returned`).
function return_to_hand(ctx, cards)
  for _, c in ipairs(GD.list(cards)) do
    if GD.may_move(ctx, c, "hand") then ctx:move(c, "hand", { player = c.owner, reason = "return" }) end
  end
end

--- Removes cards to their owner's Removal Area (GD 5-12): not destroyed (5-12-2).
function remove(ctx, cards)
  for _, c in ipairs(GD.list(cards)) do ctx:move(c, "removal", { player = c.owner, reason = "remove", face = "up" }) end
end

--- Draws N cards (GD 5-14); an empty deck loses at once (11-2-1-2). Returns how many.
function draw(ctx, n)
  local k = 0
  for _ = 1, n or 1 do
    if GD.draw_one(ctx, ctx.player) == nil then break end
    k = k + 1
  end
  return k
end

--- "Each player draws N cards" (GD 5-14): one simultaneous draw, every player in turn order,
--- in one `ctx:together` group: rule processing sees the whole draw, so when it empties several
--- decks those players lose at once (11-2-1, 1-2-2-2), a draw when none is left standing.
function each_player_draws(ctx, n)
  ctx:together(function(ctx)
    for _ = 1, n or 1 do
      for _, p in ipairs(ctx:turn_order()) do GD.draw_one(ctx, p) end
    end
  end)
end

--- Discards N cards of your choice (passing `f`) from your hand (GD 5-11): as many as you
--- have. Returns how many.
function discard(ctx, n, f) return GD.discard(ctx, ctx.player, n, f) end

--- "Choose 1 enemy player. They discard N" (GD 5-11): player `p` (default: your opponent,
--- with two players) discards N cards of their own choice from their hand. The effect stays
--- yours (events name you). Returns how many.
function opponent_discards(ctx, n, f, p) return GD.discard(ctx, p or GD.opponents(ctx)[1], n, f) end

--- Player `p` discards N cards passing `f`, chosen by them (GD 5-11): as many as they have.
function GD.discard(ctx, p, n, f)
  local cands = util.filter(ctx:cards("hand", p), function(c) return (f or F.any)(c) end)
  n = math.min(n or 1, #cands)
  if n == 0 then return 0 end
  local chosen = GD.list(ctx:choose_cards(p, cands, { min = n, max = n, prompt = "pick: discard" }))
  ctx:move(chosen, "trash", { reason = "discard" })
  return #chosen
end

--- Adds cards to your hand from a zone you see (the trash) or, revealed, from a closed one.
function add_to_hand(ctx, cards)
  local list = GD.list(cards)
  if #list == 0 then return end
  if list[1].zone == "deck" then ctx:reveal(list) end
  ctx:move(list, "hand", { player = ctx.player, reason = "add" })
end

--- "Look at the top N cards of your deck; you may reveal 1 card [f] among them and add it to
--- your hand; place the rest at the bottom of your deck in any order" (GD 10-3-5, 4-1-7).
--- Returns the card added, or nil.
function search_top(ctx, n, f)
  local p = ctx.player
  local top = ctx:top("deck", p, n)
  if #top == 0 then return nil end
  ctx:look(top, p)
  local picked = choose_from(ctx, top, f, { prompt = "search: " .. tostring(f or F.any) })
  if picked then
    ctx:reveal(picked)
    ctx:move(picked, "hand", { player = p, reason = "search" })
  end
  -- You still see the rest while you order them (4-1-7); moving them hides them again.
  to_deck_bottom(ctx, util.filter(top, function(c) return c.alive end))
  return picked
end

--- Places cards at the bottom of their owner's deck in the order the owner chooses, bottom
--- card first; the others do not learn it (GD 4-1-7).
--- A card a prohibition keeps where it is stays (GD 1-3-3).
function to_deck_bottom(ctx, cards)
  local left, picked = util.filter(GD.list(cards), function(c) return c.alive and GD.may_move(ctx, c, "deck") end), {}
  if #left == 0 then return end
  while #left > 1 do
    local c = ctx:choose_cards(left[1].owner, left, { min = 1, max = 1, prompt = "bottom_order" })
    picked[#picked + 1] = c
    left = util.filter(left, function(x) return x ~= c end)
  end
  picked[#picked + 1] = left[1]
  local order = {}
  for i = #picked, 1, -1 do order[#order + 1] = picked[i] end
  ctx:move(order, "deck", { position = "bottom", reason = "to_deck" })
end

--- Deploys a unit token (a token card id of the sets, GD 5-17-1) for the ability's player,
--- active unless opts.rested; 【Deploy】 and "when deployed" effects see it (5-8). With 6
--- units already, one of them goes to the trash first (11-4-2). Returns the token.
function deploy_token(ctx, id, opts)
  opts = opts or {}
  local p = opts.player or ctx.player
  if ctx:count("battle_area", p) >= 6 then
    local out = ctx:choose_cards(p, ctx:cards("battle_area", p), { prompt = "make_room" })
    ctx:move(out, "trash", { player = out.owner, reason = "rule" })
  end
  local t = ctx:create_token(id, "battle_area", p)
  if t == nil then return nil end
  if opts.rested then ctx:set_orientation(t, "rested", "effect") end
  ctx:emit("deployed", { card = t, player = p })
  return t
end

--- Deploys a Unit or Base card from where it is (hand, trash, a 【Burst】's card in no area...)
--- without paying its cost (GD 5-8: deployed by an effect): a Unit into your Battle Area
--- (with 6 there, one goes first: 11-4-2), a Base into your Base Section (the Base there goes
--- first: 11-5-2). Anything else is not deployed. Returns the card deployed, or nil.
function deploy_card(ctx, c, opts)
  if c == nil then return nil end
  if c.category == "base" then return GD.deploy_base(ctx, c, ctx.player) end
  if c.category ~= "unit" then return nil end
  return GD.deploy(ctx, c, ctx.player, opts)
end

--- Places an EX Resource in your Resource Area (GD 5-17-3-2): none beyond 5 EX Resources, nor
--- beyond 15 resources (4-4-2, 4-4-2-1). Returns it, or nil.
function place_ex_resource(ctx)
  local p = ctx.player
  local ex = util.filter(ctx:cards("resource_area", p), GD.is_ex_resource)
  if #ex >= 5 or ctx:count("resource_area", p) >= 15 then return nil end
  return ctx:create_token(GD.EX_RESOURCE, "resource_area", p)
end

--- Places the top card of your resource deck in your Resource Area, active (GD 3-6-1).
function place_resource(ctx) return GD.place_resource(ctx, ctx.player) end

--- Adds your top shield to your hand (GD 12-3-8: not destroyed, so no 【Burst】). Returns it.
function shield_to_hand(ctx)
  local s = GD.top_shield(ctx, ctx.player)
  if s == nil then return nil end
  return ctx:move(s, "hand", { player = s.owner, reason = "shield_to_hand" })[1]
end

--- Places the top card of your deck on top of your shields, face down (GD 4-6-4).
function add_shield(ctx)
  local top = ctx:top("deck", ctx.player, 1)[1]
  if top == nil then return nil end
  return ctx:move(top, "shields", { player = ctx.player, reason = "add_shield", face = "down" })[1]
end

--- Pairs a Pilot card from where it is (hand, trash...) with unit `u` without paying its cost
--- (GD 5-9: paired by an effect). Returns the pilot.
function pair_card(ctx, c, u)
  if c == nil or u == nil then return nil end
  return GD.pair(ctx, c, u)
end

-- Counting ---------------------------------------------------------------------------------------

--- Cards in a player's hand (default: yours).
function hand_count(ctx, p) return ctx:count("hand", p or ctx.player) end
--- Shields in a player's Shield Area.
function shield_count(ctx, p) return ctx:count("shields", p or ctx.player) end
