package io.sluice.perf.cli;

import io.sluice.perf.text.Plural;
import java.util.ArrayList;
import java.util.List;

/** Renders {@code sluice inspect} as aligned text: a heading per table, then a row per column. */
final class InspectText {
    private static final String NONE = "-";

    private InspectText() {
    }

    /** The report for a store's inspected tables, damaged tables and leftovers. */
    static String render(final InspectedStore store) {
        final List<InspectedTable> tables = store.tables();
        final StringBuilder sb = new StringBuilder();
        sb.append("store ").append(store.store()).append(": ")
                .append(tables.isEmpty() ? "no tables" : Plural.of(tables.size(), "table")).append('\n');
        boolean anyPrefix = false;
        for (final InspectedTable inspected : tables) {
            final TableSummary t = inspected.summary();
            sb.append('\n').append(t.name()).append(": ").append(Plural.of(t.rows(), "row")).append(" in ")
                    .append(Plural.of(t.blocks(), "block")).append(", ").append(Sizes.bytes(t.bytes()))
                    .append(" (").append(t.bytes()).append(" bytes), ")
                    .append(t.sortKey() == null ? "unsorted" : "sorted by " + t.sortKey()).append('\n');
            final List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"column", "type", "min", "max", "nulls"});
            for (final TableSummary.Column c : t.columns()) {
                final boolean prefix = c.hasValues()
                        && (KeyFormat.isPrefix(c.type(), c.min()) || KeyFormat.isPrefix(c.type(), c.max()));
                anyPrefix |= prefix;
                rows.add(new String[] {c.name(), c.type().toString(),
                    c.hasValues() ? KeyFormat.display(c.type(), c.min()) : NONE,
                    c.hasValues() ? KeyFormat.display(c.type(), c.max()) : NONE, Long.toString(c.nulls())});
            }
            appendAligned(sb, rows);
            final TableVerifier.Report report = inspected.verification();
            if (report != null) {
                sb.append("  verified ").append(Plural.of(report.blocks(), "block")).append(": ")
                        .append(report.ok() ? "all checksums match"
                                : Plural.of(report.problems().size(), "block") + " damaged (listed on stderr)")
                        .append('\n');
            }
        }
        for (final InspectedStore.Damaged d : store.damaged()) {
            sb.append('\n').append(d.name()).append(": damaged (listed on stderr)\n");
        }
        final String writes = store.writesNote();
        if (writes != null) {
            sb.append('\n').append(writes).append('\n');
        }
        if (anyPrefix) {
            sb.append("\n\"...\"+ is a string prefix: zonemaps keep the first 8 bytes of a string\n");
        }
        return sb.toString();
    }

    private static void appendAligned(final StringBuilder sb, final List<String[]> rows) {
        final int[] widths = new int[rows.get(0).length];
        for (final String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (final String[] row : rows) {
            sb.append(' ');
            for (int i = 0; i < row.length; i++) {
                sb.append(' ').append(row[i]);
                if (i < row.length - 1) {
                    sb.append(" ".repeat(widths[i] - row[i].length() + 1));
                }
            }
            sb.append('\n');
        }
    }

}
