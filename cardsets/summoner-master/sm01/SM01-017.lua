-- SM01-017 Quake Titan
return card {
  -- All Skill (Mp 2): the opponent's Seals get At-1 until the end of the Subturn (SM 606: the
  -- target is the opponent, args.player).
  skill { name = "Tremor", mode = "all", cost = 2,
    operate = function(ctx, a) give_at(ctx, seals(ctx, a.player), -1, "subturn") end },
}
