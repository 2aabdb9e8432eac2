-- GX01-018 Vos Harrick
return card {
  -- 【During Link】 This unit gains <First Strike>.
  during_link { modify = { gains("first_strike") } },
}
