-- GX02-007 Hale Marrow
return card {
  -- 【Attack】 This unit gets HP+2 during this battle. (Lower text: its Unit's attack, GD 3-3-9-2.)
  on_attack { operate = function(ctx) give_hp(ctx, this_unit(ctx), 2, "battle") end },
}
