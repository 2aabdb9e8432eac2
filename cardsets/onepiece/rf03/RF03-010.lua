-- RF03-010 Cinder Bolt
return card {
  -- [Main] Deal 1 damage to your opponent's Leader (damage processing, OP 4-6; no Banish or
  -- Double Attack, which concern attacks).
  main_event { operate = function(ctx) OP.damage(ctx, opponent(ctx), 1) end },
}
