"""One module per ``croupier`` subcommand, each with ``run(arguments) -> int``."""
