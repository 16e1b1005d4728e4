package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillReader;
import io.sluice.engine.spill.SpillRun;
import io.sluice.engine.spill.SpillWriter;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The probe side of a hash join against a finished {@link JoinBuild} (the bucket's table of a
 * shuffle join, the one table of a broadcast join): looks each probe row's
 * key up, walks the key's build rows, and emits joined batches (probe columns, then build
 * columns) of at most {@link Block#MAX_ROWS} rows. An optional extra condition over probe and
 * build columns (a non-equi join term) is evaluated on the candidate pairs. A right semi or anti
 * join's probe emits nothing: it marks the build rows its rows match ({@link JoinHashTable#marks()}),
 * skipping those already marked, for {@link BuildRowMarks} to emit once every probe row is in.
 *
 * <p>When some partitions of the table's build rows stayed on disk ({@link JoinBuild#spilled}, a grace
 * hash join), the probe writes its rows of those partitions to disk as well, and at the end of its input
 * joins them one partition at a time: the partition's build rows loaded into a table of their own, its
 * probe rows streamed against it. A partition still too big for what the budget has left is split again,
 * both sides, by the next bits of the key hash ({@link SpillPartitions}). A probe row with a NULL key never
 * goes to disk: it matches nothing, wherever it is joined.
 */
public final class HashJoinProbe implements OperatorFactory {
    private final RowType probe;
    private final List<Expr> probeKeys;
    private final JoinBuild build;
    private final JoinType type;
    private final Expr condition;
    private final RowType joined;
    /** The probe and build columns the joined batches hold, by position in each side. */
    private final int[] probeOut;
    private final int[] buildOut;
    private final RowType output;

    /** @param condition an extra predicate over probe and build columns, or null */
    public HashJoinProbe(final RowType probe, final List<Expr> probeKeys, final JoinBuild build, final JoinType type,
                         final Expr condition) {
        this(probe, probeKeys, build, type, condition, null);
    }

    /**
     * A probe whose joined batches hold only some of the probe and build columns: what the operators
     * above read (an inner or left join without an extra condition; the others join every column).
     *
     * @param used the names of the joined columns to keep, or null for all; at least one column is kept
     */
    public HashJoinProbe(final RowType probe, final List<Expr> probeKeys, final JoinBuild build, final JoinType type,
                         final Expr condition, final Set<String> used) {
        this.probe = probe;
        this.probeKeys = List.copyOf(probeKeys);
        this.build = build;
        this.type = type;
        this.condition = condition;
        this.joined = probe.concat(build.rowType());
        final boolean narrowed = used != null && condition == null && !type.probeColumnsOnly();
        final int[] probeKept = kept(probe, narrowed ? used : null);
        final int[] buildKept = kept(build.rowType(), narrowed ? used : null);
        // A batch has a column at least: the first probe column when the operator above reads none.
        this.probeOut = probeKept.length + buildKept.length == 0 ? new int[] {0} : probeKept;
        this.buildOut = buildKept;
        this.output = type.probeColumnsOnly() ? probe : type.buildColumnsOnly() ? build.rowType()
                : select(probe, probeOut).concat(select(build.rowType(), buildOut));
        final DataType[] p = new KeyColumns(probeKeys, probe).types();
        final DataType[] b = build.keyTypes();
        if (p.length != b.length) {
            throw new IllegalArgumentException("join has " + p.length + " probe keys " + probeKeys + " but "
                    + b.length + " build keys " + build.keys());
        }
        for (int k = 0; k < p.length; k++) {
            final boolean pString = p[k].kind() == DataType.Kind.STRING;
            final boolean bString = b[k].kind() == DataType.Kind.STRING;
            final int ps = p[k].kind() == DataType.Kind.DECIMAL ? p[k].scale() : 0;
            final int bs = b[k].kind() == DataType.Kind.DECIMAL ? b[k].scale() : 0;
            if (pString != bString || ps != bs) {
                throw new IllegalArgumentException("join key " + probeKeys.get(k) + " (" + p[k] + ") cannot match "
                        + build.keys().get(k) + " (" + b[k] + "): cast one side so both have the same type");
            }
        }
        if (condition != null) {
            condition.bind(joined);
        }
        if (type == JoinType.NULL_AWARE_ANTI && (condition != null || p.length != 1)) {
            throw new IllegalArgumentException("a null-aware anti join (NOT IN) takes one key and no extra condition,"
                    + " got keys " + probeKeys + (condition == null ? "" : " and " + condition));
        }
    }

    /** Positions of a side's columns named in {@code used} (all when null). */
    private static int[] kept(final RowType side, final Set<String> used) {
        return IntStream.range(0, side.size()).filter(c -> used == null || used.contains(side.names().get(c))).toArray();
    }

    private static RowType select(final RowType side, final int[] positions) {
        final List<String> names = new ArrayList<>();
        final List<DataType> types = new ArrayList<>();
        for (final int c : positions) {
            names.add(side.names().get(c));
            types.add(side.types().get(c));
        }
        return new RowType(names, types);
    }

    @Override
    public RowType outputType() {
        return output;
    }

    @Override
    public Operator create(final BatchConsumer next) {
        return new Probe(next);
    }

    /**
     * A probe whose rows of partitions on disk stay there at the end of its input, for {@link BuildRowMarks}
     * to mark their build rows once every worker's are in ({@link Probe#aside()}).
     */
    Probe createMarking(final BatchConsumer next) {
        return new Probe(next);
    }

    /** Its probe ended: the build's tables are not met again (a right semi or anti join's are, by its marks). */
    @Override
    public void pipelineFinished() {
        build.release();
    }

    /** The build side this probe looks its keys up in. */
    public JoinBuild build() {
        return build;
    }

    @Override
    public String toString() {
        return type + " hash join probe on " + probeKeys + " = " + build.keys()
                + (condition == null ? "" : " and " + condition);
    }

    /** One worker's probe. */
    final class Probe extends Operator {
        private final KeyColumns keys = new KeyColumns(probeKeys, probe);
        private final Evaluator extra = condition == null ? null : condition.bind(joined);
        private int[] first = new int[Block.MAX_ROWS];
        private final int[] probeRows = new int[Block.MAX_ROWS];
        private int[] buildRows = new int[Block.MAX_ROWS];
        /** Whether the buffered pairs are probe rows {@code 0..pairs-1} in order, {@link #probeRows} unwritten. */
        private boolean everyProbeRow;
        private final int[] scratch = new int[Block.MAX_ROWS];
        private final boolean[] matched = new boolean[Block.MAX_ROWS];
        private int pairs;
        /** The build rows' marks of the table being probed, for a right semi or anti join; else null. */
        private boolean[] marks;
        /** Per probe {@code shuffleIdx}, the files of this worker's probe rows of each partition on disk. */
        private Map<Integer, SpillWriter[]> aside;
        private int[] partitionOf;
        private int[] asideRows;

        Probe(final BatchConsumer next) {
            super(next);
        }

        @Override
        public void accept(final Batch batch) {
            final JoinHashTable table = build.table(batch.shuffleIdx());
            final JoinPartitions spilled = build.spilled(batch.shuffleIdx());
            final Batch resident = spilled == null ? batch : setAside(batch, spilled);
            if (resident != null) {
                probe(resident, table);
            }
        }

        /**
         * Writes the rows of the partitions on disk to this worker's files for them; returns the other rows
         * (null when there are none), which meet the table now.
         */
        private Batch setAside(final Batch batch, final JoinPartitions spilled) {
            final int n = batch.rowCount();
            if (n == 0) {
                return batch;
            }
            if (partitionOf == null) {
                partitionOf = new int[Block.MAX_ROWS];
                asideRows = new int[Block.MAX_ROWS];
                aside = new HashMap<>();
            }
            keys.evaluate(batch);
            int kept = 0;
            int away = 0;
            for (int i = 0; i < n; i++) {
                final int p = keys.hasNull(i) ? -1 : SpillPartitions.partition(keys.hashes[i], 0);
                if (p >= 0 && spilled.onDisk(p)) {
                    partitionOf[i] = p;
                    away++;
                } else {
                    partitionOf[i] = -1;
                    scratch[kept++] = i;
                }
            }
            if (away == 0) {
                return batch;
            }
            final Batch resident = Vectors.select(batch, scratch, kept);
            final SpillWriter[] files = aside.computeIfAbsent(batch.shuffleIdx(),
                    b -> new SpillWriter[SpillPartitions.FANOUT]);
            for (int p = 0; p < SpillPartitions.FANOUT && away > 0; p++) {
                int m = 0;
                for (int i = 0; i < n; i++) {
                    if (partitionOf[i] == p) {
                        asideRows[m++] = i;
                    }
                }
                if (m > 0) {
                    if (files[p] == null) {
                        files[p] = build.memory().spillWriter();
                    }
                    files[p].write(Vectors.select(batch, asideRows, m));
                    away -= m;
                }
            }
            return resident;
        }

        /** Joins the rows this worker set aside, partition by partition. */
        @Override
        public void endOfInput() {
            for (final Map.Entry<Integer, List<List<SpillRun>>> e : aside().entrySet()) {
                final int shuffleIdx = e.getKey();
                final JoinPartitions spilled = build.spilled(shuffleIdx);
                for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                    final List<SpillRun> probeRuns = e.getValue().get(p);
                    if (!probeRuns.isEmpty()) {
                        // One partition at a time in the whole join: workers loading theirs at once would share
                        // what the budget has left, and one refused for what the others hold only for now would
                        // split a partition that fits, down to the last level.
                        synchronized (build.memory()) {
                            joinPartition(shuffleIdx, spilled.runs(p), false, probeRuns, 1, null);
                        }
                    }
                }
            }
        }

        /**
         * Closes the files of the rows set aside: per probe {@code shuffleIdx}, the files of each level-0
         * partition (an empty list where there are none).
         */
        Map<Integer, List<List<SpillRun>>> aside() {
            final Map<Integer, List<List<SpillRun>>> out = new TreeMap<>();
            if (aside == null) {
                return out;
            }
            for (final Map.Entry<Integer, SpillWriter[]> e : aside.entrySet()) {
                final List<List<SpillRun>> runs = new ArrayList<>(SpillPartitions.FANOUT);
                for (final SpillWriter w : e.getValue()) {
                    runs.add(w == null ? List.of() : List.of(build.memory().spilled(w.finish())));
                }
                out.put(e.getKey(), runs);
            }
            aside.clear();
            return out;
        }

        /**
         * Joins one partition: its build rows loaded into a table when the budget gives room for them, else
         * both sides split at {@code level} by the next bits of their key hash and each part joined so. The
         * probe's own files are removed once read, and the build's too when {@code ownBuild} (a split's).
         *
         * @param shuffleIdx the bucket the probe rows came with, given back to them
         * @param joined     called with each table once its probe rows went through it (its marks set), or null
         */
        void joinPartition(final int shuffleIdx, final List<SpillRun> buildRuns, final boolean ownBuild,
                           final List<SpillRun> probeRuns, final int level, final Consumer<JoinHashTable> joined) {
            final QueryMemory.Operator memory = build.memory();
            long rows = 0;
            long bytes = 0;
            for (final SpillRun r : buildRuns) {
                rows += r.rows();
                bytes += r.valueBytes();
            }
            final long need = bytes + JoinHashTable.bytesPerRow() * rows;
            if (memory.tryReserve(need)) {
                try {
                    final List<Batch> batches = new ArrayList<>();
                    for (final SpillRun r : buildRuns) {
                        JoinPartitions.readInto(r, batches);
                    }
                    final JoinHashTable table = JoinHashTable.build(build.rowType(), build.keys(), batches,
                            build.withColumns());
                    for (final SpillRun r : probeRuns) {
                        try (SpillReader reader = r.open()) {
                            for (Batch b = reader.next(); b != null; b = reader.next()) {
                                probe(shuffleIdx == Batch.NO_SHUFFLE_IDX ? b : b.withShuffleIdx(shuffleIdx), table);
                            }
                        }
                    }
                    if (joined != null) {
                        joined.accept(table);
                    }
                } finally {
                    memory.release(need);
                }
            } else {
                final SpillPartitions buildParts = new SpillPartitions(memory, build.keys(), build.rowType(), level,
                        true);
                for (final SpillRun r : buildRuns) {
                    copy(r, buildParts);
                }
                final SpillPartitions probeParts = new SpillPartitions(memory, probeKeys, probe, level, true);
                for (final SpillRun r : probeRuns) {
                    copy(r, probeParts);
                }
                final List<List<SpillRun>> buildSplit = buildParts.finish();
                final List<List<SpillRun>> probeSplit = probeParts.finish();
                for (int q = 0; q < SpillPartitions.FANOUT; q++) {
                    // A right semi or anti join (joined != null) outputs build rows, those no probe row met too.
                    if (joined == null ? probeSplit.get(q).isEmpty() : buildSplit.get(q).isEmpty()) {
                        buildSplit.get(q).forEach(JoinPartitions::delete);
                        probeSplit.get(q).forEach(JoinPartitions::delete);
                        continue;
                    }
                    joinPartition(shuffleIdx, buildSplit.get(q), true, probeSplit.get(q), level + 1, joined);
                }
            }
            probeRuns.forEach(JoinPartitions::delete);
            if (ownBuild) {
                buildRuns.forEach(JoinPartitions::delete);
            }
        }

        private static void copy(final SpillRun run, final SpillPartitions into) {
            try (SpillReader reader = run.open()) {
                for (Batch b = reader.next(); b != null; b = reader.next()) {
                    into.add(b);
                }
            }
        }

        /** Joins a batch against a table of the build. */
        private void probe(final Batch batch, final JoinHashTable table) {
            final int n = batch.rowCount();
            if (table.direct()) {
                keys.evaluateUnhashed(batch);
            } else {
                keys.evaluate(batch);
            }
            table.firstRows(keys, first);
            if (type == JoinType.NULL_AWARE_ANTI) {
                notIn(batch, n);
                return;
            }
            if (type.buildColumnsOnly()) {
                mark(batch, table, n);
                return;
            }
            if (extra == null && (type == JoinType.SEMI || type == JoinType.ANTI)) {
                final boolean semi = type == JoinType.SEMI;
                for (int i = 0; i < n; i++) {
                    matched[i] = (first[i] >= 0) == semi;
                }
                emitSelected(batch, matched);
                return;
            }
            if (type != JoinType.INNER) {
                Arrays.fill(matched, 0, n, false);
            }
            final int[] chain = table.next();
            if (type == JoinType.INNER && extra == null && table.unique() && n > 0 && allMatched(n)) {
                // A foreign key's join: probe row i pairs with build row first[i], no pair list to write.
                final int[] rows = first;
                first = buildRows;
                buildRows = rows;
                pairs = n;
                everyProbeRow = true;
                flush(batch, table, true);
                everyProbeRow = false;
                return;
            }
            if (table.unique()) {
                for (int i = 0; i < n; i++) {
                    final int row = first[i];
                    if (row >= 0) {
                        probeRows[pairs] = i;
                        buildRows[pairs] = row;
                        if (++pairs == Block.MAX_ROWS) {
                            flush(batch, table, true);
                        }
                    }
                }
            } else {
                for (int i = 0; i < n; i++) {
                    for (int row = first[i]; row >= 0; row = chain[row]) {
                        probeRows[pairs] = i;
                        buildRows[pairs] = row;
                        if (++pairs == Block.MAX_ROWS) {
                            flush(batch, table, true);
                        }
                    }
                }
            }
            flush(batch, table, true);
            switch (type) {
                case SEMI -> emitSelected(batch, matched);
                case ANTI -> {
                    for (int i = 0; i < n; i++) {
                        matched[i] = !matched[i];
                    }
                    emitSelected(batch, matched);
                }
                case LEFT -> {
                    for (int i = 0; i < n; i++) {
                        if (!matched[i]) {
                            probeRows[pairs] = i;
                            buildRows[pairs] = -1;
                            pairs++;
                        }
                    }
                    flush(batch, table, false);
                }
                case INNER, NULL_AWARE_ANTI, RIGHT_SEMI, RIGHT_ANTI -> { }
            }
        }

        /**
         * A right semi or anti join: marks the build rows a probe row matches. Without an extra condition
         * a key's build rows are marked all at once, so a marked first row means its chain is done.
         */
        private void mark(final Batch batch, final JoinHashTable table, final int n) {
            marks = table.marks();
            final int[] chain = table.next();
            if (extra == null) {
                for (int i = 0; i < n; i++) {
                    final int first = this.first[i];
                    if (first >= 0 && !marks[first]) {
                        for (int row = first; row >= 0; row = chain[row]) {
                            marks[row] = true;
                        }
                    }
                }
                return;
            }
            for (int i = 0; i < n; i++) {
                for (int row = first[i]; row >= 0; row = chain[row]) {
                    if (!marks[row]) {
                        probeRows[pairs] = i;
                        buildRows[pairs] = row;
                        if (++pairs == Block.MAX_ROWS) {
                            flush(batch, table, true);
                        }
                    }
                }
            }
            flush(batch, table, true);
        }

        /**
         * {@code key NOT IN (build keys)}: every row over an empty build, none when a build key is NULL,
         * else the rows whose key is not NULL and unmatched.
         */
        private void notIn(final Batch batch, final int n) {
            if (build.empty()) {
                next.accept(batch);
                return;
            }
            if (build.sawNullKey()) {
                return;
            }
            for (int i = 0; i < n; i++) {
                matched[i] = first[i] < 0 && !keys.hasNull(i);
            }
            emitSelected(batch, matched);
        }

        private void emitSelected(final Batch batch, final boolean[] keep) {
            final Batch kept = Vectors.select(batch, keep, scratch);
            if (kept != null) {
                next.accept(kept);
            }
        }

        /** Whether every probe row has a build row ({@link #first} holds no -1). */
        private boolean allMatched(final int n) {
            int any = 0;
            for (int i = 0; i < n; i++) {
                any |= first[i];
            }
            return any >= 0;
        }

        private static boolean isIdentity(final int[] rows, final int n) {
            for (int i = 0; i < n; i++) {
                if (rows[i] != i) {
                    return false;
                }
            }
            return true;
        }

        /** Turns the buffered pairs into a joined batch, applies the extra condition, marks matches. */
        private void flush(final Batch batch, final JoinHashTable table, final boolean candidates) {
            if (pairs == 0) {
                return;
            }
            final ColumnVector[] columns = new ColumnVector[probeOut.length + buildOut.length];
            final boolean everyRowOnce = pairs == batch.rowCount() && (everyProbeRow || isIdentity(probeRows, pairs));
            for (int i = 0; i < probeOut.length; i++) {
                // Every probe row matched once (a foreign key's join): its columns go on as they are.
                columns[i] = everyRowOnce ? batch.column(probeOut[i])
                        : Vectors.gatherPresent(batch.column(probeOut[i]), probeRows, pairs);
            }
            for (int i = 0; i < buildOut.length; i++) {
                final ColumnVector c = table.column(buildOut[i]);
                columns[probeOut.length + i] = candidates ? Vectors.gatherPresent(c, buildRows, pairs)
                        : Vectors.gather(c, buildRows, pairs);
            }
            // The probe batch's bucket goes on with its rows, for a partitioned join or group-by above.
            Batch out = batch.shuffleIdx() == Batch.NO_SHUFFLE_IDX ? Batch.of(columns)
                    : Batch.of(columns).withShuffleIdx(batch.shuffleIdx());
            if (candidates) {
                if (extra != null) {
                    final boolean[] pass = extra.trues(out);
                    if (type.buildColumnsOnly()) {
                        for (int p = 0; p < pairs; p++) {
                            if (pass[p]) {
                                // Only ever set: another worker may be marking the same row.
                                marks[buildRows[p]] = true;
                            }
                        }
                        pairs = 0;
                        return;
                    }
                    for (int p = 0; p < pairs && type != JoinType.INNER; p++) {
                        matched[probeRows[p]] |= pass[p];
                    }
                    out = Vectors.select(out, pass, scratch);
                } else if (type != JoinType.INNER) {
                    // An inner join emits its pairs and asks no more of which probe rows matched.
                    for (int p = 0; p < pairs; p++) {
                        matched[probeRows[p]] = true;
                    }
                }
            }
            pairs = 0;
            if (out != null && (type == JoinType.INNER || type == JoinType.LEFT)) {
                next.accept(out);
            }
        }
    }
}
