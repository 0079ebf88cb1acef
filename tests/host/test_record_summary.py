"""`bakumat record`'s closing words on frames missing from the log: whether
they matter (the board's referee saw every frame; only the log misses them)."""
from host_tools.commands.record import gaps_said


def test_a_full_log_says_so():
    assert gaps_said(0, 0) == ": the log is complete"


def test_missing_frames_say_the_game_is_unaffected_but_a_replay_may_differ():
    for lost, board in ((3, 0), (0, 44), (2, None)):
        said = gaps_said(lost, board)
        assert "the game on the board is not affected" in said and "a replay may read" in said, (lost, board)


def test_a_board_that_did_not_count_is_not_called_complete():
    said = gaps_said(0, None)
    assert "complete" not in said and "did not say" in said
