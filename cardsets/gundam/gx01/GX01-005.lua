-- GX01-005 Skyward Aegis
return card {
  -- 【During Link】 This unit gains <First Strike>.
  during_link { modify = { gains("first_strike") } },
}
