-- SM02-007 Hive Drone
return card {
  -- Your Insect Seals get At+1 (Arena 2 up Work 1: the card's `work`, limits.lua).
  continuous {
    affects = function(ctx, c) return c.controller == ctx.player and c.host == nil and SM.in_field(c) and F.seal(c) and F.race("Insect")(c) end,
    modify = { plus_at(1) } },
}
