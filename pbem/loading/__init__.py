"""Reading the files a user hands pbem, each checked before it is used.

Data files (:mod:`.datafiles`: scenarios, maps, orders), checked against the
JSON Schemas generated from the models (:mod:`.jsonfile`, :mod:`.schema_files`,
:mod:`.schemas`) and, for a map, problem by problem (:mod:`.mapcheck`); and a
game's own files: where they live and how they are named (:mod:`.folder`), and a
turn file read with its genesis and the scenario it carries (:mod:`.turns`).
"""
