package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnVector;
import io.sluice.format.Field;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.operator.Batch;
import java.nio.charset.StandardCharsets;
import io.sluice.shuffle.BucketFunction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Test rows with NULLs in every column, as Java values (null is SQL's NULL) and as batches: the
 * reference a test computes with SQL's rules reads the first, the operators the second. A NULL row
 * of a vector holds 0 or '', the value a NULL is most easily confused with.
 */
final class RowsWithNulls {
    private RowsWithNulls() {
    }

    /** Builds batches of rows of the given column types (INT64, DECIMAL or STRING) from Java values. */
    /**
     * Rows (k, s, id) of a join side: k one of {@code keys} multiples of {@code spread}, s one of "", "x",
     * "y", each NULL with probability {@code nulls}; ids from {@code firstId} up.
     */
    static List<Object[]> joinRows(final Random random, final int n, final double nulls, final long spread,
                                   final long firstId, final int keys) {
        final String[] strings = {"", "x", "y"};
        final List<Object[]> rows = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            final Long k = random.nextDouble() < nulls ? null : random.nextInt(keys) * spread;
            final String s = random.nextDouble() < nulls ? null : strings[random.nextInt(3)];
            rows.add(new Object[] {k, s, firstId + i});
        }
        return rows;
    }

    static List<Batch> batches(final RowType type, final List<Object[]> rows, final Random random) {
        final List<Batch> out = new ArrayList<>();
        final int maxBatch = random.nextBoolean() ? Block.MAX_ROWS : 1 + random.nextInt(40);
        for (int from = 0; from < rows.size(); ) {
            final int to = Math.min(rows.size(), from + 1 + random.nextInt(maxBatch));
            final ColumnVector[] columns = new ColumnVector[type.size()];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = column(type.type(c), rows.subList(from, to), c, random.nextBoolean());
            }
            out.add(Batch.of(columns));
            from = to;
        }
        return out;
    }

    private static ColumnVector column(final DataType type, final List<Object[]> rows, final int c,
                                       final boolean dictionary) {
        final int n = rows.size();
        final long[] nulls = new long[NullMask.words(n)];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            if (rows.get(i)[c] == null) {
                NullMask.setNull(nulls, i);
                any = true;
            }
        }
        if (type.kind() != DataType.Kind.STRING) {
            final long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = rows.get(i)[c] == null ? 0 : (Long) rows.get(i)[c];
            }
            return new LongVector(type.storage(), values, n, any ? nulls : null);
        }
        final List<String> distinct = new ArrayList<>();
        final int[] codes = new int[n];
        final int[] offsets = new int[n + 1];
        final StringBuilder all = new StringBuilder();
        for (int i = 0; i < n; i++) {
            final String s = rows.get(i)[c] == null ? "" : (String) rows.get(i)[c];
            if (!distinct.contains(s)) {
                distinct.add(s);
            }
            codes[i] = distinct.indexOf(s);
            all.append(s);
            offsets[i + 1] = all.length();
        }
        if (dictionary) {
            return StringVector.dictionary(codes, StringVector.of(distinct.toArray(new String[0])), n,
                    any ? nulls : null);
        }
        return StringVector.plain(offsets, all.toString().getBytes(StandardCharsets.UTF_8), n, any ? nulls : null);
    }

    /** A batch after the trip between compute nodes: encoded in the block layout and decoded again. */
    static Batch throughTheWire(final Batch batch, final RowType type) {
        final ColumnVector[] vectors = new ColumnVector[batch.columnCount()];
        final ZoneMap[] zoneMaps = new ZoneMap[vectors.length];
        final List<Field> fields = new ArrayList<>();
        for (int c = 0; c < vectors.length; c++) {
            vectors[c] = batch.column(c);
            zoneMaps[c] = ZoneMap.of(vectors[c]);
            fields.add(new Field("c" + c, type.type(c).storage()));
        }
        final BlockEncoder encoder = new BlockEncoder();
        final int length = encoder.prepare(new Block(batch.rowCount(), vectors, zoneMaps));
        final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(length);
        encoder.writeTo(buffer, 0);
        return Batch.of(new BlockDecoder().wrap(buffer, 0, length, "test", 0).decode(new Schema(fields), null));
    }


    /** The rows of each batch split by a shuffle's bucket function on the key columns, each part tagged with its bucket. */
    static List<Batch> bucketed(final List<Batch> batches, final int[] keyColumns, final BucketFunction function) {
        final List<Batch> out = new ArrayList<>();
        for (final Batch b : batches) {
            final ColumnVector[] keyVectors = new ColumnVector[keyColumns.length];
            for (int k = 0; k < keyColumns.length; k++) {
                keyVectors[k] = b.column(keyColumns[k]);
            }
            final int[] bucketOf = new int[b.rowCount()];
            function.buckets(keyVectors, b.rowCount(), bucketOf);
            for (int bucket = 0; bucket < function.bucketCount(); bucket++) {
                final boolean[] keep = new boolean[b.rowCount()];
                for (int i = 0; i < keep.length; i++) {
                    keep[i] = bucketOf[i] == bucket;
                }
                final Batch kept = Vectors.select(b, keep, new int[b.rowCount()]);
                if (kept != null) {
                    out.add(kept.withShuffleIdx(bucket));
                }
            }
        }
        return out;
    }

    /**
     * Tagged batches as a shuffle group or a partitioned join build takes them: one batch per bucket
     * (one morsel), its batches concatenated.
     */
    static List<Batch> oneBatchPerBucket(final List<Batch> tagged, final RowType type, final int buckets) {
        final List<Batch> out = new ArrayList<>();
        for (int bucket = 0; bucket < buckets; bucket++) {
            final List<ColumnVector[]> parts = new ArrayList<>();
            for (final Batch b : tagged) {
                if (b.shuffleIdx() == bucket) {
                    final ColumnVector[] columns = new ColumnVector[type.size()];
                    for (int c = 0; c < columns.length; c++) {
                        columns[c] = b.column(c);
                    }
                    parts.add(columns);
                }
            }
            if (parts.isEmpty()) {
                continue;
            }
            final ColumnVector[] columns = new ColumnVector[type.size()];
            for (int c = 0; c < columns.length; c++) {
                final List<ColumnVector> pieces = new ArrayList<>();
                for (final ColumnVector[] p : parts) {
                    pieces.add(p[c]);
                }
                columns[c] = Vectors.concat(pieces, type.type(c).storage());
            }
            out.add(Batch.of(columns).withShuffleIdx(bucket));
        }
        return out;
    }

    /** Rows as a multiset: each distinct row and how often it occurs. */
    static <T> Map<T, Integer> multiset(final List<T> rows) {
        final Map<T, Integer> counts = new HashMap<>();
        for (final T row : rows) {
            counts.merge(row, 1, Integer::sum);
        }
        return counts;
    }
}
