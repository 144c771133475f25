"""The built-in adapter for plain annotations: dataclasses, TypedDicts, signatures.

It registers through the same hook a third-party adapter uses (see ``_defaults``).
"""

from ._adapter import PlainAdapter
from ._params import params_checker

__all__ = ["PlainAdapter", "params_checker"]
