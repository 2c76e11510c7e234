"""La Linotte: the rules (rules.py) and the bot (bot.py); the registry assembles them."""
