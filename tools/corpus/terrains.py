"""Extract terrains records. (Placeholder until the extractor lands.)"""


def extract(ctx):
    return []
def extract_eighth_faces(ctx):
    return []
