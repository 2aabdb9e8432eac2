-- RF03-054 Quietwarden Selka
return card {
  -- Negate the effects of your opponent's Leader (while this is on the field, OP 2-8-2, 8-2).
  permanent { affects = function(ctx, c) return c.zone == "leader" and c.controller ~= ctx.player end,
              modify = { negates() } },
}
