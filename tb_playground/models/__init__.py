"""Domain objects as ``param.Parameterized`` classes: bounds and docs are the validation."""

from .check import Check

__all__ = ["Check"]
