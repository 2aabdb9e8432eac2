-- SM90-005 Spawn Keeper
return card {
  -- Skill (Mp 1): create [Extra] Ember Spawn (not offered once its Capacity is used up: SM 621.4).
  skill { name = "Kindle", cost = 1, creates = "Ember Spawn",
    operate = function(ctx) create_extra(ctx, "Ember Spawn") end },
}
