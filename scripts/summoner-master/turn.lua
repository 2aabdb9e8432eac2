-- Turn structure: SM 400-402 (the attack Subturn's eight Steps, 401.1; the defense Subturn has
-- none, 402.1), the winning and losing of SM 103, and the Main Step's commands (401.6, 500.9).
-- One kernel turn is one attack Subturn: ctx.turn_player attacks, the other player defends.

SM = SM or {}

--- The attack-Subturn player, as a window's players.
function SM.turn_player_only(ctx) return { ctx.turn_player } end

--- Emits "entering <step>" (SM 401.x) and lets its abilities work before the Step goes on.
local function enter_step(ctx, key)
  ctx:emit("step_began", { player = ctx.turn_player, key = key })
end

--- Whether this is the attack-Subturn player's first attack Subturn (SM 401.3.2, Gl: Progress):
--- the first two kernel turns are the two players' first.
function SM.first_subturn(ctx) return ctx.turn <= 2 end

-- Check up Step (SM 401.2) --------------------------------------------------------------------

--- SM 400.2, 401.2.1, 401.2.3, 401.2.4: the player enters their attack Subturn (the other player
--- their defense Subturn) and checks whether they have a Seal in the Arena.
function SM.check_up_subturn(ctx, d)
  local p = ctx.turn_player
  ctx:set_value(p, "had_seal", #SM.seals(ctx, p) > 0 and 1 or 0)
  ctx:set_value(p, "brought_seal", 0)
  ctx:set_value(p, "skip_draw", 0)
  ctx:set_game_value("subturn_over", 0)
  ctx:emit("subturn_began", { player = p })
end

--- SM 401.2.5: "when entering the Check up Step"; then Charging (Gl: Charging 3, 4: a Charged
--- Counter while the card has fewer than N; docs/rulings A.33: right after 401.2.5).
function SM.check_up_step(ctx, d)
  local p = ctx.turn_player
  enter_step(ctx, "check_up")
  for _, c in ipairs(SM.field_cards(ctx, p)) do
    local n = c:keyword("charging")
    if n and c.owner == p and SM.charged(c, p) < n and c.host == nil then
      ctx:add_counter(c, "charge", 1, "charging")
    end
    SM.fixed_charging(ctx, c, p) -- Gl: Fixed Charging 4, 5 (costs.lua)
  end
end

-- Draw Step (SM 401.3) ------------------------------------------------------------------------

--- SM 401.3.4, 401.3.2, Gl: Progress: "when entering the Draw Step"; no draw in each player's
--- first attack Subturn, nor after a successful Progress.
function SM.draw_begin(ctx, d)
  local p = ctx.turn_player
  enter_step(ctx, "draw")
  d.drawn = 0
  if SM.first_subturn(ctx) or ctx:value(p, "skip_draw") > 0 then return "stop" end
end

--- SM 401.3.1: at least 1 card and at most 2, each from either Library (Gl: Draw: one at a time;
--- docs/rulings A.6). An empty Library is offered only when both are (the player must draw, and
--- loses: SM 103.3).
function SM.draw_actions(ctx, p, d)
  if d.drawn >= 2 then return {} end
  local out = {}
  local seals, mystics = ctx:count("seal_library", p), ctx:count("mystic_library", p)
  local both_empty = seals == 0 and mystics == 0
  local function pile(kind, zone, label, n)
    if n > 0 or (both_empty and d.drawn == 0) then
      out[#out + 1] = { label = label, kind = kind, run = function(ctx, o, d)
        SM.draw(ctx, p, zone)
        d.drawn = d.drawn + 1
      end }
    end
  end
  pile("seal", "seal_library", "draw from the Seal Library", seals)
  pile("mystic", "mystic_library", "draw from the Mystic Library", mystics)
  if d.drawn >= 1 and #out > 0 then out[#out + 1] = { label = "stop drawing", kind = "stop", pass = true } end
  return out
end

-- Discard Step (SM 401.4) ---------------------------------------------------------------------

--- SM 401.4.3: "when entering the Discard Step"; how many cards go.
function SM.discard_begin(ctx, d)
  local p = ctx.turn_player
  enter_step(ctx, "discard")
  d.picked = {}
  d.need = math.max(0, ctx:count("hand", p) - ctx:value(p, "hand_max"))
  if d.need == 0 then return "stop" end
end

--- SM 401.4.1, 302.2: the player picks the cards to discard down to the hand's maximum.
function SM.discard_actions(ctx, p, d)
  if #d.picked >= d.need then return {} end
  local out = {}
  for _, c in ipairs(ctx:cards("hand", p)) do
    if not util.contains(d.picked, c) then
      out[#out + 1] = { label = c.label, kind = "card", card = c, run = function(ctx, o, d)
        d.picked[#d.picked + 1] = o.card
      end }
    end
  end
  return out
end

--- SM 401.4.4: the picked cards are discarded together (702).
function SM.discard_done(ctx, d)
  SM.discard_cards(ctx, d.picked)
end

-- Main Step (SM 401.6) --------------------------------------------------------------------------

--- SM 401.6.1: "when entering the Main Step" (its abilities work before the Wake Up window:
--- the kernel resolves them after the step).
function SM.main_begin(ctx, d)
  enter_step(ctx, "main")
end

--- SM 401.6.2-401.6.6, 500.9: the attack-Subturn player casts and commands as often as they like;
--- nobody may while a card works (401.6.3); the Step ends when they pass.
function SM.main_actions(ctx)
  local p = ctx.player
  local out = {}
  if SM.subturn_cut(ctx) then return out end -- an effect ended the Subturn: the Step is over
  if ctx:game_value("working") == 0 then
    local seals = SM.seals(ctx, p) -- (the combinations and the Breaks read the same Seals)
    local function add(list)
      for _, o in ipairs(list) do out[#out + 1] = o end
    end
    add(SM.cast_options(ctx, p, false))
    add(SM.attack_options(ctx, p))
    add(SM.combine_options(ctx, p, seals))
    add(SM.break_options(ctx, p, seals))
    add(SM.line_options(ctx, p))
    add(SM.skill_options(ctx, p, false))
  end
  out[#out + 1] = { label = "end the Main Step", kind = "end", ends_phase = true }
  return out
end

-- Mp Clean up & Fill up Step (SM 401.8) --------------------------------------------------------

--- SM 401.8.3-401.8.6: the attack-Subturn player's Mp is erased, then filled to their Mp Max.
function SM.mp_step(ctx)
  local p = ctx.turn_player
  if SM.subturn_cut(ctx) then return end
  enter_step(ctx, "mp_clean_up")
  ctx:resolve_triggers()
  ctx:set_value(p, "mp", 0)
  ctx:set_value(p, "first_mp", 0) -- SM 102.6: the first Subturn's restriction is over
  enter_step(ctx, "fill_up")
  ctx:resolve_triggers()
  ctx:set_value(p, "mp", ctx:value(p, "mp_max"))
end

-- An effect that ends the Subturn (docs/rulings B.52) -------------------------------------------

--- Whether an effect ended this Subturn.
function SM.subturn_cut(ctx) return ctx:game_value("subturn_over") > 0 end

--- A Step procedure's `stop_unless`: the Step is skipped once an effect ended the Subturn.
function SM.subturn_goes_on(ctx) return not SM.subturn_cut(ctx) end

--- An effect ends the Subturn: what is going on (the command or cast and its Interfere Steps)
--- runs to its end with nobody casting or commanding any more (401.9.1), then the Steps left
--- are skipped up to the End of Subturn Step (401.9), which runs without 103.5's loss.
function SM.end_subturn(ctx)
  if SM.subturn_cut(ctx) then return end
  ctx:set_game_value("subturn_over", 1)
  ctx:emit("subturn_cut", { card = ctx.source, player = ctx.player or ctx.turn_player })
end

-- End of Subturn Step (SM 401.9) ----------------------------------------------------------------

--- SM 401.9: the end of the attack Subturn.
function SM.end_of_subturn(ctx)
  local p = ctx.turn_player
  -- SM 103.5, 401.9.8 (docs/rulings A.4): a player who had no Seal at the Check up Step and
  -- brought none into the Arena loses on entering this Step.
  -- Not when an effect ended the Subturn (103.5: "ถ้าการผ่าน Turn เกิดโดย Effect ของการ์ด").
  if ctx:value(p, "had_seal") == 0 and ctx:value(p, "brought_seal") == 0 and #SM.seals(ctx, p) == 0
      and not SM.subturn_cut(ctx) then
    return ctx:end_game({ SM.other(p) }, "no_seal")
  end
  -- SM 401.9.2, 401.9.3: "at the end of the attack / defense Subturn"; 401.9.4: "when entering
  -- the End of Subturn Step".
  ctx:emit("subturn_ended", { player = p })
  ctx:resolve_triggers()
  enter_step(ctx, "end_of_subturn")
  ctx:resolve_triggers()
  -- SM 401.9.5, 401.9.6: effects "until the end of the Subturn" end; every Turn count counts
  -- down by one Subturn (the effects of Support Seals wait: 510.4). An x-Turn Mystic Card whose
  -- Turns are over goes to the Shrine (201.9.2.2).
  ctx:expire("end_of_subturn")
  for q = 1, 2 do
    for _, m in ipairs(SM.mystics(ctx, q)) do
      if m:counter_value("turns") > 0 then
        ctx:add_counter(m, "turns", -1, "end_of_subturn")
        if m.alive and m:counter_value("turns") == 0 then
          ctx:move(m, "mystic_shrine", { player = m.owner, reason = "turns_over", by = false })
        end
      end
    end
  end
  ctx:resolve_triggers()
  -- SM 401.9.7: every Inactive Seal of both players becomes Active, at once.
  local tired = {}
  for q = 1, 2 do
    for _, c in ipairs(SM.seals(ctx, q)) do
      if c.orientation == "inactive" then tired[#tired + 1] = c end
    end
  end
  if #tired > 0 then ctx:set_orientation(tired, "active", "end_of_subturn") end
end

-- Winning and losing (SM 103) ------------------------------------------------------------------

--- Whether player `p` loses now: their Shrine Level reached their Shrine Max (SM 103.2), or they
--- had to take a card from an empty pile (103.3).
local function losing(ctx, p)
  if ctx:value(p, "drew_from_empty") > 0 then return true end
  local level = 0 -- SM.shrine_level, summed here (the `defeat` check tests it after every change)
  for _, c in ipairs(ctx:cards("seal_shrine", p)) do level = level + c.level end
  return level >= ctx:value(p, "shrine_max") -- SM.shrine_max
end

--- The `defeat` check's test (not while cards change zone together: SM 603.6.2).
function SM.defeat_due(ctx)
  if ctx:game_value("batch") > 0 then return false end
  return losing(ctx, 1) or losing(ctx, 2)
end

--- SM 103.2-103.4: the losers lose at once; both at once is a draw.
function SM.defeat(ctx)
  local l1, l2 = losing(ctx, 1), losing(ctx, 2)
  if l1 and l2 then return ctx:end_game({}, "both_lose") end
  local loser = l1 and 1 or 2
  local why = ctx:value(loser, "drew_from_empty") > 0 and "empty_pile" or "shrine"
  ctx:end_game({ SM.other(loser) }, why)
end
