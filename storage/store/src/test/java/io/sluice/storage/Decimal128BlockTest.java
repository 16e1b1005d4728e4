package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnType;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class Decimal128BlockTest {
    private static final ColumnType WIDE = ColumnType.decimal(38, 2);

    /** Random 128-bit values, some inside the long range, some far outside, some NULL (null entries). */
    private static List<BigInteger> values(final int n, final long seed) {
        final Random random = new Random(seed);
        final List<BigInteger> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % 9 == 4) {
                values.add(null);
            } else if (i % 3 == 0) {
                values.add(BigInteger.valueOf(random.nextLong()));
            } else {
                values.add(new BigInteger(120, random).subtract(BigInteger.ONE.shiftLeft(119)));
            }
        }
        return values;
    }

    private static Block build(final List<BigInteger> values) {
        final ColumnBuilder builder = new ColumnBuilder(WIDE);
        for (final BigInteger v : values) {
            if (v == null) {
                builder.appendNull();
            } else {
                builder.appendDecimal128(v.shiftRight(64).longValueExact(), v.longValue());
            }
        }
        return Block.of(builder.build(0, values.size()));
    }

    @Test
    void decimalTypesBeyondEighteenDigitsAreOneHundredTwentyEightBitKinds() {
        assertThat(WIDE.kind()).isEqualTo(TypeKind.DECIMAL128);
        assertThat(ColumnType.parse("decimal(38,6)")).isEqualTo(ColumnType.decimal(38, 6));
        assertThat(ColumnType.decimal(18, 2).kind()).isEqualTo(TypeKind.DECIMAL);
        assertThat(WIDE.toString()).isEqualTo("decimal(38,2)");
    }

    @Test
    void aWideColumnWithNullsSurvivesTheBlockLayout() {
        final List<BigInteger> values = values(3000, 7);
        final Block block = build(values);
        final BlockEncoder encoder = new BlockEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoder.prepare(block)]);
        encoder.writeTo(buffer, 0);
        final BlockDecoder decoder = new BlockDecoder().wrap(buffer, 0, buffer.capacity(), "test", 0);
        assertThat(decoder.kind(0)).isEqualTo(TypeKind.DECIMAL128);
        final Block decoded = decoder.decode(Schema.parse("s:decimal(38,2)"), null);
        final Decimal128Vector v = (Decimal128Vector) decoded.column(0);
        for (int r = 0; r < values.size(); r++) {
            if (values.get(r) == null) {
                assertThat(v.isNull(r)).as("row %d", r).isTrue();
            } else {
                assertThat(v.isNull(r)).as("row %d", r).isFalse();
                assertThat(v.get(r)).as("row %d", r).isEqualTo(new BigDecimal(values.get(r), 2));
            }
        }
    }

    @Test
    void theZoneMapOfWideValuesSaturatesAndIsNeverNarrowerThanTheValues() {
        final List<BigInteger> values = values(500, 11);
        final ZoneMap zoneMap = ZoneMap.of(build(values).column(0));
        final BigInteger min = values.stream().filter(v -> v != null).min(BigInteger::compareTo).orElseThrow();
        final BigInteger max = values.stream().filter(v -> v != null).max(BigInteger::compareTo).orElseThrow();
        assertThat(BigInteger.valueOf(zoneMap.min())).isLessThanOrEqualTo(min.max(BigInteger.valueOf(Long.MIN_VALUE)));
        assertThat(BigInteger.valueOf(zoneMap.max())).isGreaterThanOrEqualTo(max.min(BigInteger.valueOf(Long.MAX_VALUE)));
        assertThat(zoneMap.nullCount()).isEqualTo((int) values.stream().filter(v -> v == null).count());
    }

    @Test
    void rowsCompareAsSignedOneHundredTwentyEightBitIntegers() {
        final List<BigInteger> values = values(200, 3);
        final ColumnBuilder builder = new ColumnBuilder(WIDE);
        final List<BigInteger> present = values.stream().filter(v -> v != null).toList();
        for (final BigInteger v : present) {
            builder.appendDecimal128(v.shiftRight(64).longValueExact(), v.longValue());
        }
        for (int a = 0; a < present.size(); a += 7) {
            for (int b = 0; b < present.size(); b += 5) {
                assertThat(Integer.signum(builder.compareRows(a, b)))
                        .isEqualTo(present.get(a).compareTo(present.get(b)));
            }
        }
    }
}
