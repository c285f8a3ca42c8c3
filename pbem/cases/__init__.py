"""The conformance-case harness: ``pbem case run`` (../shared/spec/cases.md).

A case is a small position with orders, fixed dice and the outcome the rules
demand.  :mod:`.load` reads and checks case files, :mod:`.run` adjudicates
them with the one rules engine, :mod:`.compare` holds outcomes against
expectations.
"""
