-- SM90-008 Toll Warden
local function theirs(ctx, c) return c.category == "seal" and c.owner ~= ctx.player end
return card {
  -- Your opponent's Seals cost Mp 1 more to cast (SM 200.10.2, 610.1.2).
  continuous { affects = theirs, modify = { plus_cast_mp(1) } },
  -- Your opponent's Seals cost Mp 1 more to attack (SM 200.10.2, 504.5).
  continuous { affects = theirs, modify = { plus_attack_mp(1) } },
}
