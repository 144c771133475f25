"""A class together with the converter that structures it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import cattrs

__all__ = ["AttrsSource", "using"]


class AttrsSource:
    """An ``args_schema`` for the attrs adapter: a class and, optionally, its converter.

    Build it with :func:`using`. The attrs adapter accepts it whatever the
    class is (an attrs class or a dataclass), so it is also how a dataclass is
    handed to cattrs rather than to another adapter.

    :param cls: an attrs class or a dataclass.
    :param converter: the ``cattrs.Converter`` to structure the arguments with
        and to serialise returned instances with; ``None`` for toolparse's
        default converter.
    """

    __slots__ = ("cls", "converter")

    def __init__(self, cls: type, converter: cattrs.Converter | None = None) -> None:
        self.cls = cls
        self.converter = converter

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AttrsSource):
            return NotImplemented
        return self.cls is other.cls and self.converter is other.converter

    def __hash__(self) -> int:
        return hash((self.cls, id(self.converter)))

    def __repr__(self) -> str:
        name = getattr(self.cls, "__qualname__", repr(self.cls))
        if self.converter is None:
            return f"using({name})"
        return f"using({name}, {self.converter!r})"


def using(cls: type, converter: Any = None) -> AttrsSource:
    """Hand ``cls`` to the attrs adapter, structured by ``converter``.

    ``Function(args_schema=using(Order, my_converter))`` structures the
    arguments with your converter (its hooks, its ``forbid_extra_keys``) and
    serialises ``Order`` instances a tool returns with it too.
    ``using(SomeDataclass)`` routes a dataclass to cattrs (other adapters
    also accept dataclasses, so a bare dataclass is not taken by this one).

    :param cls: an attrs class or a dataclass.
    :param converter: a ``cattrs.Converter``; ``None`` for the default one.
    """
    return AttrsSource(cls, converter)
