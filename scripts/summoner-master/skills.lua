-- Skills: SM 604 (Skills and their conditions), 605 (the normal Skill), 606 (All), 607 (multiple),
-- 608 (two-phase), 619 (a Skill of a card in the hand), with 500.5-500.8 (commanding a Mystic
-- Card: once per Subturn, docs/rulings A.9), 500.10 (Interfere Skills), 712.1 (a card controlled
-- by a player other than its owner uses no Skill) and 605.12 (follow-up commands).
--
-- A Skill is the kernel-run procedure `skill` (game.yaml). Its record: `card` (the card using the
-- Skill; for a hand Skill, bound only after the Interfere Step, 619.13), `name` (a hand Skill's
-- announced name), `ability` (the Skill's key, `SM01-004#1`), `player`, `mode` (normal, all,
-- multiple, two_phase), `count`, `done`, `phase` (1 or 2 for a two-phase Skill), `target`,
-- `free` and `follow_up`, and the slot lists.

SM = SM or {}

--- The Skill ability `key` of card `c` (as its card has it now), or nil.
local function skill_of(ctx, c, key)
  for _, ab in ipairs(ctx:abilities({ card = c, timing = "skill" })) do
    if ab.key == key then return ab end
  end
  return nil
end

--- The commanding player, as a window's players (SM 711.3: the Skill's user chooses).
function SM.skill_player(ctx, d) return { d.player } end

--- A Skill's name for labels: its `name`, or "Skill N".
local function skill_name(ab) return ab.def.name or ("Skill " .. ab.index) end

--- The ctx a Skill works in: the card's, its commanding player choosing (SM 711.3).
local function skill_ctx(ctx, d) return ctx:with({ source = d.card, player = d.player, via = "skill" }) end

--- A Skill's targets now (phase 2's for a two-phase Skill in its second phase); not a card protected
--- from it (Gl: Protect).
local function targets_of(ctx, d, def)
  local t = (d.phase == 2 and def.phase2 or def).target
  if t == nil then return nil end
  local sctx = skill_ctx(ctx, d)
  return SM.targetable(sctx, t(sctx, { data = d }))
end

--- Whether card `c` meets Skill `ab`'s conditions for player `p` (SM 604.6): its box exists, its
--- card is in the Arena (303.4) or, for a hand Skill, in the hand; controlled by its owner
--- (604.6.2, 712.1); no other command pending; a Seal Active, not attached (510.3), not Stoned or
--- in Dimension (709.5.2, 709.11.4); in the Line or form the Skill needs (604.6.1); its condition
--- and its (X/Y) limit.
function SM.skill_usable(ctx, ab, p)
  local c, def = ab.source, ab.def
  if not SM.box_open(c, def) then return false end
  if def.hand then
    if c.zone ~= "hand" or c.owner ~= p then return false end
  else
    if not SM.in_field(c) or c.controller ~= p or c.owner ~= p then return false end
    if c:flag_on("pending") or c:flag_on("being_cast") or c:flag_on("entering") then return false end
    if SM.is_seal(c) and (c.host ~= nil or not SM.active(c) or SM.uncommandable(c)) then return false end
    if SM.is_mystic(c) and ctx:uses(p, "mystic_command") > 0 then return false end -- SM 500.7
  end
  if def.line and c.zone ~= def.line then return false end
  if def.form then
    local f = SM.form_of(c)
    if f == nil or f.name ~= def.form then return false end
  end
  -- (All reads: the limit and the cost, read in a few values, before the condition and the
  -- targets, which card scripts work out.)
  if not SM.limit_left(ctx, ab) then return false end
  if not SM.skill_cost_payable(ctx, ab, c, p) then return false end -- SM 605.5 (costs.lua)
  local sctx = ctx:with({ source = c, player = p, via = "skill" })
  if def.condition and not def.condition(sctx, {}) then return false end
  return not def.target or SM.any_targetable(sctx, def.target(sctx, {})) -- SM 605.4
end

--- The Skill options of player `p`: in the Main Step every usable Skill; in an Interfere Step
--- (`interfere_only`) only Interfere Skills (SM 500.10). Hand Skills are declared by name
--- (619.2): one option per name and Skill.
function SM.skill_options(ctx, p, interfere_only)
  local out = {}
  local named = {}
  -- Only `p`'s (SM.skill_usable wants the card's controller to be `p`, or for a hand Skill its
  -- owner: a card in the hand is its owner's, the Arena alone keeps a card's object and controller).
  -- SM 500.10: in an Interfere Step, the Skills with Interfere only: their own timing lists them
  -- alone, in the same order (cards.lua `skill`).
  local timing = interfere_only and "interfere_skill" or "skill"
  for _, ab in ipairs(ctx:abilities({ kind = "activated", timing = timing, player = p })) do
    local def = ab.def
    if (not interfere_only or def.interfere) and SM.skill_usable(ctx, ab, p) then
      local c = ab.source
      if def.hand then
        local key = c.name .. "#" .. ab.index
        if not named[key] then
          named[key] = true
          out[#out + 1] = { label = "declare " .. c.name .. ": " .. skill_name(ab), kind = "hand_skill",
            procedure = "skill", data = { name = c.name, index = ab.index, player = p, kind = "hand_skill",
              mode = def.mode, count = def.count } }
        end
      else
        out[#out + 1] = { label = "use " .. c.label .. ": " .. skill_name(ab), kind = "skill", card = c,
          procedure = "skill", data = { card = c, ability = ab.key, player = p, kind = "skill",
            mode = def.mode, count = def.count } }
      end
    end
  end
  return out
end

--- The Skill a record stands for: a card's Skill, or a hand Skill by name (before it is bound,
--- any card of that name in the hand shows it: 619.1).
local function record_skill(ctx, d)
  if d.card ~= nil then
    if d.ability ~= nil then return skill_of(ctx, d.card, d.ability) end
    for _, ab in ipairs(ctx:abilities({ card = d.card, timing = "skill" })) do
      if ab.index == d.index then return ab end
    end
    return nil
  end
  for _, c in ipairs(ctx:cards("hand", d.player)) do
    if c.name == d.name then
      for _, ab in ipairs(ctx:abilities({ card = c, timing = "skill" })) do
        if ab.index == d.index then return ab end
      end
    end
  end
  return nil
end

--- SM 605.1-605.6 (606.1-606.6, 607.1-607.6, 608.2-608.7, 619.2-619.7): the card is commanded to
--- use the Skill; its target must exist (605.4), the cost is checked then paid; the card is using
--- a Skill. "When a player commands / declares a Skill" abilities work after this step (for an
--- All Skill they work before the payment, 606.5: docs/rulings A.17).
function SM.skill_declare(ctx, d)
  local ab = record_skill(ctx, d)
  if ab == nil or not SM.skill_usable(ctx, ab, d.player) then return "stop" end
  local def = ab.def
  local key = d.kind == "hand_skill" and "hand_skill" or "skill"
  local event = SM.declared_fields({ card = d.card, player = d.player, key = key, name = d.name })
  if def.mode == "all" then
    ctx:emit("declared", event)
    ctx:resolve_triggers()
  end
  if not d.free and not SM.pay_skill(ctx, d, ab) then return "stop" end -- SM 605.6 (costs.lua)
  -- Gl: (X/Y): a Skill used counts when it is commanded; ([S] X/Y) when it succeeded (605.13).
  if not (def.limit and def.limit.shared) then SM.limit_use(ctx, ab) end
  if d.card ~= nil then
    SM.begin_command(ctx, d, d.card)
    ctx:set_flag(d.card, "using_skill", true)
    if SM.is_mystic(d.card) then ctx:use(d.player, "mystic_command") end
  else
    SM.begin_command(ctx, d, nil)
  end
  d.done, d.phase = 0, 1
  if def.mode ~= "all" then ctx:emit("declared", event) end
end

--- SM 605.7, 607.7, 608.8, 608.15, 619.8: the Skill's target (a window of its player); an All
--- Skill's target is the opponent (606.7).
function SM.skill_target_actions(ctx, p, d)
  if d.target ~= nil then return {} end
  local ab = record_skill(ctx, d)
  if ab == nil then return {} end
  local cands = targets_of(ctx, d, ab.def)
  if cands == nil then return {} end
  return util.map(cands, function(c)
    return { label = c.label, kind = "target", card = c, run = function(ctx, o, d) d.target = o.card end }
  end)
end

--- SM 605.8 (606.8, 607.8, 608.16, 619.9): "when a card uses a Skill" abilities choose (for a hand
--- Skill, before its card is known, none of the card's own: docs/rulings 619).
function SM.skill_choose(ctx, d)
  if d.card ~= nil then SM.slot_choose(ctx, d, "uses_skill", { d.card }) end
end

--- SM 605.10: they are checked and work (a failed target chooses again, the Skill's own target
--- staying).
function SM.skill_check(ctx, d) return SM.slot_check(ctx, d, "choose", { "uses_skill" }) end

--- SM 605.11 (608.10, 608.19, 619.12): the Skill is checked: its conditions (else the card leaves
--- the Skill and a Seal becomes Inactive); its target (else another is chosen, 605.7; with none
--- left the Skill ends).
function SM.skill_validate(ctx, d)
  local ab = record_skill(ctx, d)
  if ab == nil then d.failed = true return "finish" end
  local c = d.card
  if c ~= nil and not d.free and not d.twinkled then
    if not (SM.still_commands(d, c) and SM.in_field(c) and c.owner == c.controller) then d.failed = true return "finish" end
    if ab.def.line and c.zone ~= ab.def.line then d.failed = true return "finish" end
  end
  -- Gl: Change Target: a target changed is not checked.
  local t, changed = SM.redirect(ctx, d.target)
  if changed then d.target, d.changed = t, true end
  local cands = targets_of(ctx, d, ab.def)
  if d.changed and d.target and d.target.alive then cands = nil end
  if cands ~= nil then
    if not (d.target and d.target.alive and util.contains(cands, d.target)) then
      d.target = nil
      if #cands == 0 then d.failed = true return "finish" end
      return d.phase == 2 and "targets2" or "targets"
    end
  end
end

--- SM 619.13: a hand Skill binds its card now: a card of the announced name in the hand (its
--- player chooses which, privately), or the Skill ends, its cost spent (docs/rulings A.16).
function SM.skill_bind(ctx, d)
  if d.card ~= nil then return nil end
  local found = util.filter(ctx:cards("hand", d.player), function(c) return c.name == d.name end)
  if #found == 0 then d.failed = true return "finish" end
  local c = #found == 1 and found[1] or ctx:choose_cards(d.player, found, { prompt = "pick: " .. d.name })
  d.card = c
  ctx:reveal(c)
end

--- SM 605.12 (606.12, 607.12, 608.11, 608.20): the Skill works. A follow-up command it orders
--- runs then, unpaid (verbs.lua `follow_up`).
function SM.skill_work(ctx, d)
  local ab = record_skill(ctx, d)
  if ab == nil then d.failed = true return "finish" end
  local def = ab.def
  local args = { target = d.target, data = d }
  if def.mode == "all" then args.player = SM.other(d.player) end
  ctx:emit("skill_used", { card = d.card, player = d.player, key = d.kind == "hand_skill" and "hand" or def.mode, skill = skill_name(ab) })
  local op = (d.phase == 2 and def.phase2 or def).operate
  if op then op(skill_ctx(ctx, d), args) end
  ctx:emit("ability_worked", { card = d.card, player = d.player, key = "skill" })
  d.done = (d.done or 0) + 1
  if def.mode == "two_phase" and d.phase == 1 then
    d.phase, d.target, d.changed = 2, nil, nil
    return "interfere2"
  end
  return "success"
end

--- SM 608.13-608.14: the second phase needs a target that can be chosen, or the Skill ends.
function SM.skill_phase2(ctx, d)
  local ab = record_skill(ctx, d)
  if ab == nil then d.failed = true return "finish" end
  local cands = targets_of(ctx, d, ab.def)
  if cands ~= nil and #cands == 0 then d.failed = true return "finish" end
end

--- SM 605.13-605.14: "when the Skill succeeds" abilities work after this step (604.7: also when
--- the card changed zone once the Skill's result applied).
function SM.skill_success(ctx, d)
  if d.failed then return end
  local ab = record_skill(ctx, d)
  if ab ~= nil and ab.def.limit and ab.def.limit.shared and not d.counted then -- Gl: ([S] X/Y)
    d.counted = true
    SM.limit_use(ctx, ab)
  end
  if d.card ~= nil then ctx:emit("skill_success", { card = d.card, player = d.player }) end
end

--- SM 607.15: a multiple Skill goes round again (each time with its own Interfere Step) until its
--- count is reached.
function SM.skill_again(ctx, d)
  if d.mode == "multiple" and d.done < (d.count or 1) and not d.failed then
    d.target, d.changed = nil, nil
    d.slot_keys, d.slot_src, d.slot_subj, d.slot_aim, d.slot_state, d.slot_changed = nil, nil, nil, nil, nil, nil
    return "targets"
  end
end

--- SM 605.15 (and 605.11 when it failed): the card leaves the Skill; a Seal becomes Inactive
--- (500.3), except after a follow-up command (605.12) or when it entered the Arena by its own
--- Skill (700.1).
function SM.skill_finish(ctx, d)
  local c = d.card
  if d.began and c ~= nil and c.alive and SM.is_seal(c) and SM.in_field(c) and c.host == nil
      and not d.follow_up and not d.entered_by_skill then
    SM.inactivate(ctx, c)
  end
end

--- The end: statuses and the lock end.
function SM.skill_end(ctx, d)
  SM.clear_flags(ctx, { d.card }, { "using_skill" })
  SM.end_command(ctx, d)
end
