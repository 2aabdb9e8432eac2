-- RF03-081 Rooted Sentinel Oda
return card {
  -- This Character cannot be attacked.
  cannot_be_attacked {},
  -- This Character cannot be returned to the owner's hand.
  cannot_be_returned { to = "hand" },
}
