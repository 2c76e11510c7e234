"""Loto Points Rouges: pieces, state, solver, rules and the bot; the registry assembles them."""
