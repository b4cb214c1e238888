"""Credits: a double-entry ledger in micro-credits, holds, refills and budgets."""
