"""pydantic's plugin switch, without the import its plugin loader makes even when plugins are off.

The first time a model is built, pydantic imports ``pydantic.plugin._loader``,
whose module imports ``importlib.metadata`` (and with it email, zipfile,
csv ...): about 30 ms of every cold ``ddref resolve``, though the loader's
``get_plugins()`` returns no plugins without reading any metadata when
``PYDANTIC_DISABLE_PLUGINS`` switches them all off, as ddref does. With that
switch set, ddref stands in for the loader module with the same answer. Any
other value (plugins named one by one, or none) keeps pydantic's own loader.
"""

from __future__ import annotations

import os
import sys
import types

LOADER = "pydantic.plugin._loader"
# the values for which pydantic's own get_plugins() returns () at once (pydantic.plugin._loader)
ALL_OFF = ("__all__", "1", "true")


def no_plugins() -> tuple[()]:
    return ()


def pydantics_own(name: str):
    """Anything else pydantic asks of its loader module (a later pydantic may): pydantic's own module, loaded then
    from pydantic's files, so the stand-in can only cost time, never fail an import."""
    if name.startswith("__"):       # what the import system probes a module for (__path__ ...): none here
        raise AttributeError(name)
    import importlib.machinery
    import importlib.util

    import pydantic.plugin

    spec = importlib.machinery.PathFinder.find_spec(LOADER, pydantic.plugin.__path__)
    own = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(own)
    return getattr(own, name)


def skip_loader() -> bool:
    """Stand in for pydantic's plugin loader when every plugin is switched off; True when it does."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") not in ALL_OFF or LOADER in sys.modules:
        return False
    loader = types.ModuleType(LOADER, __doc__)
    loader.get_plugins = no_plugins
    loader.__getattr__ = pydantics_own
    sys.modules[LOADER] = loader
    return True
