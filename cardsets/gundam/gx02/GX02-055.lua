-- GX02-055 Supply Line Raid
return card {
  -- 【Main】 Choose 1 enemy player. They discard 1 (of their own choice: GD 5-11).
  command { main = true, operate = function(ctx) opponent_discards(ctx, 1) end },
}
