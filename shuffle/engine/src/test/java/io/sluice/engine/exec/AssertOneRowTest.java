package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The assertion that a scalar subquery gave at most one row (per key), on its own. */
class AssertOneRowTest {
    private static final RowType INPUT = new RowType(List.of("k", "v"), List.of(DataType.INT64, DataType.STRING));

    /** Pushes the rows into one sink state per worker, each worker's share in batches, and finishes. */
    private static List<List<Object>> run(final List<String> keys, final List<List<Object[]>> perWorker) {
        final AssertOneRow sink = new AssertOneRow(INPUT, keys, "the subquery over t", !keys.isEmpty());
        final Random random = new Random(perWorker.size());
        for (final List<Object[]> rows : perWorker) {
            final AssertOneRow.Rows local = sink.createLocal();
            RowsWithNulls.batches(INPUT, rows, random).forEach(local::accept);
            sink.combine(local);
        }
        sink.finish();
        final Source out = sink.output();
        final List<Batch> batches = new ArrayList<>();
        final int n = out.morselCount();
        final Source.Reader reader = out.openReader();
        for (int m = 0; m < n; m++) {
            reader.produce(m, batches::add);
        }
        return new QueryResult(INPUT, batches).rows();
    }

    private static Object[] row(final Long k, final String v) {
        return new Object[] {k, v};
    }

    @Test
    void noRowGivesOneRowOfNulls() {
        assertThat(run(List.of(), List.of(List.of(), List.of()))).containsExactly(Arrays.asList(null, null));
    }

    @Test
    void oneRowIsTheValue() {
        assertThat(run(List.of(), List.of(List.of(), List.<Object[]>of(row(3L, "x")))))
                .containsExactly(Arrays.asList(3L, "x"));
    }

    @Test
    void twoRowsOnDifferentWorkersFailTheQueryNamingTheSubquery() {
        assertThatThrownBy(() -> run(List.of(), List.of(List.<Object[]>of(row(1L, "a")), List.<Object[]>of(row(2L, "b")))))
                .isInstanceOf(ScalarSubqueryException.class)
                .hasMessageStartingWith("scalar subquery returned more than one row: the subquery over t");
        assertThatThrownBy(() -> run(List.of(), List.of(List.<Object[]>of(row(1L, "a"), row(1L, "a")))))
                .isInstanceOf(ScalarSubqueryException.class);
    }

    @Test
    void perKeyOneRowPassesAndNullKeysAreNotChecked() {
        final List<List<Object>> out = run(List.of("k"), List.of(
                List.<Object[]>of(row(1L, "a"), row(null, "n1"), row(null, "n2")), List.<Object[]>of(row(2L, "b"))));
        assertThat(out).containsExactlyInAnyOrder(Arrays.asList(1L, "a"), Arrays.asList(null, "n1"),
                Arrays.asList(null, "n2"), Arrays.asList(2L, "b"));
        assertThat(run(List.of("k"), List.of(List.of(), List.of()))).as("no rows, no keys: no rows").isEmpty();
    }

    @Test
    void twoRowsOfOneKeyFailTheQuery() {
        final List<Object[]> rows = new ArrayList<>();
        for (long k = 0; k < 9000; k++) {
            rows.add(row(k, "v" + k));
        }
        rows.add(row(4321L, "again"));
        assertThatThrownBy(() -> run(List.of("k"), List.of(rows)))
                .isInstanceOf(ScalarSubqueryException.class).hasMessageContaining("more than one row");
    }
}
