package io.sluice.perf.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FieldParserTest {
    @Test
    void int64Extremes() {
        assertThat(FieldParser.parseInt64("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(FieldParser.parseInt64("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(FieldParser.parseInt64("+007")).isEqualTo(7);
        assertThatThrownBy(() -> FieldParser.parseInt64("9223372036854775808")).hasMessageContaining("out of range");
    }

    @Test
    void int32Extremes() {
        assertThat(FieldParser.parseInt32("2147483647")).isEqualTo(Integer.MAX_VALUE);
        assertThat(FieldParser.parseInt32("-2147483648")).isEqualTo(Integer.MIN_VALUE);
        assertThatThrownBy(() -> FieldParser.parseInt32("2147483648")).hasMessageContaining("out of range for int32");
        assertThatThrownBy(() -> FieldParser.parseInt32("99999999999999999999")).hasMessageContaining("out of range");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "+", "1.0", "1e3", " 1", "1 ", "0x10", "1_000", "\u0661"})
    void notIntegers(final String text) {
        assertThatThrownBy(() -> FieldParser.parseInt64(text)).hasMessageContaining("is not an int64");
        assertThatThrownBy(() -> FieldParser.parseInt32(text)).hasMessageContaining("is not an int32");
    }

    @ParameterizedTest
    @CsvSource({"901.00,15,2,90100", "901,15,2,90100", "901.5,15,2,90150", "-0.01,15,2,-1", ".5,15,2,50",
            "5.,15,2,500", "+12.34,15,2,1234", "-0,15,2,0", "0000000000000001.25,15,2,125",
            "9999999999999.99,15,2,999999999999999", "-9999999999999.99,15,2,-999999999999999",
            "999999999999999999,18,0,999999999999999999", "0.999999999999999999,18,18,999999999999999999",
            "-0.5,1,1,-5"})
    void decimals(final String text, final int precision, final int scale, final long expected) {
        assertThat(FieldParser.parseDecimal(text, precision, scale)).isEqualTo(expected);
    }

    @Test
    void decimalDigitLimits() {
        assertThatThrownBy(() -> FieldParser.parseDecimal("1.234", 15, 2))
                .hasMessageContaining("has 3 fractional digits but decimal(15,2) allows 2");
        assertThatThrownBy(() -> FieldParser.parseDecimal("10000000000000", 15, 2))
                .hasMessageContaining("has 14 integer digits but decimal(15,2) allows 13");
        assertThatThrownBy(() -> FieldParser.parseDecimal("1.0", 5, 0)).hasMessageContaining("1 fractional digits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "-", "-.", "1.2.3", "1e5", "1,000.00", " 1.00", "abc", "1.-2"})
    void notDecimals(final String text) {
        assertThatThrownBy(() -> FieldParser.parseDecimal(text, 15, 2)).hasMessageContaining("is not a decimal(15,2)");
    }

    /** The exact value of the text, computed independently with BigDecimal. */
    @Property
    void decimalsAreExact(@ForAll @LongRange(min = -999_999_999_999_999L, max = 999_999_999_999_999L) final long unscaled,
                          @ForAll @IntRange(min = 0, max = 2) final int shownFractionDigits) {
        final BigDecimal value = BigDecimal.valueOf(unscaled, 2);
        final BigDecimal shown = value.setScale(shownFractionDigits, java.math.RoundingMode.DOWN);
        final String text = shown.toPlainString();
        assertThat(FieldParser.parseDecimal(text, 15, 2)).isEqualTo(shown.movePointRight(2).longValueExact());
    }

    @Test
    void dates() {
        assertThat(FieldParser.parseDate("1970-01-01")).isZero();
        assertThat(FieldParser.parseDate("1998-12-01")).isEqualTo(LocalDate.of(1998, 12, 1).toEpochDay());
        assertThat(FieldParser.parseDate("0001-01-01")).isEqualTo(LocalDate.of(1, 1, 1).toEpochDay());
        assertThat(FieldParser.parseDate("9999-12-31")).isEqualTo(LocalDate.of(9999, 12, 31).toEpochDay());
        assertThat(FieldParser.parseDate("2024-02-29")).isEqualTo(LocalDate.of(2024, 2, 29).toEpochDay());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1998-1-01", "98-12-01", "1998/12/01", "1998-12-01T00:00", "", "abcd-ef-gh"})
    void notDates(final String text) {
        assertThatThrownBy(() -> FieldParser.parseDate(text)).hasMessageContaining("is not a date: expected yyyy-mm-dd");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2023-02-29", "1998-13-01", "1998-00-10", "1998-04-31"})
    void notCalendarDates(final String text) {
        assertThatThrownBy(() -> FieldParser.parseDate(text)).hasMessageContaining("is not a calendar date");
    }
}
