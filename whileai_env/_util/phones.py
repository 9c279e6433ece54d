"""Phone numbers compared by their digits: ``+1 (513) 912-4457 x1574`` is ``5139124457x1574``.

People, agents and APIs write one number many ways (spaces, dashes, brackets, a country code,
an extension). The grader, the reference agent and the simulated user all ask "is this the
number that was said?", so they share this one reading.

>>> same_phone("+1 (513) 912-4457", "5139124457"), same_phone("+44 20 7946 0958", "020 7946 0959")
(True, False)
>>> phones_in("call 080-61 08 23 or +1 415 555 0100 today")
['080610823', '14155550100']
"""

from __future__ import annotations

import re

#: A phone number as written: digits with spaces, dashes, dots, brackets, a leading +, an extension.
_PHONE = re.compile(
    r"(?<![\w@.])\+?\(?\d[\d\s().-]{5,}\d(?:\s*(?:x|ext\.?)\s*\d{1,6})?(?![\w@])", re.IGNORECASE
)
_MIN_DIGITS = 7


def digits(text: str) -> str:
    """The digits of ``text``."""
    return re.sub(r"\D", "", text)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def is_phone(text: str) -> bool:
    """Whether ``text`` is written as a phone number (7 or more digits, phone punctuation only,
    no date)."""
    text = text.strip()
    return (
        bool(_PHONE.fullmatch(text)) and len(digits(text)) >= _MIN_DIGITS and not _DATE.search(text)
    )


def same_phone(a: str, b: str) -> bool:
    """Whether two phone numbers are one: the same digits, or one with a country code or
    trunk prefix the other leaves out (at least seven digits in common, at the end)."""
    x, y = digits(a).lstrip("0"), digits(b).lstrip("0")
    if min(len(x), len(y)) < _MIN_DIGITS:
        return False
    return x.endswith(y) or y.endswith(x)


def phones_in(text: str) -> list[str]:
    """The phone numbers written in ``text``, each as its digits."""
    return [
        digits(m.group(0)) for m in _PHONE.finditer(text) if len(digits(m.group(0))) >= _MIN_DIGITS
    ]
