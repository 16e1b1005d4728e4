package io.sluice.perf.tpch;

import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnType;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.sluice.zonemap.TableSketch;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Streams dbgen-exact TPC-H rows from the {@code io.trino.tpch} generator into a store. Rows go
 * block by block to disk, so memory stays bounded at any scale factor. Decimals are the
 * generator's cent values, kept exact as scaled longs.
 */
public final class TpchLoader {
    /** Largest scale factor the loader accepts. */
    public static final double MAX_SCALE_FACTOR = 1000;
    private static final int PROGRESS_EVERY = 8192;

    private TpchLoader() {
    }

    /** Checks a scale factor; the error says what is accepted. */
    public static double checkScaleFactor(final double scaleFactor) {
        if (!(scaleFactor > 0) || scaleFactor > MAX_SCALE_FACTOR || Double.isNaN(scaleFactor)) {
            throw new IllegalArgumentException("scale factor " + scaleFactor + " is not valid: use a number in (0, "
                    + (int) MAX_SCALE_FACTOR + "], e.g. 0.01, 0.1, 1");
        }
        return scaleFactor;
    }

    /**
     * Generates one new table into a store.
     *
     * @param progress called with the rows written so far, every few thousand rows and once more before
     *                 the table is made visible; it may throw to stop the write, which then leaves nothing behind
     */
    public static Table load(final Store store, final TpchTable table, final double scaleFactor,
                             final LongConsumer progress) {
        return load(store, table, scaleFactor, false, progress);
    }

    /**
     * Generates one table into a store, recording the scale factor in its manifest.
     *
     * @param replace  whether a table of that name is replaced (its readers keep the old version until
     *                 the new one is complete); otherwise it is an error
     * @param progress called with the rows written so far, every few thousand rows and once more before
     *                 the table is made visible; it may throw to stop the write, which then leaves nothing behind
     */
    public static Table load(final Store store, final TpchTable table, final double scaleFactor, final boolean replace,
                             final LongConsumer progress) {
        return load(store, table, scaleFactor, replace, null, progress);
    }

    /**
     * As {@link #load(Store, TpchTable, double, boolean, LongConsumer)}, with the foreign keys {@code skew}
     * rewrites (null: uniform, dbgen's rows); a skewed table records its Z in its manifest
     * ({@value TpchSkew#ATTRIBUTE}).
     */
    public static Table load(final Store store, final TpchTable table, final double scaleFactor, final boolean replace,
                             final TpchSkew skew, final LongConsumer progress) {
        checkScaleFactor(scaleFactor);
        final TpchSkew.SkewedRow skewed = skew == null ? null : skew.rows(table, scaleFactor, table.schema());
        TableSpec spec = TableSpec.of(table.tableName(), table.schema()).withPresortedKey(table.sortKey())
                .replacing(replace).withAttribute(TpchScale.ATTRIBUTE, TpchScale.format(scaleFactor));
        if (skewed != null) {
            spec = spec.withAttribute(TpchSkew.ATTRIBUTE, skew.format());
        }
        try (TableWriter writer = store.write(spec).gather(TableSketch.builder(table.schema()))) {
            write(writer, table.generator(), scaleFactor, skewed, progress);
            // The last report comes before the table becomes visible, so a stop it asks for leaves nothing.
            progress.accept(writer.rowCount());
            return writer.finish();
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends TpchEntity> void write(final TableWriter writer, final io.trino.tpch.TpchTable<E> table,
                                                      final double scaleFactor, final TpchSkew.SkewedRow skewed,
                                                      final LongConsumer progress) {
        final List<TpchColumn<E>> columns = table.getColumns();
        final int n = columns.size();
        final ColumnBuilder[] builders = new ColumnBuilder[n];
        final ColumnType[] types = new ColumnType[n];
        for (int c = 0; c < n; c++) {
            builders[c] = writer.column(c);
            types[c] = writer.schema().type(c);
        }
        long rows = 0;
        for (final E entity : table.createGenerator(scaleFactor, 1, 1)) {
            if (skewed != null) {
                skewed.next(entity);
            }
            for (int c = 0; c < n; c++) {
                final TpchColumn<E> column = columns.get(c);
                if (skewed != null && skewed.replaces(c)) {
                    builders[c].appendLong(skewed.value(c));
                    continue;
                }
                switch (types[c].kind()) {
                    case INT64 -> builders[c].appendLong(column.getIdentifier(entity));
                    case INT32 -> builders[c].appendInt(column.getInteger(entity));
                    case DATE -> builders[c].appendInt(column.getDate(entity));
                    case DECIMAL -> builders[c].appendLong(Math.round(column.getDouble(entity) * 100));
                    case STRING -> builders[c].appendString(column.getString(entity));
                    default -> throw new IllegalStateException("no TPC-H column has type " + types[c]);
                }
            }
            writer.endRow();
            if (++rows % PROGRESS_EVERY == 0) {
                progress.accept(rows);
            }
        }
    }
}
