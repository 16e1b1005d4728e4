package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The nested-loop join on its own: probe batches of every size against build sides of zero to a
 * few hundred rows, with NULLs on both sides, give the pairs that a loop over every probe and build
 * row computes with SQL's three-valued comparison (a NULL never satisfies {@code x < lo}).
 */
class NestedLoopJoinTest {
    private static final RowType PROBE = new RowType(List.of("id", "x"), List.of(DataType.INT64, DataType.INT64));
    private static final RowType BUILD = new RowType(List.of("lo", "hi"), List.of(DataType.INT64, DataType.INT64));

    private static List<List<Object>> run(final JoinType type, final Expr condition, final List<Object[]> probe,
                                          final List<Object[]> build, final Random random) {
        final NestedLoopJoinBuild sink = new NestedLoopJoinBuild(BUILD);
        final NestedLoopJoinBuild.Rows a = sink.createLocal();
        final NestedLoopJoinBuild.Rows b = sink.createLocal();
        int i = 0;
        for (final Batch batch : RowsWithNulls.batches(BUILD, build, random)) {
            (i++ % 2 == 0 ? a : b).accept(batch);
        }
        sink.combine(a);
        sink.combine(b);
        sink.finish();
        final NestedLoopJoinProbe factory = new NestedLoopJoinProbe(PROBE, sink, type, condition);
        final List<Batch> out = new ArrayList<>();
        final Operator op = factory.create(out::add);
        for (final Batch batch : RowsWithNulls.batches(PROBE, probe, random)) {
            op.accept(batch);
        }
        return new QueryResult(factory.outputType(), out).rows();
    }

    /** lo <= x < hi (NULL when any is NULL: no match). */
    private static boolean matches(final Object[] p, final Object[] b) {
        return p[1] != null && b[0] != null && b[1] != null && (Long) b[0] <= (Long) p[1] && (Long) p[1] < (Long) b[1];
    }

    private static List<List<Object>> expected(final JoinType type, final List<Object[]> probe,
                                               final List<Object[]> build, final boolean cross) {
        final List<List<Object>> out = new ArrayList<>();
        for (final Object[] p : probe) {
            boolean any = false;
            for (final Object[] b : build) {
                if (cross || matches(p, b)) {
                    any = true;
                    if (type == JoinType.INNER || type == JoinType.LEFT) {
                        out.add(Arrays.asList(p[0], p[1], b[0], b[1]));
                    }
                }
            }
            if (type == JoinType.LEFT && !any) {
                out.add(Arrays.asList(p[0], p[1], null, null));
            }
            if ((type == JoinType.SEMI && any) || (type == JoinType.ANTI && !any)) {
                out.add(Arrays.asList(p[0], p[1]));
            }
        }
        return out;
    }

    private static Map<List<Object>, Integer> multiset(final List<List<Object>> rows) {
        final Map<List<Object>, Integer> m = new HashMap<>();
        for (final List<Object> r : rows) {
            m.merge(r, 1, Integer::sum);
        }
        return m;
    }

    private static List<Object[]> rows(final Random random, final int n, final boolean range) {
        final List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final Long a = random.nextInt(7) == 0 ? null : (long) random.nextInt(30);
            final Long b = random.nextInt(7) == 0 ? null : (range && a != null ? a + random.nextInt(8) : random.nextInt(30));
            out.add(new Object[] {range ? a : (Object) (long) i, range ? b : a});
        }
        return out;
    }

    @Property(tries = 80)
    void everyJoinTypeGivesThePairsALoopOverBothSidesGives(@ForAll final long seed) {
        final Random random = new Random(seed);
        final List<Object[]> probe = rows(random, random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(2000),
                false);
        final List<Object[]> build = rows(random, random.nextInt(5) == 0 ? 0 : random.nextInt(300), true);
        final JoinType type = new JoinType[] {JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI}[
                random.nextInt(4)];
        final boolean cross = random.nextInt(6) == 0;
        final Expr condition = cross ? null : Expr.and(Expr.le(col("lo"), col("x")), Expr.lt(col("x"), col("hi")));
        assertThat(multiset(run(type, condition, probe, build, random)))
                .isEqualTo(multiset(expected(type, probe, build, cross)));
    }

    @Test
    void anEmptyBuildKeepsEveryLeftAndAntiRowAndNoInnerOrSemiRow() {
        final Random random = new Random(5);
        final List<Object[]> probe = rows(random, 50, false);
        final Expr condition = Expr.lt(col("x"), col("hi"));
        assertThat(run(JoinType.INNER, condition, probe, List.of(), random)).isEmpty();
        assertThat(run(JoinType.SEMI, condition, probe, List.of(), random)).isEmpty();
        assertThat(run(JoinType.ANTI, condition, probe, List.of(), random)).hasSize(50);
        assertThat(run(JoinType.LEFT, condition, probe, List.of(), random)).hasSize(50)
                .allSatisfy(r -> assertThat(r.subList(2, 4)).containsOnlyNulls());
    }

    @Test
    void aNullAwareAntiJoinIsRefused() {
        final NestedLoopJoinBuild sink = new NestedLoopJoinBuild(BUILD);
        assertThatThrownBy(() -> new NestedLoopJoinProbe(PROBE, sink, JoinType.NULL_AWARE_ANTI, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NOT IN");
    }
}
