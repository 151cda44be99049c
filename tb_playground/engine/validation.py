"""Argument checks shared by every engine function.

Bad input gets a ``ValueError`` that names the argument and its allowed range, raised
at the public boundary, never a traceback from deep inside the maths.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

#: Most entries an array or sequence argument may hold when a function sets no tighter bound.
#: Big enough for any table a page draws (a full ``damage_sweep`` is far smaller), small
#: enough that checking it and the maths after it take well under a second.
MAX_ITEMS = 1_000_000


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
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        allowed = _describe_range(low, high)
        raise ValueError(f"{name} must be a whole number {allowed}, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be {_describe_range(low, high)}, got {value}")
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


def require_length(
    name: str, value: object, high: int = MAX_ITEMS, low: int = 0, what: str = "values"
) -> list:
    """Return ``value`` as a list if it is a sequence of ``low`` to ``high`` entries.

    The length is checked before anything is copied or computed, so a huge argument is
    refused at once: a sized object by its ``len`` (``range(10**30)`` included), an iterator
    by reading at most ``high + 1`` entries. The entries themselves are not checked.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : object
        What the caller passed: a list, tuple, range, numpy array or other iterable.
    high, low : int
        Inclusive bounds on the number of entries.
    what : str
        What the entries are, for the message ("walls", "tiers").

    Returns
    -------
    list
        The entries (a numpy array's first axis, as a list).

    Raises
    ------
    ValueError
        If ``value`` is a string, a mapping or not iterable, or has too few or too many
        entries.
    """
    bounds = f"{low} to {high}" if low else f"at most {high}"
    if low == high:
        bounds = f"exactly {high}"
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise ValueError(f"{name} must be a list of {bounds} {what}, got {type(value).__name__}")
    try:
        size = np.shape(value)[0] if isinstance(value, np.ndarray) and value.ndim else len(value)
        got = str(size)
    except OverflowError:  # len(range(10**30))
        size, got = high + 1, f"more than {high}"
    except TypeError:  # an iterator, or a 0-d array
        if isinstance(value, np.ndarray):
            raise ValueError(f"{name} must be a list of {bounds} {what}, got one value") from None
        value = list(itertools.islice(value, high + 1))
        size = len(value)
        got = f"more than {high}" if size > high else str(size)
    if not low <= size <= high:
        raise ValueError(f"{name} must hold {bounds} {what}, got {got}")
    return list(value)


def require_size(name: str, value: object, high: int = MAX_ITEMS) -> None:
    """Refuse an array-like ``value`` with more than ``high`` entries, before copying it.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : object
        A number, a (nested) sequence or a numpy array. A numpy array is measured by its
        size; a sequence by its outer length, without reading it (the callers measure the
        array they build from it again).
    high : int
        Most entries allowed.

    Raises
    ------
    ValueError
        If ``value`` holds more than ``high`` entries.
    """
    if isinstance(value, np.ndarray):
        size = value.size
    elif isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return
    else:
        try:
            size = len(value)
        except OverflowError:  # len(range(10**30))
            raise ValueError(f"{name} must hold at most {high} entries, got more") from None
    if size > high:
        raise ValueError(f"{name} must hold at most {high} entries, got {size}")


def require_distribution(
    name: str, value: object, tolerance: float = 1e-9, max_size: int = MAX_ITEMS
) -> np.ndarray:
    """Return ``value`` as a float array if it is a probability vector.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : array_like
        One-dimensional, at least one entry, no negative or non-finite entries, sum 1.
    tolerance : float
        How far the sum may stray from 1.
    max_size : int
        Most entries allowed.

    Returns
    -------
    numpy.ndarray
        A float64 copy.

    Raises
    ------
    ValueError
        If ``value`` is not such a vector or has more than ``max_size`` entries.
    """
    require_size(name, value, max_size)
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 1-D array of probabilities summing to 1") from None
    require_size(name, array, max_size)
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
    name: str,
    value: object,
    low: int | None = None,
    high: int | None = None,
    max_size: int = MAX_ITEMS,
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
    max_size : int
        Most entries allowed (checked before the entries are read).

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        If an entry is not a whole number or is out of range, or there are too many.
    """
    require_size(name, value, max_size)
    array = np.asarray(value)
    require_size(name, array, max_size)
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
