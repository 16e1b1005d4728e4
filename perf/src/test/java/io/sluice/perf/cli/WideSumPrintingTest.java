package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A 128-bit sum prints exactly, all 38 digits, in CSV, JSON and the table; NULL as NULL. */
class WideSumPrintingTest {
    private static final String BIG = "-123456789012345678901234567890123456.78";

    private static QueryResult result() {
        final BigInteger unscaled = new BigInteger(BIG.replace(".", ""));
        final long[] nulls = new long[1];
        NullMask.setNull(nulls, 1);
        final Decimal128Vector sums = new Decimal128Vector(ColumnType.decimal(38, 2),
                new long[] {unscaled.shiftRight(64).longValue(), 0}, new long[] {unscaled.longValue(), 0}, 2, nulls);
        return new QueryResult(new RowType(List.of("total"), List.of(DataType.decimal128(2))),
                List.of(Batch.of(sums)));
    }

    @Test
    void everyFormatPrintsAllDigits() {
        assertThat(ResultPrinter.format(result(), ResultFormat.csv)).isEqualTo("total\r\n" + BIG + "\r\n\r\n");
        assertThat(ResultPrinter.format(result(), ResultFormat.json)).contains("\"total\": " + BIG)
                .contains("\"total\": null");
        assertThat(ResultPrinter.format(result(), ResultFormat.table)).contains(BIG);
    }
}
