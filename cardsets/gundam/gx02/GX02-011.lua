-- GX02-011 Seawall Bastion
return card {
  -- 【Burst】 Deploy this card.
  burst { operate = function(ctx) deploy_card(ctx, ctx.source) end },
  -- 【Deploy】 Deploy 1 [Ward Buoy] token.
  on_deploy { operate = function(ctx) deploy_token(ctx, "GX02-T01") end },
}
