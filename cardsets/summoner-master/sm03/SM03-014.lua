-- SM03-014 Hourglass Sage
return card {
  -- Skill (Mp 2): a Mystic Card with Turns in the Arena counts as 1 Turn passed.
  skill { name = "Turn the Glass", cost = 2,
    target = function(ctx) return those(all_mystics(ctx), F.counting_turns) end,
    operate = function(ctx, a) count_turns_passed(ctx, a.target, 1) end },
}
