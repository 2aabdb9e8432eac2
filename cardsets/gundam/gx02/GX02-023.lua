-- GX02-023 Terrace Walker
return card {
  -- 【Destroyed】 Place 1 EX Resource.
  on_destroyed { operate = function(ctx) place_ex_resource(ctx) end },
}
