-- GX02-054 False Surrender Signal
return card {
  -- 【Main】 Your opponent concedes: refused (GD 1-2-5: no card effect makes a player concede).
  command { main = true, operate = function(ctx) ctx:end_game({ ctx.player }, "concession") end },
}
