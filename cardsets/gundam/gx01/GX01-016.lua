-- GX01-016 Dominion Warhawk
return card {
  -- 【Attack】 This unit gets AP+1 during this battle.
  on_attack { operate = function(ctx) give_ap(ctx, this_unit(ctx), 1, "battle") end },
}
