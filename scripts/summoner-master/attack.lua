-- Attacks: SM 501 (declaring an attack: into the At Line, the Df Line, the Hand Zone, multiple
-- and All attacks; the counter-attack), 502 (the Attacking Seal's conditions), 503 (the Attacked
-- Seal's), 504 (the normal attack), 505 (the attack to the hand), 506 (the All attack), 507 (the
-- multiple attack), 713 (losing Seals), with Weak Touch (Gl) and the Curses that forbid attacks
-- (709.5.2, 709.6.2, 709.11.4, 709.11.5).
--
-- An attack is the kernel-run procedure `attack` (game.yaml). Its record: `attacker`, `player`
-- (who commands it), `mode` ("normal", "hand", "all" or "multiple"), `count` (a multiple attack's
-- number), `done` (attacks made), `iter` (a multiple attack's current iteration: "normal" or
-- "hand"), `target` (the Attacked Seal), `targets` (an All attack's Attacked Seals), `losers`,
-- `free` (no attack Mp: a follow-up command, 605.12, or an effect, 710), `as_effect` (an effect
-- that acts as the attack: no Interfere Step, 710.2), `follow_up`, and the slot lists.

SM = SM or {}

-- The move (SM 200.12, 508.5) ---------------------------------------------------------------------

--- How Seal `c` attacks now: "normal", "all" or "multiple" and a count: its combination's special
--- move if it is combined (SM 200.12.3), else its own (`attack:` and `attacks:` printed, for a
--- Seal whose text gives its normal attack a kind).
function SM.attack_kind(c)
  local m = SM.form_of(c)
  if m ~= nil then return m.attack or "normal", m.count or 2 end
  return SM.printed(c, "attack") or "normal", SM.printed(c, "attacks") or 2
end

-- Conditions (SM 502, 503, 505.1) -------------------------------------------------------------------

--- Whether Seal `c` may be commanded to attack by `p` (SM 502, 500.1, 500.2): in the Arena, not
--- attached, controlled by `p`, Active with no other command pending, in the At Line, not
--- forbidden (a prohibition, 502.4; Stone, Freeze, Dimension: 709.5.2, 709.6.2, 709.11.4).
--- `listed`: `c` was just listed in `p`'s At Line (alive, not attached, there: not read again).
function SM.may_attack(ctx, c, p, listed)
  return (listed or c.alive and c.host == nil) and c.controller == p and (listed or c.zone == "at_line")
    and (SM.active(c) or SM.extra_attack_ok(ctx, c)) -- Gl: "may attack once more" (commands.lua)
    and not c:flag_on("pending") and not c:flag_on("being_cast")
    and not c:has("keywords", "cannot_attack") and c.stone == 0 and c.freeze == 0 and c.dimension == 0
end

--- Whether Seal `t` may be the Attacked Seal of `a`, commanded by `p` (SM 503): another player's
--- Seal (503.2), not forbidden (503.3, 100.2), never one with the Dimension Curse (709.11.5).
--- (`found`: SM.prohibitions_now's list, when the caller has it.)
function SM.attackable(ctx, a, t, p, found)
  return t ~= a and t.alive and t.host == nil and t.controller ~= p
    and not t:has("keywords", "cannot_be_attacked") and t.dimension == 0
    and SM.may_attack_target(ctx, a, t, p, found) -- 100.2: a prohibition of card text
end

--- The Seals `a` may attack by a normal attack (SM 501.2.1, 501.2.2): the opponent's At Line;
--- their Df Line when their At Line is empty, or always for a Seal that may attack across to it
--- (Gl: โจมตีข้ามไปยัง Df Line).
function SM.attack_targets(ctx, a, p)
  local q = SM.other(p)
  local line = ctx:cards("at_line", q)
  local front = util.filter(line, function(t) return SM.attackable(ctx, a, t, p) end)
  if #line == 0 or a:has("keywords", "attack_df_line") then
    return util.concat(front, util.filter(ctx:cards("df_line", q), function(t) return SM.attackable(ctx, a, t, p) end))
  end
  return front
end

--- SM.attackable's tests that do not depend on the attacker, for Seal `t` listed in a Line (alive,
--- not attached): kept in `seen` for the other attackers.
local function target_ok(seen, t, p)
  local ok = seen.ok
  if ok == nil then
    ok = {}
    seen.ok = ok
  end
  local v = ok[t]
  if v == nil then
    v = t.controller ~= p and not t:has("keywords", "cannot_be_attacked") and t.dimension == 0
    ok[t] = v
  end
  return v
end

--- Whether `a` may attack one of the Seals of zone `z` (a Line of player `q`), and that zone's
--- list, listed once for all attackers in `seen[z]`. (SM.attackable of a listed Seal: the same tests.)
local function target_in(ctx, seen, z, q, a, p)
  local list = seen[z]
  if list == nil then
    list = ctx:cards(z, q)
    seen[z] = list
  end
  for _, t in ipairs(list) do
    if t ~= a and target_ok(seen, t, p) and SM.may_attack_target(ctx, a, t, p, seen.found) then return true, list end
  end
  return false, list
end

--- Whether `a` has a Seal to attack by a normal attack (SM.attack_targets is not empty), looked
--- for until the first: in the At Line, in the Df Line when the At Line is empty or `a` may attack
--- it anyway. `seen` (optional): a table keeping the opponent's Lines and `found` (the
--- prohibitions, SM.prohibitions_now) for several attackers tested at one moment.
function SM.has_attack_target(ctx, a, p, seen)
  local q = SM.other(p)
  seen = seen or {}
  local found, line = target_in(ctx, seen, "at_line", q, a, p)
  if found then return true end
  if #line == 0 or a:has("keywords", "attack_df_line") then
    return (target_in(ctx, seen, "df_line", q, a, p))
  end
  return false
end

--- Whether `a` may attack the hand of `p`'s opponent now (SM 505.1): they have no Seal in their
--- Lines (or `a` may attack the hand anyway), once per Subturn (505.1.2, docs/rulings A.14: each
--- declaration counts, a multiple attack's too), `a` controlled by its owner (505.1.3, 712.1),
--- and the hand is not empty (505.4). `as_effect`: an effect's attack uses no allowance (710).
--- `seen` (optional): as SM.has_attack_target's, also keeping what does not depend on `a` (the
--- opponent's Lines and hand counted, the allowance used) for several attackers at one moment.
function SM.may_attack_hand(ctx, a, p, as_effect, seen)
  local q = SM.other(p)
  seen = seen or {}
  if seen.guarded == nil then seen.guarded = ctx:count("at_line", q) + ctx:count("df_line", q) > 0 end
  if seen.guarded and not a:has("keywords", "attack_hand") then return false end
  if not as_effect then
    if seen.hand_used == nil then seen.hand_used = ctx:uses(p, "hand_attack") > 0 end
    if seen.hand_used then return false end
  end
  if a.owner ~= a.controller then return false end
  if seen.hand == nil then seen.hand = ctx:count("hand", q) end
  return seen.hand > 0 and SM.may_attack_target(ctx, a, nil, p, seen.found) -- 100.2: "cannot attack the hand"
end

--- The Seals an All attack attacks (SM 501.2.5, 506.6): every Seal of the opponent's Lines (not
--- chosen as targets: 503 is not checked), none with Dimension (709.11.5).
function SM.all_attack_targets(ctx, p)
  return util.filter(SM.line_seals(ctx, SM.other(p)), function(t) return t.dimension == 0 end)
end

-- Declaring (SM 501.1: in the Main Step) -------------------------------------------------------------

--- The attack options of player `p` in the Main Step.
--- (What every attacker's tests read is read once: `seen`, the prohibitions, the Mp.)
function SM.attack_options(ctx, p)
  local out = {}
  local seen -- the opponent's Lines and the prohibitions (SM.has_attack_target), once one may attack
  local payable = {} -- SM.can_pay of an attack, by cost
  for _, a in ipairs(ctx:cards("at_line", p)) do
    local cost = SM.may_attack(ctx, a, p, true) and SM.attack_cost(ctx, a)
    if cost and payable[cost] == nil then payable[cost] = SM.can_pay(ctx, p, cost, "attack") end
    if cost and payable[cost] then
      if seen == nil then seen = { found = SM.prohibitions_now(ctx) } end
      local kind, n = SM.attack_kind(a)
      -- The Mp the attack costs, in its label as a cast's is: the player decides with it.
      local mp = " (Mp " .. cost .. ")"
      local function opt(label, k, mode)
        out[#out + 1] = { label = label .. mp, kind = k, card = a, procedure = "attack",
          data = { attacker = a, player = p, mode = mode, count = n, kind = "attack" } }
      end
      if kind == "all" then
        if #SM.all_attack_targets(ctx, p) > 0 then opt("All attack with " .. a.label, "all_attack", "all") end
      elseif kind == "multiple" then
        if SM.has_attack_target(ctx, a, p, seen) or SM.may_attack_hand(ctx, a, p, false, seen) then
          opt("attack " .. n .. " times with " .. a.label, "multiple_attack", "multiple")
        end
      else
        local has_targets = SM.has_attack_target(ctx, a, p, seen)
        local hand = SM.may_attack_hand(ctx, a, p, false, seen)
        if has_targets then opt("attack with " .. a.label, "attack", "normal") end
        if a:has("keywords", "attack_twice") and (has_targets or hand) then
          -- Gl: "attack move usable twice for one attack Mp": chosen at the declaration (commands.lua).
          out[#out + 1] = { label = "attack 2 times with " .. a.label .. mp, kind = "multiple_attack", card = a, procedure = "attack",
            data = { attacker = a, player = p, mode = "multiple", count = 2, kind = "attack" } }
        end
        if hand then opt("attack the hand with " .. a.label, "hand_attack", "hand") end
      end
    end
  end
  return out
end

local DECLARED_KEY = { normal = "attack", hand = "hand_attack", all = "all_attack", multiple = "multiple_attack" }

--- SM 504.1-504.5, 505.2-505.6, 506.1-506.5, 507.1-507.5: the Seal is commanded to attack with its
--- move; a target must exist (504.3), the cost is checked then paid (504.4, 504.5; a multiple
--- attack pays once, 507.5); the Seal is the Attacking Seal. "When a player commands / declares
--- an attack" abilities work after this step.
function SM.attack_declare(ctx, d)
  local a, p = d.attacker, d.player
  if not SM.may_attack(ctx, a, p) then return "stop" end
  local mode = d.mode
  if mode == "normal" and #SM.attack_targets(ctx, a, p) == 0 then return "stop" end
  if mode == "hand" and not SM.may_attack_hand(ctx, a, p, d.as_effect) then return "stop" end
  if mode == "all" and #SM.all_attack_targets(ctx, p) == 0 then return "stop" end
  if mode == "multiple" and #SM.attack_targets(ctx, a, p) == 0 and not SM.may_attack_hand(ctx, a, p, d.as_effect) then
    return "stop"
  end
  if not d.free and not SM.pay(ctx, p, SM.attack_cost(ctx, a), "attack") then return "stop" end
  if not SM.active(a) then ctx:use(a, "extra_attack") end -- Gl: the attack once more (commands.lua)
  SM.begin_command(ctx, d, a)
  ctx:set_flag(a, "attacking", true)
  if mode == "hand" and not d.as_effect then ctx:use(p, "hand_attack") end
  d.done = 0
  d.losers = nil -- (none yet: a record's tables are carried from step to step)
  -- SM 710.1: an effect that acts as an attack is not a command: no "when a player commands /
  -- declares an attack" abilities, and no declaration in the log.
  if not d.as_effect then ctx:emit("declared", SM.declared_fields({ card = a, player = p, key = DECLARED_KEY[mode] })) end
end

--- The kind of the attack being made now: a multiple attack's iteration, or the mode.
local function current(d)
  if d.mode == "multiple" then return d.iter or "normal" end
  return d.mode
end

--- SM 504.6, 507.6: the Attacked Seal is declared (a window of the attacking player); in a
--- multiple attack each iteration is a normal attack or, when allowed, an attack to the hand.
function SM.attack_target_actions(ctx, p, d)
  if d.target ~= nil or d.iter == "hand" or d.mode == "hand" or d.mode == "all" then return {} end
  local a = d.attacker
  local out = {}
  for _, t in ipairs(SM.attack_targets(ctx, a, p)) do
    out[#out + 1] = { label = "attack " .. t.label, kind = "target", card = t, run = function(ctx, o, d)
      d.target, d.iter = o.card, "normal"
      ctx:set_flag(o.card, "attacked", true)
    end }
  end
  if d.mode == "multiple" and SM.may_attack_hand(ctx, a, p, d.as_effect) then
    out[#out + 1] = { label = "the hand", kind = "hand", run = function(ctx, o, d)
      d.iter = "hand"
      if not d.as_effect then ctx:use(p, "hand_attack") end
    end }
  end
  return out
end

--- SM 504.7-504.9, 505.8, 506.6-506.8: the attack is announced, and the abilities of the
--- Attacking Seal ("when it attacks"), of the Attacked Seal(s) ("when attacked") and of both
--- ("when they deal") choose.
function SM.attack_choose(ctx, d)
  local a, kind = d.attacker, current(d)
  if kind == "normal" and d.target == nil then return "finish" end -- no Attacked Seal could be declared
  if kind == "all" and d.targets == nil then
    d.targets = SM.all_attack_targets(ctx, d.player) -- SM 506.6
    for _, t in ipairs(d.targets) do ctx:set_flag(t, "attacked", true) end
  end
  if d.announced ~= (kind == "normal" and d.target or kind) then
    d.announced = kind == "normal" and d.target or kind
    ctx:emit("attack_declared", { card = a, target = kind == "normal" and d.target or nil, player = d.player, key = kind,
      aim = SM.aim_text(d, kind), round = SM.round_text(d) })
  end
  SM.slot_choose(ctx, d, "attacks", { a })
  if kind == "normal" then
    SM.slot_choose(ctx, d, "attacked", { d.target })
    SM.slot_choose(ctx, d, "dealing", { a, d.target })
  elseif kind == "all" then
    SM.slot_choose(ctx, d, "attacked", d.targets)
  end
end

--- SM 504.11, 505.10, 506.10, 507.9: the "attacks" and "attacked" abilities are checked and work;
--- one whose target failed chooses again (back to 504.7), the Attacked Seal staying.
function SM.attack_check(ctx, d)
  return SM.slot_check(ctx, d, "choose", { "attacks", "attacked" })
end

--- Whether the Attacking Seal still attacks (SM 504.12): the same object, controlled by the
--- commanding player (500.11), Attacking, in the At Line, not forbidden.
local function still_attacking(ctx, d)
  local a = d.attacker
  return SM.still_commands(d, a) and a:flag_on("attacking") and a.zone == "at_line"
    and not a:has("keywords", "cannot_attack") and a.stone == 0 and a.freeze == 0 and a.dimension == 0
end

--- SM 504.12-504.14, 505.11, 506.11, 507.10: the attack is checked again.
function SM.attack_validate(ctx, d)
  local a = d.attacker
  if not still_attacking(ctx, d) then d.failed = true return "finish" end -- SM 504.12
  -- SM 504.12, 506.11: its move now decides the attack's kind, re-declared unpaid.
  local kind = SM.attack_kind(a)
  local now = current(d)
  if kind == "all" and now ~= "all" then
    if d.target and d.target.alive then ctx:set_flag(d.target, "attacked", false) end
    d.mode, d.target, d.iter = "all", nil, nil
    return "choose"
  elseif kind ~= "all" and now == "all" then
    SM.clear_flags(ctx, d.targets or {}, { "attacked" })
    d.mode, d.targets = kind == "multiple" and "multiple" or "normal", nil
    return "target"
  end
  if now == "hand" then
    -- SM 505.11: a hand attack that is no longer allowed becomes a normal attack (504.6).
    local q = SM.other(d.player)
    if #SM.line_seals(ctx, q) > 0 and not a:has("keywords", "attack_hand") then
      if d.mode == "hand" then d.mode = "normal" end
      d.iter = "normal"
      return "target"
    end
    return nil
  end
  if now == "normal" then
    -- SM 504.13: the Attacked Seal must still be one; else another is declared. Gl: Change Target:
    -- an Attacked Seal a change put there is not checked (it still must be in a Line: 504.15.3).
    local t, changed = SM.redirect(ctx, d.target)
    if changed then
      SM.clear_flags(ctx, { d.target }, { "attacked" })
      ctx:set_flag(t, "attacked", true)
      d.target, d.changed = t, true
    end
    if not (t and t.alive and t:flag_on("attacked") and (d.changed or util.contains(SM.attack_targets(ctx, a, d.player), t))) then
      if t and t.alive then ctx:set_flag(t, "attacked", false) end
      d.target = nil
      if #SM.attack_targets(ctx, a, d.player) == 0 then d.failed = true return "finish" end
      return "target"
    end
    -- SM 504.14: the Seals deal with each other; the "when dealing" abilities are checked.
    return SM.slot_check(ctx, d, "choose", { "dealing" })
  end
end

--- SM 505.12: which kind of card the hand attack takes (a window of the attacking player).
function SM.hand_kind_actions(ctx, p, d)
  if current(d) ~= "hand" or d.hand_kind ~= nil or d.failed then return {} end
  local function pick(kind, label)
    return { label = label, kind = kind, run = function(ctx, o, d) d.hand_kind = o.kind end }
  end
  return { pick("seal", "a Seal Card"), pick("mystic", "a Mystic Card") }
end

--- A Seal's power facing `other` in a battle: `char` ("at" or "df"). When `other` has Weak Touch
--- (Gl: Weak Touch) the increases of Skills and Abilities do not count; a combination's move and
--- a Reflection are neither (SM 508.5; 620.2, 620.3: the card's own components, docs/rulings
--- B.16): their value stands, the other increases left out (a Reflection's values are the
--- card's printed ones: `stand_ins`). (The kernel's value without increases leaves out the
--- rules' static layers too: the card's own value is added back.)
local function power(ctx, c, char, other)
  if not other:has("keywords", "weak_touch") then return c[char] end
  local v = c:value_without(char, { increases = true })
  local printed = c:printed(char) or 0
  local own = printed
  local m = SM.form_of(c)
  if m ~= nil and m[char] ~= nil then own = m[char] end
  if own > printed then v = v + own - printed end
  return math.max(0, v)
end

--- Compares two powers with the Sp tie-break (SM 200.8.2): 1 when the first is higher, -1 when
--- lower, 0 when they and their Sp are equal.
function SM.compare(v1, sp1, v2, sp2)
  if v1 ~= v2 then return v1 > v2 and 1 or -1 end
  if sp1 ~= sp2 then return sp1 > sp2 and 1 or -1 end
  return 0
end

--- SM 504.15 (a normal attack), 505.12 (to the hand), 506.12 (All): the attack is made.
function SM.attack_battle(ctx, d)
  local a, p, kind = d.attacker, d.player, current(d)
  d.losers = nil
  if kind == "hand" then
    -- SM 505.12: a random card of the chosen kind of the opponent's hand goes to the Shrine (not
    -- a discard: 501.2.3). With no card of that kind, nothing happens (SM 100.3, docs/rulings A.13).
    -- Gl: Random 1: the attacker (the hand's opponent) picks, of the kind they chose (random.lua).
    local q = SM.other(p)
    local c = SM.random_card(ctx, ctx:cards("hand", q), { owner = q, by = p, kind = d.hand_kind })
    if c ~= nil then
      ctx:move(c, SM.shrine_of(c), { player = c.owner, reason = "hand_attack" })
    end
    return
  end
  local losers = {}
  local function lose(c) losers[#losers + 1] = c end
  if kind == "all" then
    -- SM 506.12: every Attacked Seal at once; the attacker never loses (no counter-attack).
    for _, t in ipairs(d.targets) do
      if t.alive and SM.in_line(t) and t:flag_on("attacked") then
        local line = t.zone
        local mine = power(ctx, a, "at", t)
        local theirs = power(ctx, t, line == "at_line" and "at" or "df", a)
        local r = SM.compare(mine, a.sp, theirs, t.sp)
        -- SM 506.12.1: At Line: the lower or equal loses; 506.12.2: Df Line: only when the
        -- attacker is higher (the Sp tie-break applies: docs/rulings A.11).
        if (line == "at_line" and r >= 0) or (line == "df_line" and r > 0) then lose(t) end
        local result = ((line == "at_line" and r >= 0) or (line == "df_line" and r > 0)) and "attacked" or "none"
        ctx:emit("battle", { card = a, target = t, player = p, key = line, line = SM.LINE_NAME[line],
          attacker_power = SM.power_text("at", mine, a.sp), target_power = SM.power_text(line == "at_line" and "at" or "df", theirs, t.sp),
          result = result, outcome = SM.OUTCOME_TEXT[result] })
      end
    end
  else
    local t = d.target
    if not (t and t.alive and SM.in_line(t)) then d.failed = true return end -- SM 504.15.3
    local line = t.zone
    local mine = power(ctx, a, "at", t)
    local theirs = power(ctx, t, line == "at_line" and "at" or "df", a)
    local r = SM.compare(mine, a.sp, theirs, t.sp)
    local result
    if line == "at_line" then
      -- SM 504.15.1: the lower or equal power loses: on a full tie both lose; a higher
      -- Attacked Seal counter-attacks (501.3).
      if r <= 0 then lose(a) end
      if r >= 0 then lose(t) end
      result = r > 0 and "attacked" or (r < 0 and "attacker" or "both")
    else
      -- SM 504.15.2: At against Df; only the strictly lower loses (a full tie: none).
      if r > 0 then lose(t) end
      if r < 0 then lose(a) end
      result = r > 0 and "attacked" or (r < 0 and "attacker" or "none")
    end
    d.line, d.result = line, result
    ctx:emit("battle", { card = a, target = t, player = p, key = line, line = SM.LINE_NAME[line],
      attacker_power = SM.power_text("at", mine, a.sp), target_power = SM.power_text(line == "at_line" and "at" or "df", theirs, t.sp),
      result = result, outcome = SM.OUTCOME_TEXT[result] })
  end
  for _, c in ipairs(losers) do ctx:set_flag(c, "loser", true) end -- SM 713
  d.losers = #losers > 0 and losers or nil
end

--- SM 504.16-504.17, 505.13-505.14, 506.13-506.14: "when the attack succeeds" abilities (and
--- "when the battle ends") work after this step.
function SM.attack_success(ctx, d)
  if d.failed then return end
  local kind = current(d)
  ctx:emit("attack_success", { card = d.attacker, target = kind == "normal" and d.target or nil,
    player = d.player, key = kind })
  if kind == "normal" then
    ctx:emit("battle_ended", { card = d.attacker, target = d.target, player = d.player, result = d.result })
  end
end

--- The losers that are destroyed (SM 504.20.1: an attacker that lost in the Df Line is not,
--- unless the Attacked Seal may counter-attack there, 501.4).
local function doomed(d)
  return util.filter(d.losers or {}, function(c)
    if not c.alive then return false end
    if c == d.attacker and d.line == "df_line" and not (d.target and d.target:has("keywords", "counter_in_df")) then
      return false
    end
    return true
  end)
end

--- The battle's losers are destroyed at once, their loser status ending at once first (SM
--- 504.20): the procedure call the step ends with (see SM.destroying), nil if none dies.
local function destroying_losers(ctx, d)
  local all = util.filter(d.losers or {}, function(c) return c.alive end)
  local dying = doomed(d)
  if #all > 0 then
    ctx:together(function(ctx) SM.clear_flags(ctx, all, { "loser" }) end)
  end
  d.losers = nil
  return SM.destroying(ctx, dying, { reason = "battle", player = d.player })
end

--- SM 507.11: each attack of a multiple attack destroys its losers before the next.
function SM.attack_again_losers(ctx, d)
  if d.mode == "multiple" then return destroying_losers(ctx, d) end
end

--- SM 507.11, 507.12: a multiple attack counts the attack and attacks again (the Attacking
--- Seal staying Active) until the count is reached or it cannot.
function SM.attack_again(ctx, d)
  if d.mode ~= "multiple" then return end
  if not d.failed then d.done = d.done + 1 end
  SM.clear_flags(ctx, { d.target }, { "attacked" })
  d.target, d.iter, d.hand_kind, d.announced, d.failed, d.changed = nil, nil, nil, nil, nil, nil
  local a = d.attacker
  if d.done < (d.count or 2) and still_attacking(ctx, d)
      and (#SM.attack_targets(ctx, a, d.player) > 0 or SM.may_attack_hand(ctx, a, d.player, d.as_effect)) then
    d.slot_keys, d.slot_src, d.slot_subj, d.slot_aim, d.slot_state, d.slot_changed = nil, nil, nil, nil, nil, nil
    return "target"
  end
end

--- SM 504.18-504.20 (and 505.15-505.16, 506.15-506.17, 507.12): the Attacking Seal becomes Inactive
--- (not after a follow-up command: 605.12); the statuses end; the losers are destroyed at once.
function SM.attack_finish(ctx, d)
  local a = d.attacker
  if a.alive and SM.in_field(a) and not d.follow_up then SM.inactivate(ctx, a) end
  SM.clear_flags(ctx, util.concat({ a, d.target }, d.targets or {}), { "attacking", "attacked" })
  return destroying_losers(ctx, d)
end

--- SM 504.21: the end (also of an attack that stopped early: statuses and the lock end).
function SM.attack_end(ctx, d)
  SM.clear_flags(ctx, util.concat({ d.attacker, d.target }, d.targets or {}, d.losers or {}),
    { "attacking", "attacked", "loser" })
  SM.end_command(ctx, d)
end

--- A Seal becomes Inactive (SM 500.3, Gl: Inactive Seal).
function SM.inactivate(ctx, c)
  if c.alive and c.orientation ~= "inactive" then ctx:set_orientation(c, "inactive", "command") end
end
