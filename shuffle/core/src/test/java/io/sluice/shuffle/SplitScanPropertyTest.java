package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.roaringbitmap.RoaringBitmap;

/**
 * Under {@link StraddlePolicy#SPLIT} a scan that reads each CN's blocks and, of a block shared with
 * other CNs, keeps only the rows of the CN's range, keeps every row of the table exactly once and
 * on the CN its range bucket runs on. Which CN a row belongs to is computed here from a
 * {@link RangeBucketFunction} over the cut points and the topology, not from the assignment.
 */
class SplitScanPropertyTest {
    /** A table's key column as blocks of keys ({@code null}: a null key), and the boundaries to scan it for. */
    record Case(TypeKind kind, Topology topology, long[] cuts, List<List<Long>> blocks) {
    }

    private static Arbitrary<Long> keys() {
        // Narrow enough that blocks straddle cuts often; the extremes of both signed and unsigned order included.
        return Arbitraries.frequencyOf(
                Tuple.of(10, Arbitraries.longs().between(-300, 300)),
                Tuple.of(1, Arbitraries.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, Long.MAX_VALUE - 1, Long.MAX_VALUE)));
    }

    @Provide
    Arbitrary<Case> cases() {
        final Arbitrary<List<List<Long>>> tables = keys().injectNull(0.1).list().ofMinSize(1).ofMaxSize(40)
                .list().ofMaxSize(12);
        final Arbitrary<Topology> topologies = Combinators.combine(Arbitraries.integers().between(1, 6),
                Arbitraries.integers().between(1, 4)).as(Topology::new);
        return Combinators.combine(Arbitraries.of(TypeKind.INT64, TypeKind.STRING), topologies, tables,
                        Arbitraries.of(true, false))
                .flatAs((kind, topology, table, sorted) -> keys().set().ofSize(topology.bucketCount() - 1)
                        .map(cuts -> new Case(kind, topology, sortedCuts(kind, cuts), sorted ? sortedTable(kind, table) : table)));
    }

    private static long[] sortedCuts(final TypeKind kind, final Set<Long> cuts) {
        return cuts.stream().sorted(order(kind)).mapToLong(Long::longValue).toArray();
    }

    private static Comparator<Long> order(final TypeKind kind) {
        return (a, b) -> kind.compareKeys(a, b);
    }

    /** The same blocks and null positions, the non-null keys sorted across the table (a clustered table). */
    private static List<List<Long>> sortedTable(final TypeKind kind, final List<List<Long>> table) {
        final List<Long> values = new ArrayList<>();
        table.forEach(block -> block.stream().filter(k -> k != null).forEach(values::add));
        values.sort(order(kind));
        int next = 0;
        final List<List<Long>> sorted = new ArrayList<>();
        for (final List<Long> block : table) {
            final List<Long> out = new ArrayList<>();
            for (final Long key : block) {
                out.add(key == null ? null : values.get(next++));
            }
            sorted.add(out);
        }
        return sorted;
    }

    private static ZoneMap zoneMap(final TypeKind kind, final List<Long> block) {
        int nulls = 0;
        Long min = null;
        Long max = null;
        for (final Long key : block) {
            if (key == null) {
                nulls++;
            } else {
                min = min == null || kind.compareKeys(key, min) < 0 ? key : min;
                max = max == null || kind.compareKeys(key, max) > 0 ? key : max;
            }
        }
        return min == null ? new ZoneMap(0, 0, nulls, block.size()) : new ZoneMap(min, max, nulls, block.size());
    }

    @Property(tries = 300)
    void everyRowIsKeptOnceOnItsBucketsCn(@ForAll("cases") final Case c) {
        final Topology topology = c.topology();
        final List<List<Long>> blocks = c.blocks();
        final ZoneMap[] zms = blocks.stream().map(b -> zoneMap(c.kind(), b)).toArray(ZoneMap[]::new);
        final ScanAssignment a = ScanAssignment.of(zms, RangeBoundaries.of(c.kind(), c.cuts(), topology), StraddlePolicy.SPLIT);
        final RangeBucketFunction buckets = new RangeBucketFunction(c.kind(), c.cuts());
        final int nullCn = topology.cnOf(BucketFunction.NULL_BUCKET);

        final int[][] timesKept = new int[blocks.size()][];
        for (int block = 0; block < blocks.size(); block++) {
            timesKept[block] = new int[blocks.get(block).size()];
        }
        final List<Long> keptKeys = new ArrayList<>();
        final int[] readers = new int[blocks.size()];
        long rowsRead = 0;
        long crossing = 0;
        for (int cn = 0; cn < topology.cnCount(); cn++) {
            final RoaringBitmap mine = a.blocksOfCn(cn);
            final RoaringBitmap filtered = a.filteredBlocksOfCn(cn);
            final KeyRange range = a.cnRange(cn);
            assertThat(RoaringBitmap.andNot(filtered, mine).isEmpty()).as("CN %d filters only blocks it reads", cn).isTrue();
            // The CN's cores read its blocks, each block on one core, and filter the same ones.
            final RoaringBitmap ofCores = new RoaringBitmap();
            final RoaringBitmap filteredOfCores = new RoaringBitmap();
            for (int bucket = topology.firstBucketOf(cn); bucket < topology.firstBucketOf(cn + 1); bucket++) {
                assertThat(RoaringBitmap.and(ofCores, a.blocksOfBucket(bucket)).isEmpty()).isTrue();
                ofCores.or(a.blocksOfBucket(bucket));
                filteredOfCores.or(a.filteredBlocksOfBucket(bucket));
            }
            assertThat(ofCores).isEqualTo(mine);
            assertThat(filteredOfCores).isEqualTo(filtered);
            for (final int block : mine) {
                readers[block]++;
                final List<Long> keys = blocks.get(block);
                rowsRead += keys.size();
                for (int row = 0; row < keys.size(); row++) {
                    final Long key = keys.get(row);
                    final int rowCn = key == null ? nullCn : topology.cnOf(buckets.bucket(key));
                    final boolean kept = !filtered.contains(block) || (key == null ? range.holdsNulls() : range.contains(key));
                    if (kept) {
                        timesKept[block][row]++;
                        keptKeys.add(key);
                        crossing += rowCn == cn ? 0 : 1;
                    } else {
                        assertThat(rowCn).as("CN %d drops key %s of block %d, whose CN is %d", cn, key, block, rowCn)
                                .isNotEqualTo(cn);
                    }
                }
            }
        }
        assertThat(crossing).as("kept rows whose bucket is on another CN").isZero();
        assertThat(a.expectedCrossCnFraction()).isZero();
        for (int block = 0; block < blocks.size(); block++) {
            for (int row = 0; row < timesKept[block].length; row++) {
                assertThat(timesKept[block][row]).as("times row %d of block %d (key %s) is kept", row, block,
                        blocks.get(block).get(row)).isEqualTo(1);
            }
        }
        final Comparator<Long> byKey = Comparator.nullsFirst(order(c.kind()));
        final List<Long> table = new ArrayList<>();
        blocks.forEach(table::addAll);
        table.sort(byKey);
        keptKeys.sort(byKey);
        assertThat(keptKeys).isEqualTo(table);

        // The price: rows read more than once, and only blocks read by several CNs need a filter.
        assertThat(a.extraReadRows()).isEqualTo(rowsRead - table.size());
        assertThat(java.util.Arrays.stream(a.scannedRowsPerCn()).sum()).isEqualTo(rowsRead);
        for (int block = 0; block < blocks.size(); block++) {
            final int b = block;
            if (readers[block] == 1) {
                assertThat(a.blocksOfCn(a.cnOf(block)).contains(block)).isTrue();
                for (int cn = 0; cn < topology.cnCount(); cn++) {
                    assertThat(a.filteredBlocksOfCn(cn).contains(block)).isFalse();
                }
            } else {
                assertThat(readers[block]).as("readers of block %d", block).isGreaterThan(1);
                assertThatThrownBy(() -> a.cnOf(b)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("block " + b + " straddles");
            }
        }
    }
}
