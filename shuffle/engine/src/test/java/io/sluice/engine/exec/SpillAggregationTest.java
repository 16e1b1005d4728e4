package io.sluice.engine.exec;

import static io.sluice.engine.exec.PartialAggregationTest.AGGREGATES;
import static io.sluice.engine.exec.PartialAggregationTest.INPUT;
import static io.sluice.engine.exec.PartialAggregationTest.multiset;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillSpace;
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
import org.junit.jupiter.api.Test;

/**
 * A group-by past its memory budget with spilling on writes its groups to partitions on disk and groups
 * them again partition by partition: in one phase, and as PARTIAL then FINAL (merged, or by bucket as a
 * shuffle group), the rows equal those of the
 * aggregation in memory, and its files are gone when the query's memory closes. With spilling off it fails
 * with the named error.
 */
class SpillAggregationTest {
    private record Grouped(List<List<Object>> rows, long spilledBytes) {
    }

    private static QueryResult aggregate(final PipelineExecutor executor, final HashAggregate aggregation,
                                         final RowType rowType, final List<Batch> batches) {
        final Pipeline in = new Pipeline("aggregate", new MaterializedSource(rowType, () -> batches, false),
                List.of(), aggregation, List.of());
        final ResultCollector out = new ResultCollector(aggregation.outputType());
        executor.run(List.of(in, new Pipeline("out", aggregation.output(), List.of(), out, List.of(in))));
        return out.result();
    }

    /** One phase, or PARTIAL over each part and FINAL over the states, accounted in {@code memory}. */
    private static Grouped group(final PipelineExecutor executor, final List<List<Batch>> parts,
                                 final PartialAggregationTest.Keys keys, final boolean twoPhases,
                                 final boolean shuffled, final QueryMemory memory) {
        if (!twoPhases) {
            final List<Batch> all = new ArrayList<>();
            parts.forEach(all::addAll);
            final HashAggregate single = new HashAggregate(INPUT, keys.keys, AGGREGATES)
                    .memory(memory.operator("group by"));
            return new Grouped(aggregate(executor, single, INPUT, all).rows(), single.spilledBytes());
        }
        final RowType stateType = HashAggregate.stateType(INPUT, keys.keys, AGGREGATES);
        final List<Batch> states = new ArrayList<>();
        long spilled = 0;
        for (final List<Batch> part : parts) {
            final HashAggregate partial = new HashAggregate(INPUT, keys.keys, AGGREGATES, false,
                    AggregationPhase.PARTIAL).memory(memory.operator("partial group by"));
            states.addAll(aggregate(executor, partial, INPUT, part).batches());
            spilled += partial.spilledBytes();
        }
        final HashAggregate fin = new HashAggregate(INPUT, keys.keys, AGGREGATES, shuffled, AggregationPhase.FINAL)
                .memory(memory.operator("final group by"));
        final List<List<Object>> rows = aggregate(executor, fin, stateType,
                shuffled ? PartialAggregationTest.buckets(states, keys.keys.size()) : states).rows();
        return new Grouped(rows, spilled + fin.spilledBytes());
    }

    @Property(tries = 10)
    void aSpilledGroupByEqualsTheOneInMemory(@ForAll @LongRange(max = 1_000_000) final long seed,
                                            @ForAll final boolean twoPhases,
                                            @ForAll final boolean shuffledFinal,
                                            @ForAll final boolean expressionKey,
                                            @ForAll @IntRange(min = 1, max = 3) final int cores,
                                            @ForAll @IntRange(min = 16, max = 96) final int budgetKib) throws Exception {
        final Random random = new Random(seed);
        final int[] groupCounts = {3, 500, 20_000, 1_000_000};
        final int groups = groupCounts[random.nextInt(groupCounts.length)];
        final PartialAggregationTest.Keys keys = expressionKey ? PartialAggregationTest.Keys.EXPRESSION
                : PartialAggregationTest.Keys.TWO_COLUMNS;
        final List<List<Batch>> parts = PartialAggregationTest.Rows.random(random, 1 + random.nextInt(20_000), groups)
                .split(random, 1 + random.nextInt(3));
        final Path root = Files.createTempDirectory("spill-group");
        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            final Grouped inMemory = group(executor, parts, keys, twoPhases, shuffledFinal, QueryMemory.unbounded());
            final QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), budgetKib * 1024L,
                    SpillSpace.under(root).query());
            final Grouped spilled;
            try {
                spilled = group(executor, parts, keys, twoPhases, shuffledFinal, memory);
            } finally {
                memory.close();
            }
            // Double.equals compares the bits, so the averages must be bit for bit the same.
            assertThat(multiset(spilled.rows())).isEqualTo(multiset(inMemory.rows()));
            // A group takes 150 bytes or more of the budget: more groups than budget / 100 do not fit.
            if (inMemory.rows().size() > budgetKib * 1024L / 100) {
                assertThat(spilled.spilledBytes()).isPositive();
            }
            assertThat(SpillSpace.under(root).folder()).satisfiesAnyOf(
                    f -> assertThat(f).doesNotExist(), f -> assertThat(f).isEmptyDirectory());
        } finally {
            SpillSortTest.removeAll(root);
        }
    }

    @Test
    void eachLevelSplitsByNewHashBitsAndPastTheLastTheErrorNamesTheOperator() {
        // Hashes that share their top 4 bits after mixing land in one partition at level 0 and spread at level 1.
        final long[] sameFirst = new long[64];
        int found = 0;
        for (long h = 0; found < sameFirst.length; h++) {
            if (SpillPartitions.partition(h, 0) == 5) {
                sameFirst[found++] = h;
            }
        }
        final java.util.Set<Integer> next = new java.util.HashSet<>();
        for (final long h : sameFirst) {
            next.add(SpillPartitions.partition(h, 1));
        }
        assertThat(next).hasSizeGreaterThan(8);
        try (QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 1024)) {
            assertThatThrownBy(() -> new SpillPartitions(memory.operator("group by [g]"),
                    PartialAggregationTest.Keys.TWO_COLUMNS.keys.stream().map(k -> k.expr()).toList(), INPUT,
                    SpillPartitions.MAX_LEVEL)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("group by [g] cannot fit one partition of its rows in memory, even split 8"
                            + " times").hasMessageContaining("-Dsluice.memory.query.max=SIZE");
        }
    }

    @Test
    void withSpillingOffAGroupByPastItsBudgetFailsNamingIt() {
        final List<List<Batch>> parts = PartialAggregationTest.Rows.random(new Random(3), 20_000, 1_000_000)
                .split(new Random(4), 1);
        try (PipelineExecutor executor = new PipelineExecutor(2);
             QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 32 * 1024)) {
            assertThatThrownBy(() -> group(executor, parts, PartialAggregationTest.Keys.TWO_COLUMNS, false, false, memory))
                    .isInstanceOf(MemoryLimitException.class).hasMessageContaining("group by holds")
                    .hasMessageContaining("spilling to disk is off");
        }
    }
}
