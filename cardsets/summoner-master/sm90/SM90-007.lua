-- SM90-007 Shore Picket
return card {
  -- This Seal cannot attack the hand (SM 100.2 over 505.1: an attack with no Attacked Seal).
  prohibition { forbids = "attack", when = function(ctx, act) return act.target == nil end },
}
