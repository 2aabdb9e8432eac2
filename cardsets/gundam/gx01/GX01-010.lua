-- GX01-010 Fortress Protocol
return card {
  -- 【Action】 During this battle, each friendly unit gets HP+2.
  command { action = true,
    operate = function(ctx) give_hp(ctx, GD.friendly_units(ctx), 2, "battle") end },
}
