package io.sluice.dispatch.explain;

/**
 * The COST column of the operator table: a unitless sum of work, this operator's own term plus its
 * inputs' costs, from the zonemap estimates {@code rows} (rows out), {@code in} (rows into it, its
 * inputs' rows summed) and {@code width} (estimated bytes per row, {@code PlanStats.rowWidth}):
 * <ul>
 *   <li>TABLE SCAN: {@code rows * width} (bytes read)</li>
 *   <li>FILTER, PROJECT, GROUP BY, LIMIT, UNION ALL: {@code in} (one step per row in)</li>
 *   <li>SORT: {@code in * ceil(log2(max(2, in)))}; EXCHANGE IN MERGE SORT: {@code in * ceil(log2(max(2, runs)))}</li>
 *   <li>HASH JOIN: {@code 2 * buildRows + probeRows} (insert each build row, look up each probe row)</li>
 *   <li>NESTED-LOOP JOIN: {@code probeRows * buildRows} (every pair)</li>
 *   <li>EXCHANGE OUT: {@code rows * width + crossCnRows * width} (encode every row, send the ones that leave their CN)</li>
 *   <li>EXCHANGE IN: {@code rows * width} (decode)</li>
 * </ul>
 * Unknown estimates (-1) count as 0; sums saturate at {@link Long#MAX_VALUE}. It ranks plans of the
 * same query; it is not a time.
 */
final class CostModel {
    private CostModel() {
    }

    static long scan(final long rows, final long width) {
        return times(rows, width);
    }

    static long perRow(final long in) {
        return Math.max(0, in);
    }

    static long sort(final long in) {
        return times(in, log2(in));
    }

    static long merge(final long in, final long runs) {
        return times(in, log2(runs));
    }

    static long hashJoin(final long probeRows, final long buildRows) {
        return plus(times(2, buildRows), Math.max(0, probeRows));
    }

    static long nestedLoopJoin(final long probeRows, final long buildRows) {
        return times(Math.max(0, probeRows), Math.max(0, buildRows));
    }

    static long exchangeOut(final long rows, final long width, final long crossCnRows) {
        return plus(times(rows, width), times(crossCnRows, width));
    }

    static long exchangeIn(final long rows, final long width) {
        return times(rows, width);
    }

    static long plus(final long a, final long b) {
        final long x = Math.max(0, a);
        final long y = Math.max(0, b);
        return x > Long.MAX_VALUE - y ? Long.MAX_VALUE : x + y;
    }

    static long times(final long a, final long b) {
        final long x = Math.max(0, a);
        final long y = Math.max(0, b);
        return y != 0 && x > Long.MAX_VALUE / y ? Long.MAX_VALUE : x * y;
    }

    private static long log2(final long n) {
        final long m = Math.max(2, n);
        return 64 - Long.numberOfLeadingZeros(m - 1);
    }
}
