"""The money and its report: the takings, what became of each lot, the evening's report and its CSV, the
vouchers that cannot be forged."""
