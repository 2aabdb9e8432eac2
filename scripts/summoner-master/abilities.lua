-- Abilities at work: SM 600-603 (Abilities 601, the Effects they make 602, their order 603),
-- the choice ownership of 711 and 712.2, and the "slots": the Phases at which a procedure asks
-- abilities to choose their modes and targets, then, after an Interfere Step, checks them and
-- lets them work (SM 504.7-504.11 and every command alike).
--
-- Two ways an ability works, as the rules place it:
-- - An ability that chooses and works in the same Phase ("when a player commands", "when cast",
--   "when the attack succeeds", "when destroyed", the Steps' abilities) is a kernel triggered
--   ability of the event the procedure emits at that Phase: it resolves right after the
--   procedure's step, in the kernel's order (SM 603.1: the attack-Subturn player's first, each
--   player ordering their own).
-- - An ability whose choice and work are apart, an Interfere Step between them ("when this Seal
--   attacks", "when this card enters the Arena" of a card being cast, "when it goes to the
--   Shrine"...), is a slot ability: an activated ability whose `timing` names the slot. The
--   procedure asks it at the choosing Phase (SM.slot_choose) and works it at the checking Phase
--   (SM.slot_check), remembering in its record what was chosen and what worked (504.12: "chosen
--   abilities cannot be chosen again, abilities that worked do not work again").

SM = SM or {}

--- The card an ability speaks of as "this Seal": the card it is pasted on for a pasted Mystic
--- Card's text (Gl: Pasted), else the card itself.
function SM.bearer(c)
  if c ~= nil and c.host ~= nil and SM.is_mystic(c) then return c.host end
  return c
end

--- Whether the box an ability belongs to exists now (SM 200.14.3, 611.4: the Growth Box's
--- abilities exist once the Seal grew or regenerated; 200.18.3: the Progress Box's once it
--- progressed).
function SM.box_open(src, def)
  if def.box == "growth" then return src:flag_on("grown") end
  if def.box == "progress" then return src:flag_on("progressed") end
  return true
end

-- Usage limits (Gl: (X/Y), ([S] X/Y)) -------------------------------------------------------------

--- The kernel usage window of a limit's period for card `src`'s player: one Subturn is one
--- kernel turn; a Turn is its player's attack Subturn and the defense Subturn after it (SM 400.1).
local function over(ctx, src, per)
  if per == "game" then return "game" end
  if per == "turn" and ctx.turn_player ~= src.controller then return 2 end
  return 1
end

--- Whether limit `def.limit` ({n, per = "subturn" | "turn" | "game", shared = true for
--- ([S] X/Y)}) still allows ability `ab` to work. ([S] X/Y) counts for every card of its name
--- with the same owner (Gl: the owner Control gives: the kernel's controller, docs/rulings A.24);
--- a gained copy counts under the name of the card that has it (Gl: ได้รับ ..., gained.lua).
function SM.limit_left(ctx, ab)
  local l, src = ab.def.limit, ab.source
  if l == nil or src == nil then return true end
  local used
  if l.shared then
    used = ctx:uses(src.controller, ab.key, { name = src.name, over = over(ctx, src, l.per) })
  else
    used = ctx:uses(src, ab.key, { over = over(ctx, src, l.per) })
  end
  return used < l[1]
end

--- Counts one use of ability `ab` under its limit.
function SM.limit_use(ctx, ab)
  local l, src = ab.def.limit, ab.source
  if l == nil or src == nil then return end
  if l.shared then ctx:use(src.controller, ab.key, { name = src.name }) else ctx:use(src, ab.key) end
end

-- The activation hook --------------------------------------------------------------------------------

--- hooks.activate: an ability works (SM 601): its box exists, its card is not being cast or
--- entering unless it says it works then (601.1.3), its condition holds, its (X/Y) limit allows
--- it, and an optional one is wanted (601.2.2); then its operation. Returns whether it worked.
function SM.activate(ctx, ab, args)
  local def, src = ab.def, ab.source
  args = args or {}
  if ctx.via == nil then ctx = ctx:with({ via = "ability" }) end -- Gl: Cancel tells Skills and Abilities apart
  if src ~= nil then
    if not ab.granted and not SM.box_open(src, def) then return false end
    if src.alive and (src:flag_on("being_cast") or src:flag_on("entering")) and not def.while_cast then
      return false
    end
  end
  if def.condition and not def.condition(ctx, args) then return false end
  if not SM.limit_left(ctx, ab) then return false end
  if def.optional and not ctx:yes_no(ctx.player, "activate") then return false end
  SM.limit_use(ctx, ab)
  -- For the log: whose ability works, and at what ("Reef Warden's ability (destroyed): ...").
  local told = src and def.operate and { card = src, player = ctx.player, key = def.on or SM.timing_of(def) or "ability" }
  if told then ctx:emit("ability_works", told) end
  if def.operate then def.operate(ctx, args) end
  if told then ctx:emit("ability_worked", told) end
  return true
end

-- Slots ---------------------------------------------------------------------------------------

--- Whether slot ability `ab` answers subject `subj` (the card the slot is about: the Attacking
--- Seal, the card falling to the Shrine...): `whose` is "self" (this card or its bearer, the
--- default), "mine", "theirs" or "any", then `when(ctx, subj, d)` if given.
local function answers(ctx, ab, subj, d)
  local def, src = ab.def, ab.source
  local whose = def.whose or "self"
  if whose == "self" then
    if not (subj == src or subj == SM.bearer(src)) then return false end
  elseif whose == "mine" then
    if subj.controller ~= src.controller then return false end
  elseif whose == "theirs" then
    if subj.controller == src.controller then return false end
  end
  if def.when and not def.when(ctx:with({ source = src, player = src.controller }), subj, d) then return false end
  return true
end

--- The ctx an ability of `src` works in: its controller chooses (SM 711.2; Gl: Control, the
--- new owner makes the choices: docs/rulings A.24).
local function ab_ctx(ctx, src) return ctx:with({ source = src, player = src.controller, via = "ability" }) end

--- The candidates of a slot ability's target now (Gl: Protect: not a card protected from it).
local function candidates(ctx, ab, subj, d)
  local actx = ab_ctx(ctx, ab.source)
  return SM.targetable(actx, ab.def.target(actx, { subject = subj, data = d }))
end

--- Chooses the target of entry `i` of the record's slot lists.
local function aim(ctx, d, i, ab)
  local subj = d.slot_subj[i]
  local cands = candidates(ctx, ab, subj, d)
  if #cands == 0 then
    d.slot_state[i] = "done" -- no target: it does not work (SM 504.5, 504.11)
    return
  end
  local p = ab.source.controller
  d.slot_aim[i] = ctx:choose_cards(p, cands, { prompt = "pick: " .. (ab.def.prompt or "target") })
  d.slot_state[i] = "chosen"
end

--- Makes sure the record has its slot lists: made with its first entry (most records never have
--- one, and a record's every table is carried from step to step).
local function init(d)
  d.slot_keys = d.slot_keys or {}
  d.slot_src = d.slot_src or {}
  d.slot_subj = d.slot_subj or {}
  d.slot_aim = d.slot_aim or {}
  d.slot_state = d.slot_state or {}
  d.slot_changed = d.slot_changed or {}
end

--- The CHOOSE Phase of `slot` (a timing) for each card of `subjects`: every ability of that
--- timing that answers one of them and was not chosen before (SM 504.12) chooses its target now;
--- one whose target failed at a check chooses again. The choices wait in the record `d`.
--- `only(ab)`, if given, keeps some abilities (614.12: those of the Growth Box).
function SM.slot_choose(ctx, d, slot, subjects, only)
  local subs = util.filter(SM.list(subjects), function(s) return s ~= nil end)
  for _, ab in ipairs(ctx:abilities({ kind = "activated", timing = slot })) do
    for _, subj in ipairs(subs) do
      if SM.box_open(ab.source, ab.def) and (only == nil or only(ab)) and answers(ctx, ab, subj, d) then
        local key = slot .. ":" .. ab.key .. "@" .. ab.source.id .. ">" .. subj.id
        local i = d.slot_keys and SM.index_of(d.slot_keys, key)
        if i == nil then
          init(d)
          i = #d.slot_keys + 1
          d.slot_keys[i], d.slot_src[i], d.slot_subj[i] = key, ab.source, subj
          d.slot_aim[i], d.slot_state[i] = false, "chosen"
          if ab.def.target then aim(ctx, d, i, ab) end
        elseif d.slot_state[i] == "retarget" then
          aim(ctx, d, i, ab)
        end
      end
    end
  end
end

--- Whether a record key belongs to one of `slots` (nil: every slot).
local function of_slots(key, slots)
  if slots == nil then return true end
  for _, s in ipairs(slots) do
    if string.sub(key, 1, #s + 1) == s .. ":" then return true end
  end
  return false
end

--- The ability entry `i` stands for, as its card has it now (nil: gone, or it no longer works
--- where its card is).
local function find(ctx, d, i)
  local src = d.slot_src[i]
  if not src.alive then return nil end
  local key = d.slot_keys[i]
  for _, ab in ipairs(ctx:abilities({ card = src })) do
    if string.find(key, ":" .. ab.key .. "@", 1, true) then return ab end
  end
  return nil
end

--- The CHECK Phase: each chosen ability that has not worked is checked (its condition, its
--- target) and works now, the attack-Subturn player's first, each player ordering their own
--- (SM 603.1). An ability whose target is no longer valid while another could be chosen makes
--- the procedure go back to step `back` (its CHOOSE Phase) to choose again; with none left it
--- does not work. `slots` (a list of slot names) limits the check to those. Returns `back` when
--- the procedure must go back, else nil.
function SM.slot_check(ctx, d, back, slots)
  if d.slot_keys == nil then return nil end -- no entry: nothing to check
  local ready = {}
  local again = false
  for i = 1, #d.slot_keys do
    if d.slot_state[i] == "chosen" and of_slots(d.slot_keys[i], slots) then
      local ab = find(ctx, d, i)
      if ab == nil then
        d.slot_state[i] = "done"
      elseif ab.def.target then
        local t, changed = SM.redirect(ctx, d.slot_aim[i]) -- Gl: Change Target: not checked
        if changed then d.slot_aim[i], d.slot_changed[i] = t, true end
        local cands = d.slot_changed[i] and { t } or candidates(ctx, ab, d.slot_subj[i], d)
        if t and t.alive and util.contains(cands, t) then
          ready[#ready + 1] = { i = i, ab = ab }
        elseif #cands > 0 and back ~= nil then
          d.slot_state[i] = "retarget"
          again = true
        else
          d.slot_state[i] = "done"
        end
      else
        ready[#ready + 1] = { i = i, ab = ab }
      end
    end
  end
  for _, p in ipairs({ ctx.turn_player, SM.defender(ctx) }) do
    local mine = util.filter(ready, function(r) return r.ab.source.controller == p end)
    while #mine > 0 do
      local r = mine[1]
      if #mine > 1 then
        local opts = util.map(mine, function(x)
          return { label = x.ab.source.label, kind = "card", card = x.ab.source, entry = x }
        end)
        r = ctx:choose(p, opts, { prompt = "order_abilities" }).entry
      end
      mine = util.filter(mine, function(x) return x ~= r end)
      local i = r.i
      if d.slot_state[i] == "chosen" then
        d.slot_state[i] = "done"
        local aimed = d.slot_aim[i]
        SM.activate(ab_ctx(ctx, r.ab.source), r.ab,
          { target = aimed or nil, subject = d.slot_subj[i], data = d })
      end
    end
  end
  if again then return back end
  return nil
end

--- A check of the chosen targets that works nothing (SM 610.1.11, 610.2.10, 708.1.6: the cast is
--- validated after its Interfere Step; its abilities work later, at its success): an ability
--- whose target failed while another could be chosen sends the procedure back to `back`; one
--- with none left will not work. Returns `back` or nil.
function SM.slot_validate(ctx, d, back, slots)
  if d.slot_keys == nil then return nil end -- no entry: nothing to check
  local again = false
  for i = 1, #d.slot_keys do
    if d.slot_state[i] == "chosen" and of_slots(d.slot_keys[i], slots) then
      local ab = find(ctx, d, i)
      if ab ~= nil and ab.def.target then
        local t, changed = SM.redirect(ctx, d.slot_aim[i]) -- Gl: Change Target: not checked
        if changed then d.slot_aim[i], d.slot_changed[i] = t, true end
        local cands = d.slot_changed[i] and { t } or candidates(ctx, ab, d.slot_subj[i], d)
        if not (t and t.alive and util.contains(cands, t)) then
          if #cands > 0 then
            d.slot_state[i] = "retarget"
            again = true
          else
            d.slot_state[i] = "done"
          end
        end
      end
    end
  end
  if again then return back end
  return nil
end

--- Whether the record holds a chosen, not yet worked ability of `src` for slot `slot`.
function SM.slot_pending(d, slot, src)
  for i, key in ipairs(d.slot_keys or {}) do
    if d.slot_src[i] == src and d.slot_state[i] == "chosen" and string.sub(key, 1, #slot + 1) == slot .. ":" then
      return true
    end
  end
  return false
end

--- CHOOSE then CHECK in one Phase, with no Interfere Step between (SM 517.3-517.7, 708.1.5-708.1.8,
--- 617.1.9-617.1.10): the abilities choose and work at once.
function SM.slot_fire(ctx, d, slot, subjects, only)
  SM.slot_choose(ctx, d, slot, subjects, only)
  SM.slot_check(ctx, d, nil, { slot })
end
