-- GX02-051 Picket Guard
return card {
  -- This Unit can't choose the enemy player as its attack target (a prohibition: GD 1-3-3).
  cannot_attack_player {},
}
