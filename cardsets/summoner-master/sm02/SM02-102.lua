-- SM02-102 Cleansing Tide
return card {
  -- PS. Pasted: the Seal has Cancel Curse (Gl: ยกเลิก Curse, Cancel: the Curses on it go at once).
  pasted { modify = { gains("cancel_curse") } },
}
