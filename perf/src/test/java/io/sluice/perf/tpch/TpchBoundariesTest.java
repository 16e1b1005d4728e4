package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.format.Block;
import io.sluice.format.LongVector;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BoundaryConfig;
import io.sluice.shuffle.BoundaryMethod;
import io.sluice.shuffle.ColocationPlan;
import io.sluice.shuffle.ExactShuffle;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.ScanAssignment;
import io.sluice.shuffle.StraddlePolicy;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Boundaries and colocation on real TPC-H data (SF 0.1 lineitem and orders), counted exactly by scanning. */
class TpchBoundariesTest {
    @TempDir
    static Path dir;
    static Table lineitem;
    static Table orders;

    @BeforeAll
    static void generate() {
        final Store store = Store.create(dir);
        lineitem = TpchLoader.load(store, TpchTable.LINEITEM, 0.1, rows -> { });
        orders = TpchLoader.load(store, TpchTable.ORDERS, 0.1, rows -> { });
    }

    @AfterAll
    static void close() {
        lineitem.close();
        orders.close();
    }

    @Test
    void orderkeyBucketsAreBalanced() {
        for (final String shape : new String[] {"3x2", "3x10", "5x10", "7x8"}) {
            final ColocationPlan plan = ColocationPlan.of(lineitem, "l_orderkey", Topology.parse(shape));
            assertThat(plan.boundaries().method()).as(shape).isEqualTo(BoundaryMethod.RANGE_UNIFORM);
            final ExactShuffle.Counts counts = ExactShuffle.scan(lineitem, "l_orderkey", plan.boundaries(), plan.assignment());
            System.out.printf(Locale.ROOT, "balance %s: %d buckets, max/mean %.4f, min/mean %.4f%n", shape,
                    counts.perBucket().length, counts.maxOverMean(), counts.minOverMean());
            assertThat(counts.rows()).isEqualTo(lineitem.rowCount());
            assertThat(counts.maxOverMean()).as(shape).isLessThanOrEqualTo(1.05);
        }
    }

    @Test
    void colocatedScansKeepRowsOnTheirCn() {
        for (final String shape : new String[] {"3x2", "5x2", "7x8"}) {
            final Topology topology = Topology.parse(shape);
            final ColocationPlan plan = ColocationPlan.of(lineitem, "l_orderkey", topology);
            assertThat(plan.policy()).isEqualTo(StraddlePolicy.MAJORITY);
            final ScanAssignment ordersAssignment = plan.assign(orders.zoneMaps(0));
            final ExactShuffle.Counts l = ExactShuffle.scan(lineitem, "l_orderkey", plan.boundaries(), plan.assignment());
            final ExactShuffle.Counts o = ExactShuffle.scan(orders, "o_orderkey", plan.boundaries(), ordersAssignment);
            final double both = (double) (l.crossCnRows() + o.crossCnRows()) / (l.rows() + o.rows());
            System.out.printf(Locale.ROOT, "colocate %s majority: lineitem %.4f%% (est %.4f%%), orders %.4f%% (est %.4f%%),"
                            + " both %.4f%% cross CNs%n", shape, 100 * l.crossFraction(),
                    100 * plan.assignment().expectedCrossCnFraction(), 100 * o.crossFraction(),
                    100 * ordersAssignment.expectedCrossCnFraction(), 100 * both);
            final int cnCuts = topology.cnCount() - 1;
            for (final ExactShuffle.Counts c : new ExactShuffle.Counts[] {l, o}) {
                // Both tables are clustered by orderkey, so each CN cut splits at most one block of each, and
                // the block stays where at least half of its rows belong: at most half a block crosses per cut.
                assertThat(c.crossCnRows()).as(shape).isLessThanOrEqualTo((long) cnCuts * Block.MAX_ROWS / 2);
                assertThat(c.readRows()).as(shape).isEqualTo(c.rows());
            }
            assertThat(l.rows()).isEqualTo(lineitem.rowCount());
            assertThat(o.rows()).isEqualTo(orders.rowCount());
            // The zonemap estimate tracks the exact count.
            assertThat(plan.assignment().expectedCrossCnFraction()).as(shape).isCloseTo(l.crossFraction(), within(1e-3));
            assertThat(ordersAssignment.expectedCrossCnFraction()).as(shape).isCloseTo(o.crossFraction(), within(1e-3));

            // Shared storage: read a straddling block on each CN it overlaps, each keeping its own rows.
            final ColocationPlan split = ColocationPlan.of(lineitem, "l_orderkey", topology, BoundaryConfig.DEFAULT,
                    StraddlePolicy.SPLIT);
            assertThat(split.boundaries().cutPoints()).containsExactly(plan.boundaries().cutPoints());
            final ScanAssignment ordersSplit = split.assign(orders.zoneMaps(0));
            assertThat(ordersSplit.policy()).isEqualTo(StraddlePolicy.SPLIT);
            final ExactShuffle.Counts ls = ExactShuffle.scan(lineitem, "l_orderkey", split.boundaries(), split.assignment());
            final ExactShuffle.Counts os = ExactShuffle.scan(orders, "o_orderkey", split.boundaries(), ordersSplit);
            System.out.printf(Locale.ROOT, "colocate %s split: lineitem %.4f%% cross CNs, %.4f%% extra reads (est %.4f%%),"
                            + " orders %.4f%% cross CNs, %.4f%% extra reads (est %.4f%%)%n", shape,
                    100 * ls.crossFraction(), 100 * ls.extraReadFraction(), 100 * split.assignment().extraReadFraction(),
                    100 * os.crossFraction(), 100 * os.extraReadFraction(), 100 * ordersSplit.extraReadFraction());
            final ExactShuffle.Counts[][] pairs = {{ls, l}, {os, o}};
            final ScanAssignment[] assignments = {split.assignment(), ordersSplit};
            for (int t = 0; t < 2; t++) {
                final ExactShuffle.Counts c = pairs[t][0];
                final ScanAssignment a = assignments[t];
                // Every row is kept exactly once, in the bucket it has under the majority scan too, and none crosses.
                assertThat(c.rows()).as(shape).isEqualTo(pairs[t][1].rows());
                assertThat(c.perBucket()).as(shape).containsExactly(pairs[t][1].perBucket());
                assertThat(c.crossFraction()).as(shape).isLessThanOrEqualTo(0.01);
                assertThat(c.crossCnRows()).as(shape).isZero();
                assertThat(a.expectedCrossCnFraction()).as(shape).isZero();
                // The price: each CN cut makes both CNs read the one block it splits.
                assertThat(c.readRows() - c.rows()).as(shape).isEqualTo(a.extraReadRows())
                        .isPositive().isLessThanOrEqualTo((long) cnCuts * Block.MAX_ROWS);
            }
        }
    }

    @Test
    void atThreeCnsUnderOnePercentOfLineitemCrosses() {
        final ColocationPlan plan = ColocationPlan.of(lineitem, "l_orderkey", Topology.parse("3x2"));
        final ExactShuffle.Counts colocated = ExactShuffle.scan(lineitem, "l_orderkey", plan.boundaries(), plan.assignment());
        assertThat(colocated.crossFraction()).isLessThan(0.01);
        // Without colocation (blocks dealt round-robin) two thirds of the rows cross.
        final ScanAssignment dealt = ScanAssignment.roundRobin(lineitem.zoneMaps(0), TypeKind.INT64, Topology.parse("3x2"));
        final ExactShuffle.Counts roundRobin = ExactShuffle.scan(lineitem, "l_orderkey", plan.boundaries(), dealt);
        assertThat(roundRobin.crossFraction()).isCloseTo(2.0 / 3, within(0.02));
        // A hash shuffle crosses as much, whatever the scan does.
        final RangeBoundaries hash = RangeBoundaries.plan(plan.stats(), Topology.parse("3x2"),
                BoundaryConfig.DEFAULT.withMinDistinctPerBucket(Integer.MAX_VALUE / 8));
        assertThat(hash.method()).isEqualTo(BoundaryMethod.HASH);
        final ExactShuffle.Counts hashed = ExactShuffle.scan(lineitem, "l_orderkey", hash, ScanAssignment.of(lineitem.zoneMaps(0), hash));
        assertThat(hashed.crossFraction()).isCloseTo(2.0 / 3, within(0.01));
        System.out.printf(Locale.ROOT, "3x2 lineitem cross-CN: colocated %.4f%%, round-robin scan %.2f%%, hash %.2f%%%n",
                100 * colocated.crossFraction(), 100 * roundRobin.crossFraction(), 100 * hashed.crossFraction());
    }

    @Test
    void rowsFollowTheirCnRangeAndEstimatesMatchCounts() {
        final Topology topology = Topology.parse("7x8");
        final ColocationPlan plan = ColocationPlan.of(lineitem, "l_orderkey", topology);
        final long[] cnCuts = plan.boundaries().cnCutPoints();
        final RangeBucketFunction f = (RangeBucketFunction) plan.bucketFunction();
        for (int block = 0; block < lineitem.blockCount(); block += 7) {
            final long[] keys = ((LongVector) lineitem.readBlock(block, 0).column(0)).values();
            for (final long key : keys) {
                assertThat(ExactShuffle.rangeBucket(TypeKind.INT64, cnCuts, key)).isEqualTo(topology.cnOf(f.bucket(key)));
            }
        }
        final ExactShuffle.Counts counts = ExactShuffle.scan(lineitem, "l_orderkey", plan.boundaries(), plan.assignment());
        final double[] estimated = plan.estimatedRows();
        for (int b = 0; b < estimated.length; b++) {
            assertThat(estimated[b]).as("bucket %d", b).isCloseTo(counts.perBucket()[b], within(0.02 * counts.perBucket()[b]));
        }
    }

    @Test
    void orderkeyIsUniformAndItsBlocksBarelyOverlap() {
        final ColocationPlan plan = ColocationPlan.of(lineitem, "l_orderkey", Topology.parse("3x2"));
        System.out.printf(Locale.ROOT, "l_orderkey uniformity %.4f overlap %.3e distinct %.0f%n", plan.stats().uniformity(),
                plan.stats().overlap(), plan.stats().distinctEstimate());
        final ColocationPlan o = ColocationPlan.of(orders, "o_orderkey", Topology.parse("3x2"));
        System.out.printf(Locale.ROOT, "o_orderkey uniformity %.4f overlap %.3e%n", o.stats().uniformity(), o.stats().overlap());
        assertThat(plan.stats().uniformity()).isGreaterThan(0.9);
        // Adjacent blocks share at most the one orderkey split between them.
        assertThat(plan.stats().overlap()).isLessThan(1e-4);
        assertThat(o.stats().overlap()).isLessThan(1e-4);
    }
}
