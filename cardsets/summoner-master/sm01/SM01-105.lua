-- SM01-105 Banner of Embers
return card {
  -- PA. Your Fire Seals get At+1.
  continuous {
    affects = function(ctx, c) return c.controller == ctx.player and c.host == nil and SM.in_field(c) and F.seal(c) and F.element("fire")(c) end,
    modify = { plus_at(1) } },
}
