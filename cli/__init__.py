"""The `gshare` command line: the composition root above every driver.

It imports the drivers (api/, workers/, the operator and the node agent) to start them; none of
them, nor infra/, imports it back (.ci/check_boundaries.py)."""
