"""The join-code box of the players' page: a numeric keypad on phones, Enter submits (issue 20).

Panel's ``TextInput`` cannot carry ``inputmode="numeric"``: Bokeh's ``html_attributes`` lands on
the widget's outer element, not on its ``<input>``, and a stylesheet cannot set an attribute.
So this is a small ``JSComponent`` of one labelled ``<input>``. ``join_code_typed`` reads what
was typed ("487 915", "487-915") as the code.
"""

from __future__ import annotations

import re

import param
from panel.custom import JSComponent

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_.]+")


def join_code_typed(text: object) -> str:
    """The join code in ``text``, without the spaces and dashes a person types or reads out.

    "487 915", "487-915" and " 487915 " are all "487915"; anything that is not text is "".
    """
    if not isinstance(text, str):
        return ""
    return _SEPARATORS.sub("", text)


class CodeInput(JSComponent):
    """A labelled text box with a numeric keypad on phones; Enter calls ``on_enter``.

    ``value`` follows every key pressed (as ``TextInput.value_input`` does).
    """

    value = param.String(default="", doc="What is typed in the box (kept as typed).")
    label = param.String(default="Join code", doc="The label above the box.")
    placeholder = param.String(default="", doc="Grey text in the empty box.")
    entered = param.Integer(default=0, doc="How many times Enter was pressed in the box.")

    _esm = """
    export function render({ model, el }) {
      const label = document.createElement("label")
      label.textContent = model.label
      const input = document.createElement("input")
      input.type = "text"
      input.inputMode = "numeric"
      input.autocomplete = "one-time-code"
      input.enterKeyHint = "go"
      input.placeholder = model.placeholder
      input.value = model.value
      label.append(input)
      input.addEventListener("input", () => { model.value = input.value })
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          model.value = input.value
          model.entered = model.entered + 1
        }
      })
      model.on("value", () => { if (input.value !== model.value) input.value = model.value })
      el.append(label)
    }
    """

    _stylesheets = [
        """
        label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; }
        input {
          font: inherit; font-size: 16px; padding: 6px 8px; border-radius: 4px;
          border: 1px solid var(--panel-border-color, #ccc); background: inherit; color: inherit;
          box-sizing: border-box; width: 100%; letter-spacing: 0.1em;
        }
        """
    ]

    def __init__(self, on_enter=None, **params):
        super().__init__(**params)
        if on_enter is not None:
            self.param.watch(lambda _e: on_enter(), "entered")
