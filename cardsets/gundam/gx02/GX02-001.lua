-- GX02-001 Breakwater Sentry
return card {
  -- 【Deploy】 Deploy 1 [Ward Buoy] token.
  on_deploy { operate = function(ctx) deploy_token(ctx, "GX02-T01") end },
}
