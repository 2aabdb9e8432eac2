-- SM02-011 Hex Shifter
return card {
  -- Skill (Mp 1): move a Curse from a Seal of yours to an opponent's Seal that can take it (Gl: Move Curse).
  skill { name = "Hex Shift", cost = 1,
    target = function(ctx) return util.filter(seals(ctx), function(c) return #movable_curses(ctx, c) > 0 end) end,
    operate = function(ctx, a)
      local kind = movable_curses(ctx, a.target)[1]
      local to = choose_from(ctx, curse_targets(ctx, kind, opponent_seals(ctx)), nil, { min = 1, prompt = "pick: opponent's Seal" })
      move_curse(ctx, a.target, to, kind)
    end },
}
