"""croupier's Textual client."""
