package io.sluice.dispatch.explain;

import java.util.Locale;

/**
 * Seed 002's distributed view: {@code Fragment N [SOURCE|HASH|RANGE|BROADCAST|SINGLE]} per fragment
 * with where its rows go (the exchange its root sends into, or the result), the fragments it reads,
 * its operators as the operator table numbers them, and its pipelines from source through operators
 * to sink. After ANALYZE each exchange line adds the rows and bytes it moved across and inside CNs.
 */
public final class FragmentView {
    private FragmentView() {
    }

    /** The fragments, as lines ending with a newline. */
    public static String render(final ExplainPlan plan) {
        final StringBuilder sb = new StringBuilder();
        for (final ExplainFragment f : plan.fragments()) {
            sb.append("Fragment ").append(f.id()).append(" [").append(f.type()).append("]\n");
            final ExplainOperator top = plan.operators().get(f.operators().get(0));
            sb.append("    Output layout: ").append(top.outputs()).append('\n');
            sb.append("    Output: ").append(f.output());
            if (top.exchange() != null && top.exchange().out()) {
                sb.append(", est. ").append(top.exchange().estCrossCnRows() < 0 ? "unknown"
                        : String.valueOf(top.exchange().estCrossCnRows())).append(" rows across CNs");
                final ExplainOperator.Actual a = top.actual();
                if (a != null && a.rowsRemote() >= 0) {
                    sb.append(String.format(Locale.ROOT, ", actual %d rows (%d bytes) across CNs, %d rows (%d bytes)"
                            + " inside", a.rowsRemote(), a.bytesRemote(), a.rowsLocal(), a.bytesLocal()));
                }
            }
            sb.append('\n');
            if (!f.sources().isEmpty()) {
                sb.append("    Reads fragments: ").append(f.sources()).append('\n');
            }
            for (final int id : f.operators()) {
                final ExplainOperator o = plan.operators().get(id);
                sb.append("    ").append("  ".repeat(o.depth() - top.depth())).append(o.operator())
                        .append(o.name().isEmpty() ? "" : " " + o.name()).append(" [#").append(o.id()).append("]");
                if (o.actual() != null) {
                    sb.append(" rows ").append(o.actual().rows());
                }
                sb.append('\n');
            }
            for (final var lines : f.pipelines()) {
                sb.append("    ").append(lines.get(0)).append('\n');
                for (int i = 1; i < lines.size(); i++) {
                    sb.append("        ").append(lines.get(i)).append('\n');
                }
            }
        }
        return sb.toString();
    }
}
