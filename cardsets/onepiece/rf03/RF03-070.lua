-- RF03-070 Encore Stage
-- With Curtain Caller (RF03-071), whose [On Play] sets this Stage active again, it makes a loop
-- only its player can stop (OP 11-1-1-2).
return card {
  -- [Activate: Main] Rest this Stage: Return up to 1 of your Characters to its owner's hand.
  -- Then, play that card for free.
  activate_main { cost = Cost.rest_self(), operate = function(ctx)
    local c = pick_character(ctx)
    if c == nil then return end
    return_to_hand(ctx, c)
    play_from(ctx, c.successor)
  end },
}
