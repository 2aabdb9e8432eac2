-- Protection: Gl: Protect (การป้องกัน), Except (ข้อยกเว้น), Cancel (ยกเลิก), Ability "ยกเลิก Curse" and
-- "ยกเลิก X Curse", Hyper Drive, (ยกเลิกไม่ได้), (สูญเสียไม่ได้); with SM 201.11 (a Mystic Card's
-- exceptions), 201.8.2.1 (a PS whose effect is cancelled falls to the Shrine), 601.1.3 (abilities do
-- not work while their card is being cast), 709.4 (a Curse cancelled ends at once), 709.13 (Curses
-- ending together).
--
-- "The thing" a card is protected from, or cancels, is data (docs/rulings B.19): a table whose keys
-- all must hold of what acts: `card` ("seal" or "mystic": the acting card's kind), `element`,
-- `race`, `name`, `mystic_type` (the acting card has it), `not_mystic_type` (it has not), `via`
-- ("skill" or "ability": the effect comes from a Skill, or from an Ability, a Mystic Card's effect
-- included), `curse` ("any" or a Curse's kind: the effect is that Curse), `player = "opponent"`
-- (the effect is the opponent's). A card prints them (`protect`, `cancel`, a Seal's `exceptions`);
-- an effect gives them as an ability: the `protection {protect = ..., cancel = ...}` its card's
-- script declares (dormant), given for a duration (`grant_protection`).
--
-- What acts (SM.acting): the card whose Skill or Ability makes the effect (`ctx.source`), whether it
-- is a Skill's (`ctx.via`, set by skills.lua) or an Ability's, the player whose effect it is, and
-- the Curse it makes. Attacks and the rules' own actions are no effect of a thing (docs/rulings B.19).

SM = SM or {}

-- Things ------------------------------------------------------------------------------------------

--- The keys a thing may have (the card schema's `thing`).
SM.THING_KEYS = { "card", "curse", "element", "mystic_type", "name", "not_mystic_type", "player", "race", "via" }

--- What acts now (docs/rulings B.19): {source, via, player, curse}.
function SM.acting(ctx, curse)
  return { source = ctx.source, via = ctx.via or "ability", player = ctx.player, curse = curse }
end

--- Whether thing `t` is what acts (`a`) on card `c`.
local function is(t, a, c)
  if t.curse ~= nil and not (a.curse ~= nil and (t.curse == "any" or t.curse == a.curse)) then return false end
  if t.via ~= nil and t.via ~= a.via then return false end
  if t.player == "opponent" and (a.player == nil or a.player == c.controller) then return false end
  local s = a.source
  if t.card or t.element or t.race or t.name or t.mystic_type or t.not_mystic_type then
    if s == nil then return false end
    if t.card ~= nil and s.category ~= t.card then return false end
    if t.element ~= nil and not (s:has("elements", t.element) or s:has("elements", "multi")) then return false end
    if t.race ~= nil and not s:has("races", t.race) then return false end
    if t.name ~= nil and not s:has("names", t.name) then return false end
    if t.mystic_type ~= nil and not s:has("mystic_types", t.mystic_type) then return false end
    if t.not_mystic_type ~= nil and s:has("mystic_types", t.not_mystic_type) then return false end
  end
  return true
end

-- Abilities that work, texts that are lost ---------------------------------------------------------

--- Whether card `c`'s text works now for its printed Protect and Cancel: in the Arena, not while it
--- is being cast or entering (SM 601.1.3), not lost (Gl: (สูญเสียไม่ได้)).
local function text_works(c)
  return not (c:flag_on("being_cast") or c:flag_on("entering")) and c.text_lost == 0
end

--- Whether card `c` prints keyword `k` (read where a computed read could go round).
local function printed_keyword(c, k)
  for _, x in ipairs(c:printed("keywords") or {}) do
    if x == k then return true end
  end
  return false
end

--- Whether card `c` has Hyper Drive as printed.
local function printed_hyper(c) return printed_keyword(c, "hyper_drive") end

--- Whether ability `def` of card `c` is lost (Gl: (สูญเสียไม่ได้), Hyper Drive): an effect made its
--- card lose its text (verbs.lua `lose_text`), the ability is not marked `unlosable` and the card
--- has no Hyper Drive ("its Skills and Abilities cannot be lost").
function SM.text_lost(c, def)
  if c == nil or c.text_lost == 0 then return false end
  if def ~= nil and def.unlosable then return false end
  return not printed_hyper(c)
end

--- Whether card `c`'s effects cannot be cancelled ((ยกเลิกไม่ได้)).
function SM.uncancellable(c) return c ~= nil and c:has("keywords", "uncancellable") end

-- What a card is protected from and cancels ------------------------------------------------------------

--- The things of field `field` ("protect" or "cancel") of the protection abilities effects gave card
--- `c` (`protection {}`, given by `grant_protection`).
local function granted(ctx, c, field)
  local out = {}
  if ctx == nil or c.warded == 0 then return out end
  for _, ab in ipairs(ctx:abilities({ card = c })) do
    local t = ab.granted and ab.def[field] or nil
    if t ~= nil then
      for _, x in ipairs(t[1] and t or { t }) do out[#out + 1] = x end
    end
  end
  return out
end

--- The things card `c` is protected from (Gl: Protect): its printed `protect` and, on a Seal, its
--- printed `exceptions` (Gl: Except works like Protect), while its text works; those effects gave it
--- (with `ctx`).
function SM.protect_things(c, ctx)
  local out = granted(ctx, c, "protect")
  if text_works(c) then
    for _, t in ipairs(c:printed("protect") or {}) do out[#out + 1] = t end
    if SM.is_seal(c) then
      for _, t in ipairs(c:printed("exceptions") or {}) do out[#out + 1] = t end
    end
  end
  return out
end

--- Hyper Drive's things (Gl: Hyper Drive: it cancels Curses and non-[Relic] Mystic Cards).
SM.HYPER_DRIVE = { { curse = "any" }, { card = "mystic", not_mystic_type = "Relic" } }

--- Whether card `c` has Hyper Drive and "ยกเลิก Curse" (`cancel_curse`): as printed with
--- `printed_only`, else its keywords now.
local function cancel_keywords(c, printed_only)
  if printed_only then return printed_hyper(c), printed_keyword(c, "cancel_curse") end
  local hyper, cancel_curse
  for _, k in ipairs(c.keywords) do
    if k == "hyper_drive" then hyper = true elseif k == "cancel_curse" then cancel_curse = true end
  end
  return hyper, cancel_curse
end

--- The things card `c` cancels (Gl: Cancel): its printed `cancel`, "ยกเลิก Curse" (keyword
--- `cancel_curse`), those effects gave it (with `ctx`); Hyper Drive's, even while it is being
--- cast. `printed_only`: the keywords as printed (where reading them could go round).
function SM.cancel_things(c, ctx, printed_only)
  local out = {}
  local hyper, cancel_curse = cancel_keywords(c, printed_only)
  if hyper then
    for _, t in ipairs(SM.HYPER_DRIVE) do out[#out + 1] = t end
  end
  if not text_works(c) then return out end
  for _, t in ipairs(c:printed("cancel") or {}) do out[#out + 1] = t end
  for _, t in ipairs(granted(ctx, c, "cancel")) do out[#out + 1] = t end
  if cancel_curse then out[#out + 1] = { curse = "any" } end
  return out
end

local function any_is(things, a, c)
  for _, t in ipairs(things) do
    if is(t, a, c) then return true end
  end
  return false
end

local CURSE_ANY = { curse = "any" } -- "ยกเลิก Curse" (SM.cancel_things)

--- Whether one of the things card `c` cancels (SM.cancel_things, in its order) is what acts
--- (`a`): each list tested where it is, none gathered.
local function cancel_things_hit(c, ctx, printed_only, a)
  local hyper, cancel_curse = cancel_keywords(c, printed_only)
  if hyper and any_is(SM.HYPER_DRIVE, a, c) then return true end
  if not text_works(c) then return false end
  local t = c:printed("cancel")
  if t ~= nil and any_is(t, a, c) then return true end
  if any_is(granted(ctx, c, "cancel"), a, c) then return true end
  return cancel_curse == true and is(CURSE_ANY, a, c)
end

--- Whether one of card `c`'s Protect things (SM.protect_things) is what acts (`a`): each list
--- tested where it is, none gathered.
function SM.protect_things_hit(ctx, c, a)
  if ctx ~= nil and c.warded ~= 0 and any_is(granted(ctx, c, "protect"), a, c) then return true end
  if not text_works(c) then return false end
  local t = c:printed("protect")
  if t ~= nil and any_is(t, a, c) then return true end
  if SM.is_seal(c) then
    t = c:printed("exceptions")
    if t ~= nil and any_is(t, a, c) then return true end
  end
  return false
end

--- Whether card `c` is protected from what acts (`a`, SM.acting): one of its Protect things, or
--- the acting Mystic Card's exception (SM 201.11.2; Gl: Except).
function SM.protected(ctx, c, a)
  if not SM.in_field(c) then return false end
  local s = a.source
  if s ~= nil and s ~= c and SM.is_mystic(s) and SM.breaks_exception(s, c) then return true end
  return SM.protect_things_hit(ctx, c, a)
end

--- Whether card `c` cancels what acts (Gl: Cancel), unless what acts cannot be cancelled.
function SM.cancels(ctx, c, a, printed_only)
  if not SM.in_field(c) or (a.source ~= nil and a.source == c) then return false end
  if not cancel_things_hit(c, ctx, printed_only, a) then return false end
  return not SM.uncancellable(a.source)
end

--- Whether what acts in `ctx` may target card `c` (Gl: Protect: "ป้องกันการตกเป็นเป้าหมาย"; a Cancel
--- does not stop the targeting). `curse`: the target is for that Curse.
function SM.may_target(ctx, c, curse)
  if type(c) ~= "userdata" then return true end
  return not SM.protected(ctx, c, SM.acting(ctx, curse))
end

--- Whether what acts in `ctx` affects card `c`: not protected (Gl: Protect), not cancelled (Gl:
--- Cancel: "ผลนั้นหายไปก่อนที่จะเกิดผลสำเร็จ").
function SM.may_affect(ctx, c, curse)
  if type(c) ~= "userdata" then return true end
  local a = SM.acting(ctx, curse)
  return not SM.protected(ctx, c, a) and not SM.cancels(ctx, c, a)
end

--- The cards of `cards` (nil, a card or a list) what acts in `ctx` may target.
function SM.targetable(ctx, cards, curse)
  return util.filter(SM.list(cards), function(c) return SM.may_target(ctx, c, curse) end)
end

--- Whether what acts in `ctx` may target one of `cards` at least (#SM.targetable > 0, stopping at
--- the first).
function SM.any_targetable(ctx, cards, curse)
  for _, c in ipairs(SM.list(cards)) do
    if SM.may_target(ctx, c, curse) then return true end
  end
  return false
end

--- The cards of `cards` what acts in `ctx` affects.
function SM.affected(ctx, cards, curse)
  return util.filter(SM.list(cards), function(c) return SM.may_affect(ctx, c, curse) end)
end

--- The duration of an effect made by what acts in `ctx` (verbs.lua `lasts`): tagged with the Skill
--- or Ability that makes it (for Cancel: `via`), unless it has a tag; one that cannot be
--- cancelled when its card's effects cannot be ((ยกเลิกไม่ได้)).
function SM.effect_duration(ctx, d)
  local out = lasts(ctx, d) or {}
  if out.tag == nil and ctx.source ~= nil then out.tag = ctx.via or "ability" end
  if SM.uncancellable(ctx.source) then out.uncancellable = true end
  return out
end

--- Whether a static ability (its ctx: the card whose ability it is) affects card `c`: `printed_only`
--- when the ability changes keywords, which the check itself reads, so that reading it does not go
--- round.
function SM.static_affects(ctx, c, printed_only)
  local a = { source = ctx.source, via = "ability", player = ctx.player }
  if c == ctx.source then return true end
  return not SM.protected(ctx, c, a) and not SM.cancels(ctx, c, a, printed_only)
end

-- Cancel: what was there before goes (Gl: Cancel, 201.8.2.1, 709.4, 709.13) ----------------------------

--- What acts for effect `e` of ctx:effects: its source, player, Skill or Ability (the effect's
--- tag), and the Curse it is (a waiting Curse's kind: curses.lua).
local function effect_acting(e)
  local a = { source = e.source, player = e.controller }
  if e.tag == "skill" or e.tag == "ability" then a.via = e.tag end
  if e.tag == "curse" then
    if string.sub(e.char, 1, 5) == "wait_" then a.curse = string.sub(e.char, 6) else a.curse = e.char end
  end
  return a
end

--- What Cancel takes away now: the effects on cards of the Arena (a Seal, a card being cast, a
--- Mystic Card in the Arena: a Support Seal's effects are forgotten for a while anyway, SM 510.4),
--- and the Mystic Cards pasted on them, of a thing the card cancels (its own effects are not; nor
--- those that cannot be cancelled).
local function to_cancel(ctx)
  local effects, mystics = {}, {}
  for p = 1, 2 do
    for _, c in ipairs(util.concat(SM.seals(ctx, p), ctx:cards("casting", p), ctx:cards("arena", p))) do
      local things = SM.cancel_things(c, ctx)
      if #things > 0 then
        for _, e in ipairs(ctx:effects({ target = c })) do
          if e.cancellable and (e.source ~= nil or e.tag == "curse") and e.source ~= c then
            local a = effect_acting(e)
            if not SM.uncancellable(a.source) and any_is(things, a, c) then effects[#effects + 1] = e end
          end
          if e.cancellable and e.char == "text_lost" and c:has("keywords", "hyper_drive") then
            effects[#effects + 1] = e -- Gl: Hyper Drive: its Skills and Abilities cannot be lost
          end
        end
        for _, m in ipairs(SM.pasted_on(c)) do
          local a = { source = m, via = "ability", player = m.controller }
          if not SM.uncancellable(m) and any_is(things, a, c) then mystics[#mystics + 1] = m end
        end
      end
    end
  end
  return effects, mystics
end

--- Gl: Cancel: the effects of a thing a card cancels that were on it before disappear (Curses
--- together, SM 709.13); a PS or PM Mystic Card whose effect is cancelled falls to the Shrine at
--- once (201.8.2.1, 201.8.2.3). Run where a card may begin to cancel: a cast or an entry succeeds
--- (its printed Cancel works from then, 601.1.3; a PS or PA Mystic Card's static gives one), an
--- effect gives Cancel, Hyper Drive or "ยกเลิก Curse" (verbs), a Mystic Card moves.
function SM.fix_cancel(ctx)
  local effects, mystics = to_cancel(ctx)
  if #effects == 0 and #mystics == 0 then return end
  ctx:together(function(ctx)
    for _, e in ipairs(effects) do ctx:end_effect(e.handle) end
  end)
  for _, m in ipairs(mystics) do
    if m.alive then ctx:move(m, "mystic_shrine", { player = m.owner, reason = "cancelled", by = false }) end
  end
end

-- Losing text (Gl: (สูญเสียไม่ได้), Hyper Drive) ------------------------------------------------------

--- The keywords that are abilities (game.yaml `abilities.keywords`): a card that loses its text
--- loses them too. Hyper Drive is not one: it cannot be lost.
SM.KEYWORD_ABILITIES = { "charging", "fixed_charging", "weak_touch", "wake_up", "attack_df_line", "attack_hand",
  "counter_in_df", "cancel_curse" }

--- Cards lose their text (their abilities, Skills and keyword abilities) for a duration: not a card
--- with Hyper Drive (Gl: Hyper Drive), and not the abilities marked `unlosable` ((สูญเสียไม่ได้)).
--- The abilities it gains afterwards work (a keyword ability an effect gives later too).
function lose_text(ctx, cards, duration)
  local list = util.filter(SM.affected(ctx, cards), function(c)
    return c.alive and SM.in_field(c) and not c:has("keywords", "hyper_drive")
  end)
  if #list == 0 then return end
  local d = SM.effect_duration(ctx, duration)
  ctx:modify(list, { char = "text_lost", op = "set", value = 1 }, d)
  for _, c in ipairs(list) do
    for _, k in ipairs(SM.KEYWORD_ABILITIES) do
      if c:has("keywords", k) then ctx:modify(c, { char = "keywords", op = "revoke", value = k }, d) end
    end
  end
end

--- Gives cards a `protection {}` ability the card's script declares (Gl: Protect, Cancel) for a
--- duration (verbs.lua `lasts`; nil: while the card stays in the Arena).
function grant_protection(ctx, cards, protection, duration)
  for _, c in ipairs(SM.affected(ctx, cards)) do
    if c.alive and SM.in_field(c) then
      ctx:grant_ability(protection, c, lasts(ctx, duration) or {})
      -- `warded`: the card has such an ability (read before looking for it).
      local d = lasts(ctx, duration) or {}
      d.uncancellable = true
      ctx:modify(c, { char = "warded", op = "add", value = 1 }, d)
    end
  end
  if protection.cancel ~= nil then SM.fix_cancel(ctx) end
end
