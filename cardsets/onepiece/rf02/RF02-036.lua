-- RF02-036 Inkblot Cassius
return card {
  -- [On K.O.] Add up to 1 cost 3 or less {Blackwater Guild} Character card other than [Inkblot Cassius] from trash to hand.
  on_ko { operate = function(ctx)
    add_to_hand(ctx, pick_in(ctx, "trash",
      F.character * F.type("Blackwater Guild") * F.cost_max(3) * F.other_than("Inkblot Cassius")))
  end },
}
