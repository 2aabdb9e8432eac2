-- GX02-026 Orchard Colossus
return card {
  -- 【Deploy】 Place 1 EX Resource.
  on_deploy { operate = function(ctx) place_ex_resource(ctx) end },
}
