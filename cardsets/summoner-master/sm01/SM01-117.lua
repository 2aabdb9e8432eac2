-- SM01-117 Kindle Spawn
return card {
  -- Create [Extra] Ember Spawn.
  spell { operate = function(ctx) create_extra(ctx, "Ember Spawn") end },
}
