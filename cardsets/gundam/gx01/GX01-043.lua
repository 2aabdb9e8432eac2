-- GX01-043 Tranquil Array
return card {
  -- 【Burst】 Deploy this card.
  burst { operate = function(ctx) deploy_card(ctx, ctx.source) end },
  -- 【Activate･Action】【Once per Turn】 Rest this base: 1 friendly unit gets HP+1 during this battle.
  activate_action { once_per_turn = true, cost = Cost.rest_self(),
    operate = function(ctx) give_hp(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 1, "battle") end },
}
