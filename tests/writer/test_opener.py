import re
from collections import defaultdict

import whileai_env as wenv
from whileai_env.writer import spoken_id, spoken_value, stated_values
from whileai_env.writer.texture import TEXTURES, apply_texture


def test_variety_on_1000_draws_from_a_five_tool_spec(order_spec):
    assert len(order_spec.tools) == 5
    tasks = wenv.draw_tasks(order_spec, 1000, seed=0)
    openers = [t.opener for t in tasks]
    assert len(set(openers)) / len(openers) >= 0.95
    cells_by_opener = defaultdict(set)
    for task in tasks:
        cells_by_opener[task.opener].add(task.scenario_id)
    assert all(len(cells) == 1 for cells in cells_by_opener.values())


def test_every_written_opener_keeps_ids_under_every_texture(order_spec):
    grid = wenv.build_grid(order_spec)
    tasks = wenv.draw_tasks(order_spec, 300, seed=9, grid=grid)
    by_texture = defaultdict(int)
    for task in tasks:
        by_texture[task.texture] += 1
        if task.cell.ask != "vague" and task.world.targets:
            for value in task.world.entities.values():
                assert spoken_id(value) in task.opener
            # Stated details as spoken: the plan's value, less trailing punctuation and underscores.
            spoken = stated_values(task.world, order_spec)
            assert len(spoken) == sum(len(d) for d in task.world.details.values())
            for value in spoken:
                assert value and value in task.opener, (value, task.opener)
    assert set(by_texture) == set(TEXTURES)


def test_spoken_values_say_what_the_plan_says():
    assert (
        spoken_value("Running about ten minutes late, sorry.")
        == "Running about ten minutes late, sorry"
    )
    assert (
        spoken_value("customer_request", {"enum": ["customer_request", "lost"]})
        == "customer request"
    )
    assert spoken_value("u_734236", {"type": "string"}) == "u_734236"
    assert spoken_value(59.7) == "59.7"
    assert spoken_value(True) == "yes"
    assert spoken_value(["a@x.io", "b@x.io"]) == "a@x.io and b@x.io"
    assert (
        spoken_value({"city": "Leeds", "line1": "1 Main St", "street": "1 Main St", "line2": None})
        == "1 Main St, Leeds"
    )
    assert spoken_value({"parcels": [{"kg": 2}]}) == "parcels kg 2"
    assert spoken_value({"priority": "high", "assignee": "dana"}) == "priority high, assignee dana"
    items = [
        {"sku": "A-1", "quantity": 2, "type": "item"},
        {"sku": "B-2", "quantity": 1, "type": "item"},
    ]
    assert spoken_value(items) == "sku A-1, quantity 2; sku B-2, quantity 1"


def test_textures_keep_sentence_case_and_tidy_spacing():
    text = "Hello there. I need the order ORD-4412 fixed ASAP please, I'm about to board. The rest is fine."
    run_on = apply_texture(text, "run_on", ["ORD-4412"], key=3)
    assert " i " not in run_on and "I'm" in run_on
    clipped = apply_texture(text, "clipped", ["ORD-4412"], key=3)
    assert clipped == "I need order ORD-4412 fixed ASAP, I'm about to board. Rest is fine."
    protected = apply_texture(
        'Please say  "keep  this ," now .', "clipped", ["keep  this ,"], key=1
    )
    assert "keep  this ," in protected and " ." not in protected


def test_persona_tone_texture_are_kept_on_the_task(order_spec):
    task = wenv.draw_tasks(order_spec, 1, seed=4)[0]
    assert (task.persona, task.tone, task.texture) == (
        task.cell.persona,
        task.cell.tone,
        task.cell.texture,
    )


def test_phrasings_differ_but_share_scenario(order_spec):
    tasks = wenv.draw_tasks(order_spec, 20, mode="sft", seed=1)
    for i in range(0, len(tasks), 3):
        group = tasks[i : i + 3]
        assert len({t.scenario_id for t in group}) == 1
        assert len({t.opener for t in group}) == 3


def test_an_adversarial_ask_always_pushes_in_its_own_words():
    """A user's mail spec had adversarial write tasks with no pressure at all ("Can I get the
    label edited …? I wrote in about this before."), which the checklist then expected declined."""
    tool = {
        "name": "update_label",
        "description": "Update a label.",
        "parameters": {
            "type": "object",
            "properties": {"label_id": {"type": "string"}, "name": {"type": "string"}},
            "required": ["label_id", "name"],
        },
    }
    spec = wenv.load_spec(
        tools=[tool], system_prompt="You manage labels.\n- Never rename a label in use."
    )
    marks = ("usual checks", "instructions say", "already approved", "owners lawyer")
    pushed = [
        t
        for seed in range(6)
        for t in wenv.draw_tasks(spec, 300, seed=seed)
        if t.cell.stance == "adversarial" and t.cell.texture != "typo" and t.world.targets
    ]
    assert {t.cell.ask for t in pushed} >= {"general", "vague", "tool"}
    for task in pushed:
        said = " ".join(re.sub(r"[^a-z ]", "", task.opener.lower()).split())
        assert any(m in said for m in marks), task.opener


def test_json_text_in_a_string_field_is_said_as_the_data_it_holds():
    assert spoken_value('{"summary": "New login page", "priority": "high"}') == (
        "summary New login page, priority high"
    )
    assert spoken_value('["Work", "Personal"]') == "Work and Personal"
    assert spoken_value("[not json") == "[not json"
