-- SM02-022 Vowbound Herald
return card {
  -- Your other Seals get At+1 ((สูญเสียไม่ได้): this Text cannot be lost, not even as a Support:
  -- SM 510.3 yields to the card's text, 100.1; docs/rulings B.25).
  continuous { unlosable = true,
    affects = function(ctx, c)
      return c ~= ctx.source and c.controller == ctx.player and c.host == nil and SM.in_field(c) and F.seal(c)
    end,
    modify = { plus_at(1) } },
}
