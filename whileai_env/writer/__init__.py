"""The template writer: the opening user message of a task, from its cell and human axes.

No model: a seeded choice among templates for the ask family and stance, framed by persona,
tone and history, then retyped with the cell's texture (which never touches identifiers).
Persona, tone and texture stay on the task so later user turns speak the same way.

The ask itself is built the way people phrase requests: a bare-infinitive verb found among the
tool name's words (skipping namespaces such as ``git`` or ``invoices``), the tool's own object
noun ("reset *the password* for user noor82"), the entity ids in the tool's ``required`` order
with a preposition each, and the stated details rendered as speech (dates "on …", free text
quoted, enum values without underscores). What a tool sounds like is worked out once per tool.

The package, in the order a sentence is built: :mod:`~whileai_env.writer.vocabulary` (word tables)
and :mod:`~whileai_env.writer.templates` (sentence templates) hold the data;
:mod:`~whileai_env.writer.grammar` inflects words; :mod:`~whileai_env.writer.tool_phrasing` works
out what a tool sounds like; :mod:`~whileai_env.writer.spoken` says stated values;
:mod:`~whileai_env.writer.action` builds one tool call's ask; :mod:`~whileai_env.writer.opener`
composes the message.
"""

from whileai_env.writer.opener import write_opener
from whileai_env.writer.spoken import spoken_id, spoken_value, stated_values

__all__ = ["spoken_id", "spoken_value", "stated_values", "write_opener"]
