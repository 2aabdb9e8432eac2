-- GX02-035 Prism Duelist
return card {
  -- 【During Pair・〔Resonant〕】 This unit gains 〈High-Maneuver〉. (GD 13-2-10-2)
  during_pair { pilot = F.trait("Resonant"), modify = { gains("high_maneuver") } },
}
