-- SM02-104 Static Jammer
return card {
  -- PA. The Skills of the opponent's Seals cost Mp 1 more (not a Fixed Mp: Gl: Fixed Mp).
  continuous {
    affects = function(ctx, c) return c.controller ~= ctx.player and c.host == nil and SM.in_field(c) and F.seal(c) end,
    modify = { plus_skill_mp(1) } },
}
