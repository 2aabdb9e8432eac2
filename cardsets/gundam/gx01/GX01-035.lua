-- GX01-035 Silver Fencer
return card {
  -- 【Deploy】 Look at the top 3 cards of your deck; you may add 1 Pilot card among them to your hand.
  on_deploy { operate = function(ctx) search_top(ctx, 3, F.pilot) end },
}
