package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.Arrays;
import java.util.List;

/**
 * A scalar function of SQL's dialect outside the operators the engine has tight loops for: the
 * string functions (UPPER, LOWER, TRIM, CONCAT, REPLACE, LEFT, RIGHT, LPAD, RPAD, LENGTH, POSITION),
 * date parts and month arithmetic, SQRT, ABS and ROUND, and CAST between the engine's types. It is
 * evaluated a row at a time, each value as a Java object, and each function follows DuckDB's
 * definition (DuckDB is the oracle the SQL corpus compares with). {@code type} is the result type
 * the planner derived; a function is NULL where an argument is, except CONCAT, which skips NULLs.
 */
public record ScalarFunction(Function function, List<Expr> arguments, DataType type) implements Expr {
    /** The functions, each with the number of arguments it takes ({@code -1}: one or more). */
    public enum Function {
        UPPER(1), LOWER(1), TRIM(1), LTRIM(1), RTRIM(1), CONCAT(-1), REPLACE(3), LEFT(2), RIGHT(2), LPAD(3), RPAD(3),
        LENGTH(1), POSITION(2), MONTH(1), DAY(1), QUARTER(1), DAY_OF_WEEK(1), ISO_DAY_OF_WEEK(1), DAY_OF_YEAR(1),
        WEEK(1), ADD_MONTHS(2), SQRT(1), ABS(1), CAST(1), ROUND(2);

        private final int arity;

        Function(final int arity) {
            this.arity = arity;
        }

        /** The number of arguments it takes, {@code -1} for one or more. */
        public int arity() {
            return arity;
        }
    }

    public ScalarFunction {
        arguments = List.copyOf(arguments);
        if (function.arity >= 0 ? arguments.size() != function.arity : arguments.isEmpty()) {
            throw new IllegalArgumentException(function + " takes " + (function.arity < 0 ? "one or more"
                    : function.arity) + " arguments, got " + arguments.size());
        }
        if (type.isWide() || type.kind() == DataType.Kind.BOOLEAN) {
            throw new IllegalArgumentException(function + " cannot produce a " + type);
        }
    }

    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator[] args = new Evaluator[arguments.size()];
        for (int a = 0; a < args.length; a++) {
            args[a] = arguments.get(a).bind(input);
            if (args[a].type().isWide() || args[a].type().kind() == DataType.Kind.BOOLEAN) {
                throw new IllegalArgumentException(this + ": argument " + arguments.get(a) + " has type "
                        + args[a].type() + ", which " + function + " does not take");
            }
        }
        return new Evaluator(type) {
            private final Object[][] columns = new Object[args.length][];
            private final Object[] row = new Object[args.length];
            private final long[] longs = new long[MAX_ROWS];
            private final long[] nullScratch = new long[NullRows.WORDS];

            @Override
            public long[] longs(final Batch batch) {
                if (type.kind() == DataType.Kind.STRING) {
                    return super.longs(batch);
                }
                final int n = batch.rowCount();
                read(batch);
                for (int i = 0; i < n; i++) {
                    final Object v = apply(i);
                    longs[i] = v == null ? 0 : toLong(v);
                }
                return longs;
            }

            @Override
            public StringVector strings(final Batch batch) {
                if (type.kind() != DataType.Kind.STRING) {
                    return super.strings(batch);
                }
                final int n = batch.rowCount();
                read(batch);
                final int[] offsets = new int[n + 1];
                byte[] bytes = new byte[64];
                int size = 0;
                for (int i = 0; i < n; i++) {
                    final Object v = apply(i);
                    if (v != null) {
                        final byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
                        if (size + b.length > bytes.length) {
                            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + b.length));
                        }
                        System.arraycopy(b, 0, bytes, size, b.length);
                        size += b.length;
                    }
                    offsets[i + 1] = size;
                }
                return StringVector.plain(offsets, bytes, n, nulls(batch));
            }

            @Override
            public long[] nulls(final Batch batch) {
                if (function == Function.CONCAT) {
                    return null;
                }
                long[] out = null;
                for (final Evaluator a : args) {
                    final long[] m = a.nulls(batch);
                    out = out == null ? m : NullRows.union(out, m, nullScratch, batch.rowCount());
                }
                return out;
            }

            private void read(final Batch batch) {
                for (int a = 0; a < args.length; a++) {
                    columns[a] = values(args[a], batch);
                }
            }

            private Object apply(final int i) {
                for (int a = 0; a < args.length; a++) {
                    row[a] = columns[a][i];
                    if (row[a] == null && function != Function.CONCAT) {
                        return null;
                    }
                }
                return evaluate(row);
            }

            @Override
            public String toString() {
                return ScalarFunction.this.toString();
            }
        };
    }

    /**
     * This function of constants as the constant it gives, or this function when an argument is not a constant:
     * a filter such as TPC-DS Q83's {@code d_date IN ('2000-06-30', ...)} then compares dates with the constant
     * (and prunes blocks by it) instead of parsing the string again for every row. A constant the function
     * refuses (CAST('x' AS INT)) stays a function, so the error comes where it did: when rows are evaluated.
     */
    public Expr folded() {
        final Object[] a = new Object[arguments.size()];
        for (int i = 0; i < a.length; i++) {
            if (!(arguments.get(i) instanceof Literal l) || l.type().isWide()
                    || l.type().kind() == DataType.Kind.BOOLEAN) {
                return this;
            }
            if (l.isNull()) {
                if (function != Function.CONCAT) {
                    return Literal.ofNull(type);
                }
                continue;
            }
            a[i] = switch (l.type().kind()) {
                case STRING -> l.string();
                case DECIMAL -> BigDecimal.valueOf(l.value(), l.type().scale());
                case DATE -> LocalDate.ofEpochDay(l.value());
                case DOUBLE -> Double.longBitsToDouble(l.value());
                default -> l.value();
            };
        }
        final Object v;
        final long value;
        try {
            v = evaluate(a);
            value = type.kind() == DataType.Kind.STRING ? 0 : toLong(v);
        } catch (final RuntimeException refused) {
            return this;
        }
        return new Literal(type, value, type.kind() == DataType.Kind.STRING ? (String) v : null);
    }

    /** The values of a batch as objects (Long, BigDecimal, LocalDate, String, Double), null where NULL. */
    private static Object[] values(final Evaluator e, final Batch batch) {
        final int n = batch.rowCount();
        final Object[] out = new Object[n];
        final long[] nulls = e.nulls(batch);
        final DataType t = e.type();
        if (t.kind() == DataType.Kind.STRING) {
            final StringVector s = e.strings(batch);
            for (int i = 0; i < n; i++) {
                out[i] = nulls != null && NullMask.isNull(nulls, i) ? null : s.getString(i);
            }
            return out;
        }
        final long[] v = e.longs(batch);
        for (int i = 0; i < n; i++) {
            if (nulls != null && NullMask.isNull(nulls, i)) {
                continue;
            }
            out[i] = switch (t.kind()) {
                case DECIMAL -> BigDecimal.valueOf(v[i], t.scale());
                case DATE -> LocalDate.ofEpochDay(v[i]);
                case DOUBLE -> Double.longBitsToDouble(v[i]);
                default -> v[i];
            };
        }
        return out;
    }

    /** A result as the long the evaluator returns for {@link #type}. */
    private long toLong(final Object v) {
        return switch (type.kind()) {
            case DOUBLE -> Double.doubleToRawLongBits(((Number) v).doubleValue());
            case DATE -> ((LocalDate) v).toEpochDay();
            case DECIMAL -> decimal(v).setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue().longValueExact();
            default -> v instanceof Long l ? l : decimal(v).setScale(0, RoundingMode.HALF_UP).longValueExact();
        };
    }

    private static BigDecimal decimal(final Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Long l) {
            return BigDecimal.valueOf(l);
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                throw new IllegalArgumentException("the double " + d + " has no exact value");
            }
            return BigDecimal.valueOf(d);
        }
        throw new IllegalArgumentException("not a number: " + v);
    }

    /** The function of one row's arguments, none NULL (but CONCAT's). */
    private Object evaluate(final Object[] a) {
        return switch (function) {
            case UPPER -> str(a[0]).toUpperCase(java.util.Locale.ROOT);
            case LOWER -> str(a[0]).toLowerCase(java.util.Locale.ROOT);
            case TRIM -> trim(str(a[0]), true, true);
            case LTRIM -> trim(str(a[0]), true, false);
            case RTRIM -> trim(str(a[0]), false, true);
            case CONCAT -> concat(a);
            case REPLACE -> str(a[1]).isEmpty() ? str(a[0]) : str(a[0]).replace(str(a[1]), str(a[2]));
            case LEFT -> left(str(a[0]), (Long) a[1]);
            case RIGHT -> right(str(a[0]), (Long) a[1]);
            case LPAD -> pad(str(a[0]), (Long) a[1], str(a[2]), true);
            case RPAD -> pad(str(a[0]), (Long) a[1], str(a[2]), false);
            case LENGTH -> (long) str(a[0]).codePointCount(0, str(a[0]).length());
            case POSITION -> position(str(a[0]), str(a[1]));
            case MONTH -> (long) date(a[0]).getMonthValue();
            case DAY -> (long) date(a[0]).getDayOfMonth();
            case QUARTER -> (long) (date(a[0]).getMonthValue() + 2) / 3;
            case DAY_OF_WEEK -> (long) (date(a[0]).getDayOfWeek().getValue() % 7);
            case ISO_DAY_OF_WEEK -> (long) date(a[0]).getDayOfWeek().getValue();
            case DAY_OF_YEAR -> (long) date(a[0]).getDayOfYear();
            case WEEK -> (long) date(a[0]).get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case ADD_MONTHS -> date(a[0]).plusMonths((Long) a[1]);
            case SQRT -> Math.sqrt(((Number) a[0]).doubleValue());
            case ABS -> abs(a[0]);
            case CAST -> cast(a[0]);
            case ROUND -> round(a[0], (Long) a[1]);
        };
    }

    private static String str(final Object v) {
        return (String) v;
    }

    private static LocalDate date(final Object v) {
        return (LocalDate) v;
    }

    /** The string without its leading and/or trailing spaces (only spaces, as DuckDB trims). */
    private static String trim(final String s, final boolean leading, final boolean trailing) {
        int from = 0;
        int to = s.length();
        while (leading && from < to && s.charAt(from) == ' ') {
            from++;
        }
        while (trailing && to > from && s.charAt(to - 1) == ' ') {
            to--;
        }
        return s.substring(from, to);
    }

    private static String concat(final Object[] a) {
        final StringBuilder sb = new StringBuilder();
        for (final Object v : a) {
            if (v != null) {
                sb.append(text(v));
            }
        }
        return sb.toString();
    }

    /** The first {@code n} characters; a negative {@code n} drops that many from the end. */
    private static String left(final String s, final long n) {
        final int chars = s.codePointCount(0, s.length());
        final long keep = n >= 0 ? Math.min(n, chars) : Math.max(0, chars + n);
        return s.substring(0, s.offsetByCodePoints(0, (int) keep));
    }

    /** The last {@code n} characters; a negative {@code n} drops that many from the start. */
    private static String right(final String s, final long n) {
        final int chars = s.codePointCount(0, s.length());
        final long keep = n >= 0 ? Math.min(n, chars) : Math.max(0, chars + n);
        return s.substring(s.offsetByCodePoints(0, (int) (chars - keep)));
    }

    /** Pads to {@code n} characters with repeats of {@code fill}, or cuts to {@code n}, as DuckDB does. */
    private static String pad(final String s, final long n, final String fill, final boolean before) {
        final int chars = s.codePointCount(0, s.length());
        if (n <= chars) {
            return left(s, Math.max(0, n));
        }
        if (fill.isEmpty()) {
            return s;
        }
        final StringBuilder padding = new StringBuilder();
        final int[] fills = fill.codePoints().toArray();
        for (long c = chars; c < n; c++) {
            padding.appendCodePoint(fills[(int) ((c - chars) % fills.length)]);
        }
        return before ? padding + s : s + padding;
    }

    /** The character position (from 1) of the first {@code needle} in {@code s}, 0 when there is none. */
    private static long position(final String s, final String needle) {
        final int at = s.indexOf(needle);
        return at < 0 ? 0 : s.codePointCount(0, at) + 1L;
    }

    /** Rounded to {@code digits} decimal places (tens, hundreds where negative), half away from zero. */
    private static Object round(final Object v, final long digits) {
        final BigDecimal rounded = (v instanceof Double d ? BigDecimal.valueOf(d) : decimal(v))
                .setScale((int) digits, RoundingMode.HALF_UP);
        return v instanceof Double ? (Object) rounded.doubleValue() : rounded;
    }

    private static Object abs(final Object v) {
        if (v instanceof Long l) {
            return Math.abs(l);
        }
        if (v instanceof Double d) {
            return Math.abs(d);
        }
        return ((BigDecimal) v).abs();
    }

    /** The value as {@link #type}: numbers round half away from zero, strings parse, anything prints. */
    private Object cast(final Object v) {
        return switch (type.kind()) {
            case STRING -> text(v);
            case DATE -> v instanceof LocalDate d ? d : LocalDate.parse(((String) v).strip());
            case DOUBLE -> v instanceof String s ? Double.parseDouble(s.strip()) : (Object) decimalOrDouble(v);
            default -> v instanceof String s ? parseNumber(s) : v;
        };
    }

    private static double decimalOrDouble(final Object v) {
        return v instanceof Double d ? d : decimal(v).doubleValue();
    }

    private BigDecimal parseNumber(final String s) {
        try {
            return new BigDecimal(s.strip());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("CAST('" + s + "' AS " + type + "): '" + s + "' is not a number");
        }
    }

    /** A value as DuckDB prints it when cast to a string. */
    private static String text(final Object v) {
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return v.toString();
    }

    @Override
    public String toString() {
        if (function == Function.CAST) {
            return "CAST(" + arguments.get(0) + " AS " + type + ")";
        }
        final StringBuilder sb = new StringBuilder(function.name().toLowerCase(java.util.Locale.ROOT)).append('(');
        for (int a = 0; a < arguments.size(); a++) {
            sb.append(a == 0 ? "" : ", ").append(arguments.get(a));
        }
        return sb.append(')').toString();
    }
}
