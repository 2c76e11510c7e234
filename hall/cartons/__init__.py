"""The cartons: the 3 × 9 card and its rules, card IDs and their check character, the card book, the
planches, and the ledger of cartons sold (at the door and in pre-sale)."""
