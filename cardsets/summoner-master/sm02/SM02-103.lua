-- SM02-103 Withering Fog
return card {
  -- PA. The opponent's Seals get At-1. Exception: Water (SM 201.11.4: it does not affect them).
  continuous {
    affects = function(ctx, c) return c.controller ~= ctx.player and c.host == nil and SM.in_field(c) and F.seal(c) end,
    modify = { plus_at(-1) } },
}
