-- SM03-101 Roll of Fate
return card {
  -- Fortune 2 (1 right): if right, destroy an opponent's Seal of Level 3 or less picked at random.
  spell { operate = function(ctx)
    if fortune(ctx, 2) then destroy(ctx, random_card(ctx, those(opponent_seals(ctx), F.level_max(3)))) end
  end },
}
