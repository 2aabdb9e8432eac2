-- Card verbs: what card scripts say, on top of lib.lua and the procedures. Rules: SM 602 (Effects:
-- durations, Changing Power), 700-712 (zone changes, Curses, effects acting as commands,
-- choosing), the glossary's verbs (Draw, Destroy, Discard, Remove, Sacrifice, Control,
-- Purified, Move Curse, free cast; Steal, Vanish, Fortune, free attack and more are in their own files). Every verb takes `ctx` first and accepts nil
-- (nothing chosen), one card or a list of cards.

-- Filters ----------------------------------------------------------------------------------------
-- A filter is a named predicate on a card (scripts/lib/filter.lua): compose with `*` (and), `+`
-- (or) and `-f` (not): `F.seal * F.element("fire") * F.at_max(3)` reads "Seal & fire & At<=3".

F = {}
F.any = filter("any card", function() return true end)
F.seal = filter("Seal", function(c) return c.category == "seal" end)                  -- SM 200
F.mystic = filter("Mystic", function(c) return c.category == "mystic" end)            -- SM 201
F.active = filter("Active", function(c) return c.orientation == "active" end)         -- Gl: Active Seal
F.inactive = filter("Inactive", function(c) return c.orientation == "inactive" end)
F.at_line = filter("in the At Line", function(c) return c.zone == "at_line" end)       -- SM 303.2.1
F.df_line = filter("in the Df Line", function(c) return c.zone == "df_line" end)       -- SM 303.2.2
F.combined = filter("combined", function(c) return SM.combined(c) end)                 -- SM 508.4
F.cursed = filter("cursed", function(c) return SM.cursed(c) end)                       -- SM 709
--- Has element `e` (SM 200.3; the Multi Element symbol has them all, 200.3.4).
function F.element(e)
  return filter(e, function(c) return c:has("elements", e) or c:has("elements", "multi") end)
end
--- Of race `r` (SM 200.4).
function F.race(r) return filter(r, function(c) return c:has("races", r) end) end
--- Named `n` (SM 200.2; Shade of <name> counts, 200.20).
function F.named(n) return filter("\"" .. n .. "\"", function(c) return c:has("names", n) end) end
--- Part of its name is `s` (Gl: N[]).
function F.name_has(s)
  return filter("N[" .. s .. "]", function(c)
    for _, n in ipairs(c.names) do
      if string.find(string.lower(n), string.lower(s), 1, true) then return true end
    end
    return false
  end)
end
function F.level_max(n) return filter("Lv<=" .. n, function(c) return c.level <= n end) end
function F.at_max(n) return filter("At<=" .. n, function(c) return c.at <= n end) end
function F.at_min(n) return filter("At>=" .. n, function(c) return c.at >= n end) end
--- Has a printed Df (Gl: คำ -: a card with "-" has no such value and is no target of what needs it).
F.has_df = filter("with a Df", function(c) return c:printed("df") ~= nil end)
--- Not being destroyed (SM 701.1) nor a battle's loser (713.1): what a destruction, or a sending
--- to the Shrine, may target (`destroys = true` in an ability, `choose_from`'s `opts.destroys`).
F.destroyable = filter("not being destroyed", function(c) return not c:flag_on("destroyed") and not c:flag_on("loser") end)
--- Mystic type `t` (SM 201.3).
function F.mystic_type(t) return filter("[" .. t .. "]", function(c) return c:has("mystic_types", t) end) end

-- Reading the game ---------------------------------------------------------------------------------

--- "This Seal": the card whose ability it is, or the card a pasted Mystic Card is on (Gl: Pasted).
function this_seal(ctx) return SM.bearer(ctx.source) end
--- The player's opponent (Gl: ฝ่ายตรงข้าม).
function opponent(ctx) return SM.other(ctx.player) end
--- Seals of a player in the Arena (default: yours), each combination once (SM 509.2).
function seals(ctx, p) return SM.seals(ctx, p or ctx.player) end
--- The opponent's Seals.
function opponent_seals(ctx) return SM.seals(ctx, SM.other(ctx.player)) end
--- Every Seal in the Arena.
function all_seals(ctx) return SM.all_seals(ctx) end
--- The attack going on now, or nil: {attacker, target, targets, mode, player} (attack.lua).
function current_attack(ctx) return ctx:running("attack") end
--- Cards in a player's hand.
function hand_count(ctx, p) return ctx:count("hand", p or ctx.player) end
--- A player's Mp.
function mp(ctx, p) return SM.mp(ctx, p or ctx.player) end
--- A player's Shrine Level (SM 103.2).
function shrine_level(ctx, p) return SM.shrine_level(ctx, p or ctx.player) end

-- Choosing (SM 711) --------------------------------------------------------------------------------

--- Up to `opts.max` (default 1) cards of `pool` that pass `f`, chosen by the ability's player
--- (`opts.min` makes some compulsory); `opts.destroys`: the cards are chosen to be destroyed or
--- sent to the Shrine (SM 701.1, 713.1: not one being destroyed nor a battle's loser). The prompt
--- is `pick: <f's name>`. A card or nil when max is 1, else a list.
function choose_from(ctx, pool, f, opts)
  opts = opts or {}
  f = f or F.any
  if opts.destroys then pool = those(pool, F.destroyable) end
  -- Gl: Protect: a card protected from what acts is no target of it.
  local cands = util.filter(pool, function(c) return f(c) and SM.may_target(ctx, c) end)
  return ctx:choose_cards(opts.player or ctx.player, cands,
    { min = opts.min or 0, max = opts.max or 1, prompt = opts.prompt or ("pick: " .. tostring(f)) })
end
--- "Choose 1 Seal [f]" in the Arena (anyone's).
function pick_seal(ctx, f, opts) return choose_from(ctx, SM.all_seals(ctx), f, opts) end
--- "Choose 1 Seal of yours [f]".
function pick_my_seal(ctx, f, opts) return choose_from(ctx, SM.seals(ctx, ctx.player), f, opts) end
--- "Choose 1 of the opponent's Seals [f]".
function pick_opponent_seal(ctx, f, opts) return choose_from(ctx, SM.seals(ctx, SM.other(ctx.player)), f, opts) end
--- "Choose 1 card [f] from your <zone>".
--- Searching your deck, you look at it first: the choice shows you the cards (a pick among
--- cards you cannot see is blind); the shuffle that follows a search hides them again.
function pick_in(ctx, zone, f, opts)
  local pool = ctx:cards(zone, ctx.player)
  if zone == "deck" then ctx:look(pool, ctx.player) end
  return choose_from(ctx, pool, f, opts)
end
--- For a `target` function: the cards of `pool` passing `f`.
function those(pool, f) return util.filter(pool, function(c) return f(c) end) end

-- Durations (SM 401.9.5, 401.9.6) ---------------------------------------------------------------------

--- A duration as a kernel duration: "subturn" (until the end of the Subturn, 401.9.5), "command"
--- (during this command), {turns = N} (N Turns: 2N Subturns, docs/rulings A.5), or nil (while the
--- card stays in the Arena).
function lasts(ctx, d)
  if d == nil then return nil end
  if d == "subturn" then return { ["until"] = "end_of_subturn" } end
  if d == "command" then return { ["until"] = "end_of_command" } end
  if type(d) == "table" and type(d.turns) == "number" then return { ["until"] = "end_of_subturn", times = 2 * d.turns } end
  error("unknown duration '" .. tostring(d) .. "' (\"subturn\", \"command\", {turns = N})", 2)
end

-- Continuous changes (SM 602.3, 602.4) ---------------------------------------------------------------

local function modify(ctx, cards, spec, duration)
  -- Gl: Protect, Cancel: a card protected from what acts, or cancelling it, is not affected.
  local list = util.filter(SM.affected(ctx, cards), function(c) return c.alive and SM.in_field(c) end)
  if #list == 0 then return end
  ctx:modify(list, spec, SM.effect_duration(ctx, duration))
end

--- At+N (negative: -N) for a duration (SM 602.4.1; below 0 it reads 0, 200.6.2).
function give_at(ctx, cards, n, duration) modify(ctx, cards, { char = "at", op = "add", value = n }, duration) end
--- Df+N.
function give_df(ctx, cards, n, duration) modify(ctx, cards, { char = "df", op = "add", value = n }, duration) end
--- Sp+N (it reads 0 to 5, 200.8.3, 200.8.4).
function give_sp(ctx, cards, n, duration) modify(ctx, cards, { char = "sp", op = "add", value = n }, duration) end
--- Cast Mp (attack Mp) N more, negative: less, for a duration (SM 200.10.2; it reads 0 at least).
function give_cast_mp(ctx, cards, n, duration) modify(ctx, cards, { char = "cast_mp", op = "add", value = n }, duration) end
function give_attack_mp(ctx, cards, n, duration) modify(ctx, cards, { char = "attack_mp", op = "add", value = n }, duration) end
--- "At becomes N" (SM 602.3.2: setting a value).
function set_at(ctx, cards, n, duration) modify(ctx, cards, { char = "at", op = "set", value = n }, duration) end
--- Grants a keyword or a prohibition (cannot_attack...) for a duration.
function grant(ctx, cards, keyword, duration)
  modify(ctx, cards, { char = "keywords", op = "grant", value = keyword }, duration)
  if keyword == "cancel_curse" or keyword == "hyper_drive" then SM.fix_cancel(ctx) end -- Gl: Cancel (protection.lua)
end
-- SM 200.20, Gl: Shade of: which characteristic each kind of identity adds to (rules.lua reads
-- the printed `shade_of` the same way).
local SHADE = { name = "names", race = "races", element = "elements", mystic_type = "mystic_types", series = "series" }

--- The change "gains Shade of <of>": `of` is one identity, as a card's `shade_of` entry:
--- `{name = "Flame Dragon"}`, `{race = "Dragon"}`, `{element = "fire"}`, `{mystic_type = ...}`,
--- `{series = ...}`. A piece of a static ability's `modify`, or of `gain_shade`.
function shade_of(of)
  local key, value
  for k, v in pairs(type(of) == "table" and of or {}) do
    if SHADE[k] == nil or key ~= nil or type(v) ~= "string" then key = nil break end
    key, value = k, v
  end
  if key == nil then
    error("shade_of: give one identity: {name = ...}, {race = ...}, {element = ...}, {mystic_type = ...} or {series = ...}", 2)
  end
  return { char = SHADE[key], op = "grant", layer = "shade", value = value }
end

--- "<cards> gain Shade of <of> <duration>" (SM 200.20 as an effect: the card counts as having
--- that name, race, element, Mystic type or set). `of` as for `shade_of`.
function gain_shade(ctx, cards, of, duration) modify(ctx, cards, shade_of(of), duration) end

--- A player's Mp Max +N (Gl: Mp Max).
function give_mp_max(ctx, p, n, duration) ctx:modify(p, { char = "mp_max", op = "add", value = n }, lasts(ctx, duration)) end
--- A player's Shrine Max +N (Gl: Shrine Max).
function give_shrine_max(ctx, p, n, duration) ctx:modify(p, { char = "shrine_max", op = "add", value = n }, lasts(ctx, duration)) end

-- One-shot verbs ---------------------------------------------------------------------------------------

--- Gains N Mp (Gl: Mp ของผู้เล่น: a player may have more than Mp Max).
function gain_mp(ctx, n, p) ctx:add_value(p or ctx.player, "mp", n) end

--- Draws N cards from your Library `pile` ("seal_library" or "mystic_library"; default the Seal
--- Library), one at a time (Gl: Draw); an empty pile loses (SM 103.3). Returns how many.
function draw(ctx, n, pile)
  local k = 0
  for _ = 1, n or 1 do
    if SM.draw(ctx, ctx.player, pile or "seal_library") == nil then break end
    k = k + 1
  end
  return k
end

--- "Each player draws N cards" from their Library `pile` (default the Seal Library): one
--- simultaneous draw in one `ctx:together` group, so players who draw from an empty pile by it
--- lose in the same rule processing (SM 103.3, 104: a draw when both do).
function each_player_draws(ctx, n, pile)
  ctx:together(function(ctx)
    for _ = 1, n or 1 do
      for _, p in ipairs(ctx:turn_order()) do SM.draw(ctx, p, pile or "seal_library") end
    end
  end)
end

--- Destroys cards (SM 701: "when destroyed" abilities, then the Shrine through 703), together.
function destroy(ctx, cards) SM.destroy_cards(ctx, SM.affected(ctx, cards), { reason = "effect", player = ctx.player }) end

--- Sacrifice (Gl): destroys a card of the Arena you control, not one controlled from its owner
--- (the player's offering, not an effect on the card: Protect and Cancel do not stop it).
function sacrifice(ctx, cards)
  local ok = util.filter(SM.list(cards), function(c) return c.controller == ctx.player and not SM.controlled(c) end)
  SM.destroy_cards(ctx, ok, { reason = "sacrifice", player = ctx.player })
end

--- Discards N cards of your choice (passing `f`) from your hand (SM 702). Returns how many.
function discard(ctx, n, f)
  local cands = util.filter(ctx:cards("hand", ctx.player), function(c) return (f or F.any)(c) end)
  n = math.min(n or 1, #cands)
  if n == 0 then return 0 end
  local chosen = SM.list(ctx:choose_cards(ctx.player, cands, { min = n, max = n, prompt = "pick: discard" }))
  SM.discard_cards(ctx, chosen)
  return #chosen
end

--- Discards the card whose ability this is, when it is in its owner's hand (a hand Skill's own
--- card, SM 619, 702). Returns whether it was.
function discard_this(ctx)
  local c = ctx.source
  if c == nil or not c.alive or c.zone ~= "hand" then return false end
  SM.discard_cards(ctx, { c })
  return true
end

--- Puts cards into their owners' Shrines (SM 703), together.
function send_to_shrine(ctx, cards) SM.change_zone(ctx, SM.affected(ctx, cards), "shrine") end
--- Returns cards to their owners' Libraries, shuffled in (SM 704; 300.7); opts.position "top" or
--- "bottom" places them there without a shuffle.
function return_to_library(ctx, cards, opts) SM.change_zone(ctx, SM.affected(ctx, cards), "library", opts) end
--- Returns cards to their owners' hands (SM 705; an Extra Card is Removed instead, 621.6.3).
--- opts.losing: the text moves a Seal that lost its battle as such (SM 713.2's exception).
function return_to_hand(ctx, cards, opts) SM.change_zone(ctx, SM.affected(ctx, cards), "hand", opts) end
--- Removes cards from the game (SM 706, Gl: Remove); opts.losing as for `return_to_hand`.
function remove(ctx, cards, opts) SM.change_zone(ctx, SM.affected(ctx, cards), "remove", opts) end

--- Makes Seals Inactive, or Active (Gl: Inactive Seal, Active Seal).
function set_inactive(ctx, cards)
  for _, c in ipairs(SM.affected(ctx, cards)) do SM.inactivate(ctx, c) end
end
function set_active(ctx, cards)
  for _, c in ipairs(SM.affected(ctx, cards)) do
    if c.alive and c.orientation ~= "active" then ctx:set_orientation(c, "active", "effect") end
  end
end

--- Curses a Seal (SM 709.14): kind "stone", "freeze", "charm", "poison", "death", "last_dance" or
--- "dimension"; opts.turns (N Turns); opts.effects: a Last Dance's effect (709.10.1), a list of
--- plus_at(n)... that lasts as long as the Curse. A Seal with that Curse already is no target
--- (709.12).
function curse(ctx, seal, kind, opts) return SM.curse(ctx, seal, kind, opts) end
--- Cures a Seal's Curses (Gl: Purified), or only `kind`.
function cure(ctx, seal, kind)
  if seal == nil or not SM.may_affect(ctx, seal) then return 0 end
  return SM.cure(ctx, seal, kind)
end
--- Moves a Curse from one Seal to another (Gl: Move Curse).
function move_curse(ctx, from, to, kind) return SM.move_curse(ctx, from, to, kind) end
--- The kinds of the Curses on a Seal that may be moved (Gl: Move Curse: not those from Mystic Cards).
function movable_curses(ctx, seal) return SM.movable_curses(ctx, seal) end
--- For a `target` function: Seals that may take Curse `kind` (SM 709.12).
--- The default pool is every Seal of the Arena, those being cast or entering included (SM 609.7,
--- 707.4: the Curse waits for the cast); a Seal protected from the Curse is none (Gl: Protect).
function curse_targets(ctx, kind, pool)
  return util.filter(pool or SM.curse_pool(ctx), function(c) return SM.may_curse(c, kind) and SM.may_target(ctx, c, kind) end)
end

--- You take control of a card (Gl: Control) for a duration (nil: while it stays in the Arena).
function take_control(ctx, c, duration)
  if c == nil or not SM.may_affect(ctx, c) then return false end
  return SM.take_control(ctx, c, ctx.player, lasts(ctx, duration))
end

--- Brings a card into the Arena without a cast (SM 707, 708) for you: opts.line names a Line
--- (515.8: not a Line assignment).
function bring_in(ctx, c, opts) if c then return SM.bring_in(ctx, c, ctx.player, opts) end end

--- Casts a card for free (Gl: ร่ายฟรี): its player (opts.player, default the ability's: the owner of
--- the card making the Effect) casts their own card `c` without its cast Mp, from the hand unless
--- opts.from names another zone. Returns the cast's record, or nil.
function free_cast(ctx, c, opts)
  opts = opts or {}
  local p = opts.player or ctx.player
  if c == nil or not c.alive or c.owner ~= p or c.zone ~= (opts.from or "hand") then return nil end
  return SM.free_cast(ctx, c, p, "free_cast")
end

--- Creates an Extra Card named `name` (SM 621.2, 621.3): it is cast for free from beside your
--- deck; not beyond its Capacity (621.4). Returns the cast's record, or nil.
function create_extra(ctx, name)
  for _, c in ipairs(ctx:cards("extra", ctx.player)) do
    if c.name == name and SM.may_create(ctx, ctx.player, c) then
      return SM.free_cast(ctx, c, ctx.player, "extra")
    end
  end
  return nil
end

--- "End this Subturn": once what is going on is over, the Subturn goes to its End of Subturn
--- Step; nobody casts or commands any more, the Steps between are skipped, and 103.5's loss
--- does not apply (turn.lua, docs/rulings B.52).
function end_subturn(ctx) SM.end_subturn(ctx) end

--- Puts a Seal into a Line by an effect (SM 515.7, 515.8: its owner places it; not a Line
--- assignment).
function move_to_line(ctx, seal, line)
  if seal and SM.may_affect(ctx, seal) and seal.alive and SM.may_enter_line(seal, line) and SM.in_field(seal) and seal.host == nil then
    SM.place_in_line(ctx, seal, line, nil, seal.zone_owner, "effect")
  end
end

--- Breaks a Seal's combination by an effect (SM 513.2): its Supports go beside it.
function separate(ctx, seal)
  if seal and SM.may_affect(ctx, seal) and seal.alive and SM.combined(seal) then SM.separate_beside(ctx, seal, "effect") end
end

-- Commands an effect gives (SM 605.12, 710) ----------------------------------------------------------

--- A follow-up command (SM 605.12): "then command this Seal to attack": the attack runs now,
--- unpaid, and the Seal stays Active afterwards; the Skill resumes after it.
function follow_up_attack(ctx, seal)
  seal = seal or this_seal(ctx)
  if seal == nil or not SM.may_attack(ctx, seal, ctx.player) then return nil end
  local kind = SM.attack_kind(seal)
  local mode = kind == "all" and "all" or (#SM.attack_targets(ctx, seal, ctx.player) > 0 and "normal" or "hand")
  return ctx:procedure("attack", { attacker = seal, player = ctx.player, mode = mode, free = true, follow_up = true,
    count = 1, kind = "attack" })
end

--- An effect that acts like an attack (SM 710): "this Seal attacks": not a command, with no
--- Interfere Step and using no once-per-Subturn allowance (docs/rulings A.28).
function effect_attack(ctx, seal)
  seal = seal or this_seal(ctx)
  if seal == nil or not SM.may_attack(ctx, seal, seal.controller) then return nil end
  local kind = SM.attack_kind(seal)
  local mode = kind == "all" and "all" or "normal"
  return ctx:procedure("attack", { attacker = seal, player = seal.controller, mode = mode, free = true,
    as_effect = true, count = 1, kind = "attack" })
end
