"""Argument roles read from names, schemas and descriptions (whileai_env.world.roles)."""

from __future__ import annotations

from whileai_env.world.roles import find_roles


def test_bare_move_ends_are_paths_when_the_tool_moves_files():
    props = {"source": {"type": "string"}, "destination": {"type": "string"}}
    moving = find_roles("move_file", props, ("source", "destination"), "Move or rename files.")
    assert moving.paths == ("source", "destination") and moving.destination == "destination"
    assert find_roles("transfer_funds", props, ("source", "destination"), "Send money.").paths == ()
    described = {"source": {"type": "string", "description": "the account to debit"}}
    assert find_roles("move", described, ("source",), "Move files.").paths == ()
