-- RF02-028 Thunderhead Saoirse
return card {
  -- [On Play] Give up to 1 DON!! from your DON!! deck to your Leader or 1 of your Characters.
  on_play { operate = function(ctx) give_don(ctx, pick_fighter(ctx), up_to(1), { from = "don_deck" }) end },
}
