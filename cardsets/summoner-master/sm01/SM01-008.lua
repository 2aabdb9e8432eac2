-- SM01-008 Gale Sprite
return card {
  -- Dancing At Line: this Seal gets At+2 until the end of the Subturn.
  dancing { line = "at_line", operate = function(ctx) give_at(ctx, this_seal(ctx), 2, "subturn") end },
}
