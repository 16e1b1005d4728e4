package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The hashes of listed rows only ({@link KeyColumns#evaluateRows}, a runtime filter's test of the rows
 * an earlier filter kept) are the hashes of the whole batch at those rows, for integer, string and
 * mixed keys with NULLs, dictionary and plain strings alike.
 */
class KeyColumnsPropertyTest {
    private static final RowType ROWS = new RowType(List.of("k", "s", "id"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));

    @Property(tries = 200)
    void theHashesOfListedRowsAreTheWholeBatchsAtThoseRows(@ForAll final long seed) {
        final Random random = new Random(seed);
        final List<Object[]> rows = RowsWithNulls.joinRows(random, 1 + random.nextInt(3000), random.nextDouble() * 0.3,
                1 + random.nextInt(1000), 0, 7);
        final List<List<Expr>> keys = List.of(List.of(col("k")), List.of(col("s")), List.of(col("k"), col("s")),
                List.of(col("s"), col("k"), col("id")));
        for (final Batch batch : RowsWithNulls.batches(ROWS, rows, random)) {
            for (final List<Expr> key : keys) {
                final KeyColumns whole = new KeyColumns(key, ROWS);
                whole.evaluate(batch);
                final List<Integer> listedRows = new ArrayList<>();
                for (int i = 0; i < batch.rowCount(); i++) {
                    if (random.nextInt(4) == 0) {
                        listedRows.add(i);
                    }
                }
                final int[] listed = listedRows.stream().mapToInt(Integer::intValue).toArray();
                final KeyColumns some = new KeyColumns(key, ROWS);
                some.evaluateRows(batch, listed, listed.length);
                for (final int r : listed) {
                    assertThat(some.hashes[r]).as("row %d of key %s", r, key).isEqualTo(whole.hashes[r]);
                }
            }
        }
    }
}
