-- Steal (Gl: Steal; Ability "เมื่อ Steal สำเร็จ"): the thing stolen goes to its owner's Remove Zone
-- (SM 706); when the card that stole it leaves the Arena, it comes back into the game and its owner
-- takes it into their hand (705); the Steal's Effect keeps applying to it in the Remove Zone (304.3).
-- "When Steal succeeds" abilities work when it reached the Remove Zone by the Steal.
--
-- The link is an Effect tagged `steal` on the stolen card's `stolen` characteristic, made by the
-- stealing card (its source) and persisting in the Remove Zone: it names what was stolen and by
-- whom, and follows the card there (another move ends it, and the card is no longer "stolen").

SM = SM or {}

--- The cards card `c` (the stealing card, as the object that stole) holds stolen now: those in a
--- Remove Zone with its `steal` Effect.
function SM.stolen_by(ctx, c)
  local out = {}
  if c == nil then return out end
  for _, e in ipairs(ctx:effects({ source = c, tag = "steal" })) do
    local t = e.target
    if t ~= nil and type(t) ~= "number" and t.alive and t.zone == "remove_zone" then out[#out + 1] = t end
  end
  return out
end

--- Gl: Steal: the stolen cards of `stealer` (the object that left the Arena) come back into the
--- game: their owners take them into their hands (SM 705, with its Interfere Step).
function SM.steal_return(ctx, stealer)
  local back = SM.stolen_by(ctx, stealer)
  if #back > 0 then SM.change_zone(ctx, back, "hand", { reason = "steal" }) end
end

--- Gl: Steal: card `stealer` (default: the ability's card) steals card `t` (in the Arena, a hand or
--- elsewhere, not in a Remove Zone): `t` goes to its owner's Remove Zone with the Steal's Effect
--- (SM 706). When it got there, "when Steal succeeds" abilities work (event `stole`); if the
--- stealing card is no longer in the Arena by then, the card comes back at once. Returns the
--- stolen card in the Remove Zone, or nil.
function SM.steal(ctx, t, stealer)
  stealer = stealer or ctx.source
  if t == nil or stealer == nil or not t.alive or t.zone == "remove_zone" or t == stealer then return nil end
  local sctx = ctx:with({ source = stealer })
  sctx:modify(t, { char = "stolen", op = "set", value = ctx.player }, { tag = "steal", persists_in = "remove_zone" })
  SM.change_zone(sctx, t, "remove", { reason = "steal" })
  local n = ctx:current(t)
  if n == nil or not n.alive or n.zone ~= "remove_zone" or n.stolen == 0 then return nil end
  if not (stealer.alive and SM.in_field(stealer)) then
    SM.steal_return(ctx, stealer)
    return nil
  end
  ctx:emit("stole", { card = stealer, target = n, player = ctx.player })
  return n
end

-- Vocabulary (docs/scripting-summoner-master.md) ------------------------------------------------------

--- "Steal <card>" (Gl: Steal): this card steals it. Returns the stolen card, or nil.
function steal(ctx, t) return SM.steal(ctx, t) end

--- The cards this card holds stolen (in a Remove Zone).
function stolen_cards(ctx, c) return SM.stolen_by(ctx, c or ctx.source) end

--- "When Steal succeeds" (Ability "เมื่อ Steal สำเร็จ"): when this card's Steal brought the card into
--- the Remove Zone; `args.event.target` (ctx.event.target) is the stolen card.
function on_steal(a)
  a.kind, a.on = "triggered", "stole"
  a.match = a.match or { card = "self" }
  a.zones = a.zones or { "at_line", "df_line", "no_line", "arena" }
  return a
end

-- The rules' own ability (hooks.rule_abilities) -------------------------------------------------------

--- Gl: Steal: a card that leaves the Arena gives back what it stole.
SM.RULES[#SM.RULES + 1] = {
  kind = "triggered", on = "moved",
  match = { from = SM.FIELD, to = SM.NOT_FIELD }, -- (the kernel's test: most moves are not out of the Arena)
  when = function(ctx, ev)
    return ev.old ~= nil and ev.from ~= nil and util.contains(SM.FIELD, ev.from)
      and not util.contains(SM.FIELD, ev.to or "") and #SM.stolen_by(ctx, ev.old) > 0
  end,
  operate = function(ctx) SM.steal_return(ctx, ctx.event.old) end,
}
