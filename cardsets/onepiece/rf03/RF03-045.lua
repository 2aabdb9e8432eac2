-- RF03-045 Slow Fuse
-- At the end of this turn, draw 1 card: a delayed one-shot, performed in the End Phase
-- (OP 6-6-1-2, turn.lua).
local later = OP.at_end_of_turn { operate = function(ctx) draw(ctx, 1) end }
return card {
  -- [Main] At the end of this turn, draw 1 card.
  main_event { operate = function(ctx) OP.delay_to_end_of_turn(ctx, later) end },
  later,
}
