package io.sluice.engine.expr;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

/**
 * A scalar expression over named columns, written by a plan and bound to an input
 * {@link RowType} once per worker ({@link #bind}). The static methods are the vocabulary plans use:
 * {@code mul(col("l_extendedprice"), sub(lit(1), col("l_discount")))}. Constants, including
 * date arithmetic ({@link Dates}), are folded when the plan is written. The set of expression
 * types is closed, so a plan can be shipped to another process and rebuilt there exactly.
 *
 * <p>Expressions follow SQL's NULL semantics ({@link Evaluator#nulls}): an operator is NULL where an
 * operand is, AND and OR are three-valued, CASE takes a branch only where its condition is TRUE.
 */
public sealed interface Expr
        permits ColumnRef, Literal, Arithmetic, Comparison, Logical, Not, InList, Like, CaseWhen, ExtractYear,
        DoubleArithmetic, Substring, IsNull, ScalarFunction {
    /** An evaluator of this expression over batches of the given row type (fresh scratch arrays). */
    Evaluator bind(RowType input);

    /** A column by name. */
    static Expr col(final String name) {
        return new ColumnRef(name);
    }

    /** An integer constant (INT64). */
    static Expr lit(final long value) {
        return Literal.ofLong(value);
    }

    /** A decimal constant with the scale it is written with: {@code dec("0.06")} is DECIMAL scale 2. */
    static Expr dec(final String value) {
        return Literal.ofDecimal(new BigDecimal(value));
    }

    /** A string constant. */
    static Expr str(final String value) {
        return Literal.ofString(value);
    }

    /** A date constant from {@code yyyy-mm-dd}. */
    static Expr date(final String isoDate) {
        return Literal.ofDate(LocalDate.parse(isoDate));
    }

    /** A date constant. */
    static Expr date(final LocalDate date) {
        return Literal.ofDate(date);
    }

    /** The NULL of a type, e.g. {@code nullOf(DataType.INT64)}. */
    static Expr nullOf(final DataType type) {
        return Literal.ofNull(type);
    }

    static Expr add(final Expr a, final Expr b) {
        return new Arithmetic(Arithmetic.Op.ADD, a, b);
    }

    static Expr sub(final Expr a, final Expr b) {
        return new Arithmetic(Arithmetic.Op.SUB, a, b);
    }

    static Expr mul(final Expr a, final Expr b) {
        return new Arithmetic(Arithmetic.Op.MUL, a, b);
    }

    static Expr eq(final Expr a, final Expr b) {
        return new Comparison(Comparison.Op.EQ, a, b);
    }

    static Expr ne(final Expr a, final Expr b) {
        return new Comparison(Comparison.Op.NE, a, b);
    }

    static Expr lt(final Expr a, final Expr b) {
        return new Comparison(Comparison.Op.LT, a, b);
    }

    static Expr le(final Expr a, final Expr b) {
        return new Comparison(Comparison.Op.LE, a, b);
    }

    static Expr gt(final Expr a, final Expr b) {
        return new Comparison(Comparison.Op.GT, a, b);
    }

    static Expr ge(final Expr a, final Expr b) {
        return new Comparison(Comparison.Op.GE, a, b);
    }

    /** {@code lo <= e AND e <= hi}. */
    static Expr between(final Expr e, final Expr lo, final Expr hi) {
        return and(ge(e, lo), le(e, hi));
    }

    static Expr and(final Expr... terms) {
        return new Logical(Logical.Op.AND, List.of(terms));
    }

    static Expr or(final Expr... terms) {
        return new Logical(Logical.Op.OR, List.of(terms));
    }

    static Expr not(final Expr e) {
        return new Not(e);
    }

    /** {@code e IN (values)}; values are literals of one type. */
    static Expr in(final Expr e, final Expr... values) {
        return new InList(e, List.of(values));
    }

    /** {@code e IN ('a', 'b', ...)}. */
    static Expr in(final Expr e, final String... values) {
        final Expr[] literals = new Expr[values.length];
        for (int i = 0; i < values.length; i++) {
            literals[i] = str(values[i]);
        }
        return new InList(e, List.of(literals));
    }

    /** {@code e LIKE pattern} with {@code %} wildcards (prefix, suffix, contains and their sequences). */
    static Expr like(final Expr e, final String pattern) {
        return new Like(e, pattern);
    }

    /** {@code CASE WHEN condition THEN then ELSE otherwise END}. */
    static Expr caseWhen(final Expr condition, final Expr then, final Expr otherwise) {
        return new CaseWhen(condition, then, otherwise);
    }

    /** {@code CASE WHEN condition THEN then END}: NULL where the condition is not TRUE. */
    static Expr caseWhen(final Expr condition, final Expr then) {
        return new CaseWhen(condition, then, null);
    }

    /** {@code e IS NULL}. */
    static Expr isNull(final Expr e) {
        return new IsNull(e, false);
    }

    /** {@code e IS NOT NULL}. */
    static Expr isNotNull(final Expr e) {
        return new IsNull(e, true);
    }

    /** {@code COALESCE(first, rest...)}: the first operand that is not NULL, as a chain of CASEs. */
    static Expr coalesce(final Expr first, final Expr... rest) {
        if (rest.length == 0) {
            return first;
        }
        return new CaseWhen(isNotNull(first), first, coalesce(rest[0], Arrays.copyOfRange(rest, 1, rest.length)));
    }

    /** {@code NULLIF(a, b)}: NULL where {@code a = b}, else {@code a} (also where {@code b} is NULL). */
    static Expr nullIf(final Expr a, final Expr b) {
        return caseWhen(or(ne(a, b), isNull(b)), a);
    }

    /** {@code EXTRACT(YEAR FROM date)} as INT64. */
    static Expr year(final Expr date) {
        return new ExtractYear(date);
    }

    /** {@code a / b} in double precision (SQL division of exact numbers gives a DOUBLE). */
    static Expr div(final Expr a, final Expr b) {
        return new DoubleArithmetic(DoubleArithmetic.Op.DIV, a, b);
    }

    /** {@code SUBSTRING(value FROM start FOR length)}, characters counted from 1. */
    static Expr substring(final Expr value, final int start, final int length) {
        return new Substring(value, start, length);
    }

    /** A function of {@link ScalarFunction}'s list with the result type {@code type}, e.g. {@code UPPER(s)}. */
    static Expr function(final ScalarFunction.Function function, final DataType type, final Expr... arguments) {
        return new ScalarFunction(function, List.of(arguments), type).folded();
    }
}
