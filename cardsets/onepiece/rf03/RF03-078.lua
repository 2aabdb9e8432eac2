-- RF03-078 Stillwater Abbess
return card {
  -- Negate the effects of your opponent's Leader, also those it gains later (OP 8-2-4 "unless specified").
  permanent { affects = function(ctx, c) return c.zone == "leader" and c.controller ~= ctx.player end,
              modify = { negates({ including_later = true }) } },
}
