-- SM03-002 Phantom Lancer
return card {
  -- When this Seal enters the Arena, it gets At+2 until the end of the Subturn.
  when_enters { operate = function(ctx) give_at(ctx, this_seal(ctx), 2, "subturn") end },
}
