-- GX02-025 Thornback Hauler
return card {
  -- 【When Linked】 Deploy 1 [Ward Buoy] token.
  when_linked { operate = function(ctx) deploy_token(ctx, "GX02-T01") end },
}
