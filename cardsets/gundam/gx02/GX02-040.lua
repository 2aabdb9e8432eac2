-- GX02-040 Tovi Arrenz
return card {
  -- 【During Link】 This unit gets AP+2.
  during_link { modify = { plus_ap(2) } },
}
