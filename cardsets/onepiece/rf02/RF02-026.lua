-- RF02-026 Quillon Vane, Storm Ledger
return card {
  -- [Your Turn] [Once Per Turn] When a DON!! on your field returns to your DON!! deck, add 1 DON!! active.
  on_event { on = "moved", when = Happened.don_returned, your_turn = true, once_per_turn = true,
             operate = function(ctx) add_don(ctx, up_to(1), "active") end },
}
