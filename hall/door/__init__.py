"""The narrow door into the core: ``Hall`` (``service``), the one writer and its lock, the state replayed from
the journal, the snapshot builders, and the desks ``Hall`` delegates to (sales, prizes, record, calling, claims,
programme)."""
