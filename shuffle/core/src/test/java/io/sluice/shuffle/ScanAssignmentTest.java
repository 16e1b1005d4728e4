package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class ScanAssignmentTest {
    /** 2 CNs x 2 cores: buckets [.., 100) [100, 200) | [200, 300) [300, ..). */
    private static final RangeBoundaries CUTS =
            RangeBoundaries.of(TypeKind.INT64, new long[] {100, 200, 300}, Topology.parse("2x2"));

    private static ZoneMap block(final long min, final long max, final int rows) {
        return new ZoneMap(min, max, 0, rows);
    }

    @Test
    void blocksGoWhereMostOfTheirRowsBelong() {
        final ZoneMap[] zms = {
            block(0, 49, 500),                 // inside bucket 0
            block(250, 290, 500),              // inside bucket 2 (CN 1)
            block(170, 239, 700),              // 30 keys on CN 0, 40 on CN 1: CN 1, bucket 2
            block(190, 209, 200),              // 10 keys each side: tie, the lower CN 0, bucket 1
            new ZoneMap(0, 0, 300, 300),       // all null: CN 0, bucket 0
            block(320, 320, 80),               // a single key in bucket 3
            new ZoneMap(350, 359, 900, 1000),  // 100 keys on CN 1, but 900 nulls belong to CN 0
        };
        final ScanAssignment a = ScanAssignment.of(zms, CUTS);
        assertThat(a.colocated()).isTrue();
        assertThat(new int[] {a.bucketOf(0), a.bucketOf(1), a.bucketOf(2), a.bucketOf(3), a.bucketOf(4),
            a.bucketOf(5), a.bucketOf(6)}).containsExactly(0, 2, 2, 1, 0, 3, 0);
        assertThat(a.blocksOfCn(0).toArray()).containsExactly(0, 3, 4, 6);
        assertThat(a.blocksOfCn(1).toArray()).containsExactly(1, 2, 5);
        assertThat(a.blocksOfBucket(2).toArray()).containsExactly(1, 2);
        assertThat(a.wholeBlocks().toArray()).containsExactly(0, 1, 4, 5);
        // Crossing: block 2 sends its 30/70 share (300 rows), block 3 half (100), block 6 its 100 keyed rows.
        assertThat(a.expectedCrossCnRows()).isCloseTo(300 + 100 + 100, within(1e-6));
        assertThat(a.rowCount()).isEqualTo(500 + 500 + 700 + 200 + 300 + 80 + 1000);
        assertThat(a.expectedCrossCnFraction()).isCloseTo(500.0 / 3280, within(1e-9));
        assertThat(a.scannedRowsPerCn()).containsExactly(500 + 200 + 300 + 1000, 500 + 700 + 80);
        assertThat(a.policy()).isEqualTo(StraddlePolicy.MAJORITY);
        assertThat(a.filteredBlocksOfCn(0).isEmpty()).isTrue();
        assertThat(a.filteredBlocksOfCn(1).isEmpty()).isTrue();
        assertThat(a.extraReadRows()).isZero();
        assertThat(a.extraReadFraction()).isZero();
    }

    @Test
    void splitReadsAStraddlingBlockOnEveryCnItsRowsBelongTo() {
        final ZoneMap[] zms = {
            block(0, 49, 500),                 // inside bucket 0
            block(250, 290, 500),              // inside bucket 2 (CN 1)
            block(170, 239, 700),              // keys on both CNs: bucket 1 on CN 0, bucket 2 on CN 1
            block(190, 209, 200),              // the same
            new ZoneMap(0, 0, 300, 300),       // all null: CN 0 alone, bucket 0, unfiltered
            block(320, 320, 80),               // a single key in bucket 3
            new ZoneMap(350, 359, 900, 1000),  // keys on CN 1 (bucket 3), nulls on CN 0 (bucket 0): both read it
        };
        final ScanAssignment a = ScanAssignment.of(zms, CUTS, StraddlePolicy.SPLIT);
        assertThat(a.policy()).isEqualTo(StraddlePolicy.SPLIT);
        assertThat(a.blocksOfCn(0).toArray()).containsExactly(0, 2, 3, 4, 6);
        assertThat(a.blocksOfCn(1).toArray()).containsExactly(1, 2, 3, 5, 6);
        assertThat(a.filteredBlocksOfCn(0).toArray()).containsExactly(2, 3, 6);
        assertThat(a.filteredBlocksOfCn(1).toArray()).containsExactly(2, 3, 6);
        assertThat(a.blocksOfBucket(0).toArray()).containsExactly(0, 4, 6);
        assertThat(a.blocksOfBucket(1).toArray()).containsExactly(2, 3);
        assertThat(a.blocksOfBucket(2).toArray()).containsExactly(1, 2, 3);
        assertThat(a.blocksOfBucket(3).toArray()).containsExactly(5, 6);
        assertThat(a.filteredBlocksOfBucket(0).toArray()).containsExactly(6);
        assertThat(a.filteredBlocksOfBucket(2).toArray()).containsExactly(2, 3);
        assertThat(a.wholeBlocks().toArray()).containsExactly(0, 1, 4, 5);
        assertThat(a.expectedCrossCnRows()).isZero();
        assertThat(a.extraReadRows()).isEqualTo(700 + 200 + 1000);
        assertThat(a.extraReadFraction()).isCloseTo(1900.0 / 3280, within(1e-12));
        assertThat(a.scannedRowsPerCn()).containsExactly(500 + 700 + 200 + 300 + 1000, 500 + 700 + 200 + 80 + 1000);
        // A block read by one CN has one CN; a shared one has none, and the error says where to look.
        assertThat(a.cnOf(0)).isZero();
        assertThat(a.bucketOf(5)).isEqualTo(3);
        assertThatThrownBy(() -> a.cnOf(6)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("block 6 straddles CN ranges and is read by CNs 0, 1").hasMessageContaining("blocksOfCn");
        // What each CN keeps of a shared block.
        final KeyRange low = a.cnRange(0);
        final KeyRange high = a.cnRange(1);
        assertThat(low).hasToString("[min, 200) and nulls");
        assertThat(high).hasToString("[200, max]");
        assertThat(low.contains(Long.MIN_VALUE) && low.contains(199) && !low.contains(200) && low.holdsNulls()).isTrue();
        assertThat(high.contains(200) && high.contains(Long.MAX_VALUE) && !high.contains(199) && !high.holdsNulls()).isTrue();
    }

    @Test
    void splitOfABlockInsideOneCnIsNoSplit() {
        final ZoneMap[] zms = {block(0, 99, 100), block(250, 399, 100)};
        final ScanAssignment a = ScanAssignment.of(zms, CUTS, StraddlePolicy.SPLIT);
        assertThat(a.cnOf(0)).isZero();
        assertThat(a.bucketOf(1)).isEqualTo(3);
        assertThat(a.extraReadRows()).isZero();
        assertThat(a.filteredBlocksOfCn(1).isEmpty()).isTrue();
    }

    @Test
    void stringKeysSplitInUnsignedOrder() {
        // Prefix keys compare unsigned: -1 is the largest, so a block [5, -1] spans both CNs of cut 1 << 63.
        final RangeBoundaries cuts = RangeBoundaries.of(TypeKind.STRING, new long[] {Long.MIN_VALUE}, Topology.parse("2x1"));
        final ScanAssignment a = ScanAssignment.of(new ZoneMap[] {new ZoneMap(5, -1, 0, 10), new ZoneMap(5, 6, 0, 10)},
                cuts, StraddlePolicy.SPLIT);
        assertThat(a.blocksOfCn(1).toArray()).containsExactly(0);
        assertThat(a.filteredBlocksOfCn(0).toArray()).containsExactly(0);
        assertThat(a.cnRange(1).contains(-1)).isTrue();
        assertThat(a.cnRange(1).contains(6)).isFalse();
    }

    @Test
    void insideItsCnABlockGoesToTheCoreHoldingMostOfIt() {
        // On CN 1 the block spans [280, 330): 20 keys in bucket 2, 30 in bucket 3.
        final ScanAssignment a = ScanAssignment.of(new ZoneMap[] {block(280, 329, 50)}, CUTS);
        assertThat(a.bucketOf(0)).isEqualTo(3);
        assertThat(a.expectedCrossCnRows()).isZero();
    }

    @Test
    void hashBoundariesDealBlocksRoundRobin() {
        final ZoneMap[] zms = new ZoneMap[12];
        for (int i = 0; i < zms.length; i++) {
            zms[i] = block(i * 10L, i * 10L + 9, 100);
        }
        final ScanAssignment a = ScanAssignment.roundRobin(zms, TypeKind.INT64, Topology.parse("3x2"));
        assertThat(a.colocated()).isFalse();
        assertThat(a.blocksOfCn(0).toArray()).containsExactly(0, 3, 6, 9);
        assertThat(a.blocksOfBucket(0).toArray()).containsExactly(0, 6);
        assertThat(a.blocksOfBucket(1).toArray()).containsExactly(3, 9);
        assertThat(a.blocksOfCn(2).toArray()).containsExactly(2, 5, 8, 11);
        assertThat(a.expectedCrossCnFraction()).isCloseTo(2.0 / 3, within(1e-12));
        // Boundaries that fell back to hash assign the same way.
        final RangeBoundaries hash = RangeBoundaries.plan(io.sluice.zonemap.KeyQuantiles.of(TypeKind.INT64, new ZoneMap[0]),
                Topology.parse("3x2"));
        assertThat(ScanAssignment.of(zms, hash).blocksOfCn(0).toArray()).containsExactly(0, 3, 6, 9);
        // Hash buckets are not key ranges: there is nothing to split a block by, so SPLIT deals the same way.
        final ScanAssignment split = ScanAssignment.of(zms, hash, StraddlePolicy.SPLIT);
        assertThat(split.blocksOfCn(0).toArray()).containsExactly(0, 3, 6, 9);
        assertThat(split.extraReadRows()).isZero();
        assertThat(split.filteredBlocksOfCn(0).isEmpty()).isTrue();
        assertThat(split.expectedCrossCnFraction()).isCloseTo(2.0 / 3, within(1e-12));
        assertThatThrownBy(() -> split.cnRange(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("owns no key range");
    }

    @Test
    void emptyTablesAndBadInput() {
        final ScanAssignment empty = ScanAssignment.of(new ZoneMap[0], CUTS);
        assertThat(empty.blockCount()).isZero();
        assertThat(empty.expectedCrossCnFraction()).isZero();
        assertThatThrownBy(() -> ScanAssignment.of(null, CUTS)).hasMessageContaining("no zonemaps");
        assertThatThrownBy(() -> ScanAssignment.of(new ZoneMap[] {block(0, 1, 1), null}, CUTS))
                .hasMessageContaining("block 1");
        assertThatThrownBy(() -> ScanAssignment.of(new ZoneMap[] {block(5, 1, 1)}, CUTS))
                .hasMessageContaining("min 5 is above max 1");
        assertThatThrownBy(() -> ScanAssignment.of(new ZoneMap[0], null)).hasMessageContaining("no boundaries");
        assertThatThrownBy(() -> ScanAssignment.of(new ZoneMap[0], CUTS, null)).hasMessageContaining("no straddle policy");
        assertThatThrownBy(() -> empty.filteredBlocksOfCn(-1)).hasMessageContaining("CN -1 is not in topology 2x2");
        assertThatThrownBy(() -> empty.filteredBlocksOfBucket(4)).hasMessageContaining("bucket 4 is not in topology 2x2");
        assertThatThrownBy(() -> empty.blocksOfCn(2)).hasMessageContaining("CN 2 is not in topology 2x2");
        assertThatThrownBy(() -> empty.bucketOf(0)).hasMessageContaining("block 0 is not assigned");
    }

    @Provide
    Arbitrary<ZoneMap> zoneMaps() {
        return Combinators.combine(Arbitraries.longs().between(-500, 500), Arbitraries.longs().between(0, 400),
                Arbitraries.integers().between(1, 1000), Arbitraries.integers().between(0, 100))
                .as((min, width, rows, nullPercent) -> nullPercent == 100
                        ? new ZoneMap(0, 0, rows, rows)
                        : new ZoneMap(min, min + width, rows * nullPercent / 100, rows));
    }

    @Property(tries = 200)
    void everyBlockIsScannedOnceWhereItKeepsMostRows(
            @ForAll @Size(min = 0, max = 30) final List<@net.jqwik.api.From("zoneMaps") ZoneMap> blocks,
            @ForAll @IntRange(min = 1, max = 5) final int cns, @ForAll @IntRange(min = 1, max = 4) final int cores) {
        final Topology topology = new Topology(cns, cores);
        final long[] cuts = new long[topology.bucketCount() - 1];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = -450 + 900L * (i + 1) / topology.bucketCount();
        }
        final RangeBoundaries b = RangeBoundaries.of(TypeKind.INT64, cuts, topology);
        final ZoneMap[] zms = blocks.toArray(new ZoneMap[0]);
        final ScanAssignment a = ScanAssignment.of(zms, b);
        final RoaringBitmap all = new RoaringBitmap();
        double cross = 0;
        for (int cn = 0; cn < cns; cn++) {
            final RoaringBitmap cnBlocks = a.blocksOfCn(cn);
            assertThat(RoaringBitmap.and(all, cnBlocks).isEmpty()).isTrue();
            all.or(cnBlocks);
            final RoaringBitmap ofBuckets = new RoaringBitmap();
            for (int core = 0; core < cores; core++) {
                ofBuckets.or(a.blocksOfBucket(topology.firstBucketOf(cn) + core));
            }
            assertThat(ofBuckets).isEqualTo(cnBlocks);
        }
        assertThat(all.getCardinality()).isEqualTo(zms.length);
        for (int block = 0; block < zms.length; block++) {
            // Brute force: the rows of this block each CN would keep, key by key.
            final double[] kept = keptPerCn(zms[block], cuts, topology);
            final int chosen = a.cnOf(block);
            for (int cn = 0; cn < cns; cn++) {
                assertThat(kept[chosen]).as("block %d on CN %d vs %d", block, chosen, cn).isGreaterThanOrEqualTo(kept[cn] - 1e-9);
            }
            cross += zms[block].rowCount() - kept[chosen];
        }
        assertThat(a.expectedCrossCnRows()).isCloseTo(cross, within(1e-6 * Math.max(1, cross)));
        assertThat(a.extraReadRows()).isZero();
    }

    private static double[] keptPerCn(final ZoneMap zm, final long[] cuts, final Topology topology) {
        final double[] kept = new double[topology.cnCount()];
        kept[0] += zm.nullCount();
        if (!zm.hasValues()) {
            return kept;
        }
        final double perKey = (double) zm.nonNullCount() / (zm.max() - zm.min() + 1);
        for (long key = zm.min(); key <= zm.max(); key++) {
            kept[topology.cnOf(ExactShuffle.rangeBucket(TypeKind.INT64, cuts, key))] += perKey;
        }
        return kept;
    }
}
