-- GX02-021 Sunder Volley
return card {
  -- 【Main】 Destroy your opponent's top shield (each opponent's, GD 12-2-6; its 【Burst】 may be used: 5-10-3).
  command { main = true,
    operate = function(ctx)
      local tops = {}
      for _, q in ipairs(GD.opponents(ctx)) do
        local s = GD.top_shield(ctx, q)
        if s and not util.contains(tops, s) then tops[#tops + 1] = s end
      end
      destroy(ctx, tops)
    end },
  -- 【Burst】 Choose 1 enemy unit. Deal 2 damage to it.
  burst { operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 2) end },
}
