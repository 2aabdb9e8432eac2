-- GX02-037 Halcyon Arbiter
return card {
  -- 【When Linked】 Choose 1 enemy unit. Rest it.
  when_linked { operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 })) end },
}
