-- SM03-015 Sky Courier
return card {
  -- Skill (Mp 1): another Seal of yours may free attack until the end of the Subturn.
  skill { name = "Tailwind", cost = 1,
    target = function(ctx) return util.filter(seals(ctx), function(c) return c ~= this_seal(ctx) end) end,
    operate = function(ctx, a) free_attack(ctx, a.target, "subturn") end },
}
