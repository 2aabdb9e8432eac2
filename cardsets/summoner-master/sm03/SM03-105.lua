-- SM03-105 Fading Veil
return card {
  -- PS, 2 Turns. Pasted: the Seal has Vanish 1 Turn.
  pasted { modify = { gains("vanish") } },
}
