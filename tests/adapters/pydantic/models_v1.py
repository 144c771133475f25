"""``pydantic.v1`` models (legacy code's models) for the adapter's tests.

No ``from __future__ import annotations`` here: ``pydantic.v1`` resolves
string annotations in the module namespace only.
"""

from pydantic import v1


class LegacyItem(v1.BaseModel):
    sku: str
    quantity: int = v1.Field(..., gt=0, description="how many")


class LegacyOrder(v1.BaseModel):
    customer: str = v1.Field(..., alias="customerName")
    items: list[LegacyItem]
    note: str | None = None

    class Config:
        extra = v1.Extra.forbid

    @v1.root_validator(skip_on_failure=True)
    def _no_bad_note(cls, values):  # type: ignore[no-untyped-def]  # v1 validator signature
        if values.get("note") == "bad":
            raise ValueError("note may not be bad")
        return values


class LegacyOpen(v1.BaseModel):
    name: str
    size: int = 1
