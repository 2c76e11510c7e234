"""Every PDF the hall prints: the carton sheets, the evening's report with its money pages, the tournament's sheets
and standings, the table tent with the Wi-Fi QR code (reportlab). Not hardware, not the web: its own package,
beside display/ and drivers/ in the house, handed to the web by the program (``create_app(documents=…)``) and
called by the command line. The voucher's ESC/POS layout is the printer's (``drivers/voucher_layout.py``).
"""
