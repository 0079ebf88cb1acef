"""Board entry point: MicroPython runs /main.py after boot.py.
Everything is in app.main() (docs/runtime.md)."""
import app

app.main()
