"""Argument checks shared by every engine function.

Bad input gets a ``ValueError`` that names the argument and its allowed range, raised
at the public boundary, never a traceback from deep inside the maths.
"""

from __future__ import annotations

import numbers


def require_int(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an ``int`` if it is a whole number inside ``[low, high]``.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : object
        What the caller passed.
    low, high : int or None
        Inclusive bounds; ``None`` means unbounded on that side.

    Returns
    -------
    int
        ``value`` as a plain Python ``int``.

    Raises
    ------
    ValueError
        If ``value`` is not an integer (``bool`` and floats included) or is out of range.
    """
    allowed = _describe_range(low, high)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number {allowed}, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value


def _describe_range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"of at least {low}"
    if high is not None:
        return f"of at most {high}"
    return "(any integer)"
