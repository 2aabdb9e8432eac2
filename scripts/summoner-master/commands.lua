-- Commands and casts the glossary's phrases give: "free attack" (Gl: โจมตีฟรี: commanded to attack
-- without paying attack Mp), "may attack once more" (Gl: สามารถสั่งโจมตีได้อีก 1 ครั้ง...: one more
-- normal attack, even Inactive, paid unless the text says "without paying"), "attack move usable
-- twice for one attack-Mp payment" (Gl: สามารถใช้ท่าโจมตีได้ 2 ครั้ง...: chosen at the declaration, it
-- attacks like a multiple attack, SM 507), "attack across to the Df Line" (Gl: โจมตีข้ามไปยัง Df Line:
-- the keyword `attack_df_line`, attack.lua) and Wake Up <condition> (Gl: Wake Up: the card is cast
-- when its condition comes true instead of coming in entering the Main Step).

SM = SM or {}

--- Whether Inactive Seal `c` may still be commanded to attack once more this Subturn (Gl: "may
--- attack once more ... even if Inactive"): it has that permission and has not used it.
function SM.extra_attack_ok(ctx, c)
  return not SM.active(c) and (c:has("keywords", "extra_attack") or c:has("keywords", "extra_attack_free"))
    and ctx:uses(c, "extra_attack") == 0
end

--- The attack Mp commanding Seal `a` to attack costs now (SM 200.10.2): none with "free attack" (Gl:
--- โจมตีฟรี), nor for the attack once more "without paying attack Mp"; else its attack Mp.
function SM.attack_cost(ctx, a)
  if a:has("keywords", "free_attack") then return 0 end
  if not SM.active(a) and a:has("keywords", "extra_attack_free") then return 0 end
  return a.attack_mp
end

-- Verbs (docs/scripting-summoner-master.md) ---------------------------------------------------------

--- "Free attack" (Gl: โจมตีฟรี): commanded to attack, Seal `seal` pays no attack Mp, for a duration
--- (default: until the end of the Subturn). Its attacks stay commands (an Interfere Step, then
--- Inactive: SM 504).
function free_attack(ctx, seal, duration) grant(ctx, seal, "free_attack", duration or "subturn") end

--- "May attack once more (without paying attack Mp) even if Inactive" (Gl): `opts.free` for "without
--- paying"; opts.duration (default: until the end of the Subturn). Once.
function attack_once_more(ctx, seal, opts)
  opts = opts or {}
  grant(ctx, seal, opts.free and "extra_attack_free" or "extra_attack", opts.duration or "subturn")
end

--- "Its attack move may be used twice for one attack-Mp payment" (Gl): its player may declare its
--- attack so (a multiple attack of 2, SM 507), for a duration (default: until the end of the Subturn).
function attack_twice(ctx, seal, duration) grant(ctx, seal, "attack_twice", duration or "subturn") end

-- Wake Up <condition> (Gl: Wake Up 2-4) ----------------------------------------------------------------

--- Whether card `c` (in its owner's hand or Library) may wake up now: one Wake Up per Subturn for its
--- player (Gl: Wake Up 3), none while a card of its name of theirs is in the Arena (Wake Up 4).
function SM.may_wake_up(ctx, c)
  local p = c.owner
  if ctx:uses(p, "wake_up") > 0 then return false end
  for _, x in ipairs(SM.field_cards(ctx, p)) do
    if x.name == c.name then return false end
  end
  return true
end

--- Gl: Wake Up <condition>: card `c` is cast (for free: its Wake Up brings it in without its cast Mp,
--- docs/rulings B.36) from the hand or its Library; a Library it left is shuffled (SM 300.7).
function SM.wake_up_cast(ctx, c)
  if not (c.alive and util.contains({ "hand", "seal_library", "mystic_library" }, c.zone) and SM.may_wake_up(ctx, c)) then
    return nil
  end
  local p, from = c.owner, c.zone
  ctx:use(p, "wake_up")
  local d = SM.free_cast(ctx, c, p, "wake_up")
  if from ~= "hand" then ctx:shuffle(from, p) end
  return d
end

--- "Wake Up <condition>" (Gl: Wake Up): when `on` (an event of the reference) happens and `when(ctx,
--- ev)` holds, this card, in its owner's hand or Library, may be cast for free (a "may": its player
--- is asked, prompt `activate`).
function wake_up_when(a)
  assert(a.on and a.when, "wake_up_when needs `on` (an event) and `when(ctx, ev)` (its condition)")
  local when = a.when
  a.kind = "triggered"
  a.zones = { "hand", "seal_library", "mystic_library" }
  a.optional = a.optional ~= false
  a.when = function(ctx, ev) return SM.may_wake_up(ctx, ctx.source) and when(ctx, ev) end
  a.operate = function(ctx) SM.wake_up_cast(ctx, ctx.source) end
  return a
end
