"""What an agent's reply asks the person, sentence by sentence, read by what is asked.

A confirmation ("Shall I go ahead and cancel it?") asks the person to approve an action the
agent would take; an open question ("What exactly would you like me to do?", "Which order do you
mean?", "What's your date of birth?") asks for something the person knows. They are told apart by
the question's frame (who would act, what is asked for), not by a phrase found anywhere in the
text, so "What would you like me to do?" is no confirmation although it holds "would you like me
to". Each :class:`Ask` names its kind and, for a request for information, the thing asked for.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: Kinds, in the order a sentence is tested for them.
KINDS = ("closing", "request", "which", "info", "choice", "confirm", "check")

_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSES = re.compile(
    r"[,;]?\s+(?:and|also)\s+(?=(?:what|which|when|where|who|why|how|could|can|would|will|do|may|is)\b)"
    r"|;\s+",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:[-*•]\s*|\d+[.)]\s*|[^:?!.]{3,80}:\s+(?=(?:shall|should|can|may|could|do|would|is|are|will)\b)"
    r"|(?:(?:before|so that|so) (?:i|we)\b[^:,?]*(?=[:,])|(?:in order )?to [a-z]+\b[^:,?]{0,60}(?=[:,])"
    r"|for (?:[a-z]+ ){0,2}(?:purposes?|reasons?|verification|security)(?=[:,])"
    r"|just to (?:confirm|be sure|check)|to confirm|(?:please |can you |could you )?confirm(?: for me)?(?=\s*[:,-])"
    r"|one more thing|ok(?:ay)?|great|thanks|thank you|sure|alright|so"
    r"|also|and|now|first|lastly|hello|hi there|hey there|hi|hey|good (?:morning|afternoon|evening)"
    r"|of course|certainly|absolutely|no problem)\b[,:;.!]?\s*)+",
    re.IGNORECASE,
)
_CLOSING = re.compile(
    r"\b(?:anything else|something else|any other (?:questions?|requests?)|else i can (?:help|do))\b"
)
_REQUEST = re.compile(
    r"^(?:what|how)(?: exactly| else)? (?:would|do|did|can|should|could|may) (?:you|i|we) (?:like|want|need|wish|mean)"
    r"(?: (?:me|us))?(?: to(?: do| change| happen| help(?: with)?)?)?\s*(?:[?.!]|$|with|for|today|here|from me)"
    r"|^what(?: exactly)? (?:would|do) you (?:like|want|need) (?:me|us) to \w+|^how can i (?:help|assist)"
    r"|^what can i (?:do|help)"
    r"|^what (?:is|'s) (?:the|your) (?:issue|problem|request|question)|^what(?:'s| is) (?:going on|wrong|happening)"
    r"|^what seems to be|\b(?:more|a bit more|some more) (?:details?|information|context)\b"
    r"|^(?:could|can|would) you (?:please )?(?:tell me|explain|describe) (?:more|what)|^tell me (?:more|what)"
    r"|\bwhat (?:exactly )?(?:you(?:'d| would) like|you want|you need)\b"
)
_WHICH = re.compile(
    r"^which\b|\bwhich (?:one|of)\b|\b(?:do you mean|did you mean|is it) (?:the )?(?:one|first|second)\b"
)
_INFO_FRAME = re.compile(
    r"^(?:(?:could|can|would|will) you (?:please |kindly )?(?:also )?(?:tell|give|provide|share|send|confirm|let me know"
    r"|specify|clarify|enter|check|type|spell|remind)(?: me)?(?: with)?\s*"
    r"|(?:may|can|could) i (?:please )?(?:have|get|ask for|ask|see|take|grab)\s*"
    r"|do you (?:have|know|remember)\s*"
    r"|please (?:provide|share|tell me|send|give me|confirm|specify|enter|let me know|clarify)\s*"
    r"|(?:i(?:'ll| will| would)?|we(?:'ll| will)?) (?:also )?(?:need|require)\s*(?:to know\s*)?"
    r"|let me know\s*|(?:what|when|where|who|how (?:many|much|long|old))"
    r"(?:(?:'s|'re| is| are| was| were| does| did| do| should| would| will)\b)?\s*"
    r"|(?=(?:your|the) ))",
    re.IGNORECASE,
)
_WHY = re.compile(r"^why\b|\bwhy (?:do|did|would|are|is)\b")
#: "Can you confirm that you want …": a confirmation, although it opens like a request for facts.
_CONFIRM_THAT = re.compile(
    r"^(?:(?:can|could|would) you |please |do you )?confirm (?:that |for me that )?(?:you|this|i|we|it|that's)\b"
)
_CONFIRM = re.compile(
    r"^(?:(?:shall|should|can|may|could|do) (?:i|we)\b|(?:do|would) you (?:want|like) (?:me|us) to|(?:you )?want me to"
    r"|(?:is it|would it be|is that) (?:ok|okay|alright|all right|fine)(?: (?:if|for) (?:i|me|us))?"
    r"|(?:ok|okay|alright|all right) (?:if i|to|for me to)|are you sure|ready for me to|do you (?:want|wish) to"
    r"|(?:shall|should) (?:i|we) (?:proceed|go ahead|continue)|go ahead\b|proceed\b)"
)
_OR = re.compile(r"\bor\b")
_ASKING = re.compile(
    r"\?\s*$|^(?:please )?(?:provide|share|tell me|send|give me|confirm|specify|enter|let me know|clarify)\b"
    r"|^(?:could|can|would) you (?:please )?(?:tell|provide|share|send|give|confirm|let me know|specify|clarify)\b"
    r"|^(?:i|we)(?:'ll| will| would)? (?:also )?need (?:your|the|to know|a|an|some)\b",
    re.IGNORECASE,
)
_SUBJECT_END = re.compile(
    r"\s*(?:[.;!?()]|\b(?:so|for|before|please|first|again|if|that|which|you|i|we|it|do|does|did|is|are|was"
    r"|were|would|should|can|could|will|shall|have|has|be|associated|linked)\b"
    r"|\b(?:to|on|in|from|at|by|with)\s+(?=\w)).*$"
)
_ARTICLE = re.compile(
    r"^(?:your|the|a|an|which|what|me|us|any|exact|full|correct|current|also|with|of)\s+"
)
#: "(What) would you like the new address to be", "(what) should the subject be": the noun follows.
_AUXILIARY = re.compile(
    r"^(?:(?:would|do|will) you (?:like|want|need|prefer)|should|would|will|can|could|is|are|does|do)\s+"
    r"(?=the |your |a |an |this |that )"
)
_FILLERS = frozenset(
    ["please", "thanks", "thank you", "again", "too", "as well", "now", "then", "first"]
)
_PRONOUN = re.compile(r"^(?:it|that|this|those|them|these)\b")
#: "(When does) it end", "(when should) this start": what happens, which names the time asked for.
_PRONOUN_VERB = re.compile(r"^(?:it|this|that|they)\s+([a-z]+)\s*[?.!]*$")
#: "Who should it be assigned to?", "who reported it", "who do I invite": the role asked for.
_ROLES = {
    "assign": "assignee",
    "invit": "attendee",
    "report": "reporter",
    "review": "reviewer",
    "approv": "approver",
    "own": "owner",
}
_WHO_ROLE = re.compile(
    r"^who(?:'s| is| are| was| should| will| would| do| does| did)?(?: (?:it|this|that|i|we|you|they))?"
    r"(?: be)? (assign|invit|report|review|approv|own)\w*"
)
#: What a wh-word asks for when no noun follows it ("When would you like it?").
_WH_SUBJECT = {
    "when": "date",
    "where": "address",
    "who": "name",
    "how many": "number",
    "how much": "amount",
    "how long": "duration",
    "how old": "age",
}


class Ask(NamedTuple):
    """One thing the reply asks: its kind (see :data:`KINDS`), the sentence, and what it asks for
    (``subject``, e.g. "date of birth", "order"; empty when the sentence names nothing)."""

    kind: str
    text: str
    subject: str


def _sentences(text: str) -> list[str]:
    """Sentences, and the clauses of one that asks two things ("Which order is it, and what
    would you like me to do?")."""
    out = []
    for sentence in _SENTENCES.split(text):
        for clause in _CLAUSES.split(sentence.strip()):
            if clause.strip():
                out.append(
                    clause.strip()
                    + (
                        "?"
                        if sentence.rstrip().endswith("?") and not clause.rstrip().endswith("?")
                        else ""
                    )
                )
    return out


def _subjects(rest: str) -> list[str]:
    """The noun phrases at the start of ``rest``: "your date of birth and the reason, please" →
    ["date of birth", "reason"]."""
    out = []
    for piece in re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+or\s+", rest.strip()):
        piece = piece.strip(" ?.!")
        while (cut := _ARTICLE.sub("", piece)) != piece:
            piece = cut
        piece = _SUBJECT_END.sub("", piece) or piece
        while (cut := _ARTICLE.sub("", piece)) != piece:
            piece = cut
        if piece and piece not in _FILLERS:
            out.append(" ".join(piece.split()[:5]))
    return out


def _info(sentence: str, low: str, frame: re.Match[str]) -> list[Ask]:
    """The things a request for information asks for, one :class:`Ask` each."""
    rest = _AUXILIARY.sub("", low[frame.end() :])
    wh = next((w for w in _WH_SUBJECT if low.startswith(w)), None)
    event = _PRONOUN_VERB.match(rest) if wh == "when" else None
    if event:  # "When does it end?": the end (time) it asks for
        return [Ask("info", sentence, event.group(1))]
    subjects = _subjects(rest)
    if wh and (not subjects or rest.startswith(("you ", "i ", "we "))):
        subjects = [_WH_SUBJECT[wh]]
    naming = _NAMING.search(low)
    if naming and subjects:  # "What should the attachment be named?": its name
        word = "title" if naming.group(1) == "titled" else "name"
        subjects = [f"{s} {word}" if word not in s.split() else s for s in subjects]
    return [Ask("info", sentence, s) for s in subjects] or [Ask("info", sentence, "")]


_NAMING = re.compile(r"\bbe\s+(named|called|titled)\b")


def _kind(sentence: str) -> list[Ask]:
    """What one sentence asks (see :data:`KINDS`); a request for several facts gives one ask each."""
    low = _LEAD.sub("", sentence.strip()).strip().lower()
    if not low:
        return []
    if _CLOSING.search(low):
        return [Ask("closing", sentence, "")]
    if _REQUEST.search(low):
        return [Ask("request", sentence, "")]
    if _WHICH.search(low):
        match = re.search(r"\bwhich\s+(.+)", low)
        subjects = _subjects(match.group(1)) if match else []
        subject = subjects[0] if subjects and subjects[0].split()[0] not in ("one", "of") else ""
        return [Ask("which", sentence, subject)]
    if _CONFIRM_THAT.match(low):
        return [Ask("choice" if _OR.search(low) else "confirm", sentence, "")]
    role = _WHO_ROLE.match(low)
    if role:  # "Who should it be assigned to?": the assignee
        return [Ask("info", sentence, _ROLES[role.group(1)])]
    frame = _INFO_FRAME.match(low)
    rest = low[frame.end() :] if frame else ""
    if frame and (
        not _PRONOUN.match(rest) or (low.startswith("when") and _PRONOUN_VERB.match(rest))
    ):
        return _info(sentence, low, frame)
    if _WHY.search(low):
        return [Ask("info", sentence, "reason")]
    if _CONFIRM.match(low):
        return [Ask("choice" if _OR.search(low) else "confirm", sentence, "")]
    return [Ask("check", sentence, "")]


def read_asks(text: str) -> list[Ask]:
    """Every question or request to the person in ``text``, in order (statements are left out).

    >>> [a.kind for a in read_asks("I found it. Shall I go ahead and cancel it?")]
    ['confirm']
    >>> [(a.kind, a.subject) for a in read_asks("What exactly would you like me to do? What's your date of birth?")]
    [('request', ''), ('info', 'date of birth')]
    """
    out: list[Ask] = []
    listing = False
    for sentence in _sentences(text):
        bullet = bool(re.match(r"^(?:[-*•]|\d+[.)])\s+", sentence))
        if listing and bullet:
            out.extend(Ask("info", sentence, s) for s in _subjects(_LEAD.sub("", sentence).lower()))
            continue
        listing = sentence.rstrip().endswith(":")
        stripped = _LEAD.sub("", sentence).strip()
        if listing or not _ASKING.search(stripped):
            continue
        out.extend(_kind(sentence))
    return out
