-- RF03-021 Whirlpool Gambit
return card {
  -- [Counter] Return the attacking Character to the owner's hand (the battle then ends without
  -- a Damage Step, OP 7-1-3-2-3).
  counter_event { operate = function(ctx)
    local a = ctx.battle and ctx.battle.attacker
    if a and a.alive and a.zone == "character" then return_to_hand(ctx, a) end
  end },
}
