package io.sluice.perf.tpcds;

import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnType;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * Streams dsdgen's TPC-DS rows from the {@code io.trino.tpcds} generator into a store, block by block,
 * so memory stays bounded at any scale factor. The generator writes each value as text, NULL as an
 * empty field (as dsdgen's files do); a sales table's returns come out of the same run, and each is
 * written on its own run. Decimals are kept exact as scaled longs.
 */
public final class TpcdsLoader {
    /** The manifest attribute recording the scale factor a table was generated at. */
    public static final String ATTRIBUTE = "tpcds.scale_factor";
    /** Largest scale factor the loader accepts. */
    public static final double MAX_SCALE_FACTOR = 1000;
    private static final int PROGRESS_EVERY = 8192;

    private TpcdsLoader() {
    }

    /** Checks a scale factor; the error says what is accepted. */
    public static double checkScaleFactor(final double scaleFactor) {
        if (!(scaleFactor > 0) || scaleFactor > MAX_SCALE_FACTOR || Double.isNaN(scaleFactor)) {
            throw new IllegalArgumentException("TPC-DS scale factor " + scaleFactor + " is not valid: use a number in"
                    + " (0, " + (int) MAX_SCALE_FACTOR + "], e.g. 0.01, 0.1, 1");
        }
        return scaleFactor;
    }

    /**
     * Generates one table into a store, recording the scale factor in its manifest.
     *
     * @param replace  whether a table of that name is replaced; otherwise it is an error
     * @param progress called with the rows written so far, every few thousand rows and once more before
     *                 the table is made visible; it may throw to stop the write, which then leaves nothing behind
     */
    public static Table load(final Store store, final TpcdsTable table, final double scaleFactor, final boolean replace,
                             final LongConsumer progress) {
        checkScaleFactor(scaleFactor);
        final TableSpec spec = TableSpec.of(table.tableName(), table.schema()).withPresortedKey(table.sortKey())
                .replacing(replace).withAttribute(ATTRIBUTE, format(scaleFactor));
        try (TableWriter writer = store.write(spec)) {
            write(writer, table, scaleFactor, progress);
            progress.accept(writer.rowCount());
            return writer.finish();
        }
    }

    private static void write(final TableWriter writer, final TpcdsTable table, final double scaleFactor,
                              final LongConsumer progress) {
        final int n = writer.schema().size();
        final ColumnBuilder[] builders = new ColumnBuilder[n];
        final ColumnType[] types = new ColumnType[n];
        for (int c = 0; c < n; c++) {
            builders[c] = writer.column(c);
            types[c] = writer.schema().type(c);
        }
        final Session session = Session.getDefaultSession().withScale(scaleFactor).withParallelism(1)
                .withChunkNumber(1).withTable(table.generator()).withNoSexism(false);
        final String nullString = session.getNullString();
        long rows = 0;
        for (final List<List<String>> parentAndChild : Results.constructResults(table.generator(), session)) {
            if (parentAndChild.isEmpty()) {
                continue;
            }
            final List<String> row = parentAndChild.get(0);
            for (int c = 0; c < n; c++) {
                final String v = row.get(c);
                if (v == null || v.equals(nullString)) {
                    builders[c].appendNull();
                    continue;
                }
                switch (types[c].kind()) {
                    case INT64 -> builders[c].appendLong(Long.parseLong(v));
                    case INT32 -> builders[c].appendInt(Integer.parseInt(v));
                    case DATE -> builders[c].appendInt((int) LocalDate.parse(v).toEpochDay());
                    case DECIMAL -> builders[c].appendLong(new BigDecimal(v).setScale(types[c].scale())
                            .unscaledValue().longValueExact());
                    case STRING -> builders[c].appendString(v);
                    default -> throw new IllegalStateException("no TPC-DS column has type " + types[c]);
                }
            }
            writer.endRow();
            if (++rows % PROGRESS_EVERY == 0) {
                progress.accept(rows);
            }
        }
    }

    /**
     * The TPC-DS tables of a store, other than {@code except}, recorded at another scale factor than
     * {@code scaleFactor}, with the scale factor each records.
     */
    public static Map<String, String> otherScales(final Store store, final double scaleFactor,
                                                  final Set<String> except) {
        final Map<String, String> other = new TreeMap<>();
        for (final String name : store.tableNames()) {
            if (except.contains(name) || TpcdsTable.byName(name) == null) {
                continue;
            }
            try (Table table = store.table(name)) {
                final String recorded = table.manifest().attributes().get(ATTRIBUTE);
                if (recorded != null && !recorded.equals(format(scaleFactor))) {
                    other.put(name, recorded);
                }
            }
        }
        return other;
    }

    /** A scale factor as the manifest records it: {@code 1}, {@code 0.01}. */
    public static String format(final double scaleFactor) {
        return BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }
}
