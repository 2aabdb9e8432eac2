-- RF03-036 Ironbark Warden
return card {
  -- This Character cannot be K.O.'d (a prohibition beats the instruction, OP 1-3-3).
  permanent { modify = { gains("cannot_be_ko") } },
}
