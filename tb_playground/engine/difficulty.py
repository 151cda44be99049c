"""The Difficulty ladder (RULES.md, "Not given by the texts"; rules/004 "Setting the Difficulty").

Difficulty runs 0..10 and *higher is easier*: it is added to the Element to make the TN.
"""

from __future__ import annotations

#: (name, example) for Difficulty 0..10, verbatim from rules/004.
DIFFICULTY_LADDER: tuple[tuple[str, str], ...] = (
    ("Nearly Impossible", "Catch an arrow out of the air mid-flight"),
    ("Extremely Hard", "Pick a masterwork lock with no tools, blindfolded"),
    ("Very Hard", "Scale a sheer, rain-slicked cliff face"),
    ("Hard", "Convince a hostile guard captain to stand down"),
    ("Challenging", "Track a careful quarry through a rainstorm"),
    ("Moderate", "A tense but ordinary check under pressure"),
    ("Fairly Easy", "Pick a simple lock with the right tools"),
    ("Easy", "Climb a sturdy rope with knots tied in it"),
    ("Very Easy", "Recall a well-known fact in your field"),
    ("Nearly Trivial", "Walk a straight line on level ground"),
    ("Trivial", "Tie your own shoes"),
)

#: Difficulty names 0..10.
DIFFICULTY_NAMES: tuple[str, ...] = tuple(name for name, _ in DIFFICULTY_LADDER)

#: The Target Numbers of rules/004's "What Your Target Is Worth" table.
PUBLISHED_TARGETS: tuple[int, ...] = (5, 8, 11, 14, 17)
