package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A key table gives each distinct key the next id in order of first appearance and every row of that key
 * the same id, whether its keys come in ascending runs (taken without slots while they ascend), repeat the
 * row before, jump back, carry NULLs or are random; {@link KeyTable#find} then finds each key's id and
 * nothing for a key never inserted, before and after the table leaves ascending order. The oracle is a
 * map from key to first-appearance index.
 */
class KeyTablePropertyTest {
    private static final RowType ROW = new RowType(List.of("a", "b"),
            List.of(DataType.INT64, DataType.INT64));
    private static final DataType[] TYPES = {DataType.INT64, DataType.INT64};

    /** Key pairs (null = NULL) of one batch; {@code shape} 0 ascending runs, 1 ascending then a jump back, 2 random. */
    private static List<Long[]> batchKeys(final Random random, final int rows, final int shape, final long[] next,
                                          final boolean nulls) {
        final List<Long[]> keys = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            final Long a;
            final Long b;
            if (shape == 2) {
                a = (long) random.nextInt(50);
                b = (long) random.nextInt(3);
            } else {
                if (random.nextInt(4) == 0) {
                    next[1]++;
                } else if (random.nextInt(3) == 0) {
                    next[0] += 1 + random.nextInt(3);
                    next[1] = random.nextInt(2);
                }
                if (shape == 1 && i == rows / 2) {
                    next[0] = Math.max(0, next[0] - 5);
                }
                a = next[0];
                b = next[1];
            }
            keys.add(new Long[] {nulls && random.nextInt(20) == 0 ? null : a, b});
        }
        return keys;
    }

    private static Batch batch(final List<Long[]> keys) {
        final int n = keys.size();
        final LongVector[] columns = new LongVector[2];
        for (int c = 0; c < 2; c++) {
            final long[] values = new long[n];
            long[] mask = null;
            for (int i = 0; i < n; i++) {
                final Long v = keys.get(i)[c];
                if (v == null) {
                    mask = mask == null ? new long[NullMask.words(n)] : mask;
                    NullMask.setNull(mask, i);
                    values[i] = 12345;
                } else {
                    values[i] = v;
                }
            }
            columns[c] = new LongVector(ColumnType.INT64, values, n, mask);
        }
        return Batch.of(columns);
    }

    @Property(tries = 300)
    void idsFollowFirstAppearanceWhateverTheOrder(@ForAll final long seed,
                                                  @ForAll @IntRange(min = 0, max = 2) final int firstShape,
                                                  @ForAll @IntRange(min = 0, max = 2) final int laterShape,
                                                  @ForAll final boolean ascending,
                                                  @ForAll final boolean nulls) {
        final Random random = new Random(seed);
        final KeyTable table = new KeyTable(TYPES, ascending);
        final KeyColumns keys = new KeyColumns(List.of(Expr.col("a"), Expr.col("b")), ROW);
        final Map<List<Long>, Integer> oracle = new HashMap<>();
        final long[] next = {0, 0};
        final int[] ids = new int[Block.MAX_ROWS];
        final int batches = 1 + random.nextInt(5);
        for (int b = 0; b < batches; b++) {
            final List<Long[]> rows = batchKeys(random, random.nextInt(300), b == 0 ? firstShape : laterShape, next,
                    nulls && b > 0);
            keys.evaluate(batch(rows));
            table.findOrInsert(keys, ids);
            for (int i = 0; i < rows.size(); i++) {
                final List<Long> key = Arrays.asList(rows.get(i));
                final int expected = oracle.computeIfAbsent(key, k -> oracle.size());
                assertThat(ids[i]).as("batch %d row %d key %s", b, i, key).isEqualTo(expected);
            }
            assertThat(table.size()).isEqualTo(oracle.size());
        }
        final List<Long[]> probes = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            probes.add(new Long[] {random.nextInt(30) == 0 ? null : (long) random.nextInt(60), (long) random.nextInt(4)});
        }
        keys.evaluate(batch(probes));
        final int[] found = new int[probes.size()];
        table.find(keys, found);
        for (int i = 0; i < probes.size(); i++) {
            final List<Long> key = Arrays.asList(probes.get(i));
            assertThat(found[i]).as("probe %s", key).isEqualTo(oracle.getOrDefault(key, -1));
        }
    }
}
