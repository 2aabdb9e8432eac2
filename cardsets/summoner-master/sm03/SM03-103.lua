-- SM03-103 Unweaving Word
return card {
  -- Interfere. Cancel the Effect of a PS or PM Mystic Card in the Arena or being cast: it goes to the Shrine.
  spell { prompt = "PS or PM Mystic Card",
    target = function(ctx)
      return util.filter(cancellable_mystics(ctx), function(m)
        return m ~= ctx.source and (SM.mystic_kind(m) == "PS" or SM.mystic_kind(m) == "PM")
      end)
    end,
    operate = function(ctx, a) cancel_mystic(ctx, a.target) end },
}
