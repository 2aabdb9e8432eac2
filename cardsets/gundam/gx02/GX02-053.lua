-- GX02-053 Orbital Bombardment
return card {
  -- 【Main】 Deal 2 damage to the enemy player (effect damage: GD 5-5-4).
  command { main = true, operate = function(ctx) damage_player(ctx, GD.opponents(ctx)[1], 2) end },
}
