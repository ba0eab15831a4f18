import assay


def test_f1_readme_value() -> None:
    # pred tokens {the, cat, sat}, gold 6 tokens with 3 shared: P=1, R=1/2, F1=2/3
    assert assay.score("f1", "the cat sat", ["the cat sat on the mat"]) == 2 / 3
