"""A lone surrogate is refused wherever it stands; the quick test for one (issue 26) agrees with a scan of every character."""

from hypothesis import given, strategies as st

from pbem.loading.jsonfile import _has_surrogate


@given(st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=12))
def test_the_quick_surrogate_test_agrees_with_a_scan(text):
    assert _has_surrogate(text) == any("\ud800" <= ch <= "\udfff" for ch in text)


def test_a_surrogate_among_other_characters_is_found():
    assert _has_surrogate("é\udc80x") and _has_surrogate("\ud800") and not _has_surrogate("é😀") and not _has_surrogate("plain")
