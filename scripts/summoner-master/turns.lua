-- "Counts as X Turns passed" (Gl: นับว่าผ่านไป 1 Turn, นับว่าผ่านไป X Turn): an Effect that makes a card
-- pass our End of Subturn Step, the opponent's Check up Step, the opponent's End of Subturn Step and
-- our Check up Step once, then count its Turns down by a further X-1 Turns: X Turns in all, at once
-- (docs/rulings B.35). Turns are counted in Subturns (docs/rulings A.5: 1 Turn = 2 Subturns).
--
-- What a card counts in Turns: an x-Turn Mystic Card's `turns` counter (SM 201.9.2.2: it goes to the
-- Shrine at once when its Turns are over), and every Curse's and other Effect's count-down on the card
-- (the kernel passes the End of Subturn point for that card's effects alone: `ctx:expire` with
-- `{card = c}`); an Effect "until the end of the Subturn" on it ends too (docs/rulings B.35, B.42).

SM = SM or {}

--- Gl: นับว่าผ่านไป X Turn: card `c` counts as `x` Turns passed (x >= 1; X = 0 does nothing): the
--- Turn counts of the Curses and Effects on it drop by X Turns (those that run out end as they would:
--- a Poison destroys its Seal, 709.8.1); an x-Turn Mystic Card whose Turns are over goes to the Shrine
--- (SM 201.9.2.2). Returns the Subturns the Mystic Card has left (nil when it counts no Turns).
function SM.count_turns(ctx, c, x)
  if c == nil or not c.alive or x == nil or x <= 0 then return nil end
  -- Its own End of Subturn Steps, 2 per Turn (docs/rulings A.5); a Support's are paused (510.4).
  ctx:expire("end_of_subturn", { card = c }, 2 * x)
  if not c.alive then return nil end
  local left = c:counter_value("turns")
  if left <= 0 then return nil end
  local n = math.min(left, 2 * x)
  ctx:add_counter(c, "turns", -n, "counts_as_passed")
  if c.alive and c:counter_value("turns") == 0 and SM.in_field(c) then
    ctx:move(c, SM.shrine_of(c), { player = c.owner, reason = "turns_over", by = false })
    return 0
  end
  return left - n
end

--- "<card> counts as X Turns passed" (Gl: นับว่าผ่านไป X Turn).
function count_turns_passed(ctx, c, x) return SM.count_turns(ctx, c, x) end

--- Filter: a Mystic Card that counts Turns now (x Turns, some left: SM 201.9.2.2).
F.counting_turns = filter("with Turns left", function(c) return c:counter_value("turns") > 0 end)

--- Every Mystic Card in the Arena, both players' (the attack-Subturn player's first).
function all_mystics(ctx) return util.concat(SM.mystics(ctx, ctx.turn_player), SM.mystics(ctx, SM.defender(ctx))) end
