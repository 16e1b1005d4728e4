package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.engine.spill.SpillReader;
import io.sluice.engine.spill.SpillRun;
import io.sluice.engine.spill.SpillWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The end of a right semi or anti join's probe pipeline: each worker's {@link HashJoinProbe} marks
 * the build rows its probe rows match, and once every worker is done the build rows marked (right
 * semi) or not (right anti) are the join's output ({@link #output()}). A partitioned build's rows
 * come out one morsel per bucket, tagged with it, as its buckets went in; a broadcast build's in one
 * morsel per batch. Every table's rows are emitted here, so a table must not be probed on another
 * process as well: a cluster partitions the build.
 *
 * <p>A build whose partitions partly stayed on disk (a grace hash join) has its workers' probe rows of
 * those partitions on disk too; once every worker is done, each such partition's build rows are loaded,
 * marked by all of its probe rows, and the rows the join outputs written to a file of their own, which
 * the output reads after the table's rows in memory.
 */
public final class BuildRowMarks implements Sink<HashJoinProbe.Probe> {
    private final HashJoinProbe probe;
    private final JoinBuild build;
    private final boolean semi;
    private List<List<Batch>> byTable;
    /** Per probe {@code shuffleIdx}, per level-0 partition, the probe rows the workers set aside. */
    private final Map<Integer, List<List<SpillRun>>> aside = new HashMap<>();
    /** Per table, the files of output rows of its partitions that were on disk. */
    private List<List<SpillRun>> spilledByTable;

    /**
     * @param type      {@link JoinType#RIGHT_SEMI} or {@link JoinType#RIGHT_ANTI}
     * @param condition an extra predicate over probe and build columns, or null
     */
    public BuildRowMarks(final RowType probeRows, final List<Expr> probeKeys, final JoinBuild build,
                         final JoinType type, final Expr condition) {
        if (!type.buildColumnsOnly()) {
            throw new IllegalArgumentException("build rows are marked for a right semi or anti join, not " + type);
        }
        this.probe = new HashJoinProbe(probeRows, probeKeys, build, type, condition);
        this.build = build;
        this.semi = type == JoinType.RIGHT_SEMI;
    }

    /** The build side whose rows are marked. */
    public JoinBuild build() {
        return build;
    }

    /** The build rows the join outputs, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new Output();
    }

    @Override
    public HashJoinProbe.Probe createLocal() {
        return probe.createMarking(batch -> {
            throw new IllegalStateException("a right semi or anti join's probe emits no rows, got " + batch);
        });
    }

    @Override
    public void combine(final HashJoinProbe.Probe local) {
        // The marks are in the build's tables already; the rows set aside wait for every worker's.
        final Map<Integer, List<List<SpillRun>>> runs = local.aside();
        synchronized (aside) {
            runs.forEach((shuffleIdx, partitions) -> {
                final List<List<SpillRun>> all = aside.computeIfAbsent(shuffleIdx, b -> {
                    final List<List<SpillRun>> empty = new ArrayList<>();
                    for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                        empty.add(new ArrayList<>());
                    }
                    return empty;
                });
                for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                    all.get(p).addAll(partitions.get(p));
                }
            });
        }
    }

    @Override
    public void finish() {
        final List<List<Batch>> out = new ArrayList<>();
        final List<List<SpillRun>> spilled = new ArrayList<>();
        final HashJoinProbe.Probe marking = createLocal();
        for (int t = 0; t < build.tableCount(); t++) {
            final List<Batch> rows = build.table(t).rowsMarked(semi);
            final int bucket = t;
            if (build.partitioned()) {
                rows.replaceAll(b -> b.withShuffleIdx(bucket));
            }
            out.add(rows);
            spilled.add(markSpilled(t, marking));
        }
        byTable = out;
        spilledByTable = spilled;
        build.release();
    }

    /** Marks the build rows of table {@code t}'s partitions on disk; the files of the rows output. */
    private List<SpillRun> markSpilled(final int t, final HashJoinProbe.Probe marking) {
        final JoinPartitions partitions = build.spilled(t);
        if (partitions == null) {
            return List.of();
        }
        final List<SpillRun> out = new ArrayList<>();
        for (int p = 0; p < SpillPartitions.FANOUT; p++) {
            if (!partitions.onDisk(p)) {
                continue;
            }
            final List<SpillRun> probeRuns = new ArrayList<>();
            for (final Map.Entry<Integer, List<List<SpillRun>>> e : aside.entrySet()) {
                // A broadcast build's one table meets the probe rows of every bucket.
                if (!build.partitioned() || e.getKey() == t) {
                    probeRuns.addAll(e.getValue().get(p));
                }
            }
            final SpillWriter writer = build.memory().spillWriter();
            marking.joinPartition(Batch.NO_SHUFFLE_IDX, partitions.runs(p), false, probeRuns, 1, table -> {
                for (final Batch b : table.rowsMarked(semi)) {
                    writer.write(b);
                }
            });
            out.add(build.memory().spilled(writer.finish()));
        }
        return out;
    }

    /**
     * The rows output: for a partitioned build one morsel per bucket (its rows in memory, then those of its
     * partitions that were on disk), tagged with it; for a broadcast build one morsel per batch or file.
     */
    private final class Output implements Source {
        private int inMemory;

        @Override
        public RowType rowType() {
            return build.rowType();
        }

        @Override
        public int morselCount() {
            if (build.partitioned()) {
                return byTable.size();
            }
            inMemory = byTable.isEmpty() ? 0 : byTable.get(0).size();
            return inMemory + (spilledByTable.isEmpty() ? 0 : spilledByTable.get(0).size());
        }

        @Override
        public boolean ordered() {
            return false;
        }

        @Override
        public Reader openReader() {
            return (morsel, out) -> {
                if (!build.partitioned()) {
                    if (morsel < inMemory) {
                        out.accept(byTable.get(0).get(morsel));
                    } else {
                        read(spilledByTable.get(0).get(morsel - inMemory), Batch.NO_SHUFFLE_IDX, out);
                    }
                    return;
                }
                for (final Batch b : byTable.get(morsel)) {
                    out.accept(b);
                }
                for (final SpillRun run : spilledByTable.get(morsel)) {
                    read(run, morsel, out);
                }
            };
        }

        private void read(final SpillRun run, final int shuffleIdx, final BatchConsumer out) {
            try (SpillReader reader = run.open()) {
                for (Batch b = reader.next(); b != null; b = reader.next()) {
                    out.accept(shuffleIdx == Batch.NO_SHUFFLE_IDX ? b : b.withShuffleIdx(shuffleIdx));
                }
            }
        }

        @Override
        public String toString() {
            return "build rows of " + BuildRowMarks.this;
        }
    }

    @Override
    public String toString() {
        return (semi ? "right semi" : "right anti") + " join marks of " + build;
    }
}
