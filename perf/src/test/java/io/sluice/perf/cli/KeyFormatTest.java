package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnType;
import io.sluice.format.StringKey;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class KeyFormatTest {
    @Test
    void numbersAndDecimalsWithTheirScale() {
        assertThat(KeyFormat.text(ColumnType.INT64, Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
        assertThat(KeyFormat.text(ColumnType.INT32, -5)).isEqualTo("-5");
        assertThat(KeyFormat.text(ColumnType.decimal(15, 2), 90100)).isEqualTo("901.00");
        assertThat(KeyFormat.text(ColumnType.decimal(15, 2), -5)).isEqualTo("-0.05");
        assertThat(KeyFormat.text(ColumnType.decimal(15, 2), 0)).isEqualTo("0.00");
        assertThat(KeyFormat.text(ColumnType.decimal(10, 0), 42)).isEqualTo("42");
        assertThat(KeyFormat.text(ColumnType.decimal(18, 18), 1)).isEqualTo("0.000000000000000001");
    }

    @Test
    void dates() {
        assertThat(KeyFormat.text(ColumnType.DATE, 0)).isEqualTo("1970-01-01");
        assertThat(KeyFormat.text(ColumnType.DATE, LocalDate.of(1998, 12, 1).toEpochDay())).isEqualTo("1998-12-01");
        assertThat(KeyFormat.text(ColumnType.DATE, -1)).isEqualTo("1969-12-31");
    }

    @Test
    void shortStringsAreWholeLongOnesPrefixes() {
        assertThat(KeyFormat.text(ColumnType.STRING, StringKey.of("AIR"))).isEqualTo("AIR");
        assertThat(KeyFormat.isPrefix(ColumnType.STRING, StringKey.of("AIR"))).isFalse();
        assertThat(KeyFormat.display(ColumnType.STRING, StringKey.of("AIR"))).isEqualTo("\"AIR\"");
        final long customer = StringKey.of("Customer#000000001");
        assertThat(KeyFormat.text(ColumnType.STRING, customer)).isEqualTo("Customer");
        assertThat(KeyFormat.isPrefix(ColumnType.STRING, customer)).isTrue();
        assertThat(KeyFormat.display(ColumnType.STRING, customer)).isEqualTo("\"Customer\"+");
        assertThat(KeyFormat.text(ColumnType.STRING, StringKey.of(""))).isEmpty();
        assertThat(KeyFormat.isPrefix(ColumnType.INT64, customer)).isFalse();
    }

    @Test
    void aMultiByteCharacterCutByThePrefixIsDropped() {
        // "abcdefg" is 7 bytes; the 2-byte "é" straddles the 8-byte cut.
        assertThat(KeyFormat.text(ColumnType.STRING, StringKey.of("abcdefg\u00e9xyz"))).isEqualTo("abcdefg");
        // "ab" + 3-byte "€" x 2 = 8 bytes exactly: nothing is cut.
        assertThat(KeyFormat.text(ColumnType.STRING, StringKey.of("ab\u20ac\u20acz"))).isEqualTo("ab\u20ac\u20ac");
        // "abcdef" + 4-byte emoji: 2 of its bytes fit, so it is dropped.
        assertThat(KeyFormat.text(ColumnType.STRING, StringKey.of("abcdef\uD83D\uDE00"))).isEqualTo("abcdef");
    }

    @Test
    void displayEscapesControlCharacters() {
        assertThat(KeyFormat.display(ColumnType.STRING, StringKey.of("a\nb\"c"))).isEqualTo("\"a\\nb\\\"c\"");
    }

    @Test
    void stringCutPointsShowEveryByte() {
        // A cut between two keys is any 8 bytes: "A", a byte that is no UTF-8 on its own, a backslash.
        assertThat(KeyFormat.cutPoint(ColumnType.STRING, 0x41805c0000000000L)).isEqualTo("A\\x80\\x5c");
        assertThat(KeyFormat.cutPointJson(ColumnType.STRING, 0x41805c0000000000L)).isEqualTo("\"A\\\\x80\\\\x5c\"");
        assertThat(KeyFormat.cutPoint(ColumnType.STRING, StringKey.of("Customer#1"))).isEqualTo("Customer");
        assertThat(KeyFormat.cutPoint(ColumnType.STRING, 0)).isEmpty();
        assertThat(KeyFormat.cutPointJson(ColumnType.DATE, 0)).isEqualTo("\"1970-01-01\"");
        assertThat(KeyFormat.cutPointJson(ColumnType.decimal(15, 2), 90100)).isEqualTo("901.00");
    }
}
