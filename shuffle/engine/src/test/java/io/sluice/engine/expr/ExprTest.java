package io.sluice.engine.expr;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.dec;
import static io.sluice.engine.expr.Expr.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExprTest {
    private static final RowType TYPE = new RowType(List.of("price", "disc", "qty", "day", "s"),
            List.of(DataType.decimal(2), DataType.decimal(2), DataType.INT32, DataType.DATE, DataType.STRING));

    private static Batch batch(final long[] price, final long[] disc, final int[] qty, final int[] day,
                               final String... s) {
        return Batch.of(new LongVector(ColumnType.decimal(15, 2), price, price.length, null),
                new LongVector(ColumnType.decimal(15, 2), disc, disc.length, null),
                new IntVector(ColumnType.INT32, qty, qty.length, null),
                new IntVector(ColumnType.DATE, day, day.length, null),
                StringVector.of(s));
    }

    private final Batch rows = batch(new long[] {10050, 200}, new long[] {6, 10}, new int[] {3, 24},
            new int[] {(int) LocalDate.parse("1994-03-01").toEpochDay(), (int) LocalDate.parse("1999-12-31").toEpochDay()},
            "special packages requests", "PROMO BRUSHED");

    @Test
    void decimalProductAddsScalesAndSumsAlignThem() {
        final Evaluator product = Expr.mul(col("price"), Expr.sub(lit(1), col("disc"))).bind(TYPE);
        assertThat(product.type()).isEqualTo(DataType.decimal(4));
        // 100.50 * (1 - 0.06) = 94.4700; 2.00 * 0.90 = 1.8000
        assertThat(Arrays.copyOf(product.longs(rows), 2)).containsExactly(944700, 18000);
        final Evaluator sum = Expr.add(col("price"), dec("0.005")).bind(TYPE);
        assertThat(sum.type()).isEqualTo(DataType.decimal(3));
        assertThat(Arrays.copyOf(sum.longs(rows), 2)).containsExactly(100505, 2005);
    }

    @Test
    void divisionAndArithmeticWithADoubleAreDoubles() {
        final Evaluator ratio = Expr.div(col("price"), col("qty")).bind(TYPE);
        assertThat(ratio.type()).isEqualTo(DataType.DOUBLE);
        final long[] bits = ratio.longs(rows);
        // 100.50 / 3 and 2.00 / 24, computed here from the literal values
        assertThat(Double.longBitsToDouble(bits[0])).isEqualTo(100.50 / 3);
        assertThat(Double.longBitsToDouble(bits[1])).isEqualTo(2.00 / 24);
        final Expr scaled = new DoubleArithmetic(DoubleArithmetic.Op.MUL, dec("0.2"), Expr.div(col("qty"), lit(1)));
        final Evaluator below = Expr.lt(col("price"), scaled).bind(TYPE);
        // 100.50 < 0.6 is false; 2.00 < 4.8 is true: a decimal compared with a double
        assertThat(Arrays.copyOf(below.bools(rows), 2)).containsExactly(false, true);
    }

    @Test
    void substringCountsCharactersFromOne() {
        final Evaluator head = Expr.substring(col("s"), 1, 2).bind(TYPE);
        assertThat(head.strings(rows).getString(0)).isEqualTo("sp");
        assertThat(head.strings(rows).getString(1)).isEqualTo("PR");
        final RowType text = new RowType(List.of("t"), List.of(DataType.STRING));
        final Batch utf8 = Batch.of(StringVector.of("naïve", "ab", ""));
        final StringVector mid = Expr.substring(col("t"), 3, 2).bind(text).strings(utf8);
        assertThat(List.of(mid.getString(0), mid.getString(1), mid.getString(2))).containsExactly("ïv", "", "");
        final StringVector dict = StringVector.dictionary(new int[] {1, 0, 1}, StringVector.of("xyz", "uvw"), 3, null);
        final StringVector cut = Expr.substring(col("t"), 2, 5).bind(text).strings(Batch.of(dict));
        assertThat(List.of(cut.getString(0), cut.getString(1), cut.getString(2))).containsExactly("vw", "yz", "vw");
    }

    @Test
    void overflowThrowsInsteadOfWrapping() {
        final Batch big = batch(new long[] {Long.MAX_VALUE / 2}, new long[] {3}, new int[] {1}, new int[] {0}, "x");
        assertThatThrownBy(() -> Expr.mul(col("price"), col("disc")).bind(TYPE).longs(big))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void comparisonsAlignDecimalScalesWithConstants() {
        final Evaluator between = Expr.between(col("disc"), dec("0.05"), dec("0.070")).bind(TYPE);
        assertThat(Arrays.copyOf(between.bools(rows), 2)).containsExactly(true, false);
        final Evaluator lessThan = Expr.lt(col("qty"), lit(24)).bind(TYPE);
        assertThat(Arrays.copyOf(lessThan.bools(rows), 2)).containsExactly(true, false);
        final Evaluator in = Expr.in(col("disc"), dec("0.1"), dec("0.2")).bind(TYPE);
        assertThat(Arrays.copyOf(in.bools(rows), 2)).containsExactly(false, true);
    }

    @Test
    void likeHandlesPrefixSuffixContainsAndSequences() {
        assertThat(like("special%")).containsExactly(true, false);
        assertThat(like("%BRUSHED")).containsExactly(false, true);
        assertThat(like("%pack%")).containsExactly(true, false);
        assertThat(like("%special%requests%")).containsExactly(true, false);
        assertThat(like("%requests%special%")).containsExactly(false, false);
        assertThat(like("PROMO%SHED")).containsExactly(false, true);
        assertThat(like("PROMO BRUSHED")).containsExactly(false, true);
        assertThatThrownBy(() -> Expr.like(col("s"), "a_b")).hasMessageContaining("only % wildcards");
    }

    private boolean[] like(final String pattern) {
        return Arrays.copyOf(Expr.like(col("s"), pattern).bind(TYPE).bools(rows), 2);
    }

    @Test
    void stringPredicatesOnDictionaryVectorsMatchPlainOnes() {
        final StringVector dictionary = StringVector.of("MAIL", "SHIP", "AIR");
        final StringVector coded = StringVector.dictionary(new int[] {2, 0, 1, 0}, dictionary, 4, null);
        final RowType t = new RowType(List.of("m"), List.of(DataType.STRING));
        final Batch b = Batch.of(coded);
        assertThat(Arrays.copyOf(Expr.in(col("m"), "MAIL", "SHIP").bind(t).bools(b), 4))
                .containsExactly(false, true, true, true);
        assertThat(Arrays.copyOf(Expr.eq(col("m"), Expr.str("MAIL")).bind(t).bools(b), 4))
                .containsExactly(false, true, false, true);
        assertThat(Arrays.copyOf(Expr.lt(col("m"), Expr.str("MAIL")).bind(t).bools(b), 4))
                .containsExactly(true, false, false, false);
    }

    @Test
    void caseWhenAndExtractYear() {
        final Evaluator c = Expr.caseWhen(Expr.lt(col("qty"), lit(10)), col("price"), lit(0)).bind(TYPE);
        assertThat(c.type()).isEqualTo(DataType.decimal(2));
        assertThat(Arrays.copyOf(c.longs(rows), 2)).containsExactly(10050, 0);
        assertThat(Arrays.copyOf(Expr.year(col("day")).bind(TYPE).longs(rows), 2)).containsExactly(1994, 1999);
    }

    @Test
    void yearOfMatchesJavaTimeOverFourCenturies() {
        for (long day = LocalDate.parse("1800-01-01").toEpochDay(); day < LocalDate.parse("2200-01-01").toEpochDay();
             day += 13) {
            assertThat(Dates.yearOf(day)).as("day %d", day).isEqualTo(LocalDate.ofEpochDay(day).getYear());
        }
    }

    @Test
    void dateIntervalsFoldToConstants() {
        assertThat(Dates.plusMonths("1993-07-01", 3)).isEqualTo(Expr.date("1993-10-01"));
        assertThat(Dates.plusDays("1998-12-01", -90)).isEqualTo(Expr.date("1998-09-02"));
        assertThat(Dates.plusYears("1994-01-01", 1)).isEqualTo(Expr.date("1995-01-01"));
    }

    @Test
    void functionsOfConstantsFoldToConstants() {
        assertThat(Expr.function(ScalarFunction.Function.CAST, DataType.DATE, Expr.str("2000-06-30")))
                .isEqualTo(Expr.date("2000-06-30"));
        assertThat(Expr.function(ScalarFunction.Function.CAST, DataType.decimal(1), Expr.str("12.25")))
                .isEqualTo(new Literal(DataType.decimal(1), 123, null));
        assertThat(Expr.function(ScalarFunction.Function.LPAD, DataType.STRING, Expr.str("7"), lit(3), Expr.str("0")))
                .isEqualTo(Expr.str("007"));
        assertThat(Expr.function(ScalarFunction.Function.UPPER, DataType.STRING, Expr.nullOf(DataType.STRING)))
                .isEqualTo(Expr.nullOf(DataType.STRING));
        assertThat(Expr.function(ScalarFunction.Function.MONTH, DataType.INT64, col("day")))
                .isInstanceOf(ScalarFunction.class);
    }

    @Test
    void aConstantAFunctionRefusesFailsWhenRowsAreEvaluatedNotWhenThePlanIsWritten() {
        final Expr refused = Expr.function(ScalarFunction.Function.CAST, DataType.INT64, Expr.str("x"));
        assertThat(refused).isInstanceOf(ScalarFunction.class);
        assertThatThrownBy(() -> refused.bind(TYPE).longs(rows)).hasMessageContaining("'x' is not a number");
    }

    @Test
    void typeErrorsNameTheExpression() {
        assertThatThrownBy(() -> Expr.add(col("s"), lit(1)).bind(TYPE)).hasMessageContaining("(s + 1)");
        assertThatThrownBy(() -> Expr.lt(col("day"), lit(3)).bind(TYPE)).hasMessageContaining("compare dates with dates");
        assertThatThrownBy(() -> col("nope").bind(TYPE)).hasMessageContaining("no column 'nope'");
    }
}
