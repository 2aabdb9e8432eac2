-- GX01-024 Hydro Tiller
return card {
  -- 【Deploy】 If you have 5 or fewer resources, place 1 EX Resource.
  on_deploy { operate = function(ctx)
    if level(ctx) <= 5 then place_ex_resource(ctx) end -- GD 2-9-4: every resource, EX included
  end },
}
