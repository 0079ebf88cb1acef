"""`bakumat demo`: a simulated game refereed by the firmware (demo_game) and
the simulated players who watch the mat (demo_players)."""
