-- SM02-110 Hermit's Lantern
return card {
  -- PA. Alone: your Seals get Df+1 (as long as you have no other Mystic Card in the Arena).
  alone {
    affects = function(ctx, c) return c.controller == ctx.player and c.host == nil and SM.in_field(c) and F.seal(c) end,
    modify = { plus_df(1) } },
}
