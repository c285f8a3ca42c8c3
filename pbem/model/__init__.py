"""Pydantic models of pbem's data: maps, units, positions, orders, scenarios.

These models are the single source of the JSON Schemas committed in
``schemas/`` (``pbem schema write`` regenerates them; a test fails when they
are stale).  The rules engine takes them as its inputs; it never parses files.
"""
