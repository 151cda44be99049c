"""What the sheet says when it loads a file the rules read otherwise (issue 32 item 11)."""

from __future__ import annotations

import json

from table_helpers import roster

from tb_playground.models.files import dumps
from tb_playground.views.sheet_file import SheetFile


def test_a_files_water_deception_is_said_where_the_sheet_loads():
    # RULES.md (decided): "Deception's home Element: Fire (000 ...); 004's Water is a switch".
    ronan = roster("ronan.json")
    doc = json.loads(dumps(ronan))
    for row in doc["data"]["skills"]:
        if row["name"] == "Deception":
            row["element"] = "Water"
    sheet = SheetFile(lambda: ronan)
    sheet.load_text(json.dumps(doc), "ronan.json")
    message = sheet.message.object
    assert "Deception: the file says Water, but these rules read Deception as Fire" in message
    assert "at a table it rolls Fire" in message
