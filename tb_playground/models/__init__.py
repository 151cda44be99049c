"""Domain objects as ``param.Parameterized`` classes: bounds and docs are the validation."""

from .check import Check

__all__ = ["Check"]

from .attack import SLOW_ACTIONS, Attack  # noqa: E402

__all__ += ["SLOW_ACTIONS", "Attack"]
