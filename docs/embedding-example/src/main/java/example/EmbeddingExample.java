package example;

import io.sluice.format.Block;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.shuffle.ColocationPlan;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.ScanAssignment;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.ShuffleCounters;
import io.sluice.shuffle.operator.ShuffleOperator;
import io.sluice.shuffle.operator.ShuffleOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A storage engine hands Sluice a table of its own through the storage SPI. From the zonemaps alone
 * Sluice plans range boundaries for 3 CNs x 4 cores and assigns each block's scan to the CN that owns
 * its keys; the shuffle operator then routes the scanned batches to their buckets, whole where a
 * block's zonemap fits one bucket.
 */
public final class EmbeddingExample {
    /** The engine's table: orders by id, in blocks of column vectors held in memory. */
    public static final class OrdersTable implements BlockTable {
        private final List<Block> blocks = new ArrayList<>();

        /** {@code blockCount} blocks of {@code rowsPerBlock} orders; ids count up from 0. */
        public OrdersTable(final int blockCount, final int rowsPerBlock) {
            for (int b = 0; b < blockCount; b++) {
                final long[] ids = new long[rowsPerBlock];
                final long[] amounts = new long[rowsPerBlock];
                for (int r = 0; r < rowsPerBlock; r++) {
                    ids[r] = (long) b * rowsPerBlock + r;
                    amounts[r] = amountOf(ids[r]);
                }
                // Block.of computes each column's zonemap (min, max, nulls, rows).
                blocks.add(Block.of(LongVector.ofInt64(ids), LongVector.ofInt64(amounts)));
            }
        }

        /** The amount of order {@code id}. */
        public static long amountOf(final long id) {
            return id % 1000 + id / 1000;
        }

        @Override
        public String name() {
            return "orders";
        }

        @Override
        public Schema schema() {
            return Schema.parse("id:int64,amount:int64");
        }

        @Override
        public int blockCount() {
            return blocks.size();
        }

        @Override
        public int blockRowCount(final int block) {
            return blocks.get(block).rowCount();
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            return blocks.get(block).zoneMaps()[column];
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            return blocks.get(block).project(projection);
        }
    }

    /**
     * What a shuffle of the table delivered.
     *
     * @param boundaries      the range boundaries planned from the zonemaps
     * @param rowsPerBucket   rows each bucket received
     * @param amountPerBucket the sum of the amounts each bucket received
     * @param rowsCrossingCns rows whose bucket runs on another CN than the one that scanned them
     * @param wholeBlocks     batches routed whole, without per-row work
     */
    public record Shuffled(RangeBoundaries boundaries, long[] rowsPerBucket, long[] amountPerBucket,
                           long rowsCrossingCns, long wholeBlocks) {
    }

    private EmbeddingExample() {
    }

    /** Plans boundaries for {@code topology}, scans each CN's blocks as {@code scans} says and shuffles them by id. */
    public static Shuffled shuffle(final BlockTable orders, final ColocationPlan plan, final ScanAssignment scans) {
        final Topology topology = plan.boundaries().topology();
        final long[] rows = new long[topology.bucketCount()];
        final long[] amounts = new long[topology.bucketCount()];
        final long[] crossing = new long[1];
        long wholeBlocks = 0;
        for (int cn = 0; cn < topology.cnCount(); cn++) {
            final List<Batch> scanned = new ArrayList<>();
            for (final int block : scans.blocksOfCn(cn).toArray()) {
                scanned.add(Batch.of(orders.readBlock(block)));
            }
            final int scanningCn = cn;
            final ShuffleCounters counters = ShuffleOperator.run(orders.schema(), new int[] {0},
                    plan.bucketFunction(), ShuffleOptions.defaults(), scanned, batch -> {
                        // Called once per bucket batch; the batch's memory is pooled, so use it here.
                        final int bucket = batch.shuffleIdx();
                        final long[] amount = ((LongVector) batch.column(1)).values();
                        for (int r = 0; r < batch.rowCount(); r++) {
                            amounts[bucket] += amount[r];
                        }
                        rows[bucket] += batch.rowCount();
                        if (topology.cnOf(bucket) != scanningCn) {
                            crossing[0] += batch.rowCount();
                        }
                    });
            wholeBlocks += counters.wholeBatchRoutes();
        }
        return new Shuffled(plan.boundaries(), rows, amounts, crossing[0], wholeBlocks);
    }

    /** Shuffles a table of 30 blocks of 4000 orders on 3 CNs x 4 cores, colocated and round-robin. */
    public static void main(final String[] args) {
        final OrdersTable orders = new OrdersTable(30, 4000);
        final ColocationPlan plan = ColocationPlan.of(orders, "id", Topology.parse("3x4"));
        final RangeBoundaries boundaries = plan.boundaries();
        System.out.printf("%s: %d rows in %d blocks; %s boundaries for %s: %s%n", orders.name(), orders.rowCount(),
                orders.blockCount(), boundaries.method(), boundaries.topology(),
                Arrays.toString(boundaries.cutPoints()));

        final Shuffled colocated = shuffle(orders, plan, plan.assignment());
        final long[] rows = colocated.rowsPerBucket();
        for (int bucket = 0; bucket < rows.length; bucket++) {
            System.out.printf("bucket %2d (CN %d, core %d): %5d rows, amount %d%n", bucket,
                    boundaries.topology().cnOf(bucket), boundaries.topology().coreOf(bucket), rows[bucket],
                    colocated.amountPerBucket()[bucket]);
        }
        System.out.printf("colocated scans: %d rows cross CNs, %d batches routed whole%n",
                colocated.rowsCrossingCns(), colocated.wholeBlocks());

        final ScanAssignment dealt = ScanAssignment.roundRobin(orders.zoneMaps(0), orders.schema().type(0).kind(),
                boundaries.topology());
        System.out.printf("round-robin scans: %d rows cross CNs%n", shuffle(orders, plan, dealt).rowsCrossingCns());
    }
}
