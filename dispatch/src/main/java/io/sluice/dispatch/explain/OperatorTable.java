package io.sluice.dispatch.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Seed 001's operator table: {@code ID | OPERATOR | NAME | EST. ROWS | COST}, operators indented by
 * depth, then "Outputs &amp; filters" per id. After ANALYZE two columns more, {@code ACT. ROWS} and
 * {@code TIME(ms)} (summed over workers and CNs), and each exchange's rows and bytes across and inside CNs.
 * Planned local exchanges (seed 000) print as {@code LOCAL EXCHANGE (<TYPE>)} rows without an id under
 * the operator whose input they exchange.
 */
public final class OperatorTable {
    private OperatorTable() {
    }

    /** The table and its "Outputs &amp; filters" section, as lines ending with a newline. */
    public static String render(final ExplainPlan plan) {
        final boolean analyzed = plan.analyzed();
        final List<String[]> rows = new ArrayList<>();
        final List<String> header = new ArrayList<>(List.of("ID", "OPERATOR", "NAME", "EST. ROWS", "COST"));
        if (analyzed) {
            header.add("ACT. ROWS");
            header.add("TIME(ms)");
        }
        rows.add(header.toArray(String[]::new));
        for (final ExplainOperator o : plan.operators()) {
            final List<String> row = new ArrayList<>(List.of(String.valueOf(o.id()), " ".repeat(o.depth()) + o.operator(),
                    o.name(), o.estRows() < 0 ? "?" : String.valueOf(o.estRows()), String.valueOf(o.cost())));
            if (analyzed) {
                row.add(o.actual() == null ? "" : String.valueOf(o.actual().rows()));
                row.add(o.actual() == null ? "" : String.format(Locale.ROOT, "%.1f", o.actual().nanos() / 1e6));
            }
            rows.add(row.toArray(String[]::new));
            for (final String local : o.localExchanges()) {
                final List<String> l = new ArrayList<>(List.of("", " ".repeat(o.depth() + 1) + "LOCAL EXCHANGE "
                        + local, "", "", ""));
                if (analyzed) {
                    l.add("");
                    l.add("");
                }
                rows.add(l.toArray(String[]::new));
            }
        }
        final int[] widths = new int[header.size()];
        for (final String[] r : rows) {
            for (int c = 0; c < r.length; c++) {
                widths[c] = Math.max(widths[c], r[c].length());
            }
        }
        int total = 1;
        for (final int w : widths) {
            total += w + 1;
        }
        final StringBuilder sb = new StringBuilder();
        sb.append("=".repeat(total)).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            final String[] r = rows.get(i);
            sb.append('|');
            for (int c = 0; c < r.length; c++) {
                sb.append(r[c]).append(" ".repeat(widths[c] - r[c].length())).append('|');
            }
            sb.append('\n');
            if (i == 0) {
                sb.append("-".repeat(total)).append('\n');
            }
        }
        sb.append("=".repeat(total)).append('\n');
        sb.append("Outputs & filters:\n");
        sb.append("-------------------------------------\n");
        for (final ExplainOperator o : plan.operators()) {
            final StringBuilder line = new StringBuilder();
            line.append(String.format(Locale.ROOT, "%3d", o.id())).append(" - output(")
                    .append(bracketed(o.outputs())).append(')');
            for (final String d : o.details()) {
                line.append(", ").append(d);
            }
            final ExplainOperator.Actual a = o.actual();
            if (a != null && o.exchange() != null && o.exchange().out() && a.rowsRemote() >= 0) {
                line.append(", sent(rows_remote=").append(a.rowsRemote()).append(", bytes_remote=").append(a.bytesRemote())
                        .append(", rows_local=").append(a.rowsLocal()).append(", bytes_local=").append(a.bytesLocal())
                        .append(')');
            }
            sb.append(line).append('\n');
        }
        return sb.toString();
    }

    private static String bracketed(final List<String> names) {
        final StringBuilder sb = new StringBuilder();
        for (final String s : names) {
            sb.append(sb.length() == 0 ? "" : ", ").append('[').append(s).append(']');
        }
        return sb.toString();
    }
}
