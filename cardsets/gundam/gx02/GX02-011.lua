-- GX02-011 Seawall Bastion
return card {
  -- 【Burst】 Deploy this card.
  burst { operate = function(ctx) GD.deploy_base(ctx, ctx.source, ctx.player) end },
  -- 【Deploy】 Deploy 1 [Ward Buoy] token.
  on_deploy { operate = function(ctx) deploy_token(ctx, "GX02-T01") end },
}
