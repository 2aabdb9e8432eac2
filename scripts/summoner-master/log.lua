-- The words of the readable log (game.yaml `events`, their `log` lines): how a player reading
-- the game sees a command, an attack, a battle, a Line and a Curse, in the rulebook's English
-- terms (Gl: the glossary's names). The events keep their machine keys (`key`, `result`) for
-- scripts and scenarios; these texts are extra fields for people.

SM = SM or {}

--- What a `declared` event's command is called (SM 500: "commanding ..."), by its key.
SM.COMMAND_TEXT = {
  attack = "an attack", hand_attack = "an attack to the hand", all_attack = "an All attack",
  multiple_attack = "a multiple attack", combination = "a Combination", ["break"] = "a Break Combination",
  line = "a Line change", skill = "a Skill", hand_skill = "a Skill from the hand",
}

--- The Curses' names (SM 709.5-709.11).
SM.CURSE_TEXT = {
  stone = "Stone Curse", freeze = "Freeze Curse", charm = "Charm Curse", poison = "Poison Curse",
  death = "Death Curse", last_dance = "Last Dance Curse", dimension = "Dimension Curse",
}

--- Who lost a battle (SM 504.15, 506.12), by the `battle` event's `result`.
SM.OUTCOME_TEXT = {
  attacker = "the Attacking Seal loses", attacked = "the Attacked Seal loses",
  both = "both Seals lose", none = "no Seal loses",
}

--- A Seal's power in a battle as the rulebook writes it: "At 5 Sp 4" ("Df 6 Sp 1" in the Df Line).
function SM.power_text(char, value, sp)
  return (char == "df" and "Df " or "At ") .. value .. " Sp " .. sp
end

--- The fields a `declared` event adds for people: the card (or, for a Skill of the hand, its
--- announced name: SM 619.1) and what it is commanded to do.
function SM.declared_fields(ev)
  ev.command = SM.COMMAND_TEXT[ev.key] or ev.key
  ev.subject = ev.card or ("a card named " .. tostring(ev.name))
  return ev
end

--- What an attack aims at, for its `attack_declared` line (SM 504.6, 505.7, 506.6): the Attacked
--- Seal, the opponent's hand, or every Seal of their Lines.
function SM.aim_text(d, kind)
  if kind == "normal" then return d.target end
  local them = "P" .. SM.other(d.player)
  if kind == "hand" then return them .. "'s hand" end
  return "every Seal in " .. them .. "'s Lines (an All attack)"
end

--- Which of a multiple attack's attacks this is (SM 507.6, 507.12), or "".
function SM.round_text(d)
  if d.mode ~= "multiple" then return "" end
  return " (attack " .. ((d.done or 0) + 1) .. " of " .. (d.count or 2) .. ")"
end
