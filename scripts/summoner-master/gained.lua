-- Gaining another card's Skill or Ability: Gl: ได้รับ <Skill/Ability> ของการ์ดใบอื่น. The card gains a
-- copy; the card it comes from and the card that gains it have different names; in the copy the
-- first card's name, its limit brackets' included ((X/Y), ([S] X/Y)), is the name of the card that
-- has it. The kernel gives the copy (`ctx:grant_ability`) and runs it with `ctx.source` = the card
-- that has it, so "this card", [S] and the limits read the receiver (docs/kernel.md SM84).

SM = SM or {}

--- The Skills (`timing` "skill") or other abilities of card `from` another card may gain: those of
--- its text in the Arena (not a hand Skill, SM 619).
function SM.gainable(ctx, from, skills)
  return util.filter(ctx:abilities({ card = from }), function(ab)
    local is_skill = SM.timing_of(ab.def) == "skill"
    return ab.source == from and is_skill == (skills == true) and not ab.def.hand and ab.def.kind ~= "static"
  end)
end

--- Gl: ได้รับ ...: `receiver` gains ability `ab` (an entry of SM.gainable) for a duration (verbs.lua
--- `lasts`; nil: while it stays in the Arena). Not from a card of the same name. Returns whether.
function gain_ability(ctx, receiver, ab, duration)
  if receiver == nil or ab == nil or not receiver.alive or not SM.in_field(receiver) then return false end
  local from = ab.source
  if from == receiver or receiver:has("names", from.name) or from:has("names", receiver.name) then return false end
  if not SM.may_affect(ctx, receiver) then return false end
  ctx:grant_ability(ab.def, receiver, lasts(ctx, duration) or {})
  return true
end

--- "This card gains a Skill of card `from`": its player chooses which one when it has several
--- (prompt `gain`). Returns whether it gained one.
function gain_skill(ctx, receiver, from, duration)
  if from == nil then return false end
  local list = SM.gainable(ctx, from, true)
  if #list == 0 then return false end
  local ab = list[1]
  if #list > 1 then
    local opts = util.map(list, function(x)
      return { label = x.def.name or ("Skill " .. x.index), kind = "skill", ab = x }
    end)
    ab = ctx:choose(ctx.player, opts, { prompt = "gain" }).ab
  end
  return gain_ability(ctx, receiver, ab, duration)
end
