-- RF03-063 Echo Parry
return card {
  -- [Counter] Up to 1 of your Leader or Character cards: +3000 power during this battle.
  counter_event { operate = function(ctx) give_power(ctx, pick_fighter(ctx), 3000, "battle") end },
  -- [Trigger] Activate this card's [Counter] effect (OP 10-2-4-1-1).
  trigger { operate = function(ctx) activate_counter(ctx, ctx.source) end },
}
