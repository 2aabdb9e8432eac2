-- SM02-015 Oathbound Knight
return card {
  -- When this Seal attacks, it gets At+2 until the end of the Subturn ((สูญเสียไม่ได้): this Text cannot be lost).
  when_attacks { unlosable = true, operate = function(ctx) give_at(ctx, this_seal(ctx), 2, "subturn") end },
  -- This Seal gets Df+1.
  continuous { modify = { plus_df(1) } },
}
