-- Vanish (Gl: Vanish; docs/rulings A.32, A.34, B.32): an Ability that works when its Seal becomes
-- Inactive: its owner Removes it (SM 706) for the time its text gives, then brings it back into the
-- Arena; it keeps working from the Remove Zone (SM 304.3: an Effect that works there). It does not
-- work when its owner has no other Seal in the Arena, nor when the Seal is a battle's loser (713).
--
-- Card data: the valued keyword `{vanish: N}` ("Vanish N Turns"; an Effect may grant `vanish`,
-- then N is 1). The time is a count-down Effect on the `vanished` characteristic (N Turns = 2N
-- End of Subturn Steps, docs/rulings A.5) that persists in the Remove Zone; when it runs out (the
-- kernel's `expired` event) the Seal comes back through SM 708 (no Interfere Step) into no Line,
-- and its controller assigns it one at once (SM 515.3, 517).

SM = SM or {}

--- How many Turns card `c` vanishes for (its `vanish` keyword's value; 1 when an Effect gave it).
function SM.vanish_turns(c)
  local n = c:keyword("vanish")
  if type(n) ~= "number" or n < 1 then return 1 end
  return n
end

--- Whether Seal `c`, which just became Inactive, vanishes now (Gl: Vanish): it has Vanish, stands
--- in the Arena unattached, is no battle's loser (713), and its controller ("we", Gl: เรา, docs/
--- rulings A.24) has another Seal in the Arena.
function SM.vanish_due(ctx, c)
  if c == nil or not c.alive or not SM.is_seal(c) or c.host ~= nil then return false end
  if not util.contains(SM.SEAL_PLACES, c.zone) or not c:has("keywords", "vanish") then return false end
  if c:flag_on("loser") then return false end
  for _, s in ipairs(SM.seals(ctx, c.controller)) do
    if s ~= c then return true end
  end
  return false
end

--- Gl: Vanish: its owner Removes Seal `c` for its Turns (SM 706, with the Interfere Step of 706.5).
function SM.vanish(ctx, c)
  local p = c.controller
  local vctx = ctx:with({ source = c, player = p })
  vctx:modify(c, { char = "vanished", op = "set", value = 1 },
    { ["until"] = "end_of_subturn", times = 2 * SM.vanish_turns(c), persists_in = "remove_zone" })
  SM.change_zone(vctx, c, "remove", { reason = "vanish" })
end

--- Gl: Vanish, SM 515.3 (docs/rulings A.34): the time is over: Seal `c` comes back into its owner's
--- Arena (708, no Interfere Step) in no Line, and is assigned a Line at once. Seals that were its
--- Supports (a combination stays whole in the Remove Zone, 508.8) come back beside it, separated.
function SM.vanish_return(ctx, c)
  local supports = SM.supports(c)
  local p = c.owner
  ctx:procedure("enter", { card = c, player = p, reason = "vanish", line_ok = true, kind = "enter", as_effect = true })
  for _, s in ipairs(supports) do
    local n = ctx:current(s)
    if n ~= nil and n.alive and n.host == nil and n.zone == "casting" then
      ctx:move(n, "no_line", { player = p, reason = "vanish", by = false })
    end
  end
end

-- The rules' own abilities (hooks.rule_abilities) ---------------------------------------------------

--- Gl: Vanish: a Seal with Vanish that becomes Inactive vanishes.
SM.RULES[#SM.RULES + 1] = {
  kind = "triggered", on = "turned",
  when = function(ctx, ev) return ev.key == "inactive" and SM.vanish_due(ctx, ev.card) end,
  operate = function(ctx)
    local c = ctx.event.card
    if SM.vanish_due(ctx, c) then SM.vanish(ctx, c) end
  end,
}

--- Gl: Vanish: its time is over: it comes back into the Arena.
SM.RULES[#SM.RULES + 1] = {
  kind = "triggered", on = "expired",
  when = function(ctx, ev)
    return ev.key == "vanished" and ev.card ~= nil and ev.card.alive and ev.card.zone == "remove_zone"
  end,
  operate = function(ctx) SM.vanish_return(ctx, ctx.event.card) end,
}
