package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.zonemap.KeyQuantiles;
import org.junit.jupiter.api.Test;

/**
 * Boundaries for a join whose probe's heavy keys are dispatched apart: the build side is balanced where the
 * probe's other keys are uneven over the key space, no bucket gets more of the probe's other rows than the
 * heavy rows leave room for, and no key is split.
 */
class BalancedJoinBoundariesTest {
    private static final Topology THREE_BY_TWO = new Topology(3, 2);
    private static final long WIDTH = 10_000;

    /** Ten disjoint blocks of {@code WIDTH} keys each, block {@code i} holding {@code rows[i]} rows. */
    private static KeyQuantiles blocks(final int... rows) {
        final ZoneMap[] zoneMaps = new ZoneMap[rows.length];
        for (int i = 0; i < rows.length; i++) {
            zoneMaps[i] = new ZoneMap(i * WIDTH, (i + 1) * WIDTH - 1, 0, rows[i]);
        }
        return KeyQuantiles.of(TypeKind.INT64, zoneMaps);
    }

    private static double maxOverMean(final double[] rows) {
        double most = 0;
        double all = 0;
        for (final double r : rows) {
            most = Math.max(most, r);
            all += r;
        }
        return most * rows.length / all;
    }

    /** The probe's other keys three times as dense in two of ten key ranges; a build of one row per key. */
    private static final KeyQuantiles PROBE = blocks(3000, 1000, 1000, 1000, 3000, 1000, 1000, 1000, 1000, 1000);
    private static final KeyQuantiles BUILD = blocks(10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000,
            10_000, 10_000, 10_000);
    private static final double HEAVY_ROWS = 14_000;

    @Test
    void theBuildIsUnevenOnTheProbesQuantilesAndEvenOnBothSidesBoundaries() {
        final RangeBoundaries probeOnly = RangeBoundaries.plan(PROBE, THREE_BY_TWO);
        assertThat(maxOverMean(probeOnly.estimatedRows(BUILD))).isGreaterThan(1.3);
        final RangeBoundaries both = BalancedJoinBoundaries.plan(PROBE, HEAVY_ROWS, BUILD, THREE_BY_TWO);
        assertThat(both.method()).isEqualTo(BoundaryMethod.RANGE_QUANTILE);
        assertThat(maxOverMean(both.estimatedRows(BUILD))).isLessThan(1.01);
    }

    @Test
    void noBucketGetsMoreOfTheProbesOtherRowsThanTheHeavyRowsLeaveRoomFor() {
        final RangeBoundaries both = BalancedJoinBoundaries.plan(PROBE, HEAVY_ROWS, BUILD, THREE_BY_TWO);
        final double[] probe = both.estimatedRows(PROBE);
        final double level = (14_000 + HEAVY_ROWS) / THREE_BY_TWO.bucketCount();
        for (final double rows : probe) {
            assertThat(rows).isLessThanOrEqualTo(level);
        }
        final long[] cuts = both.cutPoints();
        assertThat(cuts).hasSize(THREE_BY_TWO.bucketCount() - 1).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void withFewHeavyRowsTheProbesOtherKeysStayCloseToTheirMean() {
        final double heavy = 600;
        final RangeBoundaries both = BalancedJoinBoundaries.plan(PROBE, heavy, BUILD, THREE_BY_TWO);
        // Room above the other rows' mean: three quarters of a bucket's heavy rows.
        final double room = (14_000 + (1 - BalancedJoinBoundaries.HEAVY_HEADROOM) * heavy) / 14_000;
        assertThat(maxOverMean(both.estimatedRows(PROBE))).isLessThanOrEqualTo(room + 1e-9);
        assertThat(maxOverMean(both.estimatedRows(BUILD)))
                .isLessThan(maxOverMean(RangeBoundaries.plan(PROBE, THREE_BY_TWO).estimatedRows(BUILD)));
    }

    @Test
    void aKeyHoldingMoreThanABucketsRoomIsNeverSplitSoNoBoundariesFit() {
        final ZoneMap[] zoneMaps = {new ZoneMap(0, 99_999, 0, 1000), new ZoneMap(5, 5, 0, 5000)};
        final KeyQuantiles lumpy = KeyQuantiles.of(TypeKind.INT64, zoneMaps);
        assertThat(BalancedJoinBoundaries.plan(lumpy, 0, BUILD, THREE_BY_TWO)).isNull();
    }

    @Test
    void keysOfDifferentKindsGetNoBoundaries() {
        final KeyQuantiles strings = KeyQuantiles.of(TypeKind.STRING, new ZoneMap[] {new ZoneMap(1, 1_000_000, 0, 500)});
        assertThat(BalancedJoinBoundaries.plan(PROBE, HEAVY_ROWS, strings, THREE_BY_TWO)).isNull();
    }

    @Test
    void negativeHeavyRowsAreRefused() {
        assertThatThrownBy(() -> BalancedJoinBoundaries.plan(PROBE, -1, BUILD, THREE_BY_TWO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heavyRows=-1");
    }
}
