"""`bakumat view`: the web view of a mat (docs/formats/web-api-v1.md, plus the
laptop's extensions in docs/formats/web-view-v1.md).

    state.Tracker      referee + the firmware's LED feedback -> web API states
    board_json(board)  the board description the page draws from
    timeline           event/raw logs -> scrubbable steps (+ sensor traces)
    server             the localhost HTTP server serving firmware/web/
"""
