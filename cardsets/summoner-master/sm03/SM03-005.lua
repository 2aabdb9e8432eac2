-- SM03-005 Gambler Imp
return card {
  -- When this Seal attacks: Fortune 2 (1 right): if right, it gets At+3 until the end of the Subturn.
  when_attacks { operate = function(ctx)
    if fortune(ctx, 2) then give_at(ctx, this_seal(ctx), 3, "subturn") end
  end },
}
