-- Curses and control: SM 709 (the Curses: Stone, Freeze, Charm, Poison, Death, Last Dance,
-- Dimension; their procedure 709.14), 712 (cards controlled by another player) and Gl: Control,
-- Purified (curing), Move Curse.
--
-- A Curse is an Effect (SM 709.1) tagged `curse` on its own characteristic (game.yaml), so that
-- it ends when its Seal leaves the Arena (709.2), with its Turns (a count-down), or when it is
-- cured or cancelled (709.4, 709.13). Control is an Effect tagged `control` on the `control`
-- characteristic; the Charm Curse's value is the seat of the player the Seal obeys. A rule check
-- (`control`) gives each card to the player its effects name.

SM = SM or {}

--- Whether Seal `t` may be cursed with `kind` now (SM 709.12: not one it has; 609.7, 707.4: a
--- Seal being cast or entering is left alone here).
function SM.may_curse(t, kind)
  return t ~= nil and t.alive and SM.is_seal(t) and t.host == nil and util.contains(SM.SEAL_PLACES, t.zone)
    and (kind == "death" or not SM.cursed(t, kind))
end

--- Curses Seal `t` with `kind` (SM 709.14): opts.turns (the Curse lasts N Turns: 2N Subturns, A.5;
--- Poison and Last Dance destroy the Seal when they run out, 709.8.1, 709.10.3); opts.effects
--- (a Last Dance's "specified Effect", 709.10.1: modify specs such as plus_at(2), applied with
--- the Curse and ending with it). The Curse's procedure has an Interfere Step before it takes
--- effect (709.3). Returns the record.
function SM.curse(ctx, t, kind, opts)
  opts = opts or {}
  if not SM.may_curse(t, kind) then return nil end
  -- The record keeps each effect as a {char, op, value} list.
  local effects = util.map(opts.effects or {}, function(e) return { e.char, e.op, e.value } end)
  return ctx:procedure("curse", { target = t, curse = kind, turns = opts.turns, effects = effects,
    player = ctx.player, source = ctx.source, kind = "curse" })
end

--- SM 709.14.1: the Seal is cursed; "when cursed" abilities work after this step.
function SM.curse_declare(ctx, d)
  if not SM.may_curse(d.target, d.curse) then return "stop" end
  ctx:emit("cursed", { card = d.target, player = d.player, key = d.curse, curse = SM.CURSE_TEXT[d.curse] })
end

--- SM 709.14.3, 709.14.4: the Curse starts counting its Turns and takes effect, unless its Seal
--- left the Arena (709.2) or cancels Curses (Gl: ยกเลิก Curse). Death destroys at once (709.9.1).
function SM.curse_apply(ctx, d)
  local t = d.target
  if not (t.alive and SM.in_field(t) and t.host == nil) then return end
  if t:has("keywords", "cancel_curse") then return end
  if d.turns ~= nil and d.turns <= 0 then return end -- SM 709.14.3 (docs/rulings A.23): a count of 0: no effect
  if d.curse == "death" then
    SM.destroy_cards(ctx:with({ source = d.source, player = d.player }), { t }, { reason = "effect", player = d.player })
    return
  end
  if SM.cursed(t, d.curse) then return end -- SM 709.12
  local value = d.curse == "charm" and d.player or 1 -- SM 709.7.1: the charmer's owner controls it
  local function lasting()
    local duration = { tag = "curse" }
    if d.turns then duration["until"], duration.times = "end_of_subturn", 2 * d.turns end
    return duration
  end
  local cctx = ctx:with({ source = d.source, player = d.player })
  cctx:modify(t, { char = d.curse, op = "set", value = value }, lasting())
  -- SM 709.10.1: the Last Dance's specified Effect, a part of the Curse (tagged with it: cured,
  -- cancelled or run out together, 709.4, 709.13).
  for _, e in ipairs(d.effects or {}) do cctx:modify(t, { char = e[1], op = e[2], value = e[3] }, lasting()) end
end

--- Whether effect `e` (tagged `curse`) belongs to Curse `kind`: the Curse's own characteristic,
--- or for a Last Dance its specified Effect (709.10.1: the only Curse that carries one).
local function of_curse(e, kind)
  if e.char == kind then return true end
  return kind == "last_dance" and not util.contains(SM.CURSES, e.char)
end

--- Cures Seal `c` of its Curses (Gl: Purified), or of Curse `kind` only (Gl: ยกเลิก X Curse): they
--- end together (SM 709.13). Returns how many ended.
function SM.cure(ctx, c, kind)
  local n = 0
  ctx:together(function(ctx)
    for _, e in ipairs(ctx:effects({ target = c, tag = "curse" })) do
      if kind == nil or of_curse(e, kind) then
        if ctx:end_effect(e.handle) then n = n + 1 end
      end
    end
  end)
  return n
end

--- Moves a Curse of kind `kind` from Seal `from` to Seal `to` (Gl: Move Curse): not one that came
--- from a Mystic Card; `to` must be able to take it. Returns whether it moved.
function SM.move_curse(ctx, from, to, kind)
  if not SM.may_curse(to, kind) then return false end
  for _, e in ipairs(ctx:effects({ target = from, tag = "curse" })) do
    if e.char == kind and not (e.source and SM.is_mystic(e.source)) then
      if ctx:end_effect(e.handle) then
        ctx:with({ source = e.source, player = e.controller }):modify(to, { char = kind, op = "set", value = e.value },
          { tag = "curse" })
        return true
      end
    end
  end
  return false
end

-- Control (Gl: Control, SM 712) ------------------------------------------------------------------

--- The player card `c` obeys now: the player its Charm Curse (709.7.1) or its Control effect names,
--- else its owner.
function SM.rightful_controller(c)
  if c.charm > 0 then return c.charm end
  if c.control > 0 then return c.control end
  return c.owner
end

--- Player `p` takes control of card `c` (Gl: Control): not a card they own, nor one controlled
--- already; duration as verbs.lua's (nil: while the card stays in the Arena). Returns whether.
function SM.take_control(ctx, c, p, duration)
  if c == nil or not SM.in_field(c) or c.owner == p or SM.controlled(c) or c.control > 0 then return false end
  duration = duration or {}
  duration.tag = "control"
  ctx:modify(c, { char = "control", op = "set", value = p }, duration)
  return true
end

--- The `control` check's test: a card of the Arena whose controller is not the player it obeys.
function SM.control_due(ctx)
  for p = 1, 2 do
    for _, z in ipairs(SM.FIELD) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if c.controller ~= SM.rightful_controller(c) then return true end
      end
    end
  end
  return false
end

--- Gl: Control: the card goes to its new controller's side, a Seal in the same Line (not a Line
--- assignment); SM 500.11: a card in a command leaves it (its command's checks see the change)
--- and a Seal becomes Inactive.
function SM.fix_control(ctx)
  for p = 1, 2 do
    for _, z in ipairs(SM.FIELD) do
      for _, c in ipairs(ctx:cards(z, p)) do
        local to = SM.rightful_controller(c)
        if c.alive and c.controller ~= to then
          local pending = c:flag_on("pending")
          ctx:set_controller(c, to)
          local n = ctx:move(c, c.zone, { player = to, reason = "control", by = false })[1] or c
          if pending and SM.is_seal(n) then SM.inactivate(ctx, n) end
        end
      end
    end
  end
end
