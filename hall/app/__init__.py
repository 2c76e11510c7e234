"""The program: the loto-hall commands, wiring, serving, the data folder, the watchdog, the demo."""
