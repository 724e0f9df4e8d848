"""PyYAML imported without compiling its check for non-printable characters from scratch.

``yaml.reader.Reader.NON_PRINTABLE``, compiled when PyYAML is imported, is a
negated character class over the whole of Unicode: Python takes about 16 ms
to compile it, every cold ``ddref resolve``. The characters it matches are the
few the YAML spec does not allow (C0 controls but tab, line feed and carriage
return; DEL to U+0084; U+0086 to U+009F; the surrogates; U+FFFE and U+FFFF),
which a positive class names, compiled in about 1.5 ms. ``prime()`` puts that
pattern in ``re``'s cache under PyYAML's own, before PyYAML is imported: its
``re.compile`` then returns it, and finds exactly the same characters
(tests/test_yaml_reader.py checks every code point). Should ``re`` keep its
cache otherwise, or PyYAML change its pattern, the entry is simply not used.
Import PyYAML from here (``from .yaml_reader import yaml``) to have it primed.
"""

from __future__ import annotations

import re
import sys

PYYAML = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
SAME = "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]"


def prime() -> None:
    """Before PyYAML is first imported: its NON_PRINTABLE pattern, compiled the quick way."""
    cache = getattr(re, "_cache", None)     # CPython 3.11: (type, pattern, flags) -> compiled pattern
    if "yaml.reader" not in sys.modules and isinstance(cache, dict):
        cache.setdefault((str, PYYAML, 0), re.compile(SAME))


prime()
import yaml  # noqa: E402  -- after prime(): yaml.reader compiles its pattern on import

__all__ = ["yaml", "prime"]
