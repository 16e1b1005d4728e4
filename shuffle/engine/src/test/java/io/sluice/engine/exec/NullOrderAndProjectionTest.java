package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * NULLs through operators: a projection's output vectors carry its expressions' NULL rows, and a
 * sort places NULLs last by default and first or last as a key says, in either direction, in the
 * order a comparator written here over nullable Java values gives.
 */
class NullOrderAndProjectionTest {
    private static final RowType KS = new RowType(List.of("k", "s", "id"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));

    private static Batch batch(final Long[] k, final String[] s, final long[] id) {
        final long[] values = new long[k.length];
        long[] nulls = null;
        for (int i = 0; i < k.length; i++) {
            if (k[i] == null) {
                nulls = nulls == null ? new long[NullMask.words(k.length)] : nulls;
                NullMask.setNull(nulls, i);
            } else {
                values[i] = k[i];
            }
        }
        return Batch.of(new LongVector(ColumnType.INT64, values, k.length, nulls), StringVector.of(s),
                new LongVector(ColumnType.INT64, id, id.length, null));
    }

    private static List<List<Object>> run(final List<Batch> input, final List<OperatorFactory> operators,
                                          final Sink<?> sink, final RowType type) {
        final ResultCollector out = new ResultCollector(type);
        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            final Source source = new MaterializedSource(KS, () -> input, false);
            if (sink instanceof Sort sort) {
                final Pipeline first = new Pipeline("sort", source, operators, sort, List.of());
                executor.run(List.of(first, new Pipeline("out", sort.output(), List.of(), out, List.of(first))));
            } else {
                executor.run(List.of(new Pipeline("p", source, operators, out, List.of())));
            }
        }
        return out.result().rows();
    }

    @Test
    void aProjectionWritesTheNullRowsOfItsExpressions() {
        final Batch rows = batch(new Long[] {1L, null, 3L, null}, new String[] {"a", "b", null, null}, new long[] {1, 2, 3, 4});
        final Projection p = new Projection(KS, List.of(new NamedExpr("plus", Expr.add(col("k"), Expr.lit(1))),
                new NamedExpr("text", Expr.coalesce(col("s"), Expr.str("-"))),
                new NamedExpr("cut", Expr.substring(col("s"), 1, 1)),
                new NamedExpr("ratio", Expr.div(col("id"), col("k"))),
                new NamedExpr("maybe", Expr.caseWhen(Expr.gt(col("k"), Expr.lit(1)), col("s"))),
                new NamedExpr("none", Expr.nullOf(DataType.INT32))));
        final List<List<Object>> out = run(List.of(rows), List.of(p), null, p.outputType());
        assertThat(out).containsExactly(
                Arrays.asList(2L, "a", "a", 1.0, null, null),
                Arrays.asList(null, "b", "b", null, null, null),
                Arrays.asList(4L, "-", null, 1.0, null, null),
                Arrays.asList(null, "-", null, null, null, null));
    }

    @Test
    void sortPlacesNullsAsEachKeySays() {
        final Random random = new Random(17);
        final List<Batch> input = new ArrayList<>();
        final List<Object[]> all = new ArrayList<>();
        long id = 0;
        for (int b = 0; b < 5; b++) {
            final int n = 1 + random.nextInt(40);
            final Long[] k = new Long[n];
            final String[] s = new String[n];
            final long[] ids = new long[n];
            for (int i = 0; i < n; i++) {
                k[i] = random.nextInt(4) == 0 ? null : (long) random.nextInt(6) - 3;
                s[i] = random.nextInt(3) == 0 ? null : "s" + random.nextInt(3);
                ids[i] = id++;
                all.add(new Object[] {k[i], s[i], ids[i]});
            }
            input.add(batch(k, s, ids));
        }
        for (final boolean descending : new boolean[] {false, true}) {
            for (final Boolean nullsFirst : new Boolean[] {null, true, false}) {
                final SortKey key = nullsFirst == null ? new SortKey("k", descending)
                        : new SortKey("k", descending, nullsFirst);
                final SortKey second = new SortKey("s", !descending, nullsFirst == null || !nullsFirst);
                final Sort sort = new Sort(KS, List.of(key, second, SortKey.asc("id")), Sort.NO_LIMIT);
                Comparator<Long> byK = Comparator.naturalOrder();
                Comparator<String> byS = Comparator.naturalOrder();
                byK = descending ? byK.reversed() : byK;
                byS = descending ? byS : byS.reversed();
                final boolean kFirst = nullsFirst != null && nullsFirst;
                final boolean sFirst = second.nullsFirst();
                final Comparator<Object[]> expected = Comparator
                        .comparing((Object[] r) -> (Long) r[0], kFirst ? Comparator.nullsFirst(byK) : Comparator.nullsLast(byK))
                        .thenComparing(r -> (String) r[1], sFirst ? Comparator.nullsFirst(byS) : Comparator.nullsLast(byS))
                        .thenComparing(r -> (Long) r[2]);
                final List<List<Object>> want = new ArrayList<>();
                all.stream().sorted(expected).forEach(r -> want.add(Arrays.asList(r)));
                assertThat(run(input, List.of(), sort, KS)).as("%s", sort).isEqualTo(want);
            }
        }
    }
}
