-- GX01-009 Shield Rotation
return card {
  -- 【Main】/【Action】 Choose 1 friendly unit. Recover 3 HP of it.
  command { main = true, action = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx) recover(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 3) end },
  -- 【Burst】 Add this card to your hand.
  burst { operate = function(ctx) add_to_hand(ctx, ctx.source) end },
}
