"""The hall's network helpers, not loto: captive-portal probes, the Wi-Fi QR code, what ``[network]`` may hold.

Standard library only, and nothing of the loto core, the program, the web or the drivers: the lowest layer of
the house (pyproject.toml's contracts), so the config (``hall/config_sections.py`` checks ``[network]``), the web (the
portal, the Wi-Fi QR codes) and the program (``loto-hall network``) all read them.
"""
