package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.zonemap.KeyQuantiles;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** CN-level and core-level ranges nest: a key's CN (and core) from the coarse cuts matches its bucket's. */
class NestingPropertyTest {
    @Provide
    Arbitrary<ZoneMap> zoneMaps() {
        return Combinators.combine(Arbitraries.longs().between(-1_000_000, 1_000_000),
                Arbitraries.longs().between(0, 200_000), Arbitraries.integers().between(1, 8192),
                Arbitraries.integers().between(0, 100))
                .as((min, width, rows, nullPercent) -> new ZoneMap(min, min + width, rows * nullPercent / 100 / 2, rows));
    }

    @Property(tries = 200)
    void aKeysCnIsTheCnWhoseRangeHoldsIt(@ForAll @Size(min = 1, max = 40) final List<@net.jqwik.api.From("zoneMaps") ZoneMap> blocks,
                                         @ForAll @IntRange(min = 1, max = 9) final int cns,
                                         @ForAll @IntRange(min = 1, max = 9) final int cores,
                                         @ForAll @Size(min = 1, max = 50) final List<@IntRange(min = -1_100_000, max = 1_300_000) Integer> keys) {
        final Topology topology = new Topology(cns, cores);
        final RangeBoundaries b = RangeBoundaries.plan(KeyQuantiles.of(TypeKind.INT64, blocks.toArray(new ZoneMap[0])),
                topology, BoundaryConfig.DEFAULT.withMinDistinctPerBucket(1));
        if (!b.isRange()) {
            return;
        }
        final long[] cnCuts = b.cnCutPoints();
        final RangeBucketFunction f = (RangeBucketFunction) b.bucketFunction();
        for (final int key : keys) {
            final int bucket = f.bucket(key);
            assertThat(ExactShuffle.rangeBucket(TypeKind.INT64, cnCuts, key)).as("key %d", key)
                    .isEqualTo(topology.cnOf(bucket));
            final int cn = topology.cnOf(bucket);
            assertThat(ExactShuffle.rangeBucket(TypeKind.INT64, b.coreCutPoints(cn), key)).as("key %d", key)
                    .isEqualTo(topology.coreOf(bucket));
        }
    }

    @Property(tries = 200)
    void givenCutPointsNestForStringsToo(@ForAll @Size(min = 1, max = 60) final List<Long> raw,
                                         @ForAll @IntRange(min = 1, max = 6) final int cores,
                                         @ForAll final long key) {
        // Distinct keys sorted unsigned: every string prefix key, including those with the top bit set.
        final long[] cuts = raw.stream().mapToLong(Long::longValue).distinct().toArray();
        final Long[] boxed = new Long[cuts.length];
        for (int i = 0; i < cuts.length; i++) {
            boxed[i] = cuts[i];
        }
        java.util.Arrays.sort(boxed, Long::compareUnsigned);
        final int buckets = cuts.length + 1;
        if (buckets % cores != 0) {
            return;
        }
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = boxed[i];
        }
        final Topology topology = new Topology(buckets / cores, cores);
        final RangeBoundaries b = RangeBoundaries.of(TypeKind.STRING, cuts, topology);
        final int bucket = ((RangeBucketFunction) b.bucketFunction()).bucket(key);
        assertThat(ExactShuffle.rangeBucket(TypeKind.STRING, b.cnCutPoints(), key)).isEqualTo(topology.cnOf(bucket));
        assertThat(ExactShuffle.rangeBucket(TypeKind.STRING, cuts, key)).isEqualTo(bucket);
    }
}
