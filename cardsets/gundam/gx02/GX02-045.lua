-- GX02-045 Cinder Martyr
return card {
  -- 【Destroyed】 Choose 1 enemy unit. Deal damage to it equal to this unit's AP.
  -- (Its AP as it last was on the field, its Pilot's included: GD 13-2-8-2-1.)
  on_destroyed { operate = function(ctx)
    deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), ctx.source.ap)
  end },
}
