package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizeConverterTest {
    @Test
    void sizesTakeBinaryUnits() {
        assertThat(ByteSizeConverter.parse("1048576")).isEqualTo(1_048_576L);
        assertThat(ByteSizeConverter.parse("512k")).isEqualTo(512L * 1024);
        assertThat(ByteSizeConverter.parse("512m")).isEqualTo(512L * 1024 * 1024);
        assertThat(ByteSizeConverter.parse("4G")).isEqualTo(4L * 1024 * 1024 * 1024);
        assertThat(ByteSizeConverter.parse("2GiB")).isEqualTo(2L * 1024 * 1024 * 1024);
        assertThat(ByteSizeConverter.parse("1t")).isEqualTo(1L << 40);
    }

    @Test
    void anythingElseSaysHowToWriteASize() {
        for (final String bad : new String[] {"", "g", "-1g", "0", "ten", "1.5g", "99999999999t"}) {
            assertThatThrownBy(() -> ByteSizeConverter.parse(bad)).as(bad)
                    .hasMessageContaining("is not a size: write e.g. 512m, 10g or 1048576");
        }
    }
}
