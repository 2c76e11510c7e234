"""The tombola (RULES L24): a lottery of goods, authorised, sold with the buyer's name on each stub, drawn in
public among the sold tickets. ``rules`` checks what /admin prepares (the arrêté, lots in kind, the 15 %),
``model`` is its state replayed from the journal, ``draw`` picks a winning ticket, ``codes`` signs each ticket,
``account`` is its account in the treasurer's report. Pure, standard library only."""
