-- GX02-032 Seedfall Convoy
return card {
  -- 【Main】 Deploy 2 [Drone Pod] tokens.
  command { main = true,
    operate = function(ctx)
      deploy_token(ctx, "GDT-U01")
      deploy_token(ctx, "GDT-U01")
    end },
  -- 【Burst】 Deploy 1 [Drone Pod] token.
  burst { operate = function(ctx) deploy_token(ctx, "GDT-U01") end },
}
