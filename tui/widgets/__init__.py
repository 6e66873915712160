"""The TUI's widgets (DESIGN.md "tui/ widgets"): each owns its CSS and bindings; data down, messages up."""
