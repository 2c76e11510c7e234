"""Bid Euchre: cards, state, officials, rules and the bot; the registry assembles them."""
