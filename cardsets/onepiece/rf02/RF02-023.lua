-- RF02-023 Undertow
return card {
  -- [Counter] Up to 1 of your Leader or Character cards: +2000 power during this battle.
  counter_event { operate = function(ctx) give_power(ctx, pick_fighter(ctx), 2000, "battle") end },
  -- [Trigger] Draw 2 cards and trash 1 card from your hand.
  trigger { operate = function(ctx)
    draw(ctx, 2)
    trash_from_hand(ctx, 1)
  end },
}
