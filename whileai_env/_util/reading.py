"""How much of one message a reader takes in: the simulated user and the grader alike.

A policy in training can degenerate into a reply of hundreds of kilobytes. Nobody reads that
to the end, and reading it costs every phrase family a pass over the whole text (a 200 KB reply
cost the graded step 35-47 ms). Both readers take the first :data:`READ_CHARS` characters; the
grader also fails such a reply on conduct (``reply_nonempty``: a reply the user can read), so
nothing placed past the cut can earn or hide anything.
"""

from __future__ import annotations

#: Characters of one message that are read: 64 KiB, about 16,000 tokens.
READ_CHARS = 65_536


def read_part(text: str) -> str:
    """The part of ``text`` a reader takes in: all of it, or its first :data:`READ_CHARS`.

    >>> len(read_part("a" * 100_000)), read_part("short")
    (65536, 'short')
    """
    return text if len(text) <= READ_CHARS else text[:READ_CHARS]
