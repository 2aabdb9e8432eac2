-- SM03-019 Sandfall Oracle
return card {
  -- Skill (Mp 2): a Seal in the Arena counts as 1 Turn passed (Gl: นับว่าผ่านไป 1 Turn).
  skill { name = "Sandfall", cost = 2,
    target = function(ctx) return all_seals(ctx) end,
    operate = function(ctx, a) count_turns_passed(ctx, a.target, 1) end },
}
