"""Suite-wide settings. Under CI (CI=true) hypothesis is derandomised, so a failing run always reproduces;
locally it keeps exploring new examples on every run."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
