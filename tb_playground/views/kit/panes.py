"""The pieces every page is built of: panes, boxes and rows, buttons, a board of cards.

``LiveHTML`` (``html_pane``) is the combat pages' pane: its ``show`` sends its text and nothing
else, and inside a table's refresh skips Panel's per-change work (note 0009). ``CardBoard``
sends only the cards that changed; ``Slots`` builds a page's rarely shown rows the first time
they show. ``html_box`` and ``flex_box`` are the other pages' HTML panes and flex items.
``TextMultiChoice`` is the only multi-choice the pages use: its labels show as text.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn
import param

from tb_playground.formatting import escape

from .css import CARD_ROW_CSS, COMBAT_CSS, READABLE_BUTTONS, TABLE_CSS


class LiveHTML(pn.pane.HTML):
    """An HTML pane whose update sends its text and nothing else.

    ``pn.pane.HTML`` re-sends all of its model's properties (14, its stylesheets among them,
    which makes Bokeh walk the whole document's model graph again) each time ``object``
    changes. The combat pages change only the text of their panes, many times a minute on
    every seat, so this pane sets ``text`` alone: one small property change per pane.
    """

    def _update(self, ref: str, model) -> None:
        text = self._transform_object(self.object)["object"]
        if model.text != text:
            model.text = text

    def show(self, html: str) -> None:
        """Set ``object`` to ``html`` and each of its models' text at once.

        Inside a ``TableSession`` refresh (a served page's own document, held, on its own
        thread) param's watchers and Panel's per-model dispatch are skipped; they run for every
        pane of every page on every change. Anywhere else (a widget's callback, a notebook,
        another thread) this is ``self.object = html``, which Panel sends its own way.
        """
        if html == self.object:
            return
        models = []
        for ref, (model, _) in self._models.items():
            if ref in pn.state._fake_roots or ref not in pn.state._views:
                continue
            _, _, doc, comm = pn.state._views[ref]
            served = comm is None and doc.session_context is not None
            if not (served and doc.callbacks.hold_value and pn.state._unblocked(doc)):
                self.object = html
                return
            models.append(model)
        with param.parameterized.discard_events(self):
            self.object = html
        text = self._transform_object(html)["object"]
        for model in models:
            if model.text != text:
                model.text = text


def update(widget, **values) -> None:
    """Set only the widget parameters that change (fewer messages to the browser)."""
    if isinstance(widget, LiveHTML) and values.keys() == {"object"}:
        widget.show(values["object"])
        return
    changed = {k: v for k, v in values.items() if getattr(widget, k) != v}
    if len(changed) == 1:  # param's update() reads every parameter first: slow on a pane
        setattr(widget, *next(iter(changed.items())))
    elif changed:
        widget.param.update(**changed)


class ActionToggle(pn.widgets.Toggle):
    """A toggle whose press reaches the server at once.

    Panel waits 50 ms (``_debounce``) after a widget's value changes in the browser before it
    handles the change, in case another follows (typing, dragging a slider). A toggle press is
    one change, and the combat pages send a table command on it: the wait would add 50 ms to
    what every page at the table sees (``benchmarks/bench_combat.py pages``).
    """

    _debounce = 0


def row(*items, **kw) -> pn.FlexBox:
    """Widgets side by side, wrapping on a phone instead of running off the screen."""
    return pn.FlexBox(
        *items, flex_wrap="wrap", align_items="end", sizing_mode="stretch_width", **kw
    )


def html_pane(css_class: str, **kw) -> LiveHTML:
    """A full-width HTML pane with the combat stylesheet, found by ``css_class``."""
    return LiveHTML(
        "", css_classes=[css_class], stylesheets=[COMBAT_CSS], sizing_mode="stretch_width", **kw
    )


class CardBoard(pn.viewable.Viewer):
    """Combatants as cards, one pane each: a change redraws only the cards it touched.

    One pane for the whole board made every update replace every card on every page (on a
    phone-sized player page, 16 of the 38 ms the browser spent per update, note 0009). Here
    each card is its own pane, reused by position; only those whose HTML changed are sent.

    Parameters
    ----------
    css_class : str
        The CSS class of the board (each card's pane gets ``css_class + "-card"``).
    """

    def __init__(self, css_class: str, **params):
        super().__init__(**params)
        self._css = css_class
        self._panes: list[LiveHTML] = []
        self._layout = pn.Column(  # a wrapping row (lighter than Panel's FlexBox)
            css_classes=[css_class], sizing_mode="stretch_width", stylesheets=[CARD_ROW_CSS]
        )

    def show(self, cards: list[str]) -> None:
        """Show ``cards`` (HTML strings, in order), sending only the ones that changed."""
        while len(self._panes) < len(cards):
            self._panes.append(html_pane(f"{self._css}-card"))
        for pane, html in zip(self._panes, cards, strict=False):  # spare panes stay as they are
            update(pane, object=html)
        shown = self._panes[: len(cards)]
        if list(self._layout.objects) != shown:
            self._layout.objects = shown

    def __panel__(self):
        return self._layout


class Slots:
    """A page's rows in their order, the rarely shown ones built the first time they show.

    Each Panel widget holds 40-90 KB of the server's memory per session (note 0009), and a
    player's page shows its declaration, roll, boost, prevention, Distracted and turn rows only
    at their moments (a spectator's, never). ``order`` lists the page's rows top to bottom:
    a component is always there, a name is a row that ``builders[name]()`` makes on its first
    ``show(name, True)`` and puts in its place in ``layout``.

    Parameters
    ----------
    layout : pn.Column
        The column the rows are in.
    order : list
        Components and names, top to bottom.
    builders : dict
        For each name in ``order``, a function returning the row (with a ``visible``).
    """

    def __init__(self, layout: pn.Column, order: list, builders: dict[str, Callable]):
        self.layout = layout
        self._order = order
        self._builders = builders
        self._built: dict[str, object] = {}
        layout.objects = [x for x in order if not isinstance(x, str)]

    def built(self, name: str) -> bool:
        """Whether row ``name`` was ever shown."""
        return name in self._built

    def show(self, name: str, visible: bool) -> bool:
        """Show or hide row ``name`` (building it the first time it shows); ``visible``."""
        visible = bool(visible)
        made = self._built.get(name)
        if made is None:
            if not visible:
                return False
            made = self._built[name] = self._builders[name]()
            before = self._order[: self._order.index(name)]
            at = sum(1 for x in before if not isinstance(x, str) or x in self._built)
            self.layout.insert(at, made)
        update(made, visible=visible)
        return visible


def button(label: str, css: str, kind: str = "default") -> pn.widgets.Button:
    """A button found by ``css`` (its label readable on Panel's colours: ``READABLE_BUTTONS``)."""
    return pn.widgets.Button(
        label=label, color=kind, css_classes=[css], width=130, stylesheets=[READABLE_BUTTONS]
    )


def html_box(css_class: str, stylesheet: str, **kwargs) -> pn.pane.HTML:
    """A full-width HTML pane found by ``css_class``, with a page's stylesheet and ``TABLE_CSS``.

    The stylesheets go into the pane's own shadow root (a page's ``raw_css`` does not reach
    inside it).
    """
    kwargs.setdefault("sizing_mode", "stretch_width")
    return pn.pane.HTML(css_classes=[css_class], stylesheets=[stylesheet, TABLE_CSS], **kwargs)


def after_load(*objects, **params) -> pn.Column:
    """A column that holds ``objects`` once its page has loaded in a browser (at once elsewhere).

    Drawing the plots is most of building a page (HoloViews renders them, Bokeh serializes
    them: 0.3-0.9 s of the server's one loop for /odds, /damage, /character, /lab). A plain
    GET that never opens the page (a crawler, a script looping on it) pays only for the rest,
    and other people's pages stay quick (issue 21, "Nothing blocks the event loop";
    ``benchmarks/bench_loads.py``). The objects can be updated before they show (a pane's
    ``.object``): they draw their newest state. In a notebook they show at once.

    Parameters
    ----------
    *objects
        What the column holds once loaded.
    **params
        The column's parameters; a ``min_height`` keeps the page from jumping.
    """
    box = pn.Column(**params)

    def fill() -> None:
        box[:] = list(objects)

    pn.state.onload(fill)
    return box


def flex_box(*objects, flex: str = "1 1 300px", **kwargs) -> pn.Column:
    """A flex item: its basis wide (one per row on a phone), growing to share a wide row."""
    return pn.Column(
        *objects, sizing_mode="stretch_width", styles={"flex": flex, "min-width": "0"}, **kwargs
    )


class TextMultiChoice(pn.widgets.MultiChoice):
    """A ``MultiChoice`` whose option labels show as text, never as HTML (issue 33).

    Bokeh draws a ``MultiChoice`` with Choices.js, which puts each label (in the list and on
    each chosen item) into the page as HTML: a character named ``<img src=x onerror=...>``
    would run its script on the GM page. Here each label is HTML-escaped before it is sent, so
    Choices.js shows its exact characters; the values (what ``value`` holds) are unchanged, and
    what the browser sends back is mapped to them as before.
    """

    @property
    def labels(self) -> list[str]:
        """The option labels, HTML-escaped (what Choices.js is given)."""
        return [escape(label) for label in super().labels]


class PlainButtons(pn.widgets.RadioButtonGroup):
    """A button group whose plain-word options follow a parameter's changing choices.

    Its labels come only from Python: a ``labels`` the browser sends back is dropped. In a
    notebook BokehJS echoes a relabelling over the comm, and Panel would take the echoed
    labels for the options themselves (the code names lost), set the value to None, and
    loop on a Selector that refuses None until RecursionError (issue 22).
    """

    def _process_property_change(self, msg: dict) -> dict:
        return super()._process_property_change({k: v for k, v in msg.items() if k != "labels"})
