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

--- Whether Seal `t` may be cursed with `kind` now (SM 709.12: not one it has, nor one waiting;
--- 609.7, 707.4: a Seal being cast or entering may, the Curse waits for its success).
function SM.may_curse(t, kind)
  return t ~= nil and t.alive and SM.is_seal(t) and t.host == nil
    and (util.contains(SM.SEAL_PLACES, t.zone) or (t.zone == "casting" and (t:flag_on("being_cast") or t:flag_on("entering"))))
    and (kind == "death" or not (SM.cursed(t, kind) or SM.curse_waiting(t, kind)))
end

--- The Seals a Curse may be put on: every Seal of the Arena, those being cast or entering too
--- (SM 609.7, 707.4).
function SM.curse_pool(ctx)
  local out = SM.all_seals(ctx)
  for _, p in ipairs({ ctx.turn_player, SM.defender(ctx) }) do
    for _, c in ipairs(ctx:cards("casting", p)) do
      if SM.is_seal(c) then out[#out + 1] = c end
    end
  end
  return out
end

--- Whether a Curse of `kind` waits on Seal `t` (being cast or entering: SM 609.7, 707.4).
function SM.curse_waiting(t, kind) return t["wait_" .. kind] > 0 end

--- The Curse kinds (SM 709.5-709.11), Death included.
SM.CURSE_KINDS = { "stone", "freeze", "charm", "poison", "death", "last_dance", "dimension" }

--- Curses Seal `t` with `kind` (SM 709.14): opts.turns (the Curse lasts N Turns: 2N Subturns, A.5;
--- Poison and Last Dance destroy the Seal when they run out, 709.8.1, 709.10.3); opts.effects
--- (a Last Dance's "specified Effect", 709.10.1: modify specs such as plus_at(2), applied with
--- the Curse and ending with it). The Curse's procedure has an Interfere Step before it takes
--- effect (709.3). Returns the record.
function SM.curse(ctx, t, kind, opts)
  opts = opts or {}
  if not SM.may_curse(t, kind) or not SM.may_target(ctx, t, kind) then return nil end -- Gl: Protect
  -- The record keeps each effect as a {char, op, value} list.
  local effects = util.map(opts.effects or {}, function(e) return { e.char, e.op, e.value } end)
  return ctx:procedure("curse", { target = t, curse = kind, turns = opts.turns, effects = effects,
    player = ctx.player, source = ctx.source, via = ctx.via, kind = "curse" })
end

--- SM 709.14.1: the Seal is cursed; "when cursed" abilities work after this step.
function SM.curse_declare(ctx, d)
  if not SM.may_curse(d.target, d.curse) then return "stop" end
  ctx:emit("cursed", { card = d.target, player = d.player, key = d.curse, curse = SM.CURSE_TEXT[d.curse] })
end

--- SM 709.14.3, 709.14.4: the Curse starts counting its Turns and takes effect, unless its Seal
--- left the Arena (709.2), is protected from it or cancels it (Gl: Protect, Cancel, ยกเลิก Curse,
--- Hyper Drive: it disappears). On a Seal being cast or entering it waits for the success (609.7,
--- 707.4, docs/rulings B.14). Death destroys at once (709.9.1).
function SM.curse_apply(ctx, d)
  local t = d.target
  if not (t.alive and SM.in_field(t) and t.host == nil) then return end
  local cctx = ctx:with({ source = d.source, player = d.player, via = d.via })
  if t:flag_on("being_cast") or t:flag_on("entering") then
    if not SM.may_affect(cctx, t, d.curse) then return end
    -- The Curse is put on the Seal now, waiting (a Curse, tagged as one: cured, cancelled or
    -- gone with its Seal like any): its Turns + 1 (1: no count). With 0 Turns it would disappear
    -- when its count starts (709.14.3).
    if d.turns ~= nil and d.turns <= 0 then return end
    cctx:modify(t, { char = "wait_" .. d.curse, op = "set", value = d.turns and (d.turns + 1) or 1 },
      { tag = "curse", uncancellable = SM.uncancellable(d.source) or nil })
    -- A Last Dance's specified Effect is put on with it (docs/rulings B.31: it holds from now;
    -- the Seal does not fight before its cast ends), cured and gone with its Curse.
    for _, e in ipairs(d.effects or {}) do
      cctx:modify(t, { char = e[1], op = e[2], value = e[3] }, { tag = "curse", uncancellable = SM.uncancellable(d.source) or nil })
    end
    return
  end
  SM.curse_takes_effect(cctx, t, d.curse, d.turns, d.effects)
end

--- Whether effect `e` (tagged `curse`) belongs to Curse `kind`: the Curse's own characteristic
--- (waiting or not), or for a Last Dance its specified Effect (709.10.1: the only Curse that
--- carries one).
local function of_curse(e, kind)
  if e.char == kind or e.char == "wait_" .. kind then return true end
  return kind == "last_dance" and not util.contains(SM.CURSES, e.char) and string.sub(e.char, 1, 5) ~= "wait_"
end

--- SM 709.14.3, 709.14.4: Curse `kind` for `turns` Turns (nil: no count) takes effect on Seal `t`,
--- made by what acts in `ctx`; `effects`: a Last Dance's specified Effect ({char, op, value} lists).
function SM.curse_takes_effect(ctx, t, kind, turns, effects)
  if not SM.may_affect(ctx, t, kind) then return end
  if turns ~= nil and turns <= 0 then return end -- SM 709.14.3 (docs/rulings A.23): a count of 0: no effect
  if kind == "death" then
    SM.destroy_cards(ctx, { t }, { reason = "effect", player = ctx.player })
    return
  end
  if SM.cursed(t, kind) then return end -- SM 709.12
  local value = kind == "charm" and ctx.player or 1 -- SM 709.7.1: the charmer's owner controls it
  local duration = { tag = "curse", uncancellable = SM.uncancellable(ctx.source) or nil }
  if turns then duration["until"], duration.times = "end_of_subturn", 2 * turns end
  ctx:modify(t, { char = kind, op = "set", value = value }, duration)
  -- SM 709.10.1: the Last Dance's specified Effect, a part of the Curse (tagged with it: cured,
  -- cancelled or run out together, 709.4, 709.13).
  for _, e in ipairs(effects or {}) do ctx:modify(t, { char = e[1], op = e[2], value = e[3] }, duration) end
end

--- SM 609.7, 707.4, 610.1.13.3, 708.1.8.2: the Curses waiting on a Seal whose cast (entry) succeeded
--- start counting their Turns and take effect now (docs/rulings B.14), each as its card made it.
function SM.waiting_curses_take_effect(ctx, t)
  if t == nil or not t.alive or not SM.is_seal(t) then return end
  local waiting = {}
  for _, e in ipairs(ctx:effects({ target = t, tag = "curse" })) do
    if string.sub(e.char, 1, 5) == "wait_" then waiting[#waiting + 1] = e end
  end
  for _, e in ipairs(waiting) do
    ctx:end_effect(e.handle)
    local kind = string.sub(e.char, 6)
    local turns = e.value > 1 and e.value - 1 or nil
    if t.alive and SM.in_field(t) then
      SM.curse_takes_effect(ctx:with({ source = e.source, player = e.controller, via = nil }), t, kind, turns)
    end
    if kind == "last_dance" and not SM.cursed(t, kind) then
      -- The Last Dance did not take effect: its specified Effect goes with it (709.10.1).
      for _, fx in ipairs(ctx:effects({ target = t, tag = "curse" })) do
        if fx.source == e.source and of_curse(fx, kind) and fx.char ~= kind then ctx:end_effect(fx.handle) end
      end
    end
  end
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

--- The Curses on Seal `c` that may be moved (Gl: Move Curse): not those from Mystic Cards; a list
--- of their kinds.
function SM.movable_curses(ctx, c)
  local out = {}
  for _, e in ipairs(ctx:effects({ target = c, tag = "curse" })) do
    if util.contains(SM.CURSES, e.char) and not (e.source and SM.is_mystic(e.source)) and e.cancellable then
      out[#out + 1] = e.char
    end
  end
  return out
end

--- Moves a Curse of kind `kind` from Seal `from` to Seal `to` (Gl: Move Curse, การย้าย: within the
--- Arena, the same Curse): not one that came from a Mystic Card; `to` must be able to take it (the
--- Curse could be put on it: 709.12, and it affects it: Gl: Protect, Cancel). The Curse keeps its
--- card, its player and its Turns left (docs/rulings B.27).
--- Returns whether it moved.
function SM.move_curse(ctx, from, to, kind)
  if from == nil or to == nil or from == to or not SM.may_curse(to, kind) or not util.contains(SM.CURSES, kind) then return false end
  if to.zone == "casting" then return false end
  for _, e in ipairs(ctx:effects({ target = from, tag = "curse" })) do
    if e.char == kind and not (e.source and SM.is_mystic(e.source)) then
      local actx = ctx:with({ source = e.source, player = e.controller })
      if not SM.may_affect(actx, to, kind) then return false end
      if ctx:end_effect(e.handle) then
        -- The same Curse (SM 709.1): its Turns left go with it (`e.duration`: the kernel's
        -- remaining count-down, docs/rulings B.27).
        actx:modify(to, { char = kind, op = "set", value = e.value }, e.duration)
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

--- The control test (a part of the `board` check, board.lua): a card of the Arena whose controller is not the player it obeys.
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
