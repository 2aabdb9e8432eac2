-- GX02-003 Spearhead Vanguard
return card {
  -- 【When Linked】 Choose 1 enemy unit. It cannot block during this turn.
  when_linked { operate = function(ctx)
    grant(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), "cannot_block", "turn")
  end },
}
