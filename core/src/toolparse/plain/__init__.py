"""The built-in adapter for plain annotations: dataclasses, TypedDicts, signatures."""

from ._adapter import PlainAdapter
from ._parser import params_checker

__all__ = ["PlainAdapter", "params_checker"]
