"""The OSGA Bid Euchre tournament day: the movement, the standings, a simulated day."""
