"""The corpus as data: loading records, looking them up by name, and the search index."""
