"""Extract races records. (Placeholder until the extractor lands.)"""


def extract(ctx):
    return []
