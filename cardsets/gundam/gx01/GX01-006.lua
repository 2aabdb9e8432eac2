-- GX01-006 Tidewall Commander
return card {
  -- 【Deploy】 Recover 2 HP of each friendly unit.
  on_deploy { operate = function(ctx) recover(ctx, GD.friendly_units(ctx), 2) end },
}
