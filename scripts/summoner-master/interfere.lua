-- Interfere: SM 615-616 (Interfere cards and Skills, the Interfere Steps), with 401.2.2 (the
-- Steps where nobody may cast or command, even if an Interfere Step arises), 402.3 (the
-- defense-Subturn player first), 500.10 and 609.4 (only Interfere cards in an Interfere Step),
-- 710.2 (an effect that acts like a command has no Interfere Step).
--
-- Every Interfere Step is a declared window (game.yaml `procedures`): the defense-Subturn player
-- is asked first, then the players take turns until both pass in a row (docs/rulings A.21). An
-- Interfere used there runs its own procedure at once (a cast, a Skill), with its own Interfere
-- Step: the windows nest, and what was used last shows its result first (SM 615.7, 615.8).

SM = SM or {}

--- The Steps in which nobody may cast or command, Interfere included, even when an Interfere
--- Step arises (SM 401.2.2, 401.3.3, 401.4.2, 401.8.2, 401.9.1).
SM.QUIET_STEPS = { check_up = true, draw = true, discard = true, mp = true, end_of_subturn = true }

--- Who may act in an Interfere Step, in order: the defense-Subturn player first (SM 402.3,
--- 615.2); nobody in a quiet Step, nor in a command an effect performs (710.2), nor once an
--- effect ended the Subturn (401.9.1).
function SM.interferers(ctx, d)
  if (d ~= nil and d.as_effect) or SM.QUIET_STEPS[ctx.phase] or SM.subturn_cut(ctx) then return {} end
  return { SM.defender(ctx), ctx.turn_player }
end

--- What player `p` may do in an Interfere Step (SM 500.10, 609.4, 616.2): cast an Interfere card
--- from the hand, or command an Interfere Skill; or pass. With nothing to do they are not asked
--- (the window's `auto_pass`).
function SM.interfere_actions(ctx, p, d)
  local out = {}
  if SM.subturn_cut(ctx) then return out end -- an effect ended the Subturn (turn.lua)
  for _, o in ipairs(SM.cast_options(ctx, p, true)) do out[#out + 1] = o end
  for _, o in ipairs(SM.skill_options(ctx, p, true)) do out[#out + 1] = o end
  if #out > 0 then out[#out + 1] = { label = "pass", kind = "pass", pass = true } end
  return out
end

--- Whether card `c` has Interfere (SM 201.6, 615.3: the lightning symbol, a keyword here).
--- (c:keyword: the same test as c:has("keywords", ...), naming only the keyword.)
function SM.has_interfere(c) return c:keyword("interfere") ~= nil end

-- Commands: the lock of SM 401.6.3 and 500.1 ------------------------------------------------------

--- A command (or a cast) begins: its card has a command pending (SM 500.1) and the game has a
--- card working (401.6.3), until the command ends.
function SM.begin_command(ctx, d, c)
  if c ~= nil and c.alive then
    ctx:set_flag(c, "pending", true)
    d.locked = c
  end
  ctx:set_game_value("working", ctx:game_value("working") + 1)
  d.began = true
end

--- A command on card `c` is declared (SM 500.1): it begins (above), `c` carries the command's
--- flag while it runs, and the `declared` event tells it (`key`: the command).
function SM.declare_command(ctx, d, c, flag, key)
  SM.begin_command(ctx, d, c)
  ctx:set_flag(c, flag, true)
  ctx:emit("declared", SM.declared_fields({ card = c, player = d.player, key = key }))
end

--- A command ends: the lock is released, its card's pending command ends (SM 500.1), and the
--- "during this command" effects end.
function SM.end_command(ctx, d)
  local c = d.locked
  if c ~= nil and c.alive and c:flag_on("pending") then ctx:set_flag(c, "pending", false) end
  if d.began then
    ctx:set_game_value("working", math.max(0, ctx:game_value("working") - 1))
    ctx:expire("end_of_command")
  end
  d.began = false
end

--- Clears statuses (flags) from the cards of a record's fields, those still the same objects
--- (SM 100.5: a card that changed zone has lost them already).
function SM.clear_flags(ctx, cards, flags)
  for _, c in ipairs(cards) do
    if c ~= nil and c.alive then
      for _, f in ipairs(flags) do
        if c:flag_on(f) then ctx:set_flag(c, f, false) end
      end
    end
  end
end

--- Whether the player commanding card `c` in record `d` still controls it (SM 500.11: a card
--- whose control changes during its command leaves the command).
function SM.still_commands(d, c)
  return c ~= nil and c.alive and c.controller == d.player
end
