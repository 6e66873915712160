"""croupier's room: SSH server, lobby, table clocks, protocol, persistence and bots."""
