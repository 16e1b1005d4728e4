package example;

import static org.assertj.core.api.Assertions.assertThat;

import example.EmbeddingExample.OrdersTable;
import example.EmbeddingExample.Shuffled;
import io.sluice.shuffle.ColocationPlan;
import io.sluice.shuffle.ScanAssignment;
import io.sluice.shuffle.Topology;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Runs the example and checks what it delivers against counts made here from the table's definition
 * and the planned cut points: the rows and amounts of every bucket, the rows that cross CNs, the
 * batches routed whole.
 */
class EmbeddingExampleTest {
    private static final int BLOCKS = 30;
    private static final int ROWS_PER_BLOCK = 4000;
    private static final long ROWS = (long) BLOCKS * ROWS_PER_BLOCK;

    private final OrdersTable orders = new OrdersTable(BLOCKS, ROWS_PER_BLOCK);
    private final ColocationPlan plan = ColocationPlan.of(orders, "id", Topology.parse("3x4"));
    private final long[] cuts = plan.boundaries().cutPoints();

    /** The bucket of an id by the cut points: the number of cut points at or below it. */
    private int bucketOf(final long id) {
        int bucket = 0;
        while (bucket < cuts.length && id >= cuts[bucket]) {
            bucket++;
        }
        return bucket;
    }

    @Test
    void everyBucketGetsTheRowsAndAmountsOfItsKeyRange() {
        assertThat(cuts).hasSize(11).isSorted().doesNotHaveDuplicates();
        final long[] rows = new long[12];
        final long[] amounts = new long[12];
        for (long id = 0; id < ROWS; id++) {
            rows[bucketOf(id)]++;
            amounts[bucketOf(id)] += OrdersTable.amountOf(id);
        }
        final Shuffled shuffled = EmbeddingExample.shuffle(orders, plan, plan.assignment());
        assertThat(shuffled.rowsPerBucket()).containsExactly(rows);
        assertThat(shuffled.amountPerBucket()).containsExactly(amounts);
    }

    @Test
    void colocatedScansMoveNoRowAndRouteBlocksInsideOneBucketWhole() {
        long whole = 0;
        for (int b = 0; b < BLOCKS; b++) {
            if (bucketOf((long) b * ROWS_PER_BLOCK) == bucketOf((long) (b + 1) * ROWS_PER_BLOCK - 1)) {
                whole++;
            }
        }
        final Shuffled shuffled = EmbeddingExample.shuffle(orders, plan, plan.assignment());
        assertThat(shuffled.rowsCrossingCns()).isZero();
        assertThat(shuffled.wholeBlocks()).isEqualTo(whole).isPositive();
    }

    @Test
    void roundRobinScansMoveTheRowsOfOtherCnsKeys() {
        final Topology topology = plan.boundaries().topology();
        final ScanAssignment dealt = ScanAssignment.roundRobin(orders.zoneMaps(0), orders.schema().type(0).kind(),
                topology);
        long crossing = 0;
        for (long id = 0; id < ROWS; id++) {
            if (topology.cnOf(bucketOf(id)) != dealt.cnOf((int) (id / ROWS_PER_BLOCK))) {
                crossing++;
            }
        }
        assertThat(EmbeddingExample.shuffle(orders, plan, dealt).rowsCrossingCns()).isEqualTo(crossing)
                .isGreaterThan(ROWS / 2);
    }

    @Test
    void mainPrintsThePlanEveryBucketAndTheRowsThatCrossCns() {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream stdout = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            EmbeddingExample.main(new String[0]);
        } finally {
            System.setOut(stdout);
        }
        final String printed = captured.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("orders: 120000 rows in 30 blocks; RANGE_UNIFORM boundaries for 3x4: [10000, 20000,")
                .contains("bucket 11 (CN 2, core 3): 10000 rows")
                .contains("colocated scans: 0 rows cross CNs, 24 batches routed whole")
                .containsPattern("round-robin scans: [1-9][0-9]* rows cross CNs");
        assertThat(printed.lines()).hasSize(15);
    }
}
