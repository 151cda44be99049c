"""One record per Ruleset switch (models/switches.py), and every table of switches read from it.

Adding a ``Switch`` to ``SWITCH_LIST`` is enough for the badge, the sheet's labels, the rules
lab's picker, inputs and quotes, the display names and the Rules page's table (issue 18, item 3).
"""

from __future__ import annotations

import dataclasses

import param
import pytest

from tb_playground.lab import prepare
from tb_playground.lab import rules_lab as lab
from tb_playground.lab.switch_curves import _BUILDERS
from tb_playground.models import names
from tb_playground.models import switches as switches_module
from tb_playground.models.ruleset import (
    READING_SWITCHES,
    SWITCH_SENTENCES,
    SWITCHES,
    VARIANT_SWITCHES,
    Ruleset,
    add_switches,
)
from tb_playground.models.switches import (
    ROLL_OVER_DRAFT,
    SWITCH_LABELS,
    SWITCH_LIST,
    Switch,
    get_switch,
    switch_names,
    switches_markdown,
)
from tb_playground.views import sheet_inputs
from tb_playground.views.ruleset_badge import badge_text
from tb_playground.views.site import rules_page, rules_switches_markdown

FAKE = Switch(
    name="fake_switch",
    group="variant",
    sentence="A made-up reading holds.",
    doc="A made-up reading, for the test.",
    label="Made-up reading",
    title="A made-up reading",
    source=("002", "A Made-Up Heading", "words nobody wrote"),
    touches=frozenset({"check"}),
    inputs=("Element", None, None),
    fights_note="The fight simulator does not play made-up readings.",
)


@pytest.fixture
def fake_switch():
    SWITCH_LIST.append(FAKE)
    try:
        yield FAKE
    finally:
        SWITCH_LIST.remove(FAKE)


def test_the_list_names_the_rulesets_boolean_parameters_in_order():
    booleans = [n for n, p in Ruleset.param.objects("existing").items() if type(p) is param.Boolean]
    assert switch_names() == tuple(booleans) == SWITCHES
    assert SWITCHES == VARIANT_SWITCHES + READING_SWITCHES  # 002's first, as RULES.md lists them
    assert switch_names("variant") == VARIANT_SWITCHES
    assert {s.group for s in SWITCH_LIST} == {"variant", "reading"}
    assert len({s.name for s in SWITCH_LIST}) == len(SWITCH_LIST)


def test_a_new_switch_shows_everywhere(fake_switch):
    # The Ruleset: a parameter made from the record alone, off by default, with its doc.
    FakeRuleset = add_switches(type("FakeRuleset", (Ruleset,), {}))  # noqa: N806 - a class
    assert FakeRuleset.param["fake_switch"].doc == fake_switch.doc
    assert FakeRuleset().fake_switch is False and "fake_switch" not in Ruleset.param
    # The badge: the sentence, once the Ruleset has the switch on.
    assert fake_switch.sentence in badge_text(FakeRuleset(fake_switch=True))
    assert fake_switch.sentence not in badge_text(FakeRuleset())
    # The sheet's checkbox label and the pages' sentences and display names.
    assert sheet_inputs.SWITCH_LABELS[fake_switch.name] == fake_switch.label
    assert SWITCH_SENTENCES[fake_switch.name] == fake_switch.sentence
    assert names.name("switch", fake_switch.name) == fake_switch.sentence
    assert names.name("lab_switch", fake_switch.name) == fake_switch.title
    # The rules lab: its picker, inputs, quotes, what it touches and its fight note.
    assert lab.picker_options()[fake_switch.title] == fake_switch.name
    assert fake_switch.name in lab.lab_switch_names()
    assert lab.SWITCH_INPUTS[fake_switch.name] == {"element": "Element", "stat": None, "dice": None}
    assert lab.LAB_QUOTES[fake_switch.name] == fake_switch.source
    assert lab.TOUCHES[fake_switch.name] == {"check"}
    assert lab.NOT_SIMULATED[fake_switch.name] == fake_switch.fights_note
    assert "words nobody wrote" in lab.source_text(fake_switch.name)
    # The docs: the Rules page's table of switches.
    row = f"| {fake_switch.label} | {fake_switch.sentence} |"
    assert row in switches_markdown() and row in rules_switches_markdown()


def test_the_fake_switch_leaves_no_trace():
    assert "fake_switch" not in switch_names(draft=True)
    assert "fake_switch" not in SWITCH_LABELS and "fake_switch" not in lab.picker_options().values()


def test_the_rules_page_shows_the_table_of_switches():
    shown = [
        o.object
        for o in rules_page().main.objects
        if isinstance(getattr(o, "object", None), str) and "rules-switches" in o.css_classes
    ]
    assert shown == [rules_switches_markdown()]
    for s in SWITCH_LIST:
        assert s.label in shown[0] and s.sentence in shown[0]


def test_the_places_read_the_one_list():
    assert sheet_inputs.SWITCH_LABELS is SWITCH_LABELS
    assert dict(SWITCH_LABELS) == {s.name: s.label for s in SWITCH_LIST}
    assert dict(SWITCH_SENTENCES) == {s.name: s.sentence for s in SWITCH_LIST}
    assert lab.LAB_SWITCHES == (*SWITCHES, lab.ROLL_OVER) == switch_names(draft=True)
    assert lab.ROLL_OVER == ROLL_OVER_DRAFT.name
    assert dict(lab.SWITCH_TITLES) == {s.name: s.title for s in (*SWITCH_LIST, ROLL_OVER_DRAFT)}


def test_the_labs_own_per_switch_tables_are_keyed_by_the_list():
    # The maths stays in the lab; its tables name exactly the list's switches (and the draft).
    assert set(_BUILDERS) == set(switch_names(draft=True))
    simulated = {s.name for s in SWITCH_LIST if s.fights != "none"}
    assert set(lab.SIMULATED) == simulated
    assert set(lab.SWITCH_POLICIES) == simulated
    assert set(lab.SUGGESTED_FIGHTS) <= simulated
    assert set(prepare.RULESET_SWITCHES) == set(lab.SIMULATOR_SWITCHES)
    assert set(lab.SHEET_SWITCHES) == {s.name for s in SWITCH_LIST if s.fights == "sheet"}
    for s in (*SWITCH_LIST, ROLL_OVER_DRAFT):
        assert s.touches and s.touches <= set(lab.QUANTITY_NAMES), s.name


def test_every_switch_has_plain_words():
    for s in (*SWITCH_LIST, ROLL_OVER_DRAFT):
        for words in (s.sentence, s.label, s.title):
            assert words and "_" not in words, (s.name, words)
            assert words[0].isupper() or words[0].isdigit(), (s.name, words)
        assert s.source[0] in ("000", "002", "003", "004") and all(s.source), s.name


@pytest.mark.parametrize(
    "change",
    [{"group": "house"}, {"fights": "sometimes"}, {"fights": "simulator"}, {"fights_note": ""}],
)
def test_a_switch_record_refuses_what_it_cannot_mean(change):
    with pytest.raises(ValueError):
        dataclasses.replace(FAKE, **change)


def test_get_switch_names_the_known_ones():
    assert get_switch("never_moira").label == "Moira never attacks"
    assert get_switch(ROLL_OVER_DRAFT.name) is ROLL_OVER_DRAFT
    with pytest.raises(ValueError, match="never_moira"):
        get_switch("no_such_switch")
    assert switches_module.SWITCH_LIST is SWITCH_LIST
