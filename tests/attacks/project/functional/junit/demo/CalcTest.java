package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertEquals(5, Calc.add(2, 3));
    }

    @Test
    void picksTheLarger() {
        assertEquals(7, Calc.max(7, 3));
        assertEquals(9, Calc.max(-2, 9));
    }
}
