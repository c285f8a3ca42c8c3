"""A lone surrogate is refused wherever it stands; the quick test for one (issue 26) agrees with a scan of every character."""

from hypothesis import given, strategies as st

from pbem.loading.jsonfile import _has_surrogate


@given(st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=12))
def test_the_quick_surrogate_test_agrees_with_a_scan(text):
    assert _has_surrogate(text) == any("\ud800" <= ch <= "\udfff" for ch in text)


def test_a_surrogate_among_other_characters_is_found():
    assert _has_surrogate("é\udc80x") and _has_surrogate("\ud800") and not _has_surrogate("é😀") and not _has_surrogate("plain")


_texts = st.text(st.sampled_from(["a", "é", "😀", "\ud800", "\udc80"]), max_size=3)  # ASCII, wider, astral, lone surrogates
_documents = st.recursive(
    st.none() | st.booleans() | st.integers() | _texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_texts, inner, max_size=3),
    max_leaves=12,
)


def _nested(depth: int, leaf):
    document = leaf
    for i in range(depth):
        document = [document] if i % 2 else {"k": document}
    return document


@given(_documents)
def test_the_quick_walk_passes_exactly_the_documents_the_full_walk_finds_nothing_in(document):
    from pbem.loading.jsonfile import _clean, _first_bad

    assert _clean(document, 0) == (_first_bad(document) is None)


def test_the_quick_walk_and_the_full_walk_agree_at_the_depth_limit():
    from pbem.loading.jsonfile import MAX_DEPTH, TOO_DEEP, _clean, _first_bad, _where_bad

    for depth in range(MAX_DEPTH - 2, MAX_DEPTH + 3):
        for leaf in (1, "plain", [], {}, [1], {"k": 1}, "\udc80"):
            document = _nested(depth, leaf)
            assert _clean(document, 0) == (_first_bad(document) is None), (depth, leaf)
    assert _where_bad(_nested(MAX_DEPTH, 1)) is None and _where_bad(_nested(MAX_DEPTH, [])) is None
    assert _where_bad(_nested(MAX_DEPTH, [1]))[1] == TOO_DEEP
    assert "surrogate" in _where_bad(_nested(MAX_DEPTH, "\udc80"))[1]
