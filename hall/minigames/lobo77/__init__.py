"""Lobo 77: the rules (rules.py) and the bot (bot.py); the registry assembles them."""
