-- SM02-023 Ashen Choir
return card {
  -- While this card is in your Shrine, your Seals get Df+1 (Shrine 2 up Work 1: the card's `work`,
  -- limits.lua: with two or more in your Shrine, only the first to fall there works).
  continuous { zones = { "seal_shrine" },
    affects = function(ctx, c) return c.controller == ctx.player and c.host == nil and SM.in_field(c) and F.seal(c) end,
    modify = { plus_df(1) } },
}
