import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _repository_root(monkeypatch):
    # The content is the repository's, whatever folder pytest runs from.
    monkeypatch.setenv("RIFFLE_ROOT", str(ROOT))
