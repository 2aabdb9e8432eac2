-- RF03-085 Galley Understudy
return card {
  -- Also treat this card's name as [Kettle Mags] according to the rules (OP 2-1-3).
  also_named("Kettle Mags"),
}
