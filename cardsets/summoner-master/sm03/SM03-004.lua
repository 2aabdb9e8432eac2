-- SM03-004 Night Pickpocket
return card {
  -- Skill (Mp 3): Steal an opponent's Seal of Level 2 or less.
  skill { name = "Lift", cost = 3,
    target = function(ctx) return those(opponent_seals(ctx), F.level_max(2)) end,
    operate = function(ctx, a) steal(ctx, a.target) end },
  -- When Steal succeeds: this Seal gets At+2 until the end of the Subturn.
  on_steal { operate = function(ctx) give_at(ctx, this_seal(ctx), 2, "subturn") end },
}
