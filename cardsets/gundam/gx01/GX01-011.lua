-- GX01-011 Orbital Dock Halberd
return card {
  -- 【Burst】 Deploy this card.
  burst { operate = function(ctx) deploy_card(ctx, ctx.source) end },
  -- 【Deploy】 Add your top shield to your hand.
  on_deploy { operate = function(ctx) shield_to_hand(ctx) end },
}
