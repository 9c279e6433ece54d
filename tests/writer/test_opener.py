from collections import defaultdict

import pytest

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


@pytest.mark.parametrize("texture", TEXTURES)
def test_texture_never_alters_identifiers(texture):
    ids = ["ORD-4412", "dana.kim@northwind.io", "src/app/models.py", "BK-99812", "#6038"]
    text = (
        "Hello there! Please cancel the order ORD-4412, then email dana.kim@northwind.io about it. "
        "Also open src/app/models.py and booking BK-99812, ticket #6038. Thanks so much, really."
    )
    for key in range(25):
        out = apply_texture(text, texture, ids, key=key)
        for identifier in ids:
            assert identifier in out, (texture, out)


def test_textures_change_the_prose():
    text = "Hello there. Please cancel the order ORD-4412 today, it was really late."
    outs = {t: apply_texture(text, t, ["ORD-4412"], key=1) for t in TEXTURES}
    assert outs["standard"] == text
    assert (
        outs["lowercase"]
        == "hello there. please cancel the order ORD-4412 today, it was really late."
    )
    assert outs["no_punctuation"].count(".") == 0 and "," not in outs["no_punctuation"]
    assert len(outs["clipped"]) < len(text)
    assert outs["run_on"] != text
    with pytest.raises(ValueError, match="unknown texture"):
        apply_texture(text, "shouty")


def test_typo_texture_misspells_two_to_three_words_in_a_hundred():
    """The dose a person typing in a chat makes, counted word by word against the clean text over
    many seeds; a slip never touches a first letter or a protected id."""
    text = " ".join(
        ["Please cancel the order ORD-4412 today, it arrived damaged and the box was open."] * 8
    )
    clean = text.split(" ")
    slips = words = 0
    for key in range(400):
        typed = apply_texture(text, "typo", ["ORD-4412"], key=key).split(" ")
        assert len(typed) == len(clean) and typed.count("ORD-4412") == 8
        slips += sum(a != b for a, b in zip(typed, clean, strict=True))
        words += len(clean)
        assert all(a[0] == b[0] for a, b in zip(typed, clean, strict=True))
    assert 2.0 <= 100 * slips / words <= 3.0, 100 * slips / words


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
