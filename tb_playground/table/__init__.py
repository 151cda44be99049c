"""Live table state of a combat: commands, event log, persistence, roles. No Panel import."""
