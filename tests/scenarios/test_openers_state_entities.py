"""A non-vague ask states what the task needs: every entity the target call takes is in the opener.

The oracle addresses an entity by the id the plan holds, and the conduct gate calls an id that no
user turn gave an invented reference; so an opener that leaves one out makes a task nobody can
solve. A general ask ("I'm looking for events") once dropped the entity a search is about
(``search_events(issueId)``), and the oracle scored 0 on it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.agents import oracle_agent
from whileai_env.scenarios import axes as ax
from whileai_env.writer.spoken import spoken_id

VERBS = ("search", "find", "list", "get", "lookup", "fetch", "cancel", "update", "delete", "track")
NOUNS = ("events", "issues", "feedback", "messages", "files", "orders", "runs", "notes")
LOCATORS = ("issueId", "searchId", "organizationSlug", "order_id", "channel_key", "project_ref")


def _spec(verb: str, noun: str, locator: str, query: bool) -> wenv.Spec:
    props: dict = {locator: {"type": "string"}}
    if query:
        props["query"] = {"type": "string", "description": "Text to look for."}
    tool = {
        "name": f"{verb}_{noun}",
        "description": f"{verb.capitalize()} {noun} of one {locator} by its identifier.",
        "parameters": {"type": "object", "properties": props, "required": list(props)},
    }
    return wenv.load_spec(tools=[tool], system_prompt="You help people with their records.")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    verb=st.sampled_from(VERBS),
    noun=st.sampled_from(NOUNS),
    locator=st.sampled_from(LOCATORS),
    query=st.booleans(),
    ask=st.sampled_from(("tool", "general")),
    stance=st.sampled_from(ax.STANCES),
    persona=st.sampled_from(ax.PERSONAS),
    tone=st.sampled_from(ax.TONES),
    texture=st.sampled_from(ax.TEXTURES),
    seed=st.integers(0, 50),
)
def test_a_non_vague_opener_names_every_entity_of_its_target(
    verb, noun, locator, query, ask, stance, persona, tone, texture, seed
):
    spec = _spec(verb, noun, locator, query)
    name = spec.tools[0].name
    cell = wenv.Cell(
        tool=name,
        rule="none",
        world_state="exists",
        condition="success",
        history="fresh",
        stance=stance,
        ask=ask,
        persona=persona,
        tone=tone,
        texture=texture,
    )
    task = wenv.make_task(cell, spec, seed=seed, fault_rate=0.0)
    entities = task.world.entities_for(name)
    assert entities, "the plan names the entity the tool takes"
    missing = [k for k, v in entities.items() if spoken_id(v) not in task.opener]
    assert not missing, f"{task.opener!r} leaves out {missing}"


def test_the_oracle_solves_a_general_search_about_one_entity():
    spec = _spec("search", "events", "issueId", False)
    cell = wenv.Cell(
        tool="search_events",
        rule="none",
        world_state="exists",
        condition="success",
        history="fresh",
        stance="ordinary",
        ask="general",
        persona="returning",
        tone="neutral",
        texture="standard",
    )
    for seed in range(6):
        task = wenv.make_task(cell, spec, seed=seed, fault_rate=0.0)
        policy = oracle_agent(spec)
        policy.start(task)
        episode = wenv.Episode(spec, task)
        while not episode.done:
            episode.step(policy(episode.messages))
        graded = episode.reward()
        assert graded["reward"] == 1.0, (task.opener, graded["reason"])
