package io.sluice.perf.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The allocation-free cells of a text row read as the JDK writes them: integers as Long.toString,
 * decimals as BigDecimal.toPlainString at their scale, dates as LocalDate.toString, each after its
 * length-encoded length.
 */
class PacketWriterTest {
    /** The one length-encoded string the writer holds. */
    private static String cell(final PacketWriter w) {
        final PacketReader r = new PacketReader(Arrays.copyOf(w.buffer(), w.length()));
        final String s = new String(r.lenencBytes("cell"), StandardCharsets.US_ASCII);
        assertThat(r.remaining()).isZero();
        return s;
    }

    @Property
    void aLongReadsAsLongToString(@ForAll final long v) {
        assertThat(cell(new PacketWriter().lenencLong(v))).isEqualTo(Long.toString(v));
    }

    @Property
    void aDecimalReadsAsBigDecimalToPlainString(@ForAll final long unscaled, @ForAll @IntRange(max = 18) final int scale) {
        assertThat(cell(new PacketWriter().lenencDecimal(unscaled, scale)))
                .isEqualTo(BigDecimal.valueOf(unscaled, scale).toPlainString());
    }

    @Property
    void aDateReadsAsLocalDateToString(@ForAll @IntRange(min = -719528, max = 2932896) final int epochDay) {
        assertThat(cell(new PacketWriter().lenencDate(epochDay))).isEqualTo(LocalDate.ofEpochDay(epochDay).toString());
    }

    @Test
    void smallDecimalsAndDatesAtTheEdges() {
        assertThat(cell(new PacketWriter().lenencDecimal(5, 2))).isEqualTo("0.05");
        assertThat(cell(new PacketWriter().lenencDecimal(-5, 2))).isEqualTo("-0.05");
        assertThat(cell(new PacketWriter().lenencDecimal(0, 2))).isEqualTo("0.00");
        assertThat(cell(new PacketWriter().lenencDecimal(1200, 2))).isEqualTo("12.00");
        assertThat(cell(new PacketWriter().lenencDate(0))).isEqualTo("1970-01-01");
        assertThat(cell(new PacketWriter().lenencDate(-1))).isEqualTo("1969-12-31");
        assertThat(cell(new PacketWriter().lenencDate(11016))).isEqualTo("2000-02-29");
    }
}
