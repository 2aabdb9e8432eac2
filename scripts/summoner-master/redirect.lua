-- Moving what was chosen or pasted: Gl: Change Target (ย้ายเป้าหมาย), Move Mystic Card (ย้าย Mystic
-- Card), การย้าย ("move": within the same zone, to a context of the same kind). Move Curse is
-- curses.lua's.
--
-- Change Target: "the new target's conditions are not checked; only targets a player chose can be
-- changed". The targets a player chose are the Attacked Seal (SM 504.6), a Skill's target (605.7),
-- an ability's or a Mystic Card's target (504.7, 610.2.8...) and what a PS or PM Mystic Card is
-- pasted on (610.2.8). A script cannot reach the record of the command it interrupts, so the
-- change is an effect on the new target naming the old one (`redirect`: its object id + 1, until the end of the
-- Subturn): the command's own check after its Interfere Step takes it (SM.redirect), so the last
-- change made is the one taken first (SM 615.8).

SM = SM or {}

--- SM.redirect(ctx, t): the target that replaces `t` (Gl: Change Target), and whether there is
--- one; the change is used up.
function SM.redirect(ctx, t)
  if type(t) ~= "userdata" or not t.alive then return t, false end
  for _, p in ipairs({ ctx.turn_player, SM.defender(ctx) }) do
    for _, c in ipairs(SM.field_cards(ctx, p)) do
      if c.redirect == t.id + 1 then
        for _, e in ipairs(ctx:effects({ target = c })) do
          if e.char == "redirect" and e.value == t.id + 1 then ctx:end_effect(e.handle) end
        end
        ctx:emit("target_changed", { card = c, target = t, player = c.controller })
        return c, true
      end
    end
  end
  return t, false
end

--- The targets players chose in the commands and casts going on now, each {card, by, player}: the
--- Attacked Seal of an attack, what a cast pastes on and its abilities' targets, a Skill's target
--- (not those of the card whose ability asks: its own Skill).
function SM.chosen_targets(ctx)
  local out = {}
  local function add(c, by, p)
    if type(c) == "userdata" and c.alive then out[#out + 1] = { card = c, by = by, player = p } end
  end
  local a = ctx:running("attack")
  if a ~= nil and a.target ~= nil and (a.mode == "normal" or a.iter == "normal") then add(a.target, a.attacker, a.player) end
  local k = ctx:running("cast")
  if k ~= nil and k.card ~= ctx.source then
    add(k.host, k.card, k.player)
    for i, t in ipairs(k.slot_aim or {}) do
      if t and k.slot_state[i] == "chosen" then add(t, k.slot_src[i], k.player) end
    end
  end
  local s = ctx:running("skill")
  if s ~= nil and s.card ~= ctx.source then add(s.target, s.card, s.player) end
  return out
end

--- For a `target` function: your cards (f) that the opponent's commands and casts going on now
--- target (Gl: Change Target).
function opponent_targets(ctx, f)
  local out = {}
  for _, t in ipairs(SM.chosen_targets(ctx)) do
    if t.player ~= ctx.player and t.card.controller == ctx.player and (f == nil or f(t.card))
        and not util.contains(out, t.card) then
      out[#out + 1] = t.card
    end
  end
  return out
end

--- Change Target (Gl): `new` becomes the target of what targets `old` now; its conditions are not
--- checked. Returns whether.
function change_target(ctx, old, new)
  if old == nil or new == nil or old == new or not new.alive or not SM.in_field(new) then return false end
  ctx:modify(new, { char = "redirect", op = "set", value = old.id + 1 }, { ["until"] = "end_of_subturn" })
  return true
end

--- Move Mystic Card (Gl): a PS or PM Mystic Card pasted on a card moves to `host`, a card it may be
--- pasted on (SM 201.8.2.1, 201.8.2.3, 201.11.2); the same card, with its Turns (not a paste: no
--- "when pasted"). Returns whether it moved.
function move_mystic(ctx, m, host)
  if m == nil or host == nil or not SM.is_mystic(m) or m.host == nil or m.host == host then return false end
  if not util.contains(SM.paste_hosts(ctx, m), host) then return false end
  local moved = ctx:attach(m, host, { reason = "move" }) ~= nil
  SM.fix_cancel(ctx) -- Gl: Cancel (protection.lua)
  return moved
end

--- For a `target` function: the Mystic Cards pasted on cards of the Arena that could move to
--- another card (Gl: Move Mystic Card).
function movable_mystics(ctx)
  local out = {}
  for _, p in ipairs({ ctx.turn_player, SM.defender(ctx) }) do
    for _, m in ipairs(SM.mystics(ctx, p)) do
      if m.host ~= nil then
        for _, h in ipairs(SM.paste_hosts(ctx, m)) do
          if h ~= m.host then out[#out + 1] = m break end
        end
      end
    end
  end
  return out
end

--- The cards Mystic Card `m` could move to (Gl: Move Mystic Card).
function mystic_hosts(ctx, m)
  return util.filter(SM.paste_hosts(ctx, m), function(h) return h ~= m.host end)
end
