package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A join build gives its memory back once its probe's pipeline finished (or a right semi or anti join's
 * rows were taken out), so a build of a later pipeline of the same query has the budget: two joins one
 * after the other each fit where both together would not. A released build has no table any more.
 */
class JoinBuildReleaseTest {
    private static final RowType PROBE = new RowType(List.of("pk", "ps", "pid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final RowType BUILD = new RowType(List.of("bk", "bs", "bid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));

    private static List<Batch> rows(final RowType type, final int n, final long seed) {
        final Random random = new Random(seed);
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {(long) random.nextInt(n), "s" + random.nextInt(50), (long) i});
        }
        return RowsWithNulls.batches(type, rows, random);
    }

    @Test
    void aSecondJoinHasTheMemoryOfTheFirstOnceItsProbeEnded() {
        final List<Batch> builds = rows(BUILD, 4000, 1);
        final List<Batch> probes = rows(PROBE, 4000, 2);
        long buildBytes = 0;
        for (final Batch b : builds) {
            buildBytes += QueryMemory.bytesOf(b);
        }
        final long tableBytes = buildBytes + JoinHashTable.bytesPerRow() * 4000;
        for (final JoinType type : List.of(JoinType.INNER, JoinType.RIGHT_SEMI)) {
            // Room for one build and its table, not for two (spilling off: past it the query fails).
            try (QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), tableBytes * 3 / 2);
                 PipelineExecutor executor = new PipelineExecutor(2)) {
                final List<Pipeline> pipelines = new ArrayList<>();
                final HashJoinBuild first = join(type, builds, probes, memory.operator("hash join build first"),
                        pipelines, List.of());
                final HashJoinBuild second = join(type, builds, probes, memory.operator("hash join build second"),
                        pipelines, List.of(pipelines.get(pipelines.size() - 1)));
                executor.run(pipelines);
                assertThat(memory.reserved()).as("both builds gave their memory back").isZero();
                assertThat(memory.peak()).isLessThanOrEqualTo(tableBytes * 3 / 2);
                assertThat(memory.operatorPeaks()).allSatisfy(p -> assertThat(p.peakBytes()).isPositive());
                assertThatThrownBy(() -> first.table(0)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("released after its probe ended");
                assertThatThrownBy(() -> second.table(0)).isInstanceOf(IllegalStateException.class);
            }
        }
    }

    /** A join's build and probe pipelines, the build's after {@code after}; the probe's is added last. */
    private static HashJoinBuild join(final JoinType type, final List<Batch> builds, final List<Batch> probes,
                                      final QueryMemory.Operator account, final List<Pipeline> pipelines,
                                      final List<Pipeline> after) {
        final HashJoinBuild build = new HashJoinBuild(BUILD, List.of(col("bk"))).memory(account);
        final Pipeline b = new Pipeline("build", new MaterializedSource(BUILD, () -> builds, false), List.of(), build,
                after);
        final Source probeSource = new MaterializedSource(PROBE, () -> probes, false);
        pipelines.add(b);
        if (type.buildColumnsOnly()) {
            final BuildRowMarks marks = new BuildRowMarks(PROBE, List.of(col("pk")), build, type, null);
            pipelines.add(new Pipeline("probe", probeSource, List.of(), marks, List.of(b)));
        } else {
            final HashJoinProbe probe = new HashJoinProbe(PROBE, List.of(col("pk")), build, type, null);
            pipelines.add(new Pipeline("probe", probeSource, List.of(probe), new ResultCollector(probe.outputType()),
                    List.of(b)));
        }
        return build;
    }
}
