-- SM02-016 Lone Ronin
return card {
  -- Alone: this Seal gets At+2 (as long as you have no other Seal in the Arena).
  alone { modify = { plus_at(2) } },
}
