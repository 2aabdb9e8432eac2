-- Casting: SM 609 (general), 610.1 (casting a Seal), 610.2 (casting a Mystic Card), with the
-- Mystic Card's kinds and Turns (201.8, 201.9), its exceptions (201.11), "free cast" (Gl:
-- ร่ายฟรี) and the Extra Cards a card creates (621).
--
-- The cast is the kernel-run procedure `cast` (game.yaml). Its record: `card` (the card being
-- cast), `player` (its caster), `free` (no cast Mp: a free cast, a Progress, an Extra),
-- `from` (the zone it is cast from: the hand unless an effect says otherwise, 609.3), `line`
-- and `place` (610.1.6), `grow` (the condition Seals of a declared Growth, 610.1.7), `host`
-- (what a PS or PM Mystic Card is pasted on, 610.2.8), and the slot lists of abilities.lua.

SM = SM or {}

-- The Mystic Card's kind and Turns (SM 201.8, 201.9) ---------------------------------------------

--- A Mystic Card's kind: "PS", "PA", "PM" or "none" (non-targeting, 201.8.2.4).
function SM.mystic_kind(c) return SM.printed(c, "paste") or "none" end

--- A Mystic Card's Turns: 0, a positive number, or "inf" (SM 201.9.2).
function SM.mystic_turns(c) return SM.printed(c, "turns") or 0 end

--- Whether card `c` breaks one of Mystic Card `m`'s exceptions (SM 201.11.2): each exception
--- names an element, a race, a name or a Mystic type the Mystic cannot target.
function SM.breaks_exception(m, c)
  for _, e in ipairs(SM.printed(m, "exceptions") or {}) do
    if (e.element and c:has("elements", e.element)) or (e.race and c:has("races", e.race))
        or (e.name and c:has("names", e.name)) or (e.mystic_type and c:has("mystic_types", e.mystic_type)) then
      return true
    end
  end
  return false
end

--- What PS or PM Mystic Card `m` may be pasted on now (SM 201.8.2.1, 201.8.2.3, 609.6, 707.3): a
--- Seal (a Mystic Card) in the Arena, not being cast or entering, breaking none of its
--- exceptions, not protected from it (Gl: Protect). `first`: only the first one (a list of one).
--- `pools`: a table that keeps the Seals and Mystic Cards listed, for a listing that asks for
--- several Mystic Cards' hosts with nothing moving in between (SM.cast_options).
function SM.paste_hosts(ctx, m, first, pools)
  local kind = SM.mystic_kind(m)
  local mctx = ctx:with({ source = m, player = m.controller, via = "ability" })
  local excepts = SM.printed(m, "exceptions") ~= nil -- (SM.breaks_exception: none without)
  local acting = SM.acting(mctx) -- what SM.may_target asks about, made once
  local out = {}
  for q = 1, 2 do
    local pool
    if pools ~= nil then
      local key = kind == "PS" and q or q + 2
      pool = pools[key]
      if pool == nil then
        pool = kind == "PS" and SM.seals(ctx, q) or SM.mystics(ctx, q)
        pools[key] = pool
      end
    else
      pool = kind == "PS" and SM.seals(ctx, q) or SM.mystics(ctx, q)
    end
    for _, c in ipairs(pool) do
      if c ~= m and not c:flag_on("being_cast") and not c:flag_on("entering")
          and not (excepts and SM.breaks_exception(m, c))
          -- SM.may_target(mctx, c): `c` is in the Arena and breaks none of `m`'s exceptions (just
          -- tested), so SM.protected comes down to its Protect things.
          and not SM.protect_things_hit(mctx, c, acting) then
        out[#out + 1] = c
        if first then return out end
      end
    end
  end
  return out
end

--- The Mystic Card's own effect (its `spell`), or nil: listed wherever a cast may start.
local function spell_of(ctx, c)
  for _, ab in ipairs(ctx:abilities({ card = c, timing = "effect" })) do return ab end
  return nil
end

--- Whether Mystic Card `c` could be cast now as far as its targets go (SM 610.2.3: a card that
--- targets needs a target that can be chosen). `pools`: as SM.paste_hosts's.
local function mystic_has_targets(ctx, c, p, pools)
  local kind = SM.mystic_kind(c)
  if (kind == "PS" or kind == "PM") and #SM.paste_hosts(ctx, c, true, pools) == 0 then return false end
  local ab = spell_of(ctx, c)
  if ab and ab.def.target then
    local actx = ctx:with({ source = c, player = p, via = "ability" })
    return SM.any_targetable(actx, ab.def.target(actx, {}))
  end
  return true
end

-- What may be cast (SM 609) ----------------------------------------------------------------------

--- The cast options of player `p` (SM 609.2-609.4): the cards of their hand they can pay for
--- (and, for a Mystic Card that targets, with a target, 610.2.3); `interfere_only`: in an
--- Interfere Step, only Interfere cards (609.4).
function SM.cast_options(ctx, p, interfere_only)
  local out = {}
  local have -- p's Mp, read once (SM.can_pay of a cast: no first Subturn's restriction, 102.6)
  local pools -- the Arena's Seals and Mystic Cards, listed once for every Mystic Card
  for _, c in ipairs(ctx:cards("hand", p)) do
    local bits = c.cast_bits -- Interfere 1, Wisdom 2, a Seal 4 (rules.lua)
    -- SM 609.4: in an Interfere Step, a card without Interfere is not looked at further.
    if not interfere_only or bits % 2 == 1 then
      -- Gl: Wisdom 1.1: a card with Wisdom names a card before its cast declaration (wisdom.lua).
      local named = 0
      if bits % 4 >= 2 then
        for _, o in ipairs(SM.wisdom_options(ctx, c, p, interfere_only)) do
          out[#out + 1] = o
          named = named + 1
        end
      end
      if named == 0 then
        local mp = c.cast_mp
        local payable = mp <= 0
        if not payable then
          have = have or SM.mp(ctx, p)
          payable = have >= mp
        end
        if payable and bits < 4 then
          pools = pools or {}
          payable = mystic_has_targets(ctx, c, p, pools)
        end
        if payable then
          out[#out + 1] = { label = "cast " .. c.label .. " (Mp " .. mp .. ")", kind = "cast", card = c,
            procedure = "cast", data = { card = c, player = p, from = "hand", kind = "cast" } }
        end
      end
    end
  end
  return out
end

-- The cast procedure (SM 610) ---------------------------------------------------------------------

--- SM 610.1.1-610.1.5, 610.2.1-610.2.7: declare, pay, and the card is being cast: in the Arena
--- (609.5) and, for a Seal, Active (610.1.3). "When cast" abilities work after this step.
function SM.cast_declare(ctx, d)
  local c, p = d.card, d.player
  if not c.alive or c.zone ~= (d.from or "hand") then return "stop" end
  if d.wisdom ~= nil then
    -- Gl: Wisdom 1.1, 1.2: named in the hand before the cast declaration, for a normal cast only.
    if d.free or c.zone ~= "hand" or not SM.wisdom_pending(c)
        or not SM.wisdom_may_name(ctx, c, card_info(d.wisdom), p, d.interfere) then return "stop" end
    SM.wisdom_name(ctx, c, d.wisdom, p)
  end
  if SM.is_mystic(c) and not mystic_has_targets(ctx, c, p) then return "stop" end -- SM 610.2.3
  if not d.free and not SM.pay(ctx, p, c.cast_mp, "cast") then return "stop" end -- SM 610.1.2, 610.2.4
  local from = c.zone
  local n = ctx:move(c, "casting", { player = p, reason = d.reason or "cast" })[1]
  if n == nil then return "stop" end
  d.card = n
  ctx:set_flag(n, "being_cast", true)
  if from == "hand" and SM.is_seal(n) then ctx:set_flag(n, "from_hand", true) end -- SM 508.10.7
  SM.begin_command(ctx, d, nil)
  ctx:emit("cast", { card = n, player = p })
end

--- SM 610.1.6: the Line and the place of the Seal being cast (a window of its caster).
function SM.cast_line_actions(ctx, p, d)
  if not SM.is_seal(d.card) or d.line ~= nil and d.line_ok then return {} end
  return SM.line_place_options(ctx, d.card, p, "line")
end

--- SM 610.1.7: a Seal with a Growth Box may declare Growth, with its condition Seals (614.2).
function SM.cast_growth_actions(ctx, p, d)
  local c = d.card
  if not SM.is_seal(c) or d.growth_asked or SM.printed(c, "growth") == nil then return {} end
  return SM.growth_choices(ctx, c, p, function(ctx, o, d)
    d.growth_asked = true
    d.grow = o.cards
  end)
end

--- SM 610.1.8-610.1.9, 610.2.2, 610.2.8: the abilities that will work choose their modes and
--- targets; a PS or PM Mystic Card chooses what it is pasted on.
function SM.cast_choose(ctx, d)
  local c = d.card
  if SM.is_mystic(c) then
    local kind = SM.mystic_kind(c)
    if (kind == "PS" or kind == "PM") and (d.host == nil or not d.host.alive or d.retarget_host) then
      local hosts = SM.paste_hosts(ctx, c)
      if #hosts == 0 then
        ctx:move(c, "mystic_shrine", { player = c.owner, reason = "no_target", by = false }) -- SM 610.2.10
        return "stop"
      end
      d.host = ctx:choose_cards(d.player, hosts, { prompt = "paste_target" })
      d.retarget_host = false
    end
    SM.slot_choose(ctx, d, "effect", { c })
  end
  SM.slot_choose(ctx, d, "enters", { c })
end

--- SM 610.1.11, 610.2.10: after the Interfere Step the cast is checked: a Seal that cannot go to
--- its Line chooses again (610.1.6); a target no longer valid is chosen again (610.1.9, 610.2.8);
--- a Mystic Card with nothing left to target goes to the Shrine.
function SM.cast_validate(ctx, d)
  local c = d.card
  if c:flag_on("cancelled") then
    -- SM 201.8.2.1: a card whose cast was cancelled (paste.lua `cancel_mystic`) goes to the Shrine.
    ctx:move(c, SM.shrine_of(c), { player = c.owner, reason = "cancelled", by = false })
    return "stop"
  end
  if SM.is_seal(c) then
    if not SM.may_enter_line(c, d.line) then
      d.line, d.line_ok = nil, false
      return "line"
    end
  else
    local kind = SM.mystic_kind(c)
    if kind == "PS" or kind == "PM" then
      local h, changed = SM.redirect(ctx, d.host) -- Gl: Change Target: not checked
      if changed then d.host, d.host_changed = h, true end
      if not (h and h.alive and SM.in_field(h) and (d.host_changed or util.contains(SM.paste_hosts(ctx, c), h))) then
        if #SM.paste_hosts(ctx, c) == 0 then
          ctx:move(c, "mystic_shrine", { player = c.owner, reason = "no_target", by = false })
          return "stop"
        end
        d.retarget_host = true
        return "choose"
      end
    end
    -- SM 610.2.10: the Mystic Card's own effect with no target left: it goes to the Shrine.
    local back = SM.slot_validate(ctx, d, "choose")
    if back then return back end
    for i, key in ipairs(d.slot_keys or {}) do
      if d.slot_src[i] == c and string.sub(key, 1, 7) == "effect:" and d.slot_state[i] == "done" then
        ctx:move(c, "mystic_shrine", { player = c.owner, reason = "no_target", by = false })
        return "stop"
      end
    end
    return nil
  end
  return SM.slot_validate(ctx, d, "choose")
end

--- SM 610.1.12-610.1.13, 610.2.11-610.2.13: the cast succeeds.
function SM.cast_success(ctx, d)
  local c, p = d.card, d.player
  ctx:set_flag(c, "being_cast", false) -- SM 610.1.12, 610.2.11
  if SM.is_seal(c) then
    -- SM 610.1.13.1: Growth works (614, nested: docs/rulings A.18).
    if d.grow ~= nil then ctx:procedure("growth", { card = c, player = p, conditions = d.grow, kind = "growth" }) end
    if not c.alive then return end
    -- SM 610.1.13.2: the Seal goes to its Line.
    local placed = SM.place_in_line(ctx, c, d.line, d.place, p, d.reason or "cast")
    if placed == nil then return end
    d.card = placed
    ctx:set_value(p, "brought_seal", 1) -- SM 103.5
    ctx:emit("cast_success", { card = placed, player = p })
    ctx:emit("entered", { card = placed, player = p, reason = d.reason or "cast" })
    SM.slot_check(ctx, d, nil) -- SM 610.1.13.3
    SM.waiting_curses_take_effect(ctx, placed) -- SM 609.7, 610.1.13.3: Curses that waited (docs/rulings B.14)
    SM.fix_cancel(ctx) -- Gl: Cancel: its Cancel works from now on (protection.lua)
    return
  end
  -- SM 610.2.12.1: a PS, PA or PM Mystic Card is pasted on its target.
  local kind = SM.mystic_kind(c)
  local turns = SM.mystic_turns(c)
  local m = c
  if kind == "PS" or kind == "PM" then
    m = SM.paste(ctx, c, d.host, p) -- paste.lua: its Effect on the host, then attached (201.8.2.1)
  elseif kind == "PA" or turns ~= 0 then
    m = ctx:move(c, "arena", { player = p, reason = "cast" })[1] -- docs/rulings A.8
  end
  if m == nil then return end
  d.card = m
  if type(turns) == "number" and turns > 0 then ctx:add_counter(m, "turns", 2 * turns, "cast") end -- SM 201.9.2.2
  ctx:emit("cast_success", { card = m, player = p })
  ctx:emit("entered", { card = m, player = p, reason = d.reason or "cast" })
  SM.slot_check(ctx, d, nil) -- SM 610.2.12.2
  if m.alive and m.host ~= nil then ctx:emit("pasted", { card = m, target = m.host, player = p }) end -- 610.2.12.3
  SM.fix_cancel(ctx) -- Gl: Cancel: what its effect gives, and a PS cancelled by its host (protection.lua)
end

--- SM 610.2.13, 708.2.9: a 0-Turn Mystic Card in the Arena has done its work: it goes to the Shrine.
function SM.done_if_zero_turns(ctx, c)
  if c.alive and SM.is_mystic(c) and SM.mystic_turns(c) == 0 and SM.in_field(c) then
    ctx:move(c, "mystic_shrine", { player = c.owner, reason = "done", by = false })
  end
end

--- SM 610.1.14, 610.2.13: the end: a 0-Turn Mystic Card goes to the Shrine; the cast's lock ends.
function SM.cast_end(ctx, d)
  SM.done_if_zero_turns(ctx, d.card)
  SM.clear_flags(ctx, { d.card }, { "being_cast" })
  SM.end_command(ctx, d)
end

--- "Free cast" (Gl: ร่ายฟรี): `p` casts card `c` without paying its cast Mp, from where it is (the
--- hand unless an effect names another zone, SM 609.3). Returns the cast's record.
function SM.free_cast(ctx, c, p, reason)
  return ctx:procedure("cast", { card = c, player = p or c.owner, from = c.zone, free = true, reason = reason, kind = "cast" })
end

-- Extra Cards (SM 621) ------------------------------------------------------------------------------

--- How many Extra Cards named `name` player `p` brought into the game (SM 621.4: counted when they
--- leave the pile beside the deck; they never go back, 621.6.4).
function SM.extras_created(ctx, p, name)
  local n = 0
  for _, z in ipairs(util.concat(SM.FIELD, SM.OUTSIDE)) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if c:printed("extra") and c.name == name then n = n + 1 end
    end
  end
  return n
end

--- Whether `p` may create Extra Card `c` now (SM 621.4, 621.5: Capacity X, or "inf").
function SM.may_create(ctx, p, c)
  local cap = c:printed("capacity") or 1
  return cap == "inf" or SM.extras_created(ctx, p, c.name) < cap
end

--- Whether `p` may still create an Extra Card named `name` (SM 621.4): its Capacity (read on a
--- card of that name of theirs beside the deck or in the game) is not used up.
function SM.may_create_named(ctx, p, name)
  for _, z in ipairs(util.concat({ "extra" }, SM.FIELD, SM.OUTSIDE)) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if c:printed("extra") and c.name == name then return SM.may_create(ctx, p, c) end
    end
  end
  return true
end

-- Exceptions (SM 201.11.3) ------------------------------------------------------------------------

--- The pasted Mystic Cards whose host now breaks one of their exceptions.
local function breaking(ctx)
  local out = {}
  for p = 1, 2 do
    for _, m in ipairs(SM.mystics(ctx, p)) do
      if m.host ~= nil and SM.breaks_exception(m, m.host) then out[#out + 1] = m end
    end
  end
  return out
end

--- The exceptions' test (a part of the `board` check, board.lua).
function SM.exceptions_due(ctx) return #breaking(ctx) > 0 end

--- SM 201.11.3: a pasted Mystic Card whose host changed so that it breaks one of its exceptions has
--- no effect and falls to the Shrine at once.
function SM.fix_exceptions(ctx)
  for _, m in ipairs(breaking(ctx)) do
    ctx:move(m, "mystic_shrine", { player = m.owner, reason = "exception", by = false })
  end
end
