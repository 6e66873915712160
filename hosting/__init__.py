"""croupier's room: SSH server, lobby, table clocks, protocol, persistence and bots."""

import warnings

# asyncssh still names cryptography's DSA classes, which newer cryptography releases mark deprecated: ten lines
# of Python warnings on every `croupier host`, `join` and `bots` start, in front of the host's share line and a
# player's prompt (and in the words tests compare). Nothing a host or player can act on: not shown.
warnings.filterwarnings("ignore", message="DSA is deprecated", module="asyncssh")
