-- SM90-001 Undertow Raider
return card {
  -- When this Seal's attack succeeds, return the Attacked Seal to its owner's hand (a Seal that
  -- lost the battle stays for its destruction: SM 713.2, docs/rulings B.48).
  on_attack_success { operate = function(ctx) return_to_hand(ctx, ctx.event.target); gain_mp(ctx, 1) end },
}
