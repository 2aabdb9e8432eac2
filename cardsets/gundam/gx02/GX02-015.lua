-- GX02-015 Scorchline Harrier
return card {
  -- 【Attack】 Choose 1 enemy unit with Lv. 3 or less. It cannot block during this battle.
  on_attack { operate = function(ctx)
    grant(ctx, pick_enemy_unit(ctx, F.lv_max(3), { min = 1 }), "cannot_block", "battle")
  end },
}
