-- GX02-005 Tidebreak Aegis
return card {
  -- 【During Link】 This unit gains 〈Repair 2〉 (it adds to its own 〈Repair 1〉: GD 13-1-1-2).
  during_link { modify = { gains_value("repair", 2) } },
}
