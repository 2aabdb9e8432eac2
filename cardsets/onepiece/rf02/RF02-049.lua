-- RF02-049 Radiant Return
return card {
  -- [Counter] Up to 1 of your Leader or Character cards: +4000 power during this battle.
  counter_event { operate = function(ctx) give_power(ctx, pick_fighter(ctx), 4000, "battle") end },
  -- [Trigger] Add up to 1 cost 4 or less {Sunspire Islanders} Character card from your trash to your hand.
  trigger { operate = function(ctx)
    add_to_hand(ctx, pick_in(ctx, "trash", F.character * F.type("Sunspire Islanders") * F.cost_max(4)))
  end },
}
