"""Serial link (docs/formats/serial-protocol-v1.md).

link.codec: frame encoder and incremental decoder (shared with the host
tools, which import this very module). link.server: the board side (reads
the port with a byte budget per tick, queues replies, drains a TX ring with
a byte budget per tick)."""
