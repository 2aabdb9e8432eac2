-- GX02-034 Veilstep Courier
return card {
  -- 【Deploy】 Look at the top 3: you may reveal 1 Command card and add it to your hand; the rest to the bottom.
  on_deploy { operate = function(ctx) search_top(ctx, 3, F.command) end },
}
