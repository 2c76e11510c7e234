"""The evening's record on disk: the journal and its hash chain, the durable writes, past evenings, the
secret files. Below everything else of the core."""
