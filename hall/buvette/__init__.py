"""The buvette's till (RULES L25): products, prices and stock; each sale a numbered, journalled ticket paid in cash
(with the change), by card or given free to a volunteer; a Z total at the close with the stock counted; its own
account in the treasurer's report. A record for an event outside VAT, **not** a certified till (NF525).

``rules`` reads and bounds what is asked (pure), ``ledger`` is the evening's buvette rebuilt from the journal,
``account`` its account in the report; the commands are the door's (``hall/door/buvette_desk.py``).
"""
