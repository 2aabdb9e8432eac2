-- GX01-028 Swarm Carrier
return card {
  -- 【Deploy】 Deploy 2 [Drone Pod] tokens.
  on_deploy { operate = function(ctx)
    deploy_token(ctx, "GDT-U01")
    deploy_token(ctx, "GDT-U01")
  end },
}
