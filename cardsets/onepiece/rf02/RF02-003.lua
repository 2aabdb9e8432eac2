-- RF02-003 Ottoline Blazehand
return card {
  -- [DON!! x1] This Character gains [Rush].
  permanent { don = 1, modify = { gains("rush") } },
}
