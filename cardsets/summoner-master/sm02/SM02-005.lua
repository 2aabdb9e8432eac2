-- SM02-005 Ember Drummer
return card {
  -- When a Seal of yours attacks, it gets At+1 until the end of the Subturn (1/Turn).
  when_attacks { whose = "mine", limit = { 1, "turn" },
    operate = function(ctx, a) give_at(ctx, a.subject, 1, "subturn") end },
}
