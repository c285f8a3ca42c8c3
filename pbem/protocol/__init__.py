"""The protocol layer: bytes, JSON, keys, signatures, sealing and dice.

It knows nothing of hexes.  The rules engine hands it opaque JSON (orders,
public events, per-side views, the full state) and gets back signed, sealed,
armoured text files; verification needs nothing but those files.

One module per job:

``canonical``  canonical JSON, SHA-256 digests, strict base64
``armour``     the ``-----BEGIN PBEM …-----`` text wrapping that survives mail
``files``      reading files with clear errors, writing new files atomically
``fields``     checking the shape of parsed JSON with messages naming the field
``keys``       identities: Ed25519 signing key + X25519 sealing key, key files
``signing``    signed envelopes with domain separation
``sealing``    HPKE (RFC 9180) sealing with size-bucket padding
``dice``       committed seeds and the deterministic, unbiased d6 stream
``fog_options`` the game options a genesis may name to hide units (their names only)
``derive``     a player's salt and orders nonce, derived from his own key
``parts``      sealed bytes carried raw after a file's JSON, named by length and digest
``turnfile``   the referee's signed turn file
``ordersfile`` a player's signed orders, sealed to the referee
``chain``      verification of a whole sequence of turn files
``twoplayer``  turn files of a game without a referee, signed by the player who adjudicates
``modes``      what each game mode holds the files to (who adjudicates, what the chain checks)

Every format is described precisely in its module's docstring so that another
implementation can read, write and verify the same files.
"""
