-- SM02-018 Echo Mimic
return card {
  -- When this Seal enters the Arena: it gains a Skill of another Seal of yours with a different name
  -- (Gl: ได้รับ ...: a copy; [S] in it, its limit's included, is this card).
  when_enters { prompt = "your Seal with a Skill",
    target = function(ctx)
      return util.filter(seals(ctx), function(c)
        return c ~= ctx.source and not c:has("names", ctx.source.name) and #SM.gainable(ctx, c, true) > 0
      end)
    end,
    operate = function(ctx, a) gain_skill(ctx, this_seal(ctx), a.target) end },
}
