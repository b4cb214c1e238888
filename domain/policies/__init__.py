"""Resource policies: per-scope limits and settings, resolved user → group → org → global."""
