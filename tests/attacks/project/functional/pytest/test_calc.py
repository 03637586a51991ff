from calc import add, halve


def test_adds():
    assert add(2, 3) == 5


def test_halves():
    assert halve(9) == 4.5, "halve(9) should be 4.5"
