"""Argument checks shared by every engine function.

Bad input gets a ``ValueError`` that names the argument and its allowed range, raised
at the public boundary, never a traceback from deep inside the maths.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np


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


def require_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of the strings in ``choices``.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : object
        What the caller passed.
    choices : sequence of str
        The allowed values.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If ``value`` is not one of ``choices``.
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def require_bool(name: str, value: object) -> bool:
    """Return ``value`` as a ``bool`` if it is ``True`` or ``False`` (numpy bools too).

    Raises
    ------
    ValueError
        For anything else (0 and 1 included).
    """
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def require_probability(name: str, value: object) -> float:
    """Return ``value`` as a ``float`` if it is a real number from 0 to 1.

    Raises
    ------
    ValueError
        If ``value`` is not a real number (``bool`` included), is NaN, or is outside [0, 1].
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a probability from 0 to 1, got {value!r}")
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a probability from 0 to 1, got {value}")
    return value


def require_distribution(name: str, value: object, tolerance: float = 1e-9) -> np.ndarray:
    """Return ``value`` as a float array if it is a probability vector.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : array_like
        One-dimensional, at least one entry, no negative or non-finite entries, sum 1.
    tolerance : float
        How far the sum may stray from 1.

    Returns
    -------
    numpy.ndarray
        A float64 copy.

    Raises
    ------
    ValueError
        If ``value`` is not such a vector.
    """
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 1-D array of probabilities summing to 1") from None
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            f"{name} must be a 1-D array of probabilities summing to 1, got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ValueError(f"{name} must hold probabilities from 0 to 1, got {array!r}")
    if abs(array.sum() - 1.0) > tolerance:
        raise ValueError(f"{name} must sum to 1, got a sum of {array.sum()!r}")
    return array


def require_int_array(
    name: str, value: object, low: int | None = None, high: int | None = None
) -> np.ndarray:
    """Return ``value`` as an int64 array if every entry is a whole number in ``[low, high]``.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : array_like
        A whole number or an array of them (bools and floats are refused).
    low, high : int or None
        Inclusive bounds; ``None`` means unbounded on that side.

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        If an entry is not a whole number or is out of range.
    """
    array = np.asarray(value)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} must hold whole numbers, got dtype {array.dtype}")
    array = array.astype(np.int64)
    if (low is not None and np.any(array < low)) or (high is not None and np.any(array > high)):
        raise ValueError(f"{name} must hold whole numbers {_describe_range(low, high)}")
    return array


def _describe_range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"of at least {low}"
    if high is not None:
        return f"of at most {high}"
    return "(any integer)"
