package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.zonemap.KeyQuantiles;
import org.junit.jupiter.api.Test;

class RangeBoundariesTest {
    private static ZoneMap block(final long min, final long max, final int rows) {
        return new ZoneMap(min, max, 0, rows);
    }

    private static RangeBoundaries plan(final TypeKind kind, final String topology, final ZoneMap... zms) {
        return RangeBoundaries.plan(KeyQuantiles.of(kind, zms), Topology.parse(topology));
    }

    @Test
    void matrixOneExampleSplitsTwoBucketsNearTwentyThousand() {
        // Seed 003's example: four equal blocks (1,10000) (10000,20000) (20000,30000) (30000,100000).
        final RangeBoundaries b = plan(TypeKind.INT64, "2x1", block(1, 10_000, 8192), block(10_000, 20_000, 8192),
                block(20_000, 30_000, 8192), block(30_000, 100_000, 8192));
        assertThat(b.method()).isEqualTo(BoundaryMethod.RANGE_QUANTILE);
        assertThat(b.cutPoints()).hasSize(1);
        assertThat(b.cutPoints()[0]).isBetween(19_900L, 20_100L);
        assertThat(b.cnCutPoints()).containsExactly(b.cutPoints()[0]);
    }

    @Test
    void aUniformKeyGetsEqualWidthRanges() {
        // Keys 1..600000 in 60 even blocks: 6 buckets of 100000 keys each, as seed 003 splits l_orderkey.
        final ZoneMap[] zms = new ZoneMap[60];
        for (int i = 0; i < zms.length; i++) {
            zms[i] = block(1 + 10_000L * i, 10_000L * (i + 1), 10_000);
        }
        final RangeBoundaries b = RangeBoundaries.plan(KeyQuantiles.of(TypeKind.INT64, zms), Topology.parse("3x2"));
        assertThat(b.method()).isEqualTo(BoundaryMethod.RANGE_UNIFORM);
        assertThat(b.hashReason()).isEqualTo(HashReason.NONE);
        assertThat(b.cutPoints()).containsExactly(100_001, 200_001, 300_001, 400_001, 500_001);
        assertThat(b.cnCutPoints()).containsExactly(200_001, 400_001);
        assertThat(b.coreCutPoints(1)).containsExactly(300_001);
        assertThat(b.bucketFunction()).isInstanceOf(RangeBucketFunction.class);
        assertThat(b.explanation()).contains("uniformity");
        final double[] rows = b.estimatedRows(KeyQuantiles.of(TypeKind.INT64, zms));
        for (final double r : rows) {
            assertThat(r).isCloseTo(100_000, within(1e-6));
        }
    }

    @Test
    void moreBucketsThanDefaultQuantilesStillGetDistinctCuts() {
        // A skewed key split 2000 ways: more cut points than the 1023 default quantiles hold.
        final ZoneMap[] zms = new ZoneMap[200];
        long lo = 0;
        for (int i = 0; i < zms.length; i++) {
            final long width = 1000L + 1000L * i * i;
            zms[i] = block(lo, lo + width - 1, 8192);
            lo += width;
        }
        final RangeBoundaries b = plan(TypeKind.INT64, "100x20", zms);
        assertThat(b.method()).isEqualTo(BoundaryMethod.RANGE_QUANTILE);
        final long[] cuts = b.cutPoints();
        assertThat(cuts).hasSize(1999);
        for (int i = 1; i < cuts.length; i++) {
            assertThat(cuts[i]).isGreaterThan(cuts[i - 1]);
        }
        final double[] rows = b.estimatedRows(KeyQuantiles.of(TypeKind.INT64, zms));
        final double mean = 200 * 8192.0 / 2000;
        for (final double r : rows) {
            assertThat(r).isCloseTo(mean, within(mean * 0.05));
        }
    }

    @Test
    void stringKeysSplitInUnsignedOrder() {
        final ZoneMap[] zms = {new ZoneMap(StringKey.of("AAAA"), StringKey.of("MMMM"), 0, 8192),
            new ZoneMap(StringKey.of("MMMM"), StringKey.of("\u00e9\u00e9"), 0, 8192)};
        final RangeBoundaries b = plan(TypeKind.STRING, "2x2", zms);
        assertThat(b.isRange()).isTrue();
        final long[] cuts = b.cutPoints();
        for (int i = 1; i < cuts.length; i++) {
            assertThat(Long.compareUnsigned(cuts[i - 1], cuts[i])).isNegative();
        }
        final RangeBucketFunction f = (RangeBucketFunction) b.bucketFunction();
        assertThat(f.bucket(StringKey.of("AAAA"))).isZero();
        assertThat(f.bucket(StringKey.of("\u00e9\u00e9"))).isEqualTo(3);
    }

    @Test
    void hashWhenNoValues() {
        final RangeBoundaries empty = plan(TypeKind.INT64, "3x2");
        assertThat(empty.method()).isEqualTo(BoundaryMethod.HASH);
        assertThat(empty.hashReason()).isEqualTo(HashReason.NO_STATS);
        assertThat(empty.cutPoints()).isEmpty();
        assertThat(empty.cnCutPoints()).isEmpty();
        assertThat(empty.bucketFunction()).isInstanceOf(HashBucketFunction.class);
        assertThat(empty.bucketFunction().bucketCount()).isEqualTo(6);
        final RangeBoundaries allNull = plan(TypeKind.INT64, "3x2", new ZoneMap(0, 0, 100, 100));
        assertThat(allNull.hashReason()).isEqualTo(HashReason.NO_STATS);
        assertThat(allNull.explanation()).contains("no non-null key in 1 blocks");
    }

    @Test
    void hashWhenEveryKeyIsTheSame() {
        final RangeBoundaries b = plan(TypeKind.INT64, "3x2", block(42, 42, 8192), block(42, 42, 8192));
        assertThat(b.hashReason()).isEqualTo(HashReason.SINGLE_VALUE);
        assertThat(b.explanation()).contains("every key is 42");
    }

    @Test
    void hashWhenTooFewDistinctKeys() {
        // Keys 1..10 cannot fill 6 buckets with 8 distinct keys each.
        final RangeBoundaries b = plan(TypeKind.INT32, "3x2", block(1, 10, 8192), block(1, 10, 8192));
        assertThat(b.hashReason()).isEqualTo(HashReason.TOO_FEW_DISTINCT);
        assertThat(b.explanation()).contains("about 10 distinct keys for 6 buckets");
        // Asking for one distinct key per bucket, ten keys are enough for six buckets.
        final RangeBoundaries relaxed = RangeBoundaries.plan(KeyQuantiles.of(TypeKind.INT32,
                new ZoneMap[] {block(1, 10, 8192)}), Topology.parse("3x2"), BoundaryConfig.DEFAULT.withMinDistinctPerBucket(1));
        assertThat(relaxed.isRange()).isTrue();
    }

    @Test
    void hashWhenAHeavyKeyMakesCutPointsCollide() {
        // Key 500 holds 90% of the rows: several equi-depth cuts land on it.
        final RangeBoundaries b = plan(TypeKind.INT64, "3x2", block(0, 999_999, 10_000), block(500, 500, 90_000));
        assertThat(b.method()).isEqualTo(BoundaryMethod.HASH);
        assertThat(b.hashReason()).isEqualTo(HashReason.DUPLICATE_CUTS);
        assertThat(b.explanation()).containsPattern("are both 50[01]");
    }

    @Test
    void cutPointsGivenByACallerAreValidated() {
        final Topology t = Topology.parse("2x2");
        final RangeBoundaries given = RangeBoundaries.of(TypeKind.INT64, new long[] {10, 20, 30}, t);
        assertThat(given.method()).isEqualTo(BoundaryMethod.RANGE_GIVEN);
        assertThat(given.cnCutPoints()).containsExactly(20);
        assertThatThrownBy(() -> RangeBoundaries.of(TypeKind.INT64, new long[] {10, 30, 20}, t))
                .hasMessageContaining("cut 1 = 30 is above cut 2 = 20");
        assertThatThrownBy(() -> RangeBoundaries.of(TypeKind.INT64, new long[] {10, 20, 20}, t))
                .hasMessageContaining("cut 1 = 20 equals cut 2 = 20");
        assertThatThrownBy(() -> RangeBoundaries.of(TypeKind.INT64, new long[] {10, 20}, t))
                .hasMessageContaining("2 cut points given for topology 2x2").hasMessageContaining("exactly 3");
        // -1 is the largest string prefix key but the smallest int64 here.
        assertThat(RangeBoundaries.of(TypeKind.STRING, new long[] {1, 2, -1}, t).isRange()).isTrue();
        assertThatThrownBy(() -> RangeBoundaries.of(TypeKind.INT64, new long[] {1, 2, -1}, t))
                .hasMessageContaining("cut 1 = 2 is above cut 2 = -1");
    }

    @Test
    void badBucketCountsAndConfigsAreRejected() {
        assertThatThrownBy(() -> Topology.parse("0x2")).hasMessageContaining("CN count 0");
        assertThatThrownBy(() -> Topology.parse("1024x1024")).hasMessageContaining("65536");
        assertThatThrownBy(() -> new BoundaryConfig(1.5, 8, 10)).hasMessageContaining("uniformity threshold 1.5");
        assertThatThrownBy(() -> new BoundaryConfig(0.8, 0, 10)).hasMessageContaining("distinct keys per bucket 0");
        assertThatThrownBy(() -> new BoundaryConfig(0.8, 8, 0)).hasMessageContaining("swept blocks 0");
        assertThatThrownBy(() -> RangeBoundaries.plan(null, Topology.parse("3x2"))).hasMessageContaining("stats=null");
        final RangeBoundaries b = plan(TypeKind.INT64, "3x2", block(0, 1000, 100));
        assertThatThrownBy(() -> b.coreCutPoints(3)).hasMessageContaining("CN 3 is not in topology 3x2");
        assertThatThrownBy(() -> b.estimatedRows(KeyQuantiles.of(TypeKind.DATE, new ZoneMap[0])))
                .hasMessageContaining("DATE");
        // The quantile module and the topology agree on the most buckets a shuffle may have.
        assertThat(KeyQuantiles.MAX_CUT_POINTS).isEqualTo(Topology.MAX_BUCKETS - 1);
    }

    @Test
    void estimatedRowsPutNullsInTheNullBucket() {
        final ZoneMap[] zms = {new ZoneMap(0, 999, 100, 1100), new ZoneMap(1000, 1999, 0, 1000)};
        final KeyQuantiles stats = KeyQuantiles.of(TypeKind.INT64, zms);
        final RangeBoundaries b = RangeBoundaries.of(TypeKind.INT64, new long[] {500, 1000, 1500}, Topology.parse("4x1"));
        assertThat(b.estimatedRows(stats)).containsExactly(new double[] {600, 500, 500, 500}, within(1e-6));
        final RangeBoundaries hash = plan(TypeKind.INT64, "4x1");
        assertThat(hash.estimatedRows(stats)).containsExactly(new double[] {600, 500, 500, 500}, within(1e-6));
    }
}
