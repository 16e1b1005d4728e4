package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilter;
import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Hash joins on keys with NULLs, broadcast and partitioned (by the hash or range shuffle's
 * bucket function, which sends NULL keys to one bucket), against SQL's rules applied to the
 * same rows by a nested loop in plain Java: a NULL key equals nothing, so INNER and SEMI drop the
 * row, LEFT (and RIGHT, a LEFT with the sides swapped) emits it unmatched, ANTI (NOT EXISTS) keeps
 * it; the null-aware anti join (NOT IN) keeps every probe row over an empty build, none when a
 * build key is NULL, else the rows whose key is not NULL and unmatched. A build stored by its key (every
 * key once, ascending runs in any order) is looked up by position, and joins as any build does; a hole,
 * a duplicate or two keys out of order make it an ordinary direct table.
 */
class NullJoinKeysTest {
    private static final RowType PROBE = new RowType(List.of("pk", "ps", "pid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final RowType BUILD = new RowType(List.of("bk", "bs", "bid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final int BUCKETS = 3;

    /** The join keys: one integer of a small range (looked up by value), one spread wide (hashed), a string, both. */
    enum Keys {
        DENSE(1), SPARSE(1_000_000_007L), STRING(1), BOTH(1);

        final long spread;

        Keys(final long spread) {
            this.spread = spread;
        }

        List<Expr> probe() {
            return this == STRING ? List.of(col("ps")) : this == BOTH ? List.of(col("pk"), col("ps")) : List.of(col("pk"));
        }

        List<Expr> build() {
            return this == STRING ? List.of(col("bs")) : this == BOTH ? List.of(col("bk"), col("bs")) : List.of(col("bk"));
        }

        /** The key of a row (k, s, id) as a list, with null for a NULL column. */
        List<Object> of(final Object[] row) {
            return this == STRING ? Arrays.asList(row[1]) : this == BOTH ? Arrays.asList(row[0], row[1])
                    : Arrays.asList(row[0]);
        }
    }

    enum Kind { INNER, LEFT, RIGHT, SEMI, ANTI, NULL_AWARE_ANTI }

    private static List<Object[]> rows(final Random random, final int n, final double nulls, final long spread,
                                       final long firstId) {
        return RowsWithNulls.joinRows(random, n, nulls, spread, firstId, 5);
    }

    @Property(tries = 200)
    void nullKeysMatchNothingInEveryJoin(@ForAll final long seed, @ForAll final Keys keys, @ForAll final Kind kind,
                                         @ForAll final boolean partitioned) {
        if (kind == Kind.NULL_AWARE_ANTI && keys == Keys.BOTH) {
            return;
        }
        final Random random = new Random(seed);
        final double[] nullShares = {0, 0.25, 1};
        final List<Object[]> probe = rows(random, new int[] {0, 1, 9, 300}[random.nextInt(4)],
                nullShares[random.nextInt(3)], keys.spread, 0);
        final List<Object[]> build = rows(random, new int[] {0, 1, 5, 200}[random.nextInt(4)],
                nullShares[random.nextInt(3)], keys.spread, 10_000);
        final List<List<Object>> actual;
        if (kind == Kind.RIGHT) {
            actual = new ArrayList<>();
            for (final List<Object> r : join(build, probe, keys, JoinType.LEFT, partitioned, random, true)) {
                final List<Object> reordered = new ArrayList<>(r.subList(3, 6));
                reordered.addAll(r.subList(0, 3));
                actual.add(reordered);
            }
        } else {
            actual = join(probe, build, keys, JoinType.valueOf(kind.name()), partitioned, random, false);
        }
        assertThat(RowsWithNulls.multiset(actual)).isEqualTo(RowsWithNulls.multiset(reference(probe, build, keys, kind)));
    }

    @Test
    void notInIsEmptyOverABuildWithANullAndKeepsNullProbeKeysOverAnEmptyBuild() {
        final List<Object[]> probe = List.of(new Object[] {null, "x", 1L}, new Object[] {1L, "x", 2L},
                new Object[] {3L, "x", 3L}, new Object[] {0L, "x", 4L});
        final List<Object[]> withNull = List.of(new Object[] {1L, "x", 10L}, new Object[] {null, "x", 11L});
        final List<Object[]> withoutNull = List.of(new Object[] {1L, "x", 10L}, new Object[] {2L, "x", 11L});
        for (final boolean partitioned : new boolean[] {false, true}) {
            final Random random = new Random(7);
            assertThat(join(probe, withNull, Keys.DENSE, JoinType.NULL_AWARE_ANTI, partitioned, random, false))
                    .isEmpty();
            assertThat(join(probe, List.of(), Keys.DENSE, JoinType.NULL_AWARE_ANTI, partitioned, random, false))
                    .extracting(r -> r.get(2)).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
            assertThat(join(probe, withoutNull, Keys.DENSE, JoinType.NULL_AWARE_ANTI, partitioned, random, false))
                    .extracting(r -> r.get(2)).containsExactlyInAnyOrder(3L, 4L);
            assertThat(join(probe, withNull, Keys.DENSE, JoinType.ANTI, partitioned, random, false))
                    .extracting(r -> r.get(2)).containsExactlyInAnyOrder(1L, 3L, 4L);
        }
    }

    @Test
    void aRuntimeFilterHoldsOnlyTheBuildKeysThatAreNotNull() {
        final List<Object[]> build = List.of(new Object[] {null, null, 1L}, new Object[] {5L, "x", 2L},
                new Object[] {null, null, 3L}, new Object[] {7L, "y", 4L});
        final List<Batch> batches = RowsWithNulls.batches(BUILD, build, new Random(3));
        final RuntimeFilterHandle handle = new RuntimeFilterHandle(0, List.of("bk"), List.of("pk"), FilterScope.LOCAL,
                1, RuntimeFilterConfig.defaults(), false);
        final FilterPartial integer = new RuntimeFilterBuild(handle, null, List.of(col("bk")), BUILD, 1024)
                .collect(batches);
        assertThat(integer.rows()).isEqualTo(2);
        final RuntimeFilter f = integer.finish(RuntimeFilterConfig.defaults());
        assertThat(f.mayContainValue(5)).isTrue();
        assertThat(f.mayContainValue(7)).isTrue();
        assertThat(f.mayContainValue(0)).as("the value a NULL row holds").isFalse();
        assertThat(f.mayOverlap(0, 4)).isFalse();
        final FilterPartial hashed = new RuntimeFilterBuild(handle, null, List.of(col("bk"), col("bs")), BUILD, 1024)
                .collect(batches);
        assertThat(hashed.rows()).isEqualTo(2);
    }

    @Property(tries = 100)
    void aJoinKeepingSomeColumnsGivesThoseColumnsOfTheWholeJoin(@ForAll final long seed, @ForAll final Keys keys,
                                                                @ForAll final boolean left,
                                                                @ForAll final boolean partitioned,
                                                                @ForAll @IntRange(min = 0, max = 63) final int mask) {
        final Random random = new Random(seed);
        final List<Object[]> probe = rows(random, 1 + random.nextInt(300), 0.2, keys.spread, 0);
        final List<Object[]> build = rows(random, random.nextInt(200), 0.2, keys.spread, 10_000);
        final JoinType type = left ? JoinType.LEFT : JoinType.INNER;
        final List<String> names = PROBE.concat(BUILD).names();
        final Set<String> used = new HashSet<>();
        for (int c = 0; c < names.size(); c++) {
            if ((mask & (1 << c)) != 0) {
                used.add(names.get(c));
            }
        }
        final List<Integer> kept = new ArrayList<>();
        for (int c = 0; c < names.size(); c++) {
            if (used.contains(names.get(c))) {
                kept.add(c);
            }
        }
        if (kept.isEmpty()) {
            kept.add(0);
        }
        final List<List<Object>> expected = new ArrayList<>();
        for (final List<Object> row : join(probe, build, keys, type, partitioned, new Random(seed), false, null)) {
            final List<Object> projected = new ArrayList<>();
            for (final int c : kept) {
                projected.add(row.get(c));
            }
            expected.add(projected);
        }
        final List<List<Object>> actual = join(probe, build, keys, type, partitioned, new Random(seed), false, used);
        assertThat(RowsWithNulls.multiset(actual)).isEqualTo(RowsWithNulls.multiset(expected));
    }

    /** How the keys of a build stored by its key are spoiled, if at all. */
    enum StoredKeys { EVERY_KEY_ONCE, A_HOLE, A_DUPLICATE, TWO_SWAPPED }

    /**
     * Build rows holding keys {@code lo + i * step} for i in {@code 0..n-1} once each in ascending order, spoiled
     * as {@code spoil} says
     * (a middle key: the last one dropped would leave no hole).
     */
    private static List<Object[]> storedRows(final Random random, final int n, final long lo, final long step,
                                            final StoredKeys spoil) {
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {lo + i * step, "s" + random.nextInt(4), 10_000L + i});
        }
        final int at = 1 + random.nextInt(n - 2);
        switch (spoil) {
            case A_HOLE -> rows.remove(at);
            case A_DUPLICATE -> rows.add(at, new Object[] {lo + at * step, "dup", 20_000L});
            case TWO_SWAPPED -> rows.set(at, rows.set(at + 1, rows.get(at)));
            case EVERY_KEY_ONCE -> { }
        }
        return rows;
    }

    @Property(tries = 100)
    void aBuildStoredByItsKeyIsLookedUpByPositionAndJoinsLikeAnyOther(
            @ForAll final long seed, @ForAll final StoredKeys spoil, @ForAll final Kind kind,
            @ForAll final boolean partitioned, @ForAll final boolean sparse) {
        if (kind == Kind.RIGHT) {
            return;
        }
        final Random random = new Random(seed);
        final int n = 3 + random.nextInt(400);
        final long lo = random.nextInt(50) - 25;
        // sparse: keys too far apart for a direct table, hashed (their batches put in key order all the same)
        final long step = sparse ? 1_000_003 : 1;
        final List<Object[]> build = storedRows(random, n, lo, step, spoil);
        // ascending runs handed over in any order, as a scan's workers hand over a stored table's blocks
        final List<Batch> batches = new ArrayList<>(RowsWithNulls.batches(BUILD, build, random));
        Collections.shuffle(batches, random);
        final JoinHashTable table = JoinHashTable.build(BUILD, Keys.DENSE.build(), batches);
        // Swapped keys that land in batches of their own are put back in order with the batches.
        boolean everyBatchConsecutive = true;
        for (final Batch b : batches) {
            final long[] k = ((io.sluice.format.LongVector) b.column(0)).values();
            for (int r = 1; r < b.rowCount(); r++) {
                everyBatchConsecutive &= k[r] == k[r - 1] + step;
            }
        }
        final boolean expected = !sparse && (spoil == StoredKeys.EVERY_KEY_ONCE
                || spoil == StoredKeys.TWO_SWAPPED && everyBatchConsecutive);
        assertThat(table.identity()).as("keys %s", spoil).isEqualTo(expected);
        // Half the time every probe key is a build key (a foreign key's join: each probe row has its one row).
        final boolean foreignKey = random.nextBoolean();
        final List<Object[]> probe = new ArrayList<>();
        for (int i = 0, m = random.nextInt(500); i < m; i++) {
            final Object key = foreignKey ? build.get(random.nextInt(build.size()))[0]
                    : random.nextInt(10) == 0 ? null : lo + (random.nextInt(n + 6) - 3) * step;
            probe.add(new Object[] {key, "p", (long) i});
        }
        final List<List<Object>> actual = joinBatches(probe, batches, Keys.DENSE, JoinType.valueOf(kind.name()),
                partitioned, random, false, null);
        assertThat(RowsWithNulls.multiset(actual))
                .isEqualTo(RowsWithNulls.multiset(reference(probe, build, Keys.DENSE, kind)));
    }

    /** Runs the join of probe and build rows and returns its rows. */
    private static List<List<Object>> join(final List<Object[]> probeRows, final List<Object[]> buildRows,
                                           final Keys keys, final JoinType type, final boolean partitioned,
                                           final Random random, final boolean swapped) {
        return join(probeRows, buildRows, keys, type, partitioned, random, swapped, null);
    }

    /** As above, the joined batches holding only the {@code used} columns (all when null). */
    private static List<List<Object>> join(final List<Object[]> probeRows, final List<Object[]> buildRows,
                                           final Keys keys, final JoinType type, final boolean partitioned,
                                           final Random random, final boolean swapped, final Set<String> used) {
        final RowType buildType = swapped ? PROBE : BUILD;
        return joinBatches(probeRows, RowsWithNulls.batches(buildType, buildRows, random), keys, type, partitioned,
                random, swapped, used);
    }

    /** As above, over build rows already in batches. */
    private static List<List<Object>> joinBatches(final List<Object[]> probeRows, final List<Batch> builds,
                                           final Keys keys, final JoinType type, final boolean partitioned,
                                           final Random random, final boolean swapped, final Set<String> used) {
        final RowType probeType = swapped ? BUILD : PROBE;
        final RowType buildType = swapped ? PROBE : BUILD;
        final List<Expr> probeKeys = swapped ? keys.build() : keys.probe();
        final List<Expr> buildKeys = swapped ? keys.probe() : keys.build();
        final boolean withColumns = !type.probeColumnsOnly() || random.nextBoolean();
        final List<Batch> probes = RowsWithNulls.batches(probeType, probeRows, random);
        final Sink<?> sink;
        final JoinBuild build;
        final List<Batch> buildInput;
        final List<Batch> probeInput;
        if (partitioned) {
            final PartitionedHashJoinBuild p = new PartitionedHashJoinBuild(buildType, buildKeys, BUCKETS, withColumns);
            sink = p;
            build = p;
            final BucketFunction function = function(buildType, buildKeys, keys, random);
            buildInput = RowsWithNulls.oneBatchPerBucket(bucketed(builds, buildType, buildKeys, function), buildType,
                    BUCKETS);
            probeInput = bucketed(probes, probeType, probeKeys, function);
        } else {
            final HashJoinBuild h = new HashJoinBuild(buildType, buildKeys, withColumns);
            sink = h;
            build = h;
            buildInput = builds;
            probeInput = probes;
        }
        final Pipeline b = new Pipeline("build", new MaterializedSource(buildType, () -> buildInput, false),
                List.of(), sink, List.of());
        final HashJoinProbe join = new HashJoinProbe(probeType, probeKeys, build, type, null, used);
        final ResultCollector out = new ResultCollector(join.outputType());
        try (PipelineExecutor executor = new PipelineExecutor(1 + random.nextInt(3))) {
            executor.run(List.of(b, new Pipeline("probe", new MaterializedSource(probeType, () -> probeInput, false),
                    List.of(join), out, List.of(b))));
        }
        return out.result().rows();
    }

    /**
     * The engine's hash shuffle on the key columns or, for one integer key, at random its range
     * shuffle (cut at 1 and 3 times the spread): either sends every NULL key to one bucket.
     */
    private static BucketFunction function(final RowType type, final List<Expr> keys, final Keys kind,
                                           final Random random) {
        if (keys.size() == 1 && kind != Keys.STRING && random.nextBoolean()) {
            return new RangeBucketFunction(TypeKind.INT64, new long[] {kind.spread, 3 * kind.spread});
        }
        final TypeKind[] kinds = new TypeKind[keys.size()];
        for (int k = 0; k < kinds.length; k++) {
            kinds[k] = type.type(type.indexOf(keys.get(k).toString())).storage().kind();
        }
        return new HashBucketFunction(BUCKETS, kinds);
    }

    /** Batches split by a shuffle's bucket function on the key columns, each tagged with its bucket. */
    private static List<Batch> bucketed(final List<Batch> batches, final RowType type, final List<Expr> keys,
                                        final BucketFunction function) {
        final int[] keyColumns = new int[keys.size()];
        for (int k = 0; k < keyColumns.length; k++) {
            keyColumns[k] = type.indexOf(keys.get(k).toString());
        }
        return RowsWithNulls.bucketed(batches, keyColumns, function);
    }

    /** SQL's {@code =} over a key: unknown (no match) when a column is NULL on either side. */
    private static boolean equal(final List<Object> a, final List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) == null || b.get(i) == null || !Objects.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static List<List<Object>> reference(final List<Object[]> probe, final List<Object[]> build,
                                                final Keys keys, final Kind kind) {
        final List<List<Object>> out = new ArrayList<>();
        final List<Object> nullRow = Arrays.asList(null, null, null);
        if (kind == Kind.RIGHT) {
            for (final Object[] b : build) {
                boolean matched = false;
                for (final Object[] p : probe) {
                    if (equal(keys.of(p), keys.of(b))) {
                        matched = true;
                        out.add(concat(Arrays.asList(p), Arrays.asList(b)));
                    }
                }
                if (!matched) {
                    out.add(concat(nullRow, Arrays.asList(b)));
                }
            }
            return out;
        }
        boolean buildHasNull = false;
        for (final Object[] b : build) {
            buildHasNull |= keys.of(b).contains(null);
        }
        for (final Object[] p : probe) {
            boolean matched = false;
            for (final Object[] b : build) {
                if (equal(keys.of(p), keys.of(b))) {
                    matched = true;
                    if (kind == Kind.INNER || kind == Kind.LEFT) {
                        out.add(concat(Arrays.asList(p), Arrays.asList(b)));
                    }
                }
            }
            final boolean keep = switch (kind) {
                case LEFT -> !matched;
                case SEMI -> matched;
                case ANTI -> !matched;
                case NULL_AWARE_ANTI -> build.isEmpty() || !matched && !buildHasNull && !keys.of(p).contains(null);
                default -> false;
            };
            if (keep) {
                out.add(kind == Kind.LEFT ? concat(Arrays.asList(p), nullRow) : Arrays.asList(p));
            }
        }
        return out;
    }

    private static List<Object> concat(final List<Object> a, final List<Object> b) {
        final List<Object> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
