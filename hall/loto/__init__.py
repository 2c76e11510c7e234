"""The loto's rules: the lots and what wins them, the claim check (the last-number rule), the winner watch,
ties, the partie and the evening's state, the programme, the fairness count, the balls in words and on the keypad."""
