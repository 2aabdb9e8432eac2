-- Twinkling (Gl: Twinkling): a Skill used from the hand (SM 619) whose card its player must take
-- out of the game from the hand, or discard from the hand to the Shrine; the opponent, and the
-- opponent's card effects, can never take a card Twinkled into the Shrine out of it, even if the
-- Skill is cancelled.
--
-- The card goes as part of the Skill's cost (SM 619.6-619.7: "even if the Skill is cancelled"
-- needs it gone before the Skill works): the player picks which card of the announced name it is,
-- and where it goes (prompt `twinkling`), which binds the Skill to that card at once (619.13 finds
-- it bound). It goes straight there, as the cost of a procedure, with no 702, 703 or 706 of its own
-- (docs/rulings B.22). A card Twinkled into the Shrine carries the flag `twinkled` there.

SM = SM or {}

--- The cards of the hand a Twinkling Skill of record `d` may take: its card (a bound one), or the
--- cards of the announced name in its player's hand.
local function candidates(ctx, d)
  if d.card ~= nil then return d.card.zone == "hand" and { d.card } or {} end
  return util.filter(ctx:cards("hand", d.player), function(c) return c.name == d.name end)
end

--- Whether a Twinkling Skill's card can be put away now (SM 605.5).
function SM.twinkle_payable(ctx, d) return #candidates(ctx, d) > 0 end

--- Gl: Twinkling: the player takes the card from the hand out of the game or to the Shrine (their
--- choice); the Skill is bound to it.
function SM.twinkle(ctx, d)
  local cands = candidates(ctx, d)
  local c = cands[1]
  if #cands > 1 then c = ctx:choose_cards(d.player, cands, { min = 1, max = 1, prompt = "pick: " .. c.name }) end
  local where = ctx:choose(d.player, {
    { label = "remove " .. c.label .. " from the game", kind = "remove", card = c },
    { label = "discard " .. c.label .. " to the Shrine", kind = "shrine", card = c },
  }, { prompt = "twinkling" })
  ctx:reveal(c)
  local n
  if where.kind == "remove" then
    n = ctx:move(c, "remove_zone", { player = c.owner, reason = "twinkling" })[1]
  else
    n = ctx:move(c, SM.shrine_of(c), { player = c.owner, reason = "twinkling" })[1]
    if n ~= nil then ctx:set_flag(n, "twinkled", true) end
  end
  d.card = n or c
  d.twinkled = true
end

-- Gl: Twinkling: a card Twinkled into the Shrine does not leave it for its owner's opponent nor
-- for the effects of their cards.
SM.RULES[#SM.RULES + 1] = {
  kind = "replacement", replaces = "move",
  match = { from = { "seal_shrine", "mystic_shrine" } }, -- (the kernel's test first)
  applies = function(ctx, op)
    local c = op.card
    if not (c:flag_on("twinkled") and (op.from == "seal_shrine" or op.from == "mystic_shrine")) then return false end
    if op.zone == op.from then return false end
    return (op.by ~= nil and op.by ~= c.owner) or (op.source ~= nil and op.source.controller ~= c.owner)
  end,
  replace = function(ctx, op) return nil end,
}
