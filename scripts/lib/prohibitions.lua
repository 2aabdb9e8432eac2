-- Prohibitions from card text, read when the act is about to happen, with the game as it is
-- then (OP 1-3-3, GD 1-3-3: a prohibition beats an instruction; SM 100.2: "cannot" wins):
-- "this card cannot be attacked", "your opponent may attack only this card", "this card
-- cannot be returned to the hand". A card states one as a static ability tagged
-- `prohibits`; the ruleset asks `forbidden` before each act it names. The machinery every
-- ruleset shares is here; each ruleset's prohibitions.lua makes its family with the acts it
-- names, and its own clauses. Game-agnostic.

prohibitions = {}

local function is_function(x) return type(x) == "function" or getmetatable(x) ~= nil end

local function listify(x)
  if x == nil then return {} end
  if type(x) == "table" and getmetatable(x) == nil then return x end
  return { x }
end

--- A ruleset's family of prohibitions. `spec`:
--- * `acts`: the act names a prohibition may forbid (`{ attack = true, ... }`);
--- * `returns`: the zones "cannot be returned to" names (`{ "hand", "deck" }`);
--- * `this_card(sctx)`: the card a printed prohibition with no `affects` binds (its own card;
---   a Pilot's Unit...);
--- * `binds(sctx, d, act)`: the ruleset's own clauses (false: it does not bind), optional;
--- * `prepare(ctx, act)`: fills act fields worth reading only when some prohibition may ask;
--- * `fields`: fields only the ruleset's clauses read (kept on the ability);
--- * `finish(a, fields)`: makes the ability (tags it static `prohibits`, its zones, its
---   conditions) and returns it.
--- Returns `{ now, forbidden, may_move, prohibition, cannot_be_attacked, cannot_be_returned,
--- forbid }` for the ruleset to name.
function prohibitions.family(spec)
  local F = {}
  local names = {}
  for k in pairs(spec.acts) do names[#names + 1] = k end
  table.sort(names)

  -- Whether prohibition `d` binds `act` for the ability listed as `s` (ctx:abilities), in
  -- `sctx` (its source and controller).
  local function binds(sctx, s, d, act)
    if d.forbids ~= act.name then return false end
    -- Which cards it binds: the card it was given to; else `affects`; else the printed
    -- card's own (`this_card`), or any card (one armed with no card).
    if s.granted and not s.delayed then
      if act.card ~= s.source then return false end
    elseif d.binds_cards then
      if not d.binds_cards(sctx, act.card) then return false end
    elseif not s.delayed and act.card ~= spec.this_card(sctx) then
      return false
    end
    if d.player == "you" and act.player ~= sctx.player then return false end
    if d.player == "opponent" and (act.player == nil or act.player == sctx.player) then return false end
    if spec.binds and not spec.binds(sctx, d, act) then return false end
    if d.condition and not d.condition(sctx) then return false end
    return d.when == nil or d.when(sctx, act) == true
  end

  local PROHIBITIONS = { kind = "static", timing = "prohibits", delayed = true } -- ctx:abilities' filter

  --- The prohibitions on the field or given by effects now, for `forbidden` to ask: a test
  --- of several acts at one moment (an attack and its target being attacked) lists them once,
  --- and skips making its acts when there is none (most of a game).
  function F.now(ctx) return ctx:abilities(PROHIBITIONS) end

  --- Whether an effect prohibits `act` now: every prohibition on the field or given by an
  --- effect (`found`: F.now's list, when the caller has it) is asked, with the game as it is
  --- now. One whose script fails binds nothing, and the error names its card.
  function F.forbidden(ctx, act, found)
    found = found or ctx:abilities(PROHIBITIONS)
    if #found > 0 and spec.prepare then spec.prepare(ctx, act) end
    for _, s in ipairs(found) do
      local src = s.source
      local sctx = ctx:with({ source = src, player = s.controller or (src and src.controller) or ctx.player })
      if ctx:guard(src, binds, sctx, s, s.def, act) == true then return true end
    end
    return false
  end

  --- Whether an effect of `ctx.player` may move `c` to `zone`: a card a prohibition keeps
  --- where it is stays.
  function F.may_move(ctx, c, zone)
    return not F.forbidden(ctx, { name = "move", card = c, from = c.zone, to = zone, player = ctx.player })
  end

  --- A prohibition while its card works, or, declared `dormant = true`, the lasting part of
  --- a one-shot effect (`forbid` gives it to cards). Common fields: `forbids` (the act),
  --- `affects(ctx, card)` (the cards it binds), `player` ("you" or "opponent": only that
  --- player's acts), `when(ctx, act)` (anything else, read when the act happens).
  function F.prohibition(a, level)
    level = (level or 1) + 1
    if not spec.acts[a.forbids] then
      error(string.format("prohibition: `forbids` should be one of %s, not %s", table.concat(names, ", "), tostring(a.forbids)), level)
    end
    if a.player ~= nil and a.player ~= "you" and a.player ~= "opponent" then
      error(string.format("prohibition: `player` should be \"you\" or \"opponent\", not %s", tostring(a.player)), level)
    end
    for _, k in ipairs({ "affects", "when", "condition" }) do
      if a[k] ~= nil and not is_function(a[k]) then
        error(string.format("prohibition: `%s` should be a function, not a %s", k, type(a[k])), level)
      end
    end
    -- `affects` would make the kernel apply it as a characteristic change: keep it apart.
    a.binds_cards, a.affects = a.affects, nil
    local fields = { "forbids", "player", "when", "binds_cards" }
    for _, k in ipairs(spec.fields or {}) do fields[#fields + 1] = k end
    return spec.finish(a, fields)
  end

  --- "This card cannot be attacked": a prohibition of attacks on it.
  function F.cannot_be_attacked(a, level)
    a.forbids = "attacked"
    return F.prohibition(a, (level or 1) + 1)
  end

  --- "This card cannot be returned to <zone>" (`to`, one of `spec.returns`), or to any of
  --- them (no `to`), by effects.
  function F.cannot_be_returned(a, level)
    level = (level or 1) + 1
    local to, when = a.to, a.when
    if to ~= nil and not util.contains(spec.returns, to) then
      error(string.format("cannot_be_returned: `to` should be one of \"%s\", not %s", table.concat(spec.returns, "\", \""), tostring(to)), level)
    end
    if when ~= nil and not is_function(when) then
      error(string.format("prohibition: `when` should be a function, not a %s", type(when)), level)
    end
    a.forbids, a.to = "move", nil
    a.when = function(ctx, act) return (to == nil or act.to == to) and (when == nil or when(ctx, act)) end
    return F.prohibition(a, level)
  end

  --- Gives each of `cards` (nil, a card or a list: "up to 1" chose none, nothing happens)
  --- the `dormant` prohibition `def` for `duration` (the ruleset's `lasts`).
  function F.forbid(ctx, def, cards, duration)
    for _, c in ipairs(listify(cards)) do ctx:grant_ability(def, c, lasts(ctx, duration)) end
  end

  return F
end
