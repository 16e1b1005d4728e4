package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import org.junit.jupiter.api.Test;

class KeyQuantilesTest {
    private static ZoneMap block(final long min, final long max, final int rows) {
        return new ZoneMap(min, max, 0, rows);
    }

    @Test
    void keyWithRowsBelowIsTheLastKeyThatKeepsTheRowsBelowWithinTheBound() {
        // Keys 0..99 with a row each, then keys 1000..1099 with two rows each.
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(0, 99, 100), block(1000, 1099, 200)});
        assertThat(q.keyWithRowsBelow(10.5)).isEqualTo(10);
        assertThat(q.rowsBelow(10)).isLessThanOrEqualTo(10.5);
        assertThat(q.rowsBelow(11)).isGreaterThan(10.5);
        // Past the first block's rows the gap holds none: the bound reaches up to the next block's first key.
        assertThat(q.keyWithRowsBelow(100)).isEqualTo(1000);
        assertThat(q.keyWithRowsBelow(103)).isEqualTo(1001);
        assertThat(q.keyWithRowsBelow(300)).isEqualTo(1100);
        assertThatThrownBy(() -> q.keyWithRowsBelow(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1.0 rows below a key");
    }

    @Test
    void oneUniformBlockIsSplitEvenly() {
        // 10000 rows over keys 0..9999: one row per key, so a quarter of the rows lies below 2500.
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(0, 9999, 10_000)});
        assertThat(q.cutPoints(3)).containsExactly(2500, 5000, 7500);
        assertThat(q.rowsBelow(0)).isEqualTo(0);
        assertThat(q.rowsBelow(4000)).isCloseTo(4000, within(1e-6));
        assertThat(q.rowsBelow(20_000)).isCloseTo(10_000, within(1e-6));
        assertThat(q.uniformity()).isCloseTo(1, within(1e-9));
        assertThat(q.overlap()).isZero();
        assertThat(q.min()).isEqualTo(0);
        assertThat(q.max()).isEqualTo(9999);
        assertThat(q.distinctEstimate()).isCloseTo(10_000, within(1e-6));
    }

    @Test
    void matrixOneExampleSplitsNearTwentyThousand() {
        // Seed 003: equal blocks over (1,10000) (10000,20000) (20000,30000) (30000,100000). Half the
        // rows lie in the first two blocks, so the median is about 20000, not the midpoint 50000.
        final ZoneMap[] zms = {block(1, 10_000, 8192), block(10_000, 20_000, 8192),
            block(20_000, 30_000, 8192), block(30_000, 100_000, 8192)};
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, zms);
        assertThat(q.cutPoints(1)[0]).isBetween(19_990L, 20_010L);
        // The last block is 7x wider than the others at the same row count: far from uniform.
        assertThat(q.uniformity()).isLessThan(0.5);
    }

    @Test
    void theDefaultCutPointsAreTheThousandTwentyThreeQuantiles() {
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(0, 1_048_575, 1 << 20)});
        final long[] cuts = q.cutPoints();
        assertThat(cuts).hasSize(1023);
        for (int i = 0; i < cuts.length; i++) {
            assertThat(cuts[i]).isEqualTo((i + 1) * 1024L);
        }
    }

    @Test
    void aPointMassRepeatsItsCutPoint() {
        // 90% of the rows have key 7: every cut point falling inside that mass is 7 or 8.
        final ZoneMap[] zms = {block(0, 99, 100), block(7, 7, 900)};
        final long[] cuts = KeyQuantiles.of(TypeKind.INT64, zms).cutPoints(9);
        int atSeven = 0;
        for (final long c : cuts) {
            if (c == 7 || c == 8) {
                atSeven++;
            }
        }
        assertThat(atSeven).isGreaterThanOrEqualTo(8);
        assertThat(KeyQuantiles.of(TypeKind.INT64, zms).uniformity()).isLessThan(0.2);
    }

    @Test
    void nullsAreCountedApart() {
        final ZoneMap[] zms = {new ZoneMap(0, 99, 50, 150), new ZoneMap(0, 0, 20, 20)};
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT32, zms);
        assertThat(q.rowCount()).isEqualTo(170);
        assertThat(q.nullCount()).isEqualTo(70);
        assertThat(q.nonNullCount()).isEqualTo(100);
        assertThat(q.cutPoints(1)).containsExactly(50);
        assertThat(q.rowsBelow(1000)).isCloseTo(100, within(1e-9));
    }

    @Test
    void allNullOrNoBlocksHasNoCutPoints() {
        for (final ZoneMap[] zms : new ZoneMap[][] {{}, {new ZoneMap(0, 0, 10, 10)}}) {
            final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, zms);
            assertThat(q.hasValues()).isFalse();
            assertThat(q.cutPoints(5)).isEmpty();
            assertThat(q.cutPoints()).isEmpty();
            assertThatThrownBy(q::min).hasMessageContaining("no non-null value");
        }
    }

    @Test
    void overlapIsZeroForDisjointHalfForHalfOverlappingAndOneForIdenticalBlocks() {
        final ZoneMap[] disjoint = {block(0, 99, 100), block(100, 199, 100), block(200, 299, 100)};
        assertThat(KeyQuantiles.of(TypeKind.INT64, disjoint).overlap()).isZero();
        // Each block shares half its range with the other: a row of one lies in the other's range with p = 1/2.
        final ZoneMap[] half = {block(0, 99, 100), block(50, 149, 100)};
        assertThat(KeyQuantiles.of(TypeKind.INT64, half).overlap()).isCloseTo(0.5, within(1e-9));
        final ZoneMap[] same = {block(0, 999, 100), block(0, 999, 300), block(0, 999, 50)};
        assertThat(KeyQuantiles.of(TypeKind.INT64, same).overlap()).isCloseTo(1, within(1e-9));
    }

    @Test
    void uniformityIsOneForEvenBlocksAndLowForACrowdedRange() {
        final ZoneMap[] even = new ZoneMap[100];
        for (int b = 0; b < even.length; b++) {
            even[b] = block(b * 1000L, b * 1000L + 999, 1000);
        }
        assertThat(KeyQuantiles.of(TypeKind.INT64, even).uniformity()).isCloseTo(1, within(1e-9));
        // Half the rows in the first 1% of the range: the densest bin is about 50x the mean.
        final ZoneMap[] crowded = {block(0, 999, 10_000), block(1000, 99_999, 10_000)};
        assertThat(KeyQuantiles.of(TypeKind.INT64, crowded).uniformity()).isBetween(0.015, 0.025);
    }

    @Test
    void stringKeysCompareUnsignedAcrossTheWholeKeySpace() {
        // "é" starts with byte 0xC3: its prefix key is negative as a signed long but above "z".
        final long a = StringKey.of("apple");
        final long z = StringKey.of("zebra");
        final long e = StringKey.of("\u00e9clair");
        assertThat(e).isNegative();
        final ZoneMap[] zms = {new ZoneMap(a, z, 0, 1000), new ZoneMap(z, e, 0, 1000)};
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.STRING, zms);
        assertThat(q.min()).isEqualTo(a);
        assertThat(q.max()).isEqualTo(e);
        final long median = q.cutPoints(1)[0];
        // Half the rows lie below "zebra", the end of the first block (one key either way).
        assertThat(Long.compareUnsigned(median, z + 1)).isNotPositive();
        assertThat(Long.compareUnsigned(median, z - (z - a) / 1000)).isPositive();

        // The widest possible range, all 2^64 prefix keys: the median is the middle key 0x80...0.
        final KeyQuantiles full = KeyQuantiles.of(TypeKind.STRING, new ZoneMap[] {new ZoneMap(0, -1L, 0, 1 << 20)});
        final long mid = full.cutPoints(1)[0];
        assertThat(Math.abs(mid - Long.MIN_VALUE)).isLessThan(1L << 20);
        assertThat(full.uniformity()).isCloseTo(1, within(1e-9));
    }

    @Test
    void extremeSignedKeysDoNotOverflow() {
        final ZoneMap[] zms = {block(Long.MIN_VALUE, Long.MAX_VALUE, 1000), block(Long.MAX_VALUE, Long.MAX_VALUE, 1000)};
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, zms);
        final long[] cuts = q.cutPoints(3);
        // A quarter of all rows is below the first cut: 1000 rows spread over 2^64 keys put it near 0.
        assertThat(cuts[0]).isBetween(-(1L << 50), 1L << 50);
        assertThat(cuts[0]).isLessThan(cuts[1]);
        assertThat(cuts[2]).isGreaterThan(Long.MAX_VALUE - 2);
        assertThat(q.max()).isEqualTo(Long.MAX_VALUE);
        assertThat(q.rowsBelow(Long.MAX_VALUE)).isCloseTo(1000 + 999.0, within(2.0));
    }

    @Test
    void aWideBlocksThinDensitySurvivesANarrowDenseOne() {
        // Density 1e-15 per key plus a point holding a million rows: the thin block's rows must not vanish.
        final ZoneMap[] zms = {block(0, (1L << 60) - 1, 1000), block(1L << 40, 1L << 40, 1_000_000)};
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, zms);
        assertThat(q.rowsBelow(1L << 60)).isCloseTo(1_001_000, within(1e-3));
        assertThat(q.rowsBelow(1L << 59) - q.rowsBelow((1L << 40) + 1)).isCloseTo(500, within(1.0));
    }

    @Test
    void manyBlocksAreSampledDeterministically() {
        final ZoneMap[] zms = new ZoneMap[10_000];
        for (int b = 0; b < zms.length; b++) {
            // Skewed: block widths grow with b, so the key density falls.
            final long lo = (long) b * b;
            zms[b] = block(lo, lo + 2L * b, 8192);
        }
        final KeyQuantiles all = KeyQuantiles.of(TypeKind.INT64, zms);
        final KeyQuantiles sample = KeyQuantiles.of(TypeKind.INT64, zms, 1000);
        final KeyQuantiles again = KeyQuantiles.of(TypeKind.INT64, zms, 1000);
        assertThat(all.sampled()).isFalse();
        assertThat(sample.sampled()).isTrue();
        assertThat(sample.sweptBlocks()).isEqualTo(1000);
        assertThat(sample.rowCount()).isEqualTo(all.rowCount());
        assertThat(sample.cutPoints(9)).containsExactly(again.cutPoints(9));
        final long[] exact = all.cutPoints(9);
        final long[] approx = sample.cutPoints(9);
        final double range = (double) all.max() - all.min();
        for (int i = 0; i < exact.length; i++) {
            assertThat(Math.abs(approx[i] - exact[i]) / range).as("cut %d", i).isLessThan(0.01);
        }
    }

    @Test
    void badInputNamesTheBlockAndTheRule() {
        assertThatThrownBy(() -> KeyQuantiles.of(null, new ZoneMap[0])).hasMessageContaining("TypeKind");
        assertThatThrownBy(() -> KeyQuantiles.of(TypeKind.INT64, null)).hasMessageContaining("no zonemaps");
        assertThatThrownBy(() -> KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(0, 1, 2), null}))
                .hasMessageContaining("block 1").hasMessageContaining("absent");
        assertThatThrownBy(() -> KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(9, 3, 2)}))
                .hasMessageContaining("block 0").hasMessageContaining("min 9 is above max 3");
        assertThatThrownBy(() -> KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {new ZoneMap(0, 1, 5, 3)}))
                .hasMessageContaining("5 nulls in 3 rows");
        // Unsigned for strings: 1 < -1 (0xFF..F), so (1, -1) is a valid string zonemap but not an int64 one.
        assertThat(KeyQuantiles.of(TypeKind.STRING, new ZoneMap[] {block(1, -1, 2)}).hasValues()).isTrue();
        assertThatThrownBy(() -> KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(1, -1, 2)}))
                .hasMessageContaining("signed");
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, new ZoneMap[] {block(0, 100, 10)});
        assertThatThrownBy(() -> q.cutPoints(-1)).hasMessageContaining("-1 cut points");
        assertThatThrownBy(() -> q.cutPoints(65_536)).hasMessageContaining("65536 cut points");
        assertThatThrownBy(() -> KeyQuantiles.of(TypeKind.INT64, new ZoneMap[0], 0)).hasMessageContaining("maxBlocks 0");
    }
}
