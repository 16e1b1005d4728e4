package io.sluice.engine.plan;

import io.sluice.engine.expr.Arithmetic;
import io.sluice.engine.expr.CaseWhen;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Comparison;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.DoubleArithmetic;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.ExtractYear;
import io.sluice.engine.expr.InList;
import io.sluice.engine.expr.IsNull;
import io.sluice.engine.expr.Like;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.Logical;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.Not;
import io.sluice.engine.expr.ScalarFunction;
import io.sluice.engine.expr.Substring;
import io.sluice.engine.wire.EnumCodes;
import io.sluice.engine.wire.WireReader;
import io.sluice.engine.wire.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The expression part of {@link PlanCodec}'s format: a tag byte per expression, then its fields,
 * operands written recursively. Tags and enum codes are listed in {@link PlanCodec}.
 */
final class ExprCodec {
    static final byte COLUMN_REF = 1;
    static final byte LITERAL = 2;
    static final byte ARITHMETIC = 3;
    static final byte COMPARISON = 4;
    static final byte LOGICAL = 5;
    static final byte NOT = 6;
    static final byte IN_LIST = 7;
    static final byte LIKE = 8;
    static final byte CASE_WHEN = 9;
    static final byte EXTRACT_YEAR = 10;
    static final byte DOUBLE_ARITHMETIC = 11;
    static final byte SUBSTRING = 12;
    static final byte IS_NULL = 13;
    static final byte SCALAR_FUNCTION = 14;

    /** The fewest bytes an encoded expression takes: a column reference, tag and empty name. */
    static final int MIN_EXPR_BYTES = 1 + 4;
    /** The fewest bytes an encoded named expression takes: a name and an expression. */
    static final int MIN_NAMED_EXPR_BYTES = 4 + MIN_EXPR_BYTES;

    static final EnumCodes<DataType.Kind> KINDS = EnumCodes.of(DataType.Kind.class,
            DataType.Kind.INT64, DataType.Kind.INT32, DataType.Kind.DECIMAL, DataType.Kind.DATE,
            DataType.Kind.STRING, DataType.Kind.BOOLEAN, DataType.Kind.DOUBLE, DataType.Kind.DECIMAL128);
    static final EnumCodes<Arithmetic.Op> ARITHMETIC_OPS = EnumCodes.of(Arithmetic.Op.class,
            Arithmetic.Op.ADD, Arithmetic.Op.SUB, Arithmetic.Op.MUL);
    static final EnumCodes<DoubleArithmetic.Op> DOUBLE_ARITHMETIC_OPS = EnumCodes.of(DoubleArithmetic.Op.class,
            DoubleArithmetic.Op.ADD, DoubleArithmetic.Op.SUB, DoubleArithmetic.Op.MUL, DoubleArithmetic.Op.DIV);
    static final EnumCodes<Comparison.Op> COMPARISON_OPS = EnumCodes.of(Comparison.Op.class,
            Comparison.Op.EQ, Comparison.Op.NE, Comparison.Op.LT, Comparison.Op.LE, Comparison.Op.GT, Comparison.Op.GE);
    static final EnumCodes<ScalarFunction.Function> FUNCTIONS = EnumCodes.of(ScalarFunction.Function.class,
            ScalarFunction.Function.UPPER, ScalarFunction.Function.LOWER, ScalarFunction.Function.TRIM,
            ScalarFunction.Function.LTRIM, ScalarFunction.Function.RTRIM, ScalarFunction.Function.CONCAT,
            ScalarFunction.Function.REPLACE, ScalarFunction.Function.LEFT, ScalarFunction.Function.RIGHT,
            ScalarFunction.Function.LPAD, ScalarFunction.Function.RPAD, ScalarFunction.Function.LENGTH,
            ScalarFunction.Function.POSITION, ScalarFunction.Function.MONTH, ScalarFunction.Function.DAY,
            ScalarFunction.Function.QUARTER, ScalarFunction.Function.DAY_OF_WEEK,
            ScalarFunction.Function.ISO_DAY_OF_WEEK, ScalarFunction.Function.DAY_OF_YEAR, ScalarFunction.Function.WEEK,
            ScalarFunction.Function.ADD_MONTHS, ScalarFunction.Function.SQRT, ScalarFunction.Function.ABS,
            ScalarFunction.Function.CAST, ScalarFunction.Function.ROUND);
    static final EnumCodes<Logical.Op> LOGICAL_OPS = EnumCodes.of(Logical.Op.class, Logical.Op.AND, Logical.Op.OR);

    private ExprCodec() {
    }

    static void writeNamed(final WireWriter out, final NamedExpr item, final String path, final int depth) {
        PlanCodec.require(item, path);
        out.writeString(item.name());
        write(out, item.expr(), path + ".expr", depth);
    }

    static NamedExpr readNamed(final WireReader in, final String path, final int depth) {
        final int at = in.position();
        final String name = in.readString(path + ".name");
        final Expr expr = read(in, path + ".expr", depth);
        return PlanCodec.build(in, path, at, () -> new NamedExpr(name, expr));
    }

    static void writeList(final WireWriter out, final List<Expr> exprs, final String path, final int depth) {
        PlanCodec.require(exprs, path);
        out.writeInt(exprs.size());
        for (int i = 0; i < exprs.size(); i++) {
            write(out, exprs.get(i), path + "[" + i + "]", depth);
        }
    }

    static List<Expr> readList(final WireReader in, final String path, final int depth) {
        final int n = in.readCount(path, MIN_EXPR_BYTES);
        final List<Expr> exprs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            exprs.add(read(in, path + "[" + i + "]", depth));
        }
        return exprs;
    }

    /** Writes an expression that may be null: a presence flag, then the expression. */
    static void writeOptional(final WireWriter out, final Expr e, final String path, final int depth) {
        out.writeBoolean(e != null);
        if (e != null) {
            write(out, e, path, depth);
        }
    }

    static Expr readOptional(final WireReader in, final String path, final int depth) {
        return in.readBoolean(path + ".present") ? read(in, path, depth) : null;
    }

    /**
     * Writes an expression at nesting level {@code depth} (of its parent).
     *
     * @param path where the expression sits in the plan, for errors
     */
    static void write(final WireWriter out, final Expr e, final String path, final int depth) {
        PlanCodec.require(e, path);
        final int d = PlanCodec.checkDepth(depth + 1, path);
        if (e instanceof ColumnRef r) {
            out.writeByte(COLUMN_REF);
            PlanCodec.writeString(out, r.name(), path + ".columnRef.name");
        } else if (e instanceof Literal l) {
            if (l.type().kind() == DataType.Kind.DATE && !l.isNull() && !isDate(l.value())) {
                throw new IllegalArgumentException(path + ".literal.value: epoch day " + l.value()
                        + " is no date and cannot be shipped: a DATE literal lies within " + EPOCH_DAYS);
            }
            out.writeByte(LITERAL);
            KINDS.write(out, PlanCodec.require(l.type().kind(), path + ".literal.type.kind"));
            out.writeByte((byte) l.type().scale());
            out.writeBoolean(l.isNull());
            out.writeLong(l.value());
            out.writeBoolean(l.string() != null);
            if (l.string() != null) {
                out.writeString(l.string());
            }
        } else if (e instanceof Arithmetic a) {
            out.writeByte(ARITHMETIC);
            ARITHMETIC_OPS.write(out, PlanCodec.require(a.op(), path + ".arithmetic.op"));
            write(out, a.left(), path + ".arithmetic.left", d);
            write(out, a.right(), path + ".arithmetic.right", d);
        } else if (e instanceof Comparison c) {
            out.writeByte(COMPARISON);
            COMPARISON_OPS.write(out, PlanCodec.require(c.op(), path + ".comparison.op"));
            write(out, c.left(), path + ".comparison.left", d);
            write(out, c.right(), path + ".comparison.right", d);
        } else if (e instanceof Logical l) {
            out.writeByte(LOGICAL);
            LOGICAL_OPS.write(out, PlanCodec.require(l.op(), path + ".logical.op"));
            writeList(out, l.terms(), path + ".logical.terms", d);
        } else if (e instanceof Not n) {
            out.writeByte(NOT);
            write(out, n.term(), path + ".not.term", d);
        } else if (e instanceof InList i) {
            out.writeByte(IN_LIST);
            write(out, i.value(), path + ".inList.value", d);
            writeList(out, i.list(), path + ".inList.list", d);
        } else if (e instanceof Like l) {
            out.writeByte(LIKE);
            write(out, l.value(), path + ".like.value", d);
            PlanCodec.writeString(out, l.pattern(), path + ".like.pattern");
        } else if (e instanceof CaseWhen c) {
            out.writeByte(CASE_WHEN);
            write(out, c.condition(), path + ".caseWhen.condition", d);
            write(out, c.then(), path + ".caseWhen.then", d);
            writeOptional(out, c.otherwise(), path + ".caseWhen.otherwise", d);
        } else if (e instanceof ExtractYear y) {
            out.writeByte(EXTRACT_YEAR);
            write(out, y.date(), path + ".extractYear.date", d);
        } else if (e instanceof DoubleArithmetic a) {
            out.writeByte(DOUBLE_ARITHMETIC);
            DOUBLE_ARITHMETIC_OPS.write(out, PlanCodec.require(a.op(), path + ".doubleArithmetic.op"));
            write(out, a.left(), path + ".doubleArithmetic.left", d);
            write(out, a.right(), path + ".doubleArithmetic.right", d);
        } else if (e instanceof Substring sub) {
            out.writeByte(SUBSTRING);
            write(out, sub.value(), path + ".substring.value", d);
            out.writeInt(sub.start());
            out.writeInt(sub.length());
        } else if (e instanceof IsNull n) {
            out.writeByte(IS_NULL);
            write(out, n.operand(), path + ".isNull.operand", d);
            out.writeBoolean(n.negated());
        } else if (e instanceof ScalarFunction f) {
            out.writeByte(SCALAR_FUNCTION);
            FUNCTIONS.write(out, PlanCodec.require(f.function(), path + ".scalarFunction.function"));
            KINDS.write(out, PlanCodec.require(f.type().kind(), path + ".scalarFunction.type.kind"));
            out.writeByte((byte) f.type().scale());
            writeList(out, f.arguments(), path + ".scalarFunction.arguments", d);
        } else {
            throw new IllegalStateException(path + ": " + e.getClass().getName() + " is an Expr the plan codec does"
                    + " not know: give it a tag in ExprCodec");
        }
    }

    /** Reads an expression at nesting level {@code depth} (of its parent). */
    static Expr read(final WireReader in, final String path, final int depth) {
        final int at = in.position();
        final int d = PlanCodec.checkDepth(in, depth + 1, path);
        final int tag = in.readUnsignedByte(path);
        return switch (tag) {
            case COLUMN_REF -> new ColumnRef(in.readString(path + ".columnRef.name"));
            case LITERAL -> readLiteral(in, path + ".literal", at);
            case ARITHMETIC -> {
                final String p = path + ".arithmetic";
                final Arithmetic.Op op = ARITHMETIC_OPS.read(in, p + ".op");
                final Expr left = read(in, p + ".left", d);
                final Expr right = read(in, p + ".right", d);
                yield new Arithmetic(op, left, right);
            }
            case COMPARISON -> {
                final String p = path + ".comparison";
                final Comparison.Op op = COMPARISON_OPS.read(in, p + ".op");
                final Expr left = read(in, p + ".left", d);
                final Expr right = read(in, p + ".right", d);
                yield new Comparison(op, left, right);
            }
            case LOGICAL -> {
                final String p = path + ".logical";
                final Logical.Op op = LOGICAL_OPS.read(in, p + ".op");
                final List<Expr> terms = readList(in, p + ".terms", d);
                yield PlanCodec.build(in, p, at, () -> new Logical(op, terms));
            }
            case NOT -> new Not(read(in, path + ".not.term", d));
            case IN_LIST -> {
                final String p = path + ".inList";
                final Expr value = read(in, p + ".value", d);
                final List<Expr> list = readList(in, p + ".list", d);
                yield PlanCodec.build(in, p, at, () -> new InList(value, list));
            }
            case LIKE -> {
                final String p = path + ".like";
                final Expr value = read(in, p + ".value", d);
                final String pattern = in.readString(p + ".pattern");
                yield PlanCodec.build(in, p, at, () -> new Like(value, pattern));
            }
            case CASE_WHEN -> {
                final String p = path + ".caseWhen";
                final Expr condition = read(in, p + ".condition", d);
                final Expr then = read(in, p + ".then", d);
                final Expr otherwise = readOptional(in, p + ".otherwise", d);
                yield new CaseWhen(condition, then, otherwise);
            }
            case EXTRACT_YEAR -> new ExtractYear(read(in, path + ".extractYear.date", d));
            case DOUBLE_ARITHMETIC -> {
                final String p = path + ".doubleArithmetic";
                final DoubleArithmetic.Op op = DOUBLE_ARITHMETIC_OPS.read(in, p + ".op");
                final Expr left = read(in, p + ".left", d);
                final Expr right = read(in, p + ".right", d);
                yield new DoubleArithmetic(op, left, right);
            }
            case SUBSTRING -> {
                final String p = path + ".substring";
                final Expr value = read(in, p + ".value", d);
                final int start = in.readInt(p + ".start");
                final int length = in.readInt(p + ".length");
                yield PlanCodec.build(in, p, at, () -> new Substring(value, start, length));
            }
            case IS_NULL -> {
                final Expr operand = read(in, path + ".isNull.operand", d);
                yield new IsNull(operand, in.readBoolean(path + ".isNull.negated"));
            }
            case SCALAR_FUNCTION -> {
                final String p = path + ".scalarFunction";
                final ScalarFunction.Function function = FUNCTIONS.read(in, p + ".function");
                final DataType.Kind kind = KINDS.read(in, p + ".type.kind");
                final byte scale = in.readByte(p + ".type.scale");
                final List<Expr> arguments = readList(in, p + ".arguments", d);
                yield PlanCodec.build(in, p, at, () -> new ScalarFunction(function, arguments,
                        new DataType(kind, scale)));
            }
            default -> throw in.error(path, at, "unknown expression tag " + tag + ": expected " + COLUMN_REF
                    + " (columnRef) to " + SCALAR_FUNCTION + " (scalarFunction)");
        };
    }

    private static Literal readLiteral(final WireReader in, final String path, final int at) {
        final DataType.Kind kind = KINDS.read(in, path + ".type.kind");
        final byte scale = in.readByte(path + ".type.scale");
        final boolean isNull = in.readBoolean(path + ".isNull");
        final long value = in.readLong(path + ".value");
        final String string = in.readBoolean(path + ".string.present") ? in.readString(path + ".string") : null;
        if (kind == DataType.Kind.DATE && !isNull && !isDate(value)) {
            throw in.error(path + ".value", at, "epoch day " + value + " is no date: a DATE literal lies within "
                    + EPOCH_DAYS);
        }
        return PlanCodec.build(in, path, at, () -> new Literal(new DataType(kind, scale), value, string, isNull));
    }

    private static final java.time.temporal.ValueRange EPOCH_DAYS = java.time.temporal.ChronoField.EPOCH_DAY.range();

    /** Whether an epoch day is a date {@link java.time.LocalDate} can hold. */
    private static boolean isDate(final long epochDay) {
        return EPOCH_DAYS.isValidValue(epochDay);
    }
}
