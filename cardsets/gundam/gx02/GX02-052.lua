-- GX02-052 Anchor Frame
return card {
  -- This Unit cannot be attacked.
  cannot_be_attacked {},
  -- This Unit cannot be returned to its owner's hand.
  cannot_be_returned { to = "hand" },
}
