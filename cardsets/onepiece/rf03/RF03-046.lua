-- RF03-046 Delayed Tide
-- At the end of this turn, draw 1 card (OP 6-6-1-2: in step (II) when it is the opponent's turn).
local later = OP.at_end_of_turn { operate = function(ctx) draw(ctx, 1) end }
return card {
  -- [Counter] Up to 1 of your Leader or Character cards gains +1000 power during this battle.
  -- At the end of this turn, draw 1 card.
  counter_event { operate = function(ctx)
    give_power(ctx, pick_fighter(ctx), 1000, "battle")
    OP.delay_to_end_of_turn(ctx, later)
  end },
  later,
}
