"""Recorded logs and what they say: reading files under the shared limits
(logfile), event logs replayed through the referee (eventreplay), raw
sensor logs (rawlog) replayed through the sensing (rawreplay; rawwhy: why
it decided when it did), sensor diagnostics (diagnose, platefit), the
shareable match report (report) and the mat drawn in a terminal (termmat)."""
