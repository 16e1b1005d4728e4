package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import org.junit.jupiter.api.Test;

/**
 * A storage engine that describes its blocks by zonemap arrays alone (no {@code BlockTable}) gets
 * boundaries, a scan assignment and a bucket function back, through the public API only.
 */
class ColocationFromZoneMapsTest {
    @Test
    void aStorageEngineRangeShufflesItsOwnBlocks() {
        // The engine's table: 12 blocks clustered by a 64-bit key, block i holding keys
        // [10000 i, 10000 i + 9999] in 4096 rows, none of them null.
        final ZoneMap[] zoneMaps = new ZoneMap[12];
        for (int i = 0; i < zoneMaps.length; i++) {
            zoneMaps[i] = new ZoneMap(10_000L * i, 10_000L * i + 9_999, 0, 4096); // min, max, nulls, rows
        }

        // Statistics, boundaries and scan assignment for 3 CNs x 2 cores, from the zonemaps alone.
        final ColocationPlan plan = ColocationPlan.of(TypeKind.INT64, zoneMaps, Topology.parse("3x2"));
        final RangeBoundaries boundaries = plan.boundaries();
        assertThat(boundaries.method()).isEqualTo(BoundaryMethod.RANGE_UNIFORM);
        assertThat(boundaries.cutPoints()).containsExactly(20_000, 40_000, 60_000, 80_000, 100_000);
        assertThat(boundaries.cnCutPoints()).containsExactly(40_000, 80_000);

        // CN 1 owns keys [40000, 80000): it scans blocks 4..7, its first core blocks 4 and 5.
        final ScanAssignment scan = plan.assignment();
        assertThat(scan.blocksOfCn(1).toArray()).containsExactly(4, 5, 6, 7);
        assertThat(scan.blocksOfBucket(2).toArray()).containsExactly(4, 5);
        assertThat(scan.expectedCrossCnFraction()).isZero();

        // Another table joined on the same key is scanned on the same boundaries: each of its two
        // blocks goes to the CN holding most of its key range.
        final ZoneMap[] other = {new ZoneMap(0, 59_999, 0, 8192), new ZoneMap(60_000, 119_999, 0, 8192)};
        final ScanAssignment otherScan = plan.assign(other);
        assertThat(otherScan.cnOf(0)).isEqualTo(0);
        assertThat(otherScan.cnOf(1)).isEqualTo(2);

        // Storage is shared, so a straddling block can instead be read by every CN it overlaps, each
        // keeping the rows of its own key range: no row crosses CNs, each block here is read twice.
        final ScanAssignment split = ScanAssignment.of(other, boundaries, StraddlePolicy.SPLIT);
        assertThat(split.blocksOfCn(1).toArray()).containsExactly(0, 1);
        assertThat(split.filteredBlocksOfCn(1).toArray()).containsExactly(0, 1);
        final KeyRange cn1 = split.cnRange(1);
        assertThat(cn1.contains(40_000) && cn1.contains(79_999) && !cn1.contains(80_000)).isTrue();
        assertThat(split.expectedCrossCnFraction()).isZero();
        assertThat(split.extraReadFraction()).isEqualTo(1.0);

        // Route rows: the bucket of each key, and the CN its bucket runs on.
        final BucketFunction buckets = plan.bucketFunction();
        final LongVector keys = LongVector.ofInt64(5, 39_999, 40_000, 119_999);
        final int[] bucketOfRow = new int[4];
        buckets.buckets(new ColumnVector[] {keys}, 4, bucketOfRow);
        assertThat(bucketOfRow).containsExactly(0, 1, 2, 5);
        assertThat(boundaries.topology().cnOf(bucketOfRow[3])).isEqualTo(2);
    }

}
