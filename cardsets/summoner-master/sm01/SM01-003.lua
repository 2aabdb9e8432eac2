-- SM01-003 Ember Fox
return card {
  -- When this Seal attacks, it gets At+1 until the end of the Subturn.
  when_attacks { operate = function(ctx) give_at(ctx, this_seal(ctx), 1, "subturn") end },
}
