"""Operations: the background jobs that must happen on time without a person (their
definitions, periods, run records and the "is this period due" rule)."""
