-- SM01-021 Ironhide Rhino
return card {
  -- When the battle ends, if this Seal attacked and won it, draw 1 card from your Seal Library
  -- (SM 504.16: after the comparison of 504.15).
  on_battle_end { won = true, operate = function(ctx) draw(ctx, 1) end },
}
