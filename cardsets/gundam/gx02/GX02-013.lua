-- GX02-013 Slagline Brute
return card {
  -- 【During Pair】 This unit can attack active enemy units. (A permission: GD 8-2-1's exception.)
  during_pair { modify = { gains("can_attack_active") } },
}
