package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.agrona.SystemUtil;
import org.junit.jupiter.api.Test;

/** Defaults are written in the largest unit that divides them, in a form Agrona's SystemUtil reads back. */
class PropertyValuesTest {
    @Test
    void durationsTakeTheLargestUnitThatDividesThem() {
        assertThat(PropertyValues.duration(TimeUnit.SECONDS.toNanos(3))).isEqualTo("3s");
        assertThat(PropertyValues.duration(TimeUnit.MINUTES.toNanos(5))).isEqualTo("300s");
        assertThat(PropertyValues.duration(TimeUnit.MILLISECONDS.toNanos(200))).isEqualTo("200ms");
        assertThat(PropertyValues.duration(TimeUnit.MICROSECONDS.toNanos(50))).isEqualTo("50us");
        assertThat(PropertyValues.duration(7)).isEqualTo("7ns");
        assertThat(PropertyValues.duration(0)).isEqualTo("0ns");
    }

    @Test
    void sizesTakeTheLargestBinaryUnitThatDividesThem() {
        assertThat(PropertyValues.size(16L << 20)).isEqualTo("16m");
        assertThat(PropertyValues.size(2L << 30)).isEqualTo("2g");
        assertThat(PropertyValues.size(512L << 10)).isEqualTo("512k");
        assertThat(PropertyValues.size(1408)).isEqualTo("1408");
    }

    @Test
    void agronaReadsBackWhatIsWritten() {
        for (final long nanos : new long[] {TimeUnit.SECONDS.toNanos(60), TimeUnit.MILLISECONDS.toNanos(500), 7}) {
            assertThat(SystemUtil.parseDuration("p", PropertyValues.duration(nanos))).isEqualTo(nanos);
        }
        for (final long bytes : new long[] {256L << 20, 4L << 10, 1408}) {
            assertThat(SystemUtil.parseSize("p", PropertyValues.size(bytes))).isEqualTo(bytes);
        }
    }
}
