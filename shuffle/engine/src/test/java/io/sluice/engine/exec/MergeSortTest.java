package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sorted runs made by several workers, their batches interleaved as a gather delivers them, merged
 * by {@link MergeSort}: the rows come out as a plain Java comparator orders them, and as a full
 * {@link Sort} of the same rows orders them where rows hold nulls; with a limit, the first rows.
 */
class MergeSortTest {
    private static final RowType ROWS = new RowType(List.of("price", "name", "id"),
            List.of(DataType.decimal(2), DataType.STRING, DataType.INT32));
    private static final List<SortKey> KEYS = List.of(SortKey.desc("price"), SortKey.asc("name"), SortKey.asc("id"));

    /** Rows in batches of up to 7: few prices and names, so keys tie; ids tell every row apart. */
    private static List<Batch> rows(final long seed, final int n, final boolean nulls) {
        final Random random = new Random(seed);
        final List<Batch> batches = new ArrayList<>();
        int id = 0;
        while (id < n) {
            final int size = Math.min(n - id, 1 + random.nextInt(7));
            final long[] price = new long[size];
            final String[] name = new String[size];
            final int[] ids = new int[size];
            final long[] priceNulls = new long[NullMask.words(size)];
            for (int i = 0; i < size; i++) {
                price[i] = random.nextInt(5) * 100L;
                name[i] = nulls && random.nextInt(6) == 0 ? null : "n" + random.nextInt(4);
                ids[i] = id++;
                if (nulls && random.nextInt(6) == 0) {
                    NullMask.setNull(priceNulls, i);
                }
            }
            batches.add(Batch.of(new LongVector(ColumnType.decimal(15, 2), price, size, nulls ? priceNulls : null),
                    StringVector.of(name), new IntVector(ColumnType.INT32, ids, size, null)));
        }
        return batches;
    }

    private static final Comparator<List<Object>> JAVA_ORDER = Comparator
            .comparing((List<Object> r) -> (java.math.BigDecimal) r.get(0), Comparator.reverseOrder())
            .thenComparing(r -> (String) r.get(1))
            .thenComparingLong(r -> ((Number) r.get(2)).longValue());

    /** The rows sorted into runs by {@code cores} workers, then merged from one interleaved stream. */
    private static MergeResult merged(final List<Batch> input, final int cores, final long limit) {
        final SortedRuns runs = new SortedRuns(ROWS, KEYS, limit, 10, cores);
        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            executor.run(List.of(new Pipeline("runs", new MaterializedSource(ROWS, () -> input, false), List.of(),
                    runs, List.of())));
        }
        final Source out = runs.output();
        final int k = out.morselCount();
        final List<List<Batch>> byRun = new ArrayList<>();
        final Source.Reader reader = out.openReader();
        for (int m = 0; m < k; m++) {
            final List<Batch> run = new ArrayList<>();
            reader.produce(m, run::add);
            byRun.add(run);
        }
        final MergeSort merge = new MergeSort(out.rowType(), KEYS, limit);
        final MergeSort.Runs local = merge.createLocal();
        // A gather interleaves the senders: one batch of each run in turn, runs in reverse.
        for (int i = 0, left = 1; left > 0; i++) {
            left = 0;
            for (int r = byRun.size() - 1; r >= 0; r--) {
                if (i < byRun.get(r).size()) {
                    local.accept(byRun.get(r).get(i));
                    left++;
                }
            }
        }
        merge.combine(local);
        merge.finish();
        final ResultCollector result = new ResultCollector(ROWS);
        try (PipelineExecutor executor = new PipelineExecutor(1)) {
            executor.run(List.of(new Pipeline("out", merge.output(), List.of(), result, List.of())));
        }
        return new MergeResult(result.result().rows(), merge, k);
    }

    private record MergeResult(List<List<Object>> rows, MergeSort merge, int runs) {
    }

    private static List<List<Object>> fullSort(final List<Batch> input, final long limit) {
        final Sort sort = new Sort(ROWS, KEYS, limit);
        final ResultCollector result = new ResultCollector(ROWS);
        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            final Pipeline sorting = new Pipeline("sort", new MaterializedSource(ROWS, () -> input, false), List.of(),
                    sort, List.of());
            executor.run(List.of(sorting, new Pipeline("out", sort.output(), List.of(), result, List.of(sorting))));
        }
        return result.result().rows();
    }

    private static List<List<Object>> javaSorted(final List<Batch> input, final long limit) {
        final List<List<Object>> all = new ArrayList<>(new QueryResult(ROWS, input).rows());
        all.sort(JAVA_ORDER);
        return all.subList(0, limit == Sort.NO_LIMIT ? all.size() : (int) Math.min(limit, all.size()));
    }

    @Test
    void mergedRunsComeOutInTheOrderOfAJavaComparator() {
        for (long seed = 0; seed < 12; seed++) {
            final List<Batch> input = rows(seed, 40 + (int) seed * 37, false);
            for (final long limit : new long[] {Sort.NO_LIMIT, 0, 1, 5, 100, 10_000}) {
                final MergeResult m = merged(input, 3, limit);
                assertThat(m.rows()).as("seed %s limit %s", seed, limit).isEqualTo(javaSorted(input, limit));
                assertThat(m.merge().rowsMerged()).isEqualTo(m.rows().size());
                assertThat(m.merge().runs()).isEqualTo(m.runs()).isBetween(limit == 0 ? 0L : 1L, 3L);
            }
        }
    }

    @Test
    void withNullsTheMergeOrdersAsTheFullSort() {
        for (long seed = 0; seed < 8; seed++) {
            final List<Batch> input = rows(seed, 200, true);
            for (final long limit : new long[] {Sort.NO_LIMIT, 7}) {
                assertThat(merged(input, 3, limit).rows()).as("seed %s limit %s", seed, limit)
                        .isEqualTo(fullSort(input, limit));
            }
        }
    }

    @Test
    void noRowsOneRowAndOneWorker() {
        final MergeResult none = merged(List.of(), 3, Sort.NO_LIMIT);
        assertThat(none.rows()).isEmpty();
        assertThat(none.merge().runs()).isZero();
        final List<Batch> one = rows(1, 1, false);
        assertThat(merged(one, 3, Sort.NO_LIMIT).rows()).isEqualTo(javaSorted(one, Sort.NO_LIMIT));
        final List<Batch> many = rows(2, 300, false);
        assertThat(merged(many, 1, Sort.NO_LIMIT).rows()).isEqualTo(javaSorted(many, Sort.NO_LIMIT));
    }

    @Test
    void aMergeSortNeedsTheRunColumnAndSortedRunsReserveIt() {
        assertThatThrownBy(() -> new MergeSort(ROWS, KEYS, Sort.NO_LIMIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(SortedRuns.RUN_COLUMN);
        assertThatThrownBy(() -> new SortedRuns(SortedRuns.runTagged(ROWS), KEYS, Sort.NO_LIMIT, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }
}
