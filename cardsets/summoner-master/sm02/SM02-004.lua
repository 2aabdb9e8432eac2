-- SM02-004 Vulcaron, Sky Tyrant
return card {
  -- Skill (Mp 2): an opponent's Seal gets At-2 until the end of the Subturn.
  skill { name = "Skyfire Roar", cost = 2,
    target = function(ctx) return opponent_seals(ctx) end,
    operate = function(ctx, a) give_at(ctx, a.target, -2, "subturn") end },
}
