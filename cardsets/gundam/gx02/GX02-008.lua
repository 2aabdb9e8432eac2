-- GX02-008 Ines Calder
return card {
  -- 【Burst】 Add this card to your hand. (Upper text: the Pilot card's own, GD 3-3-9-1.)
  burst { operate = function(ctx) add_to_hand(ctx, ctx.source) end },
  -- 【When Paired】 Recover 2 HP of this unit.
  when_paired { operate = function(ctx) recover(ctx, this_unit(ctx), 2) end },
}
