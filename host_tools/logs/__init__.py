"""Recorded logs and what they say: reading files under the shared limits
(logfile), raw sensor logs (rawlog), replaying them through the sensing
(rawreplay, rawwhy: why it decided when it did), sensor diagnostics
(diagnose, platefit), the shareable match report (report) and the mat drawn
in a terminal (termmat)."""
