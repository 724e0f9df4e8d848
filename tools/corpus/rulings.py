"""Extract rulings records. (Placeholder until the extractor lands.)"""


def extract(ctx):
    return []
