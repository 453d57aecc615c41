"""Socket frames are the same JSON the standard library would write."""
from __future__ import annotations

import json

import pytest

from games import jsontext


@pytest.mark.parametrize("data", [
    {"type": "view", "version": 7, "log": [{"seq": 1, "text": "Ana plays Iceball \u2744"}], "outcome": None},
    {"scores": {0: 3, 1: 5}, "nested": [{2: "two"}]},
    [1.5, True, None, "x"],
])
def test_frames_read_back_as_the_standard_library_writes_them(data):
    assert json.loads(jsontext.dumps(data)) == json.loads(json.dumps(data))


def test_something_json_cannot_write_is_refused():
    with pytest.raises(TypeError):
        jsontext.dumps({"when": object()})
