package io.sluice.perf.tpch;

import io.sluice.perf.text.Plural;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The TPC-H scale factor a stored table was generated at: recorded in its manifest by
 * {@link TpchLoader} (attribute {@value #ATTRIBUTE}), or, for a table written before it was
 * recorded, estimated from its row count. Only tables whose rows grow with the scale count: region
 * and nation are the same at every scale factor, and tables with other names are not TPC-H's.
 */
public final class TpchScale {
    /** The manifest attribute holding the scale factor, as written ({@code 0.1}, {@code 1}). */
    public static final String ATTRIBUTE = "tpch.scale_factor";
    /** Largest relative difference between an unrecorded table's rows and the rows of a scale factor. */
    private static final double ROW_TOLERANCE = 0.02;

    /**
     * The scale factor of one table.
     *
     * @param factor   the scale factor, recorded or estimated
     * @param recorded whether the manifest records it (else it is estimated from {@code rows})
     * @param rows     the table's rows
     */
    public record Of(double factor, boolean recorded, long rows) {
        /** Whether the table is at scale factor {@code scaleFactor}. */
        public boolean is(final double scaleFactor) {
            if (recorded) {
                return format(factor).equals(format(scaleFactor));
            }
            final double expected = rows / factor * scaleFactor;
            return Math.abs(rows - expected) <= ROW_TOLERANCE * expected;
        }

        @Override
        public String toString() {
            return recorded ? "SF " + format(factor)
                    : String.format(Locale.ROOT, "about SF %s (%s)", format(round(factor)), Plural.of(rows, "row"));
        }
    }

    private TpchScale() {
    }

    /** A scale factor as the command line writes it: {@code 0.1}, {@code 1}, {@code 10}. */
    public static String format(final double scaleFactor) {
        return BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }

    private static double round(final double estimate) {
        return new BigDecimal(estimate).round(new java.math.MathContext(2)).doubleValue();
    }

    /** The scale factor of a stored table, or empty when its rows do not depend on one. */
    public static Optional<Of> of(final Table table) {
        final TpchTable tpch = tpchTable(table.name());
        if (tpch == null || tpch.expectedRows(1) == tpch.expectedRows(2)) {
            return Optional.empty();
        }
        final String recorded = table.manifest().attributes().get(ATTRIBUTE);
        if (recorded != null) {
            return Optional.of(new Of(Double.parseDouble(recorded), true, table.rowCount()));
        }
        return Optional.of(new Of((double) table.rowCount() / tpch.expectedRows(1), false, table.rowCount()));
    }

    /** The scale factor of every table of the store that has one, by table name. */
    public static Map<String, Of> ofStore(final Store store) {
        final Map<String, Of> scales = new TreeMap<>();
        for (final String name : store.tableNames()) {
            if (tpchTable(name) != null) {
                try (Table table = store.table(name)) {
                    of(table).ifPresent(s -> scales.put(name, s));
                }
            }
        }
        return scales;
    }

    /**
     * The tables of a store, other than {@code except}, that are not at {@code scaleFactor}, with
     * their scale factors; empty when every table that stays is.
     */
    public static Map<String, Of> otherThan(final Store store, final double scaleFactor, final Set<String> except) {
        final Map<String, Of> other = new TreeMap<>();
        for (final Map.Entry<String, Of> e : ofStore(store).entrySet()) {
            if (!except.contains(e.getKey()) && !e.getValue().is(scaleFactor)) {
                other.put(e.getKey(), e.getValue());
            }
        }
        return other;
    }

    /** The scale factor a store's TPC-H tables were generated at, when they agree on one (for hints). */
    public static Optional<Double> common(final Store store) {
        Double common = null;
        for (final Of s : ofStore(store).values()) {
            final double factor = s.recorded() ? s.factor() : round(s.factor());
            if (common != null && !format(common).equals(format(factor))) {
                return Optional.empty();
            }
            common = factor;
        }
        return Optional.ofNullable(common);
    }

    private static TpchTable tpchTable(final String name) {
        for (final TpchTable t : TpchTable.values()) {
            if (t.tableName().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
