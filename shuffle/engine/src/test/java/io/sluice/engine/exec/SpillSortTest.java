package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillSpace;
import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * A sort past its memory budget with spilling on writes sorted runs and merges them: the rows equal the
 * in-memory sort's, with NULLs, ties and limits; its files are gone when the query's memory closes. With
 * spilling off it fails with the named error.
 */
class SpillSortTest {
    private static final RowType ROWS = new RowType(List.of("price", "name", "id"),
            List.of(DataType.decimal(2), DataType.STRING, DataType.INT32));
    private static final List<SortKey> KEYS = List.of(SortKey.desc("price"), SortKey.asc("name"), SortKey.asc("id"));

    /** Rows in batches of up to 600: few prices and names, so the first keys tie; ids tell rows apart. */
    static List<Batch> rows(final long seed, final int n) {
        final Random random = new Random(seed);
        final List<Batch> batches = new ArrayList<>();
        int id = 0;
        while (id < n) {
            final int size = Math.min(n - id, 1 + random.nextInt(600));
            final long[] price = new long[size];
            final String[] name = new String[size];
            final int[] ids = new int[size];
            final long[] priceNulls = new long[NullMask.words(size)];
            for (int i = 0; i < size; i++) {
                price[i] = random.nextInt(50) * 100L;
                name[i] = random.nextInt(9) == 0 ? null : "name " + random.nextInt(40);
                ids[i] = random.nextInt(n);
                id++;
                if (random.nextInt(9) == 0) {
                    NullMask.setNull(priceNulls, i);
                }
            }
            batches.add(Batch.of(new LongVector(ColumnType.decimal(15, 2), price, size, priceNulls),
                    StringVector.of(name), new IntVector(ColumnType.INT32, ids, size, null)));
        }
        return batches;
    }

    private record Sorted(List<List<Object>> rows, int spilledRuns, long spilledBytes) {
    }

    private static Sorted sort(final List<Batch> input, final long limit, final QueryMemory memory) {
        final Sort sort = new Sort(ROWS, KEYS, limit).memory(memory.operator("sort " + KEYS));
        final ResultCollector result = new ResultCollector(ROWS);
        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            final Pipeline sorting = new Pipeline("sort", new MaterializedSource(ROWS, () -> input, false), List.of(),
                    sort, List.of());
            executor.run(List.of(sorting, new Pipeline("out", sort.output(), List.of(), result, List.of(sorting))));
        }
        return new Sorted(result.result().rows(), sort.spilledRuns(), memory.spilledBytes());
    }

    @Property(tries = 25)
    void aSpilledSortEqualsTheSortInMemory(@ForAll @LongRange(max = 1000) final long seed,
                                           @ForAll @IntRange(min = 1, max = 12_000) final int n,
                                           @ForAll @IntRange(min = 0, max = 3) final int limitKind,
                                           @ForAll @IntRange(min = 8, max = 64) final int budgetKib) throws Exception {
        final List<Batch> input = rows(seed, n);
        final long limit = switch (limitKind) {
            case 0 -> Sort.NO_LIMIT;
            case 1 -> 1;
            case 2 -> 100;
            default -> n / 2;
        };
        final Sorted inMemory = sort(input, limit, QueryMemory.unbounded());
        final Path root = Files.createTempDirectory("spill-sort");
        try {
            final QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), budgetKib * 1024L,
                    SpillSpace.under(root).query());
            final Sorted spilled;
            try {
                spilled = sort(input, limit, memory);
            } finally {
                memory.close();
            }
            assertThat(spilled.rows()).isEqualTo(inMemory.rows());
            if (total(input) > budgetKib * 1024L) {
                assertThat(spilled.spilledRuns()).isPositive();
                assertThat(spilled.spilledBytes()).isPositive();
            }
            assertThat(SpillSpace.under(root).folder()).satisfiesAnyOf(
                    f -> assertThat(f).doesNotExist(), f -> assertThat(f).isEmptyDirectory());
        } finally {
            removeAll(root);
        }
    }

    static void removeAll(final Path root) throws java.io.IOException {
        try (var paths = Files.walk(root)) {
            for (final Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static long total(final List<Batch> input) {
        long bytes = 0;
        for (final Batch b : input) {
            bytes += QueryMemory.bytesOf(b);
        }
        return bytes;
    }

    @org.junit.jupiter.api.Test
    void aQueryCancelledWhileItReadsItsSpilledRunsLeavesNoFiles() throws Exception {
        final List<Batch> input = rows(11, 20_000);
        final Path root = Files.createTempDirectory("spill-cancel");
        try {
            final QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 32 * 1024,
                    SpillSpace.under(root).query());
            final Cancellation cancellation = new Cancellation();
            final Sort sort = new Sort(ROWS, KEYS, Sort.NO_LIMIT).memory(memory.operator("sort " + KEYS));
            // The reader of the sorted rows is cancelled (as the coordinator's CANCEL does) at its first batch.
            final Sink<BatchConsumer> cancelling = new Sink<>() {
                @Override
                public BatchConsumer createLocal() {
                    return batch -> cancellation.cancel(new IllegalStateException("cancelled by the test"));
                }

                @Override
                public void combine(final BatchConsumer local) {
                }

                @Override
                public void finish() {
                }
            };
            try (PipelineExecutor executor = new PipelineExecutor(2)) {
                final Pipeline sorting = new Pipeline("sort", new MaterializedSource(ROWS, () -> input, false),
                        List.of(), sort, List.of());
                final Pipeline reading = new Pipeline("out", sort.output(), List.of(), cancelling, List.of(sorting));
                try {
                    assertThatThrownBy(() -> executor.run(List.of(sorting, reading), cancellation))
                            .hasMessageContaining("cancelled by the test");
                } finally {
                    memory.close();
                }
            }
            assertThat(sort.spilledRuns()).isPositive();
            assertThat(memory.spillFiles()).isPositive();
            assertThat(SpillSpace.under(root).folder()).isEmptyDirectory();
        } finally {
            removeAll(root);
        }
    }

    @org.junit.jupiter.api.Test
    void withSpillingOffASortPastItsBudgetFailsNamingIt() {
        final List<Batch> input = rows(7, 20_000);
        try (QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 32 * 1024)) {
            assertThatThrownBy(() -> sort(input, Sort.NO_LIMIT, memory)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("sort [")
                    .hasMessageContaining("spilling to disk is off");
        }
    }
}
