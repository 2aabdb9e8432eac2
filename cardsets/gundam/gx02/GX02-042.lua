-- GX02-042 Recall Beacon
return card {
  -- 【Action】 Choose 1 friendly unit. Return it to its owner's hand.
  command { action = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx) return_to_hand(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 })) end },
  -- 【Burst】 Choose 1 enemy unit with Lv. 3 or less. Return it to its owner's hand.
  burst { operate = function(ctx) return_to_hand(ctx, pick_enemy_unit(ctx, F.lv_max(3), { min = 1 })) end },
}
