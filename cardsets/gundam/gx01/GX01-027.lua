-- GX01-027 Canopy Sentinel
return card {
  -- 【Destroyed】 Deploy 1 [Drone Pod] token.
  on_destroyed { operate = function(ctx) deploy_token(ctx, "GDT-U01") end },
}
