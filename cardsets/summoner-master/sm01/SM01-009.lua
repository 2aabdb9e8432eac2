-- SM01-009 Storm Harrier
return card {
  -- Skill (remove 1 Charged Counter from this Seal): it gets At+2 until the end of the Subturn.
  skill { name = "Tailwind", charge = 1,
    operate = function(ctx) give_at(ctx, this_seal(ctx), 2, "subturn") end },
}
