-- SM01-023 Blade Mantis
return card {
  -- When this Seal fights, it gets At+1 until the end of the Subturn (SM 504.9: chosen before the
  -- Interfere Step; 504.14: it works before the comparison).
  when_dealing { operate = function(ctx) give_at(ctx, this_seal(ctx), 1, "subturn") end },
}
