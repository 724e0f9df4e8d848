"""The corpus as data: loading records, looking them up by name, and (later) the search index."""
